"""Loops of the streaming ingestion (:mod:`mcda.ingest`), over Arrow string buffers.

An Arrow string column is two buffers: ``offsets`` (n + 1 positions) and ``data`` (the UTF-8
bytes of all labels one after the other). The kernels read them directly, so no label ever
becomes a Python string.

- :func:`label_hashes`: a 64-bit hash of each label (FNV-1a over its bytes, then the
  splitmix64 finaliser so the top bits, which pick the partition, are well mixed);
- :func:`max_code_points`: the longest label in Unicode code points (the width of the
  fixed-width ``<U`` label array of the store);
- :func:`partition_rows`: a counting sort of a batch's rows by partition, labels copied once;
- :func:`group_labels`: the distinct labels of a partition (a hash table, labels compared
  byte by byte, so two labels sharing a hash stay apart), each row's group and one first row
  per group;
- :func:`scatter_scores`: the datasets × methods block from the rows, and which rows repeat a
  (dataset, method) cell already given;
- :func:`utf8_to_ucs4`: chosen labels decoded from UTF-8 into the code points of a ``<U``
  array.

Each kernel has a plain Python reference in ``tests/test_ingest.py``.
"""

from __future__ import annotations

from ._jit import jit
import numpy as np

__all__ = ["label_hashes", "max_code_points", "partition_rows", "group_labels", "scatter_scores", "utf8_to_ucs4"]

_FNV_OFFSET = np.uint64(0xCBF29CE484222325)
_FNV_PRIME = np.uint64(0x100000001B3)


@jit(nogil=True)
def _mix(h):
    # splitmix64's finaliser (Steele, Lea & Flood 2014)
    h = (h ^ (h >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    h = (h ^ (h >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return h ^ (h >> np.uint64(31))


@jit(nogil=True)
def label_hashes(offsets, data):
    """uint64 hash of each label ``data[offsets[i]:offsets[i + 1]]`` (FNV-1a 64, then splitmix64's mix)."""
    n = offsets.size - 1
    out = np.empty(n, dtype=np.uint64)
    for i in range(n):
        h = _FNV_OFFSET
        for p in range(offsets[i], offsets[i + 1]):
            h = (h ^ np.uint64(data[p])) * _FNV_PRIME
        out[i] = _mix(h)
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


@jit(nogil=True)
def _same(offsets, data, a, b):
    la = offsets[a + 1] - offsets[a]
    if la != offsets[b + 1] - offsets[b]:
        return False
    sa, sb = offsets[a], offsets[b]
    for p in range(la):
        if data[sa + p] != data[sb + p]:
            return False
    return True


@jit(nogil=True)
def group_labels(hashes, offsets, data):
    """(group of each row, first row of each group); groups numbered in order of first appearance.

    Two rows share a group when their labels are equal byte for byte: the hash only finds the
    candidates in an open-addressing table. The table grows with the groups (not the rows) and
    each group's label is copied once into a compact buffer, so the lookups stay in cache.
    """
    n = hashes.size
    size = 1 << 12
    table = np.full(size, -1, dtype=np.int64)
    capacity = 1 << 10
    group_hash = np.empty(capacity, dtype=np.uint64)
    group_start = np.empty(capacity, dtype=np.int64)
    group_length = np.empty(capacity, dtype=np.int64)
    first = np.empty(capacity, dtype=np.int64)
    text = np.empty(1 << 14, dtype=np.uint8)
    used = 0
    n_groups = 0
    group = np.empty(n, dtype=np.int64)
    for r in range(n):
        h = hashes[r]
        start = offsets[r]
        length = offsets[r + 1] - start
        mask = np.uint64(size - 1)
        slot = h & mask
        while True:
            g = table[slot]
            if g < 0:
                break
            if group_hash[g] == h and group_length[g] == length:
                s = group_start[g]
                equal = True
                for q in range(length):
                    if text[s + q] != data[start + q]:
                        equal = False
                        break
                if equal:
                    break
            slot = (slot + np.uint64(1)) & mask
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
        group[r] = n_groups
        n_groups += 1
        if 2 * n_groups > size:  # keep the table at most half full
            size *= 2
            table = np.full(size, -1, dtype=np.int64)
            mask = np.uint64(size - 1)
            for g2 in range(n_groups):
                slot = group_hash[g2] & mask
                while table[slot] >= 0:
                    slot = (slot + np.uint64(1)) & mask
                table[slot] = g2
    return group, first[:n_groups].copy()


@jit(nogil=True)
def _grown(array, size):
    out = np.empty(size, dtype=array.dtype)
    out[:array.size] = array
    return out


@jit(nogil=True)
def partition_rows(offsets, data, hashes, codes, scores, shift, n_parts):
    """A counting sort of a batch's rows by partition ``(hash >> shift) & (n_parts - 1)``: the
    labels' offsets and bytes, the method codes, scores and hashes in that order, and the rows
    per partition. Stable; each label is copied once."""
    n = hashes.size
    mask = np.uint64(n_parts - 1)
    part = np.empty(n, dtype=np.int64)
    counts = np.zeros(n_parts, dtype=np.int64)
    sizes = np.zeros(n_parts, dtype=np.int64)
    for i in range(n):
        p = np.int64((hashes[i] >> np.uint64(shift)) & mask)
        part[i] = p
        counts[p] += 1
        sizes[p] += offsets[i + 1] - offsets[i]
    row_at = np.zeros(n_parts, dtype=np.int64)
    byte_at = np.zeros(n_parts, dtype=np.int64)
    for p in range(1, n_parts):
        row_at[p] = row_at[p - 1] + counts[p - 1]
        byte_at[p] = byte_at[p - 1] + sizes[p - 1]
    total = byte_at[n_parts - 1] + sizes[n_parts - 1]
    new_offsets = np.empty(n + 1, dtype=np.int32)
    new_data = np.empty(total, dtype=np.uint8)
    new_codes = np.empty(n, dtype=codes.dtype)
    new_scores = np.empty(n, dtype=np.float64)
    new_hashes = np.empty(n, dtype=np.uint64)
    for i in range(n):
        p = part[i]
        j = row_at[p]
        row_at[p] += 1
        new_codes[j] = codes[i]
        new_scores[j] = scores[i]
        new_hashes[j] = hashes[i]
        b = byte_at[p]
        start = offsets[i]
        length = offsets[i + 1] - start
        new_offsets[j] = b
        for q in range(length):
            new_data[b + q] = data[start + q]
        byte_at[p] = b + length
    new_offsets[n] = total
    return new_offsets, new_data, new_codes, new_scores, new_hashes, counts


@jit(nogil=True)
def scatter_scores(rows, columns, scores, n_rows, n_columns):
    """``block[rows[i], columns[i]] = scores[i]`` (NaN elsewhere) and a mask of the rows whose
    cell was already given by an earlier row (a duplicate, whatever the scores)."""
    block = np.full((n_rows, n_columns), np.nan)
    given = np.zeros((n_rows, n_columns), dtype=np.bool_)
    repeated = np.zeros(rows.size, dtype=np.bool_)
    for i in range(rows.size):
        r, c = rows[i], columns[i]
        if given[r, c]:
            repeated[i] = True
        else:
            given[r, c] = True
            block[r, c] = scores[i]
    return block, repeated


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
