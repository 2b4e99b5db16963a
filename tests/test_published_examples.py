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


# --------------------------------------------------------------------------- the shared reference tables (issue 37)
# Worked examples already asserted elsewhere, not repeated here: Skillings & Mack (1981) Table 1 and
# Hollander-Wolfe-Chicken Example 7.8, SM / df / p (above and tests/test_incomplete.py); Conover's
# ice cream T1 = 12 and the Durbin-Conover pairs (tests/test_incomplete.py, scikit-posthocs); García
# et al. (2010): R's tie-corrected Friedman, Quade F and aligned T with exact ties
# (tests/test_omnibus.py), the Friedman z against PDFC with Holm, Hochberg, Hommel, Holland, Finner,
# Li and Rom (tests/test_omnibus.py, tests/test_multitest_extra.py).


def _reference(folder: str, name: str = "reference_results.csv") -> pd.DataFrame:
    return pd.read_csv(DATA / folder / name, keep_default_na=False)


def _value(table: pd.DataFrame, quantity: str, treatment: str = "", *, key: str = "dataset", dataset=None,
           column: str = "treatment") -> float:
    rows = table[(table["quantity"] == quantity) & (table[column].astype(str) == treatment)]
    if dataset is not None:
        rows = rows[rows[key] == dataset]
    assert len(rows) == 1, (quantity, treatment, dataset)
    return float(rows["value"].iloc[0])


@pytest.mark.parametrize("dataset, folder, name", [("table1", "skillings_mack1981", "assembly"),
                                                   ("hwc_ex7_8", "hollander_wolfe1999", "rhythmicity")])
def test_skillings_mack_sums_and_covariance_equal_ski_mack(dataset, folder, name):
    # Skillings & Mack (1981) Table 1 and Hollander, Wolfe & Chicken (2014) Example 7.8: the adjusted
    # sums A_j and the covariance Σ that R's Skillings.Mack::Ski.Mack prints
    # (tests/data/skillings_mack1981/reference_results.csv). Ski.Mack's A_j are centred the other way
    # (rank 1 = lowest value, the smallest time or count counts negative): mcda's A_j for
    # "lower_is_better" are the same numbers with the sign flipped.
    ref = _reference("skillings_mack1981")
    frame = pd.read_csv(DATA / folder / f"{name}.csv", index_col=0)
    frame.index = frame.index.astype(str)
    result = mcda.skillings_mack_test(frame, direction="lower_is_better")
    for method in frame.columns:
        expected = _value(ref, "adjusted_sum_A", method, dataset=dataset)
        assert -result.adjusted_rank_sums[method] == pytest.approx(expected, rel=1e-9)
    pairs = result.design.pair_counts  # λ_jl: Σ_jl = −λ_jl off the diagonal, Σ_jj = Σ_l λ_jl
    for method in frame.columns:
        diagonal = pairs.loc[method].drop(method).sum()
        assert diagonal == _value(ref, "cov_diag", method, dataset=dataset)
    if dataset == "table1":
        for a, b in [(a, b) for i, a in enumerate(frame.columns) for b in frame.columns[i + 1:]]:
            assert -pairs.loc[a, b] == _value(ref, "cov_offdiag", f"{a}-{b}", dataset=dataset)
    assert result.statistic == pytest.approx(_value(ref, "SM_statistic", dataset=dataset), rel=1e-10)


def _icecream_wide() -> pd.DataFrame:
    frame = pd.read_csv(DATA / "conover1999_icecream" / "icecream.csv", index_col="judge")
    frame.index = frame.index.astype(str)
    return frame


def test_durbin_icecream_t2_rank_sums_and_lsd_equal_conover_and_agricolae():
    # Conover (1999) p. 391, the ice-cream BIBD (tests/data/durbin_bibd/reference_results.csv): rank
    # sums 8, 9, 4, 3, 5, 6, 7 and "Value : 12" printed by agricolae's durbin.test; T2 = 8 on F(6, 8)
    # printed by a third-party tool ("Durbin T: 8, df(1) 6, df(2) 8"); p of F(6, 8) at 8 from scipy;
    # agricolae's LSD for rank sums 2.824267 (t-Student 2.306004 with 8 df). The judges' ranks are the
    # data, 1 = the variety ranked first, so "lower_is_better" keeps them as they are.
    ref = _reference("durbin_bibd")
    result = mcda.durbin_test(_icecream_wide(), direction="lower_is_better", adjust=None, alpha=0.05)
    for variety, rank_sum in result.rank_sums.items():
        assert rank_sum == _value(ref, "rank_sum", variety, dataset="icecream")
    assert result.statistic == pytest.approx(_value(ref, "T1_durbin_chisq", dataset="icecream"), abs=1e-12)
    assert result.pvalue == pytest.approx(_value(ref, "p_chisq", dataset="icecream"), rel=1e-10)
    assert result.f_statistic == pytest.approx(_value(ref, "T2_durbin_F", dataset="icecream"), abs=1e-12)
    assert result.f_df == (int(_value(ref, "T2_df1", dataset="icecream")), int(_value(ref, "T2_df2", dataset="icecream")))
    assert result.f_pvalue == pytest.approx(_value(ref, "p_F", dataset="icecream"), rel=1e-10)
    assert result.rejected  # decided by the F form (p = 0.0049), not the χ² (p = 0.062)
    # Conover's least significant difference of rank sums: |R_a − R_b| / t_ab is the scale of every pair
    scale = (result.pairwise["rank_sum_diff"].abs() / result.pairwise["statistic"]).to_numpy()
    from scipy import stats

    lsd = stats.t.ppf(0.975, result.f_df[1]) * scale
    np.testing.assert_allclose(lsd, _value(ref, "LSD_rank_sums_alpha0.05", dataset="icecream"), rtol=1e-6)


def test_durbin_toxicity_equals_pmcmrplus():
    # Hollander, Wolfe & Chicken (2014) Example 7.6 (Moore & Bliss 1942), log toxic doses of 7 chemicals
    # on 7 days, 3 per day: T1 and its χ²(6) p from R PMCMRplus::durbinTest
    # (tests/data/durbin_bibd/reference_results.csv). The statistic does not depend on the direction.
    ref = _reference("durbin_bibd")
    tidy = pd.read_csv(DATA / "durbin_bibd" / "hwc2014_example7_6_toxicity.csv")
    wide = tidy.pivot(index="day", columns="chemical", values="log_dose")
    wide.index = wide.index.astype(str)
    result = mcda.durbin_test(wide, direction="lower_is_better")
    assert result.statistic == pytest.approx(_value(ref, "T1_durbin_chisq", dataset="toxicity"), rel=1e-12)
    assert result.df == _value(ref, "df", dataset="toxicity")
    assert result.pvalue == pytest.approx(_value(ref, "p_chisq", dataset="toxicity"), rel=1e-10)
    assert not result.rejected
    sm = mcda.skillings_mack_test(wide, direction="lower_is_better")  # on a BIBD without ties, SM is T1
    assert sm.statistic == pytest.approx(result.statistic, rel=1e-12)


def test_quade_hand_lotion_equals_r():
    # Conover (1999) p. 375f, hand-lotion sales of 5 brands in 7 stores (R's stats::quade.test help
    # example): F = 3.8293 on (4, 24), p = 0.01519 from R 4.2.2, with the tie-aware A = Σ S_ij²; and
    # R's tie-corrected friedman.test χ² = 8.328 (tests/data/conover1999_quade/reference_results.csv).
    ref = _reference("conover1999_quade")
    tidy = pd.read_csv(DATA / "conover1999_quade" / "conover1999_hand_lotion.csv")
    wide = tidy.pivot(index="store", columns="brand", values="sales")
    wide.index = wide.index.astype(str)
    result = mcda.quade_test(wide, direction="higher_is_better")
    assert result.statistic == pytest.approx(_value(ref, "quade_F", dataset="hand_lotion"), rel=1e-12)
    assert result.df == (int(_value(ref, "df1", dataset="hand_lotion")), int(_value(ref, "df2", dataset="hand_lotion")))
    assert result.pvalue == pytest.approx(_value(ref, "p_F", dataset="hand_lotion"), rel=1e-10)
    friedman = mcda.friedman_test(wide, direction="higher_is_better")
    assert friedman.statistic_tied == pytest.approx(_value(ref, "friedman_chisq_tie_corrected",
                                                           dataset="hand_lotion"), rel=1e-12)


def _garcia2010() -> pd.DataFrame:
    tidy = pd.read_csv(DATA / "garcia2010" / "garcia2010_accuracy.csv")
    wide = tidy.pivot(index="dataset", columns="method", values="accuracy")
    return wide[["PDFC", "NNEP", "IS-CHC+1NN", "FH-GBML"]]


def _garcia_value(quantity: str, method: str = "", test: str | None = None) -> float:
    return _value(_reference("garcia2010", "garcia2010_reference_results.csv"), quantity, method, key="test",
                  dataset=test, column="method")


def test_garcia2010_friedman_iman_davenport_quade_ranks_and_nemenyi_cd_equal_scmamp():
    # García, Fernández, Luengo & Herrera (2010), 4 classifiers on 24 datasets: scmamp run on R 4.2.2
    # and recomputed independently (tests/data/garcia2010/garcia2010_reference_results.csv)
    wide = _garcia2010()
    friedman = mcda.friedman_test(wide, direction="higher_is_better")
    for method in wide.columns:
        assert friedman.mean_ranks[method] == pytest.approx(_garcia_value("mean_rank", method, "friedman"), rel=1e-12)
    assert friedman.statistic == pytest.approx(_garcia_value("chisq_no_tie_correction", test="friedman"), rel=1e-12)
    assert friedman.pvalue == pytest.approx(_garcia_value("p_chisq", test="friedman"), rel=1e-10)
    assert friedman.f_statistic == pytest.approx(_garcia_value("F", test="iman_davenport"), rel=1e-12)
    assert friedman.f_df == (3, 69)
    assert friedman.f_pvalue == pytest.approx(_garcia_value("p_F", test="iman_davenport"), rel=1e-10)
    quade = mcda.quade_test(wide, direction="higher_is_better")
    for method in wide.columns:
        assert quade.mean_ranks[method] == pytest.approx(_garcia_value("mean_weighted_rank_T_j", method, "quade"),
                                                         rel=1e-12)
    assert quade.statistic == pytest.approx(_garcia_value("F_tie_aware_A", test="quade"), rel=1e-12)
    nemenyi = mcda.compare_over_datasets(wide, "higher_is_better", test="nemenyi")
    assert nemenyi.critical_difference == pytest.approx(_garcia_value("CD_0.05_df_inf", test="nemenyi"), rel=1e-9)


_GARCIA_ADJUSTMENTS = ("bonferroni", "holm", "hochberg", "hommel", "holland", "finner", "li", "rom")


@pytest.mark.parametrize("posthoc", ["aligned_ranks", "quade"])
def test_garcia2010_adjusted_pvalues_against_pdfc_equal_scmamp(posthoc):
    # scmamp's adjusted p-values against PDFC for the aligned-ranks and Quade z tests, from its raw p
    # (tests/data/garcia2010/garcia2010_reference_results.csv; Hommel is R's p.adjust). Rom: scmamp's
    # adjustRom takes a running maximum that makes its values step-down
    # (tests/data/multitest_scmamp/PROVENANCE.md), so its values are not Rom's step-up p-values: here
    # every raw p is below 0.05, so Rom (as Hochberg, which it never rejects less than) rejects all three,
    # while scmamp's aligned-ranks Rom values (0.0564) would keep two. Rom's decisions are compared
    # with Hochberg's.
    others = ["NNEP", "IS-CHC+1NN", "FH-GBML"]
    raw = np.array([_garcia_value("p_raw_pair", f"PDFC vs {m}", posthoc) for m in others])
    assert raw.max() < 0.05
    for adjust in _GARCIA_ADJUSTMENTS:
        expected = np.array([_garcia_value(f"p_{adjust}_vs_PDFC", m, posthoc) for m in others])
        ours = np.asarray(mcda.adjust_pvalues(raw, method=adjust))
        if adjust == "rom":
            hochberg = np.array([_garcia_value("p_hochberg_vs_PDFC", m, posthoc) for m in others])
            np.testing.assert_array_equal(ours <= 0.05, hochberg <= 0.05)
        else:  # scmamp prints 10 significant digits
            np.testing.assert_allclose(ours, expected, rtol=1e-9)


def test_garcia2010_aligned_ranks_posthoc_uses_scmamps_standard_error():
    # The aligned-ranks post-hoc's standard error is scmamp's and STAC's sqrt(k(kN + 1)/6) = 8.0416
    # (reference rows "aligned_ranks"), not jMetalPy's sqrt(k(N + 1)/6) = 4.0825 ("aligned_ranks_paper_SE").
    # mcda ties aligned values equal in exact arithmetic where scmamp's rank() splits them by rounding
    # noise, so its raw p differ by about 1% (0.0303 vs 0.0299 for NNEP); every decision against PDFC
    # at alpha = 0.05 is scmamp's, for each of García et al.'s adjustments (Rom: see the test above).
    wide = _garcia2010()
    others = ["NNEP", "IS-CHC+1NN", "FH-GBML"]
    for adjust in _GARCIA_ADJUSTMENTS:
        result = mcda.friedman_aligned_ranks_test(wide, direction="higher_is_better", control="PDFC", adjust=adjust)
        posthoc = result.posthoc
        assert posthoc.standard_error == pytest.approx(_garcia_value("SE_of_difference", test="aligned_ranks"),
                                                       rel=1e-12)
        assert posthoc.standard_error != pytest.approx(_garcia_value("SE_of_difference",
                                                                     test="aligned_ranks_paper_SE"), rel=0.1)
        raw = np.array([_garcia_value("p_raw_pair", f"PDFC vs {m}", "aligned_ranks") for m in others])
        np.testing.assert_allclose(posthoc.pvalues.loc[others].to_numpy(), raw, rtol=0.02)
        # Rom's decisions are Hochberg's here (see the test above)
        name = "hochberg" if adjust == "rom" else adjust
        expected = np.array([_garcia_value(f"p_{name}_vs_PDFC", m, "aligned_ranks") for m in others])
        np.testing.assert_array_equal(posthoc.significant.loc[others].to_numpy(), expected <= 0.05)
