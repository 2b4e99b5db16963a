"""Signed-rank and sign counts of every pair of columns of a datasets × methods matrix.

For each pair (a, b) the differences d_i = x[i, a] − x[i, b] over the N datasets are
ranked by |d| (average ranks for ties) and summed by sign, exactly as
``scipy.stats.wilcoxon(x[:, a], x[:, b], zero_method=...)`` does, together with the pieces
of its normal approximation (the tie term Σ(t³ − t)) and of its choice of null distribution
(are there ties or zeros?). For short columns (N ≤ 13) with ties or zeros the kernel also
gives scipy's exact sign-flip p-value (the distribution of R+ over the 2^N sign patterns),
computed by counting subset sums of the doubled ranks instead of enumerating the patterns.

- :func:`pair_signed_ranks`: R+, R−, number of zeros, tie term, tie flag and sign counts per
  pair, and the sign-flip p-values where they apply.
- :func:`signed_rank_null_counts`: the number of subsets of {1..n} with each sum (the exact
  null distribution of R+ without ties or zeros, scipy's ``_get_wilcoxon_distr`` × 2^n).

Each kernel has a plain numpy / scipy reference in ``tests/test_pool_independent.py``.
"""

from __future__ import annotations

import numpy as np

from mcda._core._kernels._jit import jit

__all__ = ["pair_signed_ranks", "signed_rank_null_counts", "ZERO_CODES"]

#: zero_method name -> the integer the kernel takes
ZERO_CODES = {"wilcox": 0, "pratt": 1, "zsplit": 2}


@jit()
def signed_rank_null_counts(n):
    """counts[s] = number of subsets of {1, ..., n} whose sum is s, s = 0..n(n+1)/2 (float64, exact to n = 50)."""
    top = n * (n + 1) // 2
    counts = np.zeros(top + 1)
    counts[0] = 1.0
    reach = 0
    for r in range(1, n + 1):
        reach += r
        for s in range(reach, r - 1, -1):
            counts[s] += counts[s - r]
    return counts


@jit()
def _signflip_p(ranks2, m, constant2, observed2):
    """Two-sided exact p of R+ over the 2^m sign patterns of m nonzero ranks (doubled to integers).

    ``ranks2[:m]`` are 2 × the ranks of the nonzero differences; R+ of a pattern is
    (constant2 + Σ chosen ranks2) / 2. Returns 2 · min(P(R+ ≤ obs), P(R+ ≥ obs)), capped at 1.
    """
    top = 0
    for i in range(m):
        top += ranks2[i]
    counts = np.zeros(top + 1)
    counts[0] = 1.0
    reach = 0
    for i in range(m):
        r = ranks2[i]
        reach += r
        for s in range(reach, r - 1, -1):
            counts[s] += counts[s - r]
    obs = observed2 - constant2
    less = 0.0
    greater = 0.0
    for s in range(top + 1):
        if s <= obs:
            less += counts[s]
        if s >= obs:
            greater += counts[s]
    total = 2.0 ** m
    p = 2.0 * min(less, greater) / total
    return min(p, 1.0)


@jit()
def pair_signed_ranks(diff, order, zero_code, signflip_max, r_plus, r_minus, n_zero, tie_term, has_ties, wins,
                      losses, signflip_p):
    """Signed-rank sums and sign counts of each row of differences ``diff[p] = a − b`` of one pair.

    Parameters
    ----------
    diff : float64 (n_pairs, n)
        The differences of each pair over the n datasets, NaN-free.
    order : int64 (n_pairs, n)
        ``order[p]`` sorts ``|diff[p]|`` ascending (``numpy.argsort(abs(diff), axis=1)``: the
        sort is numpy's, the fastest there is; ties in any order).
    zero_code : int
        0 "wilcox" (zeros dropped before ranking), 1 "pratt" (zeros ranked, their ranks
        dropped), 2 "zsplit" (zeros ranked, their ranks split between R+ and R−).
    signflip_max : int
        Largest n for which the exact sign-flip p is computed when |d| ties or has zeros
        (scipy: 13); 0 to skip.
    r_plus, r_minus, tie_term, signflip_p : float64 (n_pairs,)
        Filled: rank sums of the positive / negative differences (zsplit adds half the zero
        ranks to each), Σ(t³ − t) over tied groups of |d| as scipy's normal approximation
        uses it (zeros excluded under "wilcox" and "pratt"), and the sign-flip p (NaN where
        not computed).
    n_zero, wins, losses : int64 (n_pairs,)
        Filled: number of zero, positive and negative differences.
    has_ties : bool (n_pairs,)
        Filled: some ranked |d| values tie — scipy's test (with "any zero") for leaving the
        exact distribution.
    """
    n_pairs, n = diff.shape
    ranks = np.empty(n)
    ranks2 = np.empty(n, dtype=np.int64)
    for p in range(n_pairs):
        d = diff[p]
        o = order[p]
        zeros = 0
        pos = 0
        for i in range(n):
            if d[i] > 0:
                pos += 1
            elif d[i] == 0:
                zeros += 1
        # zeros come first in |d| order; under "wilcox" they are not ranked at all
        start = zeros if zero_code == 0 else 0
        rp = 0.0
        rm = 0.0
        rz = 0.0
        ties = 0.0
        tied = False
        i = start
        while i < n:
            v = abs(d[o[i]])
            j = i + 1
            while j < n and abs(d[o[j]]) == v:
                j += 1
            t = j - i
            rank = 0.5 * ((i - start + 1) + (j - start))  # the average of positions i+1-start .. j-start
            if t > 1:
                tied = True
                if not (zero_code == 1 and v == 0.0):  # pratt: the zeros leave the tie correction
                    ties += t * t * t - t
            for q in range(i, j):
                x = o[q]
                ranks[x] = rank
                if d[x] > 0:
                    rp += rank
                elif d[x] < 0:
                    rm += rank
                else:
                    rz += rank
            i = j
        if zero_code == 2:
            rp += 0.5 * rz
            rm += 0.5 * rz
        r_plus[p] = rp
        r_minus[p] = rm
        n_zero[p] = zeros
        tie_term[p] = ties
        has_ties[p] = tied
        wins[p] = pos
        losses[p] = n - pos - zeros
        signflip_p[p] = np.nan
        if n <= signflip_max and (tied or zeros > 0):
            m = 0
            for i in range(n):
                if d[i] != 0:
                    ranks2[m] = int(round(2.0 * ranks[i]))
                    m += 1
            constant2 = int(round(rz)) if zero_code == 2 else 0  # 2 × (half the zero ranks)
            observed2 = int(round(2.0 * rp))
            signflip_p[p] = _signflip_p(ranks2, m, constant2, observed2)


@jit()
def rank_sum_difference_tail(k, n):
    """P(D ≥ e) for e = 0..n(k − 1), D the difference of two Friedman rank sums (k methods, n datasets, no ties).

    The distribution of D is the n-fold convolution of the distribution of one dataset's
    difference of two distinct ranks, P(δ) = (k − |δ|)/(k(k − 1)) for 0 < |δ| < k. Every term
    of the convolution and of the tail sums is a product or sum of positive numbers, so each
    value keeps a relative error below about 2nk·2^-53 (no cancellation), as long as it does
    not underflow (values below ~1e-300 come back as 0: the caller computes those exactly).
    """
    top = n * (k - 1)
    size = 2 * top + 1
    centre = top
    dist = np.zeros(size)
    new = np.zeros(size)
    dist[centre] = 1.0
    weights = np.zeros(2 * k - 1)
    for j in range(2 * k - 1):
        delta = j - (k - 1)
        if delta != 0:
            weights[j] = (k - abs(delta)) / (k * (k - 1.0))
    reach = 0
    for step in range(n):
        lo = centre - reach
        hi = centre + reach
        for e in range(lo - (k - 1), hi + k):
            new[e] = 0.0
        for e in range(lo, hi + 1):
            v = dist[e]
            if v != 0.0:
                for j in range(2 * k - 1):
                    new[e + j - (k - 1)] += v * weights[j]
        reach += k - 1
        for e in range(centre - reach, centre + reach + 1):
            dist[e] = new[e]
    tail = np.zeros(top + 1)
    running = 0.0
    for e in range(top, -1, -1):
        running += dist[centre + e]
        tail[e] = running
    return tail
