"""The GSD-front (mcda.gsd_front, Jansen et al. 2024): its linear programs, front, test and robust test.

Reference values come from sources independent of mcda's linear programs:

- brute force: the same minimum from a linear program formulated afresh here (every R1 pair and
  every R2 pair of pairs enumerated by plain loops, nothing left out) solved by scipy's
  ``linprog``; for ordinal criteria alone, the minimum over the vertices of the order polytope
  (the indicator functions of up-sets, enumerated over all subsets);
- closed forms: one cardinal criterion on equally spaced values forces u to be linear, so the
  statistic is half the difference of means over the range.

The authors' own results (Gurobi, their R code) on the OpenML example are checked by
``benchmarks/check_gsd_authors.py --data DIR``, outside the tests: their tables may be read here
but not redistributed, so they are not in ``tests/data``.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from scipy.optimize import linprog

import mcda
from mcda.stats.gsd import _pvalue, gsd_statistic


# --------------------------------------------------------------------------- brute force
def _brute_force_lp(a, b, cardinal):
    """min_u Σ (n_a − n_b)/(n_a + n_b) u over the preference system, every constraint enumerated."""
    stacked = np.vstack([a, b])
    low, high = stacked.min(axis=0), stacked.max(axis=0)
    outcomes = []
    for row in [*stacked, low, high]:
        if not any(np.array_equal(row, o) for o in outcomes):
            outcomes.append(row)
    m = len(outcomes)
    find = lambda row: next(i for i, o in enumerate(outcomes) if np.array_equal(row, o))
    w = np.zeros(m)
    for row in a:
        w[find(row)] += 1
    for row in b:
        w[find(row)] -= 1
    w /= len(a) + len(b)
    rows = []
    r1 = [(x, y) for x in range(m) for y in range(m) if x != y and np.all(outcomes[x] >= outcomes[y])]
    for x, y in r1:                                     # u(y) - u(x) <= 0
        row = np.zeros(m)
        row[y] += 1
        row[x] -= 1
        rows.append(row)
    for (x, y), (z, v) in itertools.product(r1, r1):    # (x, y) R2 (z, v): u(z) - u(v) - u(x) + u(y) <= 0
        ok = True
        for c in range(len(cardinal)):
            if cardinal[c]:
                ok &= outcomes[x][c] - outcomes[y][c] >= outcomes[z][c] - outcomes[v][c]
            else:
                ok &= outcomes[y][c] <= outcomes[v][c] <= outcomes[z][c] <= outcomes[x][c]
        if ok:
            row = np.zeros(m)
            row[z] += 1
            row[v] -= 1
            row[x] -= 1
            row[y] += 1
            rows.append(row)
    bounds = [(0.0, 1.0)] * m
    bounds[find(low)] = (0.0, 0.0)
    bounds[find(high)] = (1.0, 1.0)
    res = linprog(w, A_ub=np.array(rows), b_ub=np.zeros(len(rows)), bounds=bounds, method="highs")
    assert res.status == 0
    return res.fun


def _up_set_minimum(a, b):
    """Ordinal criteria only: min over the up-sets U (top in U, bottom not) of Σ_{x in U} w_x."""
    stacked = np.vstack([a, b])
    low, high = stacked.min(axis=0), stacked.max(axis=0)
    outcomes = np.unique(np.vstack([stacked, low, high]), axis=0)
    index = lambda row: int(np.nonzero(np.all(outcomes == row, axis=1))[0][0])
    w = np.zeros(len(outcomes))
    for row in a:
        w[index(row)] += 1
    for row in b:
        w[index(row)] -= 1
    w /= len(a) + len(b)
    ge = np.all(outcomes[:, None, :] >= outcomes[None, :, :], axis=2)
    best = np.inf
    for mask in itertools.product([False, True], repeat=len(outcomes)):
        mask = np.array(mask)
        if not mask[index(high)] or mask[index(low)]:
            continue
        if np.any(mask[:, None] & ge.T & ~mask[None, :]):   # x in U, y >= x, y not in U: not an up-set
            continue
        best = min(best, float(w[mask].sum()))
    return best


@pytest.mark.parametrize("seed", range(8))
def test_the_lp_equals_a_brute_force_lp_over_every_constraint(seed):
    rng = np.random.default_rng(seed)
    n = 4
    # two cardinal criteria on a coarse grid (ties and equal differences happen) and one ordinal
    a = np.column_stack([rng.integers(0, 5, n) / 4, rng.integers(0, 4, n), rng.integers(0, 3, n)]).astype(float)
    b = np.column_stack([rng.integers(0, 5, n) / 4, rng.integers(0, 4, n), rng.integers(0, 3, n)]).astype(float)
    cardinal = [True, True, False]
    for x, y in ((a, b), (b, a)):
        assert gsd_statistic(x, y, cardinal=cardinal) == pytest.approx(_brute_force_lp(x, y, cardinal), abs=1e-9)


@pytest.mark.parametrize("seed", range(6))
def test_ordinal_criteria_alone_give_the_minimum_over_up_sets(seed):
    rng = np.random.default_rng(100 + seed)
    a = rng.integers(0, 3, size=(4, 2)).astype(float)
    b = rng.integers(0, 3, size=(4, 2)).astype(float)
    for x, y in ((a, b), (b, a)):
        assert gsd_statistic(x, y, cardinal=[False, False]) == pytest.approx(_up_set_minimum(x, y), abs=1e-9)


def test_one_cardinal_criterion_on_a_grid_is_half_the_mean_difference_over_the_range():
    # equally spaced values 0..3 force u(k + 1) - u(k) to be equal: u(x) = x / 3
    a = np.array([[3.0], [2.0], [2.0], [0.0]])
    b = np.array([[1.0], [1.0], [0.0], [3.0]])
    expected = (a.mean() - b.mean()) / 3 / 2
    assert gsd_statistic(a, b, cardinal=[True]) == pytest.approx(expected, abs=1e-12)
    assert gsd_statistic(b, a, cardinal=[True]) == pytest.approx(-expected, abs=1e-12)


# --------------------------------------------------------------------------- the front and the test
def _cube(values, methods, metrics=("accuracy", "runtime")):
    n = values.shape[0]
    data = xr.DataArray(values, dims=("dataset", "method", "metric"),
                        coords={"dataset": [f"d{i:02d}" for i in range(n)], "method": list(methods),
                                "metric": list(metrics)})
    return mcda.score_cube(data, metric={m: m for m in metrics})


def _three_methods(n=12, seed=0):
    rng = np.random.default_rng(seed)
    base = rng.uniform(0.6, 0.8, n)
    acc = np.column_stack([base + 0.1, base, base + 0.05])               # best, worst, mid
    time = np.column_stack([np.full(n, 1.0), np.full(n, 5.0), np.full(n, 0.5)]) * rng.uniform(1, 1.2, (n, 1))
    return _cube(np.stack([acc, time], axis=-1), ["best", "worst", "mid"])


def test_a_method_better_everywhere_dominates_and_the_front_drops_the_dominated():
    res = mcda.gsd_front(_three_methods(), candidates=[], rng=0)
    # best and mid trade accuracy against runtime; worst loses to both on every dataset and criterion
    assert res.front == ["best", "mid"]
    assert res.dominated_by["worst"] == ["best", "mid"]
    assert bool(res.dominates.loc["best", "worst"]) and not bool(res.dominates.loc["best", "mid"])
    assert res.statistics.loc["best", "worst"] >= 0 and res.statistics.loc["worst", "best"] < 0


def test_a_clear_front_member_gets_the_smallest_permutation_p_value():
    # worst never dominates best, and mid cannot either: every permuted statistic lies above the
    # observed one, so each p-value is its floor 1 / (n_resamples + 1) (the definition, by hand)
    res = mcda.gsd_front(_three_methods(n=16), candidates=["best"], n_resamples=39, rng=1)
    assert res.pvalues.loc["worst", "best"] == pytest.approx(1 / 40)
    assert res.front_pvalues["best"] == res.pvalues["best"].drop("best").max()
    assert res.significant == (["best"] if res.front_pvalues["best"] <= 0.05 else [])


def test_contamination_raises_the_p_values_and_the_tolerance_is_where_they_cross_alpha():
    cube = _three_methods(n=16)
    plain = mcda.gsd_front(cube, candidates=["best"], n_resamples=39, rng=1)
    robust = mcda.gsd_front(cube, candidates=["best"], n_resamples=39, rng=1, contamination=0.1)
    assert (robust.pvalues["best"].drop("best") >= plain.pvalues["best"].drop("best")).all()
    k = plain.tolerated_contamination["best"]
    if not np.isnan(k):
        at_k = mcda.gsd_front(cube, candidates=["best"], n_resamples=39, rng=1, contamination=k / 16)
        assert at_k.front_pvalues["best"] <= 0.05
        if k + 1 < 16:
            beyond = mcda.gsd_front(cube, candidates=["best"], n_resamples=39, rng=1, contamination=(k + 1) / 16)
            assert beyond.front_pvalues["best"] > 0.05


def test_the_p_value_counts_the_permutations_at_or_below_the_shifted_observation():
    permuted = np.array([-0.3, -0.2, -0.1, 0.0, 0.1])
    assert _pvalue(-0.15, permuted, 0.0) == pytest.approx((1 + 2) / 6)
    # γ = 0.05 shifts by 2γ/(1 − γ) = 0.10526...: -0.15 + 0.105 = -0.045 -> three at or below
    assert _pvalue(-0.15, permuted, 0.05) == pytest.approx((1 + 3) / 6)


def test_order_of_methods_and_datasets_changes_nothing():
    cube = _three_methods(n=10)
    res = mcda.gsd_front(cube, n_resamples=19, rng=5)
    shuffled = cube.isel(method=[2, 0, 1], dataset=np.random.default_rng(0).permutation(10))
    other = mcda.gsd_front(shuffled, n_resamples=19, rng=5)
    assert sorted(res.front) == sorted(other.front)
    pd.testing.assert_series_equal(res.front_pvalues.sort_index(), other.front_pvalues.sort_index())


def test_missing_results_drop_the_dataset_and_say_so():
    cube = _three_methods(n=10)
    values = cube.values.copy()
    values[3, 1, 0] = np.nan
    holed = cube.copy(data=values)
    with pytest.warns(mcda.McdaWarning, match="leaves out 1 dataset"):
        res = mcda.gsd_front(holed, candidates=[], rng=0)
    assert res.dropped_datasets == ["d03"] and res.n_datasets == 9
    assert "dropped datasets" in res.summary()


@pytest.mark.parametrize("kwargs, text", [
    ({"ordinal": ["speed"]}, "`ordinal`"),
    ({"candidates": ["nope"]}, "`candidates` names methods not among"),
    ({"contamination": 1.0}, "`contamination` must lie in"),
    ({"n_resamples": 0}, "`n_resamples` must be an integer >= 1"),
    ({"alpha": 0}, "`alpha` must lie in"),
])
def test_bad_arguments_name_the_argument_and_the_value(kwargs, text):
    with pytest.raises(ValueError, match=text):
        mcda.gsd_front(_three_methods(n=6), rng=0, **kwargs)


def test_scores_with_seeds_are_refused():
    cube = mcda.datasets.synthetic(n_datasets=4, n_methods=3, n_seeds=3, rng=0)
    with pytest.raises(ValueError, match="'seed' dim"):
        mcda.gsd_front(cube)


def test_the_summary_and_the_frame_come_from_the_result():
    res = mcda.gsd_front(_three_methods(n=12), n_resamples=19, rng=2)
    text = res.summary()
    assert "empirical GSD-front: best, mid" in text and "worst is strictly GSD-dominated by best, mid" in text
    frame = res.to_frame()
    assert frame.set_index("method")["in_front"].to_dict() == {"best": True, "worst": False, "mid": True}
    pairs = res.to_frame("pairs")
    assert len(pairs) == 6 and pairs["p_raw"].notna().sum() == 4   # best and mid tested, two competitors each


# --------------------------------------------------------------------------- the report and the command line
def test_report_of_several_metrics_writes_the_gsd_front_from_the_result():
    cube = mcda.datasets.synthetic_criteria(n_datasets=10, n_methods=4, rng=0)
    report = mcda.Report(cube, metric="accuracy", rng=5)
    res = report.gsd_front()
    assert res is report.gsd_front() and res.tested == [] and res.metrics == ["accuracy", "runtime", "memory_mb"]
    overview = report.overview()
    assert "== Statistical dominance across criteria: the GSD-front (Jansen et al. 2024)" in overview
    assert f"empirical GSD-front: {', '.join(res.front)}" in overview
    assert "report.gsd_front(candidates=[...])" in overview
    text = report.text()
    assert "generalized stochastic dominance (GSD) [@jansen2024gsd; @jansen2023robust]" in text
    assert f"The empirical GSD-front held {len(res.front)} of the 4 methods" in text
    assert "@inproceedings{jansen2024gsd" in text
    single = mcda.Report(cube.mcda.sel(metric="accuracy"), rng=5)
    assert "GSD-front" not in single.overview()
    with pytest.raises(ValueError, match="several metrics"):
        single.gsd_front()


# The sentences are read back against the result's own fields (no reference numbers: the test checks
# that the text states what the result holds, over a grid of tested methods, contamination and scales).
@pytest.mark.parametrize(("candidates", "contamination", "ordinal"), [
    ([], 0.0, None), (None, 0.0, None), (["best", "worst"], 0.1, ["runtime"]), (["mid"], 0.0, None)])
def test_the_methods_and_results_sentences_state_the_result(candidates, contamination, ordinal):
    from mcda.present.writeup import gsd_methods, gsd_results

    res = mcda.gsd_front(_three_methods(n=12), candidates=candidates, contamination=contamination, ordinal=ordinal,
                         n_resamples=19, rng=4)
    methods = gsd_methods(res, "[@jansen2024gsd]")
    assert f"over the {res.n_datasets} datasets on the 2 criteria" in methods
    for m in res.metrics:
        assert f"{m} ({'ordinal' if m in res.ordinal else 'cardinal'})" in methods
    assert ("permutation test" in methods) == bool(res.tested)
    assert ("2γ/(1 − γ)" in methods) == (bool(res.tested) and contamination > 0)
    results = gsd_results(res)
    assert f"held {len(res.front)} of the 3 methods ({'; '.join(res.front)})" in results
    for m in res.methods:
        if res.dominated_by[m]:
            assert f"{m} was strictly dominated by {', '.join(res.dominated_by[m])}" in results
    for m in res.tested:
        assert f"{m} (p = {res.front_pvalues[m]:.3g}" in results
        part = results.split("not shown to be:")
        assert (m in part[0].split("at α")[1]) == (res.front_pvalues[m] <= res.alpha)


def test_compare_on_a_multi_metric_file_writes_the_gsd_front(tmp_path):
    import io

    from mcda.app.cli import main

    cube = mcda.datasets.synthetic_criteria(n_datasets=8, n_methods=4, rng=1)
    path = tmp_path / "tradeoffs.csv"
    cube.to_dataframe(name="score").reset_index()[["dataset", "method", "metric", "score"]].to_csv(path, index=False)
    out = io.StringIO()
    code = main(["compare", str(path), "--metric", "accuracy", "--out", str(tmp_path / "out"), "--rng", "3",
                 "--figures", "gsd_front", "--jobs", "1"], stdout=out)
    assert code == 0
    assert "== Statistical dominance across criteria: the GSD-front" in out.getvalue()
    assert "== Several criteria under uncertainty: SMAA-2" in out.getvalue()   # a multi-metric file gets both
    assert "GSD-front" in (tmp_path / "out" / "report.md").read_text()
    assert (tmp_path / "out" / "gsd_front.png").exists()


# --------------------------------------------------------------------------- the figure
def test_the_figure_draws_the_front_on_top_and_the_covering_pairs():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from mcda.present.plots.gsd import gsd_edges, gsd_levels, gsd_positions, plot_gsd_front

    res = mcda.gsd_front(_three_methods(n=12), candidates=["best"], n_resamples=19, rng=0)
    # by hand from the relation: best and mid are the front, worst lies below both
    assert gsd_levels(res) == {"best": 0, "worst": 1, "mid": 0}
    assert sorted(gsd_edges(res)) == [("best", "worst"), ("mid", "worst")]
    assert gsd_positions(res) == {"best": (0.0, 0.0), "worst": (0.5, -1.0), "mid": (1.0, 0.0)}
    fig, ax = plot_gsd_front(res)
    assert sorted(t.get_text() for t in ax.texts if t.get_gid() == "node_label") == ["best", "mid", "worst"]
    assert len([p for p in ax.patches if p.get_gid() == "dominance_edge"]) == 2
    assert [t.get_text() for t in ax.texts if t.get_gid() == "front_pvalue"] == [f"p = {res.front_pvalues['best']:.2g}"]
    plt.close(fig)
    report = mcda.Report(mcda.datasets.synthetic_criteria(n_datasets=8, n_methods=3, rng=0), metric="accuracy")
    fig, ax = report.plot_gsd_front()
    assert len([t for t in ax.texts if t.get_gid() == "node_label"]) == 3
    plt.close(fig)


def test_work_past_the_compute_limit_is_refused_before_any_linear_program():
    from mcda._core.options import ComputeLimitError

    with mcda.set_options(compute_limit=1e-3):
        with pytest.raises(ComputeLimitError, match="Name fewer `candidates`") as info:
            mcda.gsd_front(_three_methods(n=12), n_resamples=50)
    assert info.value.argument == "candidates" and "linear programs" in str(info.value)


def test_the_permutation_test_holds_its_level_when_the_two_methods_are_exchangeable():
    # brute force by simulation: two methods drawn from one distribution (the boundary of the null
    # "the competitor dominates"), 200 benchmarks; the share of p <= 0.1 must not exceed 0.1 beyond
    # its Monte Carlo error (3 binomial standard errors: 0.064)
    rng = np.random.default_rng(11)
    rejections = 0
    for _ in range(200):
        values = np.stack([rng.integers(0, 6, size=(6, 2)) / 5, rng.integers(0, 3, size=(6, 2))], axis=-1)
        res = mcda.gsd_front(_cube(values.astype(float), ["a", "b"]), ordinal=["runtime"], candidates=["a"],
                             n_resamples=19, rng=rng)
        rejections += res.front_pvalues["a"] <= 0.1
    assert rejections / 200 <= 0.1 + 3 * (0.1 * 0.9 / 200) ** 0.5
