"""Worked examples of the papers behind the exact rank-sum post-hoc and the Skillings–Mack test.

Each data set is the one a paper works its example on (tests/data/<name>/PROVENANCE.md says where
it comes from and what could and could not be found of the paper's printed numbers). The reference
numbers are R runs of the authors' own published code (Eisinga et al. 2017's ``pexactfrsd``, which
also regenerates the quantities of their Table 4) and of PMCMRplus, stored as CSV next to the data
with the script that made them. No paper's printed table was found (see each PROVENANCE.md).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import mcda

DATA = Path(__file__).parent / "data"


def _qpcr():
    return pd.read_csv(DATA / "eisinga2017" / "qpcr_ruijter2013.csv", index_col="block")


def _qpcr_reference():
    return pd.read_csv(DATA / "eisinga2017" / "qpcr_r_reference.csv")


def _pairs(result, column):
    return np.array([result.loc[a, b] if column is None else result[column].loc[a, b]
                     for a, b in zip(_qpcr_reference().method_a, _qpcr_reference().method_b)])


def test_eisinga2017_qpcr_exact_pvalues_equal_the_authors_code():
    # Eisinga et al. (2017), application: 11 qPCR curve-analysis methods ranked on 4 performance
    # measures (Ruijter et al. 2013, Table 2). Reference: the authors' pexactfrsd() in R
    # (2048-bit arithmetic), raw and Bonferroni over the 55 pairs. Scores are mean ranks
    # (lower is better); |rank-sum differences| and so every p-value do not depend on the direction.
    ref = _qpcr_reference()
    result = mcda.nemenyi(_qpcr(), "lower_is_better", exact=True)
    assert result.exact and result.n_methods == 11 and result.n_datasets == 4
    frame = result.to_frame().set_index(["method_a", "method_b"])
    keys = list(zip(ref.method_a, ref.method_b))
    rank_sum_difference = (frame.loc[keys, "mean_rank_a"] - frame.loc[keys, "mean_rank_b"]).abs() * 4
    np.testing.assert_allclose(rank_sum_difference.to_numpy(), ref.rank_sum_difference, atol=1e-12)
    np.testing.assert_allclose(_pairs(result.pvalues, None), ref.p_exact, rtol=1e-12)
    np.testing.assert_allclose(_pairs(result.pvalues_adjusted, None), ref.p_exact_bonferroni, rtol=1e-12)


def test_eisinga2017_qpcr_approximations_equal_pmcmrplus():
    # The two approximations the paper sets beside the exact p-values (PMCMRplus):
    # Bonferroni-adjusted normal z (frdAllPairsSiegelTest) and the studentized range
    # (frdAllPairsNemenyiTest; R's ptukey and scipy's agree to about 1e-8 here).
    ref = _qpcr_reference()
    normal = mcda.all_pairs_test(_qpcr(), "lower_is_better", test="siegel", adjust="bonferroni")
    np.testing.assert_allclose(_pairs(normal.pvalues_adjusted, None), ref.p_normal_bonferroni, rtol=1e-10)
    tukey = mcda.nemenyi(_qpcr(), "lower_is_better")
    np.testing.assert_allclose(_pairs(tukey.pvalues_adjusted, None), ref.p_studentized_range, atol=1e-8)


def test_eisinga2017_qpcr_exact_pvalues_change_the_decisions():
    # The paper's point on its own example: at alpha = 0.05 the exact p-values separate pairs the
    # approximations do not. Counts from the reference file (R), and mcda gives the same pairs.
    ref = _qpcr_reference()
    expected = {
        "exact": {(a, b) for a, b, p in zip(ref.method_a, ref.method_b, ref.p_exact_bonferroni) if p < 0.05},
        "normal": {(a, b) for a, b, p in zip(ref.method_a, ref.method_b, ref.p_normal_bonferroni) if p < 0.05},
        "range": {(a, b) for a, b, p in zip(ref.method_a, ref.method_b, ref.p_studentized_range) if p < 0.05},
    }
    assert (len(expected["exact"]), len(expected["range"]), len(expected["normal"])) == (4, 2, 1)
    ours = {
        "exact": mcda.nemenyi(_qpcr(), "lower_is_better", exact=True),
        "normal": mcda.all_pairs_test(_qpcr(), "lower_is_better", test="siegel", adjust="bonferroni"),
        "range": mcda.nemenyi(_qpcr(), "lower_is_better"),
    }
    for name, result in ours.items():
        frame = result.to_frame()
        found = {tuple(sorted((a, b))) for a, b in frame.loc[frame["significant"], ["method_a", "method_b"]]
                 .itertuples(index=False)}
        assert found == {tuple(sorted(pair)) for pair in expected[name]}, name
    # the exact critical difference sits between the largest non-separated and the smallest
    # separated mean-rank difference
    exact = ours["exact"]
    separated = ref.rank_sum_difference[ref.p_exact_bonferroni < 0.05] / 4
    kept = ref.rank_sum_difference[ref.p_exact_bonferroni >= 0.05] / 4
    assert kept.max() < exact.critical_difference <= separated.min()


@pytest.mark.parametrize("name, folder, direction, df", [
    ("assembly", "skillings_mack1981", "lower_is_better", 3),
    ("rhythmicity", "hollander_wolfe1999", "lower_is_better", 2),
])
def test_skillings_mack_worked_examples_equal_r(name, folder, direction, df):
    # Skillings & Mack (1981) Table 1 and Hollander & Wolfe (1999) Example 7.8 (Brady 1969), both
    # with missing cells; reference: PMCMRplus::skillingsMackTest (tests/data/skillings_mack1981/
    # make_reference.R). The statistic does not depend on the direction (it is a quadratic form
    # in the centred rank sums).
    ref = pd.read_csv(DATA / "skillings_mack1981" / "r_reference.csv").set_index("example").loc[name]
    frame = pd.read_csv(DATA / folder / f"{name}.csv", index_col=0)
    frame.index = frame.index.astype(str)
    result = mcda.skillings_mack_test(frame, direction=direction)
    other = mcda.skillings_mack_test(frame, direction="higher_is_better")
    assert result.df == df == ref.df
    assert result.statistic == pytest.approx(ref.statistic, rel=1e-10)
    assert other.statistic == pytest.approx(ref.statistic, rel=1e-10)
    assert result.pvalue == pytest.approx(ref.pvalue, rel=1e-8)
    assert result.design.kind == "unbalanced incomplete"


def test_eisinga2017_table4_quantities_equal_the_authors_code():
    # Table 4 of Eisinga et al. (2017) lists, for k = n = 5, the exact p-value and the mid-p-value of
    # every rank-sum difference d. The printed table was not found (PROVENANCE.md); the reference is
    # the authors' pexactfrsd() for the same quantities (table4_r_reference.csv): P(D >= d), P(D = d),
    # mid-p = P(D >= d) - P(D = d)/2 and the doubled count 2 W(D >= d) of the (k(k-1))^n outcomes.
    from mcda.stats._shared.exact import rank_sum_difference_count, rank_sum_difference_pvalue

    ref = pd.read_csv(DATA / "eisinga2017" / "table4_r_reference.csv")
    k, n = 5, 5
    assert list(ref.d) == list(range(n * (k - 1) + 1))
    pvalue = np.array([rank_sum_difference_pvalue(d, k, n) for d in ref.d])
    probability = pvalue - np.append(pvalue[1:], 0.0)
    np.testing.assert_allclose(pvalue, ref.pvalue, rtol=1e-14)
    np.testing.assert_allclose(probability, ref.probability, rtol=1e-12, atol=1e-18)
    np.testing.assert_allclose(pvalue - probability / 2, ref.mid_pvalue, rtol=1e-12)
    compositions = [2 * rank_sum_difference_count(d, k, n) for d in ref.d[1:]]
    assert compositions == [int(c) for c in ref.cumulative_compositions[1:]]
