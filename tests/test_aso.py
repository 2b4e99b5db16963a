"""Almost stochastic order over seeds (mcda.almost_stochastic_order), against deepsig and a plain integral.

Oracles:

- ``deepsig`` (Ulmer, Hardmeier & Frellsen 2022), run here on the same scores: its violation ratio on
  its own quantile grid, reproduced exactly by mcda's kernel given deepsig's grid; its ε_min with
  its own draws (``np.random.seed(seed + b)`` per resample), reproduced exactly; and ε_min with
  independent draws, within the Monte Carlo error of the bootstrap;
- a plain-Python integral of the two quantile step functions in exact rational arithmetic
  (``fractions``), for the violation ratio mcda integrates exactly;
- plain-Python resampling through the quantile function for the resampling kernel.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from deepsig import aso as deepsig_aso
from deepsig.aso import compute_violation_ratio as deepsig_violation_ratio

import mcda
from mcda._core.validation import McdaArgumentError
from mcda.stats.within import aso as aso_module

DT = 0.005  # deepsig's default differential of its quantile grid


def _plain_ratio(a, b) -> float:
    """ε_W of a against b: ∫ (G⁻¹ − F⁻¹)₊² / ∫ (G⁻¹ − F⁻¹)², F⁻¹(t) = a_(⌈nt⌉), summed exactly.

    The integrand is constant between consecutive points of {i/n} ∪ {j/m}; each piece is read at
    its midpoint, in rational arithmetic so that no breakpoint is misplaced by rounding.
    """
    a, b = sorted(a), sorted(b)
    n, m = len(a), len(b)
    cuts = sorted({Fraction(i, n) for i in range(n + 1)} | {Fraction(j, m) for j in range(m + 1)})
    total = violation = Fraction(0)
    for low, high in zip(cuts, cuts[1:]):
        t = (low + high) / 2
        d = Fraction(b[math.ceil(t * m) - 1]) - Fraction(a[math.ceil(t * n) - 1])
        total += (high - low) * d * d
        violation += (high - low) * d * d if d > 0 else 0
    return float(violation / total)


def _deepsig_grid(n, m):
    """deepsig's quadrature as segments: t = dt, 2dt, … < 1 (``np.arange(dt, 1, dt)``), each of weight dt,
    its quantile index ``clip(ceil(n t) - 1, 0, n - 1)``, and the first point left out of the numerator
    (``diff[1:]`` in ``deepsig.aso.compute_violation_ratio``)."""
    t = np.arange(DT, 1, DT)
    index_a = np.clip(np.ceil(n * t).astype(np.int64) - 1, 0, n - 1)
    index_b = np.clip(np.ceil(m * t).astype(np.int64) - 1, 0, m - 1)
    weight = np.full(t.size, DT)
    weight_violation = weight.copy()
    weight_violation[0] = 0.0
    return index_a, index_b, weight, weight_violation


def _cube(values: dict, dataset="d"):
    """A one-dataset cube of accuracy-like scores: {method: scores over seeds} (NaN-padded)."""
    s = max(len(v) for v in values.values())
    data = np.full((1, len(values), s), np.nan)
    for i, v in enumerate(values.values()):
        data[0, i, :len(v)] = v
    return mcda.score_cube(data, direction="higher_is_better", method_names=list(values), dataset_names=[dataset])


def _two_samples(seed=11, n=20, m=20, shift=0.3):
    gen = np.random.default_rng(seed)
    return gen.normal(0.0, 1.0, n), gen.normal(shift, 1.0, m)


# --------------------------------------------------------------------------- the violation ratio


@pytest.mark.parametrize("n,m", [(20, 20), (7, 12), (5, 3)])
def test_violation_ratio_is_the_exact_integral_of_the_quantile_functions(n, m):
    a, b = _two_samples(3, n, m, shift=0.2)
    res = mcda.almost_stochastic_order(_cube({"a": a, "b": b}), n_resamples=5, rng=0)
    row = res.to_frame().set_index(["method_a", "method_b"])
    assert row.loc[("a", "b"), "violation_ratio"] == pytest.approx(_plain_ratio(a, b), rel=1e-12)
    assert row.loc[("b", "a"), "violation_ratio"] == pytest.approx(_plain_ratio(b, a), rel=1e-12)


def test_exact_segments_cover_the_unit_interval_once():
    for n, m in [(1, 1), (3, 5), (20, 20), (6, 4)]:
        index_a, index_b, weight = aso_module.exact_segments(n, m)
        assert weight.sum() == pytest.approx(1.0, abs=1e-15)
        assert index_a.max() == n - 1 and index_b.max() == m - 1
        # the piece's midpoint lies in the a-step and b-step the indices name
        mid = np.cumsum(weight) - weight / 2
        np.testing.assert_array_equal(np.ceil(mid * n).astype(int) - 1, index_a)
        np.testing.assert_array_equal(np.ceil(mid * m).astype(int) - 1, index_b)


@pytest.mark.parametrize("n,m", [(20, 20), (10, 15)])
def test_violation_ratio_on_deepsigs_grid_is_deepsigs(n, m):
    a, b = _two_samples(5, n, m, shift=0.1)
    samples, counts = aso_module._dataset_samples(np.stack([_pad(a, max(n, m)), _pad(b, max(n, m))]), 0, 0)
    ratio = aso_module._ratios(samples, counts, np.array([0]), np.array([1]), np.zeros(1), segments=_deepsig_grid)
    assert ratio[0, 0] == pytest.approx(deepsig_violation_ratio(scores_a=a, scores_b=b, dt=DT), rel=1e-12)


def _pad(values, size):
    out = np.full(size, np.nan)
    out[:values.size] = values
    return out


# --------------------------------------------------------------------------- the kernels


def test_resampling_kernel_draws_through_the_quantile_function():
    from mcda._core._kernels.aso import resample_sorted

    gen = np.random.default_rng(2)
    values = np.sort(gen.normal(size=9))
    uniforms = gen.random((50, 9))
    uniforms[0, 0] = 0.0  # the left end maps to the smallest score
    got = resample_sorted(values, uniforms)
    for row, u in zip(got, uniforms):
        plain = sorted(values[min(max(math.ceil(9 * x) - 1, 0), 8)] for x in u)
        assert row.tolist() == plain


def test_ratio_kernel_matches_the_plain_integral_on_resampled_rows():
    gen = np.random.default_rng(8)
    a, b = np.sort(gen.normal(size=(6, 7)), axis=1), np.sort(gen.normal(0.2, 1, size=(6, 4)), axis=1)
    samples = np.zeros((2, 6, 7))
    samples[0], samples[1, :, :4] = a, b
    got = aso_module._ratios(samples, np.array([7, 4]), np.array([0]), np.array([1]), np.zeros(1))[0]
    np.testing.assert_allclose(got, [_plain_ratio(x, y) for x, y in zip(a, b)], rtol=1e-12)


# --------------------------------------------------------------------------- ε_min against deepsig


def _deepsig_uniforms(seed, n_resamples, n, m):
    """The uniforms deepsig's bootstrap iteration b draws: ``np.random.seed(seed + b)``, then n for A, m for B."""
    ua, ub = np.empty((n_resamples, n)), np.empty((n_resamples, m))
    for b in range(n_resamples):
        state = np.random.RandomState(seed + b + 1)
        ua[b], ub[b] = state.uniform(0, 1, n), state.uniform(0, 1, m)
    return ua, ub


@pytest.mark.parametrize("n,m,shift,level", [(20, 20, -0.3, 0.95), (12, 8, -0.6, 0.975)])
def test_epsilon_min_reproduces_deepsig_given_its_draws(n, m, shift, level):
    # deepsig.aso on the same scores and seed; mcda's pipeline fed deepsig's uniforms and grid gives
    # the same number to rounding (its estimator: ε_W + Φ⁻¹(level) · sd of the resampled ratios)
    a, b = _two_samples(21, n, m, shift)
    seed, resamples = 1234, 200
    expected = deepsig_aso(a, b, confidence_level=level, num_bootstrap_iterations=resamples, seed=seed,
                           show_progress=False)
    ua, ub = _deepsig_uniforms(seed, resamples, n, m)
    oriented = np.stack([_pad(a, max(n, m)), _pad(b, max(n, m))])
    samples, counts = aso_module._dataset_samples(oriented, resamples, 0, draws=lambda i, _: (ua, ub)[i])
    ratios = aso_module._ratios(samples, counts, np.array([0]), np.array([1]), np.zeros(1), segments=_deepsig_grid)
    _, _, upper, _ = aso_module._bounds(ratios, np.array([level]))
    assert upper[0] == pytest.approx(expected, rel=1e-10, abs=1e-12)
    assert 0.0 < expected < 1.0  # an informative case, not a clipped one


def test_epsilon_min_agrees_with_deepsig_within_monte_carlo_error():
    # Independent draws: the two bounds differ by (i) the quadrature (exact integral vs deepsig's grid),
    # measured here exactly on the observed scores, and (ii) the bootstrap's Monte Carlo error in the
    # standard deviation of the resampled ratios. The sd estimated from B resamples has a relative
    # standard error of about 1/sqrt(2B) (normal theory); the difference of two independent estimates
    # 1/sqrt(B); times z it is a Monte Carlo sd of z·se/sqrt(B) on ε_min. 4 of those, plus twice the
    # quadrature gap (it enters ε_W and, through the resamples, the sd), bounds the disagreement.
    a, b = _two_samples(33, 20, 20, shift=-0.35)
    resamples = 400
    expected = deepsig_aso(a, b, num_bootstrap_iterations=resamples, seed=7, show_progress=False)
    res = mcda.almost_stochastic_order(_cube({"a": a, "b": b}), n_resamples=resamples, rng=9)
    row = res.to_frame().set_index(["method_a", "method_b"]).loc[("a", "b")]
    quadrature = abs(row["violation_ratio"] - deepsig_violation_ratio(scores_a=a, scores_b=b, dt=DT))
    z = 1.6448536269514722  # Φ⁻¹(0.95), one pair: no adjustment
    tolerance = 4 * z * row["violation_ratio_se"] / math.sqrt(resamples) + 2 * quadrature
    assert 0.05 < expected < 0.95
    assert abs(row["epsilon_min"] - expected) <= tolerance


def test_bonferroni_level_is_one_minus_alpha_over_the_pairs():
    # three methods: m = 3 pairs per dataset; the bound of each is at 1 − 0.05/3. Checked against
    # deepsig.aso at that level (num_comparisons=1: deepsig's own adjustment, level + (1 − level)/m,
    # is not Bonferroni's for m > 2), with deepsig's draws and grid, so exactly.
    gen = np.random.default_rng(4)
    scores = {"x": gen.normal(0, 1, 10), "y": gen.normal(0.3, 1, 10), "z": gen.normal(0.1, 1.5, 10)}
    level = 1 - 0.05 / 3
    seed, resamples = 99, 100
    res = mcda.almost_stochastic_order(_cube(scores), n_resamples=50, rng=0)
    assert set(res.to_frame()["n_comparisons"]) == {3}
    for a_name, b_name in [("x", "y"), ("x", "z"), ("y", "z")]:
        a, b = scores[a_name], scores[b_name]
        expected = deepsig_aso(a, b, confidence_level=level, num_bootstrap_iterations=resamples, seed=seed,
                               show_progress=False)
        ua, ub = _deepsig_uniforms(seed, resamples, 10, 10)
        samples, counts = aso_module._dataset_samples(np.stack([a, b]), resamples, 0, draws=lambda i, _: (ua, ub)[i])
        ratios = aso_module._ratios(samples, counts, np.array([0]), np.array([1]), np.zeros(1),
                                    segments=_deepsig_grid)
        _, _, upper, _ = aso_module._bounds(ratios, np.array([level]))
        assert upper[0] == pytest.approx(expected, rel=1e-10, abs=1e-12)


# --------------------------------------------------------------------------- the result


def test_rows_decisions_and_symmetry():
    cube = mcda.datasets.synthetic(n_datasets=3, n_methods=4, n_seeds=15, effects=[0, 0.005, 0.02, 0.05], rng=3)
    res = mcda.almost_stochastic_order(cube, n_resamples=300, rng=1)
    table = res.to_frame()
    assert len(table) == 3 * 4 * 3
    assert (table["almost_dominates"] == (table["epsilon_min"] < res.threshold)).all()
    pairs = table.set_index(["dataset", "method_a", "method_b"])
    for (d, a, b), row in pairs.iterrows():
        back = pairs.loc[(d, b, a)]
        assert row["violation_ratio"] + back["violation_ratio"] == pytest.approx(1.0, abs=1e-12)
        assert row["violation_ratio_se"] == back["violation_ratio_se"]
    # the clearly best method (effect 0.05 against 0 with noise 0.01) dominates the worst on every dataset
    best = table[(table["method_a"] == "method_3") & (table["method_b"] == "method_0")]
    assert best["almost_dominates"].all() and (best["epsilon_min"] < 0.05).all()
    matrix = res.matrix(dataset="dataset_0")
    assert matrix.loc["method_3", "method_0"] == pairs.loc[("dataset_0", "method_3", "method_0"), "epsilon_min"]
    assert np.isnan(np.diag(matrix.to_numpy())).all()
    assert "epsilon_min" in res.summary() and "Bonferroni" in res.summary()


def test_same_rng_same_result_and_lower_is_better_turns_the_order():
    a, b = _two_samples(40, 12, 12, shift=0.5)
    cube = _cube({"a": a, "b": b})
    first = mcda.almost_stochastic_order(cube, n_resamples=200, rng=5).to_frame()
    again = mcda.almost_stochastic_order(cube, n_resamples=200, rng=5).to_frame()
    pd.testing.assert_frame_equal(first, again)
    errors = mcda.score_cube(cube.values, direction="lower_is_better", method_names=["a", "b"], dataset_names=["d"])
    turned = mcda.almost_stochastic_order(errors, n_resamples=200, rng=5).to_frame().set_index(["method_a", "method_b"])
    assert turned.loc[("a", "b"), "violation_ratio"] == pytest.approx(
        first.set_index(["method_a", "method_b"]).loc[("b", "a"), "violation_ratio"], abs=1e-12)


def test_too_few_seeds_and_identical_samples_are_nan_with_a_reason():
    cube = _cube({"one": [0.5], "a": [0.1, 0.2, 0.3], "same": [0.3, 0.1, 0.2], "b": [0.4, 0.5, 0.7]})
    table = mcda.almost_stochastic_order(cube, n_resamples=50, rng=0).to_frame().set_index(["method_a", "method_b"])
    assert np.isnan(table.loc[("one", "a"), "epsilon_min"]) and "1 seed" in table.loc[("one", "a"), "reason"]
    assert np.isnan(table.loc[("a", "same"), "epsilon_min"]) and "same quantile function" in table.loc[
        ("a", "same"), "reason"]
    assert table.loc[("b", "a"), "reason"] == "" and table.loc[("b", "a"), "violation_ratio"] == 0.0
    assert set(table["n_comparisons"]) == {2}  # the pairs with a value: a-b and same-b


@pytest.mark.parametrize("kwargs,text", [({"threshold": 0.6}, "`threshold` must lie in"),
                                         ({"adjust": "holm"}, "`adjust` must be one of"),
                                         ({"n_resamples": 0}, "`n_resamples` must be an integer"),
                                         ({"confidence_level": 1.0}, "`confidence_level` must lie in")])
def test_bad_arguments_are_refused_by_name(kwargs, text):
    with pytest.raises(McdaArgumentError, match=text):
        mcda.almost_stochastic_order(_cube({"a": [1.0, 2.0], "b": [2.0, 3.0]}), **kwargs)


def test_a_cube_without_seeds_is_refused():
    with pytest.raises(McdaArgumentError, match="no 'seed' dim"):
        mcda.almost_stochastic_order(mcda.datasets.load("demsar2006"))


# --------------------------------------------------------------------------- report and command line


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")  # the small design's own notes
def test_report_sentences_are_written_from_the_result_only_when_asked():
    cube = mcda.datasets.synthetic(n_datasets=2, n_methods=3, n_seeds=10, effects=[0, 0.004, 0.03], rng=0)
    plain = mcda.Report(cube, rng=7, n_resamples=500)
    assert "almost stochastic" not in plain.text() and "almost stochastic" not in plain.overview()
    report = mcda.Report(cube, rng=7, n_resamples=500, seed_distributions=True)
    result = report.almost_stochastic_order()
    assert result.n_resamples == 500 and result.confidence_level == report.confidence_level
    decided = result.to_frame()[result.to_frame()["almost_dominates"]]
    text = report.text()
    assert "@dror2019" in text and "@delbarrio2018" in text and "@ulmer2022" in text
    assert f"By almost stochastic order, {len(decided)} of {result.to_frame()['epsilon_min'].notna().sum()}" in text
    first = decided.iloc[0]
    assert f"on {first['dataset']}" in text.replace("\\_", "_") and f"{first['epsilon_min']:.3g}" in text
    assert f"{len(decided)} of" in report.overview() and "report.almost_stochastic_order()" in report.overview()
    with pytest.raises(McdaArgumentError, match="`seed_distributions`"):
        mcda.Report(mcda.datasets.load("demsar2006"), seed_distributions=True)


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")  # the small design's own notes
def test_the_command_line_prints_the_seed_distributions_on_request(tmp_path):
    import io

    from mcda.app.cli import main

    data = str(Path(__file__).parent / "data" / "user_benchmark" / "tidy_model_column.csv")
    out = io.StringIO()
    argv = ["compare", data, "--metric", "accuracy", "--rng", "0", "--no-figures", "--signed-rank", "never"]
    assert main([*argv, "--out", str(tmp_path / "a"), "--seed-distributions"], stdout=out, stderr=io.StringIO()) == 0
    assert "almost stochastic order of the seed distributions" in out.getvalue()
    assert "By almost stochastic order" in (tmp_path / "a" / "report.md").read_text(encoding="utf-8")
