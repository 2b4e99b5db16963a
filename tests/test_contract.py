"""One parametrised contract over every public function (cases in tests/contract/cases_*.py)."""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from mcda._core.results import Result
import tests.contract as contract_pkg
from tests.contract.harness import (
    Case,
    assert_frames_match,
    canonical,
    flip_direction,
    make_cube,
    relabel,
)


def _collect() -> list[Case]:
    cases = []
    for info in pkgutil.iter_modules(contract_pkg.__path__):
        if info.name.startswith("cases_"):
            module = importlib.import_module(f"tests.contract.{info.name}")
            cases.extend(module.CASES)
    return cases


CASES = _collect()
IDS = [c.name for c in CASES]


def _frame(result) -> pd.DataFrame:
    frame = result.to_frame()
    assert isinstance(frame, pd.DataFrame)
    return frame


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_fields_and_pvalues(case: Case):
    result = case.call(make_cube(case))
    for name in case.fields:
        assert hasattr(result, name), f"{case.name}: result lacks field {name!r}"
    frame = _frame(result)
    assert len(frame) > 0
    for col in case.pvalue_columns:
        p = frame[col].to_numpy(dtype=float)
        p = p[~np.isnan(p)]
        assert np.all((p >= 0) & (p <= 1)), f"{case.name}: {col} outside [0, 1]"
    assert isinstance(repr(result), str) and repr(result)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_relabelling_methods_relabels_output(case: Case):
    cube = make_cube(case)
    labels = [str(m) for m in cube.coords["method"].values]
    mapping = {m: f"zz_{m[::-1]}" for m in labels}
    back = {v: k for k, v in mapping.items()}
    original = canonical(_frame(case.call(cube)), case)
    renamed = canonical(_frame(case.call(relabel(cube, mapping))), case, rename=back)
    assert_frames_match(original, renamed, case.rtol)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_reordering_permutes_output(case: Case):
    cube = make_cube(case)
    k, n = cube.sizes["method"], cube.sizes["dataset"]
    perm = np.random.default_rng(3).permutation(k)
    shuffled = cube.isel(method=perm, dataset=np.random.default_rng(4).permutation(n))
    original = canonical(_frame(case.call(cube)), case)
    permuted = canonical(_frame(case.call(shuffled)), case)
    assert_frames_match(original, permuted, case.rtol)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_direction_flip_with_card_changes_nothing(case: Case):
    cube = make_cube(case)
    original = canonical(_frame(case.call(cube)), case)
    flipped = canonical(_frame(case.call(flip_direction(cube))), case)
    for col in case.flip_columns:
        if col in flipped.columns:
            flipped[col] = -flipped[col]
    for x, y in case.flip_swap.items():
        if x in flipped.columns and y in flipped.columns:
            flipped[[x, y]] = flipped[[y, x]].to_numpy()
    assert_frames_match(original, flipped, case.rtol)


BAD = [(c, kw, exc, text) for c in CASES for (kw, exc, text) in c.bad_inputs]


@pytest.mark.parametrize("case,kwargs,exc,text", BAD,
                         ids=[f"{c.name}-{'-'.join(kw)}" for c, kw, _, _ in BAD])
def test_bad_input_gives_the_promised_error(case: Case, kwargs, exc, text):
    cube = make_cube(case)
    with pytest.raises(exc, match=text) as raised:
        case.call(cube, **kwargs)
    # the error names, as data, the argument the case got wrong (not an argument of an inner call)
    assert getattr(raised.value, "argument", None) in kwargs, (case.name, getattr(raised.value, "argument", None))


# --------------------------------------------------------------------------- one vocabulary

GLOSSARY = Path(__file__).parents[1] / "docs" / "api" / "glossary.md"


def _glossary_names() -> set[str]:
    """Every backticked name in the first column of the glossary's tables."""
    names = set()
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        if line.startswith("| `"):
            first = line.split(" | ")[0]
            names.update(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", first))
    return names


def _public_result(result):
    """The mcda result inside a test-side wrapper (cases wrap numbers and cubes to give them a frame)."""
    inner = getattr(result, "result", result) if type(result).__module__.startswith("tests.") else result
    return None if type(inner).__module__.startswith("tests.") else inner


def test_the_glossary_is_read():
    names = _glossary_names()
    assert {"p_raw", "p_adjusted", "p_holm", "prob_a_better", "n_equivalent", "standing"} <= names
    assert "pvalue_adjusted" not in names and "p_a_better" not in names


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_fields_and_columns_are_in_the_glossary(case: Case):
    result = _public_result(case.call(make_cube(case)))
    if result is None:  # a number or a cube: the function returns no result object
        return
    names = _glossary_names()
    fields = [f.name for f in dataclasses.fields(result)] if dataclasses.is_dataclass(result) else []
    # the public properties are read like fields (``supported``, ``decision_pvalue``)
    fields += [n for n in dir(type(result)) if not n.startswith("_") and isinstance(getattr(type(result), n), property)]
    unknown_fields = sorted(set(fields) - names)
    assert not unknown_fields, f"{type(result).__name__} fields not in docs/api/glossary.md: {unknown_fields}"
    unknown_columns = sorted(set(map(str, result.to_frame().columns)) - names)
    assert not unknown_columns, f"{type(result).__name__}.to_frame() columns not in the glossary: {unknown_columns}"


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_results_share_one_base(case: Case):
    result = _public_result(case.call(make_cube(case)))
    if result is None:
        return
    assert isinstance(result, Result), f"{type(result).__name__} does not derive from mcda._core.results.Result"
    assert dataclasses.is_dataclass(result) and type(result).__dataclass_params__.frozen
    assert repr(result) == f"{type(result).__name__}\n{result.summary()}"
    assert isinstance(result.to_frame(), pd.DataFrame)


def test_a_p_column_is_always_a_pvalue():
    """`p_` names a p-value; posterior and resampling probabilities are `prob_` (rule 2 of the glossary)."""
    pvalue_names = {"p_raw", "p_adjusted", "p_holm", "p_lower", "p_upper", "p_tost"}
    pvalue_names |= {"p_conjunction", "p_heterogeneity", "p_stouffer", "p_fisher"}  # replicability, meta-analysis
    assert {n for n in _glossary_names() if n.startswith("p_")} <= pvalue_names


# --------------------------------------------------------------------------- every result is under contract
#: Public functions returning a result that no case can call on a cube (the harness's only input).
NO_CUBE = {
    "two_on_multiple": "takes two vectors of scores over datasets, not a cube (its cube form is "
                       "bayesian_signed_rank_comparison / bayesian_sign_comparison, which have cases)",
    "wilcoxon_signed_ranks": "takes a vector of paired differences, not a cube (paired_tests[wilcoxon] "
                             "runs it on a cube and has a case)",
}
CASE_FILES = sorted((Path(__file__).parent / "contract").glob("cases_*.py"))


def _result_functions() -> list[str]:
    """The functions of mcda.__all__ whose return annotation is a Result subclass."""
    import inspect
    import typing

    import mcda

    out = []
    for name in mcda.__all__:
        value = getattr(mcda, name)
        if not inspect.isfunction(value):
            continue
        returned = typing.get_type_hints(inspect.unwrap(value)).get("return")
        if isinstance(returned, type) and issubclass(returned, Result):
            out.append(name)
    return out


def test_every_public_function_has_a_return_annotation():
    import inspect

    import mcda

    bare = [name for name in mcda.__all__ if inspect.isfunction(getattr(mcda, name))
            and inspect.signature(inspect.unwrap(getattr(mcda, name))).return_annotation is inspect.Signature.empty]
    assert not bare, f"public functions without a return annotation (the coverage below reads it): {bare}"


def test_every_public_function_returning_a_result_has_a_contract_case():
    functions = _result_functions()
    assert {"friedman_test", "durbin_test", "mean_ranks", "summary"} <= set(functions)  # the scan reads annotations
    text = "\n".join(p.read_text(encoding="utf-8") for p in CASE_FILES)
    uncovered = [n for n in functions if n not in NO_CUBE and not re.search(rf"mcda\.{n}\b", text)]
    assert not uncovered, f"public functions returning a result without a case in tests/contract/: {uncovered}"
    stale = sorted(set(NO_CUBE) - set(functions))
    assert not stale, f"exemptions for names that are not public functions returning a result: {stale}"

