"""One metric selector: every function that picks one metric of several says the same thing.

`mcda.data.checks.select_metric` picks one metric (a label, the label in another case, or the card the
label resolves to); `mcda.data.checks.metric_keys` checks the labels a list or mapping names (exactly).
Each caller's error names its own argument and the metrics there are.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import mcda
from mcda.data.checks import metric_keys, select_metric
from mcda.stats.within.epochs import learning_curves, select_epoch
from mcda.present.plots.forest import plot_forest
from mcda.present.plots.pairwise import plot_pairwise
from mcda.present.plots.tradeoffs import plot_weight_stability, tradeoff_points, weight_segments
from mcda.app.report import Report

LABELS = r"\['accuracy', 'log_loss'\]"


def _tidy(epochs: bool) -> pd.DataFrame:
    gen = np.random.default_rng(3)
    rows = []
    for d in range(6):
        for m in range(3):
            for s in range(3):
                for metric in ("accuracy", "log_loss"):
                    for e in (1, 2, 3) if epochs else (None,):
                        for split in ("test", "val") if epochs else (None,):
                            rows.append((f"d{d}", f"m{m}", s, metric, e, split, gen.uniform(0.5, 0.9) + 0.05 * m))
    frame = pd.DataFrame(rows, columns=["dataset", "method", "seed", "metric", "epoch", "split", "score"])
    return frame if epochs else frame.drop(columns=["epoch", "split"])


@pytest.fixture(scope="module")
def seeded():
    return mcda.score_cube(_tidy(epochs=False))


@pytest.fixture(scope="module")
def across(seeded):
    return mcda.reduce_seeds(seeded, how="mean")


def test_select_metric_rules():
    labels = ["ARI", "elapsed"]
    assert select_metric("ARI", labels) == "ARI"
    assert select_metric("ari", labels) == "ARI"  # another case
    assert select_metric("runtime", labels) == "elapsed"  # the card the label resolves to
    assert select_metric(mcda.get_card("runtime"), labels) == "elapsed"
    assert select_metric(None, ["ARI"]) == "ARI"
    assert select_metric(None, None) is None
    with pytest.raises(mcda.McdaArgumentError, match=r"`metric` must be one of the metrics \['ARI', 'elapsed'\]; "
                                                     r"got 'AIR'\. Did you mean 'ARI'\?") as info:
        select_metric("AIR", labels)
    assert info.value.argument == "metric"
    with pytest.raises(ValueError, match=r"`m` must be one of the metrics .*; got None\. The scores hold several"):
        select_metric(None, labels, argument="m")
    with pytest.raises(ValueError, match=r"`metric` was given \('ARI'\) but the scores hold a single metric"):
        select_metric("ARI", None)
    assert metric_keys({"ARI": 1}, labels, argument="rope") == ["ARI"]
    with pytest.raises(ValueError, match=r"`rope` names metrics not among \['ARI', 'elapsed'\]: 'ari'") as info:
        metric_keys({"ari": 1}, labels, argument="rope")  # mapping keys are the labels themselves
    assert info.value.argument == "rope"


def test_score_cube_and_report_select_with_it(seeded):
    tidy = _tidy(epochs=False)
    for source in (seeded, tidy):
        one = mcda.score_cube(source, metric="LOG_LOSS")
        assert one.attrs["direction"] == "lower_is_better"
        np.testing.assert_array_equal(one.values, seeded.sel(metric="log_loss").values)
        with pytest.raises(ValueError, match=rf"`metric` must be one of the metrics {LABELS}; got 'nmi'"):
            mcda.score_cube(source, metric="nmi")
        with pytest.raises(ValueError, match=rf"`metric` must be one of the metrics {LABELS}; got 'acuracy'\. "
                                             "Did you mean 'accuracy'"):
            Report(source, metric="acuracy")
        with pytest.raises(ValueError, match="several metrics"):
            Report(source)


def test_mapping_arguments_name_unknown_labels(seeded, across):
    with pytest.raises(ValueError, match=rf"`direction` names metrics not among {LABELS}: 'nmi'"):
        mcda.score_cube(seeded.drop_vars(["direction", "noise_floor"]), direction={"nmi": "higher_is_better"})
    with pytest.raises(ValueError, match=rf"`scale` names metrics not among {LABELS}: 'nmi'"):
        mcda.score_cube(seeded, scale={"nmi": "percent"})
    with pytest.raises(ValueError, match=rf"`metrics` names metrics not among {LABELS}: 'nmi'"):
        mcda.practical_dominance(across, metrics=["accuracy", "nmi"])
    with pytest.raises(ValueError, match=rf"`rope` names metrics not among {LABELS}: 'nmi'"):
        mcda.practical_dominance(across, rope={"nmi": 0.1})
    with pytest.raises(ValueError, match=rf"`weights` names metrics not among {LABELS}: 'nmi'"):
        mcda.promethee(across, weights={"nmi": 1.0})


def test_plots_select_with_it(seeded, across):
    summary = mcda.summary(seeded)
    with pytest.raises(ValueError, match=rf"`metric` must be one of the metrics {LABELS}; got 'nmi'"):
        plot_forest(summary, metric="nmi")
    with pytest.raises(ValueError, match=rf"`metric` must be one of the metrics {LABELS}; got None"):
        plot_forest(summary)
    with pytest.raises(ValueError, match=rf"`metric` must be one of the metrics {LABELS}; got 'nmi'"):
        plot_pairwise(mcda.paired_tests(seeded), metric="nmi")
    dom = mcda.practical_dominance(across)
    pd.testing.assert_frame_equal(tradeoff_points(dom, x="Accuracy", y="log_loss"),
                                  tradeoff_points(dom, x="accuracy", y="log_loss"))
    with pytest.raises(ValueError, match=rf"`y` must be one of the metrics {LABELS}; got 'nmi'"):
        tradeoff_points(dom, x="accuracy", y="nmi")
    ws = mcda.weight_stability(across)
    with pytest.raises(ValueError, match=rf"`metric` must be one of the metrics {LABELS}; got 'nmi'"):
        weight_segments(ws, metric="nmi")
    with pytest.raises(ValueError, match=rf"`metric` must be one of the metrics {LABELS}; got 'nmi'"):
        plot_weight_stability(ws, metric="nmi")


def test_epochs_select_with_it():
    cube = mcda.score_cube(_tidy(epochs=True))
    np.testing.assert_array_equal(select_epoch(cube, selection="best_val", criterion="LOG_LOSS").values,
                                  select_epoch(cube, selection="best_val", criterion="log_loss").values)
    chosen = mcda.selected_epochs(cube, selection="best_val", criterion="Log_Loss")
    assert chosen["score"].notna().all()
    with pytest.raises(ValueError, match=rf"`criterion` must be one of the metrics {LABELS}; got 'nmi'"):
        select_epoch(cube, selection="best_val", criterion="nmi")
    with pytest.raises(ValueError, match=rf"`metric` must be one of the metrics {LABELS}; got 'nmi'"):
        learning_curves(cube, metric="nmi")
    single = mcda.score_cube(_tidy(epochs=True).query("metric == 'accuracy'").drop(columns="metric"),
                             metric="accuracy")
    with pytest.raises(ValueError, match=r"`metric` was given \('accuracy'\) but the scores hold a single metric"):
        learning_curves(single, metric="accuracy")
