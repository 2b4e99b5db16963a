"""The procedure registry: every registered post-hoc works on every missing-cell policy, is cited
by the write-up, and an ``adjust=`` that a procedure would not use is refused, never ignored."""

import numpy as np
import pytest
from statsmodels.stats.multitest import multipletests

import mcda
from mcda.stats.procedures import PROCEDURES, names

#: A balanced incomplete block design: the Fano plane (7 methods, 3 per dataset, every pair
#: together once), replicated three times.
_FANO = [(0, 1, 2), (0, 3, 4), (0, 5, 6), (1, 3, 5), (1, 4, 6), (2, 3, 6), (2, 4, 5)] * 3


def _balanced_incomplete():
    rng = np.random.default_rng(1)
    scores = np.full((len(_FANO), 7), np.nan)
    for i, block in enumerate(_FANO):
        for j in block:
            scores[i, j] = j + rng.normal(0.0, 1.0)
    return scores


def _control_of(test):
    return "method_0" if test not in names("posthoc", "all-pairs") else None


@pytest.mark.parametrize("test", names("posthoc"))
@pytest.mark.parametrize("missing", ["methods", "datasets", "available"])
def test_every_registered_posthoc_works_with_every_missing_policy(test, missing):
    scores = _balanced_incomplete() if missing == "available" else np.random.default_rng(2).random((20, 5)) + \
        np.arange(5) * 0.2
    result = mcda.compare_over_datasets(scores, "higher_is_better", test=test, control=_control_of(test),
                                        missing=missing)
    assert result.posthoc is not None
    if missing == "available":
        assert result.design == "balanced incomplete"
        assert result.test == f"durbin-conover ({PROCEDURES[test].adjustment or 'holm'})"


@pytest.mark.parametrize("test,statsmodels_method", [("holland", "holm-sidak"), ("hochberg", "simes-hochberg"),
                                                     ("hommel", "hommel"), ("holm", "holm")])
def test_the_incomplete_design_applies_the_tests_own_adjustment(test, statsmodels_method):
    # reference: statsmodels' multipletests on the Durbin-Conover raw p-values against the control
    control = _control_of(test) or "method_0"
    result = mcda.compare_over_datasets(_balanced_incomplete(), "higher_is_better", test=test, control=control,
                                        missing="available")
    raw = result.posthoc.pvalues.to_numpy()
    expected = multipletests(raw, method=statsmodels_method)[1]
    np.testing.assert_allclose(result.posthoc.pvalues_adjusted.to_numpy(), expected, rtol=1e-12)


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
@pytest.mark.parametrize("test", names("posthoc"))
def test_report_text_names_and_cites_every_registered_posthoc(test):
    control = "C4.5" if test not in names("posthoc", "all-pairs") else None
    text = mcda.Report(mcda.datasets.load("demsar2006"), rng=3, test=test, control=control).text()
    entry = PROCEDURES[test]
    assert f"compared with {entry.words}" in text
    assert f"compared with {test} " not in text
    body, bib = text.split("## References")
    for key in entry.references:
        assert f"@{key}" in body and f"{{{key}," in bib


def _scores():
    return np.random.default_rng(0).random((12, 4))


@pytest.mark.parametrize("call", [
    lambda: mcda.all_pairs_test(_scores(), "higher_is_better", test="holm", adjust="finner"),
    lambda: mcda.all_pairs_test(_scores(), "higher_is_better", test="nemenyi", adjust="hochberg"),
    lambda: mcda.all_pairs_test(_scores(), "higher_is_better", test="shaffer", adjust="bonferroni"),
    lambda: mcda.all_pairs_test(_scores(), "higher_is_better", test="miller", adjust="finner"),
    lambda: mcda.control_test(_scores(), "higher_is_better", control="method_0", test="li", adjust="hommel"),
    lambda: mcda.control_test(_scores(), "higher_is_better", control="method_0", test="bonferroni-dunn",
                              adjust="finner"),
])
def test_an_adjust_the_test_does_not_use_is_refused(call):
    with pytest.raises(mcda.McdaArgumentError, match=r"`adjust` .* is not used by test="):
        call()


@pytest.mark.parametrize("call", [
    lambda: mcda.all_pairs_test(_scores(), "higher_is_better", test="holm", adjust="bogus"),
    lambda: mcda.all_pairs_test(_scores(), "higher_is_better", test="siegel", adjust="bogus"),
    lambda: mcda.control_test(_scores(), "higher_is_better", control="method_0", test="holm", adjust="bogus"),
    lambda: mcda.control_test(_scores(), "higher_is_better", control="method_0", test="conover", adjust="bogus"),
    lambda: mcda.pairwise_over_datasets(_scores(), "higher_is_better", adjust="bogus"),
    lambda: mcda.adjust_pvalues([0.01, 0.02], method="bogus"),
])
def test_a_misspelled_adjust_names_the_allowed_values(call):
    with pytest.raises(mcda.McdaArgumentError, match=r"must be (None or )?one of \{.*'holm'.*got 'bogus'"):
        call()


@pytest.mark.parametrize("test", ["holm", "finner", "holland"])
def test_the_tests_own_adjustment_or_the_default_is_accepted(test):
    own = PROCEDURES[test].adjustment
    a = mcda.all_pairs_test(_scores(), "higher_is_better", test=test)
    b = mcda.all_pairs_test(_scores(), "higher_is_better", test=test, adjust=own)
    assert a.pvalues_adjusted.equals(b.pvalues_adjusted)


@pytest.mark.parametrize("test", ["holm", "finner", "holland"])
def test_siegel_under_an_adjustment_is_the_registered_procedure(test):
    # the Friedman z under the adjustment a procedure names: test="siegel", adjust=<it> gives its numbers
    scores = mcda.datasets.load("garcia_herrera2008")
    named = mcda.all_pairs_test(scores, test=test)
    siegel = mcda.all_pairs_test(scores, test="siegel", adjust=PROCEDURES[test].adjustment)
    np.testing.assert_allclose(siegel.pvalues_adjusted.to_numpy(), named.pvalues_adjusted.to_numpy(), rtol=1e-12)


def test_the_cli_help_lists_every_registered_posthoc(capsys):
    from mcda.app.cli import main

    assert main(["compare", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    listed = "".join(out.split("--test TEST post-hoc across datasets:")[1].split("--missing")[0].split())
    for test in names("posthoc"):  # argparse wraps at hyphens: compared without white space
        assert f"{test}({''.join(PROCEDURES[test].words.split())})" in listed


def test_the_cli_reads_test_and_pairwise_method_through_the_registry():
    from mcda.app.cli import build_parser
    from mcda.stats.procedures import paired_over_seeds

    parser = build_parser()
    args = parser.parse_args(["compare", "--example", "demsar2006", "--test", "Bergmann_Hommel"])
    assert args.test == "bergmann-hommel"
    args = parser.parse_args(["compare", "--example", "demsar2006", "--test", "f"])  # Finner's alias
    assert args.test == "finner"
    compare = next(a for a in parser._subparsers._group_actions[0].choices["compare"]._actions
                   if "--test" in a.option_strings)
    assert tuple(compare.choices) == names("posthoc")
    method = next(a for a in parser._subparsers._group_actions[0].choices["compare"]._actions
                  if "--pairwise-method" in a.option_strings)
    assert tuple(method.choices) == paired_over_seeds() == ("t", "wilcoxon")
