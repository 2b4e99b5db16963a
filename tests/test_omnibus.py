"""Friedman aligned ranks, Quade, and the Conover / Siegel / Miller post-hocs (mcda.stats.across.rank_tests).

References: R 4.2.2's ``stats::quade.test`` and scmamp's aligned-ranks functions, stored with the
script that produced them (tests/data/rank_omnibus_r); scikit-posthocs run in the tests on random
designs; statsmodels' ``multipletests`` for the adjustments.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import mcda

sp = pytest.importorskip("scikit_posthocs")
multitest = pytest.importorskip("statsmodels.stats.multitest")

DATA = Path(__file__).parent / "data"
REFERENCE = pd.read_csv(DATA / "rank_omnibus_r" / "r_reference.csv", keep_default_na=False)


def _design(name: str) -> pd.DataFrame:
    """A datasets × methods frame (higher is better) in file order, as the R script read it."""
    if name == "garcia2010":
        tidy = pd.read_csv(DATA / "garcia2010" / "garcia2010_accuracy.csv").rename(columns={"accuracy": "score"})
    elif name == "garcia_herrera2008":
        tidy = pd.read_csv(DATA / "garcia_herrera2008" / "garcia_herrera2008_table2_accuracy.csv")
    else:
        tidy = pd.read_csv(DATA / "rank_omnibus_r" / "designs.csv")
        tidy = tidy[tidy["design"] == name]
    wide = tidy.pivot(index="dataset", columns="method", values="score")
    return wide.loc[tidy["dataset"].unique(), tidy["method"].unique()]


def _ref(design: str, quantity: str) -> pd.DataFrame:
    return REFERENCE[(REFERENCE["design"] == design) & (REFERENCE["quantity"] == quantity)]


def _scalar(design: str, quantity: str) -> float:
    return float(_ref(design, quantity)["value"].iloc[0])


DESIGNS = sorted(REFERENCE["design"].unique())


@pytest.mark.parametrize("design", DESIGNS)
def test_quade_equals_r_quade_test(design):
    wide = _design(design)
    res = mcda.quade_test(wide, direction="higher_is_better")
    # R: stats::quade.test (tests/data/rank_omnibus_r/make_reference.R)
    assert res.statistic == pytest.approx(_scalar(design, "quade_F"), rel=1e-10)
    assert res.pvalue == pytest.approx(_scalar(design, "quade_pvalue"), rel=1e-8, abs=1e-300)
    assert res.df == (int(_scalar(design, "quade_df1")), int(_scalar(design, "quade_df2")))


@pytest.mark.parametrize("design", DESIGNS)
def test_aligned_ranks_equal_scmamp(design):
    wide = _design(design)
    res = mcda.friedman_aligned_ranks_test(wide, direction="higher_is_better", adjust=None, alpha=0.999)
    # R: scmamp's friedmanAlignedRanksTest formula with ties in exact arithmetic (make_reference.R);
    # where no tie is broken by rounding, scmamp's own output is the same number
    assert res.statistic == pytest.approx(_scalar(design, "aligned_T_exact_ties"), rel=1e-10)
    assert res.pvalue == pytest.approx(_scalar(design, "aligned_pvalue_exact_ties"), rel=1e-8)
    if design.startswith("d"):  # integer designs: scmamp itself, unchanged
        assert res.statistic == pytest.approx(_scalar(design, "aligned_T"), rel=1e-10)
        assert res.pvalue == pytest.approx(_scalar(design, "aligned_pvalue"), rel=1e-8)
    else:  # 3-decimal accuracies: scmamp's rank() splits real ties by the subtraction's last bits
        assert abs(res.statistic - _scalar(design, "aligned_T")) < 0.05
    ranks = _ref(design, "aligned_mean_rank_exact_ties").set_index("method_a")["value"]
    pd.testing.assert_series_equal(res.mean_ranks.loc[ranks.index], ranks, check_names=False, rtol=1e-12)
    assert res.posthoc is not None  # alpha = 0.999: every design's omnibus rejects
    if design.startswith("d"):  # scmamp's friedmanAlignedRanksPost raw p-values
        frame = res.posthoc.to_frame().set_index(["method_a", "method_b"])
        for row in _ref(design, "aligned_posthoc_p_raw").itertuples():
            assert frame.loc[(row.method_a, row.method_b), "p_raw"] == pytest.approx(row.value, rel=1e-9, abs=1e-15)


@pytest.mark.parametrize("design", DESIGNS)
def test_quade_with_exact_ties_in_the_ranges(design):
    res = mcda.quade_test(_design(design), direction="higher_is_better")
    assert res.statistic == pytest.approx(_scalar(design, "quade_F_exact_ties"), rel=1e-10)


def test_near_ties_from_subtraction_are_ties():
    # the same design scaled by 1/10: exact ties of the integers become near-ties of the differences
    wide = _design("d1")
    scaled = mcda.friedman_aligned_ranks_test(wide / 10 + 0.1, direction="higher_is_better")
    exact = mcda.friedman_aligned_ranks_test(wide, direction="higher_is_better")
    assert scaled.statistic == pytest.approx(exact.statistic, rel=1e-12)
    quade_scaled = mcda.quade_test(wide / 10 + 0.1, direction="higher_is_better")
    assert quade_scaled.statistic == pytest.approx(mcda.quade_test(wide, direction="higher_is_better").statistic,
                                                   rel=1e-12)


def test_garcia2010_example_mean_ranks_and_statistics():
    # R values for the García et al. (2010) example (the paper's own tables were not found: PROVENANCE.md)
    wide = _design("garcia2010")
    aligned = mcda.friedman_aligned_ranks_test(wide, direction="higher_is_better")
    assert aligned.statistic == pytest.approx(_scalar("garcia2010", "aligned_T_exact_ties"), rel=1e-10)
    assert list(aligned.mean_ranks.sort_values().index) == ["PDFC", "NNEP", "IS-CHC+1NN", "FH-GBML"]
    quade = mcda.quade_test(wide, direction="higher_is_better", control="PDFC")
    assert quade.statistic == pytest.approx(_scalar("garcia2010", "quade_F"), rel=1e-10)
    assert quade.posthoc is not None and quade.posthoc.control == "PDFC"
    friedman = mcda.friedman_test(wide, direction="higher_is_better")
    assert friedman.statistic_tied == pytest.approx(_scalar("garcia2010", "friedman_chi2_tied"), rel=1e-10)


def _random_design(rng, n, k, *, decimals=None):
    values = rng.normal(size=(n, k)) + rng.normal(size=k)
    if decimals is not None:  # integers: ties within and across datasets, exact in binary (no rounding noise)
        values = np.round(values * 10 ** decimals)
    return pd.DataFrame(values, index=[f"d{i}" for i in range(n)], columns=[f"m{j}" for j in range(k)])


def _square(result, methods):
    return result.posthoc.pvalues_adjusted.loc[methods, methods] if hasattr(result, "posthoc") else \
        result.pvalues_adjusted.loc[methods, methods]


def _sp_matrix(frame, methods):
    out = frame.loc[methods, methods].to_numpy(dtype=float).copy()
    np.fill_diagonal(out, np.nan)
    return out


@pytest.mark.parametrize("seed,n,k,decimals", [(0, 15, 4, None), (1, 25, 6, 1), (2, 8, 3, 0), (3, 40, 7, 1)])
@pytest.mark.parametrize("adjust", [None, "holm", "fdr_bh", "bonferroni"])
def test_quade_posthoc_equals_scikit_posthocs(seed, n, k, decimals, adjust):
    wide = _random_design(np.random.default_rng(seed), n, k, decimals=decimals)
    res = mcda.quade_test(wide, direction="higher_is_better", adjust=adjust, alpha=0.9999)
    methods = list(wide.columns)
    # scikit-posthocs' posthoc_quade ranks ascending (its own orientation); |t| is the same
    expected = sp.posthoc_quade(wide.to_numpy(), p_adjust=adjust)
    expected.index = expected.columns = methods
    np.testing.assert_allclose(_sp_matrix(res.posthoc.pvalues_adjusted, methods), _sp_matrix(expected, methods),
                               rtol=1e-9, atol=1e-14)


@pytest.mark.parametrize("seed,n,k,decimals", [(4, 12, 4, None), (5, 30, 5, 1), (6, 9, 6, 0)])
@pytest.mark.parametrize("adjust", [None, "holm", "hommel", "single-step"])
def test_conover_equals_scikit_posthocs(seed, n, k, decimals, adjust):
    wide = _random_design(np.random.default_rng(seed), n, k, decimals=decimals)
    res = mcda.all_pairs_test(wide, direction="higher_is_better", test="conover", adjust=adjust)
    methods = list(wide.columns)
    expected = sp.posthoc_conover_friedman(wide.to_numpy(), p_adjust=adjust)
    expected.index = expected.columns = methods
    np.testing.assert_allclose(_sp_matrix(res.pvalues_adjusted, methods), _sp_matrix(expected, methods),
                               rtol=1e-7, atol=1e-12)
    assert res.distribution == "t" and res.df == (n - 1) * (k - 1)
    assert "t" in res.to_frame().columns


@pytest.mark.parametrize("seed,n,k,decimals", [(7, 14, 4, None), (8, 22, 5, 1)])
@pytest.mark.parametrize("adjust", [None, "holm", "fdr_by"])
def test_siegel_equals_scikit_posthocs_and_the_step_down(seed, n, k, decimals, adjust):
    wide = _random_design(np.random.default_rng(seed), n, k, decimals=decimals)
    res = mcda.all_pairs_test(wide, direction="higher_is_better", test="siegel", adjust=adjust)
    methods = list(wide.columns)
    expected = sp.posthoc_siegel_friedman(wide.to_numpy(), p_adjust=adjust)
    expected.index = expected.columns = methods
    np.testing.assert_allclose(_sp_matrix(res.pvalues_adjusted, methods), _sp_matrix(expected, methods),
                               rtol=1e-9, atol=1e-14)
    if adjust == "holm":  # Siegel + Holm is mcda's Holm all-pairs procedure
        holm = mcda.all_pairs_test(wide, direction="higher_is_better", test="holm")
        np.testing.assert_allclose(_sp_matrix(holm.pvalues_adjusted, methods),
                                   _sp_matrix(res.pvalues_adjusted, methods), rtol=1e-12)


@pytest.mark.parametrize("seed,n,k", [(9, 10, 4), (10, 30, 6)])
def test_miller_equals_scikit_posthocs(seed, n, k):
    wide = _random_design(np.random.default_rng(seed), n, k, decimals=1)
    res = mcda.all_pairs_test(wide, direction="higher_is_better", test="miller")
    methods = list(wide.columns)
    expected = sp.posthoc_miller_friedman(wide.to_numpy())
    expected.index = expected.columns = methods
    np.testing.assert_allclose(_sp_matrix(res.pvalues_adjusted, methods), _sp_matrix(expected, methods),
                               rtol=1e-9, atol=1e-14)


@pytest.mark.parametrize("test", ["conover", "siegel"])
def test_control_versions_adjust_the_control_row(test):
    wide = _random_design(np.random.default_rng(11), 20, 5, decimals=1)
    res = mcda.control_test(wide, direction="higher_is_better", control="m2", test=test, adjust="hochberg")
    all_pairs = mcda.all_pairs_test(wide, direction="higher_is_better", test=test, adjust=None)
    raw = all_pairs.pvalues.loc["m2", ["m0", "m1", "m3", "m4"]].to_numpy()
    # statsmodels: the same k - 1 raw p-values adjusted by Hochberg
    expected = multitest.multipletests(raw, method="simes-hochberg")[1]
    np.testing.assert_allclose(res.pvalues_adjusted.loc[["m0", "m1", "m3", "m4"]].to_numpy(), expected, rtol=1e-12)


def test_aligned_control_posthoc_adjusts_like_statsmodels():
    wide = _random_design(np.random.default_rng(12), 18, 5, decimals=2)
    res = mcda.friedman_aligned_ranks_test(wide, direction="higher_is_better", control="m0", adjust="holm", alpha=0.9999)
    raw = res.posthoc.pvalues.to_numpy()
    np.testing.assert_allclose(res.posthoc.pvalues_adjusted.to_numpy(),
                               multitest.multipletests(raw, method="holm")[1], rtol=1e-12)
    # z = (mean aligned rank of the control - that of b) / sqrt(k (kN + 1) / 6)   (scmamp's formula)
    k, n = 5, 18
    z = (res.mean_ranks["m0"] - res.mean_ranks.drop("m0")) / math.sqrt(k * (k * n + 1) / 6)
    np.testing.assert_allclose(res.posthoc.z.to_numpy(), z.to_numpy(), rtol=1e-12)


def test_no_posthoc_without_a_rejecting_omnibus():
    rng = np.random.default_rng(13)
    wide = pd.DataFrame(rng.normal(size=(10, 4)), columns=list("abcd"))  # no effect at all
    for run in (mcda.quade_test, mcda.friedman_aligned_ranks_test):
        res = run(wide, direction="higher_is_better", alpha=1e-6)
        assert not res.rejected and res.posthoc is None
        assert "no difference may be claimed" in res.summary()


def test_lower_is_better_reverses_the_ranks_not_the_statistic():
    wide = _random_design(np.random.default_rng(14), 16, 4, decimals=1)
    up = mcda.quade_test(wide, direction="higher_is_better", alpha=0.9999)
    down = mcda.quade_test(-wide, direction="lower_is_better", alpha=0.9999)
    assert up.statistic == pytest.approx(down.statistic, rel=1e-12)
    pd.testing.assert_series_equal(up.mean_ranks, down.mean_ranks)
    flipped = mcda.quade_test(wide, direction="lower_is_better", alpha=0.9999)
    np.testing.assert_allclose(flipped.mean_ranks.to_numpy(), 5 - up.mean_ranks.to_numpy(), rtol=1e-12)


def test_edges_all_tied_and_complete_concordance():
    tied = pd.DataFrame(np.ones((6, 3)), columns=list("abc"))
    for run in (mcda.quade_test, mcda.friedman_aligned_ranks_test):
        res = run(tied, direction="higher_is_better")
        assert math.isnan(res.pvalue) and res.reason and res.posthoc is None
    n, k = 5, 3
    # every dataset orders a < b < c with the same range: A = B, F infinite
    concordant = pd.DataFrame(np.arange(k)[None, :] + np.arange(1, n + 1)[:, None], columns=list("abc"))
    res = mcda.quade_test(concordant, direction="higher_is_better")
    assert math.isinf(res.statistic)
    assert res.pvalue == pytest.approx(math.factorial(k) ** (1 - n))  # every dataset orders a < b < c
    assert "concordance" in res.reason


def test_bad_inputs_name_the_argument():
    wide = _random_design(np.random.default_rng(15), 10, 4)
    with pytest.raises(ValueError, match="`control`"):
        mcda.quade_test(wide, direction="higher_is_better", control="nope")
    with pytest.raises(ValueError, match="`adjust`"):
        mcda.friedman_aligned_ranks_test(wide, direction="higher_is_better", control="m0", adjust="shaffer")
    with pytest.raises(ValueError, match="`method`|`adjust`"):
        mcda.quade_test(wide, direction="higher_is_better", adjust="holmes-bonf")
    with pytest.raises(ValueError, match="single-step"):
        mcda.control_test(wide, direction="higher_is_better", control="m0", test="conover", adjust="single-step")
    with pytest.raises(ValueError, match="`alpha`"):
        mcda.quade_test(wide, direction="higher_is_better", alpha=2)


@pytest.mark.parametrize("design,control", [("garcia2010", "PDFC"), ("garcia_herrera2008", "C4.5")])
@pytest.mark.parametrize("adjust", ["holm", "hochberg", "hommel"])
def test_published_examples_control_posthoc_equals_scmamp_and_p_adjust(design, control, adjust):
    # R: scmamp friedmanPost against the control, adjusted by p.adjust (tests/data/rank_omnibus_r/make_adjusted.R)
    ref = pd.read_csv(DATA / "rank_omnibus_r" / "r_adjusted.csv")
    ref = ref[(ref["design"] == design) & (ref["posthoc"] == "friedman")].set_index("method")
    res = mcda.all_pairs_test(_design(design), direction="higher_is_better", test="siegel", adjust=None)
    raw = res.pvalues.loc[control, ref.index]
    # rtol 1e-8: scmamp computes (1 - pnorm(z)) * 2, which loses ~1e-9 relative at p ~ 1e-8 (cancellation)
    np.testing.assert_allclose(raw.to_numpy(), ref["p_raw"].to_numpy(), rtol=1e-8)
    ours = mcda.control_test(_design(design), direction="higher_is_better", control=control, test=adjust)
    np.testing.assert_allclose(ours.pvalues_adjusted.loc[ref.index].to_numpy(), ref[adjust].to_numpy(), rtol=1e-8)


def _quade_untied_form(values: np.ndarray) -> float:
    """Quade's F with the no-ties A = N(N+1)(2N+1)k(k+1)(k-1)/72, written out with scipy's ranks.

    This is the form the SCI2S group's own code computes (KEEL, github SCI2SUGR/KEEL commit
    5f404a94, src/keel/GraphInterKeel/statistical/tests/Friedman.java line 611) and STAC's first
    version (github citiususc/stac commit 7cc3dca, tests_no_parametricos.py); see
    tests/data/garcia2010/PROVENANCE.md. Rank 1 = best (higher score), as in mcda.
    """
    from scipy.stats import rankdata

    n, k = values.shape
    ranks = np.apply_along_axis(lambda row: rankdata(-row), 1, values)
    weights = rankdata(values.max(axis=1) - values.min(axis=1))
    totals = (weights[:, None] * (ranks - (k + 1) / 2.0)).sum(axis=0)
    b_total = float(totals @ totals) / n
    a_untied = n * (n + 1) * (2 * n + 1) * k * (k + 1) * (k - 1) / 72.0
    return (n - 1) * b_total / (a_untied - b_total)


@pytest.mark.parametrize("seed,n,k", [(11, 12, 4), (12, 24, 4), (13, 25, 9), (14, 7, 3)])
def test_quade_without_ties_equals_the_untied_form(seed, n, k):
    # With no tie within a dataset nor among the ranges, A = sum S_ij^2 (R's quade.test, mcda) is the
    # no-ties A of Quade (1979) and of the SCI2S code: the two forms must agree to rounding.
    values = np.random.default_rng(seed).normal(size=(n, k)) + np.linspace(0, 1, k)
    frame = pd.DataFrame(values, index=[f"d{i}" for i in range(n)], columns=[f"m{j}" for j in range(k)])
    res = mcda.quade_test(frame, direction="higher_is_better")
    assert res.statistic == pytest.approx(_quade_untied_form(values), rel=1e-12)


def test_garcia2010_quade_ties_explain_stac_value():
    # On García et al.'s (2010) table two datasets tie methods (Newthyroid, Wisconsin) and two ranges tie
    # (Adult, German), so the two forms of A differ (24479 vs 24500): mcda = R's quade.test = 11.767
    # (r_reference.csv), while the untied form gives STAC's unit-test expectation 11.752 (citiususc/stac,
    # stac/tests_unitarios.py at afb5889^, TestQuade.test_estadistico: round(F, 3) == 11.752), a peer
    # value on its own transcription of the same 96 accuracies. Neither is a printed value of the paper (not found: PROVENANCE.md).
    wide = _design("garcia2010")
    res = mcda.quade_test(wide, direction="higher_is_better")
    assert res.statistic == pytest.approx(_scalar("garcia2010", "quade_F"), rel=1e-10)
    assert round(_quade_untied_form(wide.to_numpy()), 3) == 11.752
    assert round(res.statistic, 3) != 11.752
