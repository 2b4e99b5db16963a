"""Issue 16: a unit conversion (``score_cube(..., scale="percent")``) is stated in every summary and export.

Every public function under the contract (tests/contract/cases_*.py) runs on a cube whose scores
were given in percent and converted; its ``summary()`` must say so. The LaTeX exports must say so
in their captions. Without a conversion nothing is added. (No reference numbers: the tests read
the text.)
"""

from __future__ import annotations

import warnings

import pytest

import mcda
from mcda._core.results import scale_sentence
from mcda.export import comparison_to_latex, pairwise_to_latex, scores_to_latex
from tests.contract.harness import make_cube
from tests.test_contract import CASES

NOTE = "percent -> fraction (divided by 100)"
# these take sizes, not the cube: there is no score whose unit could be stated
_NO_CUBE = {"design_adequacy", "attainable_significance", "q_alpha", "critical_difference", "iman_davenport",
            "adjust_pvalues"}
# the criteria cases rebuild a two-metric cube from the values (tests/contract/cases_criteria.py):
# they run below on a two-metric cube converted per metric
_CRITERIA = {"compare_criteria", "practical_dominance", "promethee", "promethee[available]", "weight_stability",
             "smaa", "gsd_front"}
_NO_CUBE |= _CRITERIA
# these take estimates and their covariance, not the cube: the contract case computes them from the cube's values
_NO_CUBE |= {"rank_confidence_sets_from_estimates"}


def _percent(cube):
    data = cube.copy(data=cube.values * 100.0)
    data.attrs = {}
    return mcda.score_cube(data, metric="accuracy", scale="percent")


def _run(case, cube):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return case.call(cube)


# the lazy cases run the same functions chunk by chunk: their results are the in-memory ones
_RUN = [c for c in CASES if c.name not in _NO_CUBE and not c.name.endswith("[lazy]")]


@pytest.mark.parametrize("case", _RUN, ids=[c.name for c in _RUN])
def test_every_summary_states_the_conversion(case):
    cube = make_cube(case)
    converted = _percent(cube)
    assert converted.attrs["scale"] == NOTE
    result = _run(case, converted)
    if not hasattr(result, "summary"):  # reduce_seeds' cases return a cube: its attrs keep the conversion
        assert result.cube.attrs["scale"] == NOTE, case.name
        return
    text = result.summary()
    assert text.count(scale_sentence(NOTE)) == 1, (case.name, text[-300:])  # once, even with nested results


@pytest.mark.parametrize("name", ["within.paired_tests[t]", "compare_over_datasets", "pairwise_superiority",
                                  "bayesian_sign_comparison[exact]"])
def test_without_a_conversion_nothing_is_added(name):
    case = next(c for c in CASES if c.name == name)
    assert "scores converted" not in _run(case, make_cube(case)).summary()


def _cubes():
    cube = mcda.datasets.synthetic(n_datasets=5, n_methods=4, n_seeds=4, rng=2)
    return _percent(cube)


def test_comparison_and_pairwise_tables_state_the_conversion():
    cube = _cubes()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        across = mcda.reduce_seeds(cube, how="mean")
        tables = {"comparison": comparison_to_latex(mcda.compare_over_datasets(across)),
                  "pairwise": pairwise_to_latex(mcda.paired_tests(cube)),
                  "pairwise control": pairwise_to_latex(mcda.paired_tests(cube), control="method_1"),
                  "pairwise control result": pairwise_to_latex(mcda.paired_tests(cube, control="method_2")),
                  "scores": scores_to_latex(mcda.summary(cube))}
    for name, text in tables.items():
        caption = next(line for line in text.splitlines() if line.startswith(r"\caption{"))
        assert "Scores converted: percent to fraction (divided by 100)." in caption, name
        assert f"scale {NOTE}" in text.splitlines()[0], name


def test_the_cli_states_the_conversion_in_every_table(tmp_path):
    from pathlib import Path

    from mcda.app.cli import main
    import io

    data = Path(__file__).parent / "data" / "user_benchmark" / "percent_scale.csv"
    out = tmp_path / "o"
    assert main(["compare", str(data), "--metric", "accuracy", "--scale", "percent", "--control", "MLP",
                 "--figures", "none", "--out", str(out)], stdout=io.StringIO(), stderr=io.StringIO()) == 0
    for name in ("scores.tex", "comparison.tex", "pairwise.tex", "pairwise_control.tex"):
        assert "Scores converted: percent to fraction" in (out / name).read_text(encoding="utf-8"), name
    for name in ("report.txt", "report.md"):
        assert "percent -> fraction" in (out / name).read_text(encoding="utf-8"), name


def test_the_criteria_state_the_conversion_of_their_metric():
    import numpy as np
    import xarray as xr

    cube = mcda.datasets.synthetic(n_datasets=8, n_methods=4, n_seeds=0, rng=4)
    values = np.stack([cube.values * 100.0, 100.0 * cube.values ** 2], axis=-1)
    data = xr.DataArray(values, dims=("dataset", "method", "metric"),
                        coords={"dataset": cube.coords["dataset"].values, "method": cube.coords["method"].values,
                                "metric": ["accuracy", "runtime"]})
    multi = mcda.score_cube(data, metric={"accuracy": "accuracy", "runtime": "runtime"},
                            scale={"accuracy": "percent"})
    note = multi.attrs["scale"]
    assert note.startswith("accuracy: percent -> fraction")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = [mcda.compare_criteria(multi), mcda.practical_dominance(multi),
                   mcda.promethee(multi, weights={"accuracy": 2, "runtime": 1}), mcda.weight_stability(multi, n_steps=5),
                   mcda.smaa(multi, n_draws=500, rng=0), mcda.gsd_front(multi, n_resamples=9, rng=0)]
    for result in results:
        assert result.summary().endswith(scale_sentence(note)), type(result).__name__
