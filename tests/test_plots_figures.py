"""Every figure but the CD diagram: geometry without drawing, then what is on the Agg axes.

Reference numbers: Kendall & Babington Smith (1940) via tests/data/kendall_bs1940 (the dog:
5 circular triads of at most 8, the five cycles in its PROVENANCE); scipy.stats.t for the t
band of the learning curves. Everything else checks that a figure draws exactly the numbers of
the result object it was given.
"""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
import xarray as xr  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from scipy import stats  # noqa: E402

import mcda  # noqa: E402
from mcda.stats.pairwise import PairwiseCounts  # noqa: E402
from mcda.plots import (  # noqa: E402
    plot_forest,
    plot_learning_curves,
    plot_pairwise,
    plot_posterior,
    plot_posterior_bars,
    plot_rank_stability,
    plot_relation,
    plot_superiority,
)
from mcda.present.plots.forest import forest_positions  # noqa: E402
from mcda.present.plots.pairwise import list_rows, pair_matrix  # noqa: E402
from mcda.present.plots.posterior import TRIANGLE, pair_draws, pair_rows, ternary_xy  # noqa: E402
from mcda.present.plots.superiority import circle_layout, relation_edges, superiority_matrix  # noqa: E402

DATA = Path(__file__).parent / "data"


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _gid(artists, gid):
    return [a for a in artists if a.get_gid() == gid]


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def _epoch_cube(n_epochs=5, n_datasets=3, n_methods=3, n_seeds=4):
    parts = [mcda.datasets.synthetic(n_datasets=n_datasets, n_methods=n_methods, n_seeds=n_seeds,
                                     base=0.5 + 0.04 * e, rng=e) for e in range(n_epochs)]
    return xr.concat(parts, dim=xr.DataArray(np.arange(1, n_epochs + 1), dims="epoch", name="epoch"))


def dog_transitivity():
    pairs = pd.read_csv(DATA / "kendall_bs1940" / "dog_food_preferences.csv")
    foods = ["meat", "biscuit", "chocolate", "apple", "pear", "cheese"]
    wins = pd.crosstab(pairs["winner"], pairs["loser"]).reindex(index=foods, columns=foods, fill_value=0)
    return mcda.pairwise_transitivity(PairwiseCounts.from_matrix(wins))


def test_import_mcda_does_not_import_matplotlib():
    code = "import sys, mcda; mcda.datasets.load('demsar2006'); print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# --------------------------------------------------------------------------- rank stability

def test_rank_stability_draws_the_result():
    res = mcda.rank_stability(mcda.datasets.load("demsar2006"), n_resamples=300, rng=1)
    fig, (heat, bars) = plot_rank_stability(res)
    order = list(res.mean_ranks.sort_values(kind="stable").index)
    assert [t.get_text() for t in heat.get_yticklabels()] == order
    (image,) = _gid(heat.images, "position_heatmap")
    shown = np.ma.filled(image.get_array(), 0.0)
    np.testing.assert_array_equal(shown, res.position_probabilities.loc[order].to_numpy(dtype=float))
    expected_texts = int((res.position_probabilities.to_numpy() >= 0.005).sum())
    assert len(_gid(heat.texts, "cell_value")) == expected_texts
    (intervals,) = _gid(bars.collections, "rank_interval")
    segments = intervals.get_segments()
    lows = [s[0][0] for s in segments]
    np.testing.assert_array_equal(lows, res.mean_rank_interval.loc[order, "low"].to_numpy(dtype=float))
    (dots,) = _gid(bars.lines, "observed_mean_rank")
    np.testing.assert_array_equal(dots.get_xdata(), res.mean_ranks.loc[order].to_numpy(dtype=float))
    assert not bars.xaxis_inverted()               # rank 1 at the left, as everywhere


def test_rank_stability_many_methods_uses_a_colour_bar_and_accepts_axes():
    res = _quiet(mcda.rank_stability, mcda.datasets.load("duo2018"), n_resamples=200, rng=0)
    fig, axes = plt.subplots(1, 2)
    out_fig, out_axes = plot_rank_stability(res, ax=axes)
    assert out_fig is fig and out_axes[0] is axes[0]
    assert not _gid(axes[0].texts, "cell_value")
    assert len(fig.axes) == 3                       # the colour bar
    with pytest.raises(TypeError, match="`ax`"):
        plot_rank_stability(res, ax=axes[0])
    with pytest.raises(TypeError, match="`result`"):
        plot_rank_stability(mcda.datasets.load("demsar2006"))


# --------------------------------------------------------------------------- learning curves

def test_curve_table_band_is_the_t_interval():
    cube = _epoch_cube()
    table = mcda.learning_curves(cube).to_frame()
    raw = cube.sel({"dataset": "dataset_1", "method": "method_2", "epoch": 3}).values
    n = len(raw)
    # reference: scipy's Student t quantile, the textbook interval mean ± t s/√n
    half = stats.t.ppf(0.975, n - 1) * raw.std(ddof=1) / np.sqrt(n)
    row = table[(table["dataset"] == "dataset_1") & (table["method"] == "method_2") & (table["epoch"] == 3)].iloc[0]
    assert row["mean"] == pytest.approx(raw.mean(), rel=1e-12)
    assert row["ci_low"] == pytest.approx(raw.mean() - half, rel=1e-12)
    assert row["ci_high"] == pytest.approx(raw.mean() + half, rel=1e-12)
    assert len(table) == 5 * 3 * 3


def test_learning_curves_panels_lines_and_bands():
    cube = _epoch_cube(n_datasets=5)
    fig, axes = plot_learning_curves(mcda.learning_curves(cube), methods=["method_2", "method_0"])
    assert len(axes) == 5
    assert [a.get_title(loc="left") for a in axes] == [f"dataset_{i}" for i in range(5)]
    for panel in axes:
        curves = _gid(panel.lines, "mean_curve")
        assert [c.get_label() for c in curves] == ["method_2", "method_0"]
        assert len(_gid(panel.collections, "t_band")) == 2
        np.testing.assert_array_equal(curves[0].get_xdata(), np.arange(1, 6))
    panel = axes[1]
    y = _gid(panel.lines, "mean_curve")[1].get_ydata()
    expected = cube.sel({"dataset": "dataset_1", "method": "method_0"}).mean("seed").values
    np.testing.assert_allclose(y, expected, rtol=1e-12)
    # every panel with nothing below it labels its epochs
    assert all(a.get_xlabel() == "epoch" for a in axes[-3:])


def test_learning_curves_without_seeds_draw_no_band_and_check_inputs():
    cube = _epoch_cube().isel(seed=0, drop=True)
    fig, axes = plot_learning_curves(mcda.learning_curves(cube), datasets="dataset_0", width="column")
    assert len(axes) == 1 and not _gid(axes[0].collections, "t_band")
    with pytest.raises(ValueError, match="'epoch'"):
        mcda.learning_curves(mcda.datasets.synthetic(n_seeds=3, rng=0))
    with pytest.raises(ValueError, match="`datasets`"):
        plot_learning_curves(mcda.learning_curves(_epoch_cube()), datasets=["nope"])
    with pytest.raises(ValueError, match="`split`"):
        mcda.learning_curves(_epoch_cube(), split="val")
    with pytest.raises(TypeError, match="`result`"):  # plots compute nothing: a cube is refused
        plot_learning_curves(_epoch_cube())


def test_learning_curves_pick_the_test_split():
    cube = _epoch_cube(n_epochs=3, n_datasets=1, n_methods=2, n_seeds=3)
    two = xr.concat([cube, cube + 0.1], dim=xr.DataArray(["test", "val"], dims="split", name="split"))
    two.attrs = cube.attrs
    table = mcda.learning_curves(two).to_frame()
    single = mcda.learning_curves(cube).to_frame()
    np.testing.assert_allclose(table["mean"].to_numpy(), single["mean"].to_numpy(), rtol=1e-12)
    table_val = mcda.learning_curves(two, split="val").to_frame()
    np.testing.assert_allclose(table_val["mean"].to_numpy(), single["mean"].to_numpy() + 0.1,
                               rtol=1e-12)


# --------------------------------------------------------------------------- superiority and relation

def test_superiority_matrix_is_the_report_in_standing_order():
    rep = mcda.pairwise_superiority(mcda.datasets.load("demsar2006"), rope=0.0)
    order, probs, significant = superiority_matrix(rep)
    assert order == rep.order
    assert np.isnan(np.diag(probs)).all()
    assert probs[0, 1] == rep.probability_superior.loc[order[0], order[1]]
    assert int(significant.sum()) == len(rep.superior_pairs)
    fig, ax = plot_superiority(rep)
    (image,) = _gid(ax.images, "superiority_matrix")
    np.testing.assert_array_equal(np.ma.filled(image.get_array(), np.nan), probs)
    starred = [t.get_text() for t in _gid(ax.texts, "cell_value") if t.get_text().endswith("*")]
    assert len(starred) == len(rep.superior_pairs)
    assert len(_gid(ax.texts, "cell_value")) == len(order) * (len(order) - 1)
    assert [t.get_text() for t in ax.get_xticklabels()] == order


def test_superiority_many_methods_mark_stars():
    rep = _quiet(mcda.pairwise_superiority, mcda.datasets.load("duo2018"), rope=0.0)
    fig, ax = plot_superiority(rep)
    assert not _gid(ax.texts, "cell_value")
    (stars,) = _gid(ax.lines, "superior_marker")
    assert len(stars.get_xdata()) == len(rep.superior_pairs)


def test_circle_layout_is_on_the_unit_circle_and_clockwise_from_the_top():
    pos = circle_layout(list("abcdefg"))
    radii = [np.hypot(*p) for p in pos.values()]
    np.testing.assert_allclose(radii, 1.0)
    assert pos["a"] == pytest.approx((0.0, 1.0))
    assert pos["b"][0] > 0          # clockwise: the second node is to the right


def test_relation_of_kendalls_dog():
    # Kendall & Babington Smith (1940), PROVENANCE: 5 circular triads of at most 8, five cycles
    t = dog_transitivity()
    edges = relation_edges(t)
    assert len(edges) == 15                          # 6 foods, no ties: every pair has an arrow
    on_cycles = {(a, b) for a, b, kind in edges if kind == "cycle"}
    cycles = [{"meat", "biscuit", "apple"}, {"meat", "chocolate", "apple"}, {"meat", "apple", "pear"},
              {"meat", "apple", "cheese"}, {"biscuit", "pear", "cheese"}]
    expected = {(a, b) for a, b, _ in edges if any({a, b} <= c for c in cycles)}
    assert on_cycles == expected
    fig, ax = plot_relation(t)
    assert len(_gid(ax.patches, "cycle_edge")) == len(on_cycles)
    assert len(_gid(ax.patches, "edge")) == 15 - len(on_cycles)
    assert "5 circular triads of at most 8" in ax.get_title(loc="left")
    assert "ζ = 0.375" in ax.get_title(loc="left")
    assert sorted(t.get_text() for t in _gid(ax.texts, "node_label")) == sorted(t.methods)


def test_relation_with_ties_draws_them_undirected():
    rep = _quiet(mcda.pairwise_superiority, mcda.datasets.load("duo2018"))
    t = mcda.pairwise_transitivity(rep)
    fig, ax = plot_relation(t, layout="graph")        # 14 methods: the default is the matrix
    assert len(_gid(ax.lines, "tie")) == len(t.tied_pairs)
    n_arrows = int(t.relation.to_numpy().sum())
    assert len(_gid(ax.patches, "edge")) + len(_gid(ax.patches, "cycle_edge")) == n_arrows
    assert "undefined" in ax.get_title(loc="left")
    fig, ax = plot_relation(t)
    (cells,) = _gid(ax.images, "relation_matrix")
    values = np.ma.filled(cells.get_array(), np.nan)
    assert int((values == 0.5).sum()) == 2 * len(t.tied_pairs)            # a tie fills both cells
    assert int((values >= 1).sum()) == n_arrows                           # one cell per arrow


# --------------------------------------------------------------------------- posterior

@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1), st.floats(0, 1)).filter(lambda t: sum(t) > 1e-6),
                min_size=1, max_size=20))
def test_ternary_points_lie_in_the_simplex_nearest_their_largest_share(rows):
    shares = np.array(rows) / np.sum(rows, axis=1, keepdims=True)
    x, y = ternary_xy(shares)
    h = np.sqrt(3) / 2
    assert np.all(y >= -1e-12) and np.all(y <= h * (1 - np.abs(2 * x - 1)) + 1e-9)
    corners = np.array([TRIANGLE["a_better"], TRIANGLE["equivalent"], TRIANGLE["b_better"]])
    for (xi, yi), s in zip(zip(x, y), shares):
        if np.sort(s)[-1] - np.sort(s)[-2] > 1e-6:
            distances = np.hypot(corners[:, 0] - xi, corners[:, 1] - yi)
            assert np.argmin(distances) == np.argmax(s)


def _sampled():
    return mcda.bayesian_sign_comparison(mcda.datasets.load("demsar2006"), rope=0.01, method="sampling",
                                         n_samples=3000, rng=0)


def test_posterior_simplex_draws_every_sample_and_the_results_probabilities():
    res = _sampled()
    a, b = res.table.iloc[0][["method_a", "method_b"]]
    fig, ax = plot_posterior(res, (b, a))             # reversed: b is now the bottom-left corner
    (hexes,) = _gid(ax.collections, "posterior_density")
    assert hexes.get_array().sum() == res.n_samples  # every draw is in the triangle
    labels = [t.get_text() for t in _gid(ax.texts, "corner_label")]
    row = res.table.iloc[0]
    assert labels[0] == f"{b} better\nP = {row['prob_b_better']:.3f}"
    assert labels[1] == f"{a} better\nP = {row['prob_a_better']:.3f}"
    assert f"P = {row['prob_equivalent']:.3f}" in labels[2]
    assert len(_gid(ax.lines, "region_boundary")) == 3
    np.testing.assert_array_equal(pair_draws(res, (b, a)), res.draws[(a, b)][:, ::-1])


def test_posterior_simplex_at_rope_zero_has_two_regions_and_says_which_draws_are_left_out():
    # rope = 0: baycomp's probabilities are p_left / (p_left + p_right) of the draws' argmax, the draws
    # keep the prior's tie share (Benavoli et al. 2017, the pseudo-observation at 0); no "equivalent" region
    res = mcda.bayesian_sign_comparison(mcda.datasets.load("demsar2006"), rope=0, method="sampling",
                                        n_samples=3000, rng=0)
    a, b = "C4.5+m+cf", "C4.5"
    draws = pair_draws(res, (a, b))
    assert (draws[:, 1] > 0).all()                   # the draws do reach into the top of the triangle
    winner = draws.argmax(axis=1)
    row = next(r for r in res.table.itertuples() if {r.method_a, r.method_b} == {a, b})
    p_a = row.prob_a_better if row.method_a == a else row.prob_b_better
    assert (winner == 0).sum() / (winner != 1).sum() == pytest.approx(p_a, abs=1e-12)
    fig, ax = plot_posterior(res, (a, b))
    labels = [t.get_text() for t in _gid(ax.texts, "corner_label")]
    assert labels[0] == f"{a} better\nP = {p_a:.3f}"
    assert "equivalent" not in labels[2] and "P = " not in labels[2]
    assert "tie" in labels[2]
    (left_out,) = _gid(ax.patches, "left_out_region")    # where the tie share is largest: not in P
    assert "equivalent" not in ax.get_title()


def test_posterior_simplex_needs_draws_and_a_valid_pair():
    exact = mcda.bayesian_sign_comparison(mcda.datasets.load("demsar2006"), rope=0.01)
    a, b = exact.methods[:2]
    with pytest.raises(ValueError, match="method='sampling'"):
        plot_posterior(exact, (a, b))
    with pytest.raises(ValueError, match="`pair`"):
        plot_posterior(_sampled(), (a, a))
    with pytest.raises(ValueError, match="`pair`"):
        plot_posterior(_sampled(), "C4.5")


def test_posterior_bars_are_the_three_probabilities():
    res = mcda.bayesian_sign_comparison(mcda.datasets.load("demsar2006"), rope=0.01)
    fig, ax = plot_posterior_bars(res)
    table = res.to_frame()
    a_bars = [p for p in ax.patches if p.get_gid() == "a_better"]
    e_bars = [p for p in ax.patches if p.get_gid() == "equivalent"]
    b_bars = [p for p in ax.patches if p.get_gid() == "b_better"]
    assert len(a_bars) == len(e_bars) == len(b_bars) == len(table)
    np.testing.assert_allclose([p.get_width() for p in a_bars], table["prob_a_better"], rtol=0, atol=0)
    np.testing.assert_allclose([p.get_x() for p in b_bars], table["prob_a_better"] + table["prob_equivalent"])
    thresholds = sorted(line.get_xdata()[0] for line in _gid(ax.lines, "threshold"))
    assert thresholds == pytest.approx([1 - res.threshold, res.threshold])
    assert len(_gid(ax.texts, "decision")) == len(table)


def test_posterior_bars_of_one_method_put_it_first():
    res = mcda.bayesian_sign_comparison(mcda.datasets.load("demsar2006"), rope=0.01)
    last = res.methods[-1]                       # method_b in every row that holds it
    rows = pair_rows(res, last)
    assert (rows["method_a"] == last).all() and len(rows) == 3
    swapped = res.table[(res.table["method_b"] == last)].iloc[0]
    mine = rows[rows["method_b"] == swapped["method_a"]].iloc[0]
    assert mine["prob_a_better"] == swapped["prob_b_better"]
    fig, ax = plot_posterior_bars(res, pairs=[("C4.5", "C4.5+m")])
    assert [t.get_text() for t in ax.get_yticklabels()] == ["C4.5 vs C4.5+m"]
    with pytest.raises(ValueError, match="`pairs`"):
        plot_posterior_bars(res, pairs="nope")


# --------------------------------------------------------------------------- forest

@settings(max_examples=50, deadline=None)
@given(st.integers(1, 12), st.integers(1, 12), st.booleans(), st.booleans(), st.integers(0, 2**16))
def test_forest_positions_stay_in_their_row_and_never_collide(n_datasets, n_methods, sort, higher, salt):
    rng = np.random.default_rng(salt)
    datasets = [f"d{i}" for i in range(n_datasets)]
    methods = [f"m{j}" for j in range(n_methods)]
    table = pd.DataFrame([(d, m, rng.normal()) for d in datasets for m in methods],
                         columns=["dataset", "method", "mean"])
    table.loc[rng.random(len(table)) < 0.1, "mean"] = np.nan
    pos = forest_positions(table, datasets=datasets, methods=methods, sort=sort, higher_is_better=higher)
    assert len(pos) == int(table["mean"].notna().sum())
    assert (np.abs(pos["y"] - pos["row"]) < 0.5).all()
    assert not pos.duplicated(["dataset", "y"]).any()
    if sort:
        means = table.set_index(["dataset", "method"])["mean"]
        for _, row in pos.groupby("row"):
            values = [means[(d, m)] for d, m in zip(row.sort_values("y")["dataset"], row.sort_values("y")["method"])]
            assert values == sorted(values, reverse=higher)


def test_forest_draws_each_interval_from_its_own_endpoints():
    cube = mcda.datasets.synthetic(n_datasets=4, n_methods=3, n_seeds=6, rng=5)
    summary = mcda.summary(cube, ci_method="bootstrap", n_resamples=999, rng=0)
    fig, ax = plot_forest(summary, band="best")
    drawn = sorted((round(s[0][0], 12), round(s[1][0], 12)) for c in _gid(ax.collections, "interval")
                   for s in c.get_segments())
    table = summary.to_frame()
    expected = sorted((round(lo, 12), round(hi, 12)) for lo, hi in zip(table["ci_low"], table["ci_high"]))
    assert drawn == expected
    assert len(_gid(ax.collections, "band")) == 4          # one best-interval band per row
    (legend,) = fig.legends
    assert [t.get_text() for t in legend.get_texts()] == ["method_0", "method_1", "method_2"]
    assert [t.get_text() for t in ax.get_yticklabels()] == [f"dataset_{i}" for i in range(4)]
    assert "percentile bootstrap" in ax.get_xlabel()


def test_forest_band_and_subsets_and_errors():
    summary = mcda.summary(mcda.datasets.synthetic(n_datasets=3, n_methods=3, n_seeds=4, rng=1))
    fig, ax = plot_forest(summary, band=(0.7, 0.8), methods=["method_2"], datasets=["dataset_1", "dataset_0"])
    assert [t.get_text() for t in ax.get_yticklabels()] == ["dataset_1", "dataset_0"]
    assert len(_gid(ax.patches, "band")) == 1
    assert len(_gid(ax.lines, "mean")) == 1
    with pytest.raises(ValueError, match="`band`"):
        plot_forest(summary, band="worst")
    with pytest.raises(ValueError, match="`methods`"):
        plot_forest(summary, methods=["x"])
    with pytest.raises(TypeError, match="`result`"):
        plot_forest(mcda.datasets.load("demsar2006"))


# --------------------------------------------------------------------------- paired tests

def _paired():
    cube = mcda.datasets.synthetic(n_datasets=3, n_methods=4, n_seeds=8, effects=[0, 0.005, 0.02, 0.03],
                                   noise_sd=0.01, rng=4)
    return mcda.paired_tests(cube)


def test_pair_matrix_orientation_and_cells():
    res = _paired()
    table = res.to_frame()
    methods = ["method_3", "method_0", "method_1", "method_2"]     # reversed pairs get negated
    lower, upper, sig = pair_matrix(table, "dataset_1", methods)
    row = table[(table["dataset"] == "dataset_1") & (table["method_a"] == "method_0") &
                (table["method_b"] == "method_3")].iloc[0]
    assert upper[0, 1] == -row["mean_diff"]
    assert lower[1, 0] == pytest.approx(-np.log10(row["p_holm"]))
    assert sig[0, 1] == sig[1, 0] == row["significant"]
    assert np.isnan(lower[np.triu_indices(4)]).all() and np.isnan(upper[np.tril_indices(4)]).all()


def test_pairwise_matrix_panels():
    res = _paired()
    fig, axes = plot_pairwise(res)
    assert len(axes) == 3
    table = res.to_frame()
    for panel, dataset in zip(axes, ["dataset_0", "dataset_1", "dataset_2"]):
        n_sig = int(table.loc[table["dataset"] == dataset, "significant"].sum())
        assert len(_gid(panel.patches, "significant_cell")) == 2 * n_sig
        (upper,) = _gid(panel.images, "mean_difference")
        _, expected, _ = pair_matrix(table, dataset, ["method_0", "method_1", "method_2", "method_3"])
        np.testing.assert_array_equal(np.ma.filled(upper.get_array(), np.nan), expected)
        assert len(_gid(panel.texts, "cell_value")) == 12
    assert len(fig.axes) == 3 + 2                          # two shared colour bars


@pytest.mark.parametrize("width,n_datasets", [("page", 4), ("column", 2), ("column", 1)])
def test_pairwise_matrix_cell_values_fit_their_cells(width, n_datasets):
    # the gallery's case: 5 methods, differences like -0.021 next to +0.006 in adjacent cells
    cube = mcda.datasets.synthetic(n_datasets=n_datasets, n_methods=5, n_seeds=8,
                                   effects=[0, 0.005, 0.01, 0.02, 0.021], noise_sd=0.01, rng=4)
    fig, axes = plot_pairwise(mcda.paired_tests(cube), width=width)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    for panel in axes:
        box = panel.get_window_extent(renderer)
        cell = min(box.width, box.height) / 5
        values = _gid(panel.texts, "cell_value")
        assert values or width == "column"        # too small to read at 3.5 pt: not written at all
        for t in values:
            assert t.get_window_extent(renderer).width <= 0.95 * cell, (t.get_text(), cell)


def test_pairwise_list_layout():
    res = _paired()
    fig, ax = plot_pairwise(res, layout="list", width="column")
    table = res.to_frame()
    rows, headers = list_rows(table, ["dataset_0", "dataset_1", "dataset_2"])
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert len(labels) == len(table) + 3 and labels[0] == "dataset_0"
    assert [labels[y] for y, _ in headers] == ["dataset_0", "dataset_1", "dataset_2"]
    assert labels[int(rows["y"].iloc[0])] == f"{rows['method_a'].iloc[0]} − {rows['method_b'].iloc[0]}"
    (filled,) = _gid(ax.lines, "significant")
    assert len(filled.get_xdata()) == int(table["significant"].sum())
    (whiskers,) = _gid(ax.collections, "interval")
    assert len(whiskers.get_segments()) == len(table)
    with pytest.raises(ValueError, match="`layout`"):
        plot_pairwise(res, layout="grid")
