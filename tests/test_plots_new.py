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
from mcda.plots.critical_difference import hue_colors  # noqa: E402
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
