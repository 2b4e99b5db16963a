"""recommend_procedure and the repeated-measures ANOVA: autorank and statsmodels run in the tests."""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import mcda
from mcda.stats.assumptions import repeated_measures_anova

autorank = pytest.importorskip("autorank")
anova_module = pytest.importorskip("statsmodels.stats.anova")
multitest = pytest.importorskip("statsmodels.stats.multitest")


def _design(seed, n=20, k=4, *, heavy=False, spread=(1.0,)):
    rng = np.random.default_rng(seed)
    noise = rng.standard_t(2, size=(n, k)) if heavy else rng.normal(size=(n, k))
    values = 10 + rng.normal(size=(n, 1)) + noise * np.resize(np.asarray(spread), k) + np.linspace(0, 1, k)
    return pd.DataFrame(values, index=[f"d{i}" for i in range(n)], columns=[f"m{j}" for j in range(k)])


@pytest.mark.parametrize("seed,n,k", [(0, 12, 3), (1, 25, 5), (2, 40, 6)])
def test_repeated_measures_anova_equals_statsmodels(seed, n, k):
    wide = _design(seed, n, k)
    res = repeated_measures_anova(wide, direction="higher_is_better")
    long = wide.rename_axis("dataset").reset_index().melt(id_vars="dataset", var_name="method", value_name="score")
    table = anova_module.AnovaRM(long, "score", "dataset", within=["method"]).fit().anova_table  # statsmodels
    assert res.statistic == pytest.approx(float(table["F Value"].iloc[0]), rel=1e-10)
    assert res.pvalue == pytest.approx(float(table["Pr > F"].iloc[0]), rel=1e-8)
    assert res.df == (int(table["Num DF"].iloc[0]), int(table["Den DF"].iloc[0]))
    assert 1 / (k - 1) - 1e-12 <= res.epsilon <= 1.0
    assert res.pvalue_corrected >= res.pvalue - 1e-15  # the correction only lowers the df


def test_epsilon_is_one_with_two_methods():
    res = repeated_measures_anova(_design(3, 15, 2), direction="higher_is_better")
    assert res.epsilon == pytest.approx(1.0)


DESIGNS = [dict(seed=4), dict(seed=5, heavy=True), dict(seed=6, spread=(0.2, 1.0, 3.0, 6.0)),
           dict(seed=7, k=2), dict(seed=8, k=2, heavy=True), dict(seed=9, n=30, k=5)]


@pytest.mark.parametrize("design", DESIGNS, ids=[str(d) for d in DESIGNS])
def test_checks_and_choice_equal_autorank(design):
    wide = _design(**design)
    rec = mcda.recommend_procedure(wide, direction="higher_is_better")
    with contextlib.redirect_stdout(io.StringIO()):  # autorank prints its table
        ranked = autorank.autorank(wide.reset_index(drop=True), alpha=0.05, verbose=False, order="descending")
    assert rec.all_normal == ranked.all_normal
    assert rec.alpha_normality == pytest.approx(ranked.alpha_normality)
    # autorank reorders its Shapiro p-values by rank; compare as sets of numbers
    np.testing.assert_allclose(np.sort(rec.normality["p_raw"].to_numpy()), np.sort(ranked.pvals_shapiro), rtol=1e-12)
    assert rec.homoscedasticity_test == ranked.homogeneity_test
    assert rec.homoscedasticity_pvalue == pytest.approx(ranked.pval_homogeneity, rel=1e-12)
    expected = {"anova": "repeated-measures-anova", "friedman": "friedman", "ttest": "paired-t",
                "wilcoxon": "wilcoxon"}[ranked.omnibus]
    assert rec.recommendation == expected


def test_parametric_posthoc_is_paired_t_with_holm():
    wide = _design(10, 30, 4)
    rec = mcda.recommend_procedure(wide, direction="higher_is_better")
    assert rec.recommendation == "repeated-measures-anova"
    frame = rec.posthoc
    raw = [stats.ttest_rel(wide[a], wide[b]).pvalue for a, b in zip(frame["method_a"], frame["method_b"])]  # scipy
    np.testing.assert_allclose(frame["p_raw"].to_numpy(), raw, rtol=1e-12)
    np.testing.assert_allclose(frame["p_adjusted"].to_numpy(), multitest.multipletests(raw, method="holm")[1],
                               rtol=1e-12)
    assert "Tukey HSD on independent samples" in rec.autorank_choice


def test_lower_is_better_keeps_mean_diff_in_the_metric_units():
    wide = _design(11, 30, 3)
    up = mcda.recommend_procedure(wide, direction="higher_is_better")
    down = mcda.recommend_procedure(wide, direction="lower_is_better")
    assert up.recommendation == down.recommendation == "repeated-measures-anova"
    pd.testing.assert_frame_equal(up.posthoc, down.posthoc)  # a − b in the metric's own units either way
    assert up.anova.statistic == pytest.approx(down.anova.statistic, rel=1e-12)


def test_nothing_is_switched_and_bad_input_is_named():
    wide = _design(12, 8, 4, heavy=True)
    rec = mcda.recommend_procedure(wide, direction="higher_is_better")
    assert "nothing was switched" in rec.summary()
    assert any("little power" in note for note in rec.notes)
    with pytest.raises(ValueError, match="`alpha`"):
        mcda.recommend_procedure(wide, direction="higher_is_better", alpha=0)
    with pytest.raises(ValueError, match="3 datasets"):
        mcda.recommend_procedure(wide.iloc[:2], direction="higher_is_better")
