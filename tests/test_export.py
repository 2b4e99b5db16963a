"""LaTeX exports: table structure, direction-aware bold with ties, interval forms, markers, letters."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import mcda
from mcda.export import (
    comparison_to_latex,
    latex_escape,
    pairwise_to_latex,
    scores_to_latex,
    significance_marker,
)

pytestmark = pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
DATA = Path(__file__).resolve().parent / "data"


def _rows(text: str) -> list[list[str]]:
    """The body rows of a booktabs table, split into cells."""
    lines = text.splitlines()
    body = lines[lines.index(r"\midrule") + 1: lines.index(r"\bottomrule")]
    return [[c.strip() for c in line.removesuffix(r"\\").split(" & ")] for line in body if line != r"\addlinespace"]


def _header(text: str) -> list[str]:
    lines = text.splitlines()
    return [c.strip() for c in lines[lines.index(r"\toprule") + 1].removesuffix(r"\\").split(" & ")]


def _check_structure(text: str, n_columns: int):
    lines = text.splitlines()
    for needed in (r"\begin{table}[tbp]", r"\toprule", r"\midrule", r"\bottomrule", r"\end{table}"):
        assert needed in lines, needed
    spec = re.search(r"\\begin\{tabular\}\{([lcr]+)\}", text).group(1)
    assert len(spec) == n_columns
    assert len(_header(text)) == n_columns
    for row in _rows(text):
        assert len(row) == n_columns, row
    assert text.count("{") == text.count("}")  # braces balance (escaped ones come in pairs too)


def test_scores_table_from_demsar_table6():
    # reference: the printed AUCs of Demšar (2006) Table 6, read from tests/data with pandas
    printed = pd.read_csv(DATA / "demsar2006" / "demsar2006_table6_auc.csv")
    wide = printed.pivot(index="dataset", columns="method", values="score")
    cube = mcda.datasets.load("demsar2006")
    text = scores_to_latex(cube)
    methods = [str(m) for m in cube.coords["method"].values]
    _check_structure(text, 1 + len(methods))
    assert _header(text) == ["Dataset"] + methods
    rows = {row[0]: row[1:] for row in _rows(text)}
    assert set(rows) == set(wide.index)
    for dataset, cells in rows.items():
        best = wide.loc[dataset, methods].max()
        for method, cell in zip(methods, cells):
            value = wide.loc[dataset, method]
            assert f"{value:.3f}" in cell
            assert ("\\mathbf" in cell) == (value == best), (dataset, method, cell)
    assert all("\\mathbf" in c for c in rows["mushroom"])  # four-way tie at 1.000: all bold
    assert sum("\\mathbf" in c for c in rows["voting"]) == 1  # C4.5+m's 0.981 alone


def test_bold_follows_the_direction_and_the_displayed_value():
    scores = {"d1": {"a": 1.2344, "b": 1.2341, "c": 2.0}, "d2": {"a": 3.0, "b": 1.0, "c": 1.0}}
    low = scores_to_latex(mcda.score_cube(scores, metric="runtime"))
    rows = {r[0]: r[1:] for r in _rows(low)}
    assert ["\\mathbf" in c for c in rows["d1"]] == [True, True, False]  # 1.234 and 1.234 read the same: tie
    assert ["\\mathbf" in c for c in rows["d2"]] == [False, True, True]
    high = scores_to_latex(mcda.score_cube(scores, direction="higher_is_better"))
    assert ["\\mathbf" in c for c in {r[0]: r[1:] for r in _rows(high)}["d1"]] == [False, False, True]
    plain = scores_to_latex(mcda.score_cube(scores, metric="runtime"), bold_best=False)
    assert "\\mathbf" not in plain
    four = scores_to_latex(mcda.score_cube(scores, metric="runtime"), digits=4)
    assert ["\\mathbf" in c for c in {r[0]: r[1:] for r in _rows(four)}["d1"]] == [False, True, False]


def test_interval_forms_follow_the_summary():
    cube = mcda.datasets.synthetic(n_datasets=3, n_methods=3, n_seeds=6, rng=4)
    for ci_method, draws in (("t", {}), ("bootstrap", {"rng": 1})):
        summary = mcda.summary(cube, ci_method=ci_method, **draws)
        text = scores_to_latex(summary)
        _check_structure(text, 4)
        table = summary.to_frame().set_index(["dataset", "method"])
        for row in _rows(text):
            dataset = row[0].replace("\\_", "_")
            for method, cell in zip([f"method_{j}" for j in range(3)], row[1:]):
                r = table.loc[(dataset, method)]
                if ci_method == "t":
                    half = (r["ci_high"] - r["ci_low"]) / 2
                    assert f"{r['mean']:.3f} \\pm {half:.3f}" in cell
                else:
                    up, down = r["ci_high"] - r["mean"], r["mean"] - r["ci_low"]
                    assert f"{r['mean']:.3f}^{{+{up:.3f}}}_{{-{down:.3f}}}" in cell
        assert ("percentile-bootstrap" in text) == (ci_method == "bootstrap")


def _caption(text: str) -> str:
    """The first table's caption."""
    return re.search(r"\\caption\{(.*?)\}( \\\\)?\n", text).group(1)


def test_missing_cells_and_single_seeds():
    cube = mcda.datasets.synthetic(n_datasets=4, n_methods=3, n_seeds=3, rng=2)
    values = cube.values.copy()
    values[0, 1, :] = np.nan  # a missing cell
    values[1, 2, 1:] = np.nan  # one seed only: mean, no interval
    cube = mcda.score_cube(cube.copy(data=values), metric="accuracy")
    text = scores_to_latex(mcda.summary(cube, ci_method="t"))
    rows = {r[0]: r[1:] for r in _rows(text)}
    assert rows["dataset\\_0"][1] == "--"
    single = rows["dataset\\_1"][2]
    assert "\\pm" not in single and re.fullmatch(r"(\$\\mathbf\{)?\d\.\d{3}(\}\$)?", single)
    assert "% missing cells: --" in text
    assert "--: no result (a missing cell)." in _caption(text)  # the reader of the paper is told too
    complete = scores_to_latex(mcda.summary(mcda.datasets.synthetic(n_datasets=4, n_methods=3, n_seeds=3, rng=2),
                                            ci_method="t"))
    assert "no result" not in complete


def test_names_are_escaped_and_wide_tables_set_smaller_then_split():
    scores = {"set_1 & co": {f"m{i}%": float(i) for i in range(8)}, "x#2": {f"m{i}%": float(-i) for i in range(8)}}
    text = scores_to_latex(mcda.score_cube(scores, direction="higher_is_better"))
    assert r"set\_1 \& co" in text and r"x\#2" in text and r"m0\%" in text
    assert "\\resizebox" not in text and text.count(r"\begin{table}") == 1  # 8 short columns: one table
    _check_structure(text, 9)
    # 30 methods with intervals do not fit at 7 pt: split into column blocks, each repeating the datasets
    summary = mcda.summary(mcda.datasets.synthetic(n_datasets=3, n_methods=30, n_seeds=3, rng=0), ci_method="t")
    split = scores_to_latex(summary)
    parts = split.split(r"\end{table}")[:-1]
    assert len(parts) > 1 and all(r"\scriptsize" in p or r"\footnotesize" in p or r"\small" in p for p in parts)
    headers = [h for p in parts for h in _header(p + r"\end{table}")[1:]]
    assert headers == [f"method\\_{j}" for j in range(30)]  # every method once, in order
    assert "Part 1 of" in parts[0] and "(continued) Part 2 of" in parts[1]
    assert latex_escape("a_b^c~d\\e") == r"a\_b\textasciicircum{}c\textasciitilde{}d\textbackslash{}e"


def test_long_names_break_where_a_word_changes_case_or_kind():
    # the line-break points LaTeX may use in a long name: after _ - . /, and inside a letter/digit run
    # over 12 characters where its case or kind changes (as the figures wrap), cut every 12 only beyond;
    # a word of five letters or more after a space is guarded from hyphenation by a \nobreak before it
    from mcda.present.latex import _breakable

    brk, guard = r"\allowbreak{}", r"\nobreak{}"
    assert _breakable("GradientBoostedEnsemble_v3_tuned") == (
        f"{guard}Gradient{brk}Boosted{brk}Ensemble\\_{brk}v3\\_{brk}tuned")
    assert _breakable("ResNet50v2LargeBackbone") == f"Res{brk}Net{brk}50{brk}v{brk}2{brk}Large{brk}Backbone"
    assert _breakable("short_CamelCase") == f"{guard}short\\_{brk}CamelCase"  # runs of 12 or fewer: whole
    assert _breakable("Random Forest (tuned)") == f"{guard}Random {guard}Forest ({guard}tuned)"
    assert _breakable("m1") == "m1" and _breakable("a_rather") == f"a\\_{brk}rather"
    run = "abcdefghijklmnopqrstuvwxyzab"  # 28 letters, no change of case or kind: cut at 12 and 24
    assert _breakable(run) == f"{guard}abcdefghijkl{brk}mnopqrstuvwx{brk}yzab"
    for name in ("GradientBoostedEnsemble_v3_tuned", run, "a&b_Long%Name", "Random Forest (tuned)"):
        assert _breakable(name).replace(brk, "").replace(guard, "") == latex_escape(name)  # only breaks added


def test_scores_table_errors():
    cube = mcda.datasets.synthetic(n_datasets=2, n_methods=2, n_seeds=3, rng=0)
    with pytest.raises(ValueError, match="has a `seed` dim"):
        scores_to_latex(cube)
    with pytest.raises(TypeError, match="`digits` must be an integer"):
        scores_to_latex(mcda.datasets.load("demsar2006"), digits=2.5)


def test_writes_the_file(tmp_path):
    path = tmp_path / "t.tex"
    text = scores_to_latex(mcda.datasets.load("demsar2006"), path, caption="My caption", label="tab:auc")
    assert path.read_text(encoding="utf-8") == text
    assert r"\caption{My caption}" in text and r"\label{tab:auc}" in text


def test_significance_markers():
    assert [significance_marker(p, 0.05) for p in (0.0005, 0.001, 0.005, 0.01, 0.04, 0.05, 0.2, np.nan)] == \
        ["***", "***", "**", "**", "*", "*", "", ""]
    assert [significance_marker(p, 0.1) for p in (0.0019, 0.019, 0.05, 0.11)] == ["***", "**", "*", ""]


def test_pairwise_table_markers_follow_holm():
    cube = mcda.datasets.synthetic(n_datasets=3, n_methods=4, n_seeds=8, rng=6, noise_sd=0.01,
                                   effects=[0.0, 0.0, 0.02, 0.04])
    values = cube.values.copy()
    values[2, 0, :] = np.nan  # a pair that does not apply
    cube = mcda.score_cube(cube.copy(data=values), metric="accuracy")
    tests = mcda.paired_tests(cube, method="wilcoxon", alpha=0.05)
    text = pairwise_to_latex(tests)
    _check_structure(text, 6)
    frame = tests.to_frame()
    rows = _rows(text)
    assert len(rows) == len(frame)
    for row, r in zip(rows, frame.itertuples(index=False)):
        assert row[1] == f"{r.method_a} vs {r.method_b}".replace("_", "\\_")
        stars = row[5].count("*")
        if np.isfinite(r.p_holm):
            expected = 3 if r.p_holm <= 0.001 else 2 if r.p_holm <= 0.01 else 1 if r.p_holm <= 0.05 else 0
            assert stars == expected
            assert (stars > 0) == bool(r.significant)
        else:
            assert row[2:5] == ["--", "--", "--"] and stars == 0
    assert "Wilcoxon signed-rank test" in text and "% not applicable: dataset_2: method_0 vs" in text
    assert "--: the test does not apply to the pair" in _caption(text)
    assert any(row[5].count("*") for row in rows)
    with pytest.raises(TypeError, match="must be a PairedTests"):
        pairwise_to_latex(mcda.compare_over_datasets(mcda.datasets.load("demsar2006")))


def test_comparison_letters_are_the_groups():
    # García & Herrera (2008): Nemenyi separates 4 of 10 pairs (their Table 4 at alpha 0.05)
    result = mcda.compare_over_datasets(mcda.datasets.load("garcia_herrera2008"))
    text = comparison_to_latex(result)
    _check_structure(text, 3)
    rows = _rows(text)
    assert [r[0] for r in rows] == list(result.mean_ranks.sort_values().index)
    letters = {r[0]: set(r[2]) for r in rows}
    sig = result.posthoc.significant
    for a in letters:
        for b in letters:
            if a != b:
                assert bool(letters[a] & letters[b]) == (not sig.loc[a, b]), (a, b)
    assert "CD $= 1.114$" in text  # García & Herrera (2008): CD = 1.114 for k = 5, N = 30


def test_comparison_without_rejection_says_no_difference():
    scores = {f"d{i}": {"a": 0.5 + 0.01 * (i % 3), "b": 0.5 + 0.01 * ((i + 1) % 3), "c": 0.5 + 0.01 * ((i + 2) % 3)}
              for i in range(6)}
    result = mcda.compare_over_datasets(mcda.score_cube(scores, metric="accuracy"))
    assert result.posthoc is None
    text = comparison_to_latex(result)
    assert all(r[2] == "a" for r in _rows(text))
    assert "no difference may be claimed" in text


def test_excluded_methods_are_named():
    text = comparison_to_latex(mcda.compare_over_datasets(mcda.datasets.load("duo2018")))
    assert "% excluded (incomplete): SAFE lacks ['SimKumar4hard', 'SimKumar8hard']" in text
    # the reader of the paper sees only the caption: a table of 12 of 14 methods must say so there
    caption = next(line for line in text.splitlines() if line.startswith(r"\caption{"))
    assert "Not ranked (missing results): SAFE, ascend." in caption


def _benchmark_csv(path, *, n_methods, n_datasets, n_seeds):
    """A tidy CSV with 40-character method names and one missing (dataset, method) cell."""
    cube = mcda.datasets.synthetic(n_datasets=n_datasets, n_methods=n_methods, n_seeds=n_seeds, rng=3)
    frame = cube.to_dataframe(name="score").reset_index()[["dataset", "method", "seed", "score"]]
    frame["method"] = frame["method"].map(lambda m: f"{m}_with_a_rather_long_name_xyzw"[:40].ljust(40, "q"))
    first = (frame["dataset"] == frame["dataset"].iloc[0]) & (frame["method"] == frame["method"].iloc[0])
    frame[~first].to_csv(path, index=False)
    assert frame["method"].str.len().eq(40).all()


def _compile(folder: Path, name: str, tables: list[Path]) -> str:
    """pdflatex on a minimal article that inputs ``tables``; the log text."""
    document = "\n".join([r"\documentclass{article}", r"\usepackage{booktabs}", r"\usepackage{longtable}",
                          r"\begin{document}", *(r"\input{" + t.as_posix() + "}\n\\clearpage" for t in tables),
                          r"\end{document}", ""])
    (folder / f"{name}.tex").write_text(document, encoding="utf-8")
    run = subprocess.run(["pdflatex", "-interaction=nonstopmode", f"{name}.tex"], cwd=folder,
                         capture_output=True, text=True, timeout=300)
    log = (folder / f"{name}.log").read_text(encoding="utf-8", errors="replace")
    assert run.returncode == 0, log[-3000:]
    assert (folder / f"{name}.pdf").exists()
    return log


def _check_log(log: str, what: str):
    errors = re.findall(r"^! .*$", log, flags=re.M)
    assert not errors, (what, errors)
    assert "Float too large" not in log, what
    overfull = [float(x) for x in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)", log)]
    assert all(x <= 1.0 for x in overfull), (what, overfull)
    assert "Undefined control sequence" not in log, what


def _need_pdflatex():
    if shutil.which("pdflatex") is None:
        if os.environ.get("CI"):  # .ci/run installs TeX Live: under CI a missing pdflatex is a failure
            pytest.fail("pdflatex is not installed; .ci/run installs texlive-latex-base and -recommended")
        pytest.skip("no TeX installation (CI installs it)")


def test_tex_breaks_names_only_at_their_break_points(tmp_path):
    # TeX's own hyphenation of each name as the captions write it (\showhyphens logs the points TeX
    # would hyphenate at): none inside a name; the same words written plainly are hyphenated
    # ("Gra-di-ent"), so the check can see a hyphenation
    from mcda.present.latex import _breakable

    _need_pdflatex()
    names = ["GradientBoostedEnsemble_v3_tuned", "LongMethodName_variant_03_with_tuning",
             "Random Forest (tuned)", "x (Transformer) baseline"]
    lines = [r"\showhyphens{x = " + _breakable(n) + "}" for n in names] + [r"\showhyphens{x = GradientBoosted}"]
    document = "\n".join([r"\documentclass{article}", r"\begin{document}", *lines, r"\end{document}", ""])
    (tmp_path / "hyphens.tex").write_text(document, encoding="utf-8")
    subprocess.run(["pdflatex", "-interaction=nonstopmode", "hyphens.tex"], cwd=tmp_path, capture_output=True,
                   text=True, timeout=120)
    log = (tmp_path / "hyphens.log").read_text(encoding="utf-8", errors="replace")
    shown = [" ".join(part.split("\\hbox(")[0].split()) for part in log.split("x = ")[1:]]
    assert len(shown) == len(lines), log[-2000:]
    for name, text in zip(names, shown):
        assert "-" not in text, (name, text)
    assert "Gra-di-ent" in shown[-1], shown[-1]


def test_every_cli_table_compiles_with_pdflatex(tmp_path):
    # Every table `mcda compare` writes, at 8 methods x 20 datasets x 5 seeds (pairwise: 560 rows) and,
    # for the scores and comparison tables, at 20 and 50 methods; 40-character names, one missing cell.
    # The .log must show no LaTeX error, no float too large for the page, no overfull box over 1 pt.
    _need_pdflatex()
    from mcda.app.cli import main
    import io

    for n_methods, n_seeds in ((8, 5), (20, 2), (50, 2)):
        csv = tmp_path / f"scores_{n_methods}.csv"
        _benchmark_csv(csv, n_methods=n_methods, n_datasets=20, n_seeds=n_seeds)
        out = tmp_path / f"out_{n_methods}"
        # at 20 and 50 methods with --control: the control test across datasets and the within-dataset
        # control table (pairwise_control.tex: 20 datasets x (k - 1) rows, a 40-character control name)
        control = [] if n_methods == 8 else ["--control", "method_1_with_a_rather_long_name_xyzwqqq"]
        code = main(["compare", str(csv), "--metric", "accuracy", "--out", str(out), "--no-figures", "--rng", "0",
                     *control], stdout=io.StringIO(), stderr=io.StringIO())
        assert code == 0
        names = ["scores.tex", "comparison.tex"] + (["pairwise.tex"] if n_methods == 8 else ["pairwise_control.tex"])
        tables = [out / n for n in names]
        assert all(t.exists() for t in tables), sorted(p.name for p in out.iterdir())
        if n_methods == 8:
            pairwise = tables[2].read_text(encoding="utf-8")
            assert r"\begin{longtable}" in pairwise and r"\endhead" in pairwise  # 560 rows break across pages
            assert len(re.findall(r"^[^%].*& M\d+ vs M\d+ &", pairwise, flags=re.M)) == 20 * 28  # every pair, keyed
            assert pairwise.count("% not applicable: dataset_0") == 7  # the missing cell's 7 pairs say why
        if control:
            against = tables[2].read_text(encoding="utf-8")
            assert len(re.findall(r"^[^%].*& M\d+ & \$", against, flags=re.M)) == 20 * (n_methods - 1) - 1
            assert r"\begin{longtable}" in against and f"each of the {n_methods - 1} other methods" in against
        _check_log(_compile(tmp_path, f"doc_{n_methods}", tables), f"{n_methods} methods")
    # the library's own examples too
    report = mcda.Report(mcda.datasets.synthetic(n_datasets=3, n_methods=10, n_seeds=5, rng=1, missing=0.1), rng=0)
    small = tmp_path / "small.tex"
    small.write_text("\n".join([report.to_latex(), report.pairwise_to_latex(), report.comparison_to_latex(),
                                report.pairwise_to_latex(control="method_3"),
                                scores_to_latex(mcda.datasets.load("demsar2006"))]), encoding="utf-8")
    _check_log(_compile(tmp_path, "doc_small", [small]), "small tables")
