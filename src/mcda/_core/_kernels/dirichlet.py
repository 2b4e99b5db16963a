"""Loops of the Bayesian sign comparison: Dirichlet draws → region shares → winner counts.

- :func:`normalise_and_count`: rows of independent gamma draws become Dirichlet draws
  (each row divided by its sum, in place) and the region with the largest share is counted.
- :func:`count_winners`: the same count on rows that are already Dirichlet draws (the
  reproduce-baycomp path, where the draws come from ``RandomState.dirichlet``).

The largest share is the first one among equals, as ``numpy.argmax`` picks it (baycomp's
``np.argmax(sample, axis=1)``). Each kernel has a plain numpy reference in
``tests/test_bayesian.py``.
"""

from __future__ import annotations

import numpy as np

from mcda._core._kernels._jit import jit

__all__ = ["normalise_and_count", "count_winners"]


@jit(inline="always")
def _winner(a, b, c):
    """The region (0, 1, 2) with the largest share, first among equals; signed_rank uses it too."""
    best = 0
    top = a
    if b > top:
        best = 1
        top = b
    if c > top:
        best = 2
    return best


@jit()
def normalise_and_count(gammas):
    """Divide each row of ``gammas`` (n, 3) by its sum in place; return the argmax counts (3,) int64."""
    counts = np.zeros(3, dtype=np.int64)
    for s in range(gammas.shape[0]):
        total = gammas[s, 0] + gammas[s, 1] + gammas[s, 2]
        gammas[s, 0] /= total
        gammas[s, 1] /= total
        gammas[s, 2] /= total
        counts[_winner(gammas[s, 0], gammas[s, 1], gammas[s, 2])] += 1
    return counts


@jit()
def count_winners(shares):
    """Argmax counts (3,) int64 of the rows of ``shares`` (n, 3), first index among equals."""
    counts = np.zeros(3, dtype=np.int64)
    for s in range(shares.shape[0]):
        counts[_winner(shares[s, 0], shares[s, 1], shares[s, 2])] += 1
    return counts
