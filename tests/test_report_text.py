"""Report.text(), the reading paragraph, the signed-rank view and figures that quote the text's numbers."""

import io
import re

import matplotlib
import numpy as np
import pandas as pd
import pytest

import mcda

matplotlib.use("Agg")


@pytest.fixture(scope="module")
def report():
    return mcda.Report(mcda.datasets.load("demsar2006"), rng=3)


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
def test_text_matches_what_was_computed(report):
    text = report.text()
    comparison = report.compare()
    f = comparison.friedman
    assert f"χ²_F({f.df}) = {f.statistic:.2f}" in text and f"F({f.f_df[0]}, {f.f_df[1]}) = {f.f_statistic:.2f}" in text
    assert "Nemenyi's test for all pairs" in text and "α = 0.05" in text
    assert "±0.01, the noise floor of the auroc metric card" in text
    assert f"separated {comparison.posthoc.n_significant} of 6 comparisons" in text
    keys = re.findall(r"@(\w+)", text.split("## References")[0])
    bib = text.split("```bibtex")[1]
    assert keys and all(f"{{{k}," in bib for k in keys)  # every citation has its BibTeX entry
    sign = report.bayesian().to_frame()
    decided = sign[sign["label"] == "a_better"]
    for r in decided.itertuples(index=False):
        assert f"{r.method_a} better than {r.method_b} (P = {r.prob_a_better:.3f})" in text


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
def test_disagreement_is_explained(report):
    comparison = report.compare()
    assert comparison.posthoc.n_significant == 0
    reading = report.text().split("## Reading the procedures together")[1].split("## References")[0]
    assert "separates 0 of 6 pairs" in reading and "probably better than C4.5" in reading
    assert "not that C4.5+m+cf ranks significantly better" in reading
    assert reading.strip() in report.overview().replace("\n  ", "\n")


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
def test_signed_rank_beside_sign_and_figures_quote_the_text(report):
    overview = report.overview()
    assert "== Bayesian signed-rank test" in overview
    fig, ax = report.plot_posterior(("C4.5+m+cf", "C4.5"))
    exact = report.bayesian().to_frame()
    row = exact[(exact.method_a == "C4.5") & (exact.method_b == "C4.5+m+cf")].iloc[0]
    corners = [t.get_text() for t in ax.texts if t.get_gid() == "corner_label"]
    assert f"P = {row.prob_b_better:.3f}" in corners[0]  # C4.5+m+cf better: the exact P of the text
    assert any(t.get_gid() == "probability_source" for t in ax.texts)
    bars_fig, bars_ax = report.plot_signed_rank_bars()
    assert bars_fig is not None


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
def test_each_warning_is_issued_once():
    import warnings

    report = mcda.Report(mcda.datasets.load("demsar2006"), rng=1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report.overview()
    messages = [str(w.message) for w in caught]
    assert messages and len(messages) == len(set(messages))


# --------------------------------------------------------------------------- labels cannot write Markdown


_INJECTED = "a\n# Injected\n[x](javascript:alert(1))"


def _commonmark_unescape(text: str) -> str:
    # CommonMark 0.31, section 2.4: a backslash before any ASCII punctuation character is that character
    import re

    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text)


def test_markdown_escape_is_undone_exactly_by_commonmarks_rule():
    from hypothesis import given, settings, strategies as st

    from mcda.present.writeup import markdown_escape, text_escape

    @settings(max_examples=300, deadline=None)
    @given(st.text())
    def check(label):
        escaped = markdown_escape(label)
        assert "\n" not in escaped and "\r" not in escaped
        assert _commonmark_unescape(escaped) == text_escape(label)  # it renders as the label, on one line

    check()
    assert markdown_escape(_INJECTED) == r"a\n\# Injected\n\[x\](javascript:alert(1))"


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
def test_a_method_named_like_markdown_is_written_as_text(tmp_path):
    from mcda.app.cli import main

    names = [_INJECTED, "b|c", "<img src=x onerror=alert(1)>"]
    scores = np.random.default_rng(0).uniform(0.5, 0.9, (8, 3))
    report = mcda.Report(mcda.score_cube(scores, metric="accuracy", method_names=names), rng=0)
    text = report.text(references=False)
    assert not [line for line in text.splitlines() if line.startswith("# ") and line != "# mcda report: accuracy"]
    unescaped = re.compile(r"(?<!\\)(\[x\]\(|<img|\|)")  # markup not preceded by a backslash
    assert not unescaped.search(text)
    assert r"a\n\# Injected\n\[x\](javascript:alert(1))" in text and r"b\|c" in text
    # the command line's report.md too, and its notes
    frame = pd.DataFrame({"dataset": np.repeat([f"d{i}" for i in range(8)], 3), "method": names * 8,
                          "score": scores.ravel()})
    frame.to_csv(tmp_path / "scores.csv", index=False)
    status = main(["compare", str(tmp_path / "scores.csv"), "--metric", "accuracy", "--no-figures", "--rng", "0",
                   "--out", str(tmp_path / "out")], stdout=io.StringIO(), stderr=io.StringIO())
    assert status == 0
    md = (tmp_path / "out" / "report.md").read_text()
    assert "\n# Injected" not in md and not unescaped.search(md)


# --------------------------------------------------------------------------- all-tied data: every sentence true


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
def test_all_tied_data_is_described_as_untestable_not_as_untied_or_not_rejected():
    cube = mcda.score_cube(np.full((8, 3), 0.7), metric="accuracy")
    friedman = mcda.friedman_test(cube)
    assert np.isnan(friedman.pvalue) and friedman.tie_correction == 0  # every dataset is one tie
    summary = friedman.summary()
    assert "no ties" not in summary and "every dataset ties all methods" in summary
    assert "does not reject" not in summary and "cannot be tested" in summary
    text = mcda.Report(cube, rng=0).text(references=False)
    assert "did not reject" not in text and "does not reject" not in text
    assert "could not test equal mean ranks" in text and "Its p-values are undefined: every dataset ties" in text
    advice = mcda.recommend_procedure(cube)
    lines = advice.summary()
    assert "rejected" not in lines.replace("not rejected", ""), lines
    assert "not testable for method\\_0" not in lines and "not testable for method_0" in lines
    assert np.isnan(advice.anova.statistic) and np.isnan(advice.anova.pvalue)  # was F = inf, p = 0


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
def test_conover_on_all_tied_data_gives_nan_with_its_reason():
    from mcda._core.validation import Reason
    from mcda.stats.across.rank_tests import conover_posthoc

    tied = conover_posthoc(mcda.score_cube(np.full((8, 3), 0.7), metric="accuracy"))
    assert tied.to_frame()["p_raw"].isna().all()
    assert tied.reason_code is Reason.ALL_TIED and "every dataset ties all methods" in tied.reason
    assert "note: every dataset ties all methods" in tied.summary()
    varied = conover_posthoc(mcda.score_cube(np.random.default_rng(0).uniform(0.5, 0.9, (8, 3)), metric="accuracy"))
    assert varied.reason == "" and varied.reason_code is Reason.NONE


def test_a_label_with_a_newline_cannot_forge_a_line_of_the_overview_or_the_console(tmp_path):
    # the plain-text overview (what mcda compare prints) writes every label on one line: a method or a
    # dataset named with a newline or a terminal escape shows its escapes, so no forged heading or verdict
    from mcda.app.cli import main

    names = ["a\nFriedman: forged line", "b\x1b[31m", "plain"]
    scores = np.random.default_rng(1).uniform(0.5, 0.9, (8, 3))
    datasets = [f"d{i}" for i in range(7)] + ["d7\nforged dataset line"]
    frame = pd.DataFrame(scores, columns=names, index=datasets)
    report = mcda.Report(mcda.score_cube(frame, metric="accuracy"), rng=0)
    text = report.overview()
    lines = text.splitlines()
    assert not [line for line in lines if line.startswith(("Friedman: forged", "forged dataset"))]
    assert "\x1b" not in text
    assert r"a\nFriedman: forged line" in text and "plain" in text
    tidy = frame.rename_axis("dataset").reset_index().melt(id_vars="dataset", var_name="method", value_name="score")
    tidy.to_csv(tmp_path / "scores.csv", index=False)
    out = io.StringIO()
    status = main(["compare", str(tmp_path / "scores.csv"), "--metric", "accuracy", "--no-figures", "--rng", "0",
                   "--out", str(tmp_path / "out")], stdout=out, stderr=io.StringIO())
    assert status == 0
    printed = out.getvalue()
    assert "\x1b" not in printed and not [line for line in printed.splitlines() if line.startswith("Friedman: forged")]
