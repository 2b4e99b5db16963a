"""The figures issue 17 adds (CD colour groups, MCM, rank intervals, posterior histogram), measured.

Geometry as in tests/test_plots_sizes.py (its measurements are reused): the renderer's text
extents, no text overlapping another, a cell's text inside its cell, no figure taller than a
page, at 4, 8, 20 and 50 methods with long method names and a missing cell.
"""

from __future__ import annotations

import warnings

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import mcda  # noqa: E402
from mcda.plots import plot_critical_difference  # noqa: E402
from mcda.present.plots.critical_difference import hue_colors  # noqa: E402
from tests.test_plots_sizes import DATASETS, SIZES, assert_legible, flat  # noqa: E402

sp = pytest.importorskip("scikit_posthocs")


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def _families(methods) -> dict:
    names = ["boosted trees", "neural networks", "linear models", "kernel methods"]
    return {m: names[i % 4] for i, m in enumerate(methods)}


# --------------------------------------------------------------------------- CD colour groups

@pytest.mark.parametrize("k", SIZES)
def test_cd_hue_colours_labels_by_group_with_a_legend(k):
    scores = flat(k, DATASETS[k]).assign_coords(method=[f"method_with_long_name_{i:02d}" for i in range(k)])
    res = _quiet(mcda.compare_over_datasets, scores)
    hue = _families(res.mean_ranks.index)
    fig, ax = plot_critical_difference(res, hue=hue, width="page")
    assert_legible(fig, width="page", check_cells=False)
    colours, legend = hue_colors(list(res.mean_ranks.index), hue)
    from matplotlib.colors import to_hex

    for text in (t for t in ax.texts if t.get_gid() == "method_label"):
        name = text.get_text().split(") ")[-1].split(" (")[0]
        assert to_hex(text.get_color()) == to_hex(colours[name])
    box = ax.get_legend()
    assert box is not None and [t.get_text() for t in box.get_texts()] == [g for g, _ in legend]
    assert box.get_title().get_text() == "colour: group"


def test_cd_hue_follows_scikit_posthocs_palette_rules():
    # scikit-posthocs' critical_difference_diagram: hue groups take color_palette[hue_order.index(group)]
    ranks = pd.Series({"a": 1.2, "b": 2.0, "c": 2.9, "d": 3.9})
    sig = pd.DataFrame(0.5, index=ranks.index, columns=ranks.index)
    hue = {"a": "x", "b": "y", "c": "x", "d": "z"}
    palette = ["#111111", "#222222", "#333333"]
    fig, ax = plt.subplots()
    artists = sp.critical_difference_diagram(ranks, sig, hue=hue, hue_order=["z", "x", "y"], color_palette=palette,
                                             ax=ax)
    from matplotlib.colors import to_hex

    theirs = {t.get_text().split(") ")[-1].split(" (")[0]: to_hex(t.get_color()) for t in artists["labels"]}
    ours, legend = hue_colors(list(ranks.index), hue, hue_order=["z", "x", "y"], color_palette=palette)
    assert {m: to_hex(c) for m, c in ours.items()} == theirs
    assert [g for g, _ in legend] == ["z", "x", "y"]


def test_cd_hue_refuses_what_it_cannot_draw():
    res = mcda.compare_over_datasets(mcda.datasets.load("garcia_herrera2008"))
    methods = list(res.mean_ranks.index)
    with pytest.raises(ValueError, match="`hue`.*missing"):
        plot_critical_difference(res, hue={methods[0]: "g"})
    with pytest.raises(ValueError, match="`hue`.*unknown"):
        plot_critical_difference(res, hue={**{m: "g" for m in methods}, "nope": "g"})
    with pytest.raises(TypeError, match="`hue`"):
        plot_critical_difference(res, hue=["g"] * len(methods))
    with pytest.raises(ValueError, match="`hue_order`"):
        plot_critical_difference(res, hue={m: str(i % 2) for i, m in enumerate(methods)}, hue_order=["0"])
    with pytest.raises(ValueError, match="`color_palette`"):
        plot_critical_difference(res, hue={m: str(i % 2) for i, m in enumerate(methods)}, color_palette=["red"])


# --------------------------------------------------------------------------- the Multi-Comparison Matrix

@pytest.mark.parametrize("width", ["column", "page"])
@pytest.mark.parametrize("k", SIZES)
def test_mcm_is_legible_at_every_size(k, width):
    from mcda.plots import plot_mcm
    from mcda.present.plots.mcm import mcm_layout

    res = _quiet(mcda.pairwise_over_datasets, flat(k, DATASETS[k]))
    fig, ax = plot_mcm(res, width=width)
    texts = assert_legible(fig, width=width)
    rows = list(res.mean_ranks.sort_values(kind="stable").index)
    layout = mcm_layout(rows, rows, width=mcda.plots.WIDTHS[width])
    values = [t for t, _ in texts if t.get_gid() == "cell_value"]
    assert bool(values) == (layout["tier"] != "colour") or not values
    # the caption line names what the cells hold
    assert ("cell:" if values else "colour:") in ax.get_xlabel()
    # "my method vs each baseline": one column, every row, on one page even at 50 methods
    fig, ax = plot_mcm(res, against=rows[0], width=width)
    texts = assert_legible(fig, width=width)
    assert len(ax.get_yticks()) >= 1


def test_mcm_numbers_come_from_scipy_on_the_same_pairs():
    from scipy import stats

    from mcda.present.plots.mcm import mcm_cells

    scores = flat(4, 10).isel(dataset=slice(2, None))      # complete: the missing cell's dataset left out
    frame = scores.to_pandas()
    res = mcda.pairwise_over_datasets(scores, adjust="holm")
    cells = mcm_cells(res)
    rows = cells["rows"]
    raw = {}
    for i, a in enumerate(rows):
        for j, b in enumerate(rows):
            if i == j:
                continue
            d = frame[a].to_numpy() - frame[b].to_numpy()
            assert cells["mean_diff"][i, j] == pytest.approx(d.mean(), abs=1e-12)      # numpy, a − b
            assert (cells["wins"][i, j], cells["losses"][i, j]) == ((d > 0).sum(), (d < 0).sum())
            raw[frozenset((a, b))] = stats.wilcoxon(frame[a], frame[b]).pvalue     # scipy's Wilcoxon
    # Holm over the six pairs (statsmodels' multipletests, the oracle of the adjustment)
    from statsmodels.stats.multitest import multipletests

    keys = list(raw)
    holm = dict(zip(keys, multipletests([raw[k] for k in keys], method="holm")[1]))
    for i, a in enumerate(rows):
        for j, b in enumerate(rows):
            if i != j:
                assert cells["p"][i, j] == pytest.approx(holm[frozenset((a, b))], rel=1e-9)


def test_mcm_against_and_control_and_bad_input():
    from mcda.plots import plot_mcm
    from mcda.present.plots.mcm import mcm_cells

    scores = flat(8, 50)
    res = _quiet(mcda.pairwise_over_datasets, scores)
    first = list(res.mean_ranks.sort_values().index)[:2]
    cells = mcm_cells(res, against=first)
    assert cells["cols"] == first and len(cells["rows"]) == res.n_methods
    control = _quiet(mcda.pairwise_over_datasets, scores, control=first[0])
    assert mcm_cells(control)["cols"] == [first[0]]
    with pytest.raises(ValueError, match="`against`"):
        plot_mcm(control, against=first[1])
    with pytest.raises(ValueError, match="`against`"):
        plot_mcm(res, against="nope")
    with pytest.raises(TypeError, match="`result`"):
        plot_mcm(mcda.compare_over_datasets(mcda.datasets.load("garcia_herrera2008")))


# --------------------------------------------------------------------------- rank intervals

@pytest.mark.parametrize("width", ["column", "page"])
@pytest.mark.parametrize("k", SIZES)
def test_rank_intervals_are_legible_at_every_size(k, width):
    from mcda.plots import plot_rank_intervals
    from mcda.present.plots.intervals import interval_layout

    res = _quiet(mcda.rank_stability, flat(k, DATASETS[k]), n_resamples=100, rng=0)
    layout = interval_layout(list(res.mean_ranks.index), width=mcda.plots.WIDTHS[width])
    for page in range(len(layout["pages"])):
        fig, ax = plot_rank_intervals(res, width=width, page=page)
        assert_legible(fig, width=width, check_cells=False)
        plt.close(fig)
    assert "bootstrap interval" in ax.get_xlabel().replace("\n", " ")


def test_rank_intervals_draw_the_results_numbers_and_effect_sizes():
    from mcda.plots import plot_rank_intervals

    res = mcda.rank_stability(mcda.datasets.load("demsar2006"), n_resamples=300, rng=1)
    fig, ax = plot_rank_intervals(res)
    frame = res.to_frame()
    bars = [c for c in ax.containers]
    points = bars[0].lines[0].get_xdata()
    assert np.allclose(points, frame["mean_rank"])
    assert [t.get_text() for t in ax.get_yticklabels()] == list(frame["method"])
    es = mcda.effect_sizes(mcda.datasets.load("demsar2006"), kind="cliff_delta", n_resamples=300, rng=1)
    fig, ax = plot_rank_intervals(es)
    assert [ln for ln in ax.lines if ln.get_gid() == "reference_line"]
    with pytest.raises(TypeError, match="`result`"):
        plot_rank_intervals(mcda.compare_over_datasets(mcda.datasets.load("demsar2006")))
    with pytest.raises(ValueError, match="`page`"):
        plot_rank_intervals(res, page=3)


# --------------------------------------------------------------------------- posterior histogram

def test_posterior_histogram_is_baycomps_histogram_without_a_rope():
    baycomp = pytest.importorskip("baycomp")
    from mcda.plots import plot_posterior_histogram

    cube = mcda.datasets.load("demsar2006")
    a, b = "C4.5", "C4.5+m"
    res = mcda.bayesian_sign_comparison(cube, rope=0.0, method="sampling", n_samples=3000, reproduce="baycomp",
                                        rng=7, keep_draws=[(a, b)])
    fig, ax = plot_posterior_histogram(res, (a, b))
    ours = np.array([p for p in ax.patches if p.get_gid() == "hist_b"][0].get_xy())
    # baycomp's own histogram of the same draws (its plot_histogram: 50 bins of the "right" share)
    frame = cube.to_pandas()
    x, y = frame[a].to_numpy(), frame[b].to_numpy()
    sample = baycomp.SignTest.sample(x, y, rope=0.0, nsamples=3000, random_state=7)
    theirs = baycomp.multiple.Posterior(sample).plot_histogram(("a", "b"))
    heights = np.array([p.get_height() for p in theirs.axes[0].patches])
    counts, _ = np.histogram(sample[:, 2], bins=np.linspace(0, 1, 51))
    assert counts.sum() == 3000
    # our step outline reaches each bin's count; baycomp's bins start at the sample's min, so compare the counts
    assert heights.sum() == 3000 and ours[:, 1].max() == counts.max()
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    row = res.to_frame().iloc[0]
    assert legend[0] == f"P({a} better) = {row['prob_a_better']:.3f}"
    assert [ln for ln in ax.lines if ln.get_gid() == "half_line"]
    plt.close(theirs)


@pytest.mark.parametrize("k", [4, 8])
def test_posterior_histogram_signed_rank_with_rope_is_legible(k):
    from mcda.plots import plot_posterior_histogram

    res = mcda.bayesian_signed_rank_comparison(flat(k, DATASETS[k]).dropna("dataset"), rope=0.005, n_samples=2000,
                                               rng=0)
    pair = (res.methods[0], res.methods[-1])
    for width in ("column", "page"):
        fig, ax = plot_posterior_histogram(res, pair, width=width)
        assert_legible(fig, width=width, check_cells=False)
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert any(t.startswith("P(equivalent)") for t in legend)
    with pytest.raises(ValueError, match="`quantity`"):
        plot_posterior_histogram(res, pair, quantity="difference")
    with pytest.raises(ValueError, match="`pair`"):
        plot_posterior_histogram(res, ("nope", pair[1]))


def test_effect_size_intervals_fit_a_column():
    from mcda.plots import plot_rank_intervals

    es = _quiet(mcda.effect_sizes, flat(8, DATASETS[8]), kind="cliff_delta", n_resamples=200, rng=0)
    fig, ax = plot_rank_intervals(es, width="column")
    assert_legible(fig, width="column", check_cells=False)
    assert "excluded (missing results)" in ax.get_xlabel().replace("\n", " ")


def test_posterior_histogram_of_the_hierarchical_population_difference():
    from mcda.plots import plot_posterior_histogram

    cube = mcda.datasets.synthetic(n_datasets=6, n_methods=2, n_seeds=10, effects=[0.0, 0.02], rng=3)
    res = _quiet(mcda.hierarchical_comparison, cube, runs=1, rope=0.005, n_samples=300, n_warmup=200, n_chains=2,
                 rng=0, progress=False)
    b, a = res.methods
    fig, ax = plot_posterior_histogram(res, (a, b), width="column")
    assert_legible(fig, width="column", check_cells=False)
    row = res.to_frame().iloc[0]
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    # the probabilities written are the table's (oriented to the pair asked for), the rope is shaded at ±rope
    assert legend[0] == f"P({a} better) = {row['prob_b_better']:.3f}"
    band = [p for p in ax.patches if p.get_gid() == "rope_band"]
    assert band and np.allclose([band[0].get_x(), band[0].get_x() + band[0].get_width()], [-0.005, 0.005])
    # the histogram holds every draw of δ0 = a − b, the negated draws of the result's (b, a) pair
    heights = sum(p.get_height() for p in ax.patches if p.get_gid() == "hist_difference")
    assert heights == len(res.population_draws[(b, a)])
