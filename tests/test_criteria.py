"""Tests of mcda.stats.criteria: practical dominance, the Pareto front, PROMETHEE II, weight stability.

References are independent of the code under test: brute-force loops written here (the
definitions, one dataset and one pair at a time), ``scipy.stats.binomtest`` for the sign test,
``mcda.stats.pairwise.pairwise_counts`` for the one-criterion case, the binomial order-statistic
interval of the median (Conover 1999, §3.2), the peer package pymcdm (PROMETHEE II, run in the
test when it is installed) and the published conclusion of Duò et al. (2018).
"""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import mcda
from mcda.data.cards import MetricCard
from mcda.stats.criteria import (_simplex_grid, compare_criteria, practical_dominance, promethee, weight_stability)

SETTINGS = settings(max_examples=40, deadline=None)


# --------------------------------------------------------------------------- helpers


# duo2018_all lacks SAFE's and ascend's results on some datasets: PROMETHEE's complete design
# excludes them and says so, which these tests expect (the suite runs with warnings as errors)
EXCLUDED = r"method\(s\) excluded from the outranking"


def expect_excluded(function, *args, **kwargs):
    with pytest.warns(mcda.MissingDataWarning, match=EXCLUDED):
        return function(*args, **kwargs)


def make_cube(values, directions, floors, *, methods=None, datasets=None) -> xr.DataArray:
    """A cube with a metric dim from raw scores (n, k, m) in each metric's own direction."""
    values = np.asarray(values, dtype=float)
    n, k, m = values.shape
    labels = [f"c{c}" for c in range(m)]
    cards = {lab: MetricCard(name=f"test_criterion_{lab}", direction=d, noise_floor=float(f))
             for lab, d, f in zip(labels, directions, floors)}
    da = xr.DataArray(values, dims=("dataset", "method", "metric"),
                      coords={"dataset": datasets or [f"d{i}" for i in range(n)],
                              "method": methods or [f"m{j}" for j in range(k)], "metric": labels})
    return mcda.score_cube(da, metric=cards)


def oriented(values, directions):
    signs = np.array([1.0 if d == "higher_is_better" else -1.0 for d in directions])
    return np.asarray(values, dtype=float) * signs


DIRECTION = st.sampled_from(["higher_is_better", "lower_is_better"])


@st.composite
def problems(draw, *, max_criteria=3, with_missing=True, max_floor=3):
    """Integer-valued scores (exact differences), integer floors, random directions and NaN cells."""
    n = draw(st.integers(1, 7))
    k = draw(st.integers(2, 5))
    m = draw(st.integers(1, max_criteria))
    values = np.array(draw(st.lists(st.integers(0, 12), min_size=n * k * m, max_size=n * k * m)),
                      dtype=float).reshape(n, k, m)
    if with_missing and draw(st.booleans()):
        mask = np.array(draw(st.lists(st.booleans(), min_size=n * k, max_size=n * k))).reshape(n, k)
        mask &= np.array(draw(st.lists(st.integers(0, 3), min_size=n * k, max_size=n * k))).reshape(n, k) == 0
        cells = values.copy()
        cells[mask] = np.nan
        values = cells
    directions = [draw(DIRECTION) for _ in range(m)]
    floors = [draw(st.integers(0, max_floor)) for _ in range(m)]
    return values, directions, floors


def brute_force_dominance(values, directions, floors):
    """Practical dominance counts by the definition, one dataset and one pair at a time."""
    x = oriented(values, directions)
    n, k, m = x.shape
    dom = np.zeros((k, k), dtype=int)
    shared = np.zeros((k, k), dtype=int)
    for d in range(n):
        for a in range(k):
            for b in range(k):
                if a == b or np.isnan(x[d, a]).any() or np.isnan(x[d, b]).any():
                    continue
                shared[a, b] += 1
                worse = any(x[d, b, c] - x[d, a, c] > floors[c] for c in range(m))
                better = any(x[d, a, c] - x[d, b, c] > floors[c] for c in range(m))
                dom[a, b] += int(better and not worse)
    return dom, shared


def brute_force_promethee(values, directions, q, p, weights):
    """PROMETHEE II by the definition (Brans & Vincke 1985): mean over datasets of the net flows."""
    x = oriented(values, directions)
    n, k, m = x.shape

    def pref(d, c):
        if d <= q[c]:
            return 0.0
        if p[c] is None:
            return 1.0
        return min(1.0, (d - q[c]) / (p[c] - q[c]))

    net = np.zeros((n, k))
    for i in range(n):
        for a in range(k):
            total = 0.0
            for b in range(k):
                if a == b:
                    continue
                for c in range(m):
                    total += weights[c] * (pref(x[i, a, c] - x[i, b, c], c) - pref(x[i, b, c] - x[i, a, c], c))
            net[i, a] = total / (k - 1)
    return net.mean(axis=0), net


# --------------------------------------------------------------------------- per criterion

def test_compare_criteria_runs_each_procedure_on_each_metric():
    cube = mcda.datasets.load("duo2018_all")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mcda.McdaWarning)
        both = compare_criteria(cube, metrics=["ARI", "elapsed"], rope={"elapsed": 1.0})
        for metric, card, rope in (("ARI", "ari", 0.01), ("elapsed", "runtime", 1.0)):
            single = mcda.score_cube(cube.sel(metric=metric, drop=True).reset_coords(drop=True),
                                     metric=card)
            across = mcda.compare_over_datasets(single)
            pd.testing.assert_series_equal(both.across[metric].mean_ranks, across.mean_ranks)
            assert both.across[metric].groups == across.groups
            sup = mcda.pairwise_superiority(single, rope=rope, adjust="holm")
            pd.testing.assert_frame_equal(both.superiority[metric].to_frame(), sup.to_frame())
    table = both.to_frame()
    assert list(table.columns) == ["metric", "method", "mean_rank", "n_separated", "friedman_pvalue", "standing",
                                   "n_superior", "n_inferior"]
    assert len(table) == 2 * 14 and table.loc[table["method"] == "SAFE", "mean_rank"].isna().all()
    pairs = both.to_frame("pairs")
    assert len(pairs) == 2 * 91 and pairs.columns[0] == "metric"
    assert list(both.noise_floors) == [0.01, 1.0]
    with pytest.raises(ValueError, match="`view` must be one of"):
        both.to_frame("cells")


def test_compare_criteria_refuses_seeds():
    with pytest.raises(ValueError, match="reduce_seeds"):
        compare_criteria(mcda.datasets.synthetic(n_datasets=4, n_methods=3, n_seeds=2, rng=0))


# --------------------------------------------------------------------------- practical dominance

@SETTINGS
@given(problems())
def test_dominance_matches_the_definition(problem):
    values, directions, floors = problem
    res = practical_dominance(make_cube(values, directions, floors))
    dom, shared = brute_force_dominance(values, directions, floors)
    off = ~np.eye(dom.shape[0], dtype=bool)
    np.testing.assert_array_equal(res.dominates.to_numpy()[off], dom[off])
    np.testing.assert_array_equal(res.n_shared.to_numpy()[off], shared[off])
    # the front: no other method dominates on a strict majority of shared datasets
    k = dom.shape[0]
    front = [f"m{j}" for j in range(k) if not any(2 * dom[i, j] > shared[i, j] for i in range(k) if i != j)]
    assert res.front == front
    frame = res.to_frame()
    assert (frame["a_dominates"] + frame["b_dominates"] + frame["n_equivalent"] + frame["trade_off"]
            == frame["n_datasets"]).all()
    assert (frame["trade_off"] >= 0).all()


@SETTINGS
@given(problems(), st.data())
def test_a_method_better_on_every_criterion_beyond_every_floor_is_never_dominated(problem, data):
    values, directions, floors = problem
    x = oriented(values, directions)
    k = x.shape[1]
    star = data.draw(st.integers(0, k - 1))
    others = np.delete(x, star, axis=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        best_other = np.nanmax(others, axis=1)  # (n, m); NaN where every other method is missing
    best_other = np.where(np.isnan(best_other), 0.0, best_other)
    margin = np.asarray(floors, dtype=float) + data.draw(st.integers(1, 3))
    x[:, star, :] = best_other + margin
    signs = oriented(np.ones(len(directions)), directions)
    cube = make_cube(x * signs, directions, floors)
    res = practical_dominance(cube)
    name = f"m{star}"
    assert (res.dominates[name].drop(name) == 0).all()
    assert name in res.front
    # and it dominates every other method wherever both have results
    np.testing.assert_array_equal(res.dominates.loc[name].drop(name), res.n_shared.loc[name].drop(name))


@SETTINGS
@given(problems(max_criteria=1))
def test_with_one_criterion_dominance_is_superiority_at_the_noise_floor(problem):
    values, directions, floors = problem
    res = practical_dominance(make_cube(values, directions, floors))
    # reference: mcda.stats.pairwise.pairwise_counts on the single-metric cube, rope = the floor
    card = MetricCard(name="test_single", direction=directions[0], noise_floor=float(floors[0]))
    single = mcda.score_cube(values[:, :, 0], metric=card, method_names=res.methods)
    with warnings.catch_warnings():  # a drawn dataset may have no result at all (named, then left out)
        warnings.simplefilter("ignore", mcda.MissingDataWarning)
        counts = mcda.pairwise_counts(single, rope=float(floors[0]))
    off = ~np.eye(len(res.methods), dtype=bool)
    np.testing.assert_array_equal(res.dominates.to_numpy()[off], counts.wins.to_numpy()[off])
    np.testing.assert_array_equal(res.n_equivalent.to_numpy()[off], counts.n_equivalent.to_numpy()[off])
    np.testing.assert_array_equal(res.n_shared.to_numpy()[off], counts.n_shared.to_numpy()[off])
    assert (res.to_frame()["trade_off"] == 0).all()


@SETTINGS
@given(problems(), st.data())
def test_reversing_a_criterion_with_its_card_changes_nothing(problem, data):
    values, directions, floors = problem
    c = data.draw(st.integers(0, len(directions) - 1))
    flipped_values = values.copy()
    flipped_values[:, :, c] = -flipped_values[:, :, c]
    flipped_directions = list(directions)
    flipped_directions[c] = "lower_is_better" if directions[c] == "higher_is_better" else "higher_is_better"
    cube, flipped = make_cube(values, directions, floors), make_cube(flipped_values, flipped_directions, floors)

    a, b = practical_dominance(cube), practical_dominance(flipped)
    pd.testing.assert_frame_equal(a.to_frame(), b.to_frame())
    assert a.front == b.front
    sa, sb = a.criterion_summary, b.criterion_summary
    rows = sa["metric"] == f"c{c}"
    pd.testing.assert_series_equal(sa.loc[rows, "median"], -sb.loc[rows, "median"])
    pd.testing.assert_series_equal(sa.loc[rows, "ci_low"], -sb.loc[rows, "ci_high"], check_names=False)
    pd.testing.assert_frame_equal(sa.loc[~rows], sb.loc[~rows])

    if practical_complete(values):
        weights = {f"c{i}": w for i, w in enumerate(data.draw(
            st.lists(st.integers(1, 5), min_size=len(directions), max_size=len(directions))))}
        with warnings.catch_warnings():  # drawn data may lack cells: the exclusion warning is not the point here
            warnings.simplefilter("ignore", mcda.MissingDataWarning)
            pa, pb = promethee(cube, weights=weights), promethee(flipped, weights=weights)
            wa, wb = weight_stability(cube, n_steps=4), weight_stability(flipped, n_steps=4)
        pd.testing.assert_frame_equal(pa.to_frame(), pb.to_frame())
        pd.testing.assert_frame_equal(wa.to_frame(), wb.to_frame())


def practical_complete(values) -> bool:
    """At least 2 methods with every result: PROMETHEE's complete design is not empty."""
    return int((~np.isnan(values).any(axis=(0, 2))).sum()) >= 2


def test_sign_test_is_scipy_binomtest():
    cube = mcda.datasets.load("duo2018_all").sel(metric=["ARI", "elapsed"])
    res = practical_dominance(cube)
    for row in res.to_frame().itertuples():
        n = row.a_dominates + row.b_dominates
        if n == 0:
            assert math.isnan(row.p_raw) and row.reason
        else:
            assert row.p_raw == pytest.approx(stats.binomtest(row.a_dominates, n, 0.5).pvalue, rel=1e-12)


def test_near_ties_within_the_floor_never_dominate():
    # 0.77 - 0.76 is 0.010000000000000009 in floating point: at the ARI floor of 0.01, a near-tie
    ari = np.array([[[0.77, 5.0], [0.76, 5.0]]])
    cube = make_cube(ari, ["higher_is_better", "lower_is_better"], [0.01, 0.1])
    res = practical_dominance(cube)
    assert res.dominates.to_numpy().sum() == 0
    assert res.n_equivalent.loc["m0", "m1"] == 1
    assert res.front == ["m0", "m1"]
    flows = promethee(cube)
    np.testing.assert_array_equal(flows.net_flow.to_numpy(), [0.0, 0.0])
    assert flows.top == ["m0", "m1"]


def test_missing_cells_are_dropped_pairwise_and_counted():
    values = np.array([[[1.0, 1.0], [0.0, 2.0], [np.nan, 0.0]],
                       [[1.0, 1.0], [0.0, 2.0], [2.0, 0.0]],
                       [[1.0, 1.0], [0.0, 2.0], [2.0, 0.0]]])
    cube = make_cube(values, ["higher_is_better", "lower_is_better"], [0.0, 0.0])
    res = practical_dominance(cube)
    assert res.n_shared.loc["m0", "m2"] == 2 and res.n_shared.loc["m0", "m1"] == 3
    assert res.dominates.loc["m0", "m1"] == 3 and res.dominates.loc["m2", "m0"] == 2
    assert res.front == ["m2"]
    assert res.dominated_by == {"m0": ["m2"], "m1": ["m0", "m2"], "m2": []}


def test_criterion_summary_is_the_order_statistic_interval_of_the_median():
    cube = mcda.datasets.load("duo2018_all").sel(metric=["ARI", "elapsed"])
    res = practical_dominance(cube, confidence_level=0.95)
    summary = res.criterion_summary.set_index(["metric", "method"])
    for (metric, method), row in summary.iterrows():
        x = np.sort(cube.sel({"metric": metric, "method": method}).values)
        x = x[~np.isnan(x)]
        n = x.size
        # Conover (1999, §3.2): [x_(r), x_(n+1-r)] with r the largest such that P(B <= r - 1) <= alpha/2
        r = max((j for j in range(1, n // 2 + 1) if stats.binom.cdf(j - 1, n, 0.5) <= 0.025), default=0)
        assert row["n_datasets"] == n and row["median"] == pytest.approx(np.median(x))
        if r == 0:
            assert math.isnan(row["ci_low"]) and math.isnan(row["ci_high"])
        else:
            assert (row["ci_low"], row["ci_high"]) == (x[r - 1], x[n - r])
        # and scipy's exact interval for a quantile
        ci = stats.quantile_test(x, q=float(np.median(x)), p=0.5).confidence_interval(0.95)
        np.testing.assert_array_equal([row["ci_low"], row["ci_high"]], [ci.low, ci.high])


@pytest.mark.parametrize("n", [1, 5, 6, 7, 12, 30, 101])
@pytest.mark.parametrize("level", [0.8, 0.9, 0.95, 0.99])
def test_median_interval_is_scipys_quantile_interval(n, level):
    values = np.random.default_rng(n).permutation(np.arange(float(n)))
    cube = make_cube(np.stack([values, -values], axis=1)[:, :, None], ["higher_is_better"], [0])
    res = practical_dominance(cube, confidence_level=level)
    ci = stats.quantile_test(values, q=float(np.median(values)), p=0.5).confidence_interval(level)
    row = res.criterion_summary.iloc[0]
    np.testing.assert_array_equal([row["ci_low"], row["ci_high"]], [ci.low, ci.high])


def test_duo2018_front_holds_the_published_favourites():
    # Duò, Robinson & Soneson (2018), abstract: "substantial differences in the performance, run time
    # and stability between the methods, with SC3 and Seurat showing the most favorable results".
    cube = mcda.datasets.load("duo2018_all")
    res = practical_dominance(cube, metrics=["ARI", "elapsed"])
    assert {"SC3", "Seurat"} <= set(res.front)
    dom, shared = brute_force_dominance(cube.sel(metric=["ARI", "elapsed"]).values,
                                        ["higher_is_better", "lower_is_better"], [0.01, 0.1])
    off = ~np.eye(dom.shape[0], dtype=bool)
    np.testing.assert_array_equal(res.dominates.to_numpy()[off], dom[off])
    np.testing.assert_array_equal(res.n_shared.to_numpy()[off], shared[off])


def test_single_metric_cube_is_one_criterion():
    cube = mcda.datasets.load("demsar2006")
    res = practical_dominance(cube)
    assert res.metrics == ["auroc"]
    counts = mcda.pairwise_counts(cube)
    off = ~np.eye(4, dtype=bool)
    np.testing.assert_array_equal(res.dominates.to_numpy()[off], counts.wins.to_numpy()[off])


# --------------------------------------------------------------------------- PROMETHEE II

@SETTINGS
@given(problems(with_missing=False), st.data())
def test_promethee_with_zero_thresholds_matches_brute_force(problem, data):
    values, directions, _ = problem
    m = len(directions)
    raw = data.draw(st.lists(st.integers(0, 9), min_size=m, max_size=m).filter(lambda w: sum(w) > 0))
    weights = np.array(raw, dtype=float) / sum(raw)
    cube = make_cube(values, directions, [0] * m)
    res = promethee(cube, weights={f"c{c}": raw[c] for c in range(m)})
    expected, per_dataset = brute_force_promethee(values, directions, [0.0] * m, [None] * m, weights)
    np.testing.assert_allclose(res.net_flow.to_numpy(), expected, rtol=0, atol=1e-12)
    np.testing.assert_allclose(res.per_dataset.to_numpy(), per_dataset, rtol=0, atol=1e-12)
    np.testing.assert_allclose(res.positive_flow - res.negative_flow, res.net_flow, rtol=0, atol=1e-12)
    np.testing.assert_allclose(weights @ res.criterion_flows.to_numpy(), res.net_flow, rtol=0, atol=1e-12)
    np.testing.assert_allclose(res.per_dataset.sum(axis=1), 0.0, atol=1e-12)  # flows of a dataset sum to 0


@SETTINGS
@given(problems(with_missing=False), st.data())
def test_promethee_with_floors_and_preference_thresholds_matches_brute_force(problem, data):
    values, directions, floors = problem
    m = len(directions)
    gaps = data.draw(st.lists(st.one_of(st.none(), st.integers(1, 6)), min_size=m, max_size=m))
    p = [None if g is None else floors[c] + g for c, g in enumerate(gaps)]
    cube = make_cube(values, directions, floors)
    preference = {f"c{c}": p[c] for c in range(m) if p[c] is not None}
    res = promethee(cube, preference=preference or None)
    expected, _ = brute_force_promethee(values, directions, [float(f) for f in floors], p, np.full(m, 1.0 / m))
    np.testing.assert_allclose(res.net_flow.to_numpy(), expected, rtol=0, atol=1e-12)


@pytest.mark.parametrize("function,preference", [("ushape", None), ("vshape_2", {"ARI": 0.1, "elapsed": 60.0})])
def test_promethee_matches_pymcdm_on_duo2018(function, preference):
    # peer package: pymcdm's PROMETHEE_II (Shekhovtsov), run per dataset and averaged here;
    # 'ushape' is the usual criterion with indifference q, 'vshape_2' the linear one between q and p
    pymcdm_methods = pytest.importorskip("pymcdm.methods")
    cube = mcda.datasets.load("duo2018_all").sel(metric=["ARI", "elapsed"])
    with pytest.warns(mcda.MissingDataWarning, match=EXCLUDED):
        res = promethee(cube, weights={"ARI": 0.7, "elapsed": 0.3}, preference=preference)
    values = cube.sel({"method": res.methods}).transpose("dataset", "method", "metric").values
    p = None if preference is None else [preference["ARI"], preference["elapsed"]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # pymcdm warns about dominant alternatives
        flows = np.array([pymcdm_methods.PROMETHEE_II(function, q=[0.01, 0.1], p=p)(
            values[d], np.array([0.7, 0.3]), np.array([1, -1])) for d in range(values.shape[0])])
    np.testing.assert_allclose(res.per_dataset.to_numpy(), flows, rtol=0, atol=1e-12)
    np.testing.assert_allclose(res.net_flow.to_numpy(), flows.mean(axis=0), rtol=0, atol=1e-12)


def test_promethee_missing_policies():
    cube = mcda.datasets.load("duo2018_all").sel(metric=["ARI", "elapsed"])
    with pytest.warns(mcda.MissingDataWarning, match="SAFE lacks 'SimKumar4hard', 'SimKumar8hard'"):
        complete = promethee(cube)
    assert sorted(complete.excluded) == ["SAFE", "ascend"] and "SAFE" not in complete.methods
    available = promethee(cube, missing="available")
    assert available.n_datasets["ascend"] == 9 and available.n_datasets["SAFE"] == 10
    assert available.per_dataset["ascend"].isna().sum() == 3
    # each dataset's flows among the methods present there sum to 0
    np.testing.assert_allclose(available.per_dataset.sum(axis=1), 0.0, atol=1e-12)


def test_promethee_weights_are_normalised_and_linear():
    cube = mcda.datasets.load("duo2018_all").sel(metric=["ARI", "elapsed"])
    a = expect_excluded(promethee, cube, weights={"ARI": 3, "elapsed": 1})
    b = expect_excluded(promethee, cube, weights={"ARI": 0.75, "elapsed": 0.25})
    pd.testing.assert_series_equal(a.net_flow, b.net_flow)
    ari_only = expect_excluded(promethee, cube, weights={"ARI": 1, "elapsed": 0})
    pd.testing.assert_series_equal(ari_only.net_flow, a.criterion_flows.loc["ARI"], check_names=False)


# --------------------------------------------------------------------------- weight stability

@pytest.mark.parametrize("n_criteria,n_steps", [(1, 5), (2, 20), (3, 20), (3, 7)])
def test_simplex_grid_is_every_composition(n_criteria, n_steps):
    grid = _simplex_grid(n_criteria, n_steps)
    # the number of compositions of n_steps into n_criteria non-negative parts: C(n + m - 1, m - 1)
    assert len(grid) == math.comb(n_steps + n_criteria - 1, n_criteria - 1)
    np.testing.assert_allclose(grid.sum(axis=1), 1.0)
    assert len({tuple(np.round(row * n_steps).astype(int)) for row in grid}) == len(grid)


def test_weight_stability_agrees_with_promethee_at_every_grid_point():
    cube = mcda.datasets.load("duo2018_all").sel(metric=["ARI", "elapsed", "s.norm.vs.true"])
    ws = expect_excluded(weight_stability, cube, n_steps=5)
    assert ws.sampling == "grid" and len(ws.weights) == math.comb(7, 2)
    for point, w in ws.weights.iterrows():
        res = expect_excluded(promethee, cube, weights=w.to_dict())
        assert ws.top[point] == " = ".join(res.top)
        np.testing.assert_allclose(ws.net_flows.loc[point].to_numpy(), res.net_flow.to_numpy(), atol=1e-12)
    assert ws.share_first.sum() == pytest.approx(1.0)
    top_counts = ws.top.value_counts(normalize=True)
    for method, share in top_counts.items():
        if " = " not in method:
            assert ws.share_first[method] >= share - 1e-12


def test_weight_stability_draws_dirichlet_beyond_three_criteria():
    values = np.random.default_rng(0).integers(0, 10, size=(6, 4, 4)).astype(float)
    cube = make_cube(values, ["higher_is_better"] * 4, [0, 1, 0, 2])
    a = weight_stability(cube, n_resamples=500, rng=1)
    b = weight_stability(cube, n_resamples=500, rng=np.random.default_rng(1))
    assert a.sampling == "dirichlet" and len(a.weights) == 500 and a.n_steps is None
    pd.testing.assert_frame_equal(a.weights, b.weights)
    np.testing.assert_allclose(a.weights.sum(axis=1), 1.0)
    assert a.share_first.sum() == pytest.approx(1.0)


def test_ties_at_the_top_share_the_point():
    values = np.array([[[1.0, 0.0], [0.0, 1.0]]])  # m0 best on c0, m1 best on c1
    cube = make_cube(values, ["higher_is_better", "higher_is_better"], [0, 0])
    ws = weight_stability(cube, n_steps=2)
    assert list(ws.top) == ["m1", "m0 = m1", "m0"]
    np.testing.assert_allclose(ws.share_first.to_numpy(), [0.5, 0.5])


# --------------------------------------------------------------------------- errors

@pytest.mark.parametrize("function", [practical_dominance, promethee, weight_stability])
def test_a_seed_dim_is_refused(function):
    cube = mcda.datasets.synthetic(n_datasets=4, n_methods=3, n_seeds=2, rng=0)
    with pytest.raises(ValueError, match="reduce_seeds"):
        function(cube)


@pytest.mark.parametrize("kwargs,exc,text", [
    ({"metrics": ["ARI", "acc"]}, ValueError, r"`metrics` names metrics not among \['ARI', .*\]: 'acc'"),
    ({"rope": 0.01}, TypeError, "`rope` must be a mapping metric -> floor"),
    ({"rope": {"ARI": -1}}, ValueError, "`rope` must be a finite number >= 0"),
    ({"rope": {"runtime": 1}}, ValueError, r"`rope` names metrics not among \['ARI', 'elapsed'\]: 'runtime'"),
    ({"confidence_level": 1.5}, ValueError, "`confidence_level` must lie in"),
])
def test_dominance_errors_name_the_argument(kwargs, exc, text):
    cube = mcda.datasets.load("duo2018_all")
    with pytest.raises(exc, match=text):
        practical_dominance(cube, **({"metrics": ["ARI", "elapsed"]} | kwargs))


@pytest.mark.parametrize("kwargs,exc,text", [
    ({"weights": {"ARI": 1}}, ValueError, "`weights` must give a weight to every criterion; it lacks 'elapsed'"),
    ({"weights": {"ARI": -1, "elapsed": 1}}, ValueError, "`weights` must be finite numbers >= 0"),
    ({"weights": {"ARI": 0, "elapsed": 0}}, ValueError, "`weights` are all zero"),
    ({"weights": [0.5, 0.5]}, TypeError, "`weights` must be a mapping metric -> weight"),
    ({"preference": {"ARI": 0.01}}, ValueError, "`preference` for metric 'ARI' must exceed"),
    ({"missing": "impute"}, ValueError, "`missing` must be one of"),
])
def test_promethee_errors_name_the_argument(kwargs, exc, text):
    cube = mcda.datasets.load("duo2018_all")
    with pytest.raises(exc, match=text):
        promethee(cube, **({"metrics": ["ARI", "elapsed"]} | kwargs))


def test_metric_without_a_card_needs_a_rope():
    da = xr.DataArray(np.arange(12.0).reshape(2, 3, 2), dims=("dataset", "method", "metric"),
                      coords={"dataset": ["a", "b"], "method": ["x", "y", "z"], "metric": ["m1", "m2"]})
    cube = mcda.score_cube(da, direction={"m1": "higher_is_better", "m2": "lower_is_better"})
    with pytest.raises(ValueError, match=r"pass `rope=\{'m1': ...\}`"):
        practical_dominance(cube)
    res = practical_dominance(cube, rope={"m1": 0.5, "m2": 0.5})
    assert list(res.noise_floors) == [0.5, 0.5]


def test_weight_stability_errors():
    cube = mcda.datasets.load("duo2018_all").sel(metric=["ARI", "elapsed"])
    with pytest.raises(ValueError, match="`n_steps` must be an integer >= 1"):
        weight_stability(cube, n_steps=0)
    with pytest.raises(TypeError, match="`rng` must be"):
        weight_stability(mcda.datasets.load("duo2018_all"), rng="x")


def test_reprs_are_readable():
    cube = mcda.datasets.load("duo2018_all").sel(metric=["ARI", "elapsed"])
    for result in (practical_dominance(cube), expect_excluded(promethee, cube), expect_excluded(weight_stability, cube)):
        text = repr(result)
        assert "ARI" in text and "\n" in text


# --------------------------------------------------------------------------- plots (geometry, then Agg draws)

def test_tradeoff_points_come_from_the_result():
    from mcda.present.plots.tradeoffs import tradeoff_points

    cube = mcda.datasets.load("duo2018_all").sel(metric=["ARI", "elapsed"])
    dom = practical_dominance(cube)
    points = tradeoff_points(dom, x="elapsed", y="ARI").set_index("method")
    summary = dom.criterion_summary.set_index(["metric", "method"])
    for method in dom.methods:
        assert points.loc[method, "x"] == summary.loc[("elapsed", method), "median"]
        assert points.loc[method, "y_high"] == summary.loc[("ARI", method), "ci_high"]
        assert points.loc[method, "on_front"] == (method in dom.front)
    # one metric selector (mcda.data.checks.select_metric): the card name 'runtime' finds the 'elapsed' label, as in score_cube
    pd.testing.assert_frame_equal(tradeoff_points(dom, x="runtime", y="ari"), tradeoff_points(dom, x="elapsed", y="ARI"))
    with pytest.raises(ValueError, match=r"`x` must be one of the metrics \['ARI', 'elapsed'\]; got 'nmi'"):
        tradeoff_points(dom, x="nmi", y="ARI")


def test_ternary_coordinates_put_each_vertex_at_a_corner():
    from mcda.present.plots.tradeoffs import ternary_coordinates

    xy = ternary_coordinates(np.eye(3))
    np.testing.assert_allclose(xy, [[0, 0], [1, 0], [0.5, math.sqrt(3) / 2]])
    # a point is the weighted mean of the corners; its distances to the sides are the weights × height
    w = np.array([[0.2, 0.3, 0.5]])
    np.testing.assert_allclose(ternary_coordinates(w), w @ xy)
    with pytest.raises(ValueError, match="3 columns"):
        ternary_coordinates([[0.5, 0.5]])


def test_weight_segments_cover_the_grid_in_order():
    from mcda.present.plots.tradeoffs import weight_segments

    values = np.array([[[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]]])
    cube = make_cube(values, ["higher_is_better", "higher_is_better"], [0, 0])
    ws = weight_stability(cube, n_steps=4)
    segments = weight_segments(ws, metric="c1")
    assert segments["top"].tolist() == ["m0", "m0 = m1 = m2", "m1"]
    assert segments[["start", "stop"]].to_numpy().tolist() == [[0.0, 0.25], [0.5, 0.5], [0.75, 1.0]]


def test_label_offsets_never_overlap_when_there_is_room():
    from mcda.present.plots.tradeoffs import label_offsets

    anchors = np.array([[0.0, 0.0], [2.0, 1.0], [4.0, -1.0], [1.0, 2.0]])
    widths, height = [30.0, 30.0, 30.0, 30.0], 8.0
    offsets = label_offsets(anchors, widths, height=height)
    boxes = [(x + dx, y + dy, x + dx + w, y + dy + height) for (x, y), (dx, dy), w in zip(anchors, offsets, widths)]
    for a, b in itertools.combinations(boxes, 2):
        assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])


def test_plots_draw_and_return_figure_and_axes():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from mcda.present.plots.tradeoffs import plot_tradeoffs, plot_weight_stability

    cube = mcda.datasets.load("duo2018_all")
    dom = practical_dominance(cube, metrics=["ARI", "elapsed"])
    fig, ax = plot_tradeoffs(dom, x="elapsed", y="ARI", xscale="log")
    assert ax.xaxis_inverted() and not ax.yaxis_inverted()
    texts = {t.get_text() for t in ax.texts}
    assert set(dom.methods) <= texts
    fig2, ax2 = plot_tradeoffs(expect_excluded(weight_stability, cube, metrics=["ARI", "elapsed"]))
    assert ax2.get_xlabel().startswith("weight on elapsed")
    fig3, ax3 = plt.subplots()
    out = plot_weight_stability(expect_excluded(weight_stability, cube, metrics=["ARI", "elapsed", "s.norm.vs.true"],
                                                n_steps=6), ax=ax3)
    assert out == (fig3, ax3)
    with pytest.raises(ValueError, match="`xscale` must be one of"):
        plot_tradeoffs(dom, xscale="symlog")
    with pytest.raises(TypeError, match="`result` of plot_tradeoffs"):
        plot_tradeoffs(expect_excluded(promethee, cube, metrics=["ARI", "elapsed"]))
    with pytest.raises(ValueError, match="needs a grid over 2 or 3 criteria"):
        plot_weight_stability(expect_excluded(weight_stability, cube, n_resamples=50, rng=0, missing="available"))
    plt.close("all")
