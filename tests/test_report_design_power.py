"""The Report says, beside every across-dataset result that leaves a pair unseparated, what the design
could have detected (issue 35): the sentence is read back against :func:`mcda.design_power` run by hand
on the scores the comparison tested, over a grid of designs, and every reason it is left out is named."""

import itertools
import warnings

import numpy as np
import pytest

import mcda
from mcda._core.validation import McdaArgumentError
from mcda.app import report as report_module
from mcda.present.writeup import all_separated


def _cube(k, n, effect, missing=0.0, rng=0):
    return mcda.datasets.synthetic(n_datasets=n, n_methods=k, n_seeds=0, effects=np.arange(k) * effect,
                                   dataset_sd=0.05, noise_sd=0.01, missing=missing, rng=rng)


def _report(cube, **settings):
    settings.setdefault("plackett_luce", "never")
    settings.setdefault("signed_rank", "never")
    return mcda.Report(cube, rng=11, **settings)


def _quiet(f):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f()


def _by_hand(report):
    """mcda.design_power on the methods and datasets the comparison tested, with the report's settings."""
    comparison = report.compare()
    cube = report.across_cube.mcda.sel(method=list(comparison.mean_ranks.index))
    cube = cube.isel(dataset=np.flatnonzero(cube.notnull().all("method").values))
    return mcda.design_power(cube, tests=(report.test,), alpha=report.alpha, rope=report.rope_value(),
                             n_resamples=report_module.DESIGN_POWER_RESAMPLES, max_datasets=None, rng=report.rng)


@pytest.mark.parametrize("k, n, effect, test", [
    (k, n, e, t) for (k, n, e), t in itertools.product([(3, 8, 0.0), (4, 12, 0.004), (5, 10, 0.02), (3, 20, 0.03)],
                                                       ["nemenyi", "holm"])])
def test_results_and_overview_say_what_the_design_could_detect(k, n, effect, test):
    report = _report(_cube(k, n, effect), test=test)
    comparison = _quiet(report.compare)
    text = _quiet(report.text)
    overview = _quiet(report.overview)
    if all_separated(comparison):  # every pair separated: nothing unseparated to put the sentence beside
        assert "what the design could detect" not in overview
        assert "could have gone unseen" not in text and "could not have detected" not in text
        return
    sentence = _quiet(lambda: _by_hand(report)).sentence(test)
    assert sentence.rstrip(".") in text
    assert f"what the design could detect: {sentence}" in overview
    # the Methods sentence states the simulated design the Results sentence reports on
    power = _quiet(report.design_power)
    assert (f"benchmarks of {power.n_datasets} datasets and {power.n_methods} methods were simulated" in text)
    assert power.n_datasets == n and power.n_methods == k


def test_strong_effect_on_many_datasets_separates_every_pair_and_says_nothing():
    report = _report(_cube(3, 30, 0.05))
    comparison = _quiet(report.compare)
    assert comparison.posthoc is not None and all_separated(comparison)
    assert "what the design could detect" not in _quiet(report.overview)


def test_skipped_with_a_control_names_it():
    report = _report(_cube(4, 10, 0.0), control="method_0", test="holm")
    why = _quiet(report.design_power_skipped)
    assert why.startswith("does not apply:") and "control method_0" in why
    with pytest.raises(McdaArgumentError, match="control method_0"):
        _quiet(report.design_power)
    assert f"what the design could detect: {why}" in _quiet(report.overview)


def test_skipped_for_a_posthoc_the_simulation_does_not_cover():
    report = _report(_cube(4, 10, 0.0), test="hochberg")
    why = _quiet(report.design_power_skipped)
    assert why.startswith("does not apply:") and "Hochberg" in why and "Nemenyi" in why


def test_skipped_for_an_incomplete_design():
    cube = _cube(4, 12, 0.0, missing=0.15, rng=3)
    report = _report(cube, missing="available")
    comparison = _quiet(report.compare)
    assert comparison.design != "complete"
    why = _quiet(report.design_power_skipped)
    assert why == f"does not apply: the simulation draws complete designs, and these scores form a {comparison.design} design"


def test_a_missing_cell_simulates_the_design_the_test_ranked():
    cube = _cube(5, 12, 0.0).copy()
    cube.loc[dict(method="method_4", dataset=cube.coords["dataset"].values[0])] = np.nan
    report = _report(cube)
    comparison = _quiet(report.compare)
    power = _quiet(report.design_power)
    # the simulated design is the one the rank test ran on, whatever the missing policy left out
    assert (power.n_methods, power.n_datasets) == (len(comparison.mean_ranks), comparison.n_datasets)
    assert (power.n_methods, power.n_datasets) in ((4, 12), (5, 11))


def test_never_and_budget(monkeypatch):
    report = _report(_cube(4, 10, 0.0), design_power="never")
    assert _quiet(report.design_power_skipped) == "not computed: the report's `design_power` setting is 'never'"
    monkeypatch.setattr(report_module, "DESIGN_POWER_BUDGET", 1000)
    auto = _report(_cube(4, 10, 0.0))
    why = _quiet(auto.design_power_skipped)
    # 200 simulated benchmarks x 10 datasets x 4 methods = 8000 units > 1000
    assert why.startswith("not computed: 200 simulated benchmarks of 10 datasets × 4 methods")
    assert "--design-power always" in why
    assert _quiet(_report(_cube(4, 10, 0.0), design_power="always").design_power_skipped) is None


def test_a_bad_setting_names_the_argument():
    with pytest.raises(McdaArgumentError, match="design_power") as info:
        _report(_cube(3, 8, 0.0), design_power="sometimes")
    assert "sometimes" in str(info.value)


def test_cli_flag(tmp_path, capsys):
    from mcda.app.cli import main

    cube = _cube(4, 10, 0.0)
    path = tmp_path / "scores.csv"
    cube.to_pandas().to_csv(path, index_label="dataset")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        main(["compare", str(path), "--metric", "accuracy", "--rng", "1", "--design-power", "never",
              "--no-figures", "--plackett-luce", "never", "--signed-rank", "never", "--out", str(tmp_path / "out")])
    out = capsys.readouterr().out
    assert "what the design could detect: not computed: the report's `design_power` setting is 'never'" in out
