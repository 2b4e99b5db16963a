"""Bundled data match their provenance; the synthetic generator has the promised effects."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from mcda import datasets


def test_demsar2006_matches_the_published_table_and_ranks():
    # tests/data/demsar2006/demsar2006_table6_auc.csv is the transcription of Demšar (2006) Table 6
    ref = pd.read_csv("tests/data/demsar2006/demsar2006_table6_auc.csv")
    cube = datasets.load("demsar2006")
    assert cube.sizes == {"dataset": 14, "method": 4}
    for row in ref.itertuples(index=False):
        cell = cube.sel({"dataset": row.dataset, "method": row.method})
        assert cell.item() == row.score
        assert cell.coords["published_rank"].item() == row.published_rank
    ranks = datasets.load("demsar2006_published_ranks")
    assert ranks.attrs["direction"] == "lower_is_better"


def test_duo2018_keeps_its_five_missing_cells():
    cube = datasets.load("duo2018")
    assert cube.sizes == {"dataset": 12, "method": 14}
    assert int(cube.isnull().sum()) == 5  # PROVENANCE: 5 cells empty (NA in source)
    assert cube.attrs["metric"] == "ari"


def test_duo2018_all_has_cards_for_every_metric():
    cube = datasets.load("duo2018_all")
    directions = dict(zip(cube.coords["metric"].values, cube.coords["direction"].values))
    assert directions == {"ARI": "higher_is_better", "elapsed": "lower_is_better",
                          "s.norm.vs.true": "lower_is_better", "nclust.vs.true": "lower_is_better"}


def test_unknown_dataset_suggests():
    with pytest.raises(ValueError, match="Did you mean 'duo2018'"):
        datasets.load("duo2019")


def test_synthetic_has_known_effects_and_missing_share():
    cube = datasets.synthetic(n_datasets=400, n_methods=3, n_seeds=4, effects=[0.0, 0.02, 0.05],
                              dataset_sd=0.05, noise_sd=0.01, missing=0.1, rng=1)
    means = cube.mean(["dataset", "seed"]).values
    np.testing.assert_allclose(means - means[0], [0.0, 0.02, 0.05], atol=0.004)
    cells = cube.isnull().all("seed").values
    assert 0.07 < cells.mean() < 0.13
    lower = datasets.synthetic(n_datasets=200, n_methods=2, n_seeds=0, effects=[0.0, 0.1], metric="runtime",
                               rng=2)
    assert lower.dims == ("dataset", "method")
    assert float((lower.sel({"method": "method_1"}) - lower.sel({"method": "method_0"})).mean()) < 0
    with pytest.raises(ValueError, match="`effects` must have one value per method"):
        datasets.synthetic(n_methods=3, effects=[0.1])
    with pytest.raises(ValueError, match="`missing` must lie in"):
        datasets.synthetic(missing=1.0)
