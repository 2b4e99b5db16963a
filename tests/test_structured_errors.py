"""Errors and reasons are data: argument, value and allowed values on the error; reasons as codes."""

from __future__ import annotations

import pickle

import numpy as np
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
