"""Every figure kind at 4, 8, 20 and 50 methods, measured from the renderer's text extents.

For each figure: draw it (``fig.canvas.draw()``), take every visible text's window extent
(``text.get_window_extent(renderer)``) and check that no text overlaps another, that a cell's
value stays inside its cell, and that the figure (its tight bounding box, as saved) is no
taller than a page and no wider than the width asked for. The data are
``mcda.datasets.synthetic`` cubes with 40-character method names and a missing cell, at the
sizes the issue names (methods 4/8/20/50; datasets 10, 50 or 200), kept small enough in seeds
and resamples that the whole file runs in well under a minute.
"""

from __future__ import annotations

import dataclasses
import functools
import warnings

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import mcda  # noqa: E402
from mcda.plots import (  # noqa: E402
    plot_critical_difference,
    plot_forest,
    plot_learning_curves,
    plot_pairwise,
    plot_posterior,
    plot_posterior_bars,
    plot_rank_distribution,
    plot_rank_stability,
    plot_relation,
    plot_shrinkage,
    plot_superiority,
    plot_tradeoffs,
    plot_weight_stability,
)
from mcda.plots import _layout  # noqa: E402
from mcda.present.plots.forest import forest_layout  # noqa: E402
from mcda.plots import _style  # noqa: E402
from mcda.present.plots._style import WIDTHS  # noqa: E402

SIZES = [4, 8, 20, 50]
DATASETS = {4: 10, 8: 50, 20: 200, 50: 50}


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def long_names(k: int) -> list[str]:
    """k method names of 40 characters (the long names of real benchmarks)."""
    return [f"gradient_boosted_trees_variant_{i:02d}_tuned"[:40].ljust(40, "x") for i in range(k)]


@functools.lru_cache(maxsize=None)
def cube(k: int, n_datasets: int, n_seeds: int = 3, long: bool = True):
    raw = mcda.datasets.synthetic(n_datasets=n_datasets, n_methods=k, n_seeds=n_seeds,
                                  effects=np.linspace(0.0, 0.03, k), noise_sd=0.01, rng=k)
    if long:
        raw = raw.assign_coords(method=long_names(k))
    raw = raw.copy()
    raw[{"dataset": 1, "method": 0}] = np.nan           # a missing cell
    return raw


@functools.lru_cache(maxsize=None)
def flat(k: int, n_datasets: int):
    """One score per (dataset, method): the mean over seeds (the missing cell stays missing)."""
    return _quiet(mcda.reduce_seeds, cube(k, n_datasets), how="mean")


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


# --------------------------------------------------------------------------- the measurements

def _texts(fig):
    """Every text the renderer draws, with its extent in pixels."""
    from matplotlib.text import Text

    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    hidden = set()                          # the texts of an axis that is not drawn
    for axes in fig.axes:
        for axis in (axes.xaxis, axes.yaxis):
            if not axes.axison or not axis.get_visible():
                hidden |= {id(t) for t in axis.findobj(Text)}
    drawn = []
    for artist in fig.findobj(Text):
        if id(artist) in hidden or not artist.get_visible() or not artist.get_text().strip():
            continue
        with np.errstate(invalid="ignore"):      # a colour bar's tick outside its norm has no place
            box = artist.get_window_extent(renderer)
        if not np.all(np.isfinite(box.get_points())):   # not laid out, so not drawn (e.g. spare ticks)
            continue
        if box.width <= 0 or box.height <= 0:
            continue
        drawn.append((artist, box))
    return _drawn_ticks_only(drawn, fig), renderer


def _drawn_ticks_only(drawn, fig):
    """Leave out tick labels the axis does not draw: ticks outside its view, and the spare ticks it keeps.

    A tick label's ``.axes`` may be unset, so each is found through its axis' ticks.
    """
    owner = {}                           # id(label) -> (axis, its tick's location, is the tick current)
    for axes in fig.axes:
        for axis in (axes.xaxis, axes.yaxis):
            current = {id(t) for t in axis.get_ticklabels(minor=False, which="both")} | \
                {id(t) for t in axis.get_ticklabels(minor=True, which="both")}
            for tick in axis.majorTicks + axis.minorTicks:
                for label in (tick.label1, tick.label2):
                    owner[id(label)] = (axes, axis, tick.get_loc(), id(label) in current)
    kept = []
    for artist, box in drawn:
        if id(artist) in owner:
            axes, axis, loc, is_current = owner[id(artist)]
            if not is_current or not axes.axison or not axis.get_visible():
                continue
            lo, hi = sorted(axis.get_view_interval())
            if loc is None or not (lo - 1e-9 <= loc <= hi + 1e-9):
                continue
        kept.append((artist, box))
    return kept


def assert_legible(fig, *, width, check_cells=True):
    texts, renderer = _texts(fig)
    boxes = np.array([[b.x0, b.y0, b.x1, b.y1] for _, b in texts])
    # no text overlaps another (0.5 px of slack for anti-aliasing)
    if len(boxes) > 1:
        x0, y0, x1, y1 = boxes.T
        overlap_x = np.minimum(x1[:, None], x1[None, :]) - np.maximum(x0[:, None], x0[None, :])
        overlap_y = np.minimum(y1[:, None], y1[None, :]) - np.maximum(y0[:, None], y0[None, :])
        clash = (overlap_x > 0.5) & (overlap_y > 0.5)
        np.fill_diagonal(clash, False)
        i, j = np.nonzero(np.triu(clash))
        pairs = [(texts[a][0].get_text(), texts[b][0].get_text()) for a, b in zip(i[:5], j[:5])]
        assert not len(i), f"{len(i)} overlapping text pairs, e.g. {pairs}"
    # a cell's text stays inside its cell
    if check_cells:
        for artist, box in texts:
            if artist.get_gid() != "cell_value":
                continue
            x, y = artist.get_position()
            corners = artist.axes.transData.transform([(x - 0.5, y - 0.5), (x + 0.5, y + 0.5)])
            (cx0, cy0), (cx1, cy1) = np.sort(corners, axis=0)
            assert cx0 - 0.5 <= box.x0 and box.x1 <= cx1 + 0.5 and cy0 - 0.5 <= box.y0 and box.y1 <= cy1 + 0.5, \
                (artist.get_text(), box, (cx0, cy0, cx1, cy1))
    # no taller than a page, no wider than the width asked for (as saved: the tight box)
    tight = fig.get_tightbbox(renderer)
    assert fig.get_figheight() <= _layout.PAGE_HEIGHT + 1e-9
    assert tight.height <= _layout.PAGE_HEIGHT + 0.05, tight.height
    assert tight.width <= WIDTHS[width] * 1.04, (tight.width, width)
    return texts


# --------------------------------------------------------------------------- every figure kind

@pytest.mark.parametrize("width", ["column", "page"])
@pytest.mark.parametrize("k", SIZES)
def test_superiority_is_legible_at_every_size(k, width):
    rep = _quiet(mcda.pairwise_superiority, flat(k, DATASETS[k]), rope=0.0)
    fig, ax = plot_superiority(rep, width=width)
    assert_legible(fig, width=width)
    layout = _layout.matrix_layout(k, rep.order, width=WIDTHS[width])
    assert bool([t for t in ax.texts if t.get_gid() == "cell_value"]) == layout["annotate"]


@pytest.mark.parametrize("width", ["column", "page"])
@pytest.mark.parametrize("k", SIZES)
def test_relation_is_legible_at_every_size(k, width):
    rep = _quiet(mcda.pairwise_superiority, flat(k, DATASETS[k]), rope=0.0)
    fig, ax = plot_relation(mcda.pairwise_transitivity(rep), width=width)
    assert_legible(fig, width=width)
    drawn_as = "matrix" if [im for im in ax.images if im.get_gid() == "relation_matrix"] else "graph"
    assert drawn_as == _layout.relation_layout(k)


@pytest.mark.parametrize("width", ["column", "page"])
@pytest.mark.parametrize("k", SIZES)
def test_posterior_bars_are_legible_at_every_size(k, width):
    res = mcda.bayesian_sign_comparison(flat(k, DATASETS[k]), rope=0.01)
    fig, ax = plot_posterior_bars(res, width=width)
    assert_legible(fig, width=width)
    n_pairs = k * (k - 1) // 2
    grid = [im for im in ax.images if im.get_gid() == "posterior_grid"]
    assert bool(grid) == (_layout.posterior_layout(k, n_pairs, all_pairs=True) == "grid")
    # "my method vs each baseline": k - 1 bars, on one page even at 50 methods
    fig, ax = plot_posterior_bars(res, pairs=res.methods[-1], width=width)
    assert_legible(fig, width=width)
    assert len([p for p in ax.patches if p.get_gid() == "a_better"]) == k - 1
    legend = [t.get_text() for lg in fig.legends + [ax.get_legend()] if lg is not None for t in lg.get_texts()]
    assert {"better", "worse"} <= set(legend)


@pytest.mark.parametrize("width", ["column", "page"])
@pytest.mark.parametrize("k,n_pages", [(8, 1), (20, 1), (50, 1), (100, 2), (200, 4)])
def test_posterior_bars_of_one_method_page_every_baseline_once(k, n_pages, width):
    from mcda.present.plots.posterior import posterior_bar_pages

    res = mcda.bayesian_sign_comparison(flat(k, 10), rope=0.01)
    mine = str(res.methods[-1])
    drawn = []
    for page in range(1, n_pages + 1):
        fig, ax = plot_posterior_bars(res, pairs=mine, width=width, page=page)
        assert_legible(fig, width=width)
        bars = [p for p in ax.patches if p.get_gid() == "a_better"]
        drawn += [t.get_text() for t in ax.get_yticklabels()]
        assert len(bars) == len(ax.get_yticklabels())
        legend = [t.get_text() for t in fig.legends[0].get_texts()]
        assert {"better", "worse"} <= set(legend)                 # every page explains its encoding
        title = " ".join(fig.get_suptitle().split())
        if n_pages > 1:
            assert f"(page {page} of {n_pages}: page=)" in title
        else:
            assert "page" not in title
        plt.close("all")
    assert sorted(drawn) == sorted(str(m) for m in res.methods if str(m) != mine)   # each baseline once
    with pytest.raises(ValueError, match="`page`"):
        plot_posterior_bars(res, pairs=mine, width=width, page=n_pages + 1)
    # the rule without drawing: even pages, none over a page's rows
    pages = posterior_bar_pages(k - 1)
    assert len(pages) == n_pages and sum(p.stop - p.start for p in pages) == k - 1
    assert max(p.stop - p.start for p in pages) - min(p.stop - p.start for p in pages) <= 1


def test_posterior_bars_of_a_long_list_of_pairs_page_too():
    res = mcda.bayesian_sign_comparison(flat(20, 10), rope=0.01)
    pairs = [(str(a), str(b)) for a, b in zip(res.table["method_a"], res.table["method_b"])][:130]
    shown = 0
    for page in (1, 2, 3):
        fig, ax = plot_posterior_bars(res, pairs=pairs, layout="bars", width="page", page=page)
        assert_legible(fig, width="page")
        assert f"pairs {1 + 43 * (page - 1) + (page > 2)}–" in ax.get_xlabel() and f"page {page} of 3" in ax.get_xlabel()
        shown += len(ax.get_yticklabels())
        plt.close("all")
    assert shown == 130
    with pytest.raises(ValueError, match="`page` must be 1"):
        plot_posterior_bars(res, page=2)                            # the grid of all pairs is one page


@pytest.mark.parametrize("width", ["column", "page"])
@pytest.mark.parametrize("k", [8, 20, 50])
def test_full_mcm_keeps_its_numbers_in_pages_at_every_size(k, width):
    from mcda.plots import plot_mcm
    from mcda.present.plots.mcm import MCM_CELL_FONT, mcm_cells, mcm_layout

    res = _quiet(mcda.pairwise_over_datasets, flat(k, DATASETS[k]))
    cells = mcm_cells(res)
    layout = mcm_layout(cells["rows"], cells["cols"], width=WIDTHS[width])
    assert layout["tier"] in ("stacked", "difference")             # numbers at every size, never colour only
    assert layout["cell_font"] >= MCM_CELL_FONT
    # the pages tile the matrix: every cell on exactly one page
    covered = np.zeros((len(cells["rows"]), len(cells["cols"])), dtype=int)
    for row_part, col_part in layout["pages"]:
        covered[row_part, col_part] += 1
    assert (covered == 1).all()
    n_pages = len(layout["pages"])
    drawn = range(1, n_pages + 1) if n_pages <= 3 else (1, n_pages // 2 + 1, n_pages)   # the larger: three pages
    written, expected = {}, set()
    for page in drawn:
        row_part, col_part = layout["pages"][page - 1]
        expected |= {(r, c) for i, r in enumerate(cells["rows"][row_part]) for j, c in enumerate(cells["cols"][col_part])
                     if np.isfinite(cells["mean_diff"][row_part, col_part][i, j])}
        fig, ax = plot_mcm(res, width=width, page=page)
        texts = assert_legible(fig, width=width)                    # no overlap, every number inside its cell
        caption = " ".join(ax.get_xlabel().split())
        assert "cell: mean row − column" in caption
        if len(layout["pages"]) > 1:
            assert f"(page {page} of {len(layout['pages'])}: page=)" in caption
        rows, cols = cells["rows"][row_part], cells["cols"][col_part]
        for text, _ in texts:
            if text.get_gid() != "cell_value":
                continue
            assert text.get_fontsize() >= _layout.MIN_FONT
            j, i = (int(round(v)) for v in text.get_position())
            key = (rows[i], cols[j])
            assert key not in written
            written[key] = float(text.get_text().split("\n")[0].replace("−", "-"))
        plt.close("all")
    # every tested pair's cell of the drawn pages written, with its mean difference
    tested = {(r, c): cells["mean_diff"][i, j] for i, r in enumerate(cells["rows"]) for j, c in enumerate(cells["cols"])
              if np.isfinite(cells["mean_diff"][i, j])}
    assert set(written) == expected and (n_pages > 3 or expected == set(tested))
    assert all(abs(written[key] - tested[key]) <= 0.0005 + 1e-12 for key in written)
    with pytest.raises(ValueError, match="`page`"):
        plot_mcm(res, width=width, page=len(layout["pages"]) + 1)
    # annotate=False: the colour-only matrix on one page, as before
    assert len(mcm_layout(cells["rows"], cells["cols"], width=WIDTHS[width], annotate=False)["pages"]) == 1


@pytest.mark.parametrize("width", ["column", "page"])
@pytest.mark.parametrize("k", SIZES)
def test_rank_stability_is_legible_at_every_size(k, width):
    with pytest.warns(mcda.MissingDataWarning, match="lacks"):   # the missing cell: said
        res = mcda.rank_stability(flat(k, DATASETS[k]), n_resamples=100, rng=0)
    fig, (heat, bars) = plot_rank_stability(res, width=width)
    assert_legible(fig, width=width)
    # the interval panel keeps its share at every size, and the heat map is not squeezed away
    assert bars.get_position().width >= 0.25 * heat.get_position().width
    assert heat.get_position().width * fig.get_figwidth() >= 0.35 * WIDTHS[width]
    # 40-character names in a column: rows by number, a key names every method once
    names = [str(m) for m in res.mean_ranks.index]
    if _layout.numbered_rows(names, width=WIDTHS[width]):
        key = [t.get_text() for t in fig.legends[0].get_texts()]
        assert sorted(k_.split(" ", 1)[1] for k_ in key) == sorted(names)


@pytest.mark.parametrize("width", ["column", "page"])
@pytest.mark.parametrize("k", [8, 20, 50, 200])
def test_critical_difference_fits_a_page_at_every_size(k, width):
    res = _quiet(mcda.compare_over_datasets, flat(k, 30))
    fig, ax = plot_critical_difference(res, width=width)
    assert_legible(fig, width=width)
    notes = " ".join(t.get_text() for t in ax.texts if t.get_gid() == "note")
    n_pages = int(notes.split("page 1 of ")[1].split(":")[0]) if "page 1 of" in notes else 1
    assert n_pages == 1 if k <= 20 else True             # 8 and 20 methods never need pages
    assert n_pages > 1 if k == 200 else True             # 200 methods always do
    labelled = [t for t in ax.texts if t.get_gid() == "method_label"]
    for page in range(2, n_pages + 1):
        plt.close("all")
        fig, ax = plot_critical_difference(res, width=width, page=page)
        assert_legible(fig, width=width)
        labelled += [t for t in ax.texts if t.get_gid() == "method_label"]
        assert len([b for b in ax.lines if b.get_gid() == "clique_bar"]) == len([g for g in res.groups if len(g) > 1])
    # every method is labelled exactly once over the pages, its full name kept (wrapped, never cut)
    texts = sorted("".join(t.get_text().replace("\n", "").split(" ")) for t in labelled)
    assert len(texts) == res.n_methods
    assert all(any(str(m) in t for t in texts) for m in res.mean_ranks.index)
    with pytest.raises(ValueError, match="`page`"):
        plot_critical_difference(res, width=width, page=n_pages + 1)


def test_layout_rules_without_drawing():
    assert [_layout.relation_layout(k) for k in (4, 7, 8, 50)] == ["graph", "graph", "matrix", "matrix"]
    for k in SIZES:
        for width in WIDTHS.values():
            lay = _layout.matrix_layout(k, long_names(k), width=width)
            assert lay["height"] <= _layout.PAGE_HEIGHT
            assert lay["tick_font"] >= _layout.MIN_FONT
            assert not lay["annotate"] or lay["cell_font"] >= _layout.MIN_FONT
            assert lay["numbered"]                         # 40-character names are printed once
    assert _layout.posterior_layout(8, 28, all_pairs=True) == "bars"
    assert _layout.posterior_layout(20, 190, all_pairs=True) == "grid"
    assert _layout.posterior_layout(50, 49, all_pairs=False) == "bars"
    assert [s.stop - s.start for s in _layout.page_slices(200, 16)] == [15] * 8 + [16] * 5 or \
        sum(s.stop - s.start for s in _layout.page_slices(200, 16)) == 200
    assert 1.0 + 49 * _layout.row_height(49, fixed=1.0) <= _layout.PAGE_HEIGHT


@pytest.mark.parametrize("width", ["column", "page"])
@pytest.mark.parametrize("k", SIZES)
def test_posterior_simplex_corner_labels_never_collide(k, width):
    res = mcda.bayesian_sign_comparison(flat(k, 10), rope=0.01, method="sampling", n_samples=500, rng=0)
    fig, ax = plot_posterior(res, (res.methods[-1], res.methods[0]), width=width)
    assert_legible(fig, width=width)
    # as the report and the CLI draw it: the exact probabilities quoted, a caption line under the labels
    exact = mcda.bayesian_sign_comparison(flat(k, 10), rope=0.01)
    fig, ax = plot_posterior(res, (res.methods[-1], res.methods[0]), probabilities=exact, width=width)
    assert any(t.get_gid() == "probability_source" for t in ax.texts)
    assert_legible(fig, width=width)
    first, second = res.methods[-1], res.methods[0]
    for text, name in zip([t.get_text() for t in ax.texts if t.get_gid() == "corner_label"][:2], (first, second)):
        lines = text.split("\n")[:-1]                     # the last line is "P = ..."
        if lines == [f"{'ab'[name == second]} better"]:  # lettered: the title names the method
            assert f"{'ab'[name == second]} = {name}" in ax.get_title(loc="left").replace("\n", " ")
        else:                                           # the name whole, broken only where a word ends
            assert len(lines) <= 3 and " ".join(lines).replace("_ ", "_") == f"{name} better"
            assert all(line[-1] in "_- " or line[-1].islower() and nxt[0].isupper()
                       or line[-1].isalpha() != nxt[0].isalpha() for line, nxt in zip(lines, lines[1:]))


def test_wrapped_labels_break_long_words_where_case_or_kind_changes_before_cutting():
    # a camel-case name breaks between its words, then at a digit; only a run longer than a line is cut
    assert _layout.wrap_label("LongMethodName_variant_41_with_tuning better", 10) == \
        "LongMethod\nName_\nvariant_\n41_with_\ntuning\nbetter"
    assert _layout.wrap_label("ResNet50v2", 6) == "ResNet\n50v2"
    assert _layout.wrap_label("abcdefghijklmnop", 5) == "abcde\nfghij\nklmno\np"
    assert _layout.wrap_label("LongMethodName", 20) == "LongMethodName"     # a word that fits stays whole
    assert _layout.wraps_whole("LongMethodName_variant", 10) and not _layout.wraps_whole("abcdefghijk", 10)


@pytest.mark.parametrize("width", ["column", "page"])
@pytest.mark.parametrize("k,n_datasets", [(4, 10), (8, 20), (20, 10), (50, 3)])
def test_pairwise_panels_are_legible_and_split_into_pages(k, n_datasets, width):
    res = _quiet(mcda.paired_tests, cube(k, n_datasets, n_seeds=4))
    fig, axes = plot_pairwise(res, width=width)
    assert_legible(fig, width=width)
    caption = " ".join(fig.get_suptitle().split())
    assert "framed: significant" in caption
    n_pages = int(caption.split("page 1 of ")[1].split(":")[0]) if "page 1 of" in caption else 1
    shown = len(axes)
    for page in range(2, n_pages + 1):               # the other pages hold the other datasets
        shown += len(plot_pairwise(res, width=width, page=page)[1])
        plt.close("all")
    assert shown == n_datasets
    with pytest.raises(ValueError, match="`page`"):
        plot_pairwise(res, width=width, page=n_pages + 1)


@pytest.mark.parametrize("k", [8, 20, 50])
def test_pairwise_panels_mark_the_missing_cell_and_say_so(k):
    res = _quiet(mcda.paired_tests, cube(k, 3, n_seeds=4))          # method 0 has no score on dataset 1
    marks, page, n_pages = [], 1, 1
    while page <= n_pages:                                   # every page (50 methods: a panel per page)
        fig, axes = plot_pairwise(res, datasets=["dataset_0", "dataset_1"], max_cols=2, width="page", page=page)
        assert_legible(fig, width="page")
        caption = " ".join(fig.get_suptitle().split())
        n_pages = int(caption.split(f"page {page} of ")[1].split(":")[0]) if "page 1 of" in caption or \
            f"page {page} of" in caption else 1
        here = [[(int(x), int(y)) for x, y in zip(ln.get_xdata(), ln.get_ydata())]
                for a in axes for ln in a.lines if ln.get_gid() == "missing"]
        assert ("×: no result" in caption) == bool(here)    # said where drawn, and only there
        marks += here
        page += 1
        plt.close("all")
    assert len(marks) == 1                                   # on the dataset with the gap only
    assert sorted(marks[0]) == sorted([(0, j) for j in range(1, k)] + [(j, 0) for j in range(1, k)])


@pytest.mark.parametrize("width", ["column", "page"])
@pytest.mark.parametrize("k", [8, 20, 50])
def test_pairwise_list_marks_the_missing_cell_in_its_legend(k, width):
    res = _quiet(mcda.paired_tests, cube(k, 3, n_seeds=4))
    marked, page = 0, 1
    while marked < k - 1:                 # the gap's k - 1 comparisons come first (method 0 is "a" in each)
        fig, ax = plot_pairwise(res, layout="list", datasets="dataset_1", width=width, page=page)
        assert_legible(fig, width=width)
        missing = [ln for ln in ax.lines if ln.get_gid() == "missing"]
        assert len(missing) == 1 and np.all(np.asarray(missing[0].get_xdata()) == 0.0)
        assert "no result" in [t.get_text() for t in ax.get_legend().get_texts()]
        # the rows without a result are not drawn as "not significant"
        hollow = [ln for ln in ax.lines if ln.get_gid() == "not_significant"][0]
        assert set(np.round(hollow.get_ydata(), 6)).isdisjoint(np.round(missing[0].get_ydata(), 6))
        marked += len(missing[0].get_xdata())
        page += 1
        plt.close("all")
    assert marked == k - 1
    if "of 1 (page" in " ".join(ax.get_xlabel().split()) or "page" not in ax.get_xlabel():
        return                                                              # one page: nothing further
    fig, ax = plot_pairwise(res, layout="list", datasets="dataset_1", width=width, page=page)
    assert not [ln for ln in ax.lines if ln.get_gid() == "missing"]        # the next page has none, and
    assert "no result" not in [t.get_text() for t in ax.get_legend().get_texts()]   # its legend says none


@pytest.mark.parametrize("width", ["column", "page"])
@pytest.mark.parametrize("k,n_datasets", [(4, 10), (8, 200), (20, 10), (50, 50)])
def test_forest_marks_the_missing_cell_and_fits_a_page(k, n_datasets, width):
    summary = _quiet(mcda.summary, cube(k, n_datasets))
    layout = forest_layout(k)
    fig, ax = plot_forest(summary, width=width)
    assert_legible(fig, width=width)
    caption = " ".join((fig.get_suptitle() + " " + (ax.get_xlabel() if layout == "rows" else "")).split())
    n_pages = int(caption.split("page 1 of ")[1].split(":")[0]) if "page 1 of" in caption else 1
    # draw every page of the smaller cases; of the larger ones the last (its own size) besides the first
    drawn_pages = range(1, n_pages + 1) if n_pages <= 6 else (1, n_pages)
    shown, marks = 0, 0
    for page in drawn_pages:
        plt.close("all")
        fig, ax = plot_forest(summary, width=width, page=page)
        assert_legible(fig, width=width)
        if layout == "rows":
            shown += len(ax.get_yticklabels())
            here = sum(len(line.get_ydata()) for line in ax.lines if line.get_gid() == "missing")
            legend = [t.get_text() for t in fig.legends[0].get_texts()]
            assert ("no result" in legend) == bool(here)             # the mark is explained where drawn
            marks += here
        else:                                          # a panel per dataset, a row per method
            shown += len(ax)
            marks += sum(len(line.get_ydata()) for a in ax for line in a.lines if line.get_gid() == "missing")
            assert "× no result" in fig.get_suptitle()
            for a in ax:                               # every method has its row: a dot or a "×"
                assert sum(len(ln.get_xdata()) for ln in a.lines if ln.get_gid() in ("mean", "missing")) == k
    if n_pages <= 6:
        assert shown == n_datasets                                     # every dataset on one page
    else:                                                              # the last page ends at the last
        last = " ".join((fig.get_suptitle() + " " + (ax.get_xlabel() if layout == "rows" else "")).split())
        assert f"–{n_datasets} of {n_datasets}" in last
    assert marks == 1                                                  # the missing cell, once
    with pytest.raises(ValueError, match="`page`"):
        plot_forest(summary, width=width, page=n_pages + 1)


@pytest.mark.parametrize("width", ["column", "page"])
@pytest.mark.parametrize("k,n_datasets", [(4, 2), (8, 3), (20, 1), (50, 1)])
def test_pairwise_list_is_legible_and_split_into_pages(k, n_datasets, width):
    res = _quiet(mcda.paired_tests, cube(k, max(n_datasets, 2), n_seeds=4).isel(dataset=slice(0, n_datasets)))
    fig, ax = plot_pairwise(res, layout="list", width=width)
    assert_legible(fig, width=width)
    title = " ".join(ax.get_xlabel().split())            # the caption wraps to the width
    n_pages = int(title.split("page 1 of ")[1].split(":")[0]) if "page 1 of" in title else 1
    total = len(res.table)
    rows = len([t for t in ax.get_yticklabels() if " − " in t.get_text()])
    for page in ([n_pages] if n_pages > 1 else []):          # the last page ends at the last comparison
        plt.close("all")
        fig, ax = plot_pairwise(res, layout="list", width=width, page=page)
        assert_legible(fig, width=width)
        last = " ".join(ax.get_xlabel().split())
        assert "comparisons " in last and f"–{total} of {total}" in last
    if n_pages == 1:
        assert rows == total
    with pytest.raises(ValueError, match="`page`"):
        plot_pairwise(res, layout="list", width=width, page=n_pages + 1)


def test_pairwise_marks_a_pair_with_a_difference_but_no_p_value_apart():
    raw = mcda.datasets.synthetic(n_datasets=1, n_methods=3, n_seeds=3, rng=0).copy()
    raw[{"method": 0, "seed": [0, 1]}] = np.nan           # method_0 shares one seed: a difference, no test
    res = _quiet(mcda.paired_tests, raw)
    fig, ax = plot_pairwise(res, layout="list", width="page")
    assert_legible(fig, width="page")
    drawn = {ln.get_gid(): len(ln.get_xdata()) for ln in ax.lines if ln.get_gid()}
    assert drawn["not_tested"] == 2 and drawn["not_significant"] == 1 and "missing" not in drawn
    assert "no p-value" in [t.get_text() for t in ax.get_legend().get_texts()]
    plt.close("all")
    fig, axes = plot_pairwise(res, width="page")
    assert_legible(fig, width="page")
    marks = [sorted(zip(ln.get_xdata().tolist(), ln.get_ydata().tolist())) for ln in axes[0].lines
             if ln.get_gid() == "not_tested"]
    assert marks == [[(0, 1), (0, 2)]]                      # the lower cells (row 1 and 2, column 0)
    assert "–: no p-value" in " ".join(fig.get_suptitle().split()) and "×" not in fig.get_suptitle()


def test_pairwise_list_pages_cover_every_comparison_once():
    from mcda.present.plots.pairwise import list_pages

    for counts, per_page in (([1225] * 3, 54), ([6, 6, 6], 10), ([28], 54), ([1, 1], 2)):
        pages = list_pages(counts, per_page)
        assert all(sum(1 + stop - start for _, start, stop in page) <= per_page for page in pages)
        covered = {}
        for page in pages:
            for i, start, stop in page:
                covered.setdefault(i, []).extend(range(start, stop))
        assert {i: sorted(v) for i, v in covered.items()} == {i: list(range(n)) for i, n in enumerate(counts)}


def _epochs(k, n_datasets, n_epochs=4):
    import xarray as xr

    parts = []
    for e in range(n_epochs):
        raw = mcda.datasets.synthetic(n_datasets=n_datasets, n_methods=k, n_seeds=3,
                                      effects=np.linspace(0.0, 0.03, k), base=0.5 + 0.05 * e, rng=e)
        parts.append(raw.assign_coords(method=long_names(k)))
    return xr.concat(parts, dim=xr.DataArray(np.arange(1, n_epochs + 1), dims="epoch", name="epoch"))


@pytest.mark.parametrize("width", ["column", "page"])
@pytest.mark.parametrize("k,n_datasets", [(4, 10), (8, 50), (20, 10), (50, 10)])
def test_learning_curves_are_legible_and_split_into_pages(k, n_datasets, width):
    # a panel per dataset, every method in it (the default up to 8 methods; asked for beyond)
    curves = _quiet(mcda.learning_curves, _epochs(k, n_datasets))
    fig, axes = plot_learning_curves(curves, width=width, layout="datasets")
    assert_legible(fig, width=width)
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert legend == long_names(k)                                   # every method named once
    styles = {(ln.get_color(), str(ln.get_linestyle()), str(ln.get_marker())) for ln in axes[0].lines}
    assert len(styles) == k                                          # and every curve drawn its own way
    title = fig.get_suptitle()
    n_pages = int(title.split("page 1 of ")[1].split(":")[0]) if "page 1 of" in title else 1
    shown = len(axes)
    for page in range(2, n_pages + 1):
        plt.close("all")
        shown += len(plot_learning_curves(curves, width=width, page=page, layout="datasets")[1])
    assert shown == n_datasets


@pytest.mark.parametrize("width", ["column", "page"])
@pytest.mark.parametrize("k", [8, 20, 50])
def test_learning_curves_beyond_eight_methods_give_each_method_its_panel(k, width):
    from mcda.present.plots.learning_curves import learning_curve_layout, method_panel_pages

    n_datasets = 2 if k < 50 else 1                               # each dataset starts a page (seen at 8, 20)
    curves = _quiet(mcda.learning_curves, _epochs(k, n_datasets))
    assert learning_curve_layout(k) == ("datasets" if k <= 8 else "methods")
    layout = None if k > 8 else "methods"                        # the default beyond 8; asked for at 8
    highlighted = {}
    page, n_pages = 1, None
    while n_pages is None or page <= n_pages:
        fig, axes = plot_learning_curves(curves, width=width, layout=layout, page=page)
        assert_legible(fig, width=width)
        caption = " ".join(fig.get_suptitle().split())
        assert "grey: the other" in caption and "Each panel: one method" in caption
        n_pages = int(caption.split(f"page {page} of ")[1].split(":")[0]) if "page=" in caption else 1
        dataset = caption.split(" ")[0].rstrip(".,")
        for panel in axes:
            name = panel.get_title(loc="left").replace("\n", "")      # the whole name, wrapped, never cut
            assert name in long_names(k)
            own = [ln for ln in panel.lines if ln.get_gid() == "mean_curve"]
            assert len(own) == 1 and own[0].get_label() == name
            assert len([ln for ln in panel.lines if ln.get_gid() == "other_curve"]) == k - 1
            highlighted.setdefault(dataset, []).append(name)
        page += 1
        plt.close("all")
    # every method has its own panel once on every dataset
    assert len(highlighted) == n_datasets
    assert all(sorted(names) == sorted(long_names(k)) for names in highlighted.values())
    grid = method_panel_pages(n_datasets, k, width=WIDTHS[width], title_lines=3)
    assert len(grid["pages"]) == n_pages
    with pytest.raises(ValueError, match="`page`"):
        plot_learning_curves(curves, width=width, layout=layout, page=n_pages + 1)


@pytest.mark.parametrize("n_datasets", [10, 50, 200])
def test_shrinkage_is_legible_and_split_into_pages(n_datasets):
    folds = cube(2, n_datasets + 2, n_seeds=10).isel(dataset=slice(2, None))     # past the missing cell
    res = _quiet(mcda.hierarchical_comparison, folds, runs=1, n_chains=2, n_samples=300, rng=0, progress=False)
    pair = tuple(str(m) for m in res.methods[:2])
    shown = 0
    for width in ("column", "page"):
        fig, ax = plot_shrinkage(res, pair, width=width)
        assert_legible(fig, width=width)
        title = ax.get_title(loc="left")
        n_pages = int(title.split("page 1 of ")[1].split(":")[0]) if "page 1 of" in title else 1
        shown = len(ax.get_yticklabels())
        for page in range(2, n_pages + 1):
            plt.close("all")
            fig, ax = plot_shrinkage(res, pair, width=width, page=page)
            assert_legible(fig, width=width)
            shown += len(ax.get_yticklabels())
        assert shown == n_datasets
        plt.close("all")


@pytest.mark.parametrize("width", ["column", "page"])
@pytest.mark.parametrize("k", SIZES)
def test_rank_distribution_is_legible_at_every_size(k, width):
    res = plackett(k)
    assert not res.reason  # converged: the heat map drawn and measured is full, not NaN
    fig, (bars, heat) = plot_rank_distribution(res, width=width)
    assert_legible(fig, width=width)
    assert np.isfinite(heat.get_images()[0].get_array().filled(0.0)).all()
    assert len(bars.patches) == k                              # a P(best) bar per method
    if _layout.numbered_rows(res.order, width=WIDTHS[width], font=_style.FONT_SIZE - (2 if k > 20 else 1)):
        key = [t.get_text() for t in fig.legends[0].get_texts()]
        assert [t.split(" ", 1)[1] for t in key] == [str(m) for m in res.order]


@functools.lru_cache(maxsize=None)
def plackett(k: int):
    """The Plackett-Luce model of 10 complete datasets (past the missing cell), at its default chain sizes."""
    scores = flat(k, 12).isel(dataset=slice(2, None))
    return _quiet(mcda.plackett_luce, scores, rng=0, progress=False)


def test_rank_distribution_without_probabilities_is_refused_with_the_reason():
    res = plackett(8)
    unconverged = dataclasses.replace(res, reason="the chains have not converged (a stand-in reason)")
    with pytest.raises(ValueError, match="no rank probabilities to draw: the chains have not converged"):
        plot_rank_distribution(unconverged)


@functools.lru_cache(maxsize=None)
def criteria_cube(k: int):
    """Two criteria (ARI, higher is better; elapsed seconds, lower) of k long-named methods on 10 datasets."""
    import xarray as xr

    score = flat(k, 12).isel(dataset=slice(2, None)).copy()           # 10 complete datasets
    score.attrs = {}
    rng = np.random.default_rng(k)
    seconds = score.copy(data=np.exp(rng.normal(size=score.shape)) * np.linspace(1.0, 30.0, k))
    both = xr.concat([score, seconds], dim=xr.DataArray(["ARI", "elapsed"], dims="metric", name="metric"))
    return both.assign_coords(direction=("metric", ["higher_is_better", "lower_is_better"]),
                              noise_floor=("metric", [0.01, 0.1]))


@pytest.mark.parametrize("width", ["column", "page"])
@pytest.mark.parametrize("k", SIZES)
def test_tradeoffs_and_weight_stability_are_legible_at_every_size(k, width):
    data = criteria_cube(k)
    dominance = _quiet(mcda.practical_dominance, data, metrics=["ARI", "elapsed"])
    fig, ax = plot_tradeoffs(dominance, x="elapsed", y="ARI", xscale="log", width=width)
    assert_legible(fig, width=width)
    stability = _quiet(mcda.weight_stability, data, metrics=["ARI", "elapsed"], n_steps=10, n_resamples=100, rng=0)
    plt.close("all")
    fig, ax = plot_weight_stability(stability, width=width)
    assert_legible(fig, width=width)


# --------------------------------------------------------------------------- 200 methods: the key under the matrix

@pytest.mark.parametrize("plot", ["superiority", "relation"])
def test_a_key_of_200_long_names_stays_under_the_matrix(plot):
    # at 200 names the key cannot share a page with the matrix: the figure grows, the key never covers it
    k = 200
    scores = np.random.default_rng(0).normal(size=(8, k)) * 0.02 + np.linspace(0.6, 0.9, k)
    report = _quiet(mcda.pairwise_superiority, mcda.score_cube(scores, metric="accuracy", method_names=long_names(k)),
                    rope=0.01)
    fig, ax = (plot_superiority(report) if plot == "superiority"
               else plot_relation(_quiet(mcda.pairwise_transitivity, report)))
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    key = fig.legends[-1].get_window_extent(renderer)
    matrix = ax.get_window_extent(renderer)
    assert len(fig.legends[-1].get_texts()) == k
    assert key.y1 <= matrix.y0 and min(matrix.width, matrix.height) > 0.5 * fig.bbox.width   # not squashed


def test_the_rank_strip_of_200_methods_keeps_its_key_below_and_its_labels_apart():
    # a stand-in result with the fields the figure reads (a real model at 200 methods takes minutes)
    from types import SimpleNamespace

    import pandas as pd

    k = 200
    names = long_names(k)
    distance = np.abs(np.subtract.outer(np.arange(k), np.arange(k)))
    probs = np.exp(-distance / 3.0)
    probs /= probs.sum(axis=1, keepdims=True)
    result = SimpleNamespace(order=names, methods=names, n_rankings=30, reason="",
                             table=pd.DataFrame({"method": names, "prob_best": probs[:, 0]}),
                             rank_probabilities=pd.DataFrame(probs, index=names))
    fig, (bars, heat) = plot_rank_distribution(result)
    texts, renderer = _texts(fig)
    key = fig.legends[0].get_window_extent(renderer)
    assert key.y1 <= heat.get_window_extent(renderer).y0 and len(fig.legends[0].get_texts()) == k
    for axis in (bars.yaxis, heat.xaxis):     # the drawn tick labels of the strip do not touch
        boxes = sorted((b for t, b in texts if t in axis.get_ticklabels()), key=lambda b: (b.y0, b.x0))
        assert len(boxes) >= 8
        assert all(not a.overlaps(b) for a, b in zip(boxes, boxes[1:]))


def test_the_relation_matrix_title_stays_within_a_columns_width():
    # at 60 methods the counts run to five digits: one line of "N circular triads of at most M;
    # ζ ..." ran past the right edge of a column-wide figure; the title is two lines that fit it
    k = 60
    names = [f"GradientBoosting_depth{i}_lr0.05" for i in range(k)]
    rng = np.random.default_rng(0)
    cube = mcda.score_cube(np.round(rng.uniform(0.5, 0.9, (30, k)), 2), metric="accuracy", method_names=names)
    fig, ax = plot_relation(mcda.pairwise_transitivity(mcda.pairwise_superiority(cube)))
    fig.canvas.draw()
    title = ax._left_title  # matplotlib's artist of set_title(loc="left")
    box, page = title.get_window_extent(), fig.bbox
    assert title.get_text() == ax.get_title(loc="left") and title.get_text().count("\n") == 1
    assert box.x0 >= page.x0 - 1 and box.x1 <= page.x1 + 1, (box, page)
    plt.close(fig)
