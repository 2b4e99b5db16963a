"""One validation for every route into a statistic (issue 15 "Validate once", issue 21 "Silent misreads").

Each case below is a reproduction from the issues: before, it gave a silent wrong or lossy
result (or a traceback from numpy/xarray); now it gives a clear McdaArgumentError naming the
argument, or a documented, tested behaviour.
"""

from __future__ import annotations

import inspect
import json
import pickle
import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from scipy import stats

import mcda
from mcda import McdaArgumentError, McdaArgumentTypeError
from mcda.data.cards import MetricCard

ROOT = Path(__file__).resolve().parents[1]


def demsar():
    return mcda.datasets.load("demsar2006")


def multi_metric_cube():
    rng = np.random.default_rng(0)
    values = rng.uniform(0, 1, (8, 3, 2))
    da = xr.DataArray(values, dims=("dataset", "method", "metric"),
                      coords={"dataset": [f"d{i}" for i in range(8)], "method": ["a", "b", "c"],
                              "metric": ["ARI", "runtime"]})
    return mcda.score_cube(da)


# --------------------------------------------------------------------------- the error class

def test_the_error_carries_the_argument_as_data_and_survives_pickling():
    with pytest.raises(McdaArgumentError) as info:
        mcda.compare_over_datasets(demsar(), test="tukey")
    err = info.value
    assert isinstance(err, ValueError) and err.argument == "test" and err.mentions[0] == "test"
    assert pickle.loads(pickle.dumps(err)).argument == "test"
    # the command line re-spells the argument from the data, not from the wording
    assert err.render({"test": "--test"}).startswith("--test must be one of")
    with pytest.raises(McdaArgumentTypeError) as info:
        mcda.compare_over_datasets(demsar(), alpha="0.05")
    assert isinstance(info.value, TypeError) and info.value.argument == "alpha"


def test_render_spells_name_value_mentions_from_a_table():
    err = McdaArgumentError("`selection='best_val'` needs a validation split. Pass `strict=False`, or use "
                            "`selection='final'`.", argument="selection")
    assert err.argument == "selection" and err.mentions == ("selection", "strict")
    text = err.render({"selection": "--epoch-selection", ("strict", "False"): "--fallback-final"})
    assert text == ("--epoch-selection best_val needs a validation split. Pass --fallback-final, or use "
                    "--epoch-selection final.")


def test_unknown_metric_and_card_errors_are_argument_errors():
    with pytest.raises(McdaArgumentError) as info:
        mcda.get_card("acuracy")
    assert info.value.argument == "metric" and isinstance(info.value, KeyError)
    assert isinstance(mcda.data.cards.CardError("x", argument="card"), McdaArgumentError)


def test_no_module_branches_on_the_wording_of_a_reason():
    # a reason is text for people; code decides on data (a NaN p-value, a flag column)
    pattern = re.compile(r"""["'][^"']+["']\s+(?:not\s+)?in\s+\w*(?:reason|why|message)\b|"""
                         r"""(?:reason|why)\w*\.(?:startswith|endswith|find)\(|(?:reason|why)\w*\.str\.contains""")
    hits = [f"{p.relative_to(ROOT)}:{i}" for p in (ROOT / "src" / "mcda").rglob("*.py")
            for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if pattern.search(line)]
    assert not hits, hits


# --------------------------------------------------------------------------- MetricCard

@pytest.mark.parametrize("kwargs,field", [
    ({"direction": "up", "noise_floor": 0.01}, "direction"),
    ({"direction": "higher_is_better", "noise_floor": -1}, "noise_floor"),
    ({"direction": "lower_is_better", "noise_floor": float("inf")}, "noise_floor"),
    ({"direction": "higher_is_better", "noise_floor": 0.1, "interval": "z"}, "interval"),
    ({"direction": "higher_is_better", "noise_floor": 0.1, "lower": 1.0, "upper": 0.0}, "range"),
    ({"direction": "higher_is_better", "noise_floor": 0.1, "bounded": "yes"}, "bounded"),
])
def test_a_metric_card_enforces_its_invariants_when_built(kwargs, field):
    with pytest.raises(McdaArgumentError, match=f"`{field}`") as info:
        MetricCard(name="my_metric", **kwargs)
    assert info.value.argument == field
    assert not mcda.data.cards.has_card("my_metric")


def test_the_issues_card_is_refused_before_it_can_register():
    with pytest.raises(McdaArgumentError, match="`direction` must be one of"):
        mcda.register_card(MetricCard(name="updown", direction="up", noise_floor=-1))
    assert not mcda.data.cards.has_card("updown")


# --------------------------------------------------------------------------- hints name the called function's arguments

def _incomplete():
    values = np.array([[0.9, 0.8, np.nan], [0.7, np.nan, 0.6], [0.5, 0.4, 0.3], [0.6, 0.5, 0.55]])
    return mcda.score_cube(values, metric="accuracy", method_names=["a", "b", "c"])


def _one_incomplete():
    values = np.array([[0.9, 0.8, np.nan], [0.7, 0.6, 0.6], [0.5, 0.4, 0.3], [0.6, 0.5, 0.55]])
    return mcda.score_cube(values, metric="accuracy", method_names=["a", "b", "c"])


def _scores_functions():
    for name in mcda.__all__:
        obj = getattr(mcda, name)
        if callable(obj) and not isinstance(obj, type):
            params = list(inspect.signature(obj).parameters)
            if params and params[0] == "scores":
                yield name, obj, params


@pytest.mark.parametrize("name,function,params", list(_scores_functions()), ids=lambda v: v if isinstance(v, str) else "")
def test_a_hint_names_only_arguments_of_the_function_called(name, function, params):
    # friedman_test on an incomplete cube said "Try `policy='datasets'`", an argument it does not take
    # the required arguments past the scores, given values that are valid on their own
    samples = {"control": "a", "difference": 0.05}
    required = [p for p in list(inspect.signature(function).parameters.values())[1:]
                if p.default is inspect.Parameter.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    assert all(p.name in samples for p in required), f"{name}: give this test a value for {[p.name for p in required]}"
    extra = {p.name: samples[p.name] for p in required}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", mcda.McdaWarning)
            function(_incomplete(), **extra)
    except McdaArgumentError as err:
        suggested = re.findall(r"`(\w+)=[^`]*`", str(err))
        assert all(arg in params for arg in suggested), (name, suggested, str(err))


def test_friedman_on_an_incomplete_cube_points_at_complete_cases_not_a_missing_argument():
    with pytest.raises(McdaArgumentError, match="leaves 1 method") as info:
        mcda.friedman_test(_incomplete())
    assert "policy=" not in str(info.value).split("mcda.complete_cases")[0]
    with pytest.raises(McdaArgumentError, match="leaves 1 method"):
        mcda.average_ranks(_incomplete())


# --------------------------------------------------------------------------- warnings point at the user's line

def test_every_warning_points_at_the_callers_line():
    cube = mcda.datasets.load("duo2018_all")
    values = np.array([[0.9, 0.8, 0.7], [0.7, 0.6, 0.6], [0.5, 0.4, 0.3], [np.nan] * 3])  # one dataset without results
    empty = mcda.score_cube(values, metric="accuracy", method_names=["a", "b", "c"])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mcda.promethee(cube, metrics=["ARI", "elapsed"])  # named the exclusions from inside criteria.py
        mcda.weight_stability(cube, metrics=["ARI", "elapsed"], n_steps=4)
        mcda.practical_dominance(cube, metrics=["ARI", "elapsed"])
        mcda.friedman_test(_one_incomplete())
        mcda.compare_over_datasets(empty)
        mcda.two_on_multiple([0.8, np.nan, 0.7, 0.6], [0.7, 0.6, 0.5, 0.5], direction="higher_is_better",
                             rope=0.01)
    ours = [w for w in caught if issubclass(w.category, mcda.McdaWarning)]
    assert len(ours) >= 4
    assert all(w.filename == __file__ for w in ours), [(w.filename, w.lineno) for w in ours]


def test_the_suite_runs_with_warnings_as_errors():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    block = text[text.index("filterwarnings"):]
    assert block.split("[", 1)[1].split('"')[1] == "error"
    with pytest.raises(mcda.MissingDataWarning):  # an unexpected warning fails a test
        mcda.friedman_test(_one_incomplete())


# --------------------------------------------------------------------------- the cube a user holds

@pytest.mark.parametrize("narrow", [
    lambda c: c.sel(metric="ARI"),
    lambda c: c.isel(metric=1),
    lambda c: c.sel(metric="ARI").isel(dataset=slice(0, 6)),
    lambda c: c.sel(metric="runtime").sel(dataset=["d0", "d2", "d3", "d5"]),
    lambda c: c.sel(metric="ARI").where(c.sel(metric="ARI") > 0.05),
    lambda c: c.sel(metric=["runtime"]),
], ids=["sel-metric", "isel-metric", "isel-dataset", "sel-datasets", "where", "sel-metric-list"])
@pytest.mark.parametrize("function", ["practical_dominance", "promethee", "pairwise_counts", "friedman_test",
                                      "pairwise_superiority", "compare_over_datasets", "method_summary"])
def test_a_cube_narrowed_by_xarray_is_accepted_wherever_a_cube_is(narrow, function):
    cube = multi_metric_cube()
    sub = narrow(cube)
    with warnings.catch_warnings():  # .where leaves missing cells, which are named
        warnings.simplefilter("ignore", mcda.McdaWarning)
        result = getattr(mcda, function)(sub)
    assert result is not None
    checked = mcda.data.cube.single_score_cube(sub)
    label = str(sub.coords["metric"].values.ravel()[0])
    assert checked.attrs["direction"] == ("higher_is_better" if label == "ARI" else "lower_is_better")
    assert checked.attrs["noise_floor"] == mcda.get_card(label).noise_floor


def test_pairwise_counts_reads_the_direction_a_narrowed_cube_carries_as_a_coordinate():
    # runtime is lower-is-better: negating the scores and flipping the direction changes nothing
    cube = multi_metric_cube()
    runtime = cube.sel(metric="runtime")
    counts = mcda.pairwise_counts(runtime)
    flipped = mcda.pairwise_counts(-runtime.values, "higher_is_better", rope=0.1,
                                   method_names=list(runtime.coords["method"].values))
    pd.testing.assert_frame_equal(counts.wins, flipped.wins)
    assert counts.wins.to_numpy().sum() > 0


def test_mcda_sel_selects_methods_where_xarrays_sel_reads_method_as_its_own_argument():
    cube = mcda.datasets.load("duo2018")
    whole = cube.sel(**{"method": "SC3"})  # the trap, spelled so the scan below does not flag this line
    assert whole.sizes == cube.sizes  # xarray: the whole cube, silently
    one = cube.mcda.sel(method="SC3")
    assert "method" not in one.dims and one.coords["method"].item() == "SC3"
    np.testing.assert_array_equal(one.values, cube.values[:, list(cube.coords["method"].values).index("SC3")])
    pair = mcda.select(cube, method=["SC3", "Seurat"])
    assert list(pair.coords["method"].values) == ["SC3", "Seurat"]
    xr.testing.assert_identical(pair, cube.sel({"method": ["SC3", "Seurat"]}))
    with pytest.raises(McdaArgumentError, match="Did you mean 'SC3'") as info:
        cube.mcda.sel(method="SC4")
    assert info.value.argument == "method"
    with pytest.raises(McdaArgumentError, match="Did you mean 'method'"):
        cube.mcda.sel(methods="SC3")


def test_no_doc_notebook_or_docstring_uses_xarrays_sel_with_method():
    trap = re.compile(r"(?<!\.mcda)\.sel\(\s*method\s*=")
    paths = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), *sorted((ROOT / "notebooks").glob("*")),
             *sorted((ROOT / "src").rglob("*.py"))]
    hits = [f"{p.relative_to(ROOT)}:{i}" for p in paths if p.is_file() and p.suffix in (".md", ".py", ".ipynb")
            for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if trap.search(line)]
    assert not hits, hits


# --------------------------------------------------------------------------- issue 21: every route validated

def test_a_direction_attr_contradicting_the_card_is_refused():
    c = demsar()
    c.attrs["direction"] = "lower_is_better"  # the issue: this reversed the ranking without a word
    with pytest.raises(McdaArgumentError, match="contradicts the card") as info:
        mcda.compare_over_datasets(c)
    assert info.value.argument == "direction"


@pytest.mark.parametrize("edit,match", [
    (lambda c: c.attrs.update(direction="sideways"), "must be one of"),
    (lambda c: c.attrs.update(noise_floor=-1.0), "noise floor must be a finite number >= 0"),
    (lambda c: c.attrs.update(noise_floor=0.5), "contradicts their card"),
])
def test_a_cube_with_edited_attrs_is_checked_like_new_input(edit, match):
    c = demsar()
    edit(c)
    with pytest.raises(McdaArgumentError, match=match):
        mcda.pairwise_superiority(c)


def test_a_cube_without_a_card_keeps_its_own_checked_noise_floor():
    c = mcda.score_cube(demsar().values, direction="higher_is_better", method_names=list("abcd"))
    c.attrs["noise_floor"] = 0.02
    assert mcda.data.checks.resolve_rope(mcda.data.cube.as_cube(c)) == 0.02
    c.attrs["noise_floor"] = -0.02
    with pytest.raises(McdaArgumentError, match="noise floor"):
        mcda.pairwise_counts(c)


@pytest.mark.parametrize("bad", [np.inf, -np.inf])
def test_an_infinite_score_in_a_built_cube_is_refused(bad):
    c = demsar()
    c[0, 0] = bad  # an infinite score was counted as "practically equivalent"
    with pytest.raises(McdaArgumentError, match="finite"):
        mcda.pairwise_superiority(c)


def test_concatenated_copies_are_refused_not_counted_twice():
    a = demsar()
    with pytest.raises(McdaArgumentError, match="duplicate dataset labels"):
        mcda.friedman_test(xr.concat([a, a], "dataset"))


def test_from_json_validates_and_refuses_json_true():
    c = demsar()
    doc = json.loads(mcda.data.io.to_json(c))
    doc["values"][0][0] = True  # JSON true was read as 1.0
    with pytest.raises(McdaArgumentError, match="booleans|non-numeric"):
        mcda.data.io.from_json(json.dumps(doc))
    doc = json.loads(mcda.data.io.to_json(c))
    doc["attrs"]["direction"] = "lower_is_better"
    with pytest.raises(McdaArgumentError, match="contradicts the card"):
        mcda.data.io.from_json(json.dumps(doc))


def test_from_netcdf_and_open_cube_validate(tmp_path):
    c = demsar()
    bad = c.copy()
    bad.attrs["direction"] = "sideways"
    out = bad.copy()
    out = out.assign_coords({n: out.coords[n].astype(str) for n in out.coords if out.coords[n].dtype == object})
    out.to_netcdf(tmp_path / "bad.nc")  # written by xarray directly: to_netcdf would refuse it
    with pytest.raises(McdaArgumentError, match="must be one of"):
        mcda.data.io.from_netcdf(tmp_path / "bad.nc")
    pytest.importorskip("zarr")
    twice = xr.concat([c, c], "dataset")
    twice = twice.assign_coords({n: twice.coords[n].astype(str) for n in twice.coords
                                 if twice.coords[n].dtype == object})
    twice.to_dataset(name="score").to_zarr(str(tmp_path / "twice.zarr"), mode="w", consolidated=False,
                                           zarr_format=2)
    with pytest.raises(McdaArgumentError, match="duplicate dataset labels"):
        mcda.store.open_cube(tmp_path / "twice.zarr")


@pytest.mark.parametrize("setting,value,match", [
    ("test", "tukey", "`test` must be one of"),
    ("n_resamples", 10**15, "`n_resamples` must be at most"),
    ("adjust", "tukey", "`adjust` must be"),
    ("control", "nobody", r"`control` must be one of the methods compared \[.+\]; got 'nobody'"),
    ("bogus", 1, "settings this mcda does not know"),
])
def test_report_from_json_checks_every_setting(setting, value, match):
    doc = json.loads(mcda.Report(demsar(), rng=1).to_json())
    doc["settings"][setting] = value
    with pytest.raises(McdaArgumentError, match=match):
        mcda.Report.from_json(json.dumps(doc))


def test_report_from_json_refuses_a_bundle_without_its_rng():
    doc = json.loads(mcda.Report(demsar(), rng=1).to_json())
    del doc["settings"]["rng"]  # a new rng was drawn: other bootstrap draws, silently
    with pytest.raises(McdaArgumentError, match="stores no `rng`") as info:
        mcda.Report.from_json(json.dumps(doc))
    assert info.value.argument == "rng"
    again = mcda.Report.from_json(mcda.Report(demsar(), rng=7).to_json())
    assert again.rng == 7


def test_report_constructor_refuses_an_unknown_test_up_front():
    with pytest.raises(McdaArgumentError, match="Did you mean 'holm'"):
        mcda.Report(demsar(), test="hlm")


# --------------------------------------------------------------------------- labels that differ only in type

@pytest.mark.parametrize("make", [
    lambda: pd.DataFrame({"dataset": [1, "1", 2, 2], "method": ["a", "a", "a", "b"], "score": [0.1, 0.2, 0.3, 0.4]}),
    lambda: pd.DataFrame({"dataset": ["d", "d", "e", "e"], "method": [1, "1", 1, "1"], "score": [0.1, 0.2, 0.3, 0.4]}),
    lambda: {"d1": {1: 0.5, "1": 0.6}, "d2": {1: 0.4, "1": 0.7}},
    lambda: {1: {"a": 0.5, "b": 0.6}, "1": {"a": 0.4, "b": 0.7}},
    lambda: pd.DataFrame([[0.1, 0.2], [0.3, 0.4]], columns=[1, "1"], index=["d1", "d2"]),
    lambda: xr.DataArray([[0.1, 0.2], [0.3, 0.4]], dims=("dataset", "method"),
                         coords={"dataset": ["d1", "d2"], "method": np.array([1, "1"], dtype=object)}),
], ids=["tidy-datasets", "tidy-methods", "dict-methods", "dict-datasets", "wide-columns", "dataarray"])
def test_labels_that_differ_only_in_type_are_refused(make):
    with pytest.raises(McdaArgumentError, match="differ only in type|duplicate"):
        mcda.score_cube(make(), metric="accuracy")


def test_tidy_seed_labels_that_differ_only_in_type_are_refused():
    frame = pd.DataFrame({"dataset": ["d"] * 4, "method": ["a", "a", "b", "b"], "seed": [1, "1", 1, "1"],
                          "score": [0.1, 0.2, 0.3, 0.4]})
    with pytest.raises(McdaArgumentError, match="differ only in type|duplicate"):
        mcda.score_cube(frame, metric="accuracy")


def test_distinct_labels_keep_every_row():
    frame = pd.DataFrame({"dataset": [1, 2, 10, 11], "method": ["a", "b", "a", "b"], "score": [0.1, 0.2, 0.3, 0.4]})
    cube = mcda.score_cube(frame, metric="accuracy")
    assert int(cube.notnull().sum()) == len(frame)


# --------------------------------------------------------------------------- the all-empty dataset: one rule

def _with_empty_dataset():
    values = np.array([[0.9, 0.8, 0.7], [np.nan, np.nan, np.nan], [0.5, 0.45, 0.3], [0.6, 0.5, 0.55],
                       [0.61, 0.52, 0.5], [0.7, 0.6, 0.5]])
    return mcda.score_cube(values, metric="accuracy", method_names=["a", "b", "c"])


@pytest.mark.parametrize("function", ["compare_over_datasets", "friedman_test", "average_ranks", "rank_stability",
                                      "all_pairs_test"])
def test_an_empty_dataset_is_left_out_and_named_by_the_library(function):
    # the across-dataset analyses drop it (named, in memory and lazily alike); the pairwise views
    # count per pair the datasets it shares (n_shared), to which such a dataset never belongs
    with pytest.warns(mcda.MissingDataWarning, match=r"1 dataset\(s\) have no result for any method .*: dataset_1") \
            as caught:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", mcda.SmallSampleWarning)
            getattr(mcda, function)(_with_empty_dataset())
    assert sum("no result for any method" in str(w.message) for w in caught) == 1


def test_the_report_and_the_cli_follow_the_same_rule(tmp_path):
    cube = _with_empty_dataset()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mcda.McdaWarning)
        report = mcda.Report(cube, rng=1)
        assert report.compare_not_applicable() == ""  # it refused the whole analysis
        text = report.overview()
        expected = mcda.friedman_test(cube)
    assert "left out of every view: dataset_1" in text
    assert f"3 methods over {expected.n_datasets} datasets" in text and expected.n_datasets == 5
    assert "lacks dataset_1" not in text
    frame = cube.to_dataframe().reset_index()[["dataset", "method", "score"]]
    path = tmp_path / "scores.csv"
    frame.to_csv(path, index=False)
    from mcda.app.cli import main
    import io

    out, err = io.StringIO(), io.StringIO()
    status = main(["compare", str(path), "--metric", "accuracy", "--out", str(tmp_path / "o"), "--no-figures",
                   "--rng", "1"], stdout=out, stderr=err)
    assert status == 0, err.getvalue()
    assert "left out of every view: dataset_1" in out.getvalue() and "3 methods over 5 datasets" in out.getvalue()


# --------------------------------------------------------------------------- arrays and frames

def test_masked_entries_are_missing_results():
    values = np.array([[0.9, 0.8], [0.7, 0.6], [0.5, 0.55]])
    masked = np.ma.masked_array(values, mask=[[False, True], [False, False], [False, False]])
    cube = mcda.score_cube(masked, metric="accuracy", method_names=["a", "b"])
    assert np.isnan(cube.values[0, 1]) and int(cube.isnull().sum()) == 1
    np.testing.assert_array_equal(cube.values[1:], values[1:])


def test_complex_scores_are_refused():
    with pytest.raises(McdaArgumentError, match="complex"):
        mcda.score_cube(np.array([[0.9 + 1j, 0.8], [0.7, 0.6]]), metric="accuracy", method_names=["a", "b"])
    with pytest.raises(McdaArgumentError, match="complex"):
        mcda.score_cube({"d": {"a": 0.5 + 0.1j, "b": 0.4}}, metric="accuracy")


def test_method_names_never_relabels_a_frame_by_position():
    wide = pd.DataFrame({"svm": [0.9, 0.8], "knn": [0.7, 0.75]}, index=["d1", "d2"])
    with pytest.raises(McdaArgumentError, match="relabels only array input") as info:
        mcda.score_cube(wide, metric="accuracy", method_names=["knn_renamed", "svm_renamed"])
    assert info.value.argument == "method_names"
    ordered = mcda.score_cube(wide, metric="accuracy", method_names=["knn", "svm"])  # the same labels: an order
    assert list(ordered.coords["method"].values) == ["knn", "svm"]
    np.testing.assert_array_equal(ordered.sel({"method": "svm"}).values, [0.9, 0.8])


@pytest.mark.parametrize("argument", ["dataset_names", "seed_names"])
def test_dataset_and_seed_names_are_not_ignored_for_labelled_input(argument):
    wide = pd.DataFrame({"svm": [0.9, 0.8], "knn": [0.7, 0.75]}, index=["d1", "d2"])
    with pytest.raises(McdaArgumentError) as info:
        mcda.score_cube(wide, metric="accuracy", **{argument: ["x", "y"]})
    assert info.value.argument == argument


def test_multiindex_wide_columns_are_refused():
    columns = pd.MultiIndex.from_product([["svm", "knn"], ["accuracy", "f1"]])
    wide = pd.DataFrame(np.full((2, 4), 0.5), columns=columns, index=["d1", "d2"])
    with pytest.raises(McdaArgumentError, match="MultiIndex"):
        mcda.score_cube(wide, metric="accuracy")


def test_a_seed_column_in_a_wide_frame_is_not_a_method():
    wide = pd.DataFrame({"dataset": ["d1", "d1", "d2", "d2"], "seed": [0, 1, 0, 1],
                         "svm": [0.9, 0.8, 0.7, 0.6], "knn": [0.8, 0.7, 0.6, 0.5]})
    with pytest.raises(McdaArgumentError, match="'seed'") as info:
        mcda.score_cube(wide, metric="accuracy")
    assert info.value.argument == "data"


@pytest.mark.parametrize("rng", [True, False, [1, True]])
def test_a_bool_is_not_a_seed(rng):
    with pytest.raises(McdaArgumentTypeError, match="bool") as info:
        mcda.rank_stability(demsar(), n_resamples=10, rng=rng)
    assert info.value.argument == "rng"


def test_float32_input_is_computed_in_float64():
    # 0.80 and 0.79 in float32 differ by 0.0099999905 (< the rope 0.01) or 0.010000050 depending on rounding;
    # every function works on the float64 value of what it was given, so the verdict is that of float64 input
    rng = np.random.default_rng(3)
    values = (np.round(rng.uniform(0.5, 0.9, (12, 3)), 2)).astype(np.float32)
    as64 = values.astype(np.float64)
    for function in (mcda.pairwise_counts, mcda.pairwise_superiority, mcda.bayesian_sign_comparison):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", mcda.SmallSampleWarning)
            a = function(values, "higher_is_better", rope=0.01, method_names=list("abc"))
            b = function(as64, "higher_is_better", rope=0.01, method_names=list("abc"))
        pd.testing.assert_frame_equal(a.to_frame(), b.to_frame())
    cube = mcda.score_cube(values, metric="accuracy", method_names=list("abc"))
    assert cube.dtype == np.float64


def test_scores_beyond_1e150_are_refused_and_tiny_scores_are_computed_stably():
    big = np.array([[1e154, 2e154], [3e154, 1e154]])
    with pytest.raises(McdaArgumentError, match="must not exceed 1e\\+150"):
        mcda.score_cube(big, direction="higher_is_better", method_names=["a", "b"])
    # 1e-154: squares underflow; the paired t test is scale-free, so scipy on the rescaled scores is the reference
    rng = np.random.default_rng(0)
    scores = rng.normal(1.0, 0.1, (1, 2, 8))
    scores[0, 1] += 0.05
    tiny = mcda.score_cube(scores * 1e-154, direction="higher_is_better", method_names=["a", "b"])
    row = mcda.paired_tests(tiny).to_frame().iloc[0]
    ref = stats.ttest_rel(scores[0, 0], scores[0, 1])
    assert row["statistic"] == pytest.approx(ref.statistic, rel=1e-9)
    assert row["p_raw"] == pytest.approx(ref.pvalue, rel=1e-9)
    summary = mcda.method_summary(tiny.isel(seed=0))
    assert summary is not None


def test_two_on_multiple_names_a_pair_with_one_side_missing():
    with pytest.warns(mcda.MissingDataWarning, match=r"1 of 5 datasets .*: 1 \(x missing\)"):
        result = mcda.two_on_multiple([0.8, np.nan, 0.7, 0.6, 0.75], [0.7, 0.6, 0.5, 0.5, 0.7],
                                      direction="higher_is_better", rope=0.01, rng=1)
    assert result.to_frame().iloc[0]["n_datasets"] == 4


def test_the_overview_states_ragged_and_unpaired_seeds():
    # issue 21: "10 seeds per cell" where each cell has 5 (the seed labels, not the seeds a cell
    # has), and "0 of 18 significant" where 9 of the 18 (dataset, pair) rows share no seed
    rng = np.random.default_rng(0)
    rows = [(d, m, s, rng.uniform(0.5, 0.9)) for d in ("d1", "d2", "d3")
            for m, seeds in (("a", range(5)), ("b", range(5, 10)), ("c", range(5)), ("e", range(3))) for s in seeds]
    frame = pd.DataFrame(rows, columns=["dataset", "method", "seed", "score"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mcda.McdaWarning)
        report = mcda.Report(frame, metric="accuracy", rng=1)
        text = report.overview()
        tests = report.pairwise().to_frame()
    assert "10 seeds per cell" not in text
    assert "over 3-5 seeds per cell" in text and "3 cells lost seeds" in text
    # b shares no seed with a, c or e on any dataset: 3 pairs x 3 datasets untested, counted apart
    untested = tests[tests["p_raw"].isna()]
    assert len(untested) == 9 and set(untested["method_a"]) | set(untested["method_b"]) >= {"b"}
    assert "of 9 tested (dataset, pair) differences significant" in text and "9 not tested" in text
    assert "seed labels differ between methods: 9 of 18" in text
