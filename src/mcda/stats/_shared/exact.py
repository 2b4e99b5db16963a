"""The exact null distribution of the difference of two Friedman rank sums (Eisinga et al. 2017).

With k methods ranked 1..k (no ties) on each of n datasets, under the null every dataset's
ranking is uniform over the k! orders, so the difference D = R_i − R_j of two methods' rank
sums is a sum of n independent differences r_i − r_j of two distinct ranks. Eisinga, Heskes,
Pelzer & Te Grotenhuis (2017, eq. 8–9) count its compositions in closed form:

    W(D ≥ d) = (−1)^n Σ_{h=0}^{n} C(n, h) k^{n−h} Σ_{s=0}^{h} (−1)^s C(2h, h+s) C(ks − d + h, 2h)
               (terms with ks − d − h < 0 left out),

out of (k(k − 1))^n equally likely outcomes; the two-sided p-value of an observed |d| > 0 is
2 W(D ≥ |d|) / (k(k − 1))^n, and 1 for d = 0. The alternating sum cancels massively (the
authors use 2,048-bit floating point); here it is evaluated in Python's exact integers and
divided once, so the p-value is the correctly rounded double of the exact rational number for
every k and n. Its cost grows steeply with n (about n²/2 big-integer binomials per distinct d,
of ever more digits: k = 50, n = 100 takes 0.1 s per d, n = 200 0.6 s, n = 400 ten seconds), so
it is used for n ≤ :data:`CLOSED_FORM_MAX_DATASETS`. Beyond, the whole distribution is convolved
once per (k, n) in floating point (:func:`mcda._core._kernels.paired_ranks.rank_sum_difference_tail`):
every term there is positive, so the p-values keep a relative error below about 2nk·2⁻⁵³
(k = 50, n = 1,000: below 1e-11) — not rational arithmetic, but correct to that bound; the few
tails too small for a double (below ~1e-300) fall back to the exact closed form.
"""

from __future__ import annotations

import functools
import math

__all__ = ["rank_sum_difference_count", "rank_sum_difference_pvalue", "exact_critical_rank_sum",
           "CLOSED_FORM_MAX_DATASETS"]

#: Largest number of datasets for which the closed form (exact integers) is used.
CLOSED_FORM_MAX_DATASETS = 100


@functools.lru_cache(maxsize=65536)
def rank_sum_difference_count(d: int, k: int, n: int) -> int:
    """W(D ≥ d): the number of the (k(k − 1))^n equally likely outcomes with D ≥ d (0 ≤ d ≤ n(k − 1))."""
    total = 0
    for h in range(n + 1):
        inner = 0
        s = max(0, -((h + d) // -k))  # smallest s with k s - d - h >= 0
        while s <= h:
            term = math.comb(2 * h, h + s) * math.comb(k * s - d + h, 2 * h)
            inner += -term if s & 1 else term
            s += 1
        if inner:
            total += math.comb(n, h) * k ** (n - h) * inner
    return -total if n & 1 else total


def rank_sum_difference_pvalue(d, k: int, n: int) -> float:
    """Two-sided exact p-value P(|D| ≥ |d|) of a rank-sum difference ``d`` of k methods over n datasets.

    ``d`` may be a half-integer (average ranks of ties): the untied distribution is used at
    ⌈|d|⌉, the exact value of P(|D| ≥ |d|) under it.
    """
    top = n * (k - 1)
    a = math.ceil(abs(float(d)) - 1e-9)
    if a <= 0:
        return 1.0
    if a > top:
        return 0.0
    if n > CLOSED_FORM_MAX_DATASETS:
        tail = float(_tail(k, n)[a])
        if tail > 1e-290:
            return min(1.0, 2.0 * tail)
    return min(1.0, 2 * rank_sum_difference_count(a, k, n) / (k * (k - 1)) ** n)


@functools.lru_cache(maxsize=8)
def _tail(k: int, n: int):
    from mcda._core._kernels.paired_ranks import rank_sum_difference_tail

    return rank_sum_difference_tail(k, n)


def exact_critical_rank_sum(k: int, n: int, level: float) -> int | None:
    """The smallest integer rank-sum difference d with exact two-sided p ≤ ``level``, or None if none is."""
    top = n * (k - 1)
    if rank_sum_difference_pvalue(top, k, n) > level:
        return None
    lo, hi = 1, top  # p is non-increasing in d: bisect
    while lo < hi:
        mid = (lo + hi) // 2
        if rank_sum_difference_pvalue(mid, k, n) <= level:
            hi = mid
        else:
            lo = mid + 1
    return lo
