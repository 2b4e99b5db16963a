"""Epoch selection: final epoch and best-on-validation, checked against a plain pandas reference."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mcda
from mcda.data.cards import get_card
from mcda.stats.within.epochs import epoch_selection_support, select_epoch, selected_epochs


def _tidy(rng=0, n_datasets=3, n_methods=3, n_seeds=2, n_epochs=5, splits=("test", "val"), decimals=None):
    gen = np.random.default_rng(rng)
    rows = []
    for d in range(n_datasets):
        for m in range(n_methods):
            for s in range(n_seeds):
                for e in range(1, n_epochs + 1):
                    for sp in splits:
                        value = gen.uniform(0.5, 0.9)
                        if decimals is not None:
                            value = round(value, decimals)
                        rows.append((f"d{d}", f"m{m}", s, e, sp, value))
    return pd.DataFrame(rows, columns=["dataset", "method", "seed", "epoch", "split", "score"])


def _reference_best_val(frame: pd.DataFrame, lower_is_better: bool = False) -> pd.Series:
    """Independent reference: pandas groupby + idxmax/idxmin on the validation rows (first on ties)."""
    val = frame[frame["split"] == "val"].dropna(subset=["score"])
    test = frame[frame["split"] == "test"].set_index(["dataset", "method", "seed", "epoch"])["score"]
    keys = ["dataset", "method", "seed"]
    pick = val.loc[val.groupby(keys)["score"].idxmin() if lower_is_better else val.groupby(keys)["score"].idxmax()]
    out = {}
    for row in pick.itertuples(index=False):
        out[(row.dataset, row.method, row.seed)] = (row.epoch, test.loc[(row.dataset, row.method, row.seed, row.epoch)])
    return pd.Series(out)


def test_best_val_matches_pandas_reference():
    frame = _tidy(rng=1, decimals=2)  # rounding makes ties in the validation series happen
    cube = mcda.score_cube(frame, metric="accuracy")
    chosen = selected_epochs(cube, selection="best_val").set_index(["dataset", "method", "seed"])
    reference = _reference_best_val(frame)
    assert len(chosen) == len(reference)
    for key, (epoch, score) in reference.items():
        assert chosen.loc[key, "epoch"] == epoch
        assert chosen.loc[key, "rule"] == "best_val"
        assert chosen.loc[key, "score"] == score
    selected = select_epoch(cube, selection="best_val")
    assert set(selected.dims) == {"dataset", "method", "seed"}
    for key, (epoch, score) in reference.items():
        d, m, s = key
        assert selected.sel({"dataset": d, "method": m, "seed": s}).item() == score
        assert selected.coords["selected_epoch"].sel({"dataset": d, "method": m, "seed": s}).item() == epoch


def test_best_val_is_direction_aware():
    frame = _tidy(rng=2)
    cube = mcda.score_cube(frame, metric="log_loss")  # lower is better: the minimum validation loss
    chosen = selected_epochs(cube, selection="best_val").set_index(["dataset", "method", "seed"])
    for key, (epoch, score) in _reference_best_val(frame, lower_is_better=True).items():
        assert chosen.loc[key, "epoch"] == epoch
        assert chosen.loc[key, "score"] == score


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000))
def test_flipping_direction_with_card_selects_the_same_epochs(rng):
    frame = _tidy(rng=rng, n_datasets=2, n_methods=2, n_seeds=2, n_epochs=4)
    cube = mcda.score_cube(frame, metric="accuracy")
    card = get_card("accuracy")
    flipped_card = replace(card, name="neg_accuracy", aliases=(), direction="lower_is_better", lower=-1.0,
                           upper=0.0)  # negated scores lie in [-1, 0]
    negated = frame.assign(score=-frame["score"])
    flipped = mcda.score_cube(negated, metric=flipped_card)
    a = selected_epochs(cube, selection="best_val")
    b = selected_epochs(flipped, selection="best_val")
    assert a["epoch"].tolist() == b["epoch"].tolist()
    np.testing.assert_array_equal(a["score"].to_numpy(), -b["score"].to_numpy())


def test_final_takes_each_runs_last_reported_epoch():
    frame = _tidy(rng=3, n_epochs=6)
    # early stopping: run (d0, m1, seed 0) ends at epoch 3
    stopped = (frame["dataset"] == "d0") & (frame["method"] == "m1") & (frame["seed"] == 0) & (frame["epoch"] > 3)
    frame.loc[stopped, "score"] = np.nan
    cube = mcda.score_cube(frame, metric="accuracy")
    chosen = selected_epochs(cube, selection="final").set_index(["dataset", "method", "seed"])
    # reference: last non-missing test row per run
    test = frame[(frame["split"] == "test")].dropna(subset=["score"])
    last = test.sort_values("epoch").groupby(["dataset", "method", "seed"]).tail(1)
    for row in last.itertuples(index=False):
        assert chosen.loc[(row.dataset, row.method, row.seed), "epoch"] == row.epoch
        assert chosen.loc[(row.dataset, row.method, row.seed), "score"] == row.score
    assert chosen.loc[("d0", "m1", 0), "epoch"] == 3


def test_best_val_without_validation_split_raises_unless_not_strict():
    frame = _tidy(rng=4, splits=("test",))
    cube = mcda.score_cube(frame, metric="accuracy")
    support = epoch_selection_support(cube)
    assert support.supported == []
    assert "no validation split" in support.unsupported["d0"]
    with pytest.raises(ValueError, match="strict=False"):
        select_epoch(cube, selection="best_val")
    fallback = selected_epochs(cube, selection="best_val", strict=False)
    assert set(fallback["rule"]) == {"final (fallback: no validation)"}
    assert (fallback["epoch"] == 5).all()
    final = select_epoch(cube, selection="final")
    np.testing.assert_array_equal(select_epoch(cube, selection="best_val", strict=False).values, final.values)


def test_validation_equal_to_reported_split_is_refused():
    frame = _tidy(rng=5)
    cube = mcda.score_cube(frame, metric="accuracy")
    support = epoch_selection_support(cube, validation="test")
    assert not support.all_supported
    assert "is the reported split" in support.unsupported["d0"]
    with pytest.raises(ValueError, match="best_val"):
        select_epoch(cube, selection="best_val", validation="test")


def test_validation_series_copied_from_test_is_not_a_validation_set():
    frame = _tidy(rng=6)
    copy = frame[frame["split"] == "test"].assign(split="val")
    frame = pd.concat([frame[frame["split"] == "test"], copy], ignore_index=True)
    frame.loc[(frame["dataset"] == "d2") & (frame["split"] == "val"), "score"] += 0.001  # d2 is a real val set
    cube = mcda.score_cube(frame, metric="accuracy")
    support = epoch_selection_support(cube)
    assert support.supported == ["d2"]
    assert "equals the 'test' series" in support.unsupported["d0"]


def test_partial_support_falls_back_only_where_needed():
    frame = _tidy(rng=7)
    lacking = (frame["dataset"] == "d1") & (frame["method"] == "m2") & (frame["split"] == "val")
    frame.loc[lacking, "score"] = np.nan
    cube = mcda.score_cube(frame, metric="accuracy")
    support = epoch_selection_support(cube)
    assert support.supported == ["d0", "d2"]
    assert "no 'val' values for method 'm2'" in support.unsupported["d1"]
    # the runs are named as the user wrote them (seed 0), not as numpy reprs (seed np.int64(0))
    assert "method 'm2' seed 0, method 'm2' seed 1" in support.unsupported["d1"]
    with pytest.raises(ValueError, match="d1"):
        select_epoch(cube, selection="best_val")
    chosen = selected_epochs(cube, selection="best_val", strict=False)
    assert set(chosen.loc[chosen["dataset"] == "d1", "rule"]) == {"final (fallback: no validation)"}
    assert set(chosen.loc[chosen["dataset"] != "d1", "rule"]) == {"best_val"}
    reference = _reference_best_val(frame[frame["dataset"] != "d1"])
    indexed = chosen.set_index(["dataset", "method", "seed"])
    for key, (epoch, score) in reference.items():
        assert indexed.loc[key, "epoch"] == epoch and indexed.loc[key, "score"] == score


def test_metric_dim_needs_a_criterion():
    frame = pd.concat([_tidy(rng=8).assign(metric="accuracy"), _tidy(rng=9).assign(metric="log_loss")],
                      ignore_index=True)
    cube = mcda.score_cube(frame)
    with pytest.raises(ValueError, match="`criterion="):
        select_epoch(cube, selection="best_val")
    selected = select_epoch(cube, selection="best_val", criterion="log_loss")
    chosen = selected_epochs(cube, selection="best_val", criterion="log_loss").set_index(["dataset", "method", "seed"])
    loss = frame[frame["metric"] == "log_loss"].drop(columns="metric")
    acc_test = frame[(frame["metric"] == "accuracy") & (frame["split"] == "test")].set_index(
        ["dataset", "method", "seed", "epoch"])["score"]
    for key, (epoch, score) in _reference_best_val(loss, lower_is_better=True).items():
        assert chosen.loc[key, "epoch"] == epoch
        d, m, s = key
        # every metric is reported at the epoch the criterion chose
        at = {"dataset": d, "method": m, "seed": s}
        assert selected.sel(at | {"metric": "accuracy"}).item() == acc_test.loc[(d, m, s, epoch)]
        assert selected.sel(at | {"metric": "log_loss"}).item() == score


def test_bad_arguments_name_themselves():
    cube = mcda.score_cube(_tidy(rng=10), metric="accuracy")
    with pytest.raises(ValueError, match="`selection` must be one of"):
        select_epoch(cube, selection="best")
    with pytest.raises(ValueError, match="`split` must be one of"):
        select_epoch(cube, split="holdout")
    with pytest.raises(ValueError, match="`validation` must be one of"):
        select_epoch(cube, selection="best_val", validation="dev")
    with pytest.raises(TypeError, match="`strict`"):
        select_epoch(cube, strict="no")
    flat = mcda.datasets.load("demsar2006")
    with pytest.raises(ValueError, match="no `epoch` dim"):
        select_epoch(flat)
    assert not epoch_selection_support(flat).all_supported


def test_a_run_missing_at_its_best_epoch_stays_missing():
    frame = _tidy(rng=11, n_datasets=1, n_methods=2, n_seeds=1, n_epochs=3)
    val = frame["split"] == "val"
    frame.loc[val, "score"] = [0.1, 0.9, 0.2, 0.1, 0.2, 0.9]  # m0 best at epoch 2, m1 at epoch 3
    frame.loc[(frame["method"] == "m0") & (frame["epoch"] == 2) & ~val, "score"] = np.nan
    cube = mcda.score_cube(frame, metric="accuracy")
    selected = select_epoch(cube, selection="best_val")
    assert np.isnan(selected.sel({"dataset": "d0", "method": "m0", "seed": 0}).item())
    assert selected.coords["selected_epoch"].sel({"dataset": "d0", "method": "m0", "seed": 0}).item() == 2
