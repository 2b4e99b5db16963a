"""Confidence sets for ranks against the authors' R package csranks, run live, and a coverage simulation.

The oracle is csranks' own R code (github danielwilhelm/R-CS-ranks, sourced from
tests/oracles/csranks/, see its PROVENANCE.md; MASS from Debian's r-cran-mass) run by
tests/oracles/run_csranks.R on the same estimates and covariance: csranks' simulated example,
the paper's PISA 2018 mathematics example (36 OECD countries), a correlated design, and the mean
ranks of Demšar 2006 and mean accuracies of Benavoli et al. 2017 with their covariance computed in
this file by scipy / numpy.

Both sides draw their own parametric bootstrap (R's mvrnorm, numpy's generator), so their critical
values differ by Monte Carlo error and a pair whose |t| lies within it of the critical value may be
decided differently (Demšar's C4.5+m against C4.5+cf is one; PISA's 1,260 pairs hold several). The
sets shrink as the critical value falls, so the test asks csranks' sets to lie between ours at the
levels 0.95 ∓ 0.015 (about 5 standard errors of the difference of two 10,000-draw bootstraps'
attained levels, √2 · √(0.95 · 0.05 / 10000) = 0.0031), most of them exactly (the same set at both
levels); the single-step critical value itself is compared to 4 % (its Monte Carlo error at 10,000
draws, measured over seeds on both sides, is about 1 %).

R is installed by .ci/run (Debian r-base-core and r-cran-mass); under CI a missing Rscript fails the
module instead of skipping it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import mcda

HERE = Path(__file__).parent
SCRIPT = HERE / "oracles" / "run_csranks.R"
CSRANKS = HERE / "oracles" / "csranks"  # GPL-3, in the repository only: the sdist leaves it out (PROVENANCE.md)
PISA = HERE / "data" / "csranks_pisa2018" / "pisa2018.csv"
DRAWS = 10_000


def _simulated():
    """csranks' documented example: 10 populations (1..10)/10 apart, n = 100 unit-variance observations each."""
    rng = np.random.default_rng(20240101)
    x = np.arange(1, 11) / 10 + rng.standard_normal((100, 10))
    return x.mean(axis=0), np.cov(x, rowvar=False) / 100


def _correlated():
    rng = np.random.default_rng(7)
    root = rng.standard_normal((6, 6))
    return np.array([0.0, 0.2, 0.5, 0.6, 1.2, 1.3]), (root @ root.T + np.eye(6)) / 40


def _pisa():
    table = pd.read_csv(PISA)
    return table["math_score"].to_numpy(float), np.diag(table["math_se"].to_numpy(float) ** 2)


def _moments(cube, ranks: bool):
    """Mean (rank 1 = best via scipy's rankdata) and covariance of the means, from the datasets' rows."""
    values = mcda.orient(cube).values
    rows = stats.rankdata(-values, axis=1) if ranks else values
    return rows.mean(axis=0), np.cov(rows, rowvar=False) / rows.shape[0]


DEMSAR = mcda.datasets.load("demsar2006")
BENAVOLI = mcda.datasets.load("benavoli2017_uci54")
# name -> (estimates, covariance), higher estimates first (R's convention)
DESIGNS = {"simulated": _simulated(), "correlated": _correlated(), "pisa_math": _pisa()}
_m, _s = _moments(DEMSAR, ranks=True)
DESIGNS["demsar_mean_rank"] = (-_m, _s)       # a lower mean rank is better: R ranks −mean rank
DESIGNS["benavoli_mean"] = _moments(BENAVOLI, ranks=False)
# csranks' R loops take ~2 s per 10,000 draws over the 1,332 PISA pairs: there only the stepwise simultaneous
# sets are compared (its marginal sets would loop over 37 jurisdictions); the other designs run every variant
FULL = [name for name in DESIGNS if name != "pisa_math"]


def need_rscript() -> str:
    path = shutil.which("Rscript")
    if path is None:
        if os.environ.get("CI"):  # .ci/run installs r-base-core: under CI a missing R is a failure
            pytest.fail("Rscript is not installed; .ci/run installs Debian's r-base-core and r-cran-mass")
        pytest.skip("no R installation (CI installs it)")
    return path


@pytest.fixture(scope="module")
def oracle(tmp_path_factory) -> dict:
    """(design, quantity) -> numpy array, from one Rscript run over every design."""
    rscript = need_rscript()
    if not (CSRANKS / "ranks.R").is_file():
        message = (f"csranks' R code is not in {CSRANKS} (it is GPL-3 and left out of the sdist): run these tests "
                   "from a checkout of the repository")
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    folder = tmp_path_factory.mktemp("csranks")
    for name, (x, sigma) in DESIGNS.items():
        pd.DataFrame({"x": x}).to_csv(folder / f"{name}_x.csv", index=False, float_format="%.17g")
        pd.DataFrame(sigma).to_csv(folder / f"{name}_sigma.csv", index=False, header=False, float_format="%.17g")
    pd.DataFrame({"name": list(DESIGNS), "draws": DRAWS, "seed": 1,
                  "full": [n in FULL for n in DESIGNS]}).to_csv(folder / "designs.csv", index=False)
    run = subprocess.run([rscript, "--vanilla", str(SCRIPT), str(CSRANKS), str(folder)], capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    table = pd.read_csv(folder / "out.csv")
    return {key: rows.sort_values("index")["value"].to_numpy() for key, rows in table.groupby(["design", "quantity"])}


def _ours(name: str, **options):
    x, sigma = DESIGNS[name]
    labels = [f"m{j}" for j in range(x.size)]
    return mcda.rank_confidence_sets_from_estimates(pd.Series(x, index=labels),
                                                    pd.DataFrame(sigma, index=labels, columns=labels),
                                                    n_resamples=DRAWS, rng=3, **options)


def _between(narrow, wide, low, high) -> None:
    """csranks' set {low..high} of each method lies between ours at the levels 0.95 -/+ 0.015."""
    assert np.all(wide.rank_low.to_numpy() <= low) and np.all(low <= narrow.rank_low.to_numpy())
    assert np.all(narrow.rank_high.to_numpy() <= high) and np.all(high <= wide.rank_high.to_numpy())


def _tight(narrow, wide) -> int:
    """Methods whose set is the same at both levels (there the comparison is exact)."""
    return int(np.sum((narrow.rank_low.to_numpy() == wide.rank_low.to_numpy())
                      & (narrow.rank_high.to_numpy() == wide.rank_high.to_numpy())))


@pytest.mark.parametrize("name", list(DESIGNS))
def test_rank_sets_lie_between_ours_at_neighbouring_levels(oracle, name):
    variants = [({}, "L_simul", "U_simul")]
    if name in FULL:
        variants += [({"stepdown": False}, "L_single", "U_single"), ({"simultaneous": False}, "L_marg", "U_marg")]
    exact = 0
    for options, low_key, high_key in variants:
        narrow, wide = (_ours(name, confidence_level=level, **options) for level in (0.935, 0.965))
        _between(narrow, wide, oracle[name, low_key], oracle[name, high_key])
        exact += _tight(narrow, wide)
    assert exact >= len(variants) * narrow.n_methods // 2   # mostly decided exactly, not only bracketed
    if name in FULL:
        labels = narrow.estimates.index
        narrow, wide = (_ours(name, confidence_level=level) for level in (0.935, 0.965))
        for tau, key in ((1, "best1"), (3, "best3")):
            assert set(narrow.top(tau)) <= set(labels[oracle[name, key] == 1]) <= set(wide.top(tau))
    # the single step's critical value: the same quantile of max |t| up to Monte Carlo error
    np.testing.assert_allclose(_ours(name, stepdown=False).critical_values[0], oracle[name, "crit"][0], rtol=0.04)


def test_the_cube_path_is_the_estimates_path_on_demsar_and_benavoli():
    # the cube's own means and covariance (mcda) against the ones computed above (scipy / numpy) and fed to
    # csranks; from them the same draws give the same sets as the path checked against csranks
    ranks = mcda.rank_confidence_sets(DEMSAR, n_resamples=DRAWS, rng=3)
    np.testing.assert_allclose(ranks.estimates.to_numpy(), -DESIGNS["demsar_mean_rank"][0], rtol=1e-12)
    np.testing.assert_allclose(ranks.covariance.to_numpy(), DESIGNS["demsar_mean_rank"][1], rtol=1e-10)
    given = _ours("demsar_mean_rank")
    np.testing.assert_array_equal(ranks.rank_low.to_numpy(), given.rank_low.to_numpy())
    np.testing.assert_array_equal(ranks.rank_high.to_numpy(), given.rank_high.to_numpy())
    means = mcda.rank_confidence_sets(BENAVOLI, estimate="mean", simultaneous=False, n_resamples=DRAWS, rng=3)
    np.testing.assert_allclose(means.estimates.to_numpy(), DESIGNS["benavoli_mean"][0], rtol=1e-12)
    np.testing.assert_allclose(means.covariance.to_numpy(), DESIGNS["benavoli_mean"][1], rtol=1e-10)
    given = _ours("benavoli_mean", simultaneous=False)
    np.testing.assert_array_equal(means.rank_low.to_numpy(), given.rank_low.to_numpy())
    np.testing.assert_array_equal(means.rank_high.to_numpy(), given.rank_high.to_numpy())


def test_simultaneous_sets_cover_every_true_rank_at_the_level():
    # θ̂ ~ N(θ, Σ) with Σ known; the true rank is 1 + #{k: θ_k > θ_j} (the paper's, csranks' irank), so a
    # tied pair declared ordered misses. 200 replications: coverage 0.95 would give fewer than 178 covered in
    # under 1 % of runs (binomial), while sets from the unadjusted pairwise z (critical value 1.96, ten tied
    # pairs at 5 % each) cover all ranks in about two thirds of them.
    theta = np.array([0.0, 0.0, 0.0, 0.0, 0.5, 0.5, 0.5, 1.0, 1.0])
    sd = np.full(theta.size, 0.1)
    labels = [f"m{j}" for j in range(theta.size)]
    cov = pd.DataFrame(np.diag(sd ** 2), index=labels, columns=labels)
    true_rank = 1 + (theta[None, :] > theta[:, None]).sum(axis=1)
    rng = np.random.default_rng(11)
    covered = covered_naive = 0
    for _ in range(200):
        est = pd.Series(theta + sd * rng.standard_normal(theta.size), index=labels)
        res = mcda.rank_confidence_sets_from_estimates(est, cov, n_resamples=300, rng=rng)
        covered += bool(np.all((res.rank_low.to_numpy() <= true_rank) & (true_rank <= res.rank_high.to_numpy())))
        t = (est.to_numpy()[:, None] - est.to_numpy()[None, :]) / np.sqrt(2 * 0.01)
        low, high = 1 + (t < -1.96).sum(axis=1), theta.size - (t > 1.96).sum(axis=1)
        covered_naive += bool(np.all((low <= true_rank) & (true_rank <= high)))
    assert covered >= 178, covered
    assert covered_naive < 178, covered_naive    # the design can tell a too-narrow construction


def test_marginal_sets_are_never_wider_and_the_stepdown_never_widens():
    res = mcda.rank_confidence_sets(BENAVOLI, estimate="mean", rng=0, n_resamples=2000)
    marginal = mcda.rank_confidence_sets(BENAVOLI, estimate="mean", simultaneous=False, rng=0, n_resamples=2000)
    single = mcda.rank_confidence_sets(BENAVOLI, estimate="mean", stepdown=False, rng=0, n_resamples=2000)
    assert np.all(res.rank_low <= marginal.rank_low) and np.all(marginal.rank_high <= res.rank_high)
    assert np.all(single.rank_low <= res.rank_low) and np.all(res.rank_high <= single.rank_high)
    assert np.all((res.rank_low <= res.ranks) & (res.ranks <= res.rank_high))
    assert list(res.critical_values) == sorted(res.critical_values, reverse=True)
    # the best set and the top-τ sets grow with τ and start from the lowest lower ends
    assert set(res.best_set) <= set(res.top(2)) <= set(res.top(res.n_methods))
    assert len(res.top(res.n_methods)) == res.n_methods
    assert set(res.best_set) == set(res.rank_low_simultaneous.index[res.rank_low_simultaneous == 1])


def test_exact_pairs_and_ties_need_no_bootstrap():
    # a difference with zero variance is known exactly: ordered when the estimates differ, tied when equal
    labels = ["a", "b", "c"]
    cov = pd.DataFrame([[1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 1.0]], index=labels, columns=labels)
    res = mcda.rank_confidence_sets_from_estimates(pd.Series([0.5, 0.4, 0.0], index=labels), cov, rng=0)
    assert (res.rank_low["a"], res.rank_high["b"]) == (1, 3) and res.rank_high["a"] == 2 and res.rank_low["b"] == 2
    tied = mcda.rank_confidence_sets_from_estimates(pd.Series([0.5, 0.5, 0.0], index=labels), cov, rng=0)
    assert tied.ranks.tolist() == [1, 1, 3] and tied.rank_low["b"] == 1


@pytest.mark.parametrize("kwargs,text", [
    ({"covariance": pd.DataFrame([[1.0, 2.0], [2.0, 1.0]], index=["a", "b"], columns=["a", "b"])},
     "positive semi-definite"),
    ({"covariance": pd.DataFrame([[1.0, 0.5], [0.0, 1.0]], index=["a", "b"], columns=["a", "b"])}, "symmetric"),
    ({"covariance": pd.DataFrame(np.eye(2), index=["a", "c"], columns=["a", "c"])}, "indexed and labelled"),
    ({"estimates": pd.Series([1.0, np.nan], index=["a", "b"])}, "finite"),
    ({"estimates": [1.0, 2.0]}, "pandas Series"),
    ({"direction": "up"}, "`direction` must be one of"),
    ({"stepdown": "yes"}, "`stepdown`"),
    ({"n_resamples": 1}, "`n_resamples`"),
])
def test_bad_estimates_are_refused_by_name(kwargs, text):
    call = {"estimates": pd.Series([1.0, 2.0], index=["a", "b"]),
            "covariance": pd.DataFrame(np.eye(2), index=["a", "b"], columns=["a", "b"])} | kwargs
    with pytest.raises((ValueError, TypeError), match=text):
        mcda.rank_confidence_sets_from_estimates(call.pop("estimates"), call.pop("covariance"), **call)


def test_the_covariance_is_read_in_any_order_and_the_best_named_in_the_summary():
    labels = ["a", "b", "c"]
    cov = pd.DataFrame(np.diag([0.01, 0.02, 0.03]), index=labels, columns=labels)
    est = pd.Series([3.0, 1.0, 0.0], index=labels)
    one = mcda.rank_confidence_sets_from_estimates(est, cov, rng=0)
    other = mcda.rank_confidence_sets_from_estimates(est, cov.loc[["c", "a", "b"], ["b", "c", "a"]], rng=0)
    pd.testing.assert_frame_equal(one.to_frame(), other.to_frame())
    assert one.best_set == ("a",) and "may be the best (95%): a" in one.summary()
    with pytest.raises(ValueError, match="`tau`"):
        one.top(4)


# --------------------------------------------------------------------------- over the items of one test set

def _item_cube(values, clusters=None):
    import xarray as xr

    n_items = values.shape[0]
    coords = {"dataset": ["test"], "method": [f"m{j}" for j in range(values.shape[1])], "item": np.arange(n_items)}
    if clusters is not None:
        coords["cluster"] = ("item", [f"c{c}" for c in clusters])
    return mcda.score_cube(xr.DataArray(values.T[None], dims=("dataset", "method", "item"), coords=coords),
                           direction="higher_is_better")


def _clustered_items(gen, means, n_clusters, size, rho):
    """Items in clusters whose scores share a cluster effect (intra-cluster correlation rho)."""
    k = len(means)
    shared = gen.normal(0.0, np.sqrt(rho), size=(n_clusters, 1, k)).repeat(size, axis=1)
    own = gen.normal(0.0, np.sqrt(1 - rho), size=(n_clusters, size, k))
    return (np.asarray(means) + shared + own).reshape(n_clusters * size, k), np.repeat(np.arange(n_clusters), size)


def test_item_means_and_their_clustered_covariance_are_statsmodels():
    import statsmodels.api as sm

    gen = np.random.default_rng(3)
    values, clusters = _clustered_items(gen, [0.0, 0.1, 0.3, 0.35], n_clusters=30, size=5, rho=0.5)
    res = mcda.rank_confidence_sets_over_items(_item_cube(values, clusters), n_resamples=500, rng=0)
    ones = np.ones((len(values), 1))

    def cr1(y):  # statsmodels' cluster-robust variance of a mean: its factor G/(G-1)(N-1)/(N-K) is G/(G-1) at K=1
        return sm.OLS(y, ones).fit(cov_type="cluster", cov_kwds={"groups": clusters}).cov_params()[0, 0]

    k = values.shape[1]
    expected = np.array([[(cr1(values[:, a]) + cr1(values[:, b]) - cr1(values[:, a] - values[:, b])) / 2
                          for b in range(k)] for a in range(k)])
    np.testing.assert_allclose(res.covariance.to_numpy(), expected, rtol=1e-10)
    np.testing.assert_allclose(res.estimates.to_numpy(), values.mean(axis=0), rtol=1e-12)
    assert (res.n_items, res.n_clusters, res.estimate) == (150, 30, "item_mean")
    # without clusters: numpy's sample covariance of the items over n
    plain = mcda.rank_confidence_sets_over_items(_item_cube(values), n_resamples=500, rng=0)
    np.testing.assert_allclose(plain.covariance.to_numpy(), np.cov(values, rowvar=False) / len(values), rtol=1e-10)
    assert plain.n_clusters is None and plain.what == "mean score over 150 items"
    # the sets are those of the given estimates and covariance (checked against csranks above)
    given = mcda.rank_confidence_sets_from_estimates(pd.Series(values.mean(axis=0), index=res.estimates.index),
                                                     pd.DataFrame(expected, index=res.estimates.index,
                                                                  columns=res.estimates.index),
                                                     n_resamples=500, rng=0)
    assert given.rank_low.tolist() == res.rank_low.tolist() and given.rank_high.tolist() == res.rank_high.tolist()


def test_clustered_item_sets_cover_every_true_rank_where_the_naive_ones_do_not():
    # 4 methods with true means 0, 0.05, 0.1, 0.15 (true ranks 4..1); 20 clusters of 10 items, ICC 0.6: the
    # naive covariance understates the variance of the means about sixfold (design effect 1 + 9 · 0.6)
    gen = np.random.default_rng(11)
    means, truth = [0.0, 0.05, 0.1, 0.15], np.array([4, 3, 2, 1])
    reps, covered, naive_covered = 120, 0, 0
    for r in range(reps):
        values, clusters = _clustered_items(gen, means, n_clusters=20, size=10, rho=0.6)
        res = mcda.rank_confidence_sets_over_items(_item_cube(values, clusters), n_resamples=300, rng=r)
        naive = mcda.rank_confidence_sets_over_items(_item_cube(values), n_resamples=300, rng=r)
        covered += bool(((res.rank_low <= truth) & (truth <= res.rank_high)).all())
        naive_covered += bool(((naive.rank_low <= truth) & (truth <= naive.rank_high)).all())
    # 0.95 nominal; with 120 replications 3 binomial standard errors below it is 0.89 (20 clusters are few, the
    # guarantee is asymptotic in the clusters)
    assert covered / reps >= 0.87, covered / reps
    assert naive_covered / reps < covered / reps - 0.15, (naive_covered / reps, covered / reps)


def test_items_that_some_method_lacks_are_left_out_and_said():
    gen = np.random.default_rng(2)
    values = gen.normal(size=(40, 3))
    values[[3, 7], 1] = np.nan
    with pytest.warns(mcda.MissingDataWarning, match="2 of 40 items"):
        res = mcda.rank_confidence_sets_over_items(_item_cube(values), n_resamples=200, rng=0)
    kept = np.delete(values, [3, 7], axis=0)
    np.testing.assert_allclose(res.estimates.to_numpy(), kept.mean(axis=0), rtol=1e-12)
    assert res.n_items == 38
    with pytest.raises(mcda.McdaArgumentError, match="item"):
        mcda.rank_confidence_sets_over_items(mcda.datasets.load("demsar2006"))


def test_a_lazy_cube_gives_the_same_sets_as_in_memory():
    """The mean ranks and their covariance are sums over datasets: a dask-backed cube chunked along
    ``dataset`` (blocks of 7, the last one short) gives the in-memory result exactly."""
    pytest.importorskip("dask")
    cube = mcda.datasets.synthetic(n_datasets=30, n_methods=5, n_seeds=0, rng=3)
    for estimate in ("mean_rank", "mean"):
        memory = mcda.rank_confidence_sets(cube, estimate=estimate, rng=0).to_frame()
        lazy = mcda.rank_confidence_sets(cube.chunk({"dataset": 7}), estimate=estimate, rng=0).to_frame()
        pd.testing.assert_frame_equal(memory, lazy)
