"""Pairwise regions over datasets: one pass over the rows, no k × k × N temporaries.

:func:`region_counts` counts each ordered pair's regions over the rows; :func:`beyond_rows`
keeps the per-row "i beyond j" indicator (the outranking views). Both read the boundary
from :func:`_region`, so it is one rule.
"""

from __future__ import annotations

import numpy as np

from mcda._core._kernels._jit import jit


@jit(inline="always")
def _region(a, b, rope, ulps):
    """1 if a − b > rope beyond rounding, −1 if b − a is, 0 if |a − b| <= rope + ulps · eps · max(|a|, |b|, rope)."""
    d = a - b
    scale = max(abs(a), abs(b), rope)
    if abs(d) <= rope + ulps * 2.220446049250313e-16 * scale:
        return 0
    return 1 if d > 0 else -1


@jit(nogil=True)
def region_counts(values, rope, ulps):
    """wins[i, j]: rows where values[:, i] - values[:, j] > rope (beyond rounding);
    equivalent[i, j]: rows where |difference| <= rope + ulps * eps * max(|a|, |b|, rope);
    shared[i, j]: rows where both are present (not NaN). ``values`` is oriented (higher is better)."""
    n, k = values.shape
    wins = np.zeros((k, k), dtype=np.int64)
    equivalent = np.zeros((k, k), dtype=np.int64)
    shared = np.zeros((k, k), dtype=np.int64)
    for r in range(n):
        for i in range(k):
            a = values[r, i]
            if np.isnan(a):
                continue
            for j in range(i + 1, k):
                b = values[r, j]
                if np.isnan(b):
                    continue
                shared[i, j] += 1
                region = _region(a, b, rope, ulps)
                if region == 0:
                    equivalent[i, j] += 1
                elif region > 0:
                    wins[i, j] += 1
                else:
                    wins[j, i] += 1
    for i in range(k):
        for j in range(i + 1, k):
            shared[j, i] = shared[i, j]
            equivalent[j, i] = equivalent[i, j]
        # a method against itself: every present row is shared and equivalent
        c = 0
        for r in range(n):
            if not np.isnan(values[r, i]):
                c += 1
        shared[i, i] = c
        equivalent[i, i] = c
    return wins, equivalent, shared


@jit(nogil=True)
def beyond_rows(values, rope, ulps):
    """(n, k, k) bool: ``out[r, i, j]`` where values[r, i] − values[r, j] > rope beyond rounding
    (:func:`_region`), False where either is NaN; a row's ``wins > 0`` of :func:`region_counts`."""
    n, k = values.shape
    out = np.zeros((n, k, k), dtype=np.bool_)
    for r in range(n):
        for i in range(k):
            a = values[r, i]
            if np.isnan(a):
                continue
            for j in range(i + 1, k):
                b = values[r, j]
                if np.isnan(b):
                    continue
                region = _region(a, b, rope, ulps)
                if region > 0:
                    out[r, i, j] = True
                elif region < 0:
                    out[r, j, i] = True
    return out
