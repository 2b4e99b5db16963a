"""Geometry of the shrinkage and rank-distribution figures (pure functions), and that they draw."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest

import mcda
from mcda.plots import bayesian_models as bm
from mcda.plots import plot_posterior, plot_rank_distribution, plot_shrinkage


@pytest.fixture(scope="module")
def hierarchical():
    folds = mcda.datasets.load("benavoli2017_uci54_folds").isel(dataset=slice(0, 7))
    return mcda.hierarchical_comparison(folds.sel({"method": ["nbc", "aode", "hnb"]}), n_samples=1000, rng=0,
                                        progress=False)


@pytest.fixture(scope="module")
def plackett():
    with pytest.warns(mcda.TiesWarning):
        return mcda.plackett_luce(mcda.datasets.load("garcia_herrera2008"), n_samples=800, rng=0, progress=False)


def test_shrinkage_rows_orient_and_sort(hierarchical):
    forward = bm.shrinkage_rows(hierarchical, ("nbc", "hnb"), sort="input")
    backward = bm.shrinkage_rows(hierarchical, ("hnb", "nbc"), sort="input")
    np.testing.assert_allclose(forward["mean_diff"], -backward["mean_diff"])
    np.testing.assert_allclose(forward["shrunk_ci_low"], -backward["shrunk_ci_high"])
    assert list(forward["dataset"]) == list(hierarchical.shrinkage.query("method_b == 'hnb' and method_a == 'nbc'")
                                            ["dataset"])
    by_raw = bm.shrinkage_rows(hierarchical, ("nbc", "hnb"))
    assert (np.diff(by_raw["mean_diff"]) <= 0).all() and list(by_raw["y"]) == list(range(len(by_raw)))
    with pytest.raises(ValueError, match="`sort`"):
        bm.shrinkage_rows(hierarchical, ("nbc", "hnb"), sort="size")
    with pytest.raises(ValueError, match="`pair`"):
        bm.shrinkage_rows(hierarchical, ("nbc", "nbc"))


def test_shrinkage_figure_shows_every_dataset_and_the_population(hierarchical):
    fig, ax = plot_shrinkage(hierarchical, ("aode", "nbc"))
    assert len(ax.get_yticklabels()) == 7
    gids = {artist.get_gid() for artist in ax.get_children()}
    assert {"raw", "shrunk", "raw_interval", "shrunk_interval", "population_diff", "rope"} <= gids
    # the simplex of a hierarchical pair is plot_posterior's
    fig, ax = plot_posterior(hierarchical, ("nbc", "aode"))
    assert sorted(t.get_gid() for t in ax.texts) == ["corner_label"] * 3


def test_rank_strip_and_heights(plackett):
    order, prob_best, matrix = bm.rank_strip(plackett)
    assert order == plackett.order
    np.testing.assert_allclose(matrix.sum(axis=1), 1.0)
    np.testing.assert_allclose(prob_best, matrix[:, 0])
    assert bm.strip_height(50) < 8.0 and bm.strip_height(5) < bm.strip_height(20) < bm.strip_height(50)


def test_rank_distribution_figure(plackett):
    fig, (bars, heat) = plot_rank_distribution(plackett)
    assert [t.get_text() for t in bars.get_yticklabels()] == plackett.order
    assert any(child.get_gid() == "rank_heatmap" for child in heat.get_children())
    fig, _ = plot_rank_distribution(plackett, annotate=False)
    assert len(fig.axes) == 3  # the colour bar
