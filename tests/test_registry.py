"""The procedure registry: every registered post-hoc works on every missing-cell policy, is cited
by the write-up, and an ``adjust=`` that a procedure would not use is refused, never ignored."""

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.multitest import multipletests

import mcda
from mcda.stats.procedures import PROCEDURES, names, paired_over_seeds

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
    assert paired_over_seeds() == ("t", "wilcoxon")
    assert tuple(method.choices) == paired_over_seeds() + names("seeds-cv")


def _spellings(name):
    """Every way the registry reads ``name``: the name, its aliases, upper case and "_" for "-"."""
    return sorted({name, *PROCEDURES[name].aliases, name.upper(), name.replace("-", "_")})


def _same(a, b):
    np.testing.assert_array_equal(np.asarray(a, dtype=float), np.asarray(b, dtype=float))


@pytest.mark.parametrize("test", names("posthoc") + names("rank-posthoc"))
def test_every_spelling_of_a_posthoc_gives_what_its_registered_function_gives(test):
    import inspect

    from mcda.stats.procedures import load

    scores = mcda.datasets.load("garcia_herrera2008")
    entry = PROCEDURES[test]
    run = load(test)
    parameters = inspect.signature(run).parameters
    # against a control when the registered function needs one (Bonferroni–Dunn, control_test's procedures)
    needs = "control" in parameters and parameters["control"].default is inspect.Parameter.empty
    control = "C4.5" if needs else None
    direct = run(scores, **({"test": test} if "test" in parameters else {}),
                 **({"control": control} if control is not None else {}))
    via = mcda.control_test if control is not None else mcda.all_pairs_test
    for spelling in _spellings(test):
        got = via(scores, test=spelling, **({"control": control} if control is not None else {}))
        assert got.test == direct.test == test
        _same(got.pvalues_adjusted, direct.pvalues_adjusted)
        if entry.family == "posthoc":  # the whole procedure reads the same spellings
            whole = mcda.compare_over_datasets(scores, test=spelling, control=control)
            assert whole.test == test
            _same(whole.posthoc.pvalues_adjusted, direct.pvalues_adjusted)


@pytest.mark.parametrize("test", names("pool-independent"))
def test_every_spelling_of_a_pool_independent_test_dispatches(test):
    from mcda.stats.procedures import load

    scores = _scores()
    direct = load(test)(scores, "higher_is_better", test=test)
    for spelling in _spellings(test):
        got = mcda.pairwise_over_datasets(scores, "higher_is_better", test=spelling)
        assert got.test == test and got.procedure == f"{PROCEDURES[test].display}–Holm"
        _same(got.table["p_adjusted"], direct.table["p_adjusted"])


@pytest.mark.parametrize("test", names("bayesian", "all-pairs"))
def test_every_spelling_of_a_bayesian_test_gives_its_registered_function(test):
    from mcda.stats.procedures import load

    x = [0.81, 0.75, 0.90, 0.66, 0.72, 0.88, 0.70]
    y = [0.84, 0.79, 0.91, 0.70, 0.75, 0.90, 0.69]
    cube = mcda.score_cube(pd.DataFrame({"x": x, "y": y}, index=[str(i) for i in range(len(x))]),
                           direction="higher_is_better")
    # the sign test integrates exactly by default and refuses draws it would not use
    draws = {} if test == "bayesian-sign" else {"rng": 1, "n_samples": 2000}
    direct = load(test)(cube, rope=0.01, **draws)
    for spelling in _spellings(test):
        got = mcda.two_on_multiple(x, y, direction="higher_is_better", rope=0.01, test=spelling, **draws)
        assert got.test == direct.test
        _same(got.to_frame()["prob_a_better"], direct.to_frame()["prob_a_better"])


@pytest.mark.parametrize("method", paired_over_seeds())
def test_every_spelling_of_a_paired_test_over_seeds_dispatches(method):
    rng = np.random.default_rng(4)
    frame = pd.DataFrame([{"dataset": "d", "method": m, "seed": s, "score": rng.normal(i * 0.3, 1.0)}
                          for i, m in enumerate(["a", "b", "c"]) for s in range(8)])
    direct = mcda.paired_tests(frame, "higher_is_better", method=method)
    for spelling in _spellings(method):
        got = mcda.paired_tests(frame, "higher_is_better", method=spelling)
        assert got.method == method
        _same(got.table["p_raw"], direct.table["p_raw"])


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
def test_the_write_up_cites_every_registered_procedure_it_uses():
    frame = mcda.datasets.load("demsar2006")
    report = mcda.Report(frame, rng=3, signed_rank="always")
    text = report.text()
    body, bib = text.split("## References")
    comparison = report.compare()
    used = ["friedman", "iman-davenport", comparison.test, "sign", "bayesian-sign", "bayesian-signed-rank"]
    for name in used:
        entry = PROCEDURES[name]
        assert entry.words in body, name
        for key in entry.references:
            assert f"@{key}" in body and f"{{{key}," in bib, (name, key)


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
@pytest.mark.parametrize("method,paired", [("t", True), ("wilcoxon", True), ("t", False), ("wilcoxon", False)])
def test_the_write_up_cites_the_registered_test_over_seeds_it_ran(method, paired):
    rng = np.random.default_rng(5)
    frame = pd.DataFrame([{"dataset": f"d{d}", "method": m, "seed": s, "score": 0.7 + 0.02 * i + rng.normal(0, 0.01)}
                          for d in range(6) for i, m in enumerate(["a", "b", "c"]) for s in range(5)])
    report = mcda.Report(frame, direction="higher_is_better", rng=1, rope=0.01, pairwise_method=method,
                         paired=paired, signed_rank="never")
    body, bib = report.text().split("## References")
    ran = method if paired else PROCEDURES[method].unpaired
    for name in (ran, "tost"):
        entry = PROCEDURES[name]
        assert f"with {entry.words} [" in body, name
        for key in entry.references:
            assert f"@{key}" in body and f"{{{key}," in bib, (name, key)


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
@pytest.mark.parametrize("method,paired,shown", [("t", True, "paired t"), ("wilcoxon", True, "Wilcoxon"),
                                                 ("t", False, "Welch t"), ("wilcoxon", False, "Mann–Whitney U")])
def test_the_pairwise_figure_names_the_registered_test_that_ran(method, paired, shown):
    import matplotlib

    matplotlib.use("Agg")
    rng = np.random.default_rng(4)
    frame = pd.DataFrame([{"dataset": "d", "method": m, "seed": s, "score": rng.normal(i * 0.3, 1.0)}
                          for i, m in enumerate(["a", "b", "c"]) for s in range(8)])
    result = mcda.paired_tests(frame, "higher_is_better", method=method, paired=paired)
    fig, ax = mcda.plots.plot_pairwise(result, layout="list")
    label = " ".join(np.ravel(ax)[0].get_xlabel().split())
    assert label.endswith(f"; {shown} test") and PROCEDURES[method if paired else PROCEDURES[method].unpaired].display == shown
    import matplotlib.pyplot as plt

    plt.close(fig)
