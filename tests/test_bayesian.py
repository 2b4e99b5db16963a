"""Tests of mcda.stats.bayesian (sign, signed_rank, correlated_t).

Reference numbers come from (a) baycomp 1.0.3 run inside the tests and its stored outputs in
tests/data/baycomp_fixture (PROVENANCE.md there), (b) the published posterior probabilities
of Benavoli, Corani, Demšar & Zaffalon (2017) in tests/data/benavoli2017_uci54/PROVENANCE.md,
(c) scipy.integrate.quad for the exact sign-test integrals, and (d) plain numpy reference
computations of every numba kernel.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, special

import mcda
from mcda import (bayesian_sign_comparison, bayesian_signed_rank_comparison, correlated_t_test, score_cube, two_on_multiple)
from mcda.stats.bayesian.sign import _argmax_probabilities, _sign_alpha

baycomp = pytest.importorskip("baycomp")

DATA = Path(__file__).parent / "data"
FIXTURE = json.loads((DATA / "baycomp_fixture" / "baycomp_fixture.json").read_text())
HIGHER = "higher_is_better"
PROBS = ["prob_a_better", "prob_equivalent", "prob_b_better"]
MEANS = ["mean_a_better", "mean_equivalent", "mean_b_better"]


def _row(result, a=None, b=None) -> pd.Series:
    frame = result.to_frame()
    if a is None:
        return frame.iloc[0]
    return frame[(frame["method_a"] == a) & (frame["method_b"] == b)].iloc[0]


def _probs(result, a=None, b=None, two=False) -> np.ndarray:
    row = _row(result, a, b)
    p = row[PROBS].to_numpy(dtype=float)
    return p[[0, 2]] if two else p


def _mc_tolerance(p, n, *, sides=1, z=5.0, floor=2e-4):
    """z standard errors of a Monte Carlo share (``sides`` = 2 for the difference of two runs)."""
    p = np.asarray(p, dtype=float)
    return z * np.sqrt(sides * p * (1 - p) / n) + floor


def _scenarios():
    """(x, y, fixture block) for the fixture's two score pairs."""
    x = np.array(FIXTURE["inputs"]["x"])
    yield "A", x, np.array(FIXTURE["inputs"]["y"]), FIXTURE
    yield "B", x, np.array(FIXTURE["scenario_B"]["y"]), FIXTURE["scenario_B"]


SCENARIOS = list(_scenarios())
ROPES = [(0.01, "rope=0.01"), (0.0, "rope=0")]


# --------------------------------------------------------------------------- baycomp fixture

@pytest.mark.parametrize("rope,key", ROPES)
@pytest.mark.parametrize("name,x,y,block", SCENARIOS, ids=[s[0] for s in SCENARIOS])
def test_sign_reproduce_mode_equals_the_stored_baycomp_output(name, x, y, block, rope, key):
    # baycomp 1.0.3 SignTest.probs(x, y, rope, random_state=42) as stored in the fixture
    stored = block["sign_test"][key]
    result = two_on_multiple(x, y, direction=HIGHER, rope=rope, test="sign", method="sampling", rng=42,
                             reproduce="baycomp")
    row = _row(result)
    assert [row["n_datasets"]] == [len(x)]
    np.testing.assert_array_equal(_probs(result, two=rope == 0), stored["probs"])
    np.testing.assert_array_equal(result.draws[("x", "y")][:5], stored["sample_head"])


@pytest.mark.parametrize("rope,key", ROPES)
@pytest.mark.parametrize("name,x,y,block", SCENARIOS, ids=[s[0] for s in SCENARIOS])
def test_signed_rank_reproduce_mode_equals_the_stored_baycomp_output(name, x, y, block, rope, key):
    # baycomp 1.0.3 SignedRankTest.probs(x, y, rope, random_state=42) as stored in the fixture
    stored = block["signed_rank_test"][key]
    result = two_on_multiple(x, y, direction=HIGHER, rope=rope, rng=42, reproduce="baycomp")
    np.testing.assert_array_equal(_probs(result, two=rope == 0), stored["probs"])
    np.testing.assert_allclose(result.draws[("x", "y")][:5], stored["sample_head"], rtol=0, atol=1e-12)
    # exact posterior means of the shares, computed by the fixture's maker
    np.testing.assert_allclose(_row(result)[MEANS].to_numpy(dtype=float), stored["exact_posterior_mean_theta"],
                               rtol=0, atol=1e-13)


@pytest.mark.parametrize("rope", [0.01, 0.0])
def test_reproduce_mode_is_bit_identical_to_baycomp_run_here(rope):
    # baycomp run inside the test on the fixture's scenario B
    _, x, y, _ = SCENARIOS[1]
    expected = baycomp.SignTest(x, y, rope, random_state=7)
    result = two_on_multiple(x, y, direction=HIGHER, rope=rope, test="sign", method="sampling", rng=7,
                             reproduce="baycomp")
    np.testing.assert_array_equal(result.draws[("x", "y")], expected.sample)
    np.testing.assert_array_equal(_probs(result, two=rope == 0), expected.probs(rope > 0))

    expected = baycomp.SignedRankTest(x, y, rope, random_state=7, nsamples=20_000)
    result = two_on_multiple(x, y, direction=HIGHER, rope=rope, rng=7, reproduce="baycomp", n_samples=20_000)
    np.testing.assert_allclose(result.draws[("x", "y")], expected.sample, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(_probs(result, two=rope == 0), expected.probs(rope > 0))


def test_sign_counts_and_posterior_means_match_the_fixture():
    # counts_left_rope_right and exact_posterior_mean_theta from the fixture (baycomp's conventions)
    for _, x, y, block in SCENARIOS:
        stored = block["sign_test"]["rope=0.01"]
        result = two_on_multiple(x, y, direction=HIGHER, rope=0.01, test="sign")
        counts = mcda.pairwise_counts(result_cube(x, y), rope=0.01).to_frame().iloc[0]
        assert [counts["wins_a"], counts["n_equivalent"], counts["wins_b"]] == stored["counts_left_rope_right"]
        np.testing.assert_allclose(_row(result)[MEANS].to_numpy(dtype=float), stored["exact_posterior_mean_theta"],
                                   rtol=0, atol=1e-15)


def result_cube(x, y):
    return score_cube(pd.DataFrame({"x": x, "y": y}), direction=HIGHER)


@pytest.mark.parametrize("rope,key", ROPES)
@pytest.mark.parametrize("name,x,y,block", SCENARIOS, ids=[s[0] for s in SCENARIOS])
def test_exact_sign_agrees_with_baycomp_within_monte_carlo_error(name, x, y, block, rope, key):
    stored = np.array(block["sign_test"][key]["probs"])  # baycomp, 50,000 draws
    exact = _probs(two_on_multiple(x, y, direction=HIGHER, rope=rope, test="sign"), two=rope == 0)
    assert np.all(np.abs(exact - stored) <= _mc_tolerance(exact, 50_000))


def test_boundary_case_counts_half_and_matches_baycomp():
    # fixture boundary case: exactly representable differences on the rope and at 2·rope
    case = FIXTURE["boundary_case"]
    x, y, rope = np.array(case["x"]), np.array(case["y"]), case["rope"]
    counts = mcda.pairwise_counts(result_cube(x, y), rope=rope).to_frame().iloc[0]
    assert [counts["wins_a"], counts["n_equivalent"], counts["wins_b"]] == case["sign_test"]["counts_left_rope_right"]
    sr = two_on_multiple(x, y, direction=HIGHER, rope=rope, rng=42, reproduce="baycomp")
    np.testing.assert_array_equal(_probs(sr), case["signed_rank_test"]["probs"])
    np.testing.assert_allclose(_row(sr)[MEANS].to_numpy(dtype=float),
                               case["signed_rank_test"]["exact_posterior_mean_theta"], rtol=0, atol=1e-13)
    expected = baycomp.SignedRankTest(x, y, 0.0, random_state=3, nsamples=20_000)
    got = two_on_multiple(x, y, direction=HIGHER, rope=0.0, rng=3, reproduce="baycomp", n_samples=20_000)
    np.testing.assert_array_equal(_probs(got, two=True), expected.probs(False))
    sign = two_on_multiple(x, y, direction=HIGHER, rope=rope, test="sign")
    assert np.all(np.abs(_probs(sign) - case["sign_test"]["probs"]) <= _mc_tolerance(_probs(sign), 50_000))


# --------------------------------------------------------------------------- fresh random data

def _random_pair(seed, n, shift, sd, decimals=4):
    g = np.random.default_rng(seed)
    x = np.round(g.uniform(0.6, 0.9, n), decimals)
    y = np.round(x + g.normal(shift, sd, n), decimals)
    return x, y


RANDOM_CASES = [(11, 25, 0.004, 0.02, 0.01), (12, 12, -0.01, 0.03, 0.02), (13, 40, 0.0, 0.01, 0.005),
                (14, 15, 0.02, 0.02, 0.0)]


@pytest.mark.parametrize("seed,n,shift,sd,rope", RANDOM_CASES)
def test_fresh_random_data_agrees_with_baycomp(seed, n, shift, sd, rope):
    x, y = _random_pair(seed, n, shift, sd)
    draws = 20_000
    # sign test: exact vs baycomp (one Monte Carlo error); sampled vs baycomp (two)
    ref = np.array(baycomp.SignTest.probs(x, y, rope, random_state=seed, nsamples=draws))
    exact = _probs(two_on_multiple(x, y, direction=HIGHER, rope=rope, test="sign"), two=rope == 0)
    assert np.all(np.abs(exact - ref) <= _mc_tolerance(exact, draws))
    sampled = _probs(two_on_multiple(x, y, direction=HIGHER, rope=rope, test="sign", method="sampling",
                                     n_samples=draws, rng=seed), two=rope == 0)
    assert np.all(np.abs(sampled - ref) <= _mc_tolerance(exact, draws, sides=2))
    # signed-rank: our Generator draws vs baycomp's own
    ref = np.array(baycomp.SignedRankTest.probs(x, y, rope, random_state=seed, nsamples=draws))
    ours = _probs(two_on_multiple(x, y, direction=HIGHER, rope=rope, n_samples=draws, rng=seed + 100),
                  two=rope == 0)
    assert np.all(np.abs(ours - ref) <= _mc_tolerance((ours + ref) / 2, draws, sides=2))


def test_reproduce_mode_with_missing_results_uses_the_shared_datasets():
    x, y = _random_pair(21, 18, 0.005, 0.02)
    x_missing = x.copy()
    x_missing[[2, 9]] = np.nan
    keep = ~np.isnan(x_missing)
    with pytest.warns(mcda.MissingDataWarning, match=r"2 of 18 datasets .* left out .*: 2 \(x missing\), 9 \(x missing\)"):
        result = two_on_multiple(x_missing, y, direction=HIGHER, rope=0.01, rng=5, reproduce="baycomp")
    assert _row(result)["n_datasets"] == keep.sum()
    expected = baycomp.SignedRankTest.probs(x[keep], y[keep], 0.01, random_state=5)
    np.testing.assert_array_equal(_probs(result), expected)


def test_lower_is_better_matches_baycomp_on_the_oriented_scores():
    # an error rate: lower is better, so baycomp sees the negated errors (higher is better)
    x, y = _random_pair(31, 20, 0.01, 0.02)
    err = two_on_multiple(1 - x, 1 - y, direction="lower_is_better", rope=0.01, rng=4, reproduce="baycomp")
    expected = baycomp.SignedRankTest.probs(-(1 - x), -(1 - y), 0.01, random_state=4)
    np.testing.assert_array_equal(_probs(err), expected)


# --------------------------------------------------------------------------- Benavoli et al. 2017

@pytest.fixture(scope="module")
def uci54():
    frame = pd.read_csv(DATA / "benavoli2017_uci54" / "benavoli2017_uci54_mean.csv")
    frame["dataset"] = frame["dataset_id"].astype(str)  # ids: the names are partly inferred
    return score_cube(frame[["dataset", "method", "score"]], metric="accuracy")


# PROVENANCE A: authors' Julia notebook, Bayesian signed-rank, prior 0.5, rope 0.01, 150,000 draws
PUBLISHED_SIGNED_RANK = {
    ("nbc", "aode"): (0.000, 0.123, 0.877), ("nbc", "hnb"): (0.000, 0.001, 0.999),
    ("nbc", "j48"): (0.228, 0.006, 0.766), ("nbc", "j48gr"): (0.179, 0.004, 0.817),
    ("aode", "hnb"): (0.001, 0.965, 0.034), ("aode", "j48"): (0.904, 0.034, 0.062),
    ("aode", "j48gr"): (0.883, 0.046, 0.071), ("hnb", "j48"): (0.962, 0.020, 0.019),
    ("hnb", "j48gr"): (0.950, 0.026, 0.024), ("j48", "j48gr"): (0.000, 1.000, 0.000),
}


def test_benavoli2017_signed_rank_published_probabilities(uci54):
    result = bayesian_signed_rank_comparison(uci54, rope=0.01, rng=2017, keep_draws=False)
    for (a, b), published in PUBLISHED_SIGNED_RANK.items():
        np.testing.assert_allclose(_probs(result, a, b), published, rtol=0, atol=0.01, err_msg=f"{a}-{b}")


def test_benavoli2017_sign_test_nbc_aode(uci54):
    # PROVENANCE B: Python/Bsigntest.ipynb, prior strength 1 on the rope: 0.0 / 0.709 / 0.291
    # (a second run 0.0 / 0.707 / 0.293); counts (3, 27, 24) per the provenance's own check
    pair = uci54.sel({"method": ["nbc", "aode"]})
    result = bayesian_sign_comparison(pair, prior="rope", prior_strength=1.0)  # rope: accuracy card, 0.01
    assert result.rope == 0.01
    counts = mcda.pairwise_counts(pair, rope=0.01).to_frame().iloc[0]
    assert (counts["wins_a"], counts["n_equivalent"], counts["wins_b"]) == (3, 27, 24)
    np.testing.assert_allclose(_probs(result), (0.0, 0.709, 0.291), rtol=0, atol=0.01)
    np.testing.assert_allclose(_probs(result), (0.0, 0.707, 0.293), rtol=0, atol=0.01)


def test_benavoli2017_baycomp_docs_nbc_j48_in_percent(uci54):
    # PROVENANCE C: baycomp docs, accuracies in percent, rope = 1 (their data file repeats one row,
    # so agreement is to the tolerance only): SignedRankTest (0.23124, 0.00666, 0.7621),
    # SignTest (0.26508, 0.13274, 0.60218)
    percent = score_cube((uci54.sel({"method": ["nbc", "j48"]}) * 100).drop_attrs(), direction=HIGHER)
    sr = bayesian_signed_rank_comparison(percent, rope=1.0, rng=9, keep_draws=False)
    np.testing.assert_allclose(_probs(sr), (0.23124, 0.00666, 0.7621), rtol=0, atol=0.01)
    sign = bayesian_sign_comparison(percent, rope=1.0)
    np.testing.assert_allclose(_probs(sign), (0.26508, 0.13274, 0.60218), rtol=0, atol=0.01)


def test_benavoli2017_iris_boundary_counts_as_baycomp(uci54):
    # PROVENANCE edge case: iris aode − hnb = −0.010000000000019882 lies beyond the rope in float,
    # and baycomp's strict `diff < -rope` counts it as a win; the counts (hence the draws) agree
    pair = uci54.sel({"method": ["aode", "hnb"]})
    x = pair.sel({"method": "aode"}).values
    y = pair.sel({"method": "hnb"}).values
    result = bayesian_sign_comparison(pair, rope=0.01, method="sampling", rng=1, reproduce="baycomp")
    expected = baycomp.SignTest(x, y, 0.01, random_state=1)
    np.testing.assert_array_equal(result.draws[("aode", "hnb")], expected.sample)
    np.testing.assert_array_equal(_probs(result), expected.probs())


# --------------------------------------------------------------------------- exact method

def _quad_reference(alpha):
    """P(G_j largest) by adaptive quadrature of ∫ f_j(x) Π F_i(x) dx in t = log x (scipy)."""
    out = []
    for j in range(3):
        others = [alpha[i] for i in range(3) if i != j]

        def integrand(t, aj=alpha[j], others=others):
            x = math.exp(t)
            return (math.exp(aj * t - x - special.gammaln(aj)) * special.gammainc(others[0], x)
                    * special.gammainc(others[1], x))

        lo = -60.0 / min(1.0, sum(alpha)) * 1.5
        hi = math.log(special.gammainccinv(alpha[j], 1e-18))
        edges = np.linspace(lo, hi, 120)
        out.append(sum(integrate.quad(integrand, a, b, epsabs=1e-16, epsrel=1e-13, limit=200)[0]
                       for a, b in zip(edges[:-1], edges[1:])))
    return np.array(out)


@pytest.mark.parametrize("alpha", [
    (1.0001, 1.0001, 1.0001), (3.0001, 28.0001, 24.0001), (0.0001, 1.0101, 0.0001), (2.0001, 12.0001, 7.0001),
    (25.5001, 0.3334, 26.5001), (326.0051, 4009.0001, 665.0051), (0.5001, 0.0034, 1.0034), (40.0, 41.0, 39.5),
])
def test_exact_probabilities_match_adaptive_quadrature(alpha):
    got = _argmax_probabilities(np.array([alpha]))[0]
    np.testing.assert_allclose(got, _quad_reference(alpha), rtol=0, atol=1e-9)
    assert abs(got.sum() - 1) < 1e-12


@settings(max_examples=30, deadline=None)
@given(counts=st.tuples(st.integers(0, 30), st.integers(0, 30), st.integers(0, 30)).filter(lambda c: sum(c) > 0),
       prior=st.sampled_from(["rope", "uniform", "neutral"]), strength=st.sampled_from([0.1, 1.0, 2.5]))
def test_exact_and_sampling_agree_within_monte_carlo_error(counts, prior, strength):
    alpha = _sign_alpha(*[np.array([c]) for c in counts], prior, strength)
    exact = _argmax_probabilities(alpha)[0]
    n = 20_000
    gammas = np.random.default_rng(sum(counts)).standard_gamma(alpha[0], size=(n, 3))
    from mcda._core._kernels.dirichlet import normalise_and_count

    sampled = normalise_and_count(gammas) / n
    assert np.all(np.abs(sampled - exact) <= _mc_tolerance(exact, n, floor=1e-3))


def test_sampling_method_uses_the_same_posterior_as_exact():
    x, y = _random_pair(41, 30, 0.003, 0.02)
    exact = two_on_multiple(x, y, direction=HIGHER, rope=0.01, test="sign")
    sampled = two_on_multiple(x, y, direction=HIGHER, rope=0.01, test="sign", method="sampling", rng=3,
                              n_samples=40_000)
    assert exact.draws is None and exact.n_samples is None and exact.method == "exact"
    assert sampled.draws[("x", "y")].shape == (40_000, 3) and sampled.n_samples == 40_000
    np.testing.assert_allclose(sampled.draws[("x", "y")].sum(axis=1), 1.0, rtol=0, atol=1e-12)
    p = _probs(exact)
    assert np.all(np.abs(_probs(sampled) - p) <= _mc_tolerance(p, 40_000))
    # the draws' column means estimate the exact posterior means
    np.testing.assert_allclose(sampled.draws[("x", "y")].mean(axis=0), _row(exact)[MEANS].to_numpy(dtype=float),
                               rtol=0, atol=0.005)


# --------------------------------------------------------------------------- kernels vs numpy

def _signed_rank_reference(weights, z, rope):
    """baycomp's computation: the full (n + 1)² indicator matrix and w Hᵀ w per draw."""
    sums = z[:, None] + z[None, :]
    heaviside = lambda a, t: (a > t) + 0.5 * (a == t)  # noqa: E731
    right = np.einsum("si,ij,sj->s", weights, heaviside(sums, 2 * rope), weights)
    if rope > 0:
        left = np.einsum("si,ij,sj->s", weights, heaviside(-sums, 2 * rope), weights)
        return np.stack([left, 1 - left - right, right], axis=1)
    return np.stack([1 - right, np.zeros_like(right), right], axis=1)


@pytest.mark.parametrize("rope", [0.0, 0.25, 0.5])
def test_signed_rank_kernel_matches_the_indicator_matrix(rope):
    from mcda._core._kernels.signed_rank import signed_rank_shares, sum_boundaries

    g = np.random.default_rng(8)
    pairs = [np.concatenate(([0.0], g.choice([-0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 1.0], 12)))
             for _ in range(3)]  # exact ties and sums exactly at ±2·rope
    weights = g.dirichlet(np.r_[0.5, np.ones(12)], 300)
    weights_t = np.ascontiguousarray(weights.T)
    orders, bounds = [], []
    for z in pairs:
        order = np.argsort(z, kind="mergesort")
        zs = z[order]
        orders.append(order)
        bounds.append(sum_boundaries(zs, 2 * rope, 2 * rope) + sum_boundaries(zs, -2 * rope, -2 * rope))
        # boundaries against brute force
        s = zs[:, None] + zs[None, :]
        np.testing.assert_array_equal(bounds[-1][0], (s < 2 * rope).sum(axis=1))
        np.testing.assert_array_equal(bounds[-1][1], (s <= 2 * rope).sum(axis=1))
    stack = lambda i: np.ascontiguousarray(np.stack([b[i] for b in bounds]))  # noqa: E731
    out = np.empty((3, 300, 3))
    counts = np.zeros((3, 3), dtype=np.int64)
    signed_rank_shares(weights_t, np.stack(orders), stack(0), stack(1), stack(2), stack(3), rope > 0, out, counts, 64)
    for p, z in enumerate(pairs):
        expected = _signed_rank_reference(weights, z, rope)
        np.testing.assert_allclose(out[p], expected, rtol=0, atol=1e-12)
        np.testing.assert_array_equal(counts[p], np.bincount(out[p].argmax(axis=1), minlength=3))
    many = 4  # the three pairs four times over: runs of pairs on 1, 2 or 3 threads give the very same numbers
    arrays = [np.ascontiguousarray(np.tile(a, (many, 1))) for a in (np.stack(orders), stack(0), stack(1), stack(2),
                                                                     stack(3))]
    for threads in (1, 2, 3):
        threaded = np.empty((3 * many, 300, 3))
        threaded_counts = np.zeros((3 * many, 3), dtype=np.int64)
        signed_rank_shares(weights_t, *arrays, rope > 0, threaded, threaded_counts, 64, threads=threads)
        np.testing.assert_array_equal(threaded, np.tile(out, (many, 1, 1)))
        np.testing.assert_array_equal(threaded_counts, np.tile(counts, (many, 1)))


def test_dirichlet_kernels_match_numpy():
    from mcda._core._kernels.dirichlet import count_winners, normalise_and_count

    g = np.random.default_rng(2)
    gammas = g.standard_gamma([0.5, 3.0, 2.0], size=(1000, 3))
    expected = gammas / gammas.sum(axis=1, keepdims=True)
    counts = normalise_and_count(gammas)
    np.testing.assert_allclose(gammas, expected, rtol=1e-15)
    np.testing.assert_array_equal(counts, np.bincount(expected.argmax(axis=1), minlength=3))
    ties = np.array([[0.4, 0.4, 0.2], [0.2, 0.4, 0.4], [0.5, 0.0, 0.5], [0.1, 0.2, 0.7]])
    np.testing.assert_array_equal(count_winners(ties), np.bincount(ties.argmax(axis=1), minlength=3))


# --------------------------------------------------------------------------- correlated t

def test_correlated_t_equals_baycomp():
    case = FIXTURE["correlated_t_test"]
    x, y, runs = np.array(case["x"]), np.array(case["y"]), case["runs"]
    folds = {"d": {"x": x, "y": y}}
    for rope, key in ((0.01, "two_on_single_rope0.01"), (0.0, "two_on_single_rope0")):
        result = correlated_t_test(folds, HIGHER, rope=rope, runs=runs)
        row = _row(result)
        expected = baycomp.CorrelatedTTest.probs(x, y, rope=rope, runs=runs)
        got = row[PROBS].to_numpy(dtype=float)
        np.testing.assert_allclose(got[[0, 2]] if rope == 0 else got, expected, rtol=0, atol=1e-14)
        np.testing.assert_allclose(got[[0, 2]] if rope == 0 else got, case[key], rtol=0, atol=1e-14)
        mean, var, df = case["mean_var_df"]  # baycomp's mean(y − x), corrected variance, df
        assert row["mean_diff"] == pytest.approx(-mean, abs=1e-15)
        assert row["scale"] == pytest.approx(math.sqrt(var), rel=1e-12)
        assert row["df"] == df
    assert result.n_folds == 10 and result.runs == 10


def test_correlated_t_zero_variance_and_direction():
    x = np.full(10, 0.8)
    for shift, rope in ((0.0, 0.0), (0.02, 0.01), (0.005, 0.01), (-0.02, 0.0)):
        y = x + shift
        expected = baycomp.CorrelatedTTest.probs(x, y, rope=rope, runs=1)
        got = _probs(correlated_t_test({"d": {"x": x, "y": y}}, HIGHER, rope=rope), two=rope == 0)
        np.testing.assert_allclose(got, expected, rtol=0, atol=1e-15)
    g = np.random.default_rng(5)
    x = g.uniform(0.1, 0.2, 10)
    y = x + g.normal(0.01, 0.01, 10)
    high = correlated_t_test({"d": {"x": x, "y": y}}, HIGHER, rope=0.005).to_frame()
    low = correlated_t_test({"d": {"x": -x, "y": -y}}, "lower_is_better", rope=0.005).to_frame()
    np.testing.assert_allclose(high[PROBS].to_numpy(), low[PROBS].to_numpy(), rtol=0, atol=1e-15)
    np.testing.assert_allclose(high["mean_diff"], -low["mean_diff"], rtol=1e-15)


def test_correlated_t_missing_fold_is_nan_with_reason_and_bad_runs():
    x = np.linspace(0.8, 0.9, 10)
    y = x + 0.01
    y[3] = np.nan
    frame = correlated_t_test({"d": {"x": x, "y": y}, "e": {"x": x, "y": x + 0.02}}, HIGHER, rope=0.01).to_frame()
    assert np.isnan(frame.loc[0, "prob_a_better"]) and "1 of 10 fold scores missing" in frame.loc[0, "reason"]
    assert frame.loc[0, "label"] == "not_applicable"
    assert frame.loc[1, "reason"] == ""
    with pytest.raises(ValueError, match="`runs` must divide"):
        correlated_t_test({"d": {"x": x, "y": x}}, HIGHER, rope=0.01, runs=3)
    with pytest.raises(ValueError, match="k >= 2"):
        correlated_t_test({"d": {"x": x, "y": x}}, HIGHER, rope=0.01, runs=10)
    with pytest.raises(ValueError, match="'seed' dim"):
        correlated_t_test(pd.DataFrame({"x": x, "y": x}), HIGHER, rope=0.01)


# --------------------------------------------------------------------------- result shape and semantics

def _cube_with_a_disjoint_pair():
    values = np.array([[0.80, 0.82, np.nan], [0.70, 0.69, np.nan], [0.90, np.nan, 0.91], [0.60, np.nan, 0.58]])
    return score_cube(pd.DataFrame(values, columns=["a", "b", "c"]), metric="accuracy")


@pytest.mark.parametrize("run", [
    lambda c: bayesian_sign_comparison(c),
    lambda c: bayesian_sign_comparison(c, method="sampling", rng=0, n_samples=2000),
    lambda c: bayesian_signed_rank_comparison(c, rng=0, n_samples=2000),
])
def test_pair_without_shared_dataset_is_nan_with_reason(run):
    result = run(_cube_with_a_disjoint_pair())
    frame = result.to_frame()
    assert list(frame.columns) == ["method_a", "method_b", "n_datasets", *PROBS, "label", *MEANS, "reason"]
    bc = frame[(frame.method_a == "b") & (frame.method_b == "c")].iloc[0]
    assert bc["n_datasets"] == 0 and np.isnan(bc[PROBS].to_numpy(dtype=float)).all()
    assert bc["reason"] == "no dataset where both methods have a result" and bc["label"] == "not_applicable"
    ok = frame[frame["reason"] == ""]
    np.testing.assert_allclose(ok[PROBS].sum(axis=1), 1.0, rtol=0, atol=1e-12)
    if result.draws is not None:
        assert set(result.draws) == {("a", "b"), ("a", "c")}
    # standing: mean over the pairs with data of P(at least as high)
    ab, ac = (frame.iloc[0], frame.iloc[1])
    assert result.standing["a"] == pytest.approx(((ab.prob_a_better + ab.prob_equivalent)
                                                  + (ac.prob_a_better + ac.prob_equivalent)) / 2, abs=1e-15)
    assert result.standing["b"] == pytest.approx(ab.prob_b_better + ab.prob_equivalent, abs=1e-15)
    assert result.order == list(result.standing.sort_values(ascending=False, kind="stable").index)
    assert "no dataset where both" in result.summary() and "BayesianComparison" in repr(result)


def test_labels_follow_the_threshold():
    x, y = _random_pair(51, 40, 0.03, 0.01)
    for threshold in (0.6, 0.95, 0.999999):
        result = two_on_multiple(x, y, direction=HIGHER, rope=0.01, test="sign", threshold=threshold)
        row = _row(result)
        p = row[PROBS].to_numpy(dtype=float)
        expected = ["a_better", "equivalent", "b_better"][p.argmax()] if p.max() >= threshold else "inconclusive"
        assert row["label"] == expected


def test_rope_zero_two_regions_and_ties_only():
    x, y = _random_pair(61, 20, 0.01, 0.02)
    result = two_on_multiple(x, y, direction=HIGHER, rope=0.0, test="sign")
    row = _row(result)
    assert row["prob_equivalent"] == 0.0 and row["mean_equivalent"] == 0.0
    assert row["prob_a_better"] + row["prob_b_better"] == pytest.approx(1.0, abs=1e-15)
    ties = two_on_multiple(np.full(30, 0.5), np.full(30, 0.5), direction=HIGHER, rope=0.0, test="sign")
    assert np.isnan(_row(ties)["prob_a_better"]) and "undefined" in _row(ties)["reason"]


def test_signed_rank_rope_zero_with_every_difference_zero_is_nan_not_rounding_noise():
    # Every z_i = 0: every pairwise sum is exactly 2·rope = 0 and counts half, so θ_b = ½ and
    # θ_a = 1 − θ_b = ½ in every draw (Benavoli et al. 2014, eq. of the signed-rank share): neither
    # region is the larger, and which one "wins" a draw is the last bit of a sum of weights.
    # baycomp's own output here is that noise: run it with two seeds and see it is not ½ / ½.
    x = np.full(5, 0.8)
    noise = [baycomp.SignedRankTest.probs(x, x.copy(), 0.0, random_state=s, nsamples=5000) for s in (0, 1)]
    assert all(abs(p[0] - 0.5) > 0.05 for p in noise)
    result = two_on_multiple(x, x.copy(), direction=HIGHER, rope=0.0, rng=0, n_samples=5000)
    row = _row(result)
    assert np.isnan(row[PROBS].to_numpy(dtype=float)).all() and row["label"] == "not_applicable"
    assert "every difference is 0" in row["reason"]
    # one nonzero difference is enough for a real posterior; with a rope the pair is equivalent
    y = x.copy()
    y[0] += 0.05
    assert _row(two_on_multiple(x, y, direction=HIGHER, rope=0.0, rng=0, n_samples=5000))["reason"] == ""
    assert _row(two_on_multiple(x, x.copy(), direction=HIGHER, rope=0.01, rng=0, n_samples=5000))["label"] \
        == "equivalent"


def test_sign_sampling_rope_zero_ratio_from_a_handful_of_draws_is_nan():
    # One dataset, a tie, rope = 0: Dirichlet(0.0001, 2.0001, 0.0001); P(a largest) = P(b largest)
    # = 1.9e-5 by symmetry (scipy quadrature in test_exact_probabilities_match_adaptive_quadrature's
    # reference), so 50,000 draws give about one directional winner each and their ratio is 0, ½ or 1
    # by chance. The exact method gives the symmetric ½ / ½; sampling must not label a winner.
    tie = {"d1": {"a": 0.8, "b": 0.8}}
    alpha = _sign_alpha(np.array([0]), np.array([1]), np.array([0]), "rope", 1.0)[0]
    reference = _quad_reference(alpha)
    assert reference[0] == pytest.approx(reference[2], rel=1e-9) and reference[0] < 1e-4
    exact = _row(bayesian_sign_comparison(tie, HIGHER, rope=0.0))
    assert exact["prob_a_better"] == pytest.approx(0.5, abs=1e-9)
    for seed in range(6):
        row = _row(bayesian_sign_comparison(tie, HIGHER, rope=0.0, method="sampling", rng=seed))
        assert row["label"] == "not_applicable" and np.isnan(row["prob_a_better"]), seed
        assert row["reason"] != ""


@pytest.mark.parametrize("prior", ["rope", "uniform", "neutral"])
def test_prior_placement(prior):
    # counts (a, e, b) = (2, 0, 1) with strength 3: the prior goes where `prior` says
    x = np.array([0.9, 0.9, 0.5])
    y = np.array([0.5, 0.5, 0.9])
    result = two_on_multiple(x, y, direction=HIGHER, rope=0.01, test="sign", prior=prior, prior_strength=3.0)
    share = {"rope": (0, 3, 0), "uniform": (1, 1, 1), "neutral": (1.5, 0, 1.5)}[prior]
    alpha = np.array([2, 0, 1]) + 1e-4 + np.array(share)
    np.testing.assert_allclose(_row(result)[MEANS].to_numpy(dtype=float), alpha / alpha.sum(), rtol=1e-15)


def test_progress_bar_on_request_only(capsys):
    x, y = _random_pair(71, 10, 0.0, 0.02)
    two_on_multiple(x, y, direction=HIGHER, rope=0.01, n_samples=3000, rng=1, progress=False)
    assert capsys.readouterr().err == ""
    two_on_multiple(x, y, direction=HIGHER, rope=0.01, n_samples=3000, rng=1, progress=True)
    assert "100%" in capsys.readouterr().err


def test_keep_draws_false_gives_the_same_probabilities():
    x, y = _random_pair(81, 15, 0.0, 0.02)
    kept = two_on_multiple(x, y, direction=HIGHER, rope=0.01, n_samples=5000, rng=3)
    dropped = two_on_multiple(x, y, direction=HIGHER, rope=0.01, n_samples=5000, rng=3, keep_draws=False)
    assert dropped.draws is None
    pd.testing.assert_frame_equal(kept.to_frame(), dropped.to_frame())


def test_signed_rank_does_not_depend_on_dataset_order():
    g = np.random.default_rng(4)
    values = np.round(g.uniform(0.7, 0.9, (15, 4)), 3)
    cube = score_cube(pd.DataFrame(values, columns=list("abcd")), metric="accuracy")
    shuffled = cube.isel(dataset=g.permutation(15), method=[2, 0, 3, 1])
    one = bayesian_signed_rank_comparison(cube, rng=5, n_samples=3000).to_frame()
    two = bayesian_signed_rank_comparison(shuffled, rng=5, n_samples=3000).to_frame()
    key = ["method_a", "method_b"]
    flip = two["method_a"] > two["method_b"]
    two.loc[flip, ["method_a", "method_b"]] = two.loc[flip, ["method_b", "method_a"]].to_numpy()
    two.loc[flip, ["prob_a_better", "prob_b_better"]] = two.loc[flip, ["prob_b_better", "prob_a_better"]].to_numpy()
    two.loc[flip, ["mean_a_better", "mean_b_better"]] = two.loc[flip, ["mean_b_better", "mean_a_better"]].to_numpy()
    one = one.sort_values(key).reset_index(drop=True)
    two = two.sort_values(key).reset_index(drop=True)
    for col in PROBS + MEANS:
        np.testing.assert_allclose(one[col], two[col], rtol=0, atol=1e-12, err_msg=col)


# --------------------------------------------------------------------------- bad input

@pytest.fixture
def small_cube():
    return _cube_with_a_disjoint_pair()


@pytest.mark.parametrize("kwargs,exc,text", [
    ({"n_samples": 0}, ValueError, "`n_samples` must be an integer >= 1"),
    ({"n_samples": 2.5}, TypeError, "`n_samples`"),
    ({"rope": -0.01}, ValueError, "`rope` must be a finite number >= 0"),
    ({"threshold": 0.5}, ValueError, r"`threshold` must lie in \(0.5, 1.0\)"),
    ({"threshold": 1.0}, ValueError, "`threshold`"),
    ({"threshold": 0.3}, ValueError, "`threshold`"),
    ({"prior_strength": 0}, ValueError, "`prior_strength` must be a finite number > 0; got 0"),
    ({"prior_strength": -1.0}, ValueError, "`prior_strength`"),
    ({"rng": np.random.default_rng(0), "reproduce": "baycomp"}, TypeError, "`rng` must be an int seed"),
    ({"reproduce": "scipy", "rng": 1}, ValueError, "`reproduce` must be one of"),
])
def test_bad_input_both_tests(small_cube, kwargs, exc, text):
    with pytest.raises(exc, match=text):
        bayesian_signed_rank_comparison(small_cube, **kwargs)
    with pytest.raises(exc, match=text):
        bayesian_sign_comparison(small_cube, method="sampling", **kwargs)


def test_bad_input_sign_only(small_cube):
    with pytest.raises(ValueError, match="`prior` must be one of"):
        bayesian_sign_comparison(small_cube, prior="left")
    with pytest.raises(ValueError, match="`method` must be one of"):
        bayesian_sign_comparison(small_cube, method="mc")
    with pytest.raises(ValueError, match="needs `method='sampling'`"):
        bayesian_sign_comparison(small_cube, reproduce="baycomp", rng=1)
    seeded = score_cube({"d1": {"a": [0.1, 0.2], "b": [0.3, 0.1]}}, metric="accuracy")
    with pytest.raises(ValueError, match="'seed' dim"):
        bayesian_sign_comparison(seeded)
    with pytest.raises(ValueError, match="hierarchical"):
        two_on_multiple(np.ones((3, 10)), np.ones((3, 10)), direction=HIGHER, rope=0.01)
    with pytest.raises(ValueError, match="same length"):
        two_on_multiple([0.1, 0.2], [0.1], direction=HIGHER, rope=0.01)
    with pytest.raises(ValueError, match="`test` must be one of"):
        two_on_multiple([0.1, 0.2], [0.1, 0.3], direction=HIGHER, rope=0.01, test="t")


def test_two_on_multiple_aligns_series():
    x = pd.Series([0.8, 0.7, 0.9], index=["d1", "d2", "d3"])
    y = pd.Series([0.85, 0.75], index=["d2", "d1"])
    with pytest.warns(mcda.MissingDataWarning, match=r"1 of 3 datasets .*: d3 \(q missing\)"):
        result = two_on_multiple(x, y, direction=HIGHER, rope=0.01, test="sign", method_names=("p", "q"))
    row = _row(result)
    assert (row["method_a"], row["method_b"], row["n_datasets"]) == ("p", "q", 2)


# --------------------------------------------------------------------------- the rope boundary in floats

def test_rounding_at_the_rope_is_equivalent_except_in_baycomp_mode():
    # 0.77 - 0.76 = 0.010000000000000009: an equivalence in mcda (pairwise_counts), a win in baycomp
    x = np.array([0.77, 0.68, 0.91, 0.55, 0.73, 0.64])
    y = np.array([0.76, 0.67, 0.90, 0.54, 0.75, 0.60])
    cube = result_cube(x, y)
    counts = mcda.pairwise_counts(cube, rope=0.01).to_frame().iloc[0]
    assert (counts["wins_a"], counts["n_equivalent"], counts["wins_b"]) == (1, 4, 1)
    exact = two_on_multiple(x, y, direction=HIGHER, rope=0.01, test="sign")
    alpha = np.array([1, 4, 1]) + 1e-4 + np.array([0, 1, 0])
    np.testing.assert_allclose(_row(exact)[MEANS].to_numpy(dtype=float), alpha / alpha.sum(), rtol=1e-15)
    reproduced = two_on_multiple(x, y, direction=HIGHER, rope=0.01, test="sign", method="sampling", rng=3,
                                 reproduce="baycomp")
    expected = baycomp.SignTest(x, y, 0.01, random_state=3)
    np.testing.assert_array_equal(reproduced.draws[("x", "y")], expected.sample)
    # signed-rank: pair sums at 2·rope up to rounding count half by default, exactly in baycomp's mode
    expected = baycomp.SignedRankTest(x, y, 0.01, random_state=3, nsamples=5000)
    reproduced = two_on_multiple(x, y, direction=HIGHER, rope=0.01, rng=3, reproduce="baycomp", n_samples=5000)
    np.testing.assert_allclose(reproduced.draws[("x", "y")], expected.sample, rtol=0, atol=1e-12)
    default = two_on_multiple(x, y, direction=HIGHER, rope=0.01, rng=3, n_samples=5000)
    z = np.r_[0.0, y - x]
    sums = z[:, None] + z[None, :]
    tol = 8 * np.finfo(float).eps * max(np.abs(x).max(), np.abs(y).max(), 0.02)
    near = np.abs(np.abs(sums) - 0.02) <= tol
    assert near.any() and not (np.abs(sums) == 0.02).any()  # the case is real
    weights = np.r_[0.5, np.ones(6)]
    total = weights.sum()
    second = (np.outer(weights, weights) + np.diag(weights)) / (total * (total + 1))  # E[w_i w_j]
    right = ((sums > 0.02 + tol) + 0.5 * (np.abs(sums - 0.02) <= tol))
    left = ((sums < -0.02 - tol) + 0.5 * (np.abs(sums + 0.02) <= tol))
    expected_mean = [np.sum(second * left), 0.0, np.sum(second * right)]
    expected_mean[1] = 1 - expected_mean[0] - expected_mean[2]
    np.testing.assert_allclose(_row(default)[MEANS].to_numpy(dtype=float), expected_mean, rtol=0, atol=1e-14)


def test_signed_rank_kernel_with_a_tolerance_band():
    from mcda._core._kernels.signed_rank import signed_rank_shares, sum_boundaries

    g = np.random.default_rng(12)
    z = np.r_[0.0, 0.77 - 0.76, 0.68 - 0.67, -(0.77 - 0.76), g.normal(0, 0.02, 9)]
    rope, tol = 0.01, 1e-15
    order = np.argsort(z, kind="mergesort")
    zs = z[order]
    r = sum_boundaries(zs, 2 * rope - tol, 2 * rope + tol)
    l_ = sum_boundaries(zs, -2 * rope - tol, -2 * rope + tol)
    weights = g.dirichlet(np.r_[0.5, np.ones(z.size - 1)], 200)
    out = np.empty((1, 200, 3))
    counts = np.zeros((1, 3), dtype=np.int64)
    as2 = lambda v: np.ascontiguousarray(v[None, :])  # noqa: E731
    signed_rank_shares(np.ascontiguousarray(weights.T), as2(order), as2(r[0]), as2(r[1]), as2(l_[0]), as2(l_[1]),
                       True, out, counts, 32)
    sums = z[:, None] + z[None, :]
    right_h = (sums > 2 * rope + tol) + 0.5 * (np.abs(sums - 2 * rope) <= tol)
    left_h = (sums < -2 * rope - tol) + 0.5 * (np.abs(sums + 2 * rope) <= tol)
    assert (np.abs(sums - 2 * rope) <= tol).any()
    np.testing.assert_allclose(out[0, :, 2], np.einsum("si,ij,sj->s", weights, right_h, weights), atol=1e-12)
    np.testing.assert_allclose(out[0, :, 0], np.einsum("si,ij,sj->s", weights, left_h, weights), atol=1e-12)
