"""When two numbers count as equal: the one tie-tolerance rule of mcda.

A difference smaller than the rounding error of how it was computed is no difference.

* **Scores** (the user's numbers) are compared through one subtraction, whose rounding is a
  few ulp of the larger operand: a − b counts as 0 (and |a − b| as exactly the rope) within
  ``score_tolerance(scale) = SCORE_ULPS · eps · scale``, scale = max(|a|, |b|, rope). So
  0.77 − 0.76 = 0.010000000000000009 is a difference of exactly 0.01, as baycomp reads it,
  while 1e-14 beyond it is not. The numba kernel :mod:`mcda._core._kernels.counts` applies the same
  rule with ``SCORE_ULPS``.
* **Derived statistics of order one** (mean ranks, outranking flows, shares, standings) are
  sums whose rounding noise is around 1e-13; a real difference between them is at least
  0.5 / n_datasets for uniform mean ranks. They tie within ``TIE_TOLERANCE = 1e-9``.
"""

from __future__ import annotations

import numpy as np

__all__ = ["SCORE_ULPS", "EPS", "TIE_TOLERANCE", "score_tolerance", "tie_key"]

SCORE_ULPS = 8
EPS = float(np.finfo(np.float64).eps)
TIE_TOLERANCE = 1e-9


def score_tolerance(scale):
    """The rounding allowance of one subtraction of scores of magnitude ``scale`` (array or float)."""
    return SCORE_ULPS * EPS * scale


def tie_key(values):
    """``values`` rounded to the tie tolerance, for sorting derived statistics with ties kept equal."""
    return np.round(np.asarray(values, dtype=np.float64), 9)
