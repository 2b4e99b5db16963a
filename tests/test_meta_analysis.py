"""mcda.meta_analysis: random-effects meta-analysis of per-dataset differences.

Oracles: statsmodels' ``combine_effects`` (DerSimonian–Laird and the Paule–Mandel "iterated"
estimator: τ², the random-effects mean, its SE and normal interval, Q, I², the fixed-effect mean);
R's metafor (``rma``, REML, DL and PM, run live) for τ², μ̂, SE and I²; the restricted likelihood
maximised here on a grid (REML by optimisation); scipy's ``combine_pvalues`` (Stouffer, Fisher);
numpy for the per-dataset effects over seeds; and coverage simulations of the confidence and
prediction intervals.

Documented differences from statsmodels (docs/peers.md): statsmodels leaves a negative
DerSimonian–Laird τ² and a negative I² as they are (mcda truncates both at 0, as DerSimonian &
Laird and Higgins & Thompson do), and it has no prediction interval (mcda's is Higgins et al.
2009's, with t on k − 2 degrees of freedom).
"""

from __future__ import annotations

import os
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.meta_analysis import combine_effects

import mcda
from mcda.stats.meta_analysis import random_effects, tau_squared

# eight heterogeneous "datasets" (differences with their standard errors)
Y = np.array([0.031, 0.012, 0.044, -0.006, 0.020, 0.027, 0.002, 0.038])
SE = np.array([0.006, 0.004, 0.011, 0.007, 0.005, 0.009, 0.006, 0.010])
# homogeneous: Q < k − 1, so the moment estimate of τ² is negative before truncation
Y_FLAT = np.array([0.010, 0.012, 0.011, 0.009, 0.0105])
SE_FLAT = np.array([0.004, 0.005, 0.004, 0.006, 0.005])


def _frame(y, se, n_seeds=None):
    frame = pd.DataFrame({"dataset": [f"d{i}" for i in range(len(y))], "mean_diff": y, "standard_error": se})
    if n_seeds is not None:
        frame["n_seeds"] = n_seeds
    return frame


def _row(y, se, method, **kwargs):
    return mcda.meta_analysis(_frame(y, se), method=method, **kwargs).to_frame().iloc[0]


@pytest.mark.parametrize("method, method_re", [("dersimonian-laird", "dl"), ("paule-mandel", "iterated")])
def test_random_effects_equal_statsmodels_combine_effects(method, method_re):
    # statsmodels' Paule–Mandel stops when its estimating equation Q_gen − (k − 1) is within atol of 0 (on the
    # scale of k − 1 = 7); a far smaller atol makes its Newton step overshoot below the root, where it returns 0
    kwargs = {"atol": 1e-9, "maxiter": 1000} if method_re == "iterated" else {}
    ref = combine_effects(Y, SE ** 2, method_re=method_re, alpha=0.05, **kwargs)
    row = _row(Y, SE, method)
    assert row["tau2"] == pytest.approx(ref.tau2, rel=1e-8)
    assert row["mean_diff"] == pytest.approx(ref.mean_effect_re, rel=1e-9)
    assert row["standard_error"] == pytest.approx(ref.sd_eff_w_re, rel=1e-9)
    _, ci_re, _, _ = ref.conf_int(alpha=0.05, use_t=False)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(tuple(ci_re), rel=1e-9)
    assert row["q_statistic"] == pytest.approx(ref.q, rel=1e-12)
    assert row["i2"] == pytest.approx(ref.i2, rel=1e-12)
    assert row["fixed_diff"] == pytest.approx(ref.mean_effect_fe, rel=1e-12)
    assert row["p_heterogeneity"] == pytest.approx(ref.test_homogeneity().pvalue, rel=1e-10)


def test_a_homogeneous_set_truncates_tau2_and_i2_where_statsmodels_does_not():
    ref = combine_effects(Y_FLAT, SE_FLAT ** 2, method_re="dl")
    assert ref.tau2 < 0 and ref.i2 < 0  # statsmodels keeps the negative moment estimate
    row = _row(Y_FLAT, SE_FLAT, "dl")
    assert row["tau2"] == 0.0 and row["i2"] == 0.0
    # with τ² = 0 the random-effects mean is the fixed-effect mean, which statsmodels gives
    assert row["mean_diff"] == pytest.approx(ref.mean_effect_fe, rel=1e-12)
    assert row["standard_error"] == pytest.approx(ref.sd_eff_w_fe, rel=1e-12)
    assert _row(Y_FLAT, SE_FLAT, "reml")["tau2"] == 0.0 and _row(Y_FLAT, SE_FLAT, "pm")["tau2"] == 0.0


def _restricted_loglik(tau2, y, v):
    w = 1.0 / (v + tau2)
    mu = np.sum(w * y) / np.sum(w)
    return -0.5 * (np.sum(np.log(v + tau2)) + np.log(np.sum(w)) + np.sum(w * (y - mu) ** 2))


def test_reml_maximises_the_restricted_likelihood():
    v = SE ** 2
    tau2 = tau_squared(Y, v, method="reml")
    grid = np.linspace(0, 4 * tau2, 40001)
    best = grid[np.argmax([_restricted_loglik(t, Y, v) for t in grid])]
    assert tau2 == pytest.approx(best, abs=grid[1])
    # by hand at the estimate: the score −Σw + Σw²(y − μ̂)² + Σw²/Σw is 0
    w = 1.0 / (v + tau2)
    mu = np.sum(w * Y) / np.sum(w)
    assert abs(-np.sum(w) + np.sum(w ** 2 * (Y - mu) ** 2) + np.sum(w ** 2) / np.sum(w)) < 1e-6 * np.sum(w)


def test_prediction_interval_is_higgins_thompson_spiegelhalter():
    row = _row(Y, SE, "reml", confidence_level=0.9)
    half = stats.t.ppf(0.95, len(Y) - 2) * np.sqrt(row["tau2"] + row["standard_error"] ** 2)
    assert (row["prediction_low"], row["prediction_high"]) == pytest.approx(
        (row["mean_diff"] - half, row["mean_diff"] + half), rel=1e-12)
    two = mcda.meta_analysis(_frame(Y[:2], SE[:2])).to_frame().iloc[0]
    assert np.isnan(two["prediction_low"]) and "at least 3" in two["reason"]


def test_stouffer_and_fisher_equal_scipy_combine_pvalues():
    row = _row(Y, SE, "reml")
    z = Y / SE
    one_sided = stats.norm.sf(z)
    stouffer = stats.combine_pvalues(one_sided, method="stouffer")
    assert row["z_stouffer"] == pytest.approx(stouffer.statistic, rel=1e-10)
    assert row["p_stouffer"] == pytest.approx(2 * min(stouffer.pvalue, 1 - stouffer.pvalue), rel=1e-8)
    fisher = stats.combine_pvalues(2 * stats.norm.sf(np.abs(z)), method="fisher")
    assert row["p_fisher"] == pytest.approx(fisher.pvalue, rel=1e-10)
    # with n_seeds the per-dataset p-values are t tests on n − 1 df
    frame = mcda.meta_analysis(_frame(Y, SE, n_seeds=5)).per_dataset
    np.testing.assert_allclose(frame["p_raw"], 2 * stats.t.sf(np.abs(z), 4), rtol=1e-12)


def test_seeds_give_numpys_mean_difference_and_standard_error():
    cube = mcda.datasets.synthetic(n_datasets=6, n_methods=3, n_seeds=7, effects=[0, 0.01, 0.02], rng=4)
    res = mcda.meta_analysis(cube)
    per = res.per_dataset
    assert len(per) == 18 and res.method == "reml"
    for row in per.sample(6, random_state=1).itertuples(index=False):
        d = (cube.mcda.sel(dataset=row.dataset, method=row.method_a).values
             - cube.mcda.sel(dataset=row.dataset, method=row.method_b).values)
        assert row.mean_diff == pytest.approx(d.mean(), rel=1e-9)
        assert row.standard_error == pytest.approx(stats.sem(d), rel=1e-9)
        assert row.p_raw == pytest.approx(stats.ttest_1samp(d, 0.0).pvalue, rel=1e-8)
    # the pooled row is the meta-analysis of those effects, as a table would give it
    first = per[(per.method_a == "method_0") & (per.method_b == "method_1")]
    again = mcda.meta_analysis(first[["dataset", "mean_diff", "standard_error"]]).to_frame().iloc[0]
    assert res.to_frame().iloc[0]["mean_diff"] == pytest.approx(again["mean_diff"], rel=1e-12)
    np.testing.assert_allclose(per.groupby(["method_a", "method_b"])["weight"].sum(), 1.0, rtol=1e-12)


def test_unpaired_seeds_give_scipys_welch_standard_error_and_p_value():
    # seeds that are not paired runs: each method's own seeds (different labels, one lost) as two samples;
    # the reference is scipy's ttest_ind(equal_var=False) on the two samples
    cube = mcda.datasets.synthetic(n_datasets=5, n_methods=3, n_seeds=7, effects=[0, 0.01, 0.02], rng=9)
    cube = cube.where(~((cube["method"] == "method_2") & (cube["seed"] == cube["seed"][3])))
    res = mcda.meta_analysis(cube, paired=False)
    per = res.per_dataset
    assert len(per) == 15 and any("Welch" in note for note in res.notes)
    for row in per.itertuples(index=False):
        a = cube.mcda.sel(dataset=row.dataset, method=row.method_a).values
        b = cube.mcda.sel(dataset=row.dataset, method=row.method_b).values
        a, b = a[~np.isnan(a)], b[~np.isnan(b)]
        welch = stats.ttest_ind(a, b, equal_var=False)
        assert row.mean_diff == pytest.approx(a.mean() - b.mean(), rel=1e-9)
        assert row.standard_error == pytest.approx(np.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size), rel=1e-9)
        assert row.p_raw == pytest.approx(welch.pvalue, rel=1e-8)
    with pytest.raises(mcda.McdaArgumentError, match="`paired`"):
        mcda.meta_analysis(cube, paired="no")


def test_control_orients_every_pair_control_first():
    cube = mcda.datasets.synthetic(n_datasets=5, n_methods=3, n_seeds=6, effects=[0, 0.01, 0.02], rng=8)
    full = mcda.meta_analysis(cube).to_frame().set_index(["method_a", "method_b"])
    ctrl = mcda.meta_analysis(cube, control="method_2").to_frame().set_index(["method_a", "method_b"])
    assert list(ctrl.index) == [("method_2", "method_0"), ("method_2", "method_1")]
    assert ctrl.loc[("method_2", "method_0"), "mean_diff"] == pytest.approx(
        -full.loc[("method_0", "method_2"), "mean_diff"], rel=1e-12)
    assert ctrl.loc[("method_2", "method_0"), "z_stouffer"] == pytest.approx(
        -full.loc[("method_0", "method_2"), "z_stouffer"], rel=1e-9)


def _simulate(method, k, reps, rng, tau=0.02, se=0.01):
    cover_mu = cover_new = 0
    for _ in range(reps):
        true = rng.normal(0.0, tau, size=k)
        sei = se * rng.uniform(0.5, 1.5, size=k)
        y = true + rng.normal(0.0, sei)
        row = random_effects(y, sei, method=method)  # the per-pair computation of mcda.meta_analysis
        new = rng.normal(0.0, tau)
        cover_mu += row["ci_low"] <= 0.0 <= row["ci_high"]
        cover_new += row["prediction_low"] <= new <= row["prediction_high"]
    return cover_mu / reps, cover_new / reps


@pytest.mark.parametrize("method", ["reml", "dl"])
def test_the_intervals_cover_at_about_their_level(method):
    rng = np.random.default_rng(12)
    mu, new = _simulate(method, 20, 1000, rng)
    # with k = 20 and τ larger than the SEs, the normal interval of μ runs a little under 95 %
    # (τ² is estimated) and the t_{k−2} prediction interval near 95 %
    assert 0.88 <= mu <= 0.99, mu
    assert 0.90 <= new <= 0.99, new


def _rscript() -> str | None:
    path = shutil.which("Rscript")
    if path is None and os.environ.get("CI"):
        pytest.fail("Rscript is not installed; .ci/run installs Debian's r-base-core and r-cran-metafor")
    return path


def test_random_effects_equal_metafor_rma():
    rscript = _rscript()
    if rscript is None:
        pytest.skip("no R installation (CI installs it)")
    code = (f"suppressMessages(library(metafor)); y <- c({', '.join(map(repr, Y.tolist()))}); "
            f"v <- c({', '.join(map(repr, (SE ** 2).tolist()))}); "
            "for (m in c('REML', 'DL', 'PM')) { r <- rma(yi = y, vi = v, method = m, control = list(tol = 1e-12, "
            "threshold = 1e-12, maxiter = 1000)); cat(m, sprintf('%.17g', c(r$tau2, r$b, r$se, r$I2 / 100)), '\\n') }")
    done = subprocess.run([rscript, "-e", code], capture_output=True, text=True, timeout=120)
    if "no package called" in done.stderr and not os.environ.get("CI"):
        pytest.skip("R's metafor is not installed (CI installs Debian's r-cran-metafor)")
    assert done.returncode == 0, done.stderr
    for line in done.stdout.strip().splitlines():
        name, *numbers = line.split()
        tau2, mu, se, i2 = map(float, numbers)
        row = _row(Y, SE, {"REML": "reml", "DL": "dl", "PM": "pm"}[name])
        assert row["tau2"] == pytest.approx(tau2, rel=1e-6), name
        assert row["mean_diff"] == pytest.approx(mu, rel=1e-7), name
        assert row["standard_error"] == pytest.approx(se, rel=1e-7), name
        if name == "DL":  # metafor's I² is τ²/(τ² + s²): Higgins & Thompson's (Q − df)/Q for the DL τ² only
            assert row["i2"] == pytest.approx(i2, rel=1e-9)


@pytest.mark.parametrize("kwargs, argument", [({"method": "hunter-schmidt"}, "method"),
                                              ({"confidence_level": 95}, "confidence_level")])
def test_bad_arguments_name_themselves(kwargs, argument):
    with pytest.raises(mcda.McdaArgumentError) as raised:
        mcda.meta_analysis(_frame(Y, SE), **kwargs)
    assert raised.value.argument == argument


def test_bad_tables_and_cubes_without_seeds_are_refused():
    with pytest.raises(mcda.McdaArgumentError, match="lacks"):
        mcda.meta_analysis(_frame(Y, SE).drop(columns="dataset"))
    with pytest.raises(mcda.McdaArgumentError, match="> 0"):
        mcda.meta_analysis(_frame(Y, np.where(SE > 0.01, 0.0, SE)))
    with pytest.raises(mcda.McdaArgumentError, match="seed"):
        mcda.meta_analysis(mcda.datasets.load("demsar2006"))


def test_the_forest_plot_draws_the_results_columns_on_pages():
    import matplotlib

    matplotlib.use("Agg")
    from mcda.plots import plot_meta_forest
    from mcda.present.plots.meta_forest import meta_forest_pages

    assert [len(range(200)[p]) for p in meta_forest_pages(200)["pages"]] == [50, 50, 50, 50]
    assert len(meta_forest_pages(8)["pages"]) == 1
    cube = mcda.datasets.synthetic(n_datasets=60, n_methods=3, n_seeds=5, effects=[0, 0.01, 0.02], rng=6)
    res = mcda.meta_analysis(cube)
    fig, ax = plot_meta_forest(res, ("method_2", "method_0"), page=2)
    row = res.to_frame().iloc[1]  # (method_0, method_2): either order names the pair
    per = res.per_dataset[(res.per_dataset.method_a == "method_0") & (res.per_dataset.method_b == "method_2")]
    page = per.iloc[meta_forest_pages(60)["pages"][1]]
    effects = next(c for c in ax.collections if c.get_gid() == "dataset_effect").get_offsets()[:, 0]
    np.testing.assert_allclose(effects, page["mean_diff"], rtol=1e-12)
    diamond = next(p for p in ax.patches if p.get_gid() == "pooled").get_xy()[:, 0]
    assert diamond.min() == pytest.approx(row["ci_low"]) and diamond.max() == pytest.approx(row["ci_high"])
    bar = next(c for c in ax.collections if c.get_gid() == "prediction").get_segments()[0][:, 0]
    assert tuple(bar) == pytest.approx((row["prediction_low"], row["prediction_high"]))
    assert "page 2 of 2" in ax.get_title(loc="left")
    with pytest.raises(mcda.McdaArgumentError):
        plot_meta_forest(res, ("method_0", "nope"))


def test_folds_get_the_nadeau_bengio_corrected_standard_error():
    # 3 runs of 5-fold cross-validation (attrs["cv_runs"]): var(mean) = s²(1/n + ρ/(1 − ρ)), ρ = 1/5
    cube = mcda.datasets.synthetic(n_datasets=4, n_methods=2, n_seeds=15, effects=[0, 0.01], rng=2)
    cube.attrs["cv_runs"] = 3
    res = mcda.meta_analysis(cube)
    assert any("corrected" in n for n in res.notes)
    for row in res.per_dataset.itertuples(index=False):
        d = (cube.mcda.sel(dataset=row.dataset, method=row.method_a).values
             - cube.mcda.sel(dataset=row.dataset, method=row.method_b).values)
        se = d.std(ddof=1) * np.sqrt(1 / 15 + 0.2 / 0.8)
        assert row.standard_error == pytest.approx(se, rel=1e-9)
        assert row.p_raw == pytest.approx(2 * stats.t.sf(abs(d.mean() / se), 14), rel=1e-8)
