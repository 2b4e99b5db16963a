"""Loops of the streaming ingestion (:mod:`mcda.ingest`), over Arrow string buffers.

An Arrow string column is two buffers: ``offsets`` (n + 1 positions, int32 or int64) and
``data`` (the UTF-8 bytes of all labels one after the other). The kernels read them directly,
so no label ever becomes a Python string.

The hash of a label is FNV-1a 64 over its little-endian 32-bit words (then its last one to three
bytes one by one), then the splitmix64 finaliser (so the top
bits, which pick the partition, are well mixed), then ``& mask`` (all ones but in a test that
forces every label onto one hash).

Pass 1 (one batch of rows):

- :func:`batch_partitions`: each row's partition, the rows and label bytes per partition, the
  widest label (code points), the longest (bytes) and the number of empty labels, in one
  pass over the bytes;
- :func:`batch_segments`: the batch's rows laid out partition by partition, one *segment* per
  partition, each self-describing (see :func:`segment_bytes`), ready to be written to the
  spill file in one write.

Pass 2 (one partition):

- :func:`gather_segments`: a partition's segments (read back from the spill file one after
  the other) into flat columns;
- :func:`group_labels`: the distinct labels of a partition (a hash table, labels compared
  byte by byte, so two labels sharing a hash stay apart), each row's group, one first row and
  the hash of each group;
- :func:`scatter_grouped`: the datasets x methods block from the rows, and the first rows
  that repeat a (dataset, method) cell already given;
- :func:`utf8_to_ucs4`: chosen labels decoded from UTF-8 into the code points of a ``<U``
  array.

:func:`label_hashes` gives the hash alone. Each kernel has a plain Python reference in
``tests/test_ingest.py``.
"""

from __future__ import annotations

import numpy as np

from ._jit import jit

__all__ = ["label_hashes", "max_code_points", "batch_partitions", "width_for", "segment_bytes", "batch_segments",
           "gather_segments", "group_labels", "scatter_grouped", "utf8_to_ucs4"]

_FNV_OFFSET = np.uint64(0xCBF29CE484222325)
_FNV_PRIME = np.uint64(0x100000001B3)
ALL_BITS = np.uint64(0xFFFFFFFFFFFFFFFF)


@jit(nogil=True)
def _mix(h):
    # splitmix64's finaliser (Steele, Lea & Flood 2014)
    h = (h ^ (h >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    h = (h ^ (h >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return h ^ (h >> np.uint64(31))


@jit(nogil=True)
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


@jit(nogil=True)
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
    the longest in bytes, the number of empty labels)."""
    n = offsets.size - 1
    counts = np.zeros(n_parts, dtype=np.int64)
    sizes = np.zeros(n_parts, dtype=np.int64)
    pmask = np.uint64(n_parts - 1)
    ushift = np.uint64(shift) if n_parts > 1 else np.uint64(0)
    width = 0
    longest = 0
    empty = 0
    for i in range(n):
        start = offsets[i]
        stop = offsets[i + 1]
        h, high = _fnv4(data, start, stop)
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
        p = 0
        if n_parts > 1:
            p = np.int64(((_mix(h) & mask) >> ushift) & pmask)
        part[i] = p
        counts[p] += 1
        sizes[p] += length
    return counts, sizes, width, longest, empty


def width_for(largest: int) -> int:
    """Bytes (1, 2 or 4) of a little-endian unsigned integer that holds ``largest``."""
    return 1 if largest < 1 << 8 else 2 if largest < 1 << 16 else 4


@jit(nogil=True)
def segment_bytes(rows, label_bytes, code_width, length_width):
    """Bytes of one segment: a header of three int64 (rows, label bytes, the two widths), the
    scores (float64), then row by row the method code (``code_width`` bytes), the label's length
    (``length_width`` bytes) and its bytes; padded to 8 bytes."""
    return 24 + 8 * rows + ((rows * (code_width + length_width) + label_bytes + 7) // 8) * 8


@jit(nogil=True)
def batch_segments(offsets, data, codes, scores, part, counts, sizes, code_width, length_width, out):
    """The batch's rows into ``out`` (int64 words), partition by partition, one segment each
    (the rows of a segment keep their batch order). Returns each segment's start (bytes)."""
    n_parts = counts.size
    starts = np.zeros(n_parts + 1, dtype=np.int64)
    for p in range(n_parts):
        size = segment_bytes(counts[p], sizes[p], code_width, length_width) if counts[p] else 0
        starts[p + 1] = starts[p] + size
    raw = out.view(np.uint8)
    as_float = out.view(np.float64)
    row_at = np.empty(n_parts, dtype=np.int64)  # next score (float64 index) of each segment
    byte_at = np.empty(n_parts, dtype=np.int64)  # next byte of each segment's row stream
    for p in range(n_parts):
        if counts[p]:
            s = starts[p]
            out[s // 8] = counts[p]
            out[s // 8 + 1] = sizes[p]
            out[s // 8 + 2] = code_width | (length_width << 8)
            row_at[p] = s // 8 + 3
            byte_at[p] = s + 24 + 8 * counts[p]
    for i in range(offsets.size - 1):
        p = part[i]
        as_float[row_at[p]] = scores[i]
        row_at[p] += 1
        b = byte_at[p]
        code = codes[i]
        for q in range(code_width):
            raw[b + q] = (code >> (8 * q)) & 0xFF
        b += code_width
        start = offsets[i]
        length = offsets[i + 1] - start
        for q in range(length_width):
            raw[b + q] = (length >> (8 * q)) & 0xFF
        b += length_width
        for q in range(length):
            raw[b + q] = data[start + q]
        byte_at[p] = b + length
    return starts


# --------------------------------------------------------------------------- pass 2


@jit(nogil=True)
def gather_segments(buffer):
    """Segments one after the other in ``buffer`` (int64 words) -> (scores, int32 codes, int64
    offsets, label bytes) of all their rows, in order."""
    raw = buffer.view(np.uint8)
    as_float = buffer.view(np.float64)
    end = buffer.size * 8
    n_rows = 0
    n_bytes = 0
    pos = 0
    while pos < end:
        w = buffer[pos // 8 + 2]
        n_rows += buffer[pos // 8]
        n_bytes += buffer[pos // 8 + 1]
        pos += segment_bytes(buffer[pos // 8], buffer[pos // 8 + 1], w & 0xFF, w >> 8)
    scores = np.empty(n_rows, dtype=np.float64)
    codes = np.empty(n_rows, dtype=np.int32)
    offsets = np.empty(n_rows + 1, dtype=np.int64)
    data = np.empty(n_bytes, dtype=np.uint8)
    offsets[0] = 0
    pos = 0  # bytes into buffer
    row = 0
    byte = 0
    while pos < end:
        c = buffer[pos // 8]
        w = buffer[pos // 8 + 2]
        code_width, length_width = w & 0xFF, w >> 8
        first = pos // 8 + 3
        for r in range(c):
            scores[row + r] = as_float[first + r]
        b = pos + 24 + 8 * c
        for r in range(c):
            code = 0
            for q in range(code_width):
                code |= np.int64(raw[b + q]) << (8 * q)
            b += code_width
            length = 0
            for q in range(length_width):
                length |= np.int64(raw[b + q]) << (8 * q)
            b += length_width
            codes[row + r] = code
            for q in range(length):
                data[byte + q] = raw[b + q]
            b += length
            byte += length
            offsets[row + r + 1] = byte
        row += c
        pos += segment_bytes(c, buffer[pos // 8 + 1], code_width, length_width)
    return scores, codes, offsets, data


@jit(nogil=True)
def _grown(array, size):
    out = np.empty(size, dtype=array.dtype)
    out[:array.size] = array
    return out


@jit(nogil=True)
def group_labels(offsets, data, mask):
    """(group of each row, first row of each group, hash of each group); groups numbered in
    order of first appearance.

    Two rows share a group when their labels are equal byte for byte: the hash only finds the
    candidates in an open-addressing table (which holds the hash beside the group, so a probe
    reads one place). The table grows with the groups (not the rows) and each group's label is
    copied once into a compact buffer, so the lookups stay in cache.
    """
    n = offsets.size - 1
    size = 1 << 10
    while size < n // 4:
        size *= 2
    table = np.full(size, -1, dtype=np.int64)
    table_hash = np.zeros(size, dtype=np.uint64)
    capacity = max(16, size // 2)
    group_hash = np.empty(capacity, dtype=np.uint64)
    group_start = np.empty(capacity, dtype=np.int64)
    group_length = np.empty(capacity, dtype=np.int64)
    first = np.empty(capacity, dtype=np.int64)
    text = np.empty(max(1 << 12, capacity * 16), dtype=np.uint8)
    used = 0
    n_groups = 0
    group = np.empty(n, dtype=np.int64)
    mask_t = np.uint64(size - 1)
    for r in range(n):
        start = offsets[r]
        length = offsets[r + 1] - start
        h = _hash(data, start, start + length, mask)
        slot = h & mask_t
        while True:
            g = table[slot]
            if g < 0:
                break
            if table_hash[slot] == h and group_length[g] == length:
                s = group_start[g]
                equal = True
                for q in range(length):
                    if text[s + q] != data[start + q]:
                        equal = False
                        break
                if equal:
                    break
            slot = (slot + np.uint64(1)) & mask_t
        if g >= 0:
            group[r] = g
            continue
        # a new group
        if n_groups == capacity:
            capacity *= 2
            group_hash = _grown(group_hash, capacity)
            group_start = _grown(group_start, capacity)
            group_length = _grown(group_length, capacity)
            first = _grown(first, capacity)
        if used + length > text.size:
            text = _grown(text, max(2 * text.size, used + length))
        for q in range(length):
            text[used + q] = data[start + q]
        group_hash[n_groups] = h
        group_start[n_groups] = used
        group_length[n_groups] = length
        first[n_groups] = r
        used += length
        table[slot] = n_groups
        table_hash[slot] = h
        group[r] = n_groups
        n_groups += 1
        if 2 * n_groups > size:  # keep the table at most half full
            size *= 2
            table = np.full(size, -1, dtype=np.int64)
            table_hash = np.zeros(size, dtype=np.uint64)
            mask_t = np.uint64(size - 1)
            for g2 in range(n_groups):
                slot = group_hash[g2] & mask_t
                while table[slot] >= 0:
                    slot = (slot + np.uint64(1)) & mask_t
                table[slot] = g2
                table_hash[slot] = group_hash[g2]
    return group, first[:n_groups].copy(), group_hash[:n_groups].copy()


@jit(nogil=True)
def scatter_grouped(group, position, codes, recode, scores, n_rows, n_columns, max_shown):
    """``block[position[group[i]], recode[codes[i]]] = scores[i]`` (NaN elsewhere), and the
    first ``max_shown`` rows whose cell an earlier row already gave (a duplicate, whatever
    the scores), with how many there are."""
    block = np.full((n_rows, n_columns), np.nan)
    given = np.zeros((n_rows, n_columns), dtype=np.bool_)
    shown = np.empty(max_shown, dtype=np.int64)
    n_repeated = 0
    for i in range(group.size):
        r = position[group[i]]
        c = recode[codes[i]]
        if given[r, c]:
            if n_repeated < max_shown:
                shown[n_repeated] = i
            n_repeated += 1
        else:
            given[r, c] = True
            block[r, c] = scores[i]
    return block, shown[:min(n_repeated, max_shown)].copy(), n_repeated


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
