"""Pairwise region counts over datasets: one pass over the rows, no k × k × N temporaries."""

from __future__ import annotations

import numpy as np

from ._jit import jit


@jit(nogil=True)
def region_counts(values, rope, ulps):
    """wins[i, j]: rows where values[:, i] - values[:, j] > rope (beyond rounding);
    equivalent[i, j]: rows where |difference| <= rope + ulps * eps * max(|a|, |b|, rope);
    shared[i, j]: rows where both are present (not NaN). ``values`` is oriented (higher is better)."""
    n, k = values.shape
    wins = np.zeros((k, k), dtype=np.int64)
    equivalent = np.zeros((k, k), dtype=np.int64)
    shared = np.zeros((k, k), dtype=np.int64)
    eps = 2.220446049250313e-16
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
                d = a - b
                scale = max(abs(a), abs(b), rope)
                if abs(d) <= rope + ulps * eps * scale:
                    equivalent[i, j] += 1
                elif d > 0:
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
