"""Within a dataset, over seeds: intervals, paired tests, equivalence, power, design adequacy.

Reference numbers come from scipy (ttest_rel, wilcoxon, t, bootstrap), statsmodels
(multipletests, ttost_paired, TTestPower), Demšar (2006) Tables 2 and 5
(tests/data/demsar2006, see its PROVENANCE.md), and plain-Python re-implementations of the
bootstrap kernel's stream; never from mcda itself.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import mcda
from mcda._core._kernels import bootstrap as kernel

DATA = Path(__file__).parent / "data" / "demsar2006"
statsmodels = pytest.importorskip("statsmodels")
from statsmodels.stats.multitest import multipletests  # noqa: E402
from statsmodels.stats.power import TTestPower  # noqa: E402
from statsmodels.stats.weightstats import ttost_paired  # noqa: E402


def seed_cube(values, metric="accuracy", methods=None, datasets=None, **kwargs):
    """A cube from a datasets × methods × seeds array."""
    values = np.asarray(values, dtype=float)
    methods = methods or [f"m{j}" for j in range(values.shape[1])]
    datasets = datasets or [f"d{i}" for i in range(values.shape[0])]
    if metric is None:
        return mcda.score_cube(values, method_names=methods, dataset_names=datasets, **kwargs)
    return mcda.score_cube(values, metric=metric, method_names=methods, dataset_names=datasets, **kwargs)


def synthetic(n_datasets=4, n_methods=3, n_seeds=10, rng=0, **kwargs):
    return mcda.datasets.synthetic(n_datasets=n_datasets, n_methods=n_methods, n_seeds=n_seeds, rng=rng, **kwargs)


# --------------------------------------------------------------------------- summary: t interval


def test_t_interval_uses_student_quantile_with_n_minus_1_df():
    cube = synthetic(n_seeds=10)
    table = mcda.summary(cube).to_frame()
    ratio = (table["ci_high"] - table["mean"]) / table["sem"]
    # t_{0.975, 9} = 2.262 (any t table; scipy.stats.t.ppf(0.975, 9) = 2.2622), not 1.96
    np.testing.assert_allclose(ratio, 2.262, atol=5e-4)
    values = cube.values.reshape(-1, 10)
    for row, x in zip(table.itertuples(), values):
        low, high = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
        assert row.mean == pytest.approx(x.mean(), rel=1e-12)
        assert row.std == pytest.approx(np.std(x, ddof=1), rel=1e-12)
        assert row.ci_low == pytest.approx(low, rel=1e-12)
        assert row.ci_high == pytest.approx(high, rel=1e-12)


def test_t_interval_covers_true_mean_at_nominal_rate():
    rng = np.random.default_rng(2024)
    true_mean, n_cells, n_seeds = 0.7, 4000, 10
    values = true_mean + rng.normal(0.0, 0.02, size=(n_cells // 2, 2, n_seeds))
    table = mcda.summary(seed_cube(values, metric=None, direction="higher_is_better")).to_frame()
    covered = ((table["ci_low"] <= true_mean) & (true_mean <= table["ci_high"])).mean()
    # binomial error of the coverage estimate: sqrt(0.95 · 0.05 / 4000) = 0.0034; allow 4 of them
    assert abs(covered - 0.95) < 4 * math.sqrt(0.95 * 0.05 / n_cells)


def test_no_seed_and_one_seed_cells_get_nan_and_a_reason():
    scores = {"d": {"a": [0.8, 0.82, 0.81], "b": [0.7], "c": [np.nan, np.nan, np.nan]}}
    table = mcda.summary(scores, metric="accuracy").to_frame().set_index("method")
    assert table.loc["a", "n_seeds"] == 3 and table.loc["a", "reason"] == ""
    assert table.loc["b", "n_seeds"] == 1 and table.loc["b", "mean"] == 0.7
    assert np.isnan(table.loc["b", ["std", "sem", "ci_low", "ci_high"]].astype(float)).all()
    assert "1 seed" in table.loc["b", "reason"]
    assert table.loc["c", "n_seeds"] == 0
    assert np.isnan(table.loc["c", ["mean", "std", "ci_low", "ci_high"]].astype(float)).all()
    assert "no seed" in table.loc["c", "reason"]


def test_summary_notes_say_when_the_bootstrap_suits_the_metric_better():
    cube = synthetic()
    accuracy = mcda.summary(cube)
    assert any("bootstrap" in n and "bounded" in n for n in accuracy.notes)
    assert not any("suits it better" in n for n in mcda.summary(cube, ci_method="bootstrap", rng=0).notes)
    rmse = mcda.summary(seed_cube(np.random.default_rng(0).normal(1, 0.1, (2, 2, 5)), metric="rmse"))
    assert not any("suits it better" in n for n in rmse.notes)
    assert rmse.direction == "lower_is_better" and rmse.metric == "rmse"


def test_t_interval_past_the_bound_is_reported_not_clipped():
    scores = {"iris": {"a": [1.0] * 9 + [0.9], "b": [0.95] * 10}}
    res = mcda.summary(scores, metric="accuracy")
    row = res.to_frame().iloc[0]
    assert row["ci_high"] > 1.0
    assert any("beyond its range" in n for n in res.notes)
    assert repr(res) == "IntervalSummary\n" + res.summary() and "Interval summary" in res.summary()


# --------------------------------------------------------------------------- summary: bootstrap


@pytest.mark.parametrize("rng", [0, 1, 2, 3])
def test_bootstrap_of_nine_ones_and_one_point_nine_is_097_to_1(rng):
    # The resampled mean is 1 - 0.01 K with K ~ Binomial(10, 0.1): P(K >= 4) = 0.013 < 0.025 <
    # P(K >= 3) = 0.070, so the 2.5 % quantile is 0.97; P(K = 0) = 0.35 > 0.025 puts the 97.5 % at 1.
    scores = {"iris": {"a": [1.0] * 9 + [0.9], "b": [0.95] * 10}}
    row = mcda.summary(scores, metric="accuracy", ci_method="bootstrap", n_resamples=9999, rng=rng).to_frame().iloc[0]
    assert row["ci_low"] == pytest.approx(0.97, abs=1e-12)
    assert row["ci_high"] == pytest.approx(1.0, abs=1e-12)


def test_bootstrap_endpoints_within_monte_carlo_error_of_scipy():
    rng = np.random.default_rng(11)
    values = rng.gamma(2.0, 0.02, size=(3, 2, 10))  # skewed, so the interval is asymmetric
    table = mcda.summary(seed_cube(values, metric=None, direction="higher_is_better"), ci_method="bootstrap",
                         n_resamples=9999, rng=3).to_frame()
    for row, x in zip(table.itertuples(), values.reshape(-1, 10)):
        ref = stats.bootstrap((x,), np.mean, method="percentile", n_resamples=9999,
                              rng=np.random.default_rng(5)).confidence_interval
        # Monte Carlo sd of a 2.5 % percentile of 9999 means is ~0.03 bootstrap sd; two estimates
        # differ by ~0.04 sd, so 0.2 sd is five of those.
        tol = 0.2 * np.std(x, ddof=0) / math.sqrt(len(x))
        assert abs(row.ci_low - ref.low) < tol
        assert abs(row.ci_high - ref.high) < tol
        assert row.ci_low < row.mean < row.ci_high


def test_bootstrap_is_reproducible_and_each_cell_ignores_the_others():
    cube = synthetic(n_datasets=5, n_methods=3, n_seeds=7, rng=4)
    first = mcda.summary(cube, ci_method="bootstrap", n_resamples=999, rng=8).to_frame()
    again = mcda.summary(cube, ci_method="bootstrap", n_resamples=999, rng=np.random.default_rng(8)).to_frame()
    pd.testing.assert_frame_equal(first, again)
    other = mcda.summary(cube, ci_method="bootstrap", n_resamples=999, rng=9).to_frame()
    assert not np.allclose(first["ci_low"], other["ci_low"])
    part = mcda.summary(cube.isel(dataset=[3, 1], method=[2, 0]), ci_method="bootstrap", n_resamples=999,
                        rng=8).to_frame()
    merged = part.merge(first, on=["dataset", "method"], suffixes=("", "_all"))
    assert len(merged) == 4
    np.testing.assert_array_equal(merged["ci_low"], merged["ci_low_all"])
    np.testing.assert_array_equal(merged["ci_high"], merged["ci_high_all"])


def test_bootstrap_of_lower_is_better_metric_is_the_mirror_image():
    values = np.random.default_rng(1).gamma(2.0, 0.1, size=(2, 2, 9))
    up = mcda.summary(seed_cube(values, metric=None, direction="higher_is_better"), ci_method="bootstrap",
                      n_resamples=999, rng=2).to_frame()
    down = mcda.summary(seed_cube(-values, metric=None, direction="lower_is_better"), ci_method="bootstrap",
                        n_resamples=999, rng=2).to_frame()
    np.testing.assert_array_equal(up["ci_low"], -down["ci_high"])
    np.testing.assert_array_equal(up["ci_high"], -down["ci_low"])


# --------------------------------------------------------------------------- the kernel, against plain Python

_M64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


def _reference_key(cell: np.ndarray, base: int) -> int:
    key = base
    for bits in cell.view(np.uint64).tolist():
        key = _mix(key ^ bits)
    return _mix((key + _GOLDEN) & _M64)


def _reference_group_size(n: int) -> int:
    """Values per draw: g with n**g <= 4096 and fewest draws n // g + n % g (smaller g on ties)."""
    best, best_draws = 1, n
    for g in range(2, n + 1):
        if n**g > 4096:
            break
        if n // g + n % g < best_draws:
            best, best_draws = g, n // g + n % g
    return best


def _reference_means(cell: np.ndarray, key: int, n_resamples: int) -> np.ndarray:
    """The kernel's documented stream, in Python integers: SplitMix64 outputs split into 32-bit
    halves (low first); one draw of g values as an index into the n**g tuples (first value most
    significant), summed left to right; then n % g single values; the total divided by n."""
    def uniforms():
        state = key
        while True:
            state = (state + _GOLDEN) & _M64
            out = _mix(state)
            yield out & 0xFFFFFFFF
            yield out >> 32

    u = uniforms()
    x = cell.tolist()
    n = len(x)
    g = _reference_group_size(n)
    means = []
    for _ in range(n_resamples):
        total = 0.0
        for _ in range(n // g):
            index = (next(u) * n**g) >> 32
            digits = [(index // n**p) % n for p in range(g - 1, -1, -1)]
            tuple_sum = x[digits[0]]
            for d in digits[1:]:
                tuple_sum += x[d]
            total += tuple_sum
        for _ in range(n % g):
            total += x[(next(u) * n) >> 32]
        means.append(total / n)
    return np.array(means)


@pytest.mark.parametrize("n", [2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 64, 65, 80])
def test_kernel_stream_matches_the_python_reference_draw_for_draw(n):
    cell = np.round(np.random.default_rng(n).normal(size=n), 2)
    offsets = np.array([0, n], dtype=np.int64)
    base = 0x0123456789ABCDEF
    keys = kernel.cell_keys(cell.view(np.uint64), offsets, np.uint64(base))
    assert int(keys[0]) == _reference_key(cell, base)
    assert kernel.group_size(n) == _reference_group_size(n)
    means = _reference_means(cell, int(keys[0]), 301)
    np.testing.assert_array_equal(kernel.resampled_means(cell, keys[0], 301), means)
    probs = np.array([0.0, 0.025, 0.3, 0.5, 0.975, 1.0])
    np.testing.assert_array_equal(kernel.bootstrap_mean_quantiles(cell, offsets, keys, 301, probs)[0],
                                  np.quantile(means, probs))


def test_kernel_quantiles_equal_numpy_for_many_resamples_and_cells():
    rng = np.random.default_rng(5)
    sizes = np.array([1, 2, 5, 10, 10, 0, 3])
    flat = np.round(rng.normal(size=sizes.sum()), 1)  # coarse values: many tied means
    offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    keys = kernel.cell_keys(flat.view(np.uint64), offsets, np.uint64(99))
    probs = np.array([0.025, 0.975])
    out = kernel.bootstrap_mean_quantiles(flat, offsets, keys, 5000, probs)
    for c, size in enumerate(sizes):
        if size < 2:
            assert np.isnan(out[c]).all()
            continue
        cell = flat[offsets[c]:offsets[c + 1]]
        means = kernel.resampled_means(cell, keys[c], 5000)
        np.testing.assert_array_equal(out[c], np.quantile(means, probs))


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=1, max_size=700), st.integers(0, 10**6), st.booleans())
def test_selection_finds_numpy_order_statistics(values, where, adjacent):
    a = np.array(values, dtype=float)
    b = where % len(a)
    b1 = min(b + int(adjacent), len(a) - 1)
    ordered = np.sort(a)
    got = kernel._order_pair(a.copy(), b, b1, np.empty(min(256, len(a))), np.empty(len(a)))
    assert got == (ordered[b], ordered[b1])


# --------------------------------------------------------------------------- paired tests


def _pairs_frame(values):
    """(dataset, a, b) -> (x_a, x_b) on the seeds both have."""
    out = {}
    d, k, _ = values.shape
    for i in range(d):
        for a in range(k):
            for b in range(a + 1, k):
                both = ~np.isnan(values[i, a]) & ~np.isnan(values[i, b])
                out[(f"d{i}", f"m{a}", f"m{b}")] = (values[i, a][both], values[i, b][both])
    return out


def test_paired_t_p_values_equal_scipy_ttest_rel():
    rng = np.random.default_rng(7)
    values = 0.8 + rng.normal(0, 0.01, size=(3, 4, 12)) + np.array([0, 0.005, 0.01, 0.02])[None, :, None]
    values[0, 1, [2, 5]] = np.nan  # missing seeds: pairs use the seeds both have
    table = mcda.paired_tests(seed_cube(values)).to_frame()
    for row in table.itertuples():
        a, b = _pairs_frame(values)[(row.dataset, row.method_a, row.method_b)]
        ref = stats.ttest_rel(a, b)
        assert row.n_seeds == len(a)
        assert row.mean_diff == pytest.approx(np.mean(a - b), rel=1e-12)
        assert row.statistic == pytest.approx(ref.statistic, rel=1e-10)
        assert row.p_raw == pytest.approx(ref.pvalue, rel=1e-10)
        low, high = stats.t.interval(0.95, len(a) - 1, loc=np.mean(a - b), scale=stats.sem(a - b))
        assert (row.ci_low, row.ci_high) == (pytest.approx(low, rel=1e-10), pytest.approx(high, rel=1e-10))


@pytest.mark.parametrize("zero_method", ["wilcox", "pratt", "zsplit"])
def test_wilcoxon_p_values_equal_scipy(zero_method):
    rng = np.random.default_rng(3)
    values = 0.8 + rng.normal(0, 0.01, size=(3, 4, 9)) + np.array([0, 0.004, 0.01, 0.02])[None, :, None]
    values[1, 2, 0] = np.nan
    table = mcda.paired_tests(seed_cube(values), method="wilcoxon", zero_method=zero_method).to_frame()
    for row in table.itertuples():
        a, b = _pairs_frame(values)[(row.dataset, row.method_a, row.method_b)]
        ref = stats.wilcoxon(a, b, zero_method=zero_method)
        assert row.p_raw == pytest.approx(ref.pvalue, rel=1e-12)
        assert row.statistic == pytest.approx(ref.statistic, rel=1e-12)
        assert row.r_plus + row.r_minus == len(a) * (len(a) + 1) / 2


# n = 6 and 10: scipy's exact sign-flip (permutation) p; n = 16: its normal approximation. (scipy's
# own permutation loop takes seconds a row at n = 13, so the top of that range is not run here.)
@pytest.mark.parametrize("zero_method,n_seeds", [(z, n) for n in (6, 16) for z in ("wilcox", "pratt", "zsplit")]
                         + [("zsplit", 10)])
def test_wilcoxon_with_ties_and_zeros_equals_scipy_on_the_rounded_differences(zero_method, n_seeds):
    # scores printed to 2 decimals: ties and zero differences; scipy's p on the differences rounded
    # to 2 decimals (what the printed numbers mean) is the reference
    rng = np.random.default_rng(n_seeds)
    values = np.round(0.8 + rng.normal(0, 0.015, size=(3, 3, n_seeds)), 2)
    table = mcda.paired_tests(seed_cube(values), method="wilcoxon", zero_method=zero_method).to_frame()
    checked = 0
    for row in table.itertuples():
        a, b = _pairs_frame(values)[(row.dataset, row.method_a, row.method_b)]
        d = np.round(a - b, 2)
        if np.all(d == 0):
            assert np.isnan(row.p_raw) and "exactly 0" in row.reason
            continue
        ref = stats.wilcoxon(d, zero_method=zero_method)
        assert row.p_raw == pytest.approx(ref.pvalue, rel=1e-12)
        assert row.statistic == pytest.approx(ref.statistic, rel=1e-12)
        checked += 1
    assert checked >= 6


def test_holm_within_each_dataset_equals_statsmodels():
    cube = synthetic(n_datasets=3, n_methods=5, n_seeds=6, effects=[0, 0.002, 0.004, 0.01, 0.012], rng=1)
    table = mcda.paired_tests(cube).to_frame()
    for _, group in table.groupby("dataset"):
        reject, corrected, _, _ = multipletests(group["p_raw"], alpha=0.05, method="holm")
        np.testing.assert_allclose(group["p_holm"], corrected, rtol=1e-12)
        np.testing.assert_array_equal(group["significant"], reject)


def test_holm_family_is_the_dataset_not_the_sweep():
    cube = synthetic(n_datasets=6, n_methods=3, n_seeds=6, rng=2)
    many = mcda.paired_tests(cube).to_frame()
    first = many[many["dataset"] == "dataset_0"].reset_index(drop=True)
    alone = mcda.paired_tests(cube.isel(dataset=[0])).to_frame()
    np.testing.assert_allclose(first["p_holm"], alone["p_holm"], rtol=1e-12)


def test_demsar_table2_wilcoxon_signed_ranks():
    # Demšar (2006) Table 2: C4.5 vs C4.5+m over 14 datasets, differences rounded to 3 decimals
    # (PROVENANCE pitfall 3), zero differences split evenly: R+ = 93, R- = 12, T = 12.
    table = pd.read_csv(DATA / "demsar2006_table6_auc.csv")
    wide = table.pivot(index="dataset", columns="method", values="score")
    differences = np.round(wide["C4.5+m"] - wide["C4.5"], 3).to_numpy()
    ranks = mcda.wilcoxon_signed_ranks(differences, zero_method="zsplit")
    assert (ranks.r_plus, ranks.r_minus, ranks.statistic) == (93.0, 12.0, 12.0)
    assert ranks.n_zero == 2 and ranks.n == 14


def test_demsar_table2_through_paired_tests_needs_no_rounding():
    # The same 14 datasets read as 14 "seeds" of one comparison, straight from the printed AUCs:
    # the subtraction noise (0.768 - 0.763 vs 0.936 - 0.931) must not break the ties.
    table = pd.read_csv(DATA / "demsar2006_table6_auc.csv")
    table = table[table["method"].isin(["C4.5", "C4.5+m"])]
    tidy = pd.DataFrame({"dataset": "demsar", "method": table["method"], "seed": table["dataset"],
                         "score": table["score"]})
    row = mcda.paired_tests(tidy, method="wilcoxon", zero_method="zsplit", metric="auroc").to_frame().iloc[0]
    assert (row["method_a"], row["method_b"]) == ("C4.5", "C4.5+m")
    assert (row["r_plus"], row["r_minus"]) == (12.0, 93.0)  # a − b: C4.5+m is the better one
    wide = table.pivot(index="dataset", columns="method", values="score")
    ref = stats.wilcoxon(np.round(wide["C4.5"] - wide["C4.5+m"], 3), zero_method="zsplit")
    assert row["p_raw"] == pytest.approx(ref.pvalue, rel=1e-12)
    assert row["statistic"] <= 21  # Demšar: T = 12 <= 21, the exact critical value for N = 14 at 0.05


def test_every_difference_zero_gives_nan_and_a_reason_never_one():
    same = [0.8, 0.81, 0.79, 0.8]
    scores = {"d": {"a": same, "b": list(same), "c": [0.9, 0.91, 0.92, 0.9]}}
    for method in ("t", "wilcoxon"):
        table = mcda.paired_tests(scores, metric="accuracy", method=method).to_frame()
        row = table[(table["method_a"] == "a") & (table["method_b"] == "b")].iloc[0]
        assert np.isnan(row["p_raw"]) and np.isnan(row["p_holm"]) and not row["significant"]
        assert "exactly 0" in row["reason"]
        others = table[table["method_b"] == "c"]
        assert others["p_raw"].notna().all() and (others["reason"] == "").all()


def test_fewer_than_two_shared_seeds_gives_nan_and_the_count():
    tidy = pd.DataFrame({"dataset": "d", "method": ["a"] * 3 + ["b"] * 3,
                         "seed": [0, 1, 2, 2, 3, 4], "score": [0.8, 0.82, 0.81, 0.7, 0.71, 0.69]})
    for fn in (mcda.paired_tests, mcda.equivalence, mcda.power):
        with pytest.warns(mcda.UnpairedSeedsWarning, match="seed labels differ"):
            row = fn(tidy, metric="accuracy").to_frame().iloc[0]
        assert row["n_seeds"] == 1
        assert "only 1 shared seed" in row["reason"]


def test_pairs_are_aligned_by_seed_label():
    rng = np.random.default_rng(0)
    a, b = 0.8 + rng.normal(0, 0.01, 5), 0.79 + rng.normal(0, 0.01, 5)
    tidy = pd.DataFrame({"dataset": "d", "method": ["a"] * 5 + ["b"] * 5,
                         "seed": [0, 1, 2, 3, 4, 2, 3, 4, 5, 6], "score": np.concatenate([a, b])})
    with pytest.warns(mcda.UnpairedSeedsWarning, match="seed labels differ"):
        row = mcda.paired_tests(tidy, metric="accuracy").to_frame().iloc[0]
    ref = stats.ttest_rel(a[2:], b[:3])  # seeds 2, 3, 4
    assert row["n_seeds"] == 3
    assert row["p_raw"] == pytest.approx(ref.pvalue, rel=1e-12)


def test_constant_nonzero_difference_has_no_t_statistic():
    scores = {"d": {"a": [0.8, 0.9, 0.7], "b": [0.75, 0.85, 0.65]}}
    row = mcda.paired_tests(scores, direction="higher_is_better").to_frame().iloc[0]
    assert np.isnan(row["p_raw"]) and "no spread" in row["reason"]
    wil = mcda.paired_tests(scores, direction="higher_is_better", method="wilcoxon").to_frame().iloc[0]
    assert wil["p_raw"] == pytest.approx(stats.wilcoxon([0.05, 0.05, 0.05]).pvalue)
    # 0.4 - 0.3, 0.5 - 0.4, 0.6 - 0.5 differ in the last bits only: still one constant difference
    drift = {"d": {"a": [0.4, 0.5, 0.6], "b": [0.3, 0.4, 0.5]}}
    row = mcda.paired_tests(drift, direction="higher_is_better").to_frame().iloc[0]
    assert np.isnan(row["p_raw"]) and "equals 0.1 (no spread" in row["reason"]
    cell = mcda.summary({"d": {"a": [0.1] * 3, "b": [0.2, 0.3, 0.4]}}, direction="higher_is_better").to_frame()
    assert cell.loc[0, "std"] == 0.0 and cell.loc[0, "ci_low"] == cell.loc[0, "ci_high"]


def test_mean_diff_speaks_in_the_metrics_own_units_for_lower_is_better():
    scores = {"d": {"a": [0.10, 0.11, 0.12, 0.10], "b": [0.20, 0.22, 0.21, 0.20]}}
    row = mcda.paired_tests(scores, metric="rmse").to_frame().iloc[0]
    assert row["mean_diff"] == pytest.approx(-0.1, abs=1e-12)  # a − b < 0: a has the lower (better) error
    assert row["ci_high"] < 0 and row["statistic"] < 0


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, 6), st.integers(2, 8))
def test_holm_p_values_are_at_least_raw_and_at_most_one(seed, n_methods, n_seeds):
    values = np.round(0.8 + np.random.default_rng(seed).normal(0, 0.01, size=(2, n_methods, n_seeds)), 3)
    for method in ("t", "wilcoxon"):
        table = mcda.paired_tests(seed_cube(values), method=method).to_frame()
        ok = table["p_raw"].notna()
        assert (table.loc[ok, "p_holm"] >= table.loc[ok, "p_raw"] - 1e-15).all()
        assert ((table["p_raw"] >= 0) & (table["p_raw"] <= 1) | ~ok).all()
        assert (table.loc[ok, "p_holm"] <= 1).all()
        assert (table.loc[~ok, "reason"] != "").all()


# --------------------------------------------------------------------------- equivalence


def test_tost_equals_statsmodels_ttost_paired():
    rng = np.random.default_rng(12)
    values = 0.8 + rng.normal(0, 0.004, size=(2, 3, 15)) + np.array([0, 0.001, 0.02])[None, :, None]
    res = mcda.equivalence(seed_cube(values))
    assert res.margin == 0.01  # the accuracy card's noise floor
    for row in res.to_frame().itertuples():
        a, b = _pairs_frame(values)[(row.dataset, row.method_a, row.method_b)]
        p, (_, p_lower, _), (_, p_upper, _) = ttost_paired(a, b, -0.01, 0.01)
        assert row.p_tost == pytest.approx(p, rel=1e-10)
        assert row.p_lower == pytest.approx(p_lower, rel=1e-10)
        assert row.p_upper == pytest.approx(p_upper, rel=1e-10)
        assert row.equivalent == (p <= 0.05)
        inside = -0.01 < row.ci_low and row.ci_high < 0.01  # the 90 % interval TOST inverts
        assert inside == row.equivalent
    verdicts = set(res.to_frame()["verdict"])
    assert "equivalent" in verdicts and "different" in verdicts


def test_equivalence_margin_and_identical_rows():
    scores = {"d": {"a": [0.8, 0.81, 0.79], "b": [0.8, 0.81, 0.79], "c": [0.5, 0.52, 0.49]}}
    table = mcda.equivalence(scores, metric="accuracy", margin=0.05).to_frame().set_index(["method_a", "method_b"])
    assert table.loc[("a", "b"), "verdict"] == "identical" and np.isnan(table.loc[("a", "b"), "p_tost"])
    assert table.loc[("a", "c"), "verdict"] == "different"
    with pytest.raises(ValueError, match="`margin` is None"):
        mcda.equivalence(scores, direction="higher_is_better")
    with pytest.raises(ValueError, match="`margin` must be a finite number > 0"):
        mcda.equivalence(scores, metric="accuracy", margin=-0.1)


# --------------------------------------------------------------------------- power


def test_mde_observed_power_and_seeds_needed_agree_with_statsmodels():
    rng = np.random.default_rng(21)
    values = 0.8 + rng.normal(0, 0.01, size=(2, 3, 7)) + np.array([0, 0.004, 0.012])[None, :, None]
    res = mcda.power(seed_cube(values), alpha=0.05, target_power=0.8)
    analysis = TTestPower()
    for row in res.to_frame().itertuples():
        a, b = _pairs_frame(values)[(row.dataset, row.method_a, row.method_b)]
        d = a - b
        sd = np.std(d, ddof=1)
        assert row.sd_diff == pytest.approx(sd, rel=1e-12)
        assert row.effect_size == pytest.approx(np.mean(d) / sd, rel=1e-12)
        es = analysis.solve_power(effect_size=None, nobs=len(d), alpha=0.05, power=0.8, alternative="two-sided")
        assert row.mde == pytest.approx(es * sd, rel=1e-6)
        assert row.observed_power == pytest.approx(
            analysis.power(effect_size=abs(row.effect_size), nobs=len(d), alpha=0.05), rel=1e-10)
        nobs = analysis.solve_power(effect_size=abs(row.effect_size), nobs=None, alpha=0.05, power=0.8)
        assert row.seeds_needed == max(2, math.ceil(nobs - 1e-9))


def test_a_large_effect_needs_few_seeds_not_too_many_to_count():
    # d = a − b = (−0.10, −0.07): d̄/s_d = −4.0. statsmodels' TTestPower.solve_power gives
    # nobs = 2.72, so 3 seeds; scipy's nct.cdf(−t_crit, 3, 8.0) is NaN (the lower tail of a far
    # noncentral t), which must not turn into "too small to detect".
    scores = {"d": {"a": [0.10, 0.12], "b": [0.20, 0.19]}}
    row = mcda.power(scores, metric="rmse").to_frame().iloc[0]
    effect = abs(row["effect_size"])
    nobs = TTestPower().solve_power(effect_size=effect, nobs=None, alpha=0.05, power=0.8)
    assert row["seeds_needed"] == math.ceil(nobs) == 3 and row["reason"] == ""
    assert row["observed_power"] == pytest.approx(TTestPower().power(effect_size=effect, nobs=2, alpha=0.05),
                                                  rel=1e-10)
    # the MDE at n = 2 and n = 4 (where the bisection passes through large effects) against statsmodels
    for n in (2, 4):
        cube = synthetic(n_datasets=1, n_methods=2, n_seeds=n, rng=3)
        got = mcda.power(cube).to_frame().iloc[0]
        es = TTestPower().solve_power(effect_size=None, nobs=n, alpha=0.05, power=0.8, alternative="two-sided")
        assert got["mde"] == pytest.approx(es * got["sd_diff"], rel=1e-6)


def test_power_at_the_mde_is_the_target():
    res = mcda.power(synthetic(n_datasets=1, n_methods=2, n_seeds=5), target_power=0.9)
    row = res.to_frame().iloc[0]
    assert TTestPower().power(effect_size=row["mde"] / row["sd_diff"], nobs=5, alpha=0.05) == pytest.approx(0.9)


# --------------------------------------------------------------------------- design adequacy


def test_design_adequacy_q_and_cd_match_demsar_tables():
    table = pd.read_csv(DATA / "demsar2006_table5_critical_values.csv")
    for row in table[table["test"] == "nemenyi"].itertuples():
        got = mcda.design_adequacy(int(row.n_classifiers), 10, alpha=float(row.alpha)).q_alpha
        assert got == pytest.approx(row.q, abs=1.1e-3)  # printed to 3 decimals (PROVENANCE pitfall 4)
    # Demšar §3.2.4: k = 4, N = 14, alpha = 0.05: q = 2.569, CD = 1.25; alpha = 0.10: CD = 1.12
    assert mcda.design_adequacy(4, 14).critical_difference == pytest.approx(1.25, abs=5e-3)
    assert mcda.design_adequacy(4, 14, alpha=0.10).critical_difference == pytest.approx(1.12, abs=5e-3)


def test_design_adequacy_smallest_p_against_the_strictest_threshold():
    small = mcda.design_adequacy(10, 5)
    assert small.min_pvalue == 2 / 2**5 and small.strictest_threshold == pytest.approx(0.05 / 45)
    assert small.verdict == "inadequate" and not small.pairwise_possible
    # 2/2^N <= 0.05/45 first at N = 11 (2/2^10 = 0.00195 > 0.00111 >= 2/2^11 = 0.00098)
    assert small.min_datasets == 11
    assert mcda.design_adequacy(10, 11).pairwise_possible
    # the exact Wilcoxon null agrees: a clean sweep over N datasets has two-sided p = 2/2^N
    assert stats.wilcoxon(np.arange(1, 6), method="exact").pvalue == pytest.approx(2 / 2**5)
    big = mcda.design_adequacy(4, 14)
    assert big.verdict == "adequate" and "can show" in big.sentence
    frame = big.to_frame()
    assert len(frame) == 1 and frame.loc[0, "n_pairs"] == 6
    assert not mcda.design_adequacy(2, 3).nemenyi_possible  # CD = 1.96 √(1/3) = 1.13 > k − 1 = 1
    with pytest.raises(ValueError, match="`n_methods` must be an integer >= 2"):
        mcda.design_adequacy(1, 10)
    with pytest.raises(TypeError, match="`n_datasets`"):
        mcda.design_adequacy(3, 2.5)


# --------------------------------------------------------------------------- inputs


def test_a_cube_without_seeds_is_refused_clearly():
    cube = mcda.datasets.load("demsar2006")
    for fn in (mcda.summary, mcda.paired_tests, mcda.equivalence, mcda.power):
        with pytest.raises(ValueError, match="no 'seed' dim"):
            fn(cube)


def test_epoch_dim_must_be_selected_first():
    cube = synthetic(n_datasets=2, n_methods=2, n_seeds=3)
    stacked = mcda.score_cube(cube.expand_dims(epoch=[1, 2]).transpose("dataset", "method", "seed", "epoch"))
    with pytest.raises(ValueError, match="extra dims"):
        mcda.summary(stacked)


def test_a_metric_dim_gives_rows_per_metric_in_each_metrics_own_direction():
    rng = np.random.default_rng(0)
    acc = 0.8 + rng.normal(0, 0.01, size=(2, 3, 6))
    err = 0.3 + rng.normal(0, 0.01, size=(2, 3, 6))
    frames = [seed_cube(acc).to_dataframe(name="score").reset_index().assign(metric="accuracy"),
              seed_cube(err, metric="log_loss").to_dataframe(name="score").reset_index().assign(metric="log_loss")]
    cube = mcda.score_cube(pd.concat(frames)[["dataset", "method", "seed", "metric", "score"]])
    res = mcda.summary(cube)
    assert res.direction == {"accuracy": "higher_is_better", "log_loss": "lower_is_better"}
    table = res.to_frame()
    assert list(table.columns[:3]) == ["dataset", "method", "metric"] and len(table) == 12
    assert any("'log_loss' as heavy-tailed" in n for n in res.notes)
    paired = mcda.paired_tests(cube).to_frame()
    loss = paired[paired["metric"] == "log_loss"].iloc[0]
    a, b = err[0, 0], err[0, 1]
    assert loss["mean_diff"] == pytest.approx(np.mean(a - b), rel=1e-12)
    assert loss["p_raw"] == pytest.approx(stats.ttest_rel(a, b).pvalue, rel=1e-10)
    eq = mcda.equivalence(cube)
    assert eq.margin == {"accuracy": 0.01, "log_loss": 0.01}
    eq = mcda.equivalence(cube, margin={"accuracy": 0.02, "log_loss": 0.05})
    assert set(eq.to_frame()["margin"]) == {0.02, 0.05}


def test_a_card_without_a_floor_asks_for_a_margin():
    cube = seed_cube(np.random.default_rng(0).normal(1, 0.1, (1, 2, 5)), metric="rmse")
    with pytest.raises(ValueError, match="`margin` is None and the card for 'rmse' has noise floor 0.0"):
        mcda.equivalence(cube)
    assert mcda.equivalence(cube, margin=0.05).margin == 0.05
