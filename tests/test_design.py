"""The one vocabulary of ``missing=`` (mcda.data.design): every function, the Report and the
command line read it, accept its values under both spellings, and name the allowed values when
refused."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import mcda
from mcda._core.validation import McdaArgumentError
from mcda.app.cli import build_parser
from mcda.app.report import MISSING_SETTINGS
from mcda.data.design import DEFAULT_MISSING, MISSING_ALIASES, MISSING_CHOICES, MISSING_POLICIES, missing_policy


def test_the_vocabulary_and_its_normal_form():
    assert tuple(MISSING_POLICIES) == ("methods", "datasets", "available")
    assert MISSING_CHOICES == ("methods", "datasets", "available", "complete")
    assert DEFAULT_MISSING == "methods" and MISSING_ALIASES == {"complete": "methods"}
    assert [missing_policy(m) for m in MISSING_CHOICES] == ["complete", "datasets", "available", "complete"]
    with pytest.raises(McdaArgumentError, match=r"`missing`.*'methods'.*'datasets'.*'available'.*'complete'.*'skip'"):
        missing_policy("skip")


def test_the_report_and_the_command_line_offer_the_same_policies():
    assert MISSING_SETTINGS == tuple(MISSING_POLICIES)
    action = next(a for a in build_parser()._subparsers._group_actions[0].choices["compare"]._actions
                  if a.dest == "missing")
    assert tuple(action.choices) == tuple(MISSING_POLICIES) and action.default == DEFAULT_MISSING


def _demsar():
    return mcda.datasets.load("demsar2006")


@pytest.mark.parametrize("call", [
    lambda m: mcda.friedman_test(_demsar(), missing=m),
    lambda m: mcda.compare_over_datasets(_demsar(), missing=m),
    lambda m: mcda.rank_table(_demsar(), missing=m),
    lambda m: mcda.average_ranks(_demsar(), missing=m),
    lambda m: mcda.mean_ranks(_demsar(), missing=m),
    lambda m: mcda.promethee(mcda.datasets.load("duo2018_all").sel(metric=["ARI", "elapsed"]), missing=m),
])
def test_an_unknown_policy_is_refused_naming_the_allowed_values(call):
    with pytest.raises(McdaArgumentError, match=r"`missing`.*'methods'.*'available'.*got 'drop'"):
        call("drop")


def test_the_default_is_one_policy_under_either_spelling():
    cube = _demsar().copy()
    values = cube.values.copy()
    values[0, 1] = np.nan
    cube = cube.copy(data=values)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        default = mcda.average_ranks(cube)
        for spelling in ("methods", "complete"):
            other = mcda.average_ranks(cube, missing=spelling)
            assert other.excluded == default.excluded and other.missing == default.missing == "complete"
            assert other.mean_ranks.equals(default.mean_ranks)


def test_the_outranking_flows_read_the_same_vocabulary():
    cube = mcda.datasets.load("duo2018_all").sel(metric=["ARI", "elapsed"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        default = mcda.promethee(cube)
        methods = mcda.promethee(cube, missing="methods")
        complete = mcda.promethee(cube, missing="complete")
    assert default.missing == methods.missing == complete.missing == "complete"
    assert methods.net_flow.equals(complete.net_flow) and default.net_flow.equals(complete.net_flow)
