"""When two numbers count as equal: the one tie-tolerance rule of mcda.

A difference smaller than the rounding error of how it was computed is no difference.

* **Scores** (the user's numbers) are compared through one subtraction, whose rounding is a
  few ulp of the larger operand: a − b counts as 0 (and |a − b| as exactly the rope) within
  ``score_tolerance(scale) = SCORE_ULPS · eps · scale``, scale = max(|a|, |b|, rope). So
  0.77 − 0.76 = 0.010000000000000009 is a difference of exactly 0.01, as baycomp reads it,
  while 1e-14 beyond it is not. The numba kernel :mod:`mcda._core._kernels.counts` applies the same
  rule with ``SCORE_ULPS``. :func:`rank` is the one ranker (every rank of scores in mcda comes
  from it) and :func:`tied` / :func:`snap_differences` the one comparison of two scores.
* **Derived statistics of order one** (mean ranks, outranking flows, shares, standings) are
  sums whose rounding noise is around 1e-13; a real difference between them is at least
  0.5 / n_datasets for uniform mean ranks. They tie within ``TIE_TOLERANCE = 1e-9``.
"""

from __future__ import annotations

import numpy as np

__all__ = ["SCORE_ULPS", "EPS", "TIE_TOLERANCE", "score_tolerance", "tie_key", "tied", "tie_zeroed_differences", "snap_differences", "rank", "RANK_KERNEL_MIN_CELLS"]

SCORE_ULPS = 8
EPS = float(np.finfo(np.float64).eps)
TIE_TOLERANCE = 1e-9


def score_tolerance(scale):
    """The rounding allowance of one subtraction of scores of magnitude ``scale`` (array or float)."""
    return SCORE_ULPS * EPS * scale


def tie_key(values):
    """``values`` rounded to the tie tolerance, for sorting derived statistics with ties kept equal."""
    return np.round(np.asarray(values, dtype=np.float64), 9)


RANK_KERNEL_MIN_CELLS = 200_000  # rank from this many cells with the numba kernel


def tied(a, b, scale=None):
    """Whether scores ``a`` and ``b`` are tied under the tie rule (elementwise, broadcasting).

    Equal values are tied (infinities included); otherwise |a − b| ≤ ``score_tolerance(scale)``,
    scale = max(|a|, |b|) unless given (a difference of derived values passes the scale of the
    scores it came from). NaN is tied with nothing.
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if scale is None:
        scale = np.maximum(np.abs(a), np.abs(b))
    tolerance = score_tolerance(np.asarray(scale, dtype=np.float64))
    with np.errstate(invalid="ignore"):
        return (a == b) | ((np.abs(a - b) <= tolerance) & np.isfinite(tolerance))


def tie_zeroed_differences(a, b) -> np.ndarray:
    """a − b of two 2-D arrays of scores, with 0 wherever :func:`tied` says a and b tie (NaN stays NaN).

    The same as ``np.where(tied(a, b), 0.0, a - b)``, in one compiled pass over the cells (the
    paired tests over every pair of methods call it on blocks of millions of cells).
    """
    from mcda._core._kernels.rank_positions import tied_differences

    a = np.ascontiguousarray(a, dtype=np.float64)
    b = np.ascontiguousarray(b, dtype=np.float64)
    out = np.empty(a.shape)
    tied_differences(a.reshape(a.shape[0], -1), b.reshape(b.shape[0], -1), float(SCORE_ULPS * EPS),
                     out.reshape(out.shape[0], -1))
    return out

def snap_differences(diff: np.ndarray, tol) -> np.ndarray:
    """Rows of score differences under the tie rule: zeros and ties as the rule has them.

    ``tol`` is ``score_tolerance(scale)`` of each row (scale: the magnitude of the scores
    subtracted), one value per row.

    |d| ≤ tol becomes 0; sorted |d| values whose consecutive gaps are ≤ tol take the
    cluster's smallest value (the sign is kept). NaN stays NaN. Generic (noise-free) data is
    returned unchanged.
    """
    diff = np.asarray(diff, dtype=np.float64)
    nan = np.isnan(diff)
    tol = np.broadcast_to(np.asarray(tol, dtype=np.float64), diff.shape[:1])[:, None]
    absd = np.abs(diff)
    absd = np.where(absd <= tol, 0.0, absd)
    order = np.argsort(np.where(nan, np.inf, absd), axis=1, kind="stable")
    ordered = np.take_along_axis(absd, order, axis=1)
    gaps = np.diff(ordered, axis=1)
    starts = np.ones(ordered.shape, dtype=bool)
    starts[:, 1:] = ~(gaps <= tol)  # NaN gaps start a new cluster
    index = np.where(starts, np.arange(ordered.shape[1])[None, :], 0)
    np.maximum.accumulate(index, axis=1, out=index)
    snapped_sorted = np.take_along_axis(ordered, index, axis=1)
    snapped = np.empty_like(absd)
    np.put_along_axis(snapped, order, snapped_sorted, axis=1)
    out = np.sign(diff) * snapped
    out[nan] = np.nan
    return out + 0.0


def rank(values, *, descending: bool = False, scale=None, tolerance=None, exact: bool = False) -> np.ndarray:
    """THE ranker of mcda: average ranks along the last axis under the tie rule, NaN kept.

    Parameters
    ----------
    values : array_like, 1-D or 2-D
        Ranked along the last axis (each row on its own); NaN entries stay NaN and the others
        are ranked among themselves (a row with m values gets ranks 1 … m).
    descending : bool
        False: rank 1 = smallest (scipy's ``rankdata``); True: rank 1 = largest.
    scale : float, optional
        Values within ``score_tolerance(scale)`` of their neighbour in sorted order are tied.
        None: the larger magnitude of each neighbouring pair (values that are scores). Pass the
        scores' magnitude when the values are differences of scores (aligned values, ranges).
    tolerance : float, optional
        An absolute tolerance instead, for derived statistics of order one (mean ranks,
        outranking flows): ``TIE_TOLERANCE``.
    exact : bool
        True: only equal values tie. For quantities that are not scores (posterior draws), or
        differences already snapped by :func:`snap_differences`.

    Returns
    -------
    numpy.ndarray
        float64 of the shape of ``values``. Ties get the mean of the ranks they span; a run
        of neighbours each within the tolerance of the next forms one tie.
    """
    x = np.asarray(values, dtype=np.float64)
    if x.ndim not in (1, 2):
        raise ValueError(f"`values` must be 1-D or 2-D; got {x.ndim} dimensions")
    rows = x.reshape(1, -1) if x.ndim == 1 else x
    if scale is None and tolerance is None and not exact and rows.size >= RANK_KERNEL_MIN_CELLS:
        from mcda._core._kernels.rank_positions import rank_rows_average

        out = np.empty(rows.shape)
        # the kernel ranks 1 = highest: the rows as they are (no copy when contiguous) for descending
        rank_rows_average(np.ascontiguousarray(rows) if descending else -rows, out, float(SCORE_ULPS * EPS))
        return out.reshape(x.shape)
    keys = -rows if descending else rows
    n_rows, k = rows.shape
    if k == 0:
        return np.empty(x.shape)
    order = np.argsort(keys, axis=1, kind="stable")  # NaN last
    ordered = np.take_along_axis(keys, order, axis=1)
    if exact:
        same = ordered[:, 1:] == ordered[:, :-1]
    elif tolerance is not None:
        with np.errstate(invalid="ignore"):
            same = (ordered[:, 1:] == ordered[:, :-1]) | (ordered[:, 1:] - ordered[:, :-1] <= tolerance)
    else:
        same = tied(ordered[:, 1:], ordered[:, :-1], scale)
    starts = np.ones((n_rows, k), dtype=bool)
    starts[:, 1:] = ~same
    ends = np.ones((n_rows, k), dtype=bool)
    ends[:, :-1] = starts[:, 1:]
    positions = np.broadcast_to(np.arange(k), (n_rows, k))
    first = np.maximum.accumulate(np.where(starts, positions, 0), axis=1)
    last = np.minimum.accumulate(np.where(ends, positions, k)[:, ::-1], axis=1)[:, ::-1]
    average = (first + last) / 2.0 + 1.0
    average[np.isnan(ordered)] = np.nan
    out = np.empty((n_rows, k))
    np.put_along_axis(out, order, average, axis=1)
    return out.reshape(x.shape)
