"""Exact p-values of Friedman rank-sum differences (Eisinga et al. 2017) and the exact post-hocs.

Oracles: the authors' published supplement value (tests/data/eisinga2017/PROVENANCE.md),
brute-force enumeration of all (k!)^n rankings for small k and n, the exact integer closed form
against the floating-point convolution, statsmodels' multipletests for the adjustments, and the
published Holm APVs of García & Herrera (2008) for the decision the exact p-values change.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import mcda
from mcda._core._kernels.paired_ranks import rank_sum_difference_tail
from mcda.stats._shared.exact import (exact_critical_rank_sum, rank_sum_difference_count, rank_sum_difference_pvalue)

DATA = Path(__file__).parent / "data" / "eisinga2017"
multitest = pytest.importorskip("statsmodels.stats.multitest")


def test_published_supplement_value():
    table = pd.read_csv(DATA / "supplement_examples.csv")
    for row in table.itertuples():
        assert round(rank_sum_difference_pvalue(row.d, row.k, row.n), row.digits) == row.pvalue


@pytest.mark.parametrize("k, n", [(2, 6), (3, 3), (3, 4), (4, 2), (4, 3), (5, 2)])
def test_against_brute_force_enumeration(k, n):
    # every one of the (k!)^n rankings of k methods on n datasets, equally likely under the null
    orders = list(itertools.permutations(range(1, k + 1)))
    diffs = np.array([sum(o[0] - o[1] for o in combo) for combo in itertools.product(orders, repeat=n)])
    for d in range(0, n * (k - 1) + 1):
        expected = np.mean(np.abs(diffs) >= d)
        assert rank_sum_difference_pvalue(d, k, n) == pytest.approx(expected, rel=1e-13, abs=1e-15)


@pytest.mark.parametrize("k, n", [(4, 14), (5, 30), (10, 60), (30, 40)])
def test_float_convolution_equals_the_exact_closed_form(k, n):
    tail = rank_sum_difference_tail(k, n)
    for d in range(1, n * (k - 1) + 1, max(1, n * (k - 1) // 50)):
        exact = rank_sum_difference_count(d, k, n) / (k * (k - 1)) ** n
        if exact > 1e-290:
            assert tail[d] == pytest.approx(exact, rel=1e-12)


def test_large_n_path_agrees_with_closed_form():
    # n > 100 uses the convolution; the closed form (slow there) is the check
    k, n, d = 6, 120, 110
    exact = 2 * rank_sum_difference_count(d, k, n) / (k * (k - 1)) ** n
    assert rank_sum_difference_pvalue(d, k, n) == pytest.approx(exact, rel=1e-12)


def test_half_integer_difference_uses_the_next_integer():
    assert rank_sum_difference_pvalue(16.5, 4, 14) == rank_sum_difference_pvalue(17, 4, 14)
    assert rank_sum_difference_pvalue(0, 4, 14) == 1.0


def test_exact_critical_rank_sum_is_the_smallest_significant_difference():
    for k, n, level in [(4, 14, 0.05 / 6), (5, 30, 0.05 / 10), (3, 5, 0.05)]:
        d = exact_critical_rank_sum(k, n, level)
        assert rank_sum_difference_pvalue(d, k, n) <= level < rank_sum_difference_pvalue(d - 1, k, n)
    assert exact_critical_rank_sum(2, 3, 0.01) is None  # 2/2^3 = 0.25: nothing reaches 0.01


def test_posthocs_with_exact_pvalues():
    cube = mcda.datasets.load("garcia_herrera2008")
    ranks = mcda.rank_table(cube).to_numpy()
    sums = ranks.sum(axis=0)
    n, k = ranks.shape
    holm = mcda.all_pairs_test(cube, test="holm", exact=True)
    frame = holm.to_frame()
    a, b = np.triu_indices(k, 1)
    expected = [rank_sum_difference_pvalue(sums[i] - sums[j], k, n) for i, j in zip(a, b)]
    np.testing.assert_allclose(frame["p_raw"], expected, rtol=1e-14)
    np.testing.assert_allclose(frame["p_adjusted"], multitest.multipletests(expected, method="holm")[1], rtol=1e-12)
    assert holm.exact
    nem = mcda.nemenyi(cube, exact=True)
    np.testing.assert_allclose(nem.to_frame()["p_adjusted"],
                               multitest.multipletests(expected, method="bonferroni")[1], rtol=1e-12)
    m = k * (k - 1) // 2
    assert nem.critical_difference == exact_critical_rank_sum(k, n, 0.05 / m) / n
    ctl = mcda.control_test(cube, control="C4.5", test="hochberg", exact=True)
    c = list(cube.coords["method"].values).index("C4.5")
    others = [j for j in range(k) if j != c]
    raw = [rank_sum_difference_pvalue(sums[c] - sums[j], k, n) for j in others]
    np.testing.assert_allclose(ctl.pvalues, raw, rtol=1e-14)
    np.testing.assert_allclose(ctl.pvalues_adjusted, multitest.multipletests(raw, method="simes-hochberg")[1])
    with pytest.raises(TypeError, match="`exact`"):
        mcda.nemenyi(cube, exact="yes")


def test_exact_pvalues_change_a_published_decision():
    # García & Herrera (2008), 5 classifiers over 30 datasets, Holm over all 10 pairs. The
    # published raw (normal-approximation) p-values of k-NN vs NaiveBayes and C4.5 vs CN2 are
    # 1.011e-2 and 1.276e-2 (tests/data/garcia_herrera2008/PROVENANCE.md): Holm's thresholds at
    # their steps, alpha/5 = 0.0100 and alpha/4 = 0.0125, reject neither and Holm stops at 5
    # rejections. Their exact p-values, 0.00966 and 0.01228, fall below both thresholds, and Holm
    # rejects 7.
    cube = mcda.datasets.load("garcia_herrera2008")
    normal = mcda.all_pairs_test(cube, test="holm").to_frame().set_index(["method_a", "method_b"])
    exact = mcda.all_pairs_test(cube, test="holm", exact=True).to_frame().set_index(["method_a", "method_b"])
    for pair, published, threshold in [(("k-NN(k=1)", "NaiveBayes"), 1.011e-2, 0.05 / 5),
                                       (("C4.5", "CN2"), 1.276e-2, 0.05 / 4)]:
        assert normal.loc[pair, "p_raw"] == pytest.approx(published, abs=5e-6)
        assert not normal.loc[pair, "significant"]
        assert exact.loc[pair, "p_raw"] < threshold and exact.loc[pair, "significant"]
    assert (int(normal["significant"].sum()), int(exact["significant"].sum())) == (5, 7)
