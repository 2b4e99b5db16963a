"""Loops of the streaming ingestion (:mod:`mcda.ingest.convert`), over Arrow string buffers.

An Arrow string column is two buffers: ``offsets`` (n + 1 positions, int32 or int64) and
``data`` (the UTF-8 bytes of all labels one after the other). The kernels read them directly,
so no label ever becomes a Python string.

The hash of a label is FNV-1a 64 over its little-endian 32-bit words (then its last one to three
bytes one by one), then the splitmix64 finaliser (so the top
bits, which pick the partition, are well mixed), then ``& mask`` (all ones but in a test that
forces every label onto one hash).

Pass 1 (one batch of rows):

- :func:`batch_partitions`: each row's partition, the rows and label bytes per partition, the
  widest label (code points), the longest and shortest (bytes), the number of empty labels and
  the prefix all the batch's labels share, in one pass over the bytes;
- :func:`lay_out_segments`: the batch's rows laid out partition by partition, one *segment* per
  partition, each self-describing (see :func:`segment_bytes`: the shared prefix once, no
  lengths when all labels have one), each where the caller says (its partition's slot in the
  spill file's buffer; :func:`segment_starts` gives the places of segments one after the
  other). A segment of no rows is padding (:func:`write_padding`): the
  reads of the spill file start on page boundaries.

Pass 2 (one partition):

- :func:`assemble_segments`: straight from a partition's segments (read back from the spill
  file one after the other), its distinct labels (a hash table, labels compared byte by byte,
  so two labels sharing a hash stay apart), their hashes and bytes, the datasets x methods
  block and the cells a second row gave (duplicates), in one pass over the rows;
  (:func:`assemble_rows`, or :func:`assemble_rows_short` when no label is longer than 16
  bytes: a label is then two words, compared at once, placed in the table by a cheaper hash
  and given the label hash once, when its dataset is first met);
- :func:`gather_segments`: the segments back into flat columns (only to split a partition that
  outgrew the memory budget);
- :func:`utf8_to_ucs4`: chosen labels decoded from UTF-8 into the code points of a ``<U``
  array; :func:`in_store_order` gives a partition's block and labels in the order of its groups'
  hashes (sorted by numpy), in one call.

:func:`label_hashes` gives the hash alone. Each kernel has a plain Python reference in
``tests/test_ingest.py``.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic

from mcda._core._kernels._jit import jit

__all__ = ["label_hashes", "max_code_points", "batch_partitions", "width_for", "segment_bytes",
           "segment_starts", "lay_out_segments", "copy_segments", "write_padding",
           "gather_segments", "assemble_rows", "assemble_rows_short", "assemble_segments", "Scratch",
           "rows_in_segments", "take_rows",
           "in_store_order", "utf8_to_ucs4"]


@intrinsic
def _load8(typingctx, array, byte):
    """The 8 bytes at byte ``byte`` of a C-contiguous array's data as a little-endian uint64, at
    any alignment (one unaligned load, where a load per byte cost several nanoseconds a label in
    pass 1). The caller keeps ``byte + 8`` within the array."""
    if not (isinstance(array, types.Array) and array.layout == "C" and isinstance(byte, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        at = context.cast(builder, args[1], signature.args[1], types.intp)
        pointer = builder.gep(builder.bitcast(data, ir.IntType(8).as_pointer()), [at])
        return builder.load(builder.bitcast(pointer, ir.IntType(64).as_pointer()), align=1)

    return types.uint64(array, byte), codegen


@intrinsic
def _store8(typingctx, array, byte, value):
    """Write ``value`` (uint64, little-endian) to the 8 bytes at byte ``byte`` of a C-contiguous
    array's data, at any alignment. The caller keeps ``byte + 8`` within the array."""
    if not (isinstance(array, types.Array) and array.layout == "C" and isinstance(byte, types.Integer)
            and isinstance(value, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        at = context.cast(builder, args[1], signature.args[1], types.intp)
        word = context.cast(builder, args[2], signature.args[2], types.uint64)
        pointer = builder.gep(builder.bitcast(data, ir.IntType(8).as_pointer()), [at])
        builder.store(word, builder.bitcast(pointer, ir.IntType(64).as_pointer()), align=1)
        return context.get_dummy_value()

    return types.none(array, byte, value), codegen


_FNV_OFFSET = np.uint64(0xCBF29CE484222325)
_FNV_PRIME = np.uint64(0x100000001B3)
ALL_BITS = np.uint64(0xFFFFFFFFFFFFFFFF)


@jit(nogil=True, inline="always")
def _mix(h):
    # splitmix64's finaliser (Steele, Lea & Flood 2014)
    h = (h ^ (h >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    h = (h ^ (h >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return h ^ (h >> np.uint64(31))


@jit(nogil=True, inline="always")
def _fnv4(data, start, stop):
    """FNV-1a over the label's little-endian 32-bit words, then over its last bytes one by one;
    and the OR of its bytes (a byte >= 0x80: not ASCII)."""
    h = _FNV_OFFSET
    high = np.uint64(0)
    p = start
    while p + 4 <= stop:
        w = (np.uint64(data[p]) | (np.uint64(data[p + 1]) << np.uint64(8)) | (np.uint64(data[p + 2]) << np.uint64(16))
             | (np.uint64(data[p + 3]) << np.uint64(24)))
        high |= w
        h = (h ^ w) * _FNV_PRIME
        p += 4
    while p < stop:
        b = np.uint64(data[p])
        high |= b
        h = (h ^ b) * _FNV_PRIME
        p += 1
    return h, high


@jit(nogil=True, inline="always")
def _fnv4_head(data, start, stop):
    """:func:`_fnv4`, and the label's first (up to) 8 bytes as a little-endian word (zero above
    them), put together from the words the hash reads anyway."""
    h = _FNV_OFFSET
    high = np.uint64(0)
    head = np.uint64(0)
    p = start
    while p + 4 <= stop:
        w = (np.uint64(data[p]) | (np.uint64(data[p + 1]) << np.uint64(8)) | (np.uint64(data[p + 2]) << np.uint64(16))
             | (np.uint64(data[p + 3]) << np.uint64(24)))
        if p - start < 8:
            head |= w << np.uint64(8 * (p - start))
        high |= w
        h = (h ^ w) * _FNV_PRIME
        p += 4
    while p < stop:
        b = np.uint64(data[p])
        if p - start < 8:
            head |= b << np.uint64(8 * (p - start))
        high |= b
        h = (h ^ b) * _FNV_PRIME
        p += 1
    return h, high, head


@jit(nogil=True, inline="always")
def _hash(data, start, stop, mask):
    h, _ = _fnv4(data, start, stop)
    return _mix(h) & mask


@jit(nogil=True)
def label_hashes(offsets, data, mask=ALL_BITS):
    """uint64 hash of each label ``data[offsets[i]:offsets[i + 1]]``."""
    n = offsets.size - 1
    out = np.empty(n, dtype=np.uint64)
    for i in range(n):
        out[i] = _hash(data, offsets[i], offsets[i + 1], mask)
    return out


@jit(nogil=True)
def max_code_points(offsets, data):
    """The largest number of code points of a label (bytes that are not UTF-8 continuation bytes)."""
    n = offsets.size - 1
    best = 0
    for i in range(n):
        count = 0
        for p in range(offsets[i], offsets[i + 1]):
            if (data[p] & 0xC0) != 0x80:
                count += 1
        if count > best:
            best = count
    return best


# --------------------------------------------------------------------------- pass 1


@jit(nogil=True)
def batch_partitions(offsets, data, mask, shift, n_parts, part):
    """``part[i]`` = the partition of row i, ``(hash >> shift) & (n_parts - 1)`` (0 for one part).

    Returns (rows per partition, label bytes per partition, the widest label in code points,
    the longest in bytes, the number of empty labels, the shortest in bytes, the length of the
    prefix all the labels share), in one pass over the bytes."""
    n = offsets.size - 1
    counts = np.zeros(n_parts, dtype=np.int64)
    sizes = np.zeros(n_parts, dtype=np.int64)
    pmask = np.uint64(n_parts - 1)
    ushift = np.uint64(shift) if n_parts > 1 else np.uint64(0)
    width = 0
    longest = 0
    shortest = offsets[1] - offsets[0] if n else 0
    empty = 0
    first = offsets[0] if n else 0
    prefix = shortest  # the bytes every label shares with the first one
    first_head = np.uint64(0)  # the first label's first 8 bytes
    for q in range(min(prefix, 8)):
        first_head |= np.uint64(data[first + q]) << np.uint64(8 * q)
    for i in range(n):
        start = offsets[i]
        stop = offsets[i + 1]
        h, high, head = _fnv4_head(data, start, stop)
        length = stop - start
        points = length
        if high & np.uint64(0x80808080):  # not ASCII: count the bytes that start a code point
            points = 0
            for q in range(start, stop):
                if (data[q] & 0xC0) != 0x80:
                    points += 1
        if length == 0:
            empty += 1
        if points > width:
            width = points
        if length > longest:
            longest = length
        if length < shortest:
            shortest = length
        if prefix > length:
            prefix = length
        if prefix:  # the first (up to) 8 bytes in one comparison, any beyond them one by one
            if prefix < 8:
                differ = (head ^ first_head) & ((np.uint64(1) << np.uint64(8 * prefix)) - np.uint64(1))
            else:
                differ = head ^ first_head
            if differ:
                q = 0
                while (differ >> np.uint64(8 * q)) & np.uint64(0xFF) == 0:
                    q += 1
                prefix = q
            else:
                for q in range(8, prefix):
                    if data[start + q] != data[first + q]:
                        prefix = q
                        break
        p = 0
        if n_parts > 1:
            p = np.int64(((_mix(h) & mask) >> ushift) & pmask)
        part[i] = p
        counts[p] += 1
        sizes[p] += length
    return counts, sizes, width, longest, empty, shortest, prefix


def width_for(largest: int) -> int:
    """Bytes (1, 2 or 4) of a little-endian unsigned integer that holds ``largest``."""
    return 1 if largest < 1 << 8 else 2 if largest < 1 << 16 else 4


@jit(nogil=True, inline="always")
def _pad8(n):
    return ((n + 7) // 8) * 8


@jit(nogil=True, inline="always")
def segment_bytes(rows, stored_bytes, code_width, length_width, prefix_length):
    """Bytes of one segment: a header of four int64 (rows; label bytes stored; the two widths and
    the prefix's length, ``code_width | length_width << 8 | prefix_length << 16``; the length of
    the batch's longest label, every label's length when ``length_width`` is 0), the prefix the segment's labels
    share (padded to 8 bytes), the scores (float64), then row by row the method code
    (``code_width`` bytes), the length of the rest of the label (``length_width`` bytes, none
    when all labels have one length) and the rest of its bytes; padded to 8 bytes.
    ``stored_bytes`` counts the label bytes after the prefix."""
    return 32 + _pad8(prefix_length) + 8 * rows + _pad8(rows * (code_width + length_width) + stored_bytes)


@jit(nogil=True)
def segment_starts(counts, sizes, code_width, length_width, prefix_length):
    """Each partition's segment one after the other: the byte where partition p's starts
    (``starts[p + 1] - starts[p]`` its bytes, 0 for a partition without rows)."""
    n_parts = counts.size
    starts = np.zeros(n_parts + 1, dtype=np.int64)
    for p in range(n_parts):
        size = 0
        if counts[p]:
            size = segment_bytes(counts[p], sizes[p] - counts[p] * prefix_length, code_width, length_width,
                                 prefix_length)
        starts[p + 1] = starts[p] + size
    return starts


@jit(nogil=True)
def lay_out_segments(offsets, data, codes, scores, part, counts, sizes, code_width, length_width, prefix_length,
                     starts, out):
    """The batch's rows into ``out`` (int64 words), partition by partition, partition p's segment
    at byte ``starts[p]`` (8-byte aligned; anywhere, e.g. in a slot of the spill's buffer). The
    rows of a segment keep their batch order; every label's first ``prefix_length`` bytes
    (shared by all the batch's labels) are written once per segment; ``length_width`` 0: every
    label has the first one's length.

    A row's code, length and label bytes are written 8 bytes at a time (:func:`_store8`), the
    last word reaching up to 7 bytes past the row: the next row of its segment writes over them,
    or the segment's padding (zeroed at the end) and the header of the segment after it (written
    after the rows), so ``out`` needs 8 bytes beyond the last segment."""
    n_parts = counts.size
    raw = out.view(np.uint8)
    as_float = out.view(np.float64)
    row_at = np.empty(n_parts, dtype=np.int64)  # next score (float64 index) of each segment
    byte_at = np.empty(n_parts, dtype=np.int64)  # next byte of each segment's row stream
    first = offsets[0] if offsets.size > 1 else 0
    longest = 0
    for i in range(offsets.size - 1):
        longest = max(longest, offsets[i + 1] - offsets[i])
    for p in range(n_parts):
        if counts[p]:
            s = starts[p]
            row_at[p] = (s + 32 + _pad8(prefix_length)) // 8
            byte_at[p] = s + 32 + _pad8(prefix_length) + 8 * counts[p]
    head_width = code_width + length_width  # at most 8
    for i in range(offsets.size - 1):
        p = part[i]
        as_float[row_at[p]] = scores[i]
        row_at[p] += 1
        b = byte_at[p]
        start = offsets[i] + prefix_length
        length = offsets[i + 1] - start
        _store8(raw, b, np.uint64(codes[i]) | (np.uint64(length) << np.uint64(8 * code_width)))
        b += head_width
        if start + _pad8(length) <= data.size:  # read a word at a time within data
            for q in range(0, length, 8):
                _store8(raw, b + q, _load8(data, start + q))
        else:  # the buffer's last labels, byte by byte
            for q in range(length):
                raw[b + q] = data[start + q]
        byte_at[p] = b + length
    for p in range(n_parts):  # headers and prefixes, and the padding zeroed (the file's bytes do not depend on
        if counts[p]:         # memory left over)
            s = starts[p]
            out[s // 8] = counts[p]
            out[s // 8 + 1] = sizes[p] - counts[p] * prefix_length
            out[s // 8 + 2] = code_width | (length_width << 8) | (prefix_length << 16)
            out[s // 8 + 3] = longest
            for q in range(_pad8(prefix_length)):
                raw[s + 32 + q] = data[first + q] if q < prefix_length else 0
            end = s + segment_bytes(counts[p], sizes[p] - counts[p] * prefix_length, code_width,
                                    length_width, prefix_length)
            for b in range(byte_at[p], end):
                raw[b] = 0


@jit(nogil=True)
def copy_segments(source, starts, target, at):
    """Segment p of ``source`` (int64 words; bytes ``starts[p] .. starts[p + 1]``) to byte
    ``at[p]`` of ``target``, for every partition with a segment: a batch laid out in a small
    buffer (it stays in the processor's cache) goes to its slots in sequential copies."""
    for p in range(starts.size - 1):
        n = (starts[p + 1] - starts[p]) // 8
        if n:
            a = starts[p] // 8
            b = at[p] // 8
            for w in range(n):
                target[b + w] = source[a + w]


@jit(nogil=True)
def write_padding(buffer, at, length):
    """A segment of no rows covering bytes ``at .. at + length`` of ``buffer`` (int64 words;
    ``length`` a multiple of 8, at least 32): its header says so, its bytes are skipped."""
    w = at // 8
    buffer[w] = 0
    buffer[w + 1] = length - 32
    buffer[w + 2] = 0
    buffer[w + 3] = 0


# --------------------------------------------------------------------------- pass 2


@jit(nogil=True, inline="always")
def _segment_header(buffer, pos):
    """(rows, stored label bytes, code width, length width, prefix length, longest label) of the
    segment at byte ``pos`` (the longest is every label's length when the length width is 0)."""
    w = buffer[pos // 8 + 2]
    return buffer[pos // 8], buffer[pos // 8 + 1], w & 0xFF, (w >> 8) & 0xFF, w >> 16, buffer[pos // 8 + 3]


@jit(nogil=True)
def gather_segments(buffer):
    """Segments one after the other in ``buffer`` (int64 words) -> (scores, int32 codes, int64
    offsets, label bytes) of all their rows, in order, the labels whole again."""
    raw = buffer.view(np.uint8)
    as_float = buffer.view(np.float64)
    end = buffer.size * 8
    n_rows = 0
    n_bytes = 0
    pos = 0
    while pos < end:
        c, stored, cw, lw, plen, uniform = _segment_header(buffer, pos)
        n_rows += c
        if c:  # (a segment of no rows is padding)
            n_bytes += stored + c * plen
        pos += segment_bytes(c, stored, cw, lw, plen)
    scores = np.empty(n_rows, dtype=np.float64)
    codes = np.empty(n_rows, dtype=np.int32)
    offsets = np.empty(n_rows + 1, dtype=np.int64)
    data = np.empty(n_bytes, dtype=np.uint8)
    offsets[0] = 0
    pos = 0  # bytes into buffer
    row = 0
    byte = 0
    while pos < end:
        c, stored, cw, lw, plen, uniform = _segment_header(buffer, pos)
        prefix_at = pos + 32
        first = (prefix_at + _pad8(plen)) // 8
        for r in range(c):
            scores[row + r] = as_float[first + r]
        b = prefix_at + _pad8(plen) + 8 * c
        for r in range(c):
            code = 0
            for q in range(cw):
                code |= np.int64(raw[b + q]) << (8 * q)
            b += cw
            length = uniform - plen
            if lw:
                length = 0
                for q in range(lw):
                    length |= np.int64(raw[b + q]) << (8 * q)
                b += lw
            codes[row + r] = code
            for q in range(plen):
                data[byte + q] = raw[prefix_at + q]
            byte += plen
            for q in range(length):
                data[byte + q] = raw[b + q]
            b += length
            byte += length
            offsets[row + r + 1] = byte
        row += c
        pos += segment_bytes(c, stored, cw, lw, plen)
    return scores, codes, offsets, data


@jit(nogil=True)
def _grown(array, size):
    out = np.empty(size, dtype=array.dtype)
    out[:array.size] = array
    return out


@jit(nogil=True)
def _grown_rows(array, rows, fill):
    out = np.full((rows, array.shape[1]), fill, dtype=array.dtype)
    out[:array.shape[0]] = array
    return out


NOT_GIVEN = np.int64(0x7FF8DEADBEEF0001)  # a NaN no score is stored as (a NaN score is stored as numpy's NaN)
_NAN_BITS = np.float64(np.nan).view(np.int64)


@jit(nogil=True, inline="always")
def _put_cell(cells, g, column, bits, shown, n_repeated):
    """Store one row's score bits in its cell (any NaN as numpy's: infinite scores were refused in
    pass 1), or count the row as a repeat of a given cell, the first ``shown.shape[0] - 1``
    repeats kept to be named; returns the new repeat count.

    Without a branch on the arrays: numba counts a reference to an array handed to an inlined
    helper when the helper uses it on one path only (an atomic increment and decrement a row: a
    third of the assembly's time, when this helper wrote ``shown`` only for a repeat). So every
    row writes a row of ``shown``: at the repeat count (the next repeat writes over it) or, once
    that many are kept, in its last row, which is not read."""
    old = cells[g, column]
    repeated = old != NOT_GIVEN
    if (bits & np.int64(0x7FF0000000000000)) == np.int64(0x7FF0000000000000):
        bits = _NAN_BITS
    cells[g, column] = old if repeated else bits
    at = min(n_repeated, shown.shape[0] - 1)
    shown[at, 0] = g
    shown[at, 1] = column
    return n_repeated + np.int64(repeated)


@jit(nogil=True)
def assemble_rows(buffer, mask, recode, label, state, table, group_hash, slot_hash, offsets, text, cells, shown):
    """The rows of :func:`assemble_segments` from ``state`` = (segment byte, row of the segment,
    byte of its row stream, groups, repeated cells) on, until the end (returns 0) or until a
    new group finds the group arrays full (1) or ``text`` full (2); ``state`` then points at
    that row, to be done again once the arrays have grown. (No array is replaced inside the
    loop: numba keeps the loop tight only then.) ``cells``: the block's float64 bits, a cell
    no row gave holds ``NOT_GIVEN``."""
    raw = buffer.view(np.uint8)
    words = buffer.view(np.uint64)
    scores = buffer.view(np.int64)  # the scores' bits
    end = buffer.size * 8
    capacity = group_hash.size
    mask_t = np.uint64(table.size - 1)
    pos, first_row, resume, n_groups, n_repeated = state[0], state[1], state[2], state[3], state[4]
    while pos < end:
        c, stored, cw, lw, plen, uniform = _segment_header(buffer, pos)
        prefix_at = pos + 32
        for q in range(plen):
            label[q] = raw[prefix_at + q]
        score_at = (prefix_at + _pad8(plen)) // 8
        b = prefix_at + _pad8(plen) + 8 * c if first_row == 0 else resume
        for r in range(first_row, c):
            row_at = b
            code = np.int64(_word_at(words, b, cw))  # (here, not in a helper that takes the array and branches: see _put_cell)
            b += cw
            rest = uniform - plen
            if lw:
                rest = np.int64(_word_at(words, b, lw))
                b += lw
            for q in range(rest):
                label[plen + q] = raw[b + q]
            b += rest
            length = plen + rest
            h = _hash(label, 0, length, mask)
            tag = np.int64(h >> np.uint64(32)) << 32
            slot = h & mask_t
            while True:
                entry = table[slot]  # (32 bits of the hash) << 32 | (group + 1); 0: empty
                if entry == 0:
                    g = -1
                    break
                if (entry & np.int64(-4294967296)) == tag:
                    g = (entry & np.int64(0xFFFFFFFF)) - 1
                    s = offsets[g]
                    if offsets[g + 1] - s == length:
                        equal = True
                        for q in range(length):
                            if text[s + q] != label[q]:
                                equal = False
                                break
                        if equal:
                            break
                slot = (slot + np.uint64(1)) & mask_t
            if g < 0:  # a new group
                used = offsets[n_groups]
                if n_groups == capacity or used + length > text.size:
                    state[0], state[1], state[2], state[3], state[4] = pos, r, row_at, n_groups, n_repeated
                    return 1 if n_groups == capacity else 2
                for q in range(length):
                    text[used + q] = label[q]
                g = n_groups
                group_hash[g] = h
                slot_hash[g] = h
                offsets[g + 1] = used + length
                table[slot] = tag | (g + 1)
                n_groups += 1
            n_repeated = _put_cell(cells, g, recode[code], scores[score_at + r], shown, n_repeated)
        pos += segment_bytes(c, stored, cw, lw, plen)
        first_row = 0
    state[0], state[1], state[2], state[3], state[4] = pos, 0, 0, n_groups, n_repeated
    return 0


@jit(nogil=True, inline="always")
def _hash_words(w0, w1, length, mask):
    """The label hash (:func:`_hash`) of a label of at most 16 bytes held in two little-endian
    words (zero beyond its length)."""
    h = _FNV_OFFSET
    p = 0
    while p + 4 <= length:
        w = w0 if p < 8 else w1
        h = (h ^ ((w >> np.uint64(8 * (p % 8))) & np.uint64(0xFFFFFFFF))) * _FNV_PRIME
        p += 4
    while p < length:
        w = w0 if p < 8 else w1
        h = (h ^ ((w >> np.uint64(8 * (p % 8))) & np.uint64(0xFF))) * _FNV_PRIME
        p += 1
    return _mix(h) & mask


@jit(nogil=True, inline="always")
def _word_at(words, b, n):
    """``n`` (at most 8) bytes from byte ``b`` of ``words`` (uint64, little-endian) as a word, zero
    above them (none when ``n`` <= 0): two aligned loads, shifts and a mask instead of a load per
    byte. Without a branch: whether the bytes reach into the next word changes from row to row,
    and a branch on it cost about 15 ns a call in pass 2 (mispredicted; 30 ns a row of the
    assembly's 66 on the benchmark's partitions). The next word is read even when the bytes do not
    reach it (the last word again at the end of ``words``: its bits are masked off), so the bytes
    asked for must lie inside ``words``."""
    i = b >> 3
    s = np.uint64(8 * (b & 7))
    j = min(i + 1, words.size - 1)
    v = (words[i] >> s) | ((words[j] << (np.uint64(63) - s)) << np.uint64(1))  # (two shifts: s may be 0)
    keep = ((np.uint64(1) << np.uint64(8 * min(max(n, 1), 8) - 1)) << np.uint64(1)) - np.uint64(1)
    return v & keep if n > 0 else np.uint64(0)


@jit(nogil=True, inline="always")
def _slot_hash(w0, w1, length):
    """The hash that places a short label (two words and its length) in the table of pass 2:
    cheaper than the label hash (which is computed once per dataset, for the store's order)."""
    x = (w0 * np.uint64(0x9E3779B97F4A7C15)) ^ (w1 * np.uint64(0xC2B2AE3D27D4EB4F)) ^ np.uint64(length)
    x = (x ^ (x >> np.uint64(32))) * np.uint64(0xD6E8FEB86659FD93)
    return x ^ (x >> np.uint64(29))


@jit(nogil=True)
def assemble_rows_short(buffer, mask, recode, state, table, group_hash, slot_hash, keys, offsets, text, cells,
                        shown):
    """:func:`assemble_rows` for labels of at most 16 bytes: a label is two words and its length,
    put together in two words, placed by a cheap hash (:func:`_slot_hash`; the label hash only
    for a new group) and compared with a group's (``keys[g]``) in three comparisons rather
    than byte by byte."""
    scores = buffer.view(np.int64)
    words = buffer.view(np.uint64)  # a row's fields read a word at a time (_word_at)
    end = buffer.size * 8
    capacity = group_hash.size
    mask_t = np.uint64(table.size - 1)
    pos, first_row, resume, n_groups, n_repeated = state[0], state[1], state[2], state[3], state[4]
    while pos < end:
        c, stored, cw, lw, plen, uniform = _segment_header(buffer, pos)
        prefix_at = pos + 32
        p0 = _word_at(words, prefix_at, min(plen, 8))
        p1 = _word_at(words, prefix_at + 8, plen - 8)
        shift = np.uint64(8 * (plen % 8))
        back = np.uint64(64 - 8 * (plen % 8))
        score_at = (prefix_at + _pad8(plen)) // 8
        b = prefix_at + _pad8(plen) + 8 * c if first_row == 0 else resume
        for r in range(first_row, c):
            row_at = b
            code = np.int64(_word_at(words, b, cw))
            b += cw
            rest = uniform - plen
            if lw:
                rest = np.int64(_word_at(words, b, lw))
                b += lw
            r0 = _word_at(words, b, min(rest, 8))
            if plen == 0:
                w0 = r0
                w1 = _word_at(words, b + 8, rest - 8)
            elif plen < 8:
                w0 = p0 | (r0 << shift)
                w1 = p1 | (r0 >> back) | (_word_at(words, b + 8, rest - 8) << shift)
            else:  # the rest is at most 8 bytes
                w0 = p0
                w1 = p1 | (r0 << shift)
            b += rest
            length = plen + rest
            x = _slot_hash(w0, w1, length)
            tag = np.int64(x >> np.uint64(32)) << 32
            slot = x & mask_t
            while True:
                entry = table[slot]  # (32 bits of the slot hash) << 32 | (group + 1); 0: empty
                if entry == 0:
                    g = -1
                    break
                if (entry & np.int64(-4294967296)) == tag:
                    g = (entry & np.int64(0xFFFFFFFF)) - 1
                    if keys[g, 0] == w0 and keys[g, 1] == w1 and keys[g, 2] == np.uint64(length):
                        break
                slot = (slot + np.uint64(1)) & mask_t
            if g < 0:  # a new group
                used = offsets[n_groups]
                if n_groups == capacity or used + length > text.size:
                    state[0], state[1], state[2], state[3], state[4] = pos, r, row_at, n_groups, n_repeated
                    return 1 if n_groups == capacity else 2
                for q in range(length):
                    w = w0 if q < 8 else w1
                    text[used + q] = np.uint8((w >> np.uint64(8 * (q % 8))) & np.uint64(0xFF))
                g = n_groups
                group_hash[g] = _hash_words(w0, w1, length, mask)
                slot_hash[g] = x
                keys[g, 0] = w0
                keys[g, 1] = w1
                keys[g, 2] = np.uint64(length)
                offsets[g + 1] = used + length
                table[slot] = tag | (g + 1)
                n_groups += 1
            n_repeated = _put_cell(cells, g, recode[code], scores[score_at + r], shown, n_repeated)
        pos += segment_bytes(c, stored, cw, lw, plen)
        first_row = 0
    state[0], state[1], state[2], state[3], state[4] = pos, 0, 0, n_groups, n_repeated
    return 0


@jit(nogil=True)
def _table_for(group_hash, n_groups, size):
    """The open-addressing table of the first ``n_groups`` groups: entries (32 bits of the
    hash) << 32 | (group + 1), 0 where empty."""
    table = np.zeros(size, dtype=np.int64)
    mask_t = np.uint64(size - 1)
    for g in range(n_groups):
        slot = group_hash[g] & mask_t
        while table[slot] != 0:
            slot = (slot + np.uint64(1)) & mask_t
        table[slot] = (np.int64(group_hash[g] >> np.uint64(32)) << 32) | (g + 1)
    return table


def assemble_segments(buffer, mask, recode, n_columns, max_shown, scratch=None):
    """One partition, its segments one after the other in ``buffer`` (int64 words), into a
    datasets x methods block, in one pass over its rows (:func:`assemble_rows`).

    Returns ``(block, group_hash, offsets, text, repeated, n_repeated)``: the datasets (groups)
    in order of first appearance, ``block[g, recode[code]]`` = the score of group g's row with
    that method code (NaN where none), the hash of each group's label, its label
    ``text[offsets[g]:offsets[g + 1]]``, and the first ``max_shown`` (group, column) cells a
    second row gave (a duplicate, whatever the scores) with how many there are. ``block`` and
    ``group_hash`` are views into ``scratch`` (a :class:`Scratch`, reused from one partition
    to the next so that no fresh memory is touched; a new one when None): use them before
    the next call, and hand the block's rows back with :func:`take_rows`.
    """
    if scratch is None:
        scratch = Scratch(n_columns, max_shown)
    n, longest = rows_in_segments(buffer)
    scratch.prepare(n // max(1, n_columns) + 16, longest)
    state = np.zeros(5, dtype=np.int64)
    short = longest <= 16  # two words a label
    while True:
        if short:
            status = assemble_rows_short(buffer, mask, recode, state, scratch.table, scratch.group_hash,
                                         scratch.slot_hash, scratch.keys,
                                         scratch.offsets, scratch.text, scratch.cells, scratch.shown)
        else:
            status = assemble_rows(buffer, mask, recode, scratch.label, state, scratch.table, scratch.group_hash,
                                   scratch.slot_hash,
                                   scratch.offsets, scratch.text, scratch.cells, scratch.shown)
        if status == 0:
            break
        if status == 1:
            scratch.grow_groups(int(state[3]))
        else:
            scratch.text = _grown(scratch.text, 2 * scratch.text.size + longest)
    n_groups, n_repeated = int(state[3]), int(state[4])
    return (scratch.cells[:n_groups], scratch.group_hash[:n_groups], scratch.offsets[:n_groups + 1],
            scratch.text[:scratch.offsets[n_groups]], scratch.shown[:min(n_repeated, max_shown)], n_repeated)


class Scratch:
    """The arrays of :func:`assemble_rows` for one thread, kept from one partition to the next."""

    def __init__(self, n_columns: int, max_shown: int):
        self.n_columns = n_columns
        self.capacity = 0
        self.table = np.zeros(0, dtype=np.int64)
        self.group_hash = np.empty(0, dtype=np.uint64)
        self.slot_hash = np.empty(0, dtype=np.uint64)  # what places each group in the table
        self.offsets = np.zeros(1, dtype=np.int64)
        self.text = np.empty(1 << 12, dtype=np.uint8)
        self.cells = np.full((0, n_columns), NOT_GIVEN, dtype=np.int64)
        self.keys = np.zeros((0, 3), dtype=np.uint64)  # a short label's two words and its length
        self.shown = np.empty((max_shown + 1, 2), dtype=np.int64)  # (+ the row _put_cell writes past those kept)
        self.label = np.empty(64, dtype=np.uint8)

    def prepare(self, groups: int, longest: int) -> None:
        """Room for about ``groups`` groups and labels of ``longest`` bytes; an empty table."""
        if groups > self.capacity:
            self.grow_groups(0, groups)
        self.table[:] = 0
        if longest > self.label.size:
            self.label = np.empty(longest, dtype=np.uint8)

    def grow_groups(self, n_groups: int, at_least: int = 0) -> None:
        capacity = max(16, at_least, 2 * self.capacity)
        self.group_hash = _grown(self.group_hash, capacity)
        self.slot_hash = _grown(self.slot_hash, capacity)
        self.offsets = _grown(self.offsets, capacity + 1)
        self.cells = _grown_rows(self.cells, capacity, NOT_GIVEN)
        self.keys = _grown_rows(self.keys, capacity, np.uint64(0))
        if self.text.size < 16 * capacity:
            self.text = _grown(self.text, 16 * capacity)
        size = 1 << 10
        while size < 2 * capacity:
            size *= 2
        self.table = _table_for(self.slot_hash, n_groups, size)
        self.capacity = capacity


@jit(nogil=True)
def rows_in_segments(buffer):
    """(rows, a bound on the longest label) of the segments one after the other in ``buffer``."""
    end = buffer.size * 8
    n = 0
    longest = 1
    pos = 0
    while pos < end:
        c, stored, cw, lw, plen, uniform = _segment_header(buffer, pos)
        n += c
        longest = max(longest, uniform)
        pos += segment_bytes(c, stored, cw, lw, plen)
    return n, longest


@jit(nogil=True)
def take_rows(cells, order):
    """The block in store order: ``block[i] = cells[order[i]]`` as float64 scores, NaN where no
    row gave a score; those rows of ``cells`` are cleared for the next partition."""
    block = np.empty((order.size, cells.shape[1]), dtype=np.float64)
    bits = block.view(np.int64)
    for i in range(order.size):
        g = order[i]
        for j in range(cells.shape[1]):
            v = cells[g, j]
            bits[i, j] = _NAN_BITS if v == NOT_GIVEN else v
            cells[g, j] = NOT_GIVEN
    return block


@jit(nogil=True)
def in_store_order(cells, group_hash, order, offsets, text, width):
    """A partition's block (:func:`take_rows`) and labels (:func:`utf8_to_ucs4`) in store order,
    ``order`` its groups sorted by hash (numpy's ``argsort``: vectorised, several times numba's),
    in one call (one release of the GIL, not one a step) when no two labels share a hash:
    returns (block, code points, False). When some do, (empty block, empty code points, True),
    the cells untouched: the caller orders the tied groups by their text."""
    for i in range(1, order.size):
        if group_hash[order[i]] == group_hash[order[i - 1]]:
            return np.empty((0, cells.shape[1]), dtype=np.float64), np.zeros((0, width), dtype=np.uint32), True
    return take_rows(cells, order), utf8_to_ucs4(offsets, text, order, width), False


@jit(nogil=True)
def utf8_to_ucs4(offsets, data, rows, width):
    """The labels at ``rows`` as a (len(rows), width) uint32 array of code points (zero padded),
    the memory layout of a numpy ``<U{width}`` array. Valid UTF-8 is assumed (Arrow checks it)."""
    out = np.zeros((rows.size, width), dtype=np.uint32)
    for i in range(rows.size):
        r = rows[i]
        p, stop, j = offsets[r], offsets[r + 1], 0
        while p < stop:
            b = np.uint32(data[p])
            if b < 0x80:
                cp, extra = b, 0
            elif b < 0xE0:
                cp, extra = b & np.uint32(0x1F), 1
            elif b < 0xF0:
                cp, extra = b & np.uint32(0x0F), 2
            else:
                cp, extra = b & np.uint32(0x07), 3
            for q in range(1, extra + 1):
                cp = (cp << np.uint32(6)) | (np.uint32(data[p + q]) & np.uint32(0x3F))
            out[i, j] = cp
            j += 1
            p += extra + 1
    return out
