"""No procedure-choosing argument is silently ignored (issue 40).

Every public function's parameter that names a procedure or a policy (``test``, ``adjust``,
``method``, ``zero_method``, ``ties``, ``missing``, ``prior``, ``ci_method``, ``selection``, …) is
found by introspecting ``mcda.__all__``; each must have a case here (so a new one cannot be
forgotten), and

- a misspelled value raises :class:`mcda.McdaArgumentError` whose ``argument`` is the parameter,
  whose ``allowed`` lists the accepted values and whose message shows them;
- a valid value that the chosen procedure does not use raises, naming the argument, or is
  honoured (the result changes).

The same for ``Report``'s settings and the CLI's choice options.
"""

from __future__ import annotations

import argparse
import inspect
import io
import warnings

import numpy as np
import pandas as pd
import pytest
import xarray as xr

import mcda
from mcda.app.cli import build_parser, main

pytestmark = pytest.mark.filterwarnings("ignore::mcda.McdaWarning")

#: parameter names that choose a procedure or a policy among named values
CHOICE_PARAMETERS = {"test", "adjust", "correction", "interval", "ci_method", "ties", "missing", "prior",
                     "alternative", "method", "selection", "policy", "how", "kind", "against", "aggregation",
                     "zero_method", "comparisons", "reproduce"}
H = "higher_is_better"
BOGUS = "zzz-not-a-name"


def _data():
    rng = np.random.default_rng(40)
    scores = pd.DataFrame(rng.uniform(0.6, 0.9, size=(12, 4)), columns=list("abcd"))
    seeds = mcda.score_cube(rng.normal(size=(3, 3, 6)) * 0.01 + 0.8, metric="accuracy")
    criteria = mcda.score_cube(xr.DataArray(rng.uniform(size=(8, 3, 2)), dims=("dataset", "method", "metric"),
                                            coords={"metric": ["accuracy", "balanced_accuracy"]}))
    epochs = mcda.score_cube(xr.DataArray(rng.uniform(size=(5, 3, 4, 2)), dims=("dataset", "method", "epoch", "split"),
                                          coords={"split": ["test", "val"]}), metric="accuracy")
    return scores, seeds, criteria, epochs


S, SEEDS, CRITERIA, EPOCHS = _data()
ITEMS = mcda.score_cube(xr.DataArray((np.random.default_rng(41).uniform(size=(1, 3, 20)) > 0.4).astype(float),
                                     dims=("dataset", "method", "item")), metric="exact_match")
PAIR = S[["a", "b"]]

#: (function, parameter) -> a call of the function with that parameter set to v (everything else valid)
CALLS = {
    ("adjust_pvalues", "method"): lambda v: mcda.adjust_pvalues([0.01, 0.2, 0.03], method=v),
    ("all_pairs_test", "test"): lambda v: mcda.all_pairs_test(S, H, test=v),
    ("all_pairs_test", "adjust"): lambda v: mcda.all_pairs_test(S, H, test="siegel", adjust=v),
    ("attainable_significance", "comparisons"): lambda v: mcda.attainable_significance(10, 4, comparisons=v),
    ("attainable_significance", "adjust"): lambda v: mcda.attainable_significance(10, 4, adjust=v),
    ("attainable_significance", "test"): lambda v: mcda.attainable_significance(10, 4, test=v),
    ("almost_stochastic_order", "adjust"):
        lambda v: mcda.almost_stochastic_order(SEEDS, adjust=v, n_resamples=10, rng=0),
    ("average_ranks", "missing"): lambda v: mcda.average_ranks(S, H, missing=v),
    ("bayesian_sign_comparison", "prior"): lambda v: mcda.bayesian_sign_comparison(PAIR, H, rope=0.01, prior=v),
    ("bayesian_sign_comparison", "method"): lambda v: mcda.bayesian_sign_comparison(PAIR, H, rope=0.01, method=v),
    ("bayesian_sign_comparison", "reproduce"):
        lambda v: mcda.bayesian_sign_comparison(PAIR, H, rope=0.01, reproduce=v, method="sampling", rng=1),
    ("bayesian_signed_rank_comparison", "reproduce"):
        lambda v: mcda.bayesian_signed_rank_comparison(PAIR, H, rope=0.01, reproduce=v, n_samples=100, rng=1),
    ("bradley_terry", "ties"): lambda v: mcda.bradley_terry(mcda.pairwise_superiority(S, H, rope=0.0), ties=v),
    ("compare_criteria", "test"): lambda v: mcda.compare_criteria(CRITERIA, test=v),
    ("compare_criteria", "adjust"): lambda v: mcda.compare_criteria(CRITERIA, adjust=v),
    ("compare_over_datasets", "test"): lambda v: mcda.compare_over_datasets(S, H, test=v),
    ("compare_over_datasets", "missing"): lambda v: mcda.compare_over_datasets(S, H, missing=v),
    ("complete_cases", "policy"): lambda v: mcda.complete_cases(mcda.score_cube(S, metric="accuracy"), policy=v),
    ("control_test", "test"): lambda v: mcda.control_test(S, H, control="a", test=v),
    ("control_test", "adjust"): lambda v: mcda.control_test(S, H, control="a", test="siegel", adjust=v),
    ("critical_difference", "test"): lambda v: mcda.critical_difference(4, 10, test=v),
    ("durbin_test", "adjust"): lambda v: mcda.durbin_test(S, H, adjust=v),
    ("effect_sizes", "kind"): lambda v: mcda.effect_sizes(S, H, kind=v, n_resamples=10, rng=0),
    ("effect_sizes", "against"): lambda v: mcda.effect_sizes(S, H, against=v, n_resamples=10, rng=0),
    ("friedman_aligned_ranks_test", "adjust"): lambda v: mcda.friedman_aligned_ranks_test(S, H, adjust=v),
    ("friedman_test", "missing"): lambda v: mcda.friedman_test(S, H, missing=v),
    ("mean_ranks", "aggregation"): lambda v: mcda.mean_ranks(S, H, aggregation=v),
    ("mean_ranks", "missing"): lambda v: mcda.mean_ranks(S, H, missing=v),
    ("paired_tests", "method"): lambda v: mcda.paired_tests(SEEDS, method=v),
    ("paired_tests", "zero_method"): lambda v: mcda.paired_tests(SEEDS, method="wilcoxon", zero_method=v),
    ("pairwise_over_datasets", "test"): lambda v: mcda.pairwise_over_datasets(S, H, test=v),
    ("pairwise_over_datasets", "adjust"): lambda v: mcda.pairwise_over_datasets(S, H, adjust=v),
    ("pairwise_over_datasets", "zero_method"): lambda v: mcda.pairwise_over_datasets(S, H, zero_method=v),
    ("pairwise_superiority", "adjust"): lambda v: mcda.pairwise_superiority(S, H, rope=0.0, adjust=v),
    ("plackett_luce", "ties"):
        lambda v: mcda.plackett_luce(S, H, ties=v, n_samples=10, n_warmup=10, n_chains=1, rng=0),
    ("promethee", "missing"): lambda v: mcda.promethee(CRITERIA, missing=v),
    ("q_alpha", "test"): lambda v: mcda.q_alpha(4, test=v),
    ("quade_test", "adjust"): lambda v: mcda.quade_test(S, H, adjust=v),
    ("rank_stability", "aggregation"): lambda v: mcda.rank_stability(S, H, aggregation=v, n_resamples=10, rng=0),
    ("rank_stability", "missing"): lambda v: mcda.rank_stability(S, H, missing=v, n_resamples=10, rng=0),
    ("rank_table", "missing"): lambda v: mcda.rank_table(S, H, missing=v),
    ("reduce_seeds", "how"): lambda v: mcda.reduce_seeds(SEEDS, how=v),
    ("reduce_seeds", "missing"): lambda v: mcda.reduce_seeds(SEEDS, how="mean", missing=v),
    ("select_epoch", "selection"): lambda v: mcda.select_epoch(EPOCHS, selection=v),
    ("selected_epochs", "selection"): lambda v: mcda.selected_epochs(EPOCHS, selection=v),
    ("skillings_mack_posthoc", "adjust"): lambda v: mcda.skillings_mack_posthoc(S, H, adjust=v),
    ("summary", "ci_method"): lambda v: mcda.summary(SEEDS, ci_method=v),
    ("two_on_multiple", "test"):
        lambda v: mcda.two_on_multiple(S["a"].to_numpy(), S["b"].to_numpy(), direction=H, rope=0.01, test=v),
    ("weight_stability", "missing"): lambda v: mcda.weight_stability(CRITERIA, missing=v, n_resamples=10, n_steps=3),
    ("replicability", "method"): lambda v: mcda.replicability(SEEDS, method=v),
    ("replicability", "test"): lambda v: mcda.replicability(SEEDS, test=v),
    ("replicability", "adjust"): lambda v: mcda.replicability(SEEDS, adjust=v),
    ("meta_analysis", "method"): lambda v: mcda.meta_analysis(SEEDS, method=v),
    ("wilcoxon_signed_ranks", "zero_method"):
        lambda v: mcda.wilcoxon_signed_ranks(np.array([1.0, 2, -1, 0, 3]), zero_method=v),
    ("rank_confidence_sets", "missing"): lambda v: mcda.rank_confidence_sets(S, H, missing=v, n_resamples=10, rng=0),
    # over items
    ("paired_items", "test"): lambda v: mcda.paired_items(ITEMS, test=v),
    ("paired_items", "adjust"): lambda v: mcda.paired_items(ITEMS, adjust=v),
    ("item_omnibus", "test"): lambda v: mcda.item_omnibus(ITEMS, test=v),
    ("item_leaderboard", "test"): lambda v: mcda.item_leaderboard(ITEMS, test=v),
    ("item_leaderboard", "adjust"): lambda v: mcda.item_leaderboard(ITEMS, adjust=v),
    ("paired_permutation_test", "adjust"):
        lambda v: mcda.paired_permutation_test(ITEMS, adjust=v, n_resamples=99, rng=0),
    ("paired_permutation_test", "alternative"):
        lambda v: mcda.paired_permutation_test(ITEMS, alternative=v, n_resamples=99, rng=0),
    ("paired_bootstrap", "ci_method"): lambda v: mcda.paired_bootstrap(ITEMS, ci_method=v, n_resamples=99, rng=0),
}


def _public_choice_parameters() -> set:
    found = set()
    for name in mcda.__all__:
        obj = getattr(mcda, name)
        if not callable(obj) or isinstance(obj, type):
            continue
        for parameter in inspect.signature(obj).parameters:
            if parameter in CHOICE_PARAMETERS:
                found.add((name, parameter))
    return found


def test_every_public_choice_parameter_is_swept():
    found = _public_choice_parameters()
    missing = sorted(found - set(CALLS))
    assert not missing, f"add a case to CALLS for {missing}"
    assert not sorted(set(CALLS) - found), "a case for a parameter that no longer exists"


def _check_refusal(error: mcda.McdaArgumentError, parameter: str):
    assert error.argument == parameter, (error.argument, str(error))
    assert error.allowed, f"`{parameter}`: the error carries no allowed values: {error}"
    shown = [a for a in error.allowed if isinstance(a, str)]
    assert shown and all(a in str(error) for a in shown), (error.allowed, str(error))
    assert BOGUS in str(error)


@pytest.mark.parametrize("case", sorted(CALLS), ids=lambda c: f"{c[0]}-{c[1]}")
def test_a_misspelled_choice_raises_naming_the_allowed_values(case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(mcda.McdaArgumentError) as caught:
            CALLS[case](BOGUS)
    _check_refusal(caught.value, case[1])


#: a valid value that the chosen procedure would not use: each raises, naming the argument
UNUSED = {
    "holm applies Holm, not adjust": (lambda: mcda.all_pairs_test(S, H, test="holm", adjust="finner"), "adjust"),
    "nemenyi takes no adjustment": (lambda: mcda.all_pairs_test(S, H, test="nemenyi", adjust="holm-sidak"), "adjust"),
    "miller takes no adjustment": (lambda: mcda.all_pairs_test(S, H, test="miller", adjust="finner"), "adjust"),
    "bonferroni-dunn applies Bonferroni":
        (lambda: mcda.control_test(S, H, control="a", test="bonferroni-dunn", adjust="finner"), "adjust"),
    "li applies Li": (lambda: mcda.control_test(S, H, control="a", test="li", adjust="hochberg"), "adjust"),
    "nemenyi takes no control": (lambda: mcda.compare_over_datasets(S, H, test="nemenyi", control="a"), "test"),
    "uniform ranks take no weights":
        (lambda: mcda.mean_ranks(S, H, aggregation="uniform", weights=np.arange(1.0, 13.0)), "weights"),
    "uniform ranks take no groups":
        (lambda: mcda.mean_ranks(S, H, aggregation="uniform", groups=np.arange(12) // 3), "groups"),
    "the t test has no zero differences":
        (lambda: mcda.paired_tests(SEEDS, method="t", zero_method="pratt"), "zero_method"),
    "the rank-sum test has no zero differences":
        (lambda: mcda.paired_tests(SEEDS, method="wilcoxon", paired=False, zero_method="zsplit"), "zero_method"),
    "the sign test does not rank zeros":
        (lambda: mcda.pairwise_over_datasets(S, H, test="sign", zero_method="pratt"), "zero_method"),
    "the exact posterior draws nothing to reproduce":
        (lambda: mcda.bayesian_sign_comparison(PAIR, H, rope=0.01, method="exact", reproduce="baycomp", rng=1),
         "reproduce"),
    "the exact posterior takes no sample size":
        (lambda: mcda.bayesian_sign_comparison(PAIR, H, rope=0.01, method="exact", n_samples=2000), "n_samples"),
    "the exact posterior takes no seed":
        (lambda: mcda.bayesian_sign_comparison(PAIR, H, rope=0.01, rng=0), "rng"),
    "a criterion needs a metric dim": (lambda: mcda.select_epoch(EPOCHS, criterion="accuracy"), "criterion"),
    "the t interval takes no resample count": (lambda: mcda.summary(SEEDS, ci_method="t", n_resamples=999), "n_resamples"),
    "the t interval takes no seed": (lambda: mcda.summary(SEEDS, ci_method="t", rng=0), "rng"),
    "the default t interval takes no seed": (lambda: mcda.summary(SEEDS, rng=np.random.default_rng(0)), "rng"),
    "the final epoch reads no validation series":
        (lambda: mcda.select_epoch(EPOCHS, selection="final", validation="val"), "validation"),
    "the final epochs read no validation series":
        (lambda: mcda.selected_epochs(EPOCHS, validation="val"), "validation"),
    "a Report's t summary takes no seed": (lambda: mcda.Report(SEEDS, rng=0).summary(rng=1), "rng"),
}


@pytest.mark.parametrize("case", sorted(UNUSED))
def test_a_valid_value_the_procedure_does_not_use_raises(case):
    call, argument = UNUSED[case]
    with pytest.raises(mcda.McdaArgumentError) as caught:
        call()
    assert argument in caught.value.mentions, (caught.value.mentions, str(caught.value))


def test_the_unused_arguments_are_honoured_where_they_apply():
    # the same n_resamples / rng / validation that are refused above are used by the bootstrap and by best_val
    few = mcda.summary(SEEDS, ci_method="bootstrap", n_resamples=20, rng=0)
    assert few.n_resamples == 20
    assert not np.allclose(few.to_frame()["ci_low"], mcda.summary(SEEDS, ci_method="bootstrap", rng=0).to_frame()["ci_low"])
    best = mcda.select_epoch(EPOCHS, selection="best_val", validation="val")
    assert best.attrs["epoch_selection"] == "best_val"
    assert not np.allclose(best.values, mcda.select_epoch(EPOCHS).values)
    # a Report whose validation setting is kept for epoch_selection_support() still reports the final epoch
    report = mcda.Report(EPOCHS, validation="val", rng=0)
    assert report.epoch_selection_support().validation == "val"
    assert report.selected_epochs()["rule"].eq("final").all()
    assert report.compare().n_datasets == 5
    # the report-wide n_resamples and rng are not passed to the default t interval
    assert mcda.Report(SEEDS, rng=0).summary().ci_method == "t"


def test_choices_that_apply_only_sometimes_are_honoured():
    # the sign test splits the zero differences (zsplit) or drops them (wilcox): both change the p-values
    tied = S.copy()
    tied["b"] = tied["a"]
    tied.loc[:3, "b"] = tied.loc[:3, "a"] - 0.05
    dropped = mcda.pairwise_over_datasets(tied, H, test="sign", zero_method="wilcox").to_frame()
    split = mcda.pairwise_over_datasets(tied, H, test="sign", zero_method="zsplit").to_frame()
    assert not np.allclose(dropped["p_raw"], split["p_raw"])
    # compare_criteria's adjust is the superiority family's, whichever test= runs across datasets
    holm = mcda.compare_criteria(CRITERIA, test="nemenyi", adjust="holm")
    raw = mcda.compare_criteria(CRITERIA, test="nemenyi", adjust=None)
    assert holm.adjust == "holm" and raw.adjust is None
    # the aligned-ranks and Quade post-hocs take any adjustment for all pairs (scmamp's use of them)
    strong = S + np.array([0.0, 0.05, 0.1, 0.15])
    li = mcda.friedman_aligned_ranks_test(strong, H, adjust="li").posthoc
    holm_ar = mcda.friedman_aligned_ranks_test(strong, H, adjust="holm").posthoc
    assert not np.allclose(li.pvalues_adjusted.to_numpy(float), holm_ar.pvalues_adjusted.to_numpy(float),
                           equal_nan=True)


#: Report settings that choose among names, with a value valid for each
REPORT_SETTINGS = ("ci_method", "pairwise_method", "test", "adjust", "seed_reduction", "missing", "epoch_selection",
                   "signed_rank")


@pytest.mark.parametrize("setting", REPORT_SETTINGS)
def test_report_settings_refuse_a_misspelling(setting):
    with pytest.raises(mcda.McdaArgumentError) as caught:
        mcda.Report(SEEDS, **{setting: BOGUS})
    error = caught.value
    assert error.argument == setting and BOGUS in str(error)
    assert error.allowed is None or all(a in str(error) for a in error.allowed if isinstance(a, str))


@pytest.mark.parametrize("setting, value", [("ci_method", "bootstrap"), ("pairwise_method", "wilcoxon"),
                                            ("paired", False), ("seed_reduction", "median")])
def test_report_refuses_seed_settings_on_scores_without_seeds(setting, value):
    with pytest.raises(mcda.McdaArgumentError) as caught:
        mcda.Report(S, direction=H, rope=0.0, rng=0, **{setting: value})
    assert caught.value.argument == setting
    report = mcda.Report(S, direction=H, rope=0.0, rng=0)
    with pytest.raises(mcda.McdaArgumentError):
        setattr(report, setting, value)
    assert getattr(report, setting) != value  # the refused value is not kept
    assert getattr(mcda.Report(SEEDS, rng=0, **{setting: value}), setting) == value  # with seeds it is used


def _choice_options() -> list:
    compare = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)).choices["compare"]
    return [(a.option_strings[-1], tuple(a.choices)) for a in compare._actions if a.choices and a.option_strings]


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    try:
        status = main(argv, stdout=out, stderr=err)
    except SystemExit as exit_:  # argparse's own refusals
        status = exit_.code
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("option", [o for o, _ in _choice_options()])
def test_cli_choice_options_refuse_a_misspelling_listing_the_choices(option, capsys):
    choices = dict(_choice_options())[option]
    status, _, err = _run(["compare", "--example", "demsar2006", option, BOGUS])
    err = err + capsys.readouterr().err
    assert status == 2 and BOGUS in err and all(c in err for c in choices), err


def test_cli_test_option_refuses_a_misspelling(tmp_path, capsys):
    status, _, err = _run(["compare", "--example", "demsar2006", "--no-figures", "--out", str(tmp_path / "o"),
                           "--test", BOGUS])
    err = err + capsys.readouterr().err
    assert status != 0 and BOGUS in err and "nemenyi" in err and "bergmann-hommel" in err, err


@pytest.mark.parametrize("extra", [["--ci-method", "bootstrap"], ["--pairwise-method", "wilcoxon"], ["--unpaired"],
                                   ["--fallback-final"]])
def test_cli_options_the_data_or_the_choice_does_not_use_are_refused(extra, tmp_path):
    # demsar2006 has one score per (dataset, method): no seeds, no epochs
    status, _, err = _run(["compare", "--example", "demsar2006", "--no-figures", "--out", str(tmp_path / "o"), *extra])
    assert status == 1 and extra[0] in err, err
