"""The simulation loop of :func:`mcda.design_power`: the decisions of the procedures across datasets
on each simulated benchmark.

- :func:`simulate_separations`: for each simulated datasets × methods matrix, which pairs each
  procedure separates — Friedman (Iman–Davenport F) then Nemenyi, Friedman then Holm on the
  Friedman z, Wilcoxon signed-rank tests with Holm, sign tests with Holm, and the Bayesian sign
  test's decision — counted over the simulations.

The decision rules are those of the procedures themselves: the signed ranks come from
:func:`mcda._core._kernels.paired_ranks.pair_signed_ranks` (the kernel of
:func:`mcda.pairwise_over_datasets`), ties follow the one tie rule (:func:`_tied`) and the rope its boundary (:func:`_region`), and every
critical value, null distribution and Bayesian decision table is computed by the caller with the
procedures' own functions and passed in. The draws are the caller's (``values``). A plain-Python
simulation that runs mcda's procedures on each simulated benchmark is the reference in
``tests/test_design_power.py``.
"""

from __future__ import annotations

import math

import numpy as np

from mcda._core._kernels._jit import jit
from mcda._core._kernels.counts import _region
from mcda._core._kernels.paired_ranks import pair_signed_ranks
from mcda._core._kernels.rank_positions import _tied

__all__ = ["simulate_separations", "NEMENYI", "HOLM", "WILCOXON", "SIGN", "BAYESIAN_SIGN", "N_PROCEDURES"]

#: Row of each procedure in the count arrays: the order of the registry entry "design-power"'s
#: ``simulates`` (Friedman–Nemenyi, Friedman–Holm, Wilcoxon–Holm, sign–Holm, Bayesian sign).
NEMENYI, HOLM, WILCOXON, SIGN, BAYESIAN_SIGN = 0, 1, 2, 3, 4
N_PROCEDURES = 5


@jit()
def _holm(p, alpha, rejected):
    """Holm's step-down decisions of the finite p-values of ``p`` (NaN: outside the family), as
    ``adjust_pvalues(p, "holm") <= alpha``: reject in increasing order while (m − i) · p_(i) ≤ α."""
    m = 0
    for i in range(p.size):
        rejected[i] = False
        if not np.isnan(p[i]):
            m += 1
    if m == 0:
        return
    keys = np.empty(p.size)
    for i in range(p.size):
        keys[i] = np.inf if np.isnan(p[i]) else p[i]
    order = np.argsort(keys, kind="mergesort")
    for step in range(m):
        i = order[step]
        if (m - step) * p[i] <= alpha:
            rejected[i] = True
        else:
            break


@jit()
def _wilcoxon_p(n, r_plus, n_zero, tie_term, has_ties, signflip, exact_cdf, exact_sf, exact_max):
    """The two-sided p of one pair, as ``pool_independent._wilcoxon_p`` with zero_method="wilcox"."""
    if n_zero == n:
        return np.nan
    if not has_ties and n_zero == 0 and n <= exact_max:
        low = exact_sf[int(math.floor(r_plus))]
        high = exact_cdf[int(math.ceil(r_plus))]
        return min(max(2.0 * min(low, high), 0.0), 1.0)
    if not np.isnan(signflip):
        return signflip
    count = float(n - n_zero)
    mean = count * (count + 1.0) / 4.0
    var = count * (count + 1.0) * (2.0 * count + 1.0)
    se = math.sqrt(max(var - tie_term / 2.0, 0.0) / 24.0)
    if se <= 0.0:
        return np.nan
    z = (r_plus - mean) / se
    return math.erfc(abs(z) / math.sqrt(2.0))


@jit()
def simulate_separations(values, enabled, ulps, f_critical, concordance_rejects, critical_difference,
                         alpha, exact_cdf, exact_sf, exact_max, signflip_max, sign_p, rope, bayes_decision,
                         pair_counts, any_counts, omnibus_count):
    """Count, over simulated benchmarks, the pairs each procedure separates.

    Parameters
    ----------
    values : float64 (n_simulations, n_datasets, n_methods)
        The simulated oriented scores (higher is better).
    enabled : int64 (N_PROCEDURES,)
        1 for each procedure to run (rows NEMENYI, HOLM, WILCOXON, SIGN, BAYESIAN_SIGN).
    ulps : float
        The tie rule's tolerance in units of the last place (``SCORE_ULPS``): two scores tie
        within ``ulps · eps`` of the larger, a difference is within the rope up to ``ulps · eps``
        of the largest of the two scores and the rope (:func:`mcda._core._kernels.counts._region`).
    f_critical : float
        The Iman–Davenport F at which the omnibus rejects (F ≥ f_critical).
    concordance_rejects : bool
        Whether complete concordance (F infinite; exact p = (k!)^(1 − N)) rejects at α.
    critical_difference : float
        Nemenyi's critical difference of the mean ranks.
    alpha : float
    exact_cdf, exact_sf : float64 (n(n + 1)/2 + 1,)
        The exact null of the signed-rank sum R+ at n datasets (cumulated up and down).
    exact_max, signflip_max : int
        As :func:`mcda.pairwise_over_datasets`: the exact null up to ``exact_max`` datasets,
        the sign-flip p (ties or zeros) up to ``signflip_max``.
    sign_p : float64 (n + 1, n + 1)
        ``sign_p[t, w]``: the exact two-sided sign-test p of min(wins, losses) = w in t decided datasets.
    rope : float
        A difference with |d| ≤ rope is a tie for the sign test and an equivalence for the Bayesian one.
    bayes_decision : int64 (n + 1, n + 1)
        ``bayes_decision[wins_a, wins_b]``: 1 (a better), −1 (b better) or 0 (no directional decision).
    pair_counts : int64 (N_PROCEDURES, n_methods (n_methods − 1)/2)
        Added to: the simulations in which each procedure separates each pair (pairs in
        ``numpy.triu_indices`` order).
    any_counts : int64 (N_PROCEDURES,)
        Added to: the simulations in which each procedure separates at least one pair.
    omnibus_count : int64 (1,)
        Added to: the simulations in which the Iman–Davenport F rejects.
    """
    n_sim, n, k = values.shape
    relative = ulps * 2.220446049250313e-16
    m = k * (k - 1) // 2
    first = np.empty(m, dtype=np.int64)
    second = np.empty(m, dtype=np.int64)
    q = 0
    for a in range(k):
        for b in range(a + 1, k):
            first[q] = a
            second[q] = b
            q += 1
    ranks = np.empty(k)
    mean_ranks = np.empty(k)
    diff = np.empty((m, n))
    order = np.empty((m, n), dtype=np.int64)
    r_plus = np.empty(m)
    r_minus = np.empty(m)
    tie_term = np.empty(m)
    signflip = np.empty(m)
    n_zero = np.empty(m, dtype=np.int64)
    wins = np.empty(m, dtype=np.int64)
    losses = np.empty(m, dtype=np.int64)
    has_ties = np.empty(m, dtype=np.bool_)
    p = np.empty(m)
    rejected = np.empty(m, dtype=np.bool_)
    se = math.sqrt(k * (k + 1) / (6.0 * n))
    for s in range(n_sim):
        x = values[s]
        if enabled[NEMENYI] or enabled[HOLM]:
            for j in range(k):
                mean_ranks[j] = 0.0
            for i in range(n):
                for j in range(k):
                    above = 0.0
                    for other in range(k):
                        if other != j:
                            if _tied(x[i, other], x[i, j], relative):
                                above += 0.5
                            elif x[i, other] > x[i, j]:
                                above += 1.0
                    ranks[j] = 1.0 + above
                for j in range(k):
                    mean_ranks[j] += ranks[j]
            centred = 0.0
            for j in range(k):
                mean_ranks[j] /= n
                centred += (mean_ranks[j] - (k + 1) / 2.0) ** 2
            chi2 = 12.0 * n / (k * (k + 1)) * centred
            denominator = n * (k - 1) - chi2
            if n < 2:
                reject = False
            elif denominator <= 0:
                reject = concordance_rejects
            else:
                reject = (n - 1) * chi2 / denominator >= f_critical
            if reject:
                omnibus_count[0] += 1
                if enabled[NEMENYI]:
                    some = False
                    for q in range(m):
                        if abs(mean_ranks[first[q]] - mean_ranks[second[q]]) >= critical_difference:
                            pair_counts[NEMENYI, q] += 1
                            some = True
                    if some:
                        any_counts[NEMENYI] += 1
                if enabled[HOLM]:
                    for q in range(m):
                        z = (mean_ranks[first[q]] - mean_ranks[second[q]]) / se
                        p[q] = math.erfc(abs(z) / math.sqrt(2.0))
                    _holm(p, alpha, rejected)
                    some = False
                    for q in range(m):
                        if rejected[q]:
                            pair_counts[HOLM, q] += 1
                            some = True
                    if some:
                        any_counts[HOLM] += 1
        if enabled[WILCOXON] or enabled[SIGN] or enabled[BAYESIAN_SIGN]:
            for q in range(m):
                a = first[q]
                b = second[q]
                for i in range(n):
                    diff[q, i] = 0.0 if _tied(x[i, a], x[i, b], relative) else x[i, a] - x[i, b]
            if enabled[WILCOXON]:
                for q in range(m):
                    order[q] = np.argsort(np.abs(diff[q]))
                pair_signed_ranks(diff, order, 0, signflip_max, r_plus, r_minus, n_zero, tie_term, has_ties,
                                  wins, losses, signflip)
                for q in range(m):
                    p[q] = _wilcoxon_p(n, r_plus[q], n_zero[q], tie_term[q], has_ties[q], signflip[q], exact_cdf,
                                       exact_sf, exact_max)
                _holm(p, alpha, rejected)
                some = False
                for q in range(m):
                    if rejected[q]:
                        pair_counts[WILCOXON, q] += 1
                        some = True
                if some:
                    any_counts[WILCOXON] += 1
            if enabled[SIGN] or enabled[BAYESIAN_SIGN]:
                for q in range(m):
                    above = 0
                    below = 0
                    for i in range(n):
                        region = _region(x[i, first[q]], x[i, second[q]], rope, ulps)
                        if region > 0:
                            above += 1
                        elif region < 0:
                            below += 1
                    wins[q] = above
                    losses[q] = below
                if enabled[SIGN]:
                    for q in range(m):
                        decided = wins[q] + losses[q]
                        p[q] = sign_p[decided, min(wins[q], losses[q])]
                    _holm(p, alpha, rejected)
                    some = False
                    for q in range(m):
                        if rejected[q]:
                            pair_counts[SIGN, q] += 1
                            some = True
                    if some:
                        any_counts[SIGN] += 1
                if enabled[BAYESIAN_SIGN]:
                    some = False
                    for q in range(m):
                        if bayes_decision[wins[q], losses[q]] != 0:
                            pair_counts[BAYESIAN_SIGN, q] += 1
                            some = True
                    if some:
                        any_counts[BAYESIAN_SIGN] += 1
