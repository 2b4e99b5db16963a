"""The Report: settings as defaults of every view, delegation, epoch selection, JSON / netCDF bundles."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest
import xarray as xr

import mcda
from mcda import Report
from mcda.data.design import reduce_seeds

pytestmark = pytest.mark.filterwarnings("ignore::mcda.McdaWarning")


def _seeded(rng=3, missing=0.1, n_datasets=6, n_methods=4, n_seeds=5):
    return mcda.datasets.synthetic(n_datasets=n_datasets, n_methods=n_methods, n_seeds=n_seeds, rng=rng,
                                   missing=missing)


def _epoch_cube(rng=0):
    gen = np.random.default_rng(rng)
    values = gen.uniform(0.5, 0.9, size=(4, 3, 3, 5, 2))  # dataset, method, seed, epoch, split
    return mcda.score_cube(xr.DataArray(values, dims=("dataset", "method", "seed", "epoch", "split"),
                                        coords={"dataset": [f"d{i}" for i in range(4)],
                                                "method": ["a", "b", "c"], "seed": [0, 1, 2],
                                                "epoch": [1, 2, 3, 4, 5], "split": ["test", "val"]}),
                           metric="accuracy")


def _frames_equal(left, right):
    """Two results are equal when their tidy tables are identical (exactly, NaN where NaN)."""
    pd.testing.assert_frame_equal(left.to_frame(), right.to_frame(), check_exact=True)


# --------------------------------------------------------------------------- settings

def test_defaults_come_from_the_card():
    report = Report(mcda.datasets.load("duo2018"), rng=0)
    card = mcda.get_card("ari")
    assert report.ci_method == "t"  # Student's t whatever the card's advice (issue 37: the bootstrap is asked for)
    assert report.rope is None and report.rope_value() == card.noise_floor
    assert report.alpha == 0.05 and report.pairwise_method == "t" and report.epoch_selection == "final"
    assert report.metric_name() == "ari" and report.metric_name(long=True) == card.long_name
    no_card = Report({"d1": {"a": 1.0, "b": 2.0}, "d2": {"a": 2.0, "b": 1.5}}, direction="lower_is_better", rng=0)
    assert no_card.ci_method == "t" and no_card.metric_name() == "score"
    with pytest.raises(ValueError, match="no noise floor"):
        no_card.rope_value()


def test_settings_are_validated_where_they_are_set():
    report = Report(mcda.datasets.load("demsar2006"), rng=0)
    with pytest.raises(ValueError, match="`alpha` must lie in"):
        report.alpha = 1.5
    with pytest.raises(ValueError, match="`ci_method` must be one of"):
        report.ci_method = "normal"
    with pytest.raises(ValueError, match="`pairwise_method` must be one of .* Did you mean 'wilcoxon'"):
        report.pairwise_method = "wilcox"
    with pytest.raises(ValueError, match="`rope` must be a finite number >= 0"):
        report.rope = -0.1
    with pytest.raises(ValueError, match="needs scores with an `epoch` dim"):
        report.epoch_selection = "best_val"
    with pytest.raises(AttributeError, match="cannot set 'colour'"):
        report.colour = "red"
    with pytest.raises(TypeError, match="unknown settings \\['alhpa'\\].* Did you mean 'alpha'"):
        Report(mcda.datasets.load("demsar2006"), alhpa=0.1)
    with pytest.raises(TypeError, match="`rng` must be an integer"):
        Report(mcda.datasets.load("demsar2006"), rng=np.random.default_rng(0))
    assert report.alpha == 0.05  # a refused value leaves the setting as it was


def test_rng_none_draws_one_integer_and_keeps_it():
    report = Report(mcda.datasets.load("demsar2006"))
    assert isinstance(report.rng, int)
    assert Report.from_json(report.to_json()).rng == report.rng


# --------------------------------------------------------------------------- views delegate

def test_views_are_the_module_functions_with_the_reports_settings():
    cube = _seeded()
    report = Report(cube, rng=11, alpha=0.1)
    across = reduce_seeds(cube, how="mean", missing="available")
    _frames_equal(report.compare(), mcda.compare_over_datasets(across, alpha=0.1))
    _frames_equal(report.friedman(), mcda.friedman_test(across, alpha=0.1))
    _frames_equal(report.superiority(), mcda.pairwise_superiority(across, alpha=0.1, adjust="holm"))
    _frames_equal(report.transitivity(), mcda.pairwise_transitivity(report.superiority()))
    _frames_equal(report.bayesian(), mcda.bayesian_sign_comparison(across))
    _frames_equal(report.mean_ranks(), mcda.mean_ranks(across))
    pd.testing.assert_frame_equal(report.rank_table(), mcda.rank_table(across))
    _frames_equal(report.summary(), mcda.summary(cube))
    _frames_equal(report.summary(ci_method="bootstrap"),
                  mcda.summary(cube, ci_method="bootstrap", rng=np.random.default_rng(11)))
    _frames_equal(report.pairwise(), mcda.paired_tests(cube, method="t", alpha=0.1))
    _frames_equal(report.equivalence(), mcda.equivalence(cube, margin=0.01, alpha=0.1))
    _frames_equal(report.power(), mcda.power(cube, alpha=0.1))
    stability = mcda.rank_stability(across, n_resamples=9999, rng=np.random.default_rng(11))
    np.testing.assert_array_equal(report.rank_stability().mean_rank_draws, stability.mean_rank_draws)
    _frames_equal(report.mean_ranks(aggregation="reliability"), mcda.mean_ranks(cube, aggregation="reliability"))


def test_per_call_settings_override_without_changing_the_report():
    report = Report(_seeded(), rng=5)
    assert report.summary(ci_method="bootstrap").ci_method == "bootstrap"
    assert report.summary().ci_method == "t"
    assert report.pairwise(pairwise_method="wilcoxon").method == "wilcoxon"
    assert report.pairwise().method == "t"
    assert report.superiority(rope=0.05).rope == 0.05
    assert report.compare(alpha=0.2).alpha == 0.2 and report.alpha == 0.05
    generator = np.random.default_rng(0)  # a Generator may be passed to one view
    assert report.summary(rng=generator, ci_method="bootstrap").ci_method == "bootstrap"


def test_published_numbers_through_the_report():
    # Demšar (2006) §3.2.2: chi2_F = 9.28, F_F = 3.69 from the printed ranks (tests/data/demsar2006/PROVENANCE.md)
    report = Report(mcda.datasets.load("demsar2006_published_ranks"), rng=0)
    friedman = report.friedman()
    assert friedman.statistic == pytest.approx(9.28, abs=0.005)
    assert friedman.f_statistic == pytest.approx(3.69, abs=0.005)
    assert report.compare().critical_difference == pytest.approx(1.25, abs=0.005)
    # García & Herrera (2008) Table 2: chi2 = 39.647 (untied), Iman-Davenport 14.309
    garcia = Report(mcda.datasets.load("garcia_herrera2008"), rng=0).friedman()
    assert garcia.statistic_untied == pytest.approx(39.647, abs=5e-4)
    assert garcia.f_statistic == pytest.approx(14.309, abs=5e-4)


def test_results_are_cached_per_settings():
    report = Report(_seeded(), rng=5)
    assert report.summary() is report.summary()
    first = report.summary()
    report.ci_method = "bootstrap"
    assert report.summary() is not first and report.summary().ci_method == "bootstrap"
    report.ci_method = "t"
    assert report.summary() is first


def test_within_views_do_not_apply_without_seeds():
    report = Report(mcda.datasets.load("demsar2006"), rng=0)
    assert not report.has_seeds
    for view in ("summary", "pairwise", "equivalence", "power"):
        with pytest.raises(ValueError, match="does not apply"):
            getattr(report, view)()
    assert "do not apply" in report.overview()


def _forest_intervals(report) -> list[tuple[float, float]]:
    """The (low, high) of every interval the forest plot drew, read back from its line segments."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = report.plot_forest()
    segments = [seg for coll in ax.collections if coll.get_gid() == "interval" for seg in coll.get_segments()]
    plt.close(fig)
    return sorted((float(seg[0][0]), float(seg[1][0])) for seg in segments)


def test_changing_ci_method_changes_summary_forest_and_latex_together():
    report = Report(_seeded(missing=0.0), rng=2)
    seen = {}
    for ci_method in ("t", "bootstrap"):
        report.ci_method = ci_method
        seen[ci_method] = (report.summary().to_frame(), _forest_intervals(report), report.to_latex())
    (t_summary, t_forest, t_table), (b_summary, b_forest, b_table) = seen["t"], seen["bootstrap"]
    assert not np.allclose(t_summary["ci_low"], b_summary["ci_low"])
    assert "\\pm" in t_table and "\\pm" not in b_table and "^{+" in b_table
    for summary_frame, forest, table in ((t_summary, t_forest, t_table), (b_summary, b_forest, b_table)):
        # the figure draws exactly the summary's intervals
        expected = sorted(zip(summary_frame["ci_low"].astype(float), summary_frame["ci_high"].astype(float)))
        np.testing.assert_allclose(np.array(forest), np.array(expected), rtol=0, atol=1e-12)
        # and the table prints them
        for row in summary_frame.itertuples(index=False):
            line = next(line for line in table.splitlines() if line.startswith(row.dataset.replace("_", "\\_")))
            if "\\pm" in table:
                text = f"{row.mean:.3f} \\pm {(row.ci_high - row.ci_low) / 2:.3f}"
            else:
                text = f"{row.mean:.3f}^{{+{row.ci_high - row.mean:.3f}}}_{{-{row.mean - row.ci_low:.3f}}}"
            assert text in line
    assert t_forest != b_forest


# --------------------------------------------------------------------------- the data

def test_one_metric_is_selected_from_several():
    full = mcda.datasets.load("duo2018_all")
    with pytest.raises(ValueError, match="several metrics"):
        Report(full)
    report = Report(full, metric="elapsed", rng=0)
    assert report.direction == "lower_is_better" and report.metric_name() == "runtime"
    np.testing.assert_array_equal(report.cube.values, full.sel(metric="elapsed").values)
    by_card = Report(full, metric="runtime", rng=0)  # the card's name finds the 'elapsed' label
    np.testing.assert_array_equal(by_card.cube.values, report.cube.values)
    with pytest.raises(ValueError, match="Did you mean 'ARI'"):
        Report(full, metric="AIR")
    tidy = full.to_dataframe(name="score").reset_index()[["dataset", "method", "metric", "score"]]
    from_tidy = Report(tidy, metric="ARI", rng=0)
    assert from_tidy.direction == "higher_is_better"
    np.testing.assert_array_equal(from_tidy.cube.mcda.sel(method=report.methods).values,
                                  full.sel(metric="ARI").mcda.sel(method=report.methods).values)


def test_final_metrics_give_the_cube_back():
    cube = _seeded(missing=0.2)
    report = Report(cube, rng=0)
    nested = report.final_metrics()
    assert set(nested) == set(report.datasets)
    first = nested["dataset_0"]["method_0"]
    assert len(first) == cube.sizes["seed"]
    back = mcda.score_cube(nested, metric="accuracy")
    np.testing.assert_array_equal(back.values, cube.values)  # NaN where missing, nothing dropped
    flat = Report(mcda.datasets.load("demsar2006"), rng=0).final_metrics()
    assert flat["wine"]["C4.5"] == [0.957]  # Demšar (2006) Table 6, wine, C4.5


def test_epoch_selection_through_the_report():
    cube = _epoch_cube()
    report = Report(cube, rng=0)
    np.testing.assert_array_equal(report.cube.values, mcda.select_epoch(cube).values)
    report.epoch_selection = "best_val"
    np.testing.assert_array_equal(report.cube.values, mcda.select_epoch(cube, selection="best_val").values)
    pd.testing.assert_frame_equal(report.selected_epochs(), mcda.selected_epochs(cube, selection="best_val"))
    assert report.epoch_selection_support().all_supported
    only_test = cube.sel(split=["test"])
    with pytest.raises(ValueError, match="strict=False"):
        Report(only_test, epoch_selection="best_val")
    fallback = Report(only_test, epoch_selection="best_val", strict=False, rng=0)
    assert set(fallback.selected_epochs()["rule"]) == {"final (fallback: no validation)"}
    assert "epochs: best_val" in fallback.overview()


# --------------------------------------------------------------------------- bundles

def _every_view(report: Report) -> dict:
    out = {
        "compare": report.compare().to_frame(),
        "friedman": report.friedman().to_frame(),
        "mean_ranks": report.mean_ranks().to_frame(),
        "rank_table": report.rank_table(),
        "rank_stability": report.rank_stability(n_resamples=500).to_frame(),
        "rank_draws": pd.DataFrame(report.rank_stability(n_resamples=500).mean_rank_draws),
        "superiority": report.superiority().to_frame(),
        "transitivity": report.transitivity().to_frame(),
        "bayesian": report.bayesian().to_frame(),
        "bayesian_sampled": report.bayesian(method="sampling", n_samples=2000).to_frame(),
        "final_metrics": pd.DataFrame({"json": [json.dumps(report.final_metrics(), sort_keys=True)]}),
        "latex": pd.DataFrame({"text": [report.to_latex()]}),
        "overview": pd.DataFrame({"text": [report.overview()]}),
    }
    if report.has_seeds:
        out |= {"summary": report.summary().to_frame(), "pairwise": report.pairwise().to_frame(),
                "equivalence": report.equivalence().to_frame(), "power": report.power().to_frame(),
                "reliability": report.mean_ranks(aggregation="reliability").to_frame()}
    if report.has_epochs:
        out["selected_epochs"] = report.selected_epochs()
    return out


@pytest.mark.parametrize("make", [lambda: Report(_seeded(missing=0.1), ci_method="bootstrap", n_resamples=999,
                                                 alpha=0.1, rope=0.02),
                                  lambda: Report(mcda.datasets.load("duo2018")),
                                  lambda: Report(_epoch_cube(), epoch_selection="best_val", n_resamples=999)],
                         ids=["seeds-missing", "duo2018", "epochs"])
def test_json_round_trip_reproduces_every_view_exactly(make, tmp_path):
    report = make()
    path = tmp_path / "bundle.json"
    text = report.to_json(path)
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["format"] == "mcda-report" and doc["version"] == 1
    assert doc["settings"] == report.settings and doc["cube"]["dims"] == list(report.raw.dims)
    again = Report.from_json(path)
    assert again.settings == report.settings
    xr.testing.assert_identical(again.raw, report.raw)
    before, after = _every_view(report), _every_view(again)
    for name in before:
        pd.testing.assert_frame_equal(before[name], after[name], check_exact=True, obj=name)
    assert Report.from_json(text).settings == report.settings  # the text itself is accepted too


def test_netcdf_round_trip_reproduces_the_views(tmp_path):
    report = Report(_seeded(missing=0.1), rng=4, n_resamples=999)
    report.to_netcdf(tmp_path / "bundle.nc")
    again = Report.from_netcdf(tmp_path / "bundle.nc")
    assert again.settings == report.settings
    for name in ("summary", "pairwise", "compare", "superiority", "bayesian"):
        _frames_equal(getattr(report, name)(), getattr(again, name)())


def test_bundle_errors_are_clear(tmp_path):
    with pytest.raises(FileNotFoundError, match="is not a file"):
        Report.from_json(tmp_path / "nothing.json")
    other = tmp_path / "cube.json"
    mcda.data.io.to_json(mcda.datasets.load("demsar2006"), other)
    with pytest.raises(ValueError, match="not an mcda report bundle"):
        Report.from_json(other)
    newer = json.loads(Report(mcda.datasets.load("demsar2006"), rng=0).to_json())
    newer["version"] = 99
    with pytest.raises(ValueError, match="version 99"):
        Report.from_json(json.dumps(newer))


def test_overview_names_every_section():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        text = Report(_seeded(missing=0.1), rng=1, n_resamples=999).overview()
    for heading in ("== Across datasets", "critical-difference groups", "== Pairwise superiority",
                    "== Transitivity", "== Bayesian sign test", "== Within datasets", "paired t tests",
                    "equivalence (TOST", "power:", "== Excluded methods", "method_0: lacks dataset_2"):
        assert heading in text, heading
    assert repr(Report(mcda.datasets.load("demsar2006"), rng=3)).startswith("Report('auroc', higher_is_better")


def test_overview_when_the_across_dataset_procedure_does_not_apply():
    # two methods, one missing a dataset: nothing left to rank, but the pairwise views apply
    scores = {"d1": {"a": 0.5, "b": 0.6}, "d2": {"a": 0.7, "b": None}, "d3": {"a": 0.4, "b": 0.45}}
    report = Report(scores, metric="ari", rng=0)
    assert "only 1 (a) of 2" in report.compare_not_applicable()
    with pytest.raises(ValueError):
        report.compare()
    text = report.overview()
    assert "does not apply" in text and "== Pairwise superiority" in text and "b: lacks d2" in text
    assert Report(mcda.datasets.load("demsar2006"), rng=0).compare_not_applicable() == ""


def test_plackett_luce_draws_per_chain_grow_beyond_20_methods():
    """The default draws per chain of Report.plackett_luce: 2000 up to 20 methods, then 100 per method
    (plackett_luce_draws' documented rule); a setting or the call's n_samples overrides it."""
    import warnings

    from mcda.app.report import plackett_luce_draws

    assert [plackett_luce_draws(k) for k in (3, 20, 21, 50)] == [2000, 2000, 2100, 5000]
    raw = mcda.datasets.synthetic(n_datasets=4, n_methods=21, n_seeds=2, rng=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = mcda.Report(raw, metric="accuracy", rng=0)
        assert report.plackett_luce().n_samples == 2100
        assert report.plackett_luce().n_warmup == 525
        assert report.plackett_luce(n_samples=50).n_samples == 50
        report.plackett_luce_samples = 60
        assert report.plackett_luce().n_samples == 60 and report.plackett_luce().n_warmup == 500
