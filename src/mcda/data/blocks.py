"""The scheduling of every across-dataset statistic: blocks of datasets, in memory or on dask.

A statistic is written once, next to it, as ``block(values, offset, *args)`` (a slab of whole
datasets, rows ``offset …``, to a partial result) and ``combine(a, b)`` (two partials to one), and
finalized by its own code. Here they are run: an in-memory cube is one block (a few row slices
when very large), a dask-backed cube one ``dask.delayed`` task per chunk along ``dataset``, combined
in a binary tree by the active dask scheduler (threads, or a ``distributed`` cluster).
"""

from __future__ import annotations
from mcda._core.validation import McdaArgumentError

import threading

import numpy as np
import pandas as pd
import xarray as xr

__all__ = ["is_lazy", "require_in_memory", "PerBlock", "reduce", "reduce_over_items", "block_sizes", "map_rows",
           "as_table", "NUMBA_LOCK"]

_MEMORY_CELLS = 8_000_000  # datasets × methods per in-memory slice: bounded memory for very large N
# numba's "workqueue" threading layer takes one thread at a time: a parallel kernel run in a block holds this
NUMBA_LOCK = threading.Lock()


def is_lazy(cube) -> bool:
    """Whether ``cube`` is a DataArray backed by a dask array (not loaded into memory)."""
    return isinstance(cube, xr.DataArray) and hasattr(cube.data, "dask")


def require_in_memory(scores, function: str, *, reason: str, instead: str) -> None:
    """Refuse a lazy ``scores`` (ValueError) where ``function`` needs every dataset at once: never load it
    silently. The message names the function, says why (``reason``) and what to do ``instead``."""
    if is_lazy(scores):
        raise McdaArgumentError(f"`scores` is a lazy (dask-backed) cube of {scores.sizes.get('dataset', 0)} datasets, and "
                         f"{function} cannot run chunk-wise: {reason}. mcda does not load a lazy cube into memory "
                         f"behind your back; {instead}.", argument="scores")


class PerBlock(tuple):
    """A block argument with one value per block, in dataset order: block ``b`` receives item ``b``."""


class _InfiniteScore(ValueError):
    """(dataset position, method position) of an infinite score in a lazy block; :func:`reduce` names them."""


def _matrix(raw, columns) -> np.ndarray:
    values = np.asarray(raw, dtype=np.float64)
    return np.ascontiguousarray(values if columns is None else values[:, columns])


def _apply(raw, offset, index, columns, check, block, args, mapper, keep=False):
    """One block as a float64 matrix (``columns`` only; a lazy block is checked for infinite scores)."""
    values = _matrix(raw, columns)
    if check and np.isinf(values).any():
        i, j = np.argwhere(np.isinf(values))[0]
        raise _InfiniteScore(int(offset + i), int(j if columns is None else columns[j]))
    values = values if mapper is None else mapper(values)
    part = block(values, int(offset), *(a[index] if isinstance(a, PerBlock) else a for a in args))
    return (part, values) if keep else part


def _blocks(cube: xr.DataArray, whole: bool):
    """(raw blocks, offsets): dask chunks along ``dataset`` (methods in one chunk), or row slices."""
    if is_lazy(cube):
        offsets = np.concatenate([[0], np.cumsum(cube.data.chunks[0])[:-1]]).astype(np.int64)
        return list(cube.data.rechunk({1: -1}).to_delayed().ravel()), offsets
    values = cube.values
    step = max(1, values.shape[0] if whole else _MEMORY_CELLS // max(1, values.shape[1]))
    offsets = np.arange(0, max(1, values.shape[0]), step)
    return [values[o:o + step] for o in offsets], offsets


def block_sizes(cube: xr.DataArray) -> np.ndarray:
    """Datasets per block as :func:`reduce` visits them with ``whole=True`` (in memory: one block)."""
    return np.array(cube.data.chunks[0] if is_lazy(cube) else [cube.shape[0]], dtype=np.int64)


def _tree(parts: list, combine):
    """``combine`` over ``parts`` in a binary tree, dataset order kept (the same tree in memory and on dask)."""
    while len(parts) > 1:
        parts = [combine(parts[i], parts[i + 1]) for i in range(0, len(parts) - 1, 2)] + parts[len(parts) & ~1:]
    return parts[0]


def reduce(cube: xr.DataArray, block, combine, *args, columns=None, mapper=None, keep: bool = False,
           whole: bool = False):
    """``combine`` of ``block(values, offset, *args)`` over the blocks of ``cube``: ``values`` float64, only
    ``columns`` if given, through ``mapper`` (e.g. ranks) if given; ``keep`` also returns the mapped matrix
    (lazy for a lazy cube); ``whole`` keeps an in-memory cube in one block."""
    lazy, apply, step = is_lazy(cube), _apply, combine
    raws, offsets = _blocks(cube, whole or keep)  # the mapped matrix is kept whole anyway
    columns = None if columns is None else np.asarray(columns, dtype=np.int64)
    if lazy:
        import dask

        apply, step = dask.delayed(_apply, pure=True), dask.delayed(combine, pure=True)
    parts = [apply(r, int(o), b, columns, lazy, block, args, mapper, keep and not lazy)
             for b, (r, o) in enumerate(zip(raws, offsets))]
    if keep and not lazy:
        parts, mapped = [parts[0][0]], parts[0][1]
    elif keep:
        mapped = map_rows(cube, mapper, columns=columns)
    if not lazy:
        return (_tree(parts, step), mapped) if keep else _tree(parts, step)
    try:
        from mcda._core.progress import compute  # dask.compute, with a progress bar when asked for

        part = compute(_tree(parts, step))[0]
    except _InfiniteScore as exc:
        raise McdaArgumentError("scores must be finite (NaN marks a missing result); infinite value at dataset "
                         f"{cube.coords['dataset'].values[exc.args[0]]!r}, method "
                         f"{str(cube.coords['method'].values[exc.args[1]])!r}", argument=None) from None
    return (part, mapped) if keep else part


def _map_one(raw, columns, function, args):
    return function(_matrix(raw, columns), *args)


def map_rows(cube: xr.DataArray, function, *args, columns=None):
    """``function(values, *args)`` of the cube's (``columns`` of) rows: numpy, or lazy block by block."""
    if not is_lazy(cube):
        return _map_one(cube.values, columns, function, args)
    width = cube.sizes["method"] if columns is None else len(columns)
    return cube.data.rechunk({1: -1}).map_blocks(_map_one, columns, function, args, dtype=np.float64,
                                  chunks=(cube.data.chunks[0], (width,)))


def as_table(matrix, datasets, methods, name: str):
    """A datasets × methods table: a DataFrame in memory, a lazy DataArray for a lazy matrix."""
    labels = np.asarray(datasets)
    if not hasattr(matrix, "dask"):
        # the matrix was computed for this table (not copied again); text labels become the index as they are
        text = labels.dtype == object and pd.api.types.infer_dtype(labels, skipna=False) == "string"
        index = pd.Index(labels if text else [str(d) for d in datasets], name="dataset")
        return pd.DataFrame(matrix, index=index, columns=pd.Index(list(methods), name="method"), copy=False)
    if labels.dtype == object:  # as a pandas Index, which xarray keeps (an array is copied string by string)
        labels = pd.Index(labels, dtype=object, copy=False, name="dataset")
    return xr.DataArray(matrix, dims=("dataset", "method"), name=name,
                        coords={"dataset": labels, "method": np.array(list(methods), dtype=object)})


# --------------------------------------------------------------------------- blocks of items

def _item_block(raw, positions, groups, block, args):
    return block(np.asarray(raw, dtype=np.float64), positions, groups, *args)


def _group_chunks(groups: np.ndarray, target: int) -> tuple:
    """Chunk sizes along ``item`` of about ``target`` items each that never split a run of equal ``groups``."""
    starts = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
    sizes, first = [], 0
    for start in starts[1:]:
        if start - first >= target:
            sizes.append(int(start - first))
            first = int(start)
    sizes.append(int(groups.size - first))
    return tuple(sizes)


def reduce_over_items(cube: xr.DataArray, block, combine, *args, groups=None):
    """``combine`` of ``block(values, positions, groups, *args)`` over blocks of the cube's ``item`` dim.

    ``values`` is a float64 array in the cube's dim order (``dataset``, ``method``, ``item`` and any
    later dim whole) holding the items at ``positions`` (int64, their places along ``item``);
    ``groups`` (int64 codes, one per item, e.g. the items' clusters; None: none) is the slice of the
    codes for those items. An in-memory cube is one block. A lazy cube is read one task per chunk
    along ``item``; when ``groups`` is given its items are first put in group order and the chunks
    are cut so that no group is split between two blocks (a cluster's sums are then whole in one
    block). ``combine`` must not depend on how the items are split.
    """
    axis = cube.dims.index("item")
    n_items = cube.sizes["item"]
    codes = None if groups is None else np.ascontiguousarray(groups, dtype=np.int64)
    if not is_lazy(cube):
        return block(np.asarray(cube.values, dtype=np.float64), np.arange(n_items, dtype=np.int64), codes, *args)
    import dask

    data, positions = cube.data, np.arange(n_items, dtype=np.int64)
    target = max(1, int(max(data.chunks[axis])))
    if codes is not None:
        if codes.size > 1 and np.any(codes[1:] < codes[:-1]):
            order = np.argsort(codes, kind="stable")
            data, codes, positions = data[(slice(None),) * axis + (order,)], codes[order], positions[order]
        sizes = _group_chunks(codes, target)
    else:
        sizes = data.chunks[axis]
    data = data.rechunk({i: (sizes if i == axis else -1) for i in range(data.ndim)})
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    raws = data.to_delayed().ravel()
    run = dask.delayed(_item_block, pure=True)
    parts = [run(r, positions[o:o + n], None if codes is None else codes[o:o + n], block, args)
             for r, o, n in zip(raws, offsets, sizes)]
    from mcda._core.progress import compute

    return compute(_tree(parts, dask.delayed(combine, pure=True)))[0]
