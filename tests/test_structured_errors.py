"""Errors and reasons are data: argument, value and allowed values on the error; reasons as codes."""

from __future__ import annotations

import pickle

import numpy as np
import pandas as pd
import pytest
import xarray as xr

import mcda
from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError, Reason, check_choice


def test_a_bad_choice_carries_argument_value_and_allowed():
    with pytest.raises(McdaArgumentError) as info:
        check_choice("test", "nemenyl", ("nemenyi", "holm"))
    err = info.value
    assert (err.argument, err.value, err.allowed) == ("test", "nemenyl", ("nemenyi", "holm"))
    assert "Did you mean 'nemenyi'?" in str(err)  # the message is as before
    again = pickle.loads(pickle.dumps(err))
    assert (again.argument, again.value, again.allowed, str(again)) == (err.argument, err.value, err.allowed, str(err))


def test_a_public_function_raises_the_fields():
    with pytest.raises(McdaArgumentError) as info:
        mcda.friedman_test(np.random.default_rng(0).random((6, 3)), "higher_is_better", alpha=2.0)
    assert info.value.argument == "alpha" and info.value.value == 2.0
    with pytest.raises(McdaArgumentTypeError) as info:
        mcda.bayesian_sign_comparison(np.random.default_rng(0).random((6, 3)), "higher_is_better", rope=0.0,
                                      rng=np.random.RandomState(0))
    assert info.value.argument == "rng" and isinstance(info.value.value, np.random.RandomState)


def test_control_names_the_methods_allowed():
    with pytest.raises(McdaArgumentError) as info:
        mcda.control_test(np.random.default_rng(0).random((8, 3)), "higher_is_better", control="zz",
                          method_names=["a", "b", "c"])
    assert info.value.argument == "control" and info.value.value == "zz" and info.value.allowed == ("a", "b", "c")


def test_identical_and_constant_pairs_are_told_apart_by_code():
    # a - b is 0 on every seed (identical), a - c is 0.1 on every seed (constant); the reasons differ and
    # equivalence / power label them from the codes
    a = np.array([0.5, 0.6, 0.7, 0.55])
    cube = xr.DataArray(np.stack([a, a, a - 0.25])[None], dims=("dataset", "method", "seed"),
                        coords={"dataset": ["d"], "method": ["a", "b", "c"], "seed": np.arange(4)},
                        attrs={"direction": "higher_is_better"})
    eq = mcda.equivalence(cube, margin=0.01).to_frame().set_index(["method_a", "method_b"])
    assert eq.loc[("a", "b"), "verdict"] == "identical"
    assert eq.loc[("a", "c"), "verdict"] == "not applicable"
    pw = mcda.power(cube).to_frame().set_index(["method_a", "method_b"])
    assert pw.loc[("a", "b"), "reason"].endswith("no spread to base a power calculation on")
    assert pw.loc[("a", "c"), "reason"].endswith("no spread to base a power calculation on")
    assert {r.value for r in Reason} >= {"identical", "constant", "too_few"}


# --------------------------------------------------------------------------- the raiser names the argument
def test_the_argument_is_data_passed_by_the_raiser_not_read_from_the_message():
    # a message that opens with a backticked name no longer decides the argument: the raiser does
    err = McdaArgumentError("`alpha` must lie in (0, 1); got 2.", argument="level", value=2.0)
    assert err.argument == "level" and err.mentions == ("level", "alpha")
    with pytest.raises(TypeError):
        McdaArgumentError("`alpha` must lie in (0, 1); got 2.")  # argument= is required (None: the data)
    assert McdaArgumentError("scores must be numeric", argument=None).argument is None


def test_library_errors_carry_argument_value_and_allowed():
    with pytest.raises(McdaArgumentError) as info:
        mcda.datasets.load("demsar2007")
    err = info.value
    assert err.argument == "name" and err.value == "demsar2007" and "demsar2006" in err.allowed
    with pytest.raises(McdaArgumentError) as info:
        mcda.mean_ranks(np.random.default_rng(0).random((4, 3)), "higher_is_better", aggregation="custom")
    assert info.value.argument == "weights" and info.value.value is None
    frame = pd.DataFrame({"dataset": ["d1", "d1"], "method": ["a", "b"], "score": ["0.5", "high"]})
    with pytest.raises(McdaArgumentError) as info:
        mcda.score_cube(frame, direction="higher_is_better")
    assert info.value.argument is None  # a non-numeric score: the fault is in the data, not in an argument


def _percent_error() -> McdaArgumentError:
    frame = pd.DataFrame({"dataset": ["d1", "d1", "d2", "d2"], "method": ["a", "b", "a", "b"],
                          "score": [81.0, 84.5, 77.0, 90.0]})
    with pytest.raises(McdaArgumentError) as info:
        mcda.score_cube(frame, metric="accuracy")
    return info.value


def test_a_remedy_is_a_field_per_front_end():
    err = _percent_error()
    assert err.argument == "metric" and err.value == "accuracy" and set(err.remedy) == {"library", "cli"}
    text = str(err)  # the library's words: the message, then the library's remedy
    assert text == f"{err.body} {err.remedy['library']}"
    assert "pass `scale='percent'`" in text and "(see mcda.list_cards())" in text and "CLI" not in text
    from mcda.app.cli import FLAGS

    cli = err.render(FLAGS, "cli")
    assert "give --scale percent to divide them by 100" in cli and "with --metric (see `mcda cards list`)" in cli
    assert "scale=" not in cli and "list_cards" not in cli
    again = pickle.loads(pickle.dumps(err))
    assert (again.remedy, again.argument, str(again)) == (err.remedy, err.argument, str(err))
    with pytest.raises(ValueError, match="library"):
        McdaArgumentError("x", argument=None, remedy={"cli": "give --rope"})


def test_the_cli_renders_warnings_from_their_fields():
    from mcda.app.cli import _in_flags

    cube = mcda.score_cube({"d": {"a": [1.0, 3.0], "b": [2.0, np.nan]}}, metric="runtime")
    with pytest.warns(mcda.MissingDataWarning) as caught:
        mcda.reduce_seeds(cube, how="mean")
    warning = caught[0].message
    assert "Pass missing='complete' to treat such a cell as missing instead." in str(warning)
    cli = _in_flags(warning)
    assert "(--missing available;" in cli and "reduce the seeds yourself: mcda.reduce_seeds(" in cli
    assert "Pass missing=" not in cli
    seeds = pd.DataFrame([(d, m, s + (100 if m == "b" else 0), 0.8 + 0.01 * s + (0.02 if m == "b" else 0.0))
                          for d in ("d1", "d2") for m in ("a", "b") for s in range(4)],
                         columns=["dataset", "method", "seed", "score"])
    with pytest.warns(mcda.UnpairedSeedsWarning) as caught:
        mcda.paired_tests(mcda.score_cube(seeds, metric="accuracy"))
    warning = next(w.message for w in caught if isinstance(w.message, mcda.UnpairedSeedsWarning))
    assert "use paired_tests(..., paired=False) (Welch t / Mann-Whitney)" in str(warning)
    assert "give --unpaired (Welch t / Mann-Whitney)" in _in_flags(warning)


def test_marked_up_values_are_spelled_as_flags():
    from mcda.app.cli import FLAGS

    cube = mcda.score_cube({"d1": {"a": 0.5}, "d2": {"b": 0.6}, "d3": {"a": 0.7, "c": 0.1}},
                           direction="higher_is_better")
    with pytest.raises(McdaArgumentError) as info:
        mcda.compare_over_datasets(cube, missing="datasets")
    err = info.value
    assert err.argument == "missing" and err.value == "datasets"
    assert "`missing='methods'` or `missing='available'`" in str(err)
    assert "--missing methods or --missing available" in err.render(FLAGS, "cli")


def test_the_command_line_prints_its_remedy(tmp_path):
    from mcda.app.cli import main

    path = tmp_path / "percent.csv"
    pd.DataFrame({"dataset": ["d1", "d1", "d2", "d2"], "method": ["a", "b", "a", "b"],
                  "score": [81.0, 84.5, 77.0, 90.0]}).to_csv(path, index=False)
    import io

    err = io.StringIO()
    status = main(["compare", str(path), "--metric", "accuracy", "--no-figures", "--out", str(tmp_path / "o")],
                  stdout=io.StringIO(), stderr=err)
    text = err.getvalue()
    assert status == 1 and "give --scale percent" in text and "(see `mcda cards list`)" in text
    assert "mcda.list_cards()" not in text and "`scale" not in text
