"""Figures: the style, and the critical-difference diagram (geometry without drawing, then Agg renders).

Reference numbers: Demšar (2006) Table 6 / §3.2.2 (Nemenyi CD = 1.25 for 4 methods on 14
datasets at α = 0.05, mean ranks 3.143 / 2.000 / 2.893 / 1.964); the Okabe–Ito colours from
Okabe & Ito (2008), "Color Universal Design". Clique references are computed in the tests by
brute force over all subsets of the post-hoc decisions.
"""

from __future__ import annotations

import itertools
import warnings

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from hypothesis import example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import mcda  # noqa: E402
from mcda.plots import _style  # noqa: E402
from mcda.present.plots.critical_difference import (  # noqa: E402
    BAR_PAD,
    cd_layout,
    clique_bars,
    label_rows,
    plot_critical_difference,
    tick_labels,
)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _by_gid(ax, gid, kind="lines"):
    return [a for a in getattr(ax, kind) if a.get_gid() == gid]


def _texts(ax, gid):
    return [t.get_text() for t in ax.texts if t.get_gid() == gid]


def _brute_force_cliques(significant: pd.DataFrame) -> set:
    """Maximal sets of methods no two of which the test separated (every subset tried)."""
    methods = list(significant.index)
    together = [set(s) for r in range(1, len(methods) + 1) for s in itertools.combinations(methods, r)
                if not any(significant.at[a, b] for a, b in itertools.combinations(s, 2))]
    maximal = [s for s in together if not any(s < t for t in together)]
    return {frozenset(s) for s in maximal}


def _separating_cube(n_methods=9, n_datasets=24, rng=3):
    effects = np.linspace(0.0, 0.08, n_methods)
    return mcda.datasets.synthetic(n_datasets=n_datasets, n_methods=n_methods, n_seeds=0, effects=effects,
                                   dataset_sd=0.05, noise_sd=0.03, rng=rng)


# --------------------------------------------------------------------------- style

def test_palette_is_okabe_ito():
    # Okabe & Ito (2008): the eight colours of the Color Universal Design palette
    published = {"#000000", "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7"}
    assert set(_style.PALETTE) == published
    assert len(_style.PALETTE) == 8


def test_style_restores_rcparams_and_plots_leave_them_alone():
    before = dict(matplotlib.rcParams)
    with _style.style():
        assert matplotlib.rcParams["pdf.fonttype"] == 42
        assert matplotlib.rcParams["font.size"] == _style.FONT_SIZE
    res = mcda.compare_over_datasets(mcda.datasets.load("demsar2006_published_ranks"))
    plot_critical_difference(res)
    after = dict(matplotlib.rcParams)
    changed = {k for k in before if before[k] != after[k] and k != "backend"}
    assert not changed


def test_figure_size_and_bad_width():
    assert _style.figure_size("column") == (3.35, pytest.approx(3.35 * 0.62))
    with pytest.raises(ValueError, match="`width`"):
        _style.figure_size("poster")
    with pytest.raises(ValueError, match="`width`"):
        _style.figure_size(-1.0)


def test_text_colour_contrast():
    assert _style.text_color_on("#000000") == "white"
    assert _style.text_color_on("#F0E442") == "black"


def test_savefig_embeds_truetype(tmp_path):
    res = mcda.compare_over_datasets(mcda.datasets.load("demsar2006_published_ranks"))
    fig, _ = plot_critical_difference(res)
    path = tmp_path / "cd.pdf"
    _style.savefig(fig, path)
    data = path.read_bytes()
    assert b"/FontFile2" in data          # TrueType embedded (fonttype 42), not Type 3
    assert b"/Type3" not in data


# --------------------------------------------------------------------------- CD geometry

@pytest.mark.parametrize("test", ["nemenyi", "holm", "shaffer"])
def test_clique_bars_equal_the_groups_and_brute_force_cliques(test):
    res = mcda.compare_over_datasets(_separating_cube(), test=test)
    assert res.posthoc is not None
    bars = cd_layout(res.mean_ranks, res.groups).bars
    drawn = {frozenset(b.methods) for b in bars}
    assert drawn == {frozenset(g) for g in res.groups if len(g) > 1}
    expected = {c for c in _brute_force_cliques(res.posthoc.significant) if len(c) > 1}
    assert drawn == expected


@pytest.mark.parametrize("test", ["nemenyi", "holm", "shaffer"])
def test_no_bar_joins_a_separated_pair(test):
    res = mcda.compare_over_datasets(_separating_cube(rng=5), test=test)
    sig = res.posthoc.significant
    for bar in cd_layout(res.mean_ranks, res.groups).bars:
        for a, b in itertools.combinations(bar.methods, 2):
            assert not sig.at[a, b], (a, b)


def test_bars_against_a_control_join_only_methods_not_separated_from_it():
    res = mcda.compare_over_datasets(mcda.datasets.load("demsar2006_published_ranks"), test="bonferroni-dunn",
                                     control="C4.5")
    sig = res.posthoc.significant
    for bar in cd_layout(res.mean_ranks, res.groups).bars:
        assert "C4.5" in bar.methods
        assert not any(sig[m] for m in bar.methods if m != "C4.5")


@st.composite
def _ranks_and_groups(draw):
    k = draw(st.integers(2, 14))
    ranks = draw(st.lists(st.floats(1.0, float(k), allow_nan=False), min_size=k, max_size=k))
    methods = [f"m{i}" for i in range(k)]
    groups = draw(st.lists(st.lists(st.sampled_from(methods), min_size=1, max_size=k, unique=True), max_size=10))
    return pd.Series(ranks, index=methods), groups


@settings(max_examples=50, deadline=None)
@given(_ranks_and_groups())
@example((pd.Series([1, 7.625, 1, 7.75, 1, 1, 8, 1], index=[f"m{i}" for i in range(8)]),
          [["m0", "m1"], ["m6", "m3"]]))  # bars 0.045 apart: a second level by the layout's rule
def test_no_two_bars_overlap(data):
    ranks, groups = data
    bars = clique_bars(ranks, groups)
    assert len(bars) == len([g for g in groups if len(g) > 1])
    def separated(a, b):  # clique_bars' documented rule: padded extents at least 2 * pad apart
        gap = max((b.start - BAR_PAD) - (a.end + BAR_PAD), (a.start - BAR_PAD) - (b.end + BAR_PAD))
        return gap >= 2 * BAR_PAD - 1e-12

    for a, b in itertools.combinations(bars, 2):
        if a.level == b.level:
            assert separated(a, b)
    # deterministic: the same input gives the same layout
    assert clique_bars(ranks, groups) == bars
    # first fit: a bar sits on level L > 0 only if it is too close to a bar on every lower level
    # (the test used a looser closeness than the layout's rule, and failed on bars 0.045 apart)
    for bar in bars:
        for level in range(bar.level):
            assert any(o.level == level and not separated(o, bar) for o in bars)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(1.0, 50.0, allow_nan=False), min_size=2, max_size=50),
       st.sampled_from(["both", "left", "right"]))
def test_label_rows_are_unique_and_lines_never_cross(values, side):
    ranks = pd.Series(values, index=[f"m{i}" for i in range(len(values))])
    rows = label_rows(ranks, labels=side)
    assert sorted(r.method for r in rows) == sorted(ranks.index)
    for s in ("left", "right"):
        mine = sorted((r for r in rows if r.side == s), key=lambda r: r.row)
        assert [r.row for r in mine] == list(range(len(mine)))
        # a lower row's line turns towards its side further out than every row above it:
        # on the left ranks grow with the row, on the right they shrink
        ranks_by_row = [r.mean_rank for r in mine]
        assert ranks_by_row == sorted(ranks_by_row, reverse=(s == "right"))
    if side == "both":
        left = [r for r in rows if r.side == "left"]
        assert len(left) == (len(values) + 1) // 2
        assert max(r.mean_rank for r in left) <= min((r.mean_rank for r in rows if r.side == "right"),
                                                      default=np.inf)


def test_tick_labels_never_crowd():
    for high in range(2, 60):
        for step in (1, 2, 5, 10, 20):
            ticks = tick_labels(high, step)
            assert ticks[0] == 1 and ticks == sorted(set(ticks))
            assert all(b - a >= 0.75 * step for a, b in zip(ticks, ticks[1:]))


def test_layout_rejects_unknown_group_members():
    with pytest.raises(ValueError, match="`groups`"):
        cd_layout(pd.Series({"a": 1.0, "b": 2.0}), [("a", "z")])


# --------------------------------------------------------------------------- CD rendering

def test_cd_demsar_table6():
    # Demšar (2006), §3.2.2: CD = 1.25 for Nemenyi at alpha = 0.05 (k = 4, N = 14); the
    # omnibus rejects (F_F = 3.69) and the published ranks are 3.143, 2.000, 2.893, 1.964.
    res = mcda.compare_over_datasets(mcda.datasets.load("demsar2006_published_ranks"))
    fig, ax = plot_critical_difference(res, highlight=["C4.5+m"])
    labels = _texts(ax, "method_label")
    assert sorted(labels) == sorted(["C4.5+m+cf (1.96)", "C4.5+m (2.00)", "(2.89) C4.5+cf", "(3.14) C4.5"])
    assert _texts(ax, "cd_label") == ["CD = 1.25 (Nemenyi, α = 0.05)"]
    (cd_bar,) = _by_gid(ax, "cd_bar")
    assert np.ptp(cd_bar.get_xdata()) == pytest.approx(1.25, abs=0.005)
    assert len(_by_gid(ax, "label_line")) == 4
    assert len(_by_gid(ax, "clique_bar")) == len([g for g in res.groups if len(g) > 1])
    assert _texts(ax, "tick_label") == ["1", "2", "3", "4"]
    # best at the left: the line of the method with the lowest mean rank starts leftmost on the axis
    starts = {line.get_xdata()[0]: line for line in _by_gid(ax, "label_line")}
    assert min(starts) == pytest.approx(res.mean_ranks.min())
    assert ax.get_xlim()[0] < 1 < 4 < ax.get_xlim()[1]
    hot = [t for t in ax.texts if t.get_gid() == "method_label" and "C4.5+m (" in t.get_text()]
    assert hot[0].get_fontweight() == "bold"
    assert matplotlib.colors.same_color(hot[0].get_color(), _style.HIGHLIGHT)


def test_cd_bars_drawn_match_layout():
    res = mcda.compare_over_datasets(_separating_cube(), test="holm")
    fig, ax = plot_critical_difference(res)
    layout = cd_layout(res.mean_ranks, res.groups)
    drawn = sorted((round(line.get_xdata()[0], 9), round(line.get_xdata()[1], 9), line.get_ydata()[0])
                   for line in _by_gid(ax, "clique_bar"))
    expected = sorted((round(b.start - BAR_PAD, 9), round(b.end + BAR_PAD, 9), layout.bar_y[b.level])
                      for b in layout.bars)
    assert drawn == expected
    assert _texts(ax, "cd_label") == []          # Holm has no single CD
    assert any("Holm" in t for t in _texts(ax, "note"))


def test_cd_bonferroni_dunn_interval_around_control():
    res = mcda.compare_over_datasets(mcda.datasets.load("demsar2006_published_ranks"), test="bonferroni-dunn",
                                     control="C4.5")
    fig, ax = plot_critical_difference(res)
    (bar,) = _by_gid(ax, "cd_bar")
    centre = res.mean_ranks["C4.5"]
    assert bar.get_xdata()[0] == pytest.approx(centre - res.critical_difference)
    assert bar.get_xdata()[1] == pytest.approx(centre + res.critical_difference)
    assert "around C4.5" in _texts(ax, "cd_label")[0]


def test_cd_omnibus_not_rejecting_says_so_and_draws_no_bars():
    cube = mcda.datasets.synthetic(n_datasets=10, n_methods=5, n_seeds=0, effects=np.zeros(5), rng=1)
    res = mcda.compare_over_datasets(cube)
    assert res.posthoc is None
    fig, ax = plot_critical_difference(res)
    assert any("no difference may be claimed" in t for t in _texts(ax, "note"))
    assert not _by_gid(ax, "clique_bar") and not _by_gid(ax, "cd_bar")
    assert len(_texts(ax, "method_label")) == 5


def test_cd_weighted_mean_ranks_is_a_diagnostic():
    cube = mcda.datasets.load("demsar2006")
    weights = {d: i + 1.0 for i, d in enumerate(cube.coords["dataset"].values)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        weighted = mcda.mean_ranks(cube, aggregation="custom", weights=weights)
    assert weighted.is_weighted
    fig, ax = plot_critical_difference(weighted)
    assert any("Diagnostic only" in t for t in _texts(ax, "note"))
    assert not _by_gid(ax, "clique_bar") and not _by_gid(ax, "cd_bar") and not _texts(ax, "cd_label")
    assert len(_texts(ax, "method_label")) == 4


def test_cd_names_excluded_methods():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = mcda.compare_over_datasets(mcda.datasets.load("duo2018"))
    fig, ax = plot_critical_difference(res)
    assert res.excluded
    assert any(all(m in t for m in res.excluded) for t in _texts(ax, "note"))
    assert len(_texts(ax, "method_label")) == res.n_methods


def _overlaps(boxes):
    bad = []
    for (i, a), (j, b) in itertools.combinations(enumerate(boxes), 2):
        if a.x0 < b.x1 - 0.5 and b.x0 < a.x1 - 0.5 and a.y0 < b.y1 - 0.5 and b.y0 < a.y1 - 0.5:
            bad.append((i, j))
    return bad


@pytest.mark.parametrize("labels,width", [("both", "column"), ("left", "column"), ("right", "page"),
                                          ("both", "page")])
def test_cd_labels_do_not_collide_at_50_methods(labels, width):
    cube = mcda.datasets.synthetic(n_datasets=30, n_methods=50, n_seeds=0, effects=np.linspace(0, 0.05, 50),
                                   dataset_sd=0.05, noise_sd=0.02, rng=1)
    cube = cube.assign_coords(method=[f"method number {i}" for i in range(50)])
    res = mcda.compare_over_datasets(cube)
    fig, ax = plot_critical_difference(res, labels=labels, width=width)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    texts = [t for t in ax.texts if t.get_gid() in ("method_label", "tick_label", "cd_label", "note")]
    assert len([t for t in texts if t.get_gid() == "method_label"]) == 50
    boxes = [t.get_window_extent(renderer) for t in texts]
    assert _overlaps(boxes) == []
    # every label sits inside the figure
    fig_box = fig.bbox
    for box in boxes:
        assert box.x0 >= fig_box.x0 - 1 and box.x1 <= fig_box.x1 + 1


def test_cd_two_methods_and_an_existing_axes():
    res = mcda.compare_over_datasets(mcda.datasets.load("demsar2006_published_ranks").isel(method=[0, 1]))
    fig, ax = plt.subplots(figsize=(4, 2))
    out_fig, out_ax = plot_critical_difference(res, ax=ax, labels="right")
    assert out_ax is ax and out_fig is fig
    assert len(_texts(ax, "method_label")) == 2


def test_cd_bad_inputs():
    res = mcda.compare_over_datasets(mcda.datasets.load("demsar2006_published_ranks"))
    with pytest.raises(ValueError, match="`labels`"):
        plot_critical_difference(res, labels="top")
    with pytest.raises(ValueError, match="`highlight`.*'nope'"):
        plot_critical_difference(res, highlight=["nope"])
    with pytest.raises(TypeError, match="`result`"):
        plot_critical_difference({"a": 1})
    with pytest.raises(ValueError, match="`width`"):
        plot_critical_difference(res, width="poster")
