"""Loops of the rank-stability bootstrap and of ranking within rows.

- :func:`weighted_counts`: a block of resamples (dataset indices) → the weight each dataset
  carries in each resample (its count times its weight), ready for one matrix product with
  the precomputed rank matrix.
- :func:`tied_differences`: a − b elementwise, 0 where a and b tie under the tie rule (one
  pass, no temporaries: what :func:`mcda._core.numeric.tie_zeroed_differences` runs).
- :func:`rank_rows_average`: ranks within each row, 1 = highest, ties averaged under the tie
  rule, NaN kept (the numba path of :func:`mcda._core.numeric.rank`).

Each kernel has a plain numpy / scipy reference in ``tests/test_ranks.py``.
"""

from __future__ import annotations

import numba

import numpy as np

from mcda._core._kernels._jit import jit

__all__ = ["weighted_counts", "rank_rows_average", "tied_differences"]


@jit()
def _tied(x, y, relative):
    """The tie rule for two finite-or-infinite scores: equal, or both finite and within ``relative`` × the larger magnitude."""
    return x == y or (abs(x - y) <= relative * max(abs(x), abs(y)) and abs(x) < np.inf and abs(y) < np.inf)

@jit()
def weighted_counts(indices, weights, out, totals):
    """Per resample r: ``out[r, d]`` = (times dataset d is drawn) × ``weights[d]``, ``totals[r]`` = Σ_d out[r, d].

    Parameters
    ----------
    indices : int64 (n_resamples, n_draws)
        The datasets drawn in each resample (positions into ``weights``).
    weights : float64 (n_datasets,)
        Each dataset's (unnormalised) weight; ones for the uniform aggregation.
    out : float64 (n_resamples, n_datasets)
        Overwritten (need not be zeroed).
    totals : float64 (n_resamples,)
        Overwritten.

    Returns
    -------
    bool
        False when some index lies outside [0, n_datasets) (``out`` is then incomplete).
    """
    n_resamples, n_draws = indices.shape
    n = weights.shape[0]
    for r in range(n_resamples):  # serial: memory-bound, threads do not help
        for d in range(n):
            out[r, d] = 0.0
        total = 0.0
        for i in range(n_draws):
            d = indices[r, i]
            if d < 0 or d >= n:
                return False
            out[r, d] += weights[d]
            total += weights[d]
        totals[r] = total
    return True


_RUN = 64  # rows up to this long: insertion sort alone; longer: insertion-sorted runs, then merges


@jit()
def _sort_row(keys, m, order):
    """Indices 0..m-1 in ``order`` sorted by ``keys`` (stable, the order ``np.argsort(kind="stable")``
    gives): insertion sort up to ``_RUN`` values; longer rows go to :func:`_merge_sort_row`.

    Written out rather than ``np.argsort``: numba's mergesort compiles for seconds (it brings
    string handling for ``kind=``), a cost every first run after install paid. The short path
    stays a small function, so that the compiler inlines it into the per-row loops.
    """
    if m > _RUN:
        _merge_sort_row(keys, m, order)
        return
    for a in range(m):
        order[a] = a
    for a in range(1, m):
        current = order[a]
        key = keys[current]
        b = a - 1
        while b >= 0 and keys[order[b]] > key:
            order[b + 1] = order[b]
            b -= 1
        order[b + 1] = current


@jit()
def _merge_sort_row(keys, m, order):
    """:func:`_sort_row` for rows longer than ``_RUN``: insertion-sorted runs of ``_RUN``, merged
    pairwise (a bottom-up merge sort)."""
    for a in range(m):
        order[a] = a
    for lo in range(0, m, _RUN):
        hi = min(lo + _RUN, m)
        for a in range(lo + 1, hi):
            current = order[a]
            key = keys[current]
            b = a - 1
            while b >= lo and keys[order[b]] > key:
                order[b + 1] = order[b]
                b -= 1
            order[b + 1] = current
    source = order
    target = np.empty(m, dtype=np.int64)
    in_order = True  # whether ``source`` is ``order``
    width = _RUN
    while width < m:
        for lo in range(0, m, 2 * width):
            mid = min(lo + width, m)
            hi = min(lo + 2 * width, m)
            i, j, k = lo, mid, lo
            while i < mid and j < hi:
                if keys[source[j]] < keys[source[i]]:  # the left run first on a tie: stable
                    target[k] = source[j]
                    j += 1
                else:
                    target[k] = source[i]
                    i += 1
                k += 1
            while i < mid:
                target[k] = source[i]
                i += 1
                k += 1
            while j < hi:
                target[k] = source[j]
                j += 1
                k += 1
        source, target = target, source
        in_order = not in_order
        width *= 2
    if not in_order:
        for a in range(m):
            order[a] = source[a]


@jit(parallel=True)
def rank_rows_average(values, out, relative):
    """Ranks within each row: 1 = highest value, ties get the average rank, NaN stays NaN.

    Non-NaN entries of a row are ranked among themselves (a row with m results gets ranks
    1 … m). Neighbours in sorted order tie when equal or when their difference is at most
    ``relative`` × the larger magnitude (``SCORE_ULPS · eps``: the tie rule of
    :mod:`mcda._core.numeric`; 0 ranks exactly). ``out`` (float64, same shape as ``values``)
    is filled in place. Rows are independent (parallel over rows).
    """
    n_rows, k = values.shape
    chunk = 4096
    for c in numba.prange((n_rows + chunk - 1) // chunk):
        present = np.empty(k, dtype=np.int64)
        keys = np.empty(k)
        order = np.empty(k, dtype=np.int64)
        for i in range(c * chunk, min(n_rows, (c + 1) * chunk)):
            m = 0
            for j in range(k):
                v = values[i, j]
                if np.isnan(v):
                    out[i, j] = np.nan
                else:
                    present[m] = j
                    keys[m] = -v
                    m += 1
            _sort_row(keys, m, order)
            start = 0
            while start < m:
                stop = start + 1
                before = keys[order[start]]
                while stop < m:
                    here = keys[order[stop]]
                    if not _tied(here, before, relative):
                        break
                    before = here
                    stop += 1
                rank = 0.5 * (start + stop + 1)  # mean of start+1 … stop
                for a in range(start, stop):
                    out[i, present[order[a]]] = rank
                start = stop


@jit()
def tied_differences(a, b, relative, out):
    """``out`` = a − b, with 0 where a and b tie (equal, or within ``relative`` × the larger magnitude, both finite).

    2-D float64 arrays of one shape; NaN in a or b gives NaN.
    """
    n_rows, k = a.shape
    for i in range(n_rows):
        for j in range(k):
            x = a[i, j]
            y = b[i, j]
            out[i, j] = 0.0 if _tied(x, y, relative) else x - y
