"""The hierarchical model (Corani et al. 2017): baycomp's published figure, NumPyro's NUTS on the
same model, recovery and calibration on data generated from the model, the convergence gate,
the diagnostics against ArviZ, and the input checks."""

from __future__ import annotations

import gzip
from importlib import resources

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import mcda
from mcda import hierarchical_comparison, score_cube
from mcda._core import mcmc as _mcmc


def _fold_frame() -> pd.DataFrame:
    # the package copy of the Benavoli et al. (2017) fold data (provenance: mcda/datasets/data/PROVENANCE.md)
    path = resources.files("mcda.datasets").joinpath("data", "benavoli2017_uci54_folds.csv.gz")
    with path.open("rb") as fh:
        return pd.read_csv(gzip.open(fh))


def _baycomp_matrix(frame, method, n_scores):
    """The rows of baycomp's docs/code/accuracies.txt: percent at 3 decimals, run-major folds, and the
    7th data set an exact copy of the 6th (baycomp's file repeats "credit"; see PROVENANCE.md)."""
    rows = frame[frame["method"] == method].sort_values(["dataset_id", "run", "fold"])
    values = rows["score_pct_3dp"].to_numpy().reshape(54, 100).copy()
    values[6] = values[5]
    return values[:, :n_scores]


def test_reproduces_baycomp_documented_hierarchical_figure():
    # baycomp docs (docs/functions.rst, "Multiple data sets"): two_on_multiple(nbc, j48, rope=1) on
    # "54x10 matrices containing 10 scores for each of 54 data sets" (accuracies in percent; runs
    # left at its default 1, so rho = 1/10) gives (0.0795, 0.0365, 0.884). Those are Monte Carlo
    # estimates from PyStan 2's defaults (4 chains x 1000 kept draws: an sd of about 0.006 / 0.004 /
    # 0.007 for the three, more with NUTS autocorrelation); mcda's own sd at 40,000 draws is about
    # 0.003. Tolerance 0.02: about 2.5 combined sd for the largest, more for the others.
    frame = _fold_frame()
    nbc, j48 = _baycomp_matrix(frame, "nbc", 10), _baycomp_matrix(frame, "j48", 10)
    cube = score_cube(np.stack([nbc, j48], axis=1), direction="higher_is_better", method_names=["nbc", "j48"])
    result = hierarchical_comparison(cube, rope=1.0, runs=1, rng=2017)
    row = result.to_frame().iloc[0]
    assert row["reason"] == ""
    got = [row["prob_a_better"], row["prob_equivalent"], row["prob_b_better"]]
    np.testing.assert_allclose(got, [0.0795, 0.0365, 0.884], atol=0.02)
    # the other design (10 runs of 10 folds on all 100 scores) is a different posterior: not the figure
    full = score_cube(np.stack([_baycomp_matrix(frame, "nbc", 100), _baycomp_matrix(frame, "j48", 100)], axis=1),
                      direction="higher_is_better", method_names=["nbc", "j48"])
    other = hierarchical_comparison(full, rope=1.0, runs=10, rng=1, n_samples=2000).to_frame().iloc[0]
    assert abs(other["prob_b_better"] - 0.884) > 0.05


def _simulate(rng, q, n, rho, delta0, sd0, nu, sigma):
    """Fold differences b - a from the model: delta_i ~ t_nu(delta0, sd0), x_i ~ MVN(delta_i, sigma^2 M)."""
    delta = delta0 + sd0 * rng.standard_t(nu, q)
    cov = (1 - rho) * np.eye(n) + rho * np.ones((n, n))
    noise = rng.standard_normal((q, n)) @ np.linalg.cholesky(cov).T
    return delta, delta[:, None] + sigma * noise


def _pair_cube(diff):
    base = np.full_like(diff, 0.7)
    return score_cube(np.stack([base, base + diff], axis=1), direction="higher_is_better",
                      method_names=["a", "b"])


def _standardised(diff, rope):
    """baycomp's standardisation (HierarchicalTest.sample): divide by the mean of the per-dataset sds."""
    scale = diff.std(axis=1).mean()
    return diff / scale, rope / scale, scale


def test_agrees_with_numpyro_nuts_on_the_same_model():
    numpyro = pytest.importorskip("numpyro")
    import jax
    import jax.numpy as jnp
    import numpyro.distributions as dist
    from numpyro.infer import MCMC, NUTS

    jax.config.update("jax_enable_x64", True)
    rng = np.random.default_rng(11)
    q, n, rho, rope = 6, 10, 0.1, 0.01
    _, diff = _simulate(rng, q, n, rho, delta0=0.01, sd0=0.02, nu=5.0, sigma=0.03)
    z, rope_z, scale = _standardised(diff, rope)
    within, among, bound = z.std(axis=1).mean(), z.mean(axis=1).std(), np.abs(z).max()
    cov = (1 - rho) * np.eye(n) + rho * np.ones((n, n))
    inv_cov, (_, log_det) = jnp.asarray(np.linalg.inv(cov)), np.linalg.slogdet(cov)
    data = jnp.asarray(z)

    def model():  # baycomp's hierarchical-t-test.stan, written out in NumPyro with the full MVN likelihood
        delta0 = numpyro.sample("delta0", dist.Uniform(-bound, bound))
        std0 = numpyro.sample("std0", dist.Uniform(0.0, 1000.0 * among))
        sigma = numpyro.sample("sigma", dist.Uniform(0.0, 1000.0 * within).expand([q]))
        alpha = numpyro.sample("alpha", dist.Uniform(1.0, 2.0))
        beta = numpyro.sample("beta", dist.Uniform(0.01, 0.1))
        nu_minus_one = numpyro.sample("nu_minus_one", dist.Gamma(alpha, beta))
        # delta_i ~ t(nu, delta0, std0), written non-centred (the same distribution; NUTS's trees stay short)
        eta = numpyro.sample("eta", dist.StudentT(nu_minus_one + 1.0, 0.0, 1.0).expand([q]))
        delta = numpyro.deterministic("delta", delta0 + std0 * eta)
        resid = data - delta[:, None]
        quad = jnp.einsum("ij,jk,ik->i", resid, inv_cov, resid)
        numpyro.factor("folds", jnp.sum(-n * jnp.log(sigma) - 0.5 * log_det - 0.5 * quad / sigma ** 2))

    # one chain: JAX's compilation dominates the run time, and a second chain would compile again
    mcmc = MCMC(NUTS(model, target_accept_prob=0.9), num_warmup=500, num_samples=4000, num_chains=1,
                progress_bar=False)
    mcmc.run(jax.random.PRNGKey(0))
    draws = mcmc.get_samples(group_by_chain=True)
    mu, sd0 = np.asarray(draws["delta0"]), np.asarray(draws["std0"])
    nu = np.asarray(draws["nu_minus_one"]) + 1.0
    left, right = stats.t.cdf(-rope_z, nu, mu, sd0), stats.t.sf(rope_z, nu, mu, sd0)
    ref_mean_b = right.mean()
    ref_p_b = np.mean(np.argmax(np.stack([left, 1 - left - right, right], -1), axis=-1) == 2)

    result = hierarchical_comparison(_pair_cube(diff), rope=rope, rho=rho, rng=5)
    row = result.to_frame().iloc[0]
    # Monte Carlo tolerance: 4 combined standard errors from each run's effective sample size
    ess_ref = min(_mcmc.ess_bulk(mu), _mcmc.ess_bulk(right))
    ess_own = float(result.diagnostics.query("quantity == 'share_b_better'")["ess_bulk"].iloc[0])
    se = lambda sd, ess: sd / np.sqrt(ess)  # noqa: E731
    pop_ref = -mu.reshape(-1) * scale  # a - b in score units
    tol_pop = 4 * np.hypot(se(pop_ref.std(), ess_ref), se(pop_ref.std(), ess_own))
    assert abs(row["population_diff"] - pop_ref.mean()) < tol_pop
    tol_share = 4 * np.hypot(se(right.std(), ess_ref), se(right.std(), ess_own))
    assert abs(row["mean_b_better"] - ref_mean_b) < tol_share
    tol_p = 4 * np.hypot(np.sqrt(ref_p_b * (1 - ref_p_b) / ess_ref), np.sqrt(ref_p_b * (1 - ref_p_b) / ess_own))
    assert abs(row["prob_b_better"] - ref_p_b) < max(tol_p, 0.02)
    # the per-dataset shrunk differences
    delta_ref = -np.asarray(draws["delta"]).reshape(-1, q).mean(axis=0) * scale
    shrunk = result.shrinkage["shrunk_diff"].to_numpy()
    np.testing.assert_allclose(shrunk, delta_ref, atol=4 * np.hypot(se(0.01, ess_ref), se(0.01, ess_own)) + 1e-4)


def test_recovers_a_known_population_difference():
    rng = np.random.default_rng(3)
    delta0 = 0.02
    _, diff = _simulate(rng, 40, 10, 0.1, delta0=delta0, sd0=0.01, nu=30.0, sigma=0.02)
    result = hierarchical_comparison(_pair_cube(diff), rope=0.005, runs=1, rng=0, n_samples=3000)
    row = result.to_frame().iloc[0]
    # a - b = -delta0 in score units; the 95% interval covers it and the mean is within 3 posterior sd
    assert row["population_ci_low"] < -delta0 < row["population_ci_high"]
    sd = (row["population_ci_high"] - row["population_ci_low"]) / (2 * 1.96)
    assert abs(row["population_diff"] + delta0) < 3 * sd
    assert row["label"] == "b_better"
    # shrinkage pulls every dataset's estimate towards the population (never past it)
    shrink = result.shrinkage
    pulled = (shrink["shrunk_diff"] - row["population_diff"]).abs()
    assert (pulled <= (shrink["mean_diff"] - row["population_diff"]).abs() + 1e-3).mean() > 0.9


def test_predictive_probability_is_calibrated_on_data_from_the_model():
    # Fit on q datasets generated from the model; the next dataset's delta is drawn too. The
    # posterior predictive P(next delta > rope) (mean_b_better) must be calibrated: Spiegelhalter's
    # z and the calibration-in-the-large z both within +-3 over the simulations.
    rng = np.random.default_rng(20)
    rope, n_sims = 0.005, 60
    predicted, observed = [], []
    for _ in range(n_sims):
        delta0, sd0 = rng.normal(0, 0.01), rng.uniform(0.002, 0.015)
        nu = 1.0 + rng.gamma(1.5, 1 / 0.05)
        delta, diff = _simulate(rng, 9, 10, 0.1, delta0=delta0, sd0=sd0, nu=nu, sigma=0.01)
        result = hierarchical_comparison(_pair_cube(diff[:-1]), rope=rope, runs=1, rng=rng, n_samples=1500,
                                         n_warmup=300, keep_draws=False)
        predicted.append(result.to_frame().iloc[0]["mean_b_better"])
        observed.append(float(delta[-1] > rope))
    p, o = np.asarray(predicted), np.asarray(observed)
    z_large = (o - p).sum() / np.sqrt((p * (1 - p)).sum())
    z_spiegel = ((o - p) * (1 - 2 * p)).sum() / np.sqrt(((1 - 2 * p) ** 2 * p * (1 - p)).sum())
    assert abs(z_large) < 3 and abs(z_spiegel) < 3
    # and it carries information: a better Brier score than the base rate
    assert np.mean((o - p) ** 2) < np.mean((o - o.mean()) ** 2)


def test_refuses_to_label_unconverged_chains():
    rng = np.random.default_rng(1)
    _, diff = _simulate(rng, 8, 10, 0.1, delta0=0.01, sd0=0.01, nu=5.0, sigma=0.02)
    result = hierarchical_comparison(_pair_cube(diff), rope=0.005, runs=1, rng=0, n_samples=50, n_warmup=0)
    row = result.to_frame().iloc[0]
    assert np.isnan(row["prob_a_better"]) and row["label"] == "not_applicable"
    assert "not converged" in row["reason"] and "ESS" in row["reason"]
    assert row["min_ess"] < _mcmc.ESS_FLOOR


def test_deterministic_given_rng_and_fold_order_free():
    rng = np.random.default_rng(4)
    _, diff = _simulate(rng, 6, 10, 0.1, delta0=0.0, sd0=0.01, nu=5.0, sigma=0.02)
    first = hierarchical_comparison(_pair_cube(diff), rope=0.005, runs=1, rng=9, n_samples=500)
    again = hierarchical_comparison(_pair_cube(diff), rope=0.005, runs=1, rng=9, n_samples=500)
    pd.testing.assert_frame_equal(first.to_frame(), again.to_frame())
    shuffled = hierarchical_comparison(_pair_cube(diff[:, ::-1]), rope=0.005, runs=1, rng=9, n_samples=500)
    pd.testing.assert_frame_equal(first.to_frame(), shuffled.to_frame())


def test_lower_is_better_and_swapped_methods():
    rng = np.random.default_rng(6)
    _, diff = _simulate(rng, 6, 10, 0.1, delta0=0.01, sd0=0.01, nu=5.0, sigma=0.02)
    base = np.full_like(diff, 0.5)
    up = score_cube(np.stack([base, base + diff], axis=1), direction="higher_is_better", method_names=["a", "b"])
    down = score_cube(np.stack([-base, -(base + diff)], axis=1), direction="lower_is_better",
                      method_names=["a", "b"])
    r_up = hierarchical_comparison(up, rope=0.005, runs=1, rng=3, n_samples=500).to_frame()
    r_down = hierarchical_comparison(down, rope=0.005, runs=1, rng=3, n_samples=500).to_frame()
    np.testing.assert_allclose(r_up[["prob_a_better", "prob_equivalent", "prob_b_better"]].to_numpy(),
                               r_down[["prob_a_better", "prob_equivalent", "prob_b_better"]].to_numpy())
    np.testing.assert_allclose(r_up["population_diff"], -r_down["population_diff"])


def test_missing_folds_leave_the_dataset_out_with_a_note():
    rng = np.random.default_rng(8)
    _, diff = _simulate(rng, 5, 10, 0.1, delta0=0.0, sd0=0.01, nu=5.0, sigma=0.02)
    base = np.full_like(diff, 0.5)
    values = np.stack([base, base + diff], axis=1)
    values[2, 1, 4] = np.nan
    cube = score_cube(values, direction="higher_is_better", method_names=["a", "b"])
    result = hierarchical_comparison(cube, rope=0.005, runs=1, rng=0, n_samples=500)
    assert result.to_frame().iloc[0]["n_datasets"] == 4
    note = result.shrinkage.set_index("dataset").loc["dataset_2", "note"]
    assert "1 of 10 fold scores missing" in note


def test_constant_differences_follow_baycomp_and_refuse_rope_zero():
    rng = np.random.default_rng(2)
    _, diff = _simulate(rng, 5, 10, 0.1, delta0=0.0, sd0=0.01, nu=5.0, sigma=0.02)
    diff[0] = 0.0
    result = hierarchical_comparison(_pair_cube(diff), rope=0.005, runs=1, rng=0, n_samples=500)
    assert "baycomp" in result.shrinkage.iloc[0]["note"]
    zero = hierarchical_comparison(_pair_cube(diff), rope=0.0, runs=1, rng=0, n_samples=500).to_frame().iloc[0]
    assert np.isnan(zero["prob_b_better"]) and "rope = 0" in zero["reason"]


def test_design_from_the_bundled_folds_and_errors():
    folds = mcda.datasets.load("benavoli2017_uci54_folds")
    assert folds.attrs["cv_runs"] == 10 and folds.sizes["seed"] == 100
    means = mcda.datasets.load("benavoli2017_uci54")
    np.testing.assert_allclose(folds.mean("seed").sel(dataset=means["dataset"]).values, means.values, atol=1e-12)
    small = folds.isel(dataset=slice(0, 6)).sel({"method": ["nbc", "aode"]})
    result = hierarchical_comparison(small, rng=0, n_samples=500)
    assert result.rho == pytest.approx(0.1) and result.runs == 10 and result.rope == 0.01
    with pytest.raises(ValueError, match="`runs` or `rho`"):
        hierarchical_comparison(small, runs=10, rho=0.1)
    with pytest.raises(ValueError, match="`runs` must divide"):
        hierarchical_comparison(small, runs=7)
    bare = small.drop_vars(["run", "fold"]).copy()
    bare.attrs = {key: value for key, value in bare.attrs.items() if key != "cv_runs"}
    with pytest.raises(ValueError, match="pass `runs=`"):
        hierarchical_comparison(bare)
    # the run / fold coordinates alone say the design, as they do for the tests over folds (mcda.paired_tests)
    by_coordinates = small.copy()
    by_coordinates.attrs = {key: value for key, value in small.attrs.items() if key != "cv_runs"}
    read = hierarchical_comparison(by_coordinates, rng=0, n_samples=500)
    assert read.runs == 10 and read.rho == pytest.approx(0.1)
    pd.testing.assert_frame_equal(read.to_frame(), result.to_frame())
    with pytest.raises(ValueError, match="'seed' dim"):
        hierarchical_comparison(means)
    with pytest.raises(ValueError, match="`rho`"):
        hierarchical_comparison(small, rho=1.5)


@pytest.mark.parametrize("shift", [0.0, 0.3])
def test_diagnostics_agree_with_arviz(shift):
    az = pytest.importorskip("arviz")
    rng = np.random.default_rng(0)
    chains = np.zeros((4, 801))
    for t in range(1, chains.shape[1]):
        chains[:, t] = 0.8 * chains[:, t - 1] + rng.standard_normal(4)
    chains[1] += shift
    assert _mcmc.split_rhat(chains) == pytest.approx(float(az.rhat(chains, method="rank")), rel=1e-10)
    assert _mcmc.ess_bulk(chains) == pytest.approx(float(az.ess(chains, method="bulk")), rel=1e-8)
    assert _mcmc.ess_tail(chains) == pytest.approx(float(az.ess(chains, method="tail")), rel=1e-8)


def test_report_and_cli_show_the_models(tmp_path):
    import io

    from mcda.app.cli import main

    folds = mcda.datasets.load("benavoli2017_uci54_folds").isel(dataset=slice(0, 6), seed=slice(0, 10))
    folds = folds.sel({"method": ["nbc", "aode", "hnb"]})
    tidy = folds.to_dataframe(name="score").reset_index()[["dataset", "method", "seed", "score"]]
    path = tmp_path / "folds.csv"
    tidy.to_csv(path, index=False)
    out = io.StringIO()
    code = main(["compare", str(path), "--metric", "accuracy", "--cv-runs", "1", "--no-figures", "--rng", "1",
                 "--out", str(tmp_path / "out")], stdout=out, stderr=io.StringIO())
    text = out.getvalue()
    assert code == 0
    assert "== Hierarchical model on the cross-validation folds" in text and "rho 0.1 (1 run(s)" in text
    assert "== Bayesian Plackett-Luce ranking" in text
    out = io.StringIO()
    main(["compare", str(path), "--metric", "accuracy", "--no-figures", "--out", str(tmp_path / "o2")],
         stdout=out, stderr=io.StringIO())
    assert "Hierarchical model" not in out.getvalue()  # seeds are not folds unless the design is given
    report = mcda.Report(folds.assign_attrs(cv_runs=1), rng=0)
    direct = hierarchical_comparison(folds, runs=1, rng=np.random.default_rng(0), n_samples=1000)
    via = report.hierarchical(n_samples=1000)
    pd.testing.assert_frame_equal(via.to_frame(), direct.to_frame())
