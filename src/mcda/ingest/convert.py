"""Streaming ingestion: a tidy Parquet or CSV file of scores into a Zarr cube, rows in any order.

The file's rows (``dataset, method, score``) may come in any order and the file may be far
larger than memory. Two passes, each holding a bounded number of rows whatever the number
of datasets:

1. **Partition.** The file is read in batches (only its three columns; the method column of a
   Parquet file as a dictionary). Each batch's dataset labels are hashed straight from Arrow's
   string buffers (64 bits; no label ever becomes a Python string) and the rows are laid out
   partition by partition, the partition chosen by the hash's top bits, so all the rows of a
   dataset land in the same partition wherever they are in the file: per partition a
   *segment* holding the scores (float64), the prefix all the batch's labels share (once)
   and, row by row, the method code, the length of the rest of the label (each in as few
   bytes as the batch needs; no length at all when the batch's labels have one length) and
   the rest of its bytes. The segments gather in a buffer of one *slot* per partition, and
   the buffer goes to one spill file on disk in one write when a slot is full (while a second
   buffer fills), so that a partition is a few large *chunks* of the file. The method labels
   become integer codes (the methods are few), and the scores are checked here: non-numeric
   or infinite scores are refused with their rows named, before anything is written to the
   store.
2. **Assemble.** Each partition's segments are read back and, in one pass over its rows
   straight from the segments, its distinct datasets found with a hash table (labels compared
   byte for byte: two labels sharing a hash stay apart) and its rows scattered into a
   datasets × methods block (each thread keeps its table and block from one partition to the
   next); a second row for a (dataset, method) cell
   is a duplicate and is refused, with the file rows named (a third, filtered read of the
   file finds them). The blocks are appended to the store's ``score`` array and their labels
   to its ``dataset`` array, chunk by chunk: a chunk is compressed (the array's own compressor,
   into a reused buffer) and its file written by a thread while the next one fills, and its
   labels are kept as Python strings for the cube returned at the end (the store is not read
   back). A partition larger than the budget (an unlucky
   hash, or a file with far more rows than the partitions were chosen for) is split again on
   the next hash bits, a segment at a time, before it is assembled.

The store's order does not depend on the file's: datasets are ordered by (hash of the
label, label), methods by label. The same rows in any order give an identical store, and a
Parquet and a CSV file with the same rows too.

The loops are numba kernels (:mod:`mcda.ingest._kernels`) that release the GIL: two threads
read the next batches (a Parquet file's row groups, in turn, taken back in file order) while
two others partition the previous ones (and one more imports what pass 2 needs and loads its
kernels meanwhile), and in pass 2 three threads read the next partitions
while two others assemble and the store is written. Memory (bounds
in :func:`parquet_to_zarr`'s Notes) does not grow with the number of datasets or of rows; the
disk holds the spill file (at most about ``L + 10`` bytes a row for labels of ``L`` bytes) in
``work_dir`` until the end. The spill file bypasses the page cache where the system allows
(``O_DIRECT``: Linux, most file systems; its reads and writes are whole pages, and large):
through the page cache it would take as many fresh pages of memory as it has bytes, the
largest cost of the conversion where fresh memory is dear (a virtual machine). Elsewhere it
goes through the page cache, and the pages of the partitions already assembled are given back
as pass 2 goes (where the system can punch holes in a file), so that the store's writes reuse
them.
"""

from __future__ import annotations

import contextlib
import gc
import math
import os
import shutil
import sys
import tempfile
import threading
from pathlib import Path

import numpy as np

from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError
from mcda._core.validation import check_positive_int, shown

__all__ = ["parquet_to_zarr", "csv_to_zarr"]

_ROLES = ("dataset", "method", "score")
_MAX_SHOWN = 8
_MAX_BITS = 12  # at most 4,096 partitions in one pass (larger ones are split again in pass 2)
_CACHE_BITS = 9  # up to 512 partitions only to keep them small (more would mean more, smaller reads)
_SPLIT_BITS = 4  # an oversized partition is split 16 ways
_SMALL_PARTITION = 1 << 17
_SPILL_BUFFER = 128 << 20  # bytes of slots (one per partition) the rows of pass 1 gather in before a write; two such
_READ_AHEAD = 8  # at most so many partitions read ahead in pass 2 (see _HELD_PARTITIONS)
_HELD_PARTITIONS = 5  # ... while those read and not yet written hold at most five partitions of the budget's rows
_ASSEMBLING = 4  # partitions handed to pass 2's two assembling threads at once (two waiting, written in order)
_READERS = 3  # threads reading them (the disk serves a few direct reads at once faster than one after the other)
_ARROW_THREADS = False  # each reading thread decodes on its own, without pyarrow's threads (see _ParquetSource)
_PARQUET_READERS = 2  # threads decoding a Parquet file's row groups at once in pass 1
_LAYOUT_ROWS = 1 << 17  # rows of a batch of pass 1 laid out at a time (see _Spill.add)
_LABEL_PIECE = 4096  # labels turned into Python strings at a time by the store's writer (see _Writer)
_MIN_SLOT = 16 << 10  # the smallest slot (more partitions than _SPILL_BUFFER / _MIN_SLOT: a larger buffer)
_HASH_MASK = np.uint64(0xFFFFFFFFFFFFFFFF)  # a test sets it to 0: every label on one hash
# pyarrow.csv's default null markers (the same list as pandas.read_csv): a missing score
_NULL_TEXT = ["", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN", "N/A", "NA",
              "NULL", "NaN", "n/a", "nan", "null"]


class _TextScores(Exception):
    """The CSV reader met a score that is not a number: re-read the score column as text."""


# =========================================================================== sources


class _Source:
    """A tidy file read in batches of (dataset, method, score) columns, rows numbered from 0."""

    kind = ""
    n_rows: int | None = None

    def batches(self, text_scores: bool):
        """(first row, [dataset, method, score columns]) of every batch, in file order."""
        for reader in self.readers(text_scores, 1):
            yield from (item for item in reader if item is not None)

    def readers(self, text_scores: bool, n: int) -> list:  # pragma: no cover - interface
        """Up to ``n`` iterators, each to be used by one thread, that together give every batch
        once as (first row, columns): the file is cut into runs of batches, dealt to the
        iterators in turn (run r to iterator r % n), and each iterator yields None after each
        of its runs (:func:`_prefetched` puts them back in file order)."""
        raise NotImplementedError


class _ParquetSource(_Source):
    kind = "Parquet"

    def __init__(self, path, cols: dict, batch_rows: int):
        import pyarrow.parquet as pq

        self.path, self.cols, self.batch_rows = str(path), cols, batch_rows
        if not os.path.exists(self.path):
            raise FileNotFoundError(f"`parquet` {self.path!r} does not exist")
        with self.named():
            self.file = pq.ParquetFile(self.path, pre_buffer=False)  # pre-buffering holds whole row groups
            names = self.file.schema_arrow.names
            self.read_dictionary = None
            if cols["method"] in names:  # the few methods come as a dictionary: no hashing of their text
                self.read_dictionary = [cols["method"]]
                self.file = pq.ParquetFile(self.path, pre_buffer=False, read_dictionary=self.read_dictionary)
        missing = [c for c in cols.values() if c not in names]
        if missing:
            raise McdaArgumentError(f"the Parquet file {self.path!r} has no column(s) {shown(missing)}; its columns are {shown(names)}. "
                             "Name them with `columns={'dataset': ..., 'method': ..., 'score': ...}`.",
                                    argument="columns", value=missing)
        self.n_rows = int(self.file.metadata.num_rows)

    def readers(self, text_scores: bool, n: int) -> list:
        """The row groups in runs of about a batch's rows, the runs dealt to ``n`` readers in turn,
        each reader with a file object of its own: the runs are decoded ``n`` at once (pyarrow
        releases the GIL), each in its reader's thread alone (with pyarrow's own threads the same
        decoding took more processor time, and competed with the partitioning)."""
        meta = self.file.metadata
        group_rows = [meta.row_group(g).num_rows for g in range(meta.num_row_groups)]
        first = np.concatenate([[0], np.cumsum(group_rows, dtype=np.int64)]).tolist()
        runs, start = [], 0
        for g in range(len(group_rows)):  # consecutive row groups of at least a batch's rows together
            if first[g + 1] - first[start] >= self.batch_rows or g + 1 == len(group_rows):
                runs.append((start, g + 1))
                start = g + 1
        n = max(1, min(n, len(runs)))
        return [self._run_batches(runs[j::n], first, self.file if n == 1 else None) for j in range(n)]

    @contextlib.contextmanager
    def named(self):
        """pyarrow's errors reading the file (not Parquet, truncated, corrupt) as one naming it."""
        import pyarrow as pa

        try:
            yield
        except (pa.ArrowException, OSError) as exc:
            if isinstance(exc, FileNotFoundError):
                raise
            raise McdaArgumentError(f"`parquet` {self.path!r} cannot be read as a Parquet file: {exc}",
                                    argument="parquet", value=self.path) from None

    def _run_batches(self, runs, first: list, file=None):
        import pyarrow.parquet as pq

        with self.named():
            if file is None:  # (a ParquetFile is read by one thread at a time)
                file = pq.ParquetFile(self.path, pre_buffer=False, read_dictionary=self.read_dictionary)
            columns = [self.cols[r] for r in _ROLES]
            for lo, hi in runs:
                row = first[lo]
                for batch in file.iter_batches(batch_size=self.batch_rows, row_groups=range(lo, hi), columns=columns,
                                               use_threads=_ARROW_THREADS):
                    yield row, [batch.column(batch.schema.get_field_index(c)) for c in columns]
                    row += batch.num_rows
                yield None  # the end of a run (see _prefetched)


class _CsvSource(_Source):
    kind = "CSV"

    def __init__(self, path, cols: dict, batch_rows: int, delimiter: str):
        self.path, self.cols, self.delimiter = str(path), cols, delimiter
        if not os.path.exists(self.path):
            raise FileNotFoundError(f"`csv` {self.path!r} does not exist")
        self.block_size = int(min(1 << 26, max(1 << 16, batch_rows * 24)))
        reader = self._open(False, include=False)
        names = reader.schema.names
        missing = [c for c in cols.values() if c not in names]
        if missing:
            raise McdaArgumentError(f"the CSV file has no column(s) {shown(missing)}; its columns are {shown(names)}. "
                             "Name them with `columns={'dataset': ..., 'method': ..., 'score': ...}`.",
                                    argument="columns", value=missing)
        # rows are unknown before reading: size / 16 bytes over-estimates them (more partitions, smaller ones)
        size = os.path.getsize(self.path)
        compressed = self.path.endswith((".gz", ".bz2", ".zst", ".lz4", ".br"))
        self.n_rows_estimate = max(1, size * (8 if compressed else 1) // 16)

    def _open(self, text_scores: bool, include: bool = True):
        import pyarrow as pa
        from pyarrow import csv

        convert = {}
        if include:
            d, m, s = (self.cols[r] for r in _ROLES)
            convert = {"include_columns": [d, m, s], "strings_can_be_null": False, "quoted_strings_can_be_null": False,
                       "column_types": {d: pa.string(), m: pa.string(), s: pa.string() if text_scores else pa.float64()}}
        stream = pa.input_stream(self.path, compression="detect")
        return csv.open_csv(stream, read_options=csv.ReadOptions(block_size=self.block_size),
                            parse_options=csv.ParseOptions(delimiter=self.delimiter),
                            convert_options=csv.ConvertOptions(**convert))

    def readers(self, text_scores: bool, n: int) -> list:
        """One reader: a CSV file is read from its start."""
        return [self._batches(text_scores)]

    def _batches(self, text_scores: bool):
        import pyarrow as pa

        reader = None
        row = 0
        columns = [self.cols[r] for r in _ROLES]
        while True:
            try:
                if reader is None:  # opening reads the first block
                    reader = self._open(text_scores)
                batch = reader.read_next_batch()
            except StopIteration:
                return
            except pa.ArrowInvalid as exc:
                if not text_scores and "conversion error to double" in str(exc):
                    raise _TextScores() from exc
                raise McdaArgumentError(f"the CSV file {self.path!r} could not be read: {exc}",
                                        argument="csv", value=self.path) from None
            yield row, [batch.column(batch.schema.get_field_index(c)) for c in columns]
            row += batch.num_rows


# =========================================================================== one batch


def _string_buffers(array):
    """(offsets, uint8 data) of an Arrow string array: int32 offsets for ``string``, int64 for
    ``large_string``, views of its buffers (no copy)."""
    import pyarrow as pa

    kind = np.int64 if pa.types.is_large_string(array.type) else np.int32
    _, offsets, data = array.buffers()[:3]
    offsets = np.frombuffer(offsets, dtype=kind)[array.offset:array.offset + len(array) + 1]
    data = np.frombuffer(data, dtype=np.uint8) if data is not None else np.zeros(0, dtype=np.uint8)
    return offsets, data


def _refuse_empty(column, role: str, name: str, first_row: int):
    import pyarrow.compute as pc

    empty = pc.or_kleene(pc.is_null(column), pc.equal(pc.binary_length(column), 0))
    rows = first_row + np.flatnonzero(empty.fill_null(True).to_numpy(zero_copy_only=False))
    raise McdaArgumentError(f"the {role} column {name!r} is empty in rows {shown(rows.tolist())}", argument=None)


def _as_labels(column, role: str, name: str, first_row: int, check_blank: bool = True):
    """A label column as one Arrow string (or dictionary-of-string) array; a null label is
    refused by row, and an empty ("") one too (``check_blank=False``: the caller's kernel
    counts them)."""
    import pyarrow as pa

    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    if pa.types.is_dictionary(column.type):
        values = column.dictionary
        if not (pa.types.is_string(values.type) or pa.types.is_large_string(values.type)):
            column = column.cast(pa.string())
        else:
            offsets, _ = _string_buffers(values)
            blank = np.flatnonzero(np.diff(offsets) == 0)
            indices = column.indices
            if column.null_count or (blank.size and np.isin(indices.to_numpy(zero_copy_only=False), blank).any()):
                column = column.cast(pa.string())  # the slow path, only to name the rows
            else:
                return column
    if not (pa.types.is_string(column.type) or pa.types.is_large_string(column.type)):
        column = column.cast(pa.string())
    if column.null_count == 0:
        if not check_blank:
            return column
        offsets, _ = _string_buffers(column)
        if not (np.diff(offsets) == 0).any():
            return column
    _refuse_empty(column, role, name, first_row)


def _method_codes(column, lookup: dict) -> np.ndarray:
    """Provisional method codes (order of first appearance; remapped to label order at the end)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    encoded = column if pa.types.is_dictionary(column.type) else pc.dictionary_encode(column)
    local = encoded.dictionary.to_pylist()  # the batch's distinct methods: few
    table = np.array([lookup.setdefault(m, len(lookup)) for m in local], dtype=np.int32)
    return table.take(encoded.indices.to_numpy(zero_copy_only=False))  # (take: half the time of fancy indexing)


def _where(first_row, datasets, methods):
    def where(i):
        return f"row {first_row + int(i)} (dataset {datasets[int(i)].as_py()!r}, method {methods[int(i)].as_py()!r})"
    return where


def _scores(column, name: str, datasets, methods, first_row: int) -> np.ndarray:
    """float64 scores (null -> NaN, a missing result); non-numeric and infinite ones refused by row."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    where = _where(first_row, datasets, methods)
    kind = column.type
    if pa.types.is_dictionary(kind):
        column, kind = column.cast(kind.value_type), kind.value_type
    if pa.types.is_float64(kind) and column.null_count == 0:
        values = column.to_numpy()  # no copy
    elif pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_decimal(kind):
        values = column.cast(pa.float64()).to_numpy(zero_copy_only=False)
    elif pa.types.is_string(kind) or pa.types.is_large_string(kind):
        text = pc.if_else(pc.is_in(column, value_set=pa.array(_NULL_TEXT)), pa.scalar(None, kind), column)
        try:
            values = text.cast(pa.float64()).to_numpy(zero_copy_only=False)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            from mcda.data.readers import numeric_scores  # names every non-numeric row (and accepts blank text as missing)

            raw = np.asarray(text.to_numpy(zero_copy_only=False), dtype=object)
            values = numeric_scores(raw, lambda i: where(i[0]))
    elif pa.types.is_null(kind):
        values = np.full(len(column), np.nan)
    else:
        rows = first_row + np.arange(min(len(column), _MAX_SHOWN))
        raise McdaArgumentError(f"scores must be numeric; the score column {name!r} holds {kind} values "
                         f"(rows {shown(rows.tolist())}, …)", argument=None)
    values = np.ascontiguousarray(values, dtype=np.float64)
    infinite = np.isinf(values)
    if infinite.any():
        idx = np.flatnonzero(infinite)
        more = f" (and {idx.size - _MAX_SHOWN} more)" if idx.size > _MAX_SHOWN else ""
        raise McdaArgumentError("scores must be finite (NaN marks a missing result); infinite values at "
                         + "; ".join(f"{where(i)}: {float(values[i])!r}" for i in idx[:_MAX_SHOWN]) + more,
                                argument=None)
    return values


# =========================================================================== the spill file


_PAGE = 4096


def _hole_puncher():
    """``punch(fd, offset, length) -> bool``: frees the file's pages there (Linux ``fallocate``
    with ``FALLOC_FL_PUNCH_HOLE``); None where that is not available."""
    import ctypes
    import ctypes.util
    import sys

    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        fallocate = libc.fallocate
    except (OSError, AttributeError):
        return None
    fallocate.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int64, ctypes.c_int64]
    fallocate.restype = ctypes.c_int
    flags = 0x02 | 0x01  # FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE

    def punch(fd: int, offset: int, length: int) -> bool:
        return length <= 0 or fallocate(fd, flags, offset, length) == 0  # a file system without it: stop trying

    return punch


_PUNCH: list = []  # [the puncher or None], found on first use (ctypes stays out of ``import mcda``)


def _punch_hole(fd: int, offset: int, length: int) -> bool:
    """Free the file's pages in ``[offset, offset + length)``; False where that cannot be done."""
    if not _PUNCH:
        _PUNCH.append(_hole_puncher())
    return _PUNCH[0] is not None and _PUNCH[0](fd, offset, length)


def _write_all(fd: int, view: memoryview, offset: int) -> None:
    while len(view):
        done = os.pwrite(fd, view, offset)
        view, offset = view[done:], offset + done


def _read_all(fd: int, view: memoryview, offset: int) -> None:
    while len(view):
        done = os.preadv(fd, [view], offset)
        if done <= 0:
            raise OSError(f"mcda: the ingestion's work file ended early (offset {offset})")
        view, offset = view[done:], offset + done


def _aligned_words(n_bytes: int) -> np.ndarray:
    """An int64 array of at least ``n_bytes`` bytes starting on a page boundary (what direct I/O
    asks of a buffer)."""
    n_bytes = max(_PAGE, -(-n_bytes // _PAGE) * _PAGE)
    raw = np.empty(n_bytes + _PAGE, dtype=np.uint8)
    skip = (-raw.ctypes.data) % _PAGE
    return raw[skip:skip + n_bytes].view(np.int64)


def _open_spill(path: str) -> tuple[int, bool]:
    """The spill file's descriptor, and whether it bypasses the page cache (``O_DIRECT``: Linux,
    on a file system that supports it; a page-aligned write is tried first). Through the page
    cache the spill file would be as many fresh pages of memory as it has bytes: a cost of its
    own (the kernel's time to find and clear them), and memory other programs lose meanwhile."""
    flags = os.O_RDWR | os.O_CREAT | os.O_TRUNC
    direct = getattr(os, "O_DIRECT", 0)
    if direct:
        try:
            fd = os.open(path, flags | direct, 0o600)
        except OSError:
            fd = -1
        if fd >= 0:
            try:
                probe = _aligned_words(_PAGE)
                probe[:] = 0
                if os.pwrite(fd, memoryview(probe.view(np.uint8)), 0) == _PAGE:
                    os.ftruncate(fd, 0)
                    return fd, True
            except OSError:
                pass
            os.close(fd)
    return os.open(path, flags, 0o600), False


def _read_bound(size: np.ndarray) -> int:
    """Bytes a buffer needs to read chunks of these sizes: with direct I/O each may take up to
    four pages more (page-aligned reads, room for a padding segment's header)."""
    return int(size.sum()) + (4 * _PAGE) * len(size) + 8


class _Spill:
    """The rows of pass 1 on disk: one file, ``2**bits`` partitions chosen by hash bits
    ``used_bits .. used_bits + bits`` (from the top).

    Each batch of rows is laid out partition by partition, a *segment* per partition
    (:func:`mcda.ingest._kernels.segment_bytes`), and the segments are copied into a buffer of
    one *slot* per partition (``slot_bytes`` each): the segments of several batches accumulate in their partition's
    slot, and the buffer is written in one write when a slot is full (while a second buffer
    fills). A partition is then a few *chunks* of the file (one per buffer written), each its
    segments one after the other, read back in large reads. A batch whose segment would not
    fit in a slot is written on its own, its segments one after the other. The file bypasses
    the page cache where it can (:func:`_open_spill`)."""

    def __init__(self, folder: str, bits: int, used_bits: int = 0, name: str = "spill", rows: int = 0):
        self.path = os.path.join(folder, f"{name}.bin")
        self.fd, self.direct = _open_spill(self.path)
        self.bits, self.used_bits = bits, used_bits
        self.n_parts = 1 << bits
        self.shift = max(0, 64 - used_bits - bits)
        self.counts = np.zeros(self.n_parts, dtype=np.int64)  # rows per partition
        self.sizes = np.zeros(self.n_parts, dtype=np.int64)  # label bytes per partition
        self.size = 0  # bytes in the file
        # slots: about _SPILL_BUFFER bytes in all, at most what the expected rows need, whole pages
        expected = 32 * max(rows, 1) // self.n_parts + 2 * _PAGE
        self.slot_bytes = _PAGE * max(_MIN_SLOT // _PAGE, min(_SPILL_BUFFER // self.n_parts, expected) // _PAGE)
        self._fill = np.zeros(self.n_parts, dtype=np.int64)  # bytes used in each slot of the buffer being filled
        self._buffers_free: list = []  # buffers written (or never used)
        self._buffer = None  # the buffer being filled
        self._filling = 0  # batches being laid out into it
        self._allocated = 0  # buffers allocated (at most two)
        self._writing = 0  # buffers being written
        self._chunks: list = []  # (partition, file offset, bytes), in the order written
        self.lock = threading.Condition()
        self._local = threading.local()
        self._error: BaseException | None = None  # a buffer's write failed

    def _scratch(self, n: int, words: int):
        """This thread's reusable arrays (no fresh pages for every batch)."""
        part = getattr(self._local, "part", None)
        if part is None or part.size < n:
            part = self._local.part = np.empty(max(n, 1), dtype=np.int64)
        out = getattr(self._local, "out", None)
        if words and (out is None or out.size < words):
            out = self._local.out = _aligned_words(8 * words)
        return part[:n], out

    def add(self, offsets, data, codes, scores, mask, n_codes: int) -> tuple[int, int, int]:
        """Lay the rows out and add them (``codes`` below ``n_codes``); returns (widest label in
        code points, longest in bytes, number of empty labels). Two threads may add at once
        (the order of a partition's rows does not matter). A batch is laid out in pieces of at
        most ``_LAYOUT_ROWS`` rows, each its own segments: a piece's layout buffer stays in the
        processor's cache while its rows are scattered into it and copied to the slots."""
        n = offsets.size - 1
        width = longest = empty = 0
        for a in range(0, max(n, 1), _LAYOUT_ROWS):
            b = min(n, a + _LAYOUT_ROWS)
            w, most, e = self._add_rows(offsets[a:b + 1], data, codes[a:b], scores[a:b], mask, n_codes)
            width, longest, empty = max(width, w), max(longest, most), empty + e
            if empty or longest >= 2**31:  # refused by the caller
                break
        return width, longest, empty

    def _add_rows(self, offsets, data, codes, scores, mask, n_codes: int) -> tuple[int, int, int]:
        from mcda.ingest import _kernels as kernels

        n = offsets.size - 1
        part, _ = self._scratch(n, 0)
        counts, sizes, width, longest, empty, shortest, prefix = kernels.batch_partitions(
            offsets, data, mask, self.shift, self.n_parts, part)
        if empty or longest >= 2**31:
            return int(width), int(longest), int(empty)
        code_width = kernels.width_for(max(0, n_codes - 1))
        length_width = 0 if shortest == longest else kernels.width_for(int(longest) - int(prefix))
        starts = kernels.segment_starts(counts, sizes, code_width, length_width, int(prefix))
        bytes_ = np.diff(starts)
        room = self.slot_bytes - _PAGE  # a page kept free: a chunk read back may need padding
        if int(bytes_.max()) > room:  # a large batch: its segments one after the other, written on their own
            total = int(starts[-1])
            part, out = self._scratch(n, -(-total // _PAGE) * _PAGE // 8 + 1)  # (+ a word: lay_out_segments)
            kernels.lay_out_segments(offsets, data, codes, scores, part, counts, sizes, code_width, length_width,
                                     int(prefix), starts[:-1], out)
            padded = -(-total // _PAGE) * _PAGE
            with self.lock:
                at = self.size
                self.size += padded
                self.counts += counts
                self.sizes += sizes
                for p in np.flatnonzero(counts).tolist():
                    self._chunks.append((p, at + int(starts[p]), int(bytes_[p])))
            _write_all(self.fd, memoryview(out.view(np.uint8))[:padded], at)
            return int(width), int(longest), 0
        self._raise_write_error()
        with self.lock:
            while True:  # (each wait lets the other thread fill or flush: everything is checked again)
                if (self._fill + bytes_ > room).any():
                    self._flush_locked()
                elif self._buffer is None and self._buffers_free:
                    self._buffer = self._buffers_free.pop()
                elif self._buffer is None and self._allocated < 2:
                    self._buffer = _aligned_words(self.n_parts * self.slot_bytes)
                    self._allocated += 1
                elif self._buffer is None:
                    self.lock.wait()  # both buffers being written
                else:
                    break
            buffer = self._buffer
            at = self._fill + np.arange(self.n_parts, dtype=np.int64) * self.slot_bytes
            self._fill += bytes_
            self.counts += counts
            self.sizes += sizes
            self._filling += 1
        try:
            # laid out in this thread's small buffer (which stays in the processor's cache), then copied to the
            # slots in sequential runs: laid out straight into the slots, each row would touch two lines of the
            # large buffer that are no longer cached (the buffers were written to disk since)
            part, out = self._scratch(n, int(starts[-1]) // 8 + 1)  # (+ a word: lay_out_segments writes past)
            kernels.lay_out_segments(offsets, data, codes, scores, part, counts, sizes, code_width, length_width,
                                     int(prefix), starts[:-1], out)
            kernels.copy_segments(out, starts, buffer, at)
        finally:
            with self.lock:
                self._filling -= 1
                self.lock.notify_all()
        return int(width), int(longest), 0

    def _flush_locked(self) -> None:
        """Hand the buffer being filled to a thread that writes it (the lock held)."""
        while self._filling:  # batches still being laid out into it
            self.lock.wait()
        buffer, fill = self._buffer, self._fill
        if buffer is None or not fill.any():
            return
        used = np.flatnonzero(fill)
        length = int(used[-1]) * self.slot_bytes + int(fill[used[-1]])
        length = -(-length // _PAGE) * _PAGE
        at = self.size
        self.size += length
        for p in used.tolist():
            self._chunks.append((p, at + p * self.slot_bytes, int(fill[p])))
        self._buffer, self._fill = None, np.zeros(self.n_parts, dtype=np.int64)
        self._writing += 1
        # written in a thread of its own: the batch's thread goes on laying out into the other buffer
        threading.Thread(target=self._write_buffer, args=(buffer, length, at), name="mcda-spill-write",
                         daemon=True).start()

    def _write_buffer(self, buffer, length: int, at: int) -> None:
        try:
            _write_all(self.fd, memoryview(buffer.view(np.uint8))[:length], at)
        except BaseException as exc:  # raised again by the next add or finish
            self._error = exc
        finally:
            with self.lock:
                self._writing -= 1
                self._buffers_free.append(buffer)
                self.lock.notify_all()

    def _raise_write_error(self) -> None:
        if self._error is not None:
            raise self._error

    def finish(self) -> None:
        """The last buffer written: every row is in the file."""
        with self.lock:
            self._flush_locked()
            while self._writing:
                self.lock.wait()
            self._buffers_free = []  # the buffers' memory back
        self._raise_write_error()

    def index(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(partition, file offset, bytes) of the chunks, by partition (in the order written)."""
        if not hasattr(self, "_table"):
            chunks = np.array(self._chunks, dtype=np.int64).reshape(-1, 3)
            chunks = chunks[np.argsort(chunks[:, 0], kind="stable")]
            self._table = chunks[:, 0], chunks[:, 1], chunks[:, 2]
            self._chunks = []
        return self._table

    def segments(self, p: int):
        """(file offset, bytes) of partition ``p``'s chunks."""
        parts, where, size = self.index()
        lo, hi = np.searchsorted(parts, [p, p + 1])
        return where[lo:hi], size[lo:hi]

    def read_bound(self, p: int) -> int:
        """Bytes a buffer needs to read partition ``p``."""
        return _read_bound(self.segments(p)[1])

    def read(self, p: int, batch: int | None = None, out: np.ndarray | None = None) -> np.ndarray:
        """Partition ``p``'s chunks (all of them, or only its ``batch``-th) one after the other,
        as int64 words in ``out`` (page-aligned, :meth:`read_bound` bytes) or in this thread's
        reusable buffer (valid until its next read). With direct
        I/O a read starts and ends on page boundaries: a chunk's leading bytes that belong to
        another partition are covered by a padding segment (:func:`write_padding`)."""
        from mcda.ingest import _kernels as kernels

        where, size = self.segments(p)
        if batch is not None:
            where, size = where[batch:batch + 1], size[batch:batch + 1]
        bound = _read_bound(size)
        buffer = out if out is not None else getattr(self._local, "read", None)
        if buffer is None or buffer.size * 8 < bound:
            buffer = self._local.read = _aligned_words(max(bound, 1 << 20))
        view = memoryview(buffer.view(np.uint8))
        at = 0
        for offset, n in zip(where.tolist(), size.tolist()):
            if not self.direct:
                _read_all(self.fd, view[at:at + n], offset)
                at += n
                continue
            start = offset // _PAGE * _PAGE
            stop = -(-(offset + n) // _PAGE) * _PAGE
            lead = offset - start
            target = -(-at // _PAGE) * _PAGE
            if target + lead > at and target - at < 32:
                target += _PAGE  # room for the padding segment's header
            _read_all(self.fd, view[target:target + stop - start], start)
            if target + lead > at:
                kernels.write_padding(buffer, at, target + lead - at)
            at = target + lead + n
        return buffer[:at // 8]

    def release(self, p: int) -> None:
        """Partition ``p`` was read: give its pages of the page cache back (the whole pages of its
        chunks), so that the writes of the store reuse them instead of fresh memory. Only where
        the system can punch holes in a file (Linux) and the file went through the page cache."""
        if self.direct or getattr(self, "_no_holes", False):
            return
        for offset, n in zip(*(a.tolist() for a in self.segments(p))):
            start, stop = -(-offset // _PAGE) * _PAGE, (offset + n) // _PAGE * _PAGE
            if stop > start and not _punch_hole(self.fd, start, stop - start):
                self._no_holes = True
                return

    def close(self) -> None:
        with self.lock:
            while self._writing:  # (a conversion stopped by an error: its writes end first)
                self.lock.wait()
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
        try:
            os.remove(self.path)
        except FileNotFoundError:
            pass


def _bits_for(n_rows: int, budget: int) -> int:
    """Partition bits: enough for partitions of at most ``budget`` rows, and (up to
    ``2**_CACHE_BITS`` partitions) for partitions of about ``_SMALL_PARTITION`` rows, whose hash
    tables stay in the processor's cache."""
    needed = math.ceil(math.log2(n_rows / budget)) if n_rows > budget else 0
    small = math.ceil(math.log2(n_rows / _SMALL_PARTITION)) if n_rows > _SMALL_PARTITION else 0
    return int(min(_MAX_BITS, max(needed, min(small, _CACHE_BITS))))


def _prefetched(readers):
    """The batches of ``readers`` (:meth:`_Source.readers`) in file order, each reader in a thread
    of its own that reads its next batch while the ones already read are used (the readers
    release the GIL while they decode: reading overlaps the work on the batches, and several
    readers decode at once). A reader yields None after each run of batches: the runs are
    dealt to the readers in turn, so the file order is reader 0's first run, reader 1's first,
    and so on."""
    import queue

    done = object()
    stop = threading.Event()
    slots = [queue.Queue(maxsize=1) for _ in readers]  # each reader holds one batch ready

    def read(iterator, slot):
        try:
            for item in iterator:
                if stop.is_set():
                    return
                slot.put((item, None))
            slot.put((done, None))
        except BaseException as exc:  # handed to the consumer
            slot.put((done, exc))

    threads = [threading.Thread(target=read, args=(it, slot), daemon=True) for it, slot in zip(readers, slots)]
    for thread in threads:
        thread.start()
    try:
        j = 0
        while True:
            item, error = slots[j].get()
            if error is not None:
                raise error
            if item is done:  # the reader of the next run has none: the file is read
                return
            if item is None:  # the end of a run: the next run is the next reader's
                j = (j + 1) % len(slots)
                continue
            yield item
    finally:
        stop.set()
        while any(thread.is_alive() for thread in threads):  # unblock the readers waiting on a full queue
            for slot in slots:
                try:
                    slot.get_nowait()
                except queue.Empty:
                    pass
            for thread in threads:
                thread.join(timeout=0.01)


# =========================================================================== pass 1: partition


def _partition(source: _Source, folder: str, bits: int, text_scores: bool, line):
    """Pass 1: every row into its partition; returns (spill, method lookup, label width, rows)."""
    import pyarrow as pa

    spill = _Spill(folder, bits, rows=source.n_rows if source.n_rows is not None else source.n_rows_estimate)
    lookup: dict = {}
    width, row = 1, 0
    names = {r: source.cols[r] for r in _ROLES}
    from concurrent.futures import ThreadPoolExecutor

    def work(first_row, datasets, codes, values, n_codes):
        offsets, data = _string_buffers(datasets)
        widest, longest, empty = spill.add(offsets, data, codes, values, _HASH_MASK, n_codes)
        if empty:
            _refuse_empty(datasets, "dataset", names["dataset"], first_row)
        if longest >= 2**31:
            raise McdaArgumentError(f"a dataset label in rows {first_row:,} to {first_row + len(datasets) - 1:,} "
                                    f"is {longest:,} bytes long; labels must be shorter than 2 GiB", argument=None)
        return widest

    pool = ThreadPoolExecutor(max_workers=2)  # the kernels and the writes release the GIL
    pending: list = []
    try:
        # (batches in the order their readers finish them: a row's place in the file is its batch's first row
        # plus its place in the batch)
        for first, (datasets, methods, scores) in _prefetched(source.readers(text_scores, _PARQUET_READERS)):
            n = len(datasets)
            datasets = _as_labels(datasets, "dataset", names["dataset"], first, check_blank=False)
            if pa.types.is_dictionary(datasets.type):
                datasets = datasets.cast(datasets.type.value_type)
            methods = _as_labels(methods, "method", names["method"], first)
            values = _scores(scores, names["score"], datasets, methods, first)
            codes = _method_codes(methods, lookup)
            while len(pending) >= 2:  # at most two batches in the workers
                width = max(width, pending.pop(0).result())
            pending.append(pool.submit(work, first, datasets, codes, values, len(lookup)))
            row += n
            line.update(row)
        for future in pending:
            width = max(width, future.result())
        spill.finish()
    except BaseException:
        spill.close()
        raise
    finally:
        pool.shutdown(wait=True)
    return spill, lookup, width, row


# =========================================================================== pass 2: assemble


def _order(group_hashes: np.ndarray, labels) -> np.ndarray:
    """The groups in store order, (hash, label). ``labels``: a function giving the labels of
    some groups as Python strings."""
    order = np.argsort(group_hashes, kind="stable")
    ordered = group_hashes[order]
    ties = np.flatnonzero(ordered[1:] == ordered[:-1])
    if ties.size:  # two labels share a 64-bit hash (rare): only the tied groups are sorted by their text
        starts = ties[np.concatenate([[True], ties[1:] != ties[:-1] + 1])]
        for start in starts:
            stop = start + 1
            while stop < ordered.size and ordered[stop] == ordered[start]:
                stop += 1
            idx = order[start:stop]
            text = labels(idx)
            order[start:stop] = idx[np.argsort(np.array(text, dtype=object), kind="stable")]
    return order


def _arrow_labels(offsets, data):
    import pyarrow as pa

    kind = pa.large_string() if offsets.dtype == np.int64 else pa.string()
    return pa.Array.from_buffers(kind, offsets.size - 1, [None, pa.py_buffer(offsets), pa.py_buffer(data)])


_SCRATCH = threading.local()  # each thread's arrays for pass 2 (kernels.Scratch), kept between partitions


class _Duplicates(Exception):
    def __init__(self, pairs):
        super().__init__(pairs)
        self.pairs = pairs


def _assemble(spill: _Spill, p: int, budget: int, recode: np.ndarray, k: int, width: int, folder: str,
              segments=None):
    """Pass 2 for one partition: yields (datasets x methods block, ``<U`` labels) in store order.
    ``segments``: the partition already read (:meth:`_Spill.read`)."""
    from mcda.ingest import _kernels as kernels

    used = spill.used_bits + spill.bits
    if spill.counts[p] > budget and used + _SPLIT_BITS <= 64:
        # too large for the budget: split it on the next hash bits (same order, smaller pieces),
        # one segment (at most a batch of pass 1) at a time
        sub = _Spill(folder, _SPLIT_BITS, used, name=f"{os.path.basename(spill.path)[:-4]}-{p}",
                     rows=int(spill.counts[p]))
        try:
            for b in range(len(spill.segments(p)[0])):
                scores, codes, offsets, data = kernels.gather_segments(spill.read(p, batch=b))
                sub.add(offsets, data, codes, scores, _HASH_MASK, len(recode))
            sub.finish()
            for q in np.flatnonzero(sub.counts):
                yield from _assemble(sub, int(q), budget, recode, k, width, folder)
        finally:
            sub.close()
        return
    scratch = getattr(_SCRATCH, "arrays", None)
    if scratch is None or scratch.n_columns != k:
        scratch = _SCRATCH.arrays = kernels.Scratch(k, _MAX_SHOWN)
    if segments is None:
        segments = spill.read(p)
    cells, hashes, offsets, text, repeated, n_repeated = kernels.assemble_segments(segments, _HASH_MASK, recode, k,
                                                                                 _MAX_SHOWN, scratch)
    if n_repeated:
        labels = _arrow_labels(offsets, text)
        cells[:] = kernels.NOT_GIVEN  # the scratch clean again
        raise _Duplicates([(labels[int(g)].as_py(), int(c)) for g, c in repeated])
    order = np.argsort(hashes)  # (any sort: the order of distinct hashes is unique; numpy's is vectorised)
    block, points, tied = kernels.in_store_order(cells, hashes, order, offsets, text, width)
    if tied:  # two labels share a hash (rare): those groups ordered by their text (views of the scratch)
        order = _order(hashes, lambda groups: _arrow_labels(offsets, text).take(groups).to_pylist())
        block, points = kernels.take_rows(cells, order), kernels.utf8_to_ucs4(offsets, text, order, width)
    yield block, points.view(f"<U{width}").reshape(-1)


def _duplicate_rows(source: _Source, pairs, methods: list) -> str:
    """A third, filtered read: the file rows of the duplicated (dataset, method) cells."""
    import pyarrow as pa
    import pyarrow.compute as pc

    wanted = {(d, methods[m]) for d, m in pairs}
    rows: dict = {key: [] for key in wanted}
    labels = pa.array(sorted({d for d, _ in wanted}))
    for row, (datasets, method_column, _) in source.batches(True):
        hit = pc.is_in(datasets.cast(pa.string()), value_set=labels).to_numpy(zero_copy_only=False)
        for i in np.flatnonzero(hit):
            key = (str(datasets[int(i)].as_py()), str(method_column[int(i)].as_py()))
            if key in rows:
                rows[key].append(row + int(i))
    found = [(d, m, rows[(d, m)]) for d, m in sorted(wanted)]
    return "; ".join(f"dataset {d!r}, method {m!r} appears {len(r)} times (rows {shown(r)})" for d, m, r in found)


# =========================================================================== the store


def _leave_page_cache(paths) -> None:
    """Ask the system to drop these files' pages from the page cache (``posix_fadvise``
    ``DONTNEED``; pages not yet written back are only sent to disk, dropped on a later call):
    the store's chunks are not read again by the conversion, and the freed pages serve the
    next chunks' writes rather than fresh memory."""
    advise = getattr(os, "posix_fadvise", None)
    if advise is None:
        return
    for path in paths:
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:  # a chunk zarr did not write (all of it the fill value)
            continue
        try:
            advise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        except OSError:
            pass
        finally:
            os.close(fd)


def _blosc_into():
    """``compress(compressor, array, out) -> n`` that compresses a contiguous array into ``out``
    (a reusable uint8 buffer) with numcodecs' own Blosc library, exactly as
    ``compressor.encode(array)`` (checked here on a probe), and returns the compressed bytes'
    length: the ``bytes`` each ``encode`` returns are fresh memory every time (their pages
    faulted in again: 1.7 s of system time for 100 chunks of 16 MB here). None where that
    library or its ``blosc_compress_ctx`` cannot be reached."""
    import ctypes

    try:
        import numcodecs
        from numcodecs import blosc

        library = ctypes.CDLL(blosc.__file__)
        compress_ctx = library.blosc_compress_ctx
    except (ImportError, OSError, AttributeError):
        return None
    compress_ctx.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_void_p,
                             ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int]
    compress_ctx.restype = ctypes.c_int

    def compress(compressor, array, out):
        if not isinstance(compressor, numcodecs.Blosc) or compressor.shuffle == numcodecs.Blosc.AUTOSHUFFLE:
            return None
        n = compress_ctx(compressor.clevel, compressor.shuffle, array.itemsize, array.nbytes, array.ctypes.data,
                         out.ctypes.data, out.size, compressor.cname.encode(), compressor.blocksize, 1)
        return n if n > 0 else None

    probe = np.arange(4096, dtype=np.float64) % 7
    out = np.empty(probe.nbytes + 16, dtype=np.uint8)
    reference = numcodecs.Blosc(cname="lz4", clevel=5, shuffle=numcodecs.Blosc.SHUFFLE)
    n = compress(reference, probe, out)
    if n is None or out[:n].tobytes() != bytes(reference.encode(probe)):
        return None
    return compress


_BLOSC: list = []  # [compress or None], found on first use


class _Writer:
    """Appends blocks of datasets to the store's ``score`` and ``dataset`` arrays, a chunk at a
    time: a chunk-sized buffer of each is filled while the previous one is compressed and
    written in a thread. The chunk files are written here, compressed with the arrays' own
    compressor (Zarr's format 2: a chunk is its compressed C-order bytes, an edge chunk padded
    to the full chunk), then the arrays are resized once at the end; through Zarr's own write
    path each chunk cost about four times its compression. The labels written are kept, as
    Python strings, for the cube :func:`_ingest` returns (reading them back from the store
    cost about a tenth of the conversion)."""

    def __init__(self, root, k: int, width: int, chunk: int, folder: str | None = None):
        from concurrent.futures import ThreadPoolExecutor

        self.chunk, self.k = chunk, k
        self.folder = folder  # the store's folder: its chunk files leave the page cache once written
        self._written_files: list = []
        self.scores = root.create_array("score", shape=(0, k), chunks=(chunk, k), dtype="f8", fill_value=np.nan)
        self.labels = root.create_array("dataset", shape=(0,), chunks=(chunk,), dtype=f"<U{width}")
        # the chunk files are written here where the format is the plain one (no filters, C order, a
        # folder per array); otherwise through zarr
        self.direct = folder is not None and all(
            getattr(a.metadata, "zarr_format", None) == 2 and getattr(a.metadata, "filters", 1) is None
            and getattr(a.metadata, "order", "C") == "C" and os.path.isdir(os.path.join(folder, name))
            for name, a in (("score", self.scores), ("dataset", self.labels)))
        self.block: np.ndarray | None = None
        self.text: np.ndarray | None = None
        self._spare: list = []  # (block, text) buffers written, to be filled again
        self._thread = ThreadPoolExecutor(max_workers=1)
        self._pending = None  # the write in flight
        self._objects: list = []  # the labels written, chunk by chunk, as object arrays
        self._compress_buffers: dict = {}  # array name -> the buffer its chunks are compressed into
        self.filled = 0
        self.written = 0

    def add(self, block, text) -> None:
        if self.block is None:  # as large as the store's datasets, at most a chunk
            size = min(self.chunk, max(block.shape[0], 1 << 12))
            self.block, self.text = np.empty((size, self.k)), np.empty(size, dtype=text.dtype)
        at = 0
        while at < block.shape[0]:
            if self.filled == self.block.shape[0] < self.chunk:  # more datasets than guessed: a chunk's room
                self.block = np.concatenate([self.block, np.empty((self.chunk - self.filled, self.k))])
                self.text = np.concatenate([self.text, np.empty(self.chunk - self.filled, dtype=self.text.dtype)])
            n = min(self.block.shape[0] - self.filled, block.shape[0] - at)
            self.block[self.filled:self.filled + n] = block[at:at + n]
            self.text[self.filled:self.filled + n] = text[at:at + n]
            self.filled += n
            at += n
            if self.filled == self.chunk:
                self._write()

    def _write(self) -> None:
        """Hand the filled buffers to the thread (after the previous write: one at a time, in order)."""
        if not self.filled:
            return
        self._wait()
        block, text, n, start = self.block, self.text, self.filled, self.written
        self._pending = self._thread.submit(self._write_chunk, block, text, n, start)
        self.written, self.filled = start + n, 0
        if self._spare:
            self.block, self.text = self._spare.pop()
        else:
            self.block, self.text = np.empty_like(block), np.empty_like(text)

    def _wait(self) -> None:
        if self._pending is not None:
            pending, self._pending = self._pending, None
            pending.result()

    def _write_chunk(self, block, text, n: int, start: int) -> None:
        j = start // self.chunk
        if self.direct:
            if n < self.chunk:  # an edge chunk: stored at the full chunk's shape (the rest is not read)
                block = np.concatenate([block[:n], np.full((self.chunk - n, self.k), np.nan)])
                text = np.concatenate([text[:n], np.zeros(self.chunk - n, dtype=text.dtype)])
            files = []
            for name, array, values, coords in (("score", self.scores, block, (j, 0)), ("dataset", self.labels, text, (j,))):
                compressor = array.metadata.compressor
                data = np.ascontiguousarray(values)
                encoded = self._compressed(compressor, data, name) if compressor is not None else data
                file = os.path.join(self.folder, name, array.metadata.encode_chunk_key(coords))
                with open(file, "wb") as out:
                    out.write(encoded)
                files.append(file)
        else:
            self.scores.resize((start + n, self.k))
            self.labels.resize((start + n,))
            self.scores[start:start + n, :] = block[:n]
            self.labels[start:start + n] = text[:n]
            files = [os.path.join(self.folder, name, array.metadata.encode_chunk_key(coords))
                     for name, array, coords in (("score", self.scores, (j, 0)), ("dataset", self.labels, (j,)))
                     ] if self.folder is not None else []
        # as Python strings in pieces: one conversion of a whole chunk holds the GIL for several
        # milliseconds, while the assembling threads wait for it between their kernels
        labels = np.empty(n, dtype=object)
        for a in range(0, n, _LABEL_PIECE):
            labels[a:a + _LABEL_PIECE] = text[a:min(n, a + _LABEL_PIECE)]
        self._objects.append(labels)
        if n == self.chunk:
            self._spare.append((block, text))
        if files:
            self._written_files.append(files)
            _leave_page_cache(files)  # starts their writeback
            if len(self._written_files) > 2:  # written back by now: their pages serve the next chunks' writes
                _leave_page_cache(self._written_files.pop(0))

    def _compressed(self, compressor, data: np.ndarray, name: str):
        """The chunk's compressed bytes: in this array's reusable buffer where :func:`_blosc_into`
        can, else ``compressor.encode``."""
        if not _BLOSC:
            _BLOSC.append(_blosc_into())
        if _BLOSC[0] is not None:
            out = self._compress_buffers.get(name)
            if out is None or out.size < data.nbytes + 16:
                out = self._compress_buffers[name] = np.empty(data.nbytes + 16, dtype=np.uint8)  # + Blosc's header
            n = _BLOSC[0](compressor, data, out)
            if n is not None:
                return memoryview(out)[:n]
        return compressor.encode(data)

    def close(self) -> None:
        """The last chunk written and the arrays' shapes set."""
        try:
            self._write()
            self._wait()
        finally:
            self._thread.shutdown(wait=True)
        if self.direct:
            self.scores.resize((self.written, self.k))
            self.labels.resize((self.written,))

    def abandon(self) -> None:
        """Wait for the write in flight (the store is about to be removed), its error aside."""
        try:
            self._wait()
        except Exception:  # the error that stopped the conversion is the one reported
            pass
        finally:
            self._thread.shutdown(wait=True)

    def dataset_labels(self) -> np.ndarray:
        """The labels written, in store order, as an object array of ``str``."""
        if not self._objects:
            return np.empty(0, dtype=object)
        return np.concatenate(self._objects) if len(self._objects) > 1 else self._objects[0]


class _WarmUp:
    """What pass 2 would otherwise do first, done by a thread of its own while pass 1 runs: import
    zarr and dask (0.3 s), load pass 2's compiled kernels (their first call, on an empty
    partition: 0.5 s) and what building the returned cube imports (xarray's first DataArray
    imports dask.array and parts of scipy: 0.5 s). Done by the thread that feeds pass 1's
    workers, they kept the workers waiting for their next batches for about a second."""

    def __init__(self):
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="mcda-ingest-warm-up", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            import dask  # noqa: F401
            import xarray as xr
            import zarr  # noqa: F401

            from mcda.ingest import _kernels as kernels

            cells, hashes, offsets, text, _, _ = kernels.assemble_segments(
                np.zeros(0, dtype=np.int64), _HASH_MASK, np.zeros(1, dtype=np.int64), 1, _MAX_SHOWN)
            kernels.in_store_order(cells, hashes, np.argsort(hashes), offsets, text, 1)
            xr.DataArray(np.zeros((0, 1)), dims=("dataset", "method"))
        except BaseException as exc:  # raised by join, in the converting thread
            self._error = exc

    def join(self, raising: bool = True) -> None:
        self._thread.join()
        if raising and self._error is not None:
            error, self._error = self._error, None
            raise error


_WORK_PREFIX = "mcda-ingest-"


def _remove_dead_work(work: str) -> None:
    """Remove the work folders (spill files) of conversions whose process is gone (killed in a pass).

    A work folder is named ``mcda-ingest-<pid>-<random>``; its process is gone when ``kill(pid, 0)``
    finds none. A folder of a living process, or not named so, is left alone.
    """
    try:
        names = os.listdir(work)
    except OSError:
        return
    for name in names:
        if not name.startswith(_WORK_PREFIX):
            continue
        pid = name[len(_WORK_PREFIX):].split("-", 1)[0]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(os.path.join(work, name), ignore_errors=True)
        except OSError:  # (a process of another user: alive)
            pass


def _remove_work(spill, folder: str) -> None:
    """Close and remove the spill file and the work folder."""
    try:
        if spill is not None:
            spill.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _ingest(source: _Source, path, *, metric, direction, chunk_datasets, rows_in_memory, work_dir, overwrite,
            scale=None):
    """Both passes from ``source`` into the store at ``path``; returns the lazily opened cube."""
    import importlib.util

    from mcda.data.io import open_zarr_cube
    from mcda.data.checks import resolve_metric, scale_factor
    from mcda.data.readers import require_dask
    from mcda.data.stores import check_target, publishing

    try:  # (dask itself is imported by the warm-up, while pass 1 runs)
        have_dask = sys.modules.get("dask") is not None or importlib.util.find_spec("dask") is not None
    except (ImportError, ValueError):
        have_dask = False
    if not have_dask:
        require_dask()  # the install line
    if not isinstance(overwrite, bool):
        raise McdaArgumentTypeError(f"`overwrite` must be True or False; got {overwrite!r}",
                                    argument="overwrite", value=overwrite)
    check_target(path, overwrite)  # before pass 1: a folder that is not a store is refused, and named
    if work_dir is not None and not Path(work_dir).is_dir():
        raise McdaArgumentError(f"`work_dir` {str(work_dir)!r} is not a directory", argument="work_dir", value=work_dir)
    resolve_metric(metric, direction)  # a missing or contradictory metric is refused now, not after pass 1
    if scale is not None and not isinstance(scale, str):
        raise McdaArgumentTypeError(f"`scale` is one name for the file's one metric ('percent' or 'fraction'); "
                                    f"got {scale!r}", argument="scale", value=scale)
    scale_factor(scale)  # an unknown scale is refused now, not after pass 1
    with publishing(path, overwrite=overwrite) as staging:  # one writer; `path` replaced only when complete
        labels = _convert(source, str(staging), metric=metric, direction=direction, chunk_datasets=chunk_datasets,
                          rows_in_memory=rows_in_memory, work_dir=work_dir, scale=scale)
    # the labels just written, not read back from the store
    return open_zarr_cube(str(path), dataset_labels=labels)


class _CheckedScores:
    """The scores of each block converted by ``scale`` and checked against the card's range exactly as
    :func:`mcda.score_cube` checks a cube (:func:`mcda.data.checks.check_card_ranges`, shared): a block
    with a score outside the range is refused naming its cells; at the end, scores that were in the
    card's range before the conversion are refused (their smallest and largest over every block)."""

    def __init__(self, template, scale):
        from mcda.data.checks import cube_card, cube_metric, scale_factor

        self.template, self.scale, self.factor = template, scale, scale_factor(scale)
        self.card = cube_card(template)
        self.label = (cube_metric(template) or self.card.name) if self.card is not None else None
        self.low, self.high = math.inf, -math.inf

    def __call__(self, block: np.ndarray, text: np.ndarray) -> np.ndarray:
        import xarray as xr

        from mcda.data.checks import check_range, finite_bounds, outside_range

        if self.factor != 1.0:
            block = block / self.factor
        if self.card is None:
            return block
        if outside_range(block, self.card):  # the cells named as score_cube names them
            check_range(xr.DataArray(block, dims=("dataset", "method"),
                                     coords={"dataset": text.astype(object),
                                             "method": self.template.coords["method"].values}),
                        self.card, self.label, " of the first chunk of the store holding any")
        low, high = finite_bounds(block)
        if not math.isnan(low):
            self.low, self.high = min(self.low, low), max(self.high, high)
        return block

    def finish(self) -> None:
        from mcda.data.checks import check_scale_needed

        if self.card is not None and self.low <= self.high:
            check_scale_needed(self.card, self.scale, self.low, self.high, self.label)


def _convert(source: _Source, store_path: str, *, metric, direction, chunk_datasets, rows_in_memory, work_dir,
             scale=None):
    """Both passes into the (staging) store at ``store_path``; returns the dataset labels written."""
    import xarray as xr

    from mcda._core import progress as _progress
    from mcda.data.checks import apply_scale, attach_metric

    n_rows = source.n_rows if source.n_rows is not None else source.n_rows_estimate
    bits = _bits_for(n_rows, max(1, rows_in_memory // 2))  # partitions of R / 2 rows: two are assembled at once
    work = tempfile.gettempdir() if work_dir is None else str(work_dir)
    _remove_dead_work(work)
    folder = tempfile.mkdtemp(prefix=f"{_WORK_PREFIX}{os.getpid()}-", dir=work)
    done = False
    parts = writer = None
    # the conversion makes no reference cycles, but zarr's and the threads' bookkeeping allocates
    # enough objects to trigger full collections over everything the process holds: paused
    # meanwhile (and restored as it was)
    collecting = gc.isenabled()
    gc.disable()
    warm_up = _WarmUp()
    try:
        text_scores = False
        while True:
            line = _progress.Line(f"mcda: reading {source.kind} (pass 1 of 2)", source.n_rows, "rows")
            try:
                parts, lookup, width, n_read = _partition(source, folder, bits, text_scores, line)
                line.close(n_read)
                break
            except _TextScores:  # a CSV score that is not a number: read them as text, to name the rows
                shutil.rmtree(folder)
                os.makedirs(folder)
                text_scores = True
        warm_up.join()
        import zarr
        if not lookup:
            raise McdaArgumentError(f"the {source.kind} file has no rows", argument=None)
        provisional = list(lookup)
        methods = sorted(provisional)
        recode = np.array([methods.index(m) for m in provisional], dtype=np.int64)
        k = len(methods)
        root = zarr.open_group(store_path, mode="w", zarr_format=2)
        writer = _Writer(root, k, width, chunk_datasets, store_path)
        line = _progress.Line("mcda: writing the store (pass 2 of 2)", n_read, "rows")
        assembled = 0
        try:
            # two partitions are assembled at once (the kernels release the GIL), written in order
            from concurrent.futures import ThreadPoolExecutor

            todo = [int(p) for p in np.flatnonzero(parts.counts)]
            budget = max(1, rows_in_memory // 2)
            # partitions are read ahead by _READERS threads (direct reads wait on the disk, not the processor)
            # while the rows read and not yet assembled stay within five partitions of the budget
            reads: dict = {}
            free: list = []
            free_lock = threading.Lock()
            parts.index()  # (built once, here, before the readers look partitions up in it)
            rows = np.array([parts.counts[p] for p in todo], dtype=np.int64)
            held = np.concatenate([[0], np.cumsum(np.where(rows <= budget, rows, 0))])  # rows read before partition i
            next_read = 0

            def read(p):
                size = parts.read_bound(p)
                with free_lock:
                    at = next((j for j, b in enumerate(free) if b.size * 8 >= size), None)
                    buffer = None if at is None else free.pop(at)
                if buffer is None:
                    buffer = _aligned_words(max(size + size // 4, 1 << 20))
                return parts.read(p, out=buffer), buffer

            def read_ahead(written):
                """Start the reads of the next partitions while those read and not yet written
                (from the ``written``-th on) hold at most ``_HELD_PARTITIONS`` partitions' rows of the
                budget, at most ``_READ_AHEAD`` partitions ahead of the one written next."""
                nonlocal next_read
                while (next_read < len(todo) and next_read < written + _READ_AHEAD
                       and (held[next_read + 1] - held[written] <= _HELD_PARTITIONS * budget
                            or next_read == written)):
                    if rows[next_read] <= budget:  # (a partition to split again reads its own)
                        reads[next_read] = reader.submit(read, todo[next_read])
                    next_read += 1

            def assemble(i):
                future = reads.pop(i, None)
                if future is None:  # a partition to split again reads its own
                    return list(_assemble(parts, todo[i], budget, recode, k, width, folder))
                segments, buffer = future.result()
                try:
                    return list(_assemble(parts, todo[i], budget, recode, k, width, folder, segments))
                finally:
                    with free_lock:
                        free.append(buffer)

            with ThreadPoolExecutor(max_workers=2) as pool, ThreadPoolExecutor(max_workers=_READERS) as reader:
                read_ahead(0)
                # more partitions handed to the two threads than they assemble at once: a thread that is
                # done with one goes on with the next even while the one before it (written first) is not
                pending = [pool.submit(assemble, i) for i in range(min(_ASSEMBLING, len(todo)))]
                # the card's attributes, while the first partitions assemble (reading the cards takes a while)
                cube = xr.DataArray(np.zeros((0, k)), dims=("dataset", "method"))
                cube = attach_metric(apply_scale(cube.assign_coords(method=np.array(methods, dtype=object)), scale,
                                                 {}), metric, direction)
                checked = _CheckedScores(cube, scale)
                for i, p in enumerate(todo):
                    blocks = pending.pop(0).result()
                    read_ahead(i + 1)
                    if i + _ASSEMBLING < len(todo):
                        pending.append(pool.submit(assemble, i + _ASSEMBLING))
                    parts.release(p)  # (through the page cache) its pages serve the next writes
                    for block, text in blocks:
                        writer.add(checked(block, text), text)
                    del blocks
                    assembled += int(parts.counts[p])
                    line.update(assembled)
        except _Duplicates as dup:
            raise McdaArgumentError(f"duplicate rows: {_duplicate_rows(source, dup.pairs, methods)}. A cube holds one score "
                             "per (dataset, method): reduce repeated results (seeds, folds) to one first, or "
                             "drop the repeated rows.", argument=None) from None
        checked.finish()
        writer.close()
        line.close(assembled)
        root.create_array("method", data=np.array(methods, dtype=str))
        writer.scores.attrs.update({"_ARRAY_DIMENSIONS": ["dataset", "method"],
                                    **{key: ("" if v is None else v) for key, v in cube.attrs.items()}})
        writer.labels.attrs["_ARRAY_DIMENSIONS"] = ["dataset"]
        root["method"].attrs["_ARRAY_DIMENSIONS"] = ["method"]
        done = True
    finally:
        warm_up.join(raising=False)  # (a conversion stopped by an error: its imports end first)
        if collecting:
            gc.enable()
        if writer is not None and not done:
            writer.abandon()
        if done:  # the work folder removed in a thread: freeing the spill file's blocks takes the system a while
            # (1.4 s for 1.6 GB on the benchmark's disk, mounted with discard); the interpreter waits for it at exit
            threading.Thread(target=_remove_work, args=(parts, folder), name="mcda-ingest-cleanup").start()
        else:
            _remove_work(parts, folder)
    return writer.dataset_labels()


def _checked(chunk_datasets, rows_in_memory, columns) -> tuple[int, int, dict]:
    from mcda.ingest.items import ITEM_ROLES

    chunk_datasets = check_positive_int("chunk_datasets", chunk_datasets)
    rows_in_memory = check_positive_int("rows_in_memory", rows_in_memory, minimum=2)
    cols = {r: r for r in _ROLES}
    if columns is not None:
        if not isinstance(columns, dict):
            raise McdaArgumentTypeError(f"`columns` must be a dict role -> column name; got {columns!r}",
                                        argument="columns", value=columns)
        unknown = [r for r in columns if r not in ITEM_ROLES]
        if unknown:
            raise McdaArgumentError(f"`columns` keys must be among {shown(ITEM_ROLES)}; got {shown(unknown)}",
                                    argument="columns", allowed=ITEM_ROLES)
        cols.update(columns)
    return chunk_datasets, rows_in_memory, cols


def _item_roles(kind: str, path, cols: dict, delimiter: str = ",") -> dict | None:
    """The roles of a file of per-item scores (an ``item`` column, named by ``columns`` or by its name), or
    None for a file of one score per (dataset, method)."""
    from mcda.ingest.items import file_columns

    if not os.path.exists(str(path)):
        return None  # the source names the missing file
    try:
        names = file_columns(kind, path, delimiter)
    except (OSError, ValueError):  # not Parquet / CSV at all (pyarrow's ArrowInvalid is a ValueError)
        return None  # the source says the file cannot be read, naming its argument
    roles = dict(cols)
    taken = set(cols.values())  # a column `columns` gives another role (an "item" column read as datasets)
    for role in ("item", "cluster", "sample"):
        if role not in roles and role in names and role not in taken:
            roles[role] = role
    if "item" not in roles:
        extra = [r for r in ("cluster", "sample") if r in cols]
        if extra:
            raise McdaArgumentError(f"`columns` names {shown(extra)} but no 'item' column: clusters and samples are "
                                    "of items; name the item column too (`columns={'item': ...}`)",
                                    argument="columns", value=cols)
        return None
    missing = [roles[r] for r in ("dataset", "method", "item", "score", "cluster", "sample")
               if r in roles and roles[r] not in names]
    if missing:
        raise McdaArgumentError(f"the {kind} file {str(path)!r} has no column(s) {shown(missing)}; its columns are "
                                f"{shown(names)}. Name them with `columns={{'dataset': ..., 'item': ..., ...}}`.",
                                argument="columns", value=missing)
    return roles


_COMMON_DOC = """
    path : str or Path
        The Zarr store to write (removed again if the file is refused).
    metric, direction :
        As in :func:`mcda.score_cube`: the card travels in the store's attributes.
    scale : {"percent", "fraction"}, optional
        As in :func:`mcda.score_cube`: ``"percent"`` divides the scores by 100 as they are
        written (recorded in the store's attributes).
    chunk_datasets : int
        Datasets per chunk of the store.
    columns : dict, optional
        Role (``"dataset"``, ``"method"``, ``"score"``; for per-item scores also ``"item"``,
        ``"cluster"``, ``"sample"``) -> column name.
    rows_in_memory : int
        Sets the memory bound (see Notes), not the result: pass 1 reads batches of
        ``rows_in_memory / 4`` rows, a partition of pass 2 holds at most half of it.
    chunk_items : int
        Items per chunk of a store of per-item scores. A file with an ``item`` column (or
        ``columns={"item": ...}``) becomes the cube ``dataset × method × item`` (× ``sample``
        with a ``sample`` column), with a ``cluster`` coordinate on ``item`` from a ``cluster``
        column (:mod:`mcda.ingest.items`): label passes with bounded memory, then one pass per
        group of datasets whose scores fit in ``rows_in_memory`` values.
    overwrite : bool
        Replace an existing ``path`` (refused otherwise, as :func:`mcda.store.to_zarr` does).
    work_dir : str or Path, optional
        Where the spill file goes (default: the system's temporary folder). It needs at
        most about ``L + 10`` bytes a row of free space for labels of ``L`` bytes.

    Returns
    -------
    xarray.DataArray
        The lazily opened cube (:func:`mcda.store.open_cube`).

    Raises
    ------
    ValueError
        A missing column; an empty dataset or method label (rows named); a score that is
        not a number or is infinite (rows named; null / NaN is a missing result); two rows
        for one (dataset, method) wherever they are in the file (the dataset, the method and
        the rows named); scores outside the card's range, or a ``scale`` that would convert
        scores already in it, checked as :func:`mcda.score_cube` checks them.

    Notes
    -----
    Rows may come in any order (see :mod:`mcda.ingest.convert` for the two passes). The store's
    datasets are ordered by a 64-bit hash of the label (then the label), its methods by
    label: the same rows in any order give the same store.

    Memory bound, with ``R = rows_in_memory``, labels of ``L`` bytes (``w`` characters),
    ``k`` methods and ``r`` rows per dataset (``k`` for a complete cube):

    - pass 1 holds at most seven batches of ``R / 4`` rows (two being read and two read ahead
      by the two reading threads, one being checked, two being partitioned), about ``2 L + 34``
      bytes a row each at most (the Arrow columns, the rows' partitions and the batch laid out,
      2**17 rows at a time, before its segments are copied to their slots): ``7 R × (2 L + 34) / 4``
      in all; and the spill file's two buffers of slots, 128 MiB each;
    - pass 2 assembles two partitions at once, each of at most ``R / 2`` rows (and at most
      about 2**17 rows when the file is large: small hash tables), keeps two more assembled
      until they are written, and reads partitions ahead while those read and not yet written
      hold at most ``5 R / 2`` rows: about ``L + 10`` bytes a row for the segments read back,
      ``(16 k + L + 4 w + 80) / r`` bytes a row more for the two being assembled (per dataset
      its cells, its label, its slots in the hash table and its row of the block and of labels
      handed to the store) and ``(8 k + 4 w) / r`` for the two waiting:
      ``R × (5 (L + 10) + (2 (16 k + L + 4 w + 80) + 2 (8 k + 4 w)) / r) / 2``;
    - the store's chunks: one filling, one being compressed and written and its compressed
      copy, about ``3 × chunk_datasets × (8 k + 4 w)`` bytes;
    - the spill file's index, 24 bytes per chunk (a partition's share of a buffer written).

    None of it grows with the number of datasets. Defaults (``R = 2,000,000``, 12-byte
    labels, 20 methods, ``chunk_datasets=100,000``): at most about 200 + 256 MiB in pass 1,
    110 + 65 MiB in pass 2 (about 40 MiB in all on a large file, whose partitions are small: eight read ahead at most) and 55 MiB for
    the store's chunks, beside the
    interpreter and its libraries. The returned cube holds its dataset labels in memory (as
    every opened store does; about 70 bytes a dataset as Python strings): they are gathered
    as pass 2 writes them, so that they are in memory by its end rather than read back from
    the store after it. A dataset with many
    more than ``k`` rows (only possible with duplicates, which are refused) makes its
    partition larger than ``R / 2``. Disk: the spill file, about ``8 + 2 + L - p`` bytes a row
    for labels whose batch shares a prefix of ``p`` bytes (the widths of the method code and of
    the label length grow with what the file needs; no length byte when a batch's labels have
    one length), plus the unfilled ends of the slots written (a few per cent), in ``work_dir``,
    removed at the end (by a thread once the store is written: freeing a large file takes the
    system a while; the interpreter waits for it at exit). Measured (``benchmarks/bench_ingest.py``, figures in
    the large-cubes guide): 100,000,000 rows, 5,000,000 datasets × 20 methods.
"""


def parquet_to_zarr(parquet, path, *, metric=None, direction=None, chunk_datasets: int = 1_000_000,
                    columns: dict | None = None, rows_in_memory: int = 2_000_000, work_dir=None,
                    overwrite: bool = False, scale=None, chunk_items: int = 100_000):
    """Turn a tidy Parquet file of scores into a Zarr cube, streaming, rows in any order.

    Parameters
    ----------
    parquet : str or Path
        A tidy file with columns ``dataset, method, score`` (rename with ``columns``); other
        columns are not read. Labels may be text, integers or dictionary-encoded; scores any
        numeric type (or text holding numbers).
    """
    chunk_datasets, rows_in_memory, cols = _checked(chunk_datasets, rows_in_memory, columns)
    roles = _item_roles("Parquet", parquet, cols)
    if roles is not None:
        from mcda.ingest.items import items_to_zarr

        return items_to_zarr("Parquet", parquet, path, cols=roles, metric=metric, direction=direction,
                             chunk_items=chunk_items, rows_in_memory=rows_in_memory, overwrite=overwrite, scale=scale)
    source = _ParquetSource(parquet, cols, max(1, rows_in_memory // 4))
    return _ingest(source, path, metric=metric, direction=direction, chunk_datasets=chunk_datasets,
                   rows_in_memory=rows_in_memory, work_dir=work_dir, overwrite=overwrite, scale=scale)


def csv_to_zarr(csv, path, *, metric=None, direction=None, chunk_datasets: int = 1_000_000,
                columns: dict | None = None, rows_in_memory: int = 2_000_000, work_dir=None, delimiter: str = ",",
                overwrite: bool = False, scale=None, chunk_items: int = 100_000):
    """Turn a tidy CSV file of scores into a Zarr cube, streaming, rows in any order.

    Parameters
    ----------
    csv : str or Path
        A tidy file with a header and columns ``dataset, method, score`` (rename with
        ``columns``); other columns are not read; compressed files (``.gz``, ``.bz2``,
        ``.zst``) are read as they are. Labels are read as text; an empty score field or one
        of pandas' missing markers (``NA``, ``NaN``, ``null``, …) is a missing result.
    delimiter : str
        The field separator.
    """
    chunk_datasets, rows_in_memory, cols = _checked(chunk_datasets, rows_in_memory, columns)
    if not isinstance(delimiter, str) or len(delimiter) != 1:
        raise McdaArgumentError(f"`delimiter` must be one character; got {delimiter!r}",
                                argument="delimiter", value=delimiter)
    roles = _item_roles("CSV", csv, cols, delimiter)
    if roles is not None:
        from mcda.ingest.items import items_to_zarr

        return items_to_zarr("CSV", csv, path, cols=roles, metric=metric, direction=direction, chunk_items=chunk_items,
                             rows_in_memory=rows_in_memory, overwrite=overwrite, scale=scale, delimiter=delimiter)
    source = _CsvSource(csv, cols, max(1, rows_in_memory // 4), delimiter)
    return _ingest(source, path, metric=metric, direction=direction, chunk_datasets=chunk_datasets,
                   rows_in_memory=rows_in_memory, work_dir=work_dir, overwrite=overwrite, scale=scale)


if parquet_to_zarr.__doc__:  # not under python -OO
    parquet_to_zarr.__doc__ += _COMMON_DOC
    csv_to_zarr.__doc__ += _COMMON_DOC
