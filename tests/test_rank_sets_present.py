"""Rank confidence sets as a figure and in the Report: the figure draws the result's fields, page by page;
the sentences say what the result holds.

The numbers asserted here are the result's own fields (the figure and the text compute nothing), and
the designs are chosen so that the sets are known without mcda: estimates 10 standard errors apart
are ordered with certainty (every set a single rank), equal estimates tie every place.
"""

from __future__ import annotations

import matplotlib
import numpy as np
import pandas as pd
import pytest

import mcda

matplotlib.use("Agg")


def _given(k, *, gap, se=1.0, rng=0):
    names = [f"m{j:03d}" for j in range(k)]
    estimates = pd.Series(-gap * np.arange(k, dtype=float), index=names)
    covariance = pd.DataFrame(np.eye(k) * se ** 2, index=names, columns=names)
    return mcda.rank_confidence_sets_from_estimates(estimates, covariance, n_resamples=200, rng=rng)


def test_page_and_tick_geometry():
    from mcda.present.plots.rank_sets import rank_set_pages, rank_ticks

    assert [len(range(200)[p]) for p in rank_set_pages(200)["pages"]] == [50, 50, 50, 50]
    assert len(rank_set_pages(8)["pages"]) == 1 and len(rank_set_pages(50)["pages"]) == 1
    for k in (3, 8, 12, 50, 51, 200, 1000):
        ticks = rank_ticks(k)
        assert ticks[0] == 1 and ticks == sorted(set(ticks)) and ticks[-1] <= k, (k, ticks)
        assert ticks == list(range(1, k + 1)) if k <= 10 else len(ticks) <= 6, (k, ticks)


def test_the_figure_draws_each_methods_set_in_the_tables_order():
    from mcda.plots import plot_rank_sets
    from mcda.present.plots.rank_sets import HALF_BOX, rank_set_pages

    # 10 standard errors apart: every set is its own rank, one method may be the best
    certain = _given(8, gap=10.0)
    fig, ax = plot_rank_sets(certain)
    assert [t.get_text() for t in ax.get_yticklabels()] == [f"m{j:03d}" for j in range(8)]
    dots = next(line for line in ax.lines if line.get_gid() == "estimated_rank").get_xdata()
    assert list(dots) == list(range(1, 9))
    best = next(c for c in ax.collections if c.get_gid() == "rank_set_best").get_segments()
    assert len(best) == 1 and tuple(best[0][:, 0]) == pytest.approx((1 - HALF_BOX, 1 + HALF_BOX))
    # one apart with standard error 1 on 120 methods: wide sets, and the second of two pages
    wide = _given(120, gap=1.0)
    frame = wide.to_frame()
    part = frame.iloc[rank_set_pages(120)["pages"][1]]
    fig, ax = plot_rank_sets(wide, page=2)
    segments = [s for c in ax.collections if c.get_gid() in ("rank_set", "rank_set_best") for s in c.get_segments()]
    drawn = sorted((s[0, 1], s[0, 0], s[1, 0]) for s in segments)
    np.testing.assert_allclose([d[1] for d in drawn], part["rank_low"] - HALF_BOX)
    np.testing.assert_allclose([d[2] for d in drawn], part["rank_high"] + HALF_BOX)
    assert [t.get_text() for t in ax.get_yticklabels()] == list(part["method"])
    assert "page 2 of 2" in fig.get_suptitle() and ax.get_xlim() == (0.5, 120.5)
    with pytest.raises(mcda.McdaArgumentError, match="`page`"):
        plot_rank_sets(wide, page=3)
