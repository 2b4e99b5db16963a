"""The `mcda` command, run in-process through main([...]) and once as a real subprocess."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import mcda
from mcda import Report
from mcda.app.cli import main, read_scores

pytestmark = pytest.mark.filterwarnings("ignore::mcda.McdaWarning")


def run(argv):
    """(status, stdout, stderr) of main(argv) in-process."""
    out, err = io.StringIO(), io.StringIO()
    status = main(argv, stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def _runtime_csv(path, *, seeds=True):
    """A tidy CSV of a lower-is-better metric with a missing cell (row absent) and a missing seed (empty)."""
    gen = np.random.default_rng(5)
    effects = {"fastsort": 0.0, "quicksolve": 0.4, "baseline": 1.5, "turbo": 0.05}
    rows = []
    for d, base in zip(["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta"], gen.uniform(5, 20, 8)):
        for m, effect in effects.items():
            for s in range(5 if seeds else 1):
                rows.append((d, m, s, round(base + effect + gen.normal(0, 0.2), 3)))
    frame = pd.DataFrame(rows, columns=["dataset", "method", "seed", "score"])
    frame = frame.drop(frame[(frame.dataset == "gamma") & (frame.method == "turbo")].index)
    frame["score"] = frame["score"].astype(object)
    frame.loc[(frame.dataset == "beta") & (frame.method == "baseline") & (frame.seed == 3), "score"] = ""
    if not seeds:
        frame = frame.drop(columns="seed")
    frame.to_csv(path, index=False)
    return frame


def _files(out_dir):
    return {p.name for p in out_dir.iterdir()}


# --------------------------------------------------------------------------- the examples

def test_demsar_example_end_to_end(tmp_path):
    status, out, err = run(["compare", "--example", "demsar2006", "--out", str(tmp_path), "--rng", "3"])
    assert status == 0, err
    assert err == ""
    # Demšar (2006) Table 6, printed AUCs, ties averaged: chi2_F = 9.857, F_F = 3.987 (PROVENANCE pitfall 1)
    assert "Friedman chi2(3) = 9.857" in out and "F(3, 39) = 3.987" in out
    for heading in ("critical-difference groups", "== Pairwise superiority", "== Transitivity",
                    "== Bayesian sign test", "== Within datasets", "do not apply", "== Excluded methods"):
        assert heading in out, heading
    assert "'voting'" in out and "9.28" in out and "demsar2006_published_ranks" in out
    files = _files(tmp_path)
    assert {"report.json", "report.txt", "scores.tex", "comparison.tex", "critical_difference.png",
            "critical_difference.pdf"} <= files
    assert "pairwise.tex" not in files  # no seeds: no paired tests
    again = Report.from_json(tmp_path / "report.json")
    assert again.rng == 3
    reference = Report(mcda.datasets.load("demsar2006"), rng=3)
    pd.testing.assert_frame_equal(again.compare().to_frame(), reference.compare().to_frame(), check_exact=True)
    # the figures' order: the across-dataset ranking (mean ranks 1.96, 2.00, 2.89, 3.14 in Demšar's Table 6 order)
    order = ["C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"]
    assert (tmp_path / "scores.tex").read_text(encoding="utf-8") == reference.to_latex(order=order)


def test_duo_example_names_the_excluded_methods(tmp_path):
    status, out, err = run(["compare", "--example", "duo2018", "--out", str(tmp_path), "--no-figures"])
    assert status == 0, err
    # Duò et al. (2018): SAFE and ascend lack results on some datasets (5 missing cells in the bundled data)
    assert "12 datasets x 14 methods" in out and "5 missing cells" in out
    assert "SAFE: lacks SimKumar4hard, SimKumar8hard" in out
    assert "ascend: lacks Koh, KohTCC, SimKumar8hard" in out
    assert "adjusted rand index" in out.lower()
    assert not any(name.endswith(".png") for name in _files(tmp_path))


# --------------------------------------------------------------------------- a user's CSV

def test_csv_with_missing_cells_and_a_lower_is_better_metric(tmp_path):
    csv = tmp_path / "runtime.csv"
    _runtime_csv(csv)
    out_dir = tmp_path / "out"
    status, out, err = run(["compare", str(csv), "--metric", "runtime", "--out", str(out_dir), "--rng", "1"])
    assert status == 0, err
    assert "lower is better" in out and "1 missing cell" in out
    assert "turbo: lacks gamma" in out
    assert "4-5 seeds per cell" in out
    assert "better than baseline" in out  # paired tests, said in the metric's direction
    files = _files(out_dir)
    assert {"pairwise.tex", "scores.tex", "report.json"} <= files
    bundle = Report.from_json(out_dir / "report.json")
    assert bundle.direction == "lower_is_better" and bundle.has_seeds
    # the bundle holds the raw scores: the CSV read with pandas (an independent reader) gives the same values
    frame = pd.read_csv(csv)
    cube = bundle.raw
    for r in frame.itertuples(index=False):
        value = cube.sel({"dataset": r.dataset, "method": r.method, "seed": r.seed}).item()
        assert (np.isnan(value) and np.isnan(r.score)) or value == r.score
    assert np.isnan(cube.sel({"dataset": "gamma", "method": "turbo"}).values).all()
    # lower is better: the bold cell of each row is the smallest mean
    table = bundle.summary().to_frame()
    alpha_row = table[table["dataset"] == "alpha"].set_index("method")["mean"]
    best = alpha_row.idxmin()
    scores_line = next(line for line in (out_dir / "scores.tex").read_text(encoding="utf-8").splitlines()
                       if line.startswith("alpha"))
    cells = scores_line.removesuffix(r" \\").split(" & ")[1:]
    methods = list(bundle.methods)
    assert ["\\mathbf" in c for c in cells] == [m == best for m in methods]


def test_wide_csv_and_named_columns(tmp_path):
    wide = tmp_path / "wide.csv"
    pd.DataFrame({"data": ["iris", "wine", "glass"], "svm": [0.9, 0.7, ""], "knn": [0.8, 0.75, 0.6],
                  "tree": [0.85, 0.72, 0.65]}).to_csv(wide, index=False)
    status, out, err = run(["compare", str(wide), "--metric", "accuracy", "--out", str(tmp_path / "o"),
                            "--no-figures"])
    assert status == 0, err
    assert "3 datasets x 3 methods" in out and "1 missing cell" in out and "svm: lacks glass" in out
    tidy = tmp_path / "tidy.csv"
    pd.DataFrame({"problem": ["a", "a", "b", "b", "c", "c"], "model": ["x", "y"] * 3,
                  "ari": [0.5, 0.6, 0.4, 0.45, 0.7, 0.71]}).to_csv(tidy, index=False)
    status, out, err = run(["compare", str(tidy), "--metric", "ari", "--dataset-column", "problem",
                            "--method-column", "model", "--out", str(tmp_path / "o2"), "--no-figures"])
    assert status == 0, err  # the score column named after the metric is found
    assert "3 datasets x 2 methods" in out


def test_epochs_in_a_csv(tmp_path):
    gen = np.random.default_rng(2)
    rows = [(d, m, s, e, split, round(gen.uniform(0.5, 0.9), 4))
            for d in ("d1", "d2", "d3") for m in ("a", "b", "c") for s in (0, 1, 2)
            for e in (1, 2, 3) for split in ("test", "val")]
    path = tmp_path / "curves.csv"
    pd.DataFrame(rows, columns=["dataset", "method", "seed", "epoch", "split", "score"]).to_csv(path, index=False)
    status, out, err = run(["compare", str(path), "--metric", "accuracy", "--epoch-selection", "best_val",
                            "--out", str(tmp_path / "o"), "--no-figures"])
    assert status == 0, err
    assert "epochs: best_val (27 runs best_val)" in out
    status, out, err = run(["compare", str(path), "--metric", "accuracy", "--out", str(tmp_path / "o")])
    assert status == 0, err
    assert "learning_curves.png" in _files(tmp_path / "o")


# --------------------------------------------------------------------------- errors a user will hit

@pytest.mark.parametrize("content, extra, expected", [
    (None, [], "nothere.csv: no such file"),
    ("dataset,method,score\niris,a,0.9\niris,b,0.8\nwine,a,0.7\nwine,b,abc\n", [],
     "column 'score' must hold numbers; not a number at line 5 ('abc')"),
    ("dataset,method,score\niris,a,0.9\niris,b,0.8\nwine,a,0.7\niris,a,0.75\n", [],
     "duplicate rows at lines 2 and 5 (dataset='iris', method='a')"),
    ("dataset,method,score\niris,a,0.9\niris,b,0.8\n", ["--score-column", "acc"],
     "no column 'acc' (given for the score); the columns are 'dataset', 'method', 'score'"),
    ("dataset,method,value\niris,a,0.9\niris,b,0.8\n", [], "no score column 'score' (name it with --score-column)"),
    ("dataset,learner,score\niris,a,0.9\niris,b,0.8\n", [],  # tidy, the method column named unusually
     "column 'learner' holds text, not scores. If the file is tidy (one row per result), name its method column "
     "with --method-column (e.g. --method-column learner)"),
    ("dataset,a,b\niris,0.9,0.8\nwine,0.7,x\n", [], "column 'b' must hold numbers; not a number at line 3 ('x')"),
    ("dataset,a,b\niris,0.9,0.8\niris,0.7,0.6\n", [], "dataset 'iris' appears on lines 2 and 3"),
    ("dataset,method,score\niris,a,0.9\n,b,0.8\n", [], "empty dataset at line 3"),
    ("dataset,method,score\niris,a,0.9\niris,b,inf\n", [], "infinite values at line 3"),
    ("", [], "the file is empty"),
], ids=["missing-file", "non-numeric", "duplicate", "unknown-column", "no-score-column", "text-column-in-wide",
        "wide-non-numeric", "wide-duplicate", "empty-key", "infinite", "empty-file"])
def test_input_errors_are_one_line(tmp_path, content, extra, expected):
    path = tmp_path / "nothere.csv"
    if content is not None:
        path = tmp_path / "scores.csv"
        path.write_text(content, encoding="utf-8")
    status, out, err = run(["compare", str(path), "--metric", "accuracy", "--out", str(tmp_path / "o"), *extra])
    assert status == 1
    assert err.count("\n") == 1 and err.startswith("mcda compare: error: "), err
    assert expected in err, err
    assert "Traceback" not in err


def test_metric_errors_suggest_cards(tmp_path):
    path = tmp_path / "s.csv"
    path.write_text("dataset,method,score\niris,a,0.9\niris,b,0.8\n", encoding="utf-8")
    status, _, err = run(["compare", str(path), "--metric", "acuracy", "--out", str(tmp_path / "o")])
    assert status == 1 and "--metric 'acuracy' has no metric card. Did you mean 'accuracy'?" in err
    status, _, err = run(["compare", str(path), "--out", str(tmp_path / "o")])
    assert status == 1 and "name the metric with --metric" in err
    status, _, err = run(["compare", str(path), "--metric", "mine", "--direction", "lower_is_better", "--rope", "0",
                          "--out", str(tmp_path / "o"), "--no-figures"])
    assert status == 0, err  # a metric without a card, with a direction and a rope
    status, _, err = run(["cards", "show", "acuracy"])
    assert status == 1 and "no metric card 'acuracy'. Did you mean 'accuracy'?" in err


def test_bad_options_exit_2(capsys):
    assert main(["compare", "--example", "demsar2006", "--alpha", "2"]) == 2
    assert "argument --alpha: must lie strictly between 0 and 1" in capsys.readouterr().err
    assert main(["compare", "--example", "nope"]) == 2
    assert main([]) == 2
    status, _, err = run(["compare", "x.csv", "--example", "duo2018"])
    assert status == 1 and "not both" in err


@pytest.mark.parametrize("argv", [["--help"], ["compare", "--help"], ["cards", "--help"], ["cards", "list", "--help"],
                                  ["cards", "show", "--help"]])
def test_every_command_has_help(argv, capsys):
    assert main(argv) == 0
    assert "usage: mcda" in capsys.readouterr().out


def test_cards_list_and_show():
    status, out, _ = run(["cards", "list"])
    assert status == 0
    assert [line.split()[0] for line in out.splitlines()] == mcda.list_cards()
    status, out, _ = run(["cards", "list", "--task", "clustering"])
    assert "ari" in out and "accuracy" not in out
    status, out, _ = run(["cards", "show", "ELAPSED"])
    assert status == 0 and out.startswith("runtime") and "lower_is_better" in out


def test_read_scores_keeps_missing_cells(tmp_path):
    path = tmp_path / "s.csv"
    path.write_text("dataset,method,seed,score\niris,a,0,0.9\niris,a,1,NA\niris,b,0,\niris,b,1,0.7\n",
                    encoding="utf-8")
    frame = read_scores(path)
    assert frame["score"].isna().tolist() == [False, True, True, False]
    assert frame["seed"].dtype == np.int64


def test_the_installed_command_runs_as_a_subprocess(tmp_path):
    run_ = subprocess.run([sys.executable, "-m", "mcda.app.cli", "compare", "--example", "duo2018", "--out",
                           str(tmp_path), "--rng", "0"], capture_output=True, text=True, timeout=300)
    assert run_.returncode == 0, run_.stderr
    assert "== Across datasets" in run_.stdout and "SAFE: lacks" in run_.stdout
    assert {"report.json", "critical_difference.png", "critical_difference.pdf"} <= _files(tmp_path)
    doc = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert doc["format"] == "mcda-report" and doc["settings"]["rng"] == 0
    bad = subprocess.run([sys.executable, "-m", "mcda.app.cli", "compare", str(tmp_path / "nothere.csv"), "--metric",
                          "ari"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 1 and "Traceback" not in bad.stderr and bad.stderr.count("\n") == 1


def test_a_metric_column_needs_a_choice(tmp_path):
    full = mcda.datasets.load("duo2018_all")
    path = tmp_path / "all.csv"
    full.to_dataframe(name="score").reset_index()[["dataset", "method", "metric", "score"]].to_csv(path, index=False)
    status, _, err = run(["compare", str(path), "--out", str(tmp_path / "o")])
    assert status == 1 and "the metric column holds several metrics" in err and "--metric" in err
    status, out, err = run(["compare", str(path), "--metric", "elapsed", "--out", str(tmp_path / "o"),
                            "--no-figures"])
    assert status == 0, err
    assert "lower is better" in out and "runtime" in out.lower()


# --------------------------------------------------------------------------- review fixes

def test_two_methods_one_incomplete_still_get_the_pairwise_views(tmp_path):
    # 2 methods, one missing a dataset: Friedman has fewer than 2 complete methods to rank, but the
    # sign test and the Bayesian view on the shared datasets apply; the command must not stop there
    path = tmp_path / "two.csv"
    path.write_text("dataset,a,b\nd1,0.5,0.6\nd2,0.7,\nd3,0.4,0.45\nd4,0.3,0.5\n", encoding="utf-8")
    status, out, err = run(["compare", str(path), "--metric", "ari", "--out", str(tmp_path / "o"), "--rng", "0"])
    assert status == 0, err
    assert "does not apply: it ranks the methods with a result on every dataset, and only 1 (a)" in out
    assert "== Pairwise superiority" in out and "== Bayesian sign test" in out and "b: lacks d2" in out
    assert {"report.json", "scores.tex", "superiority.png"} <= _files(tmp_path / "o")
    assert "comparison.tex" not in _files(tmp_path / "o")
    # a wrong option is still an error, not a view that "does not apply"
    status, _, err = run(["compare", str(path), "--metric", "ari", "--control", "zzz", "--test", "holm",
                          "--out", str(tmp_path / "o"), "--no-figures"])
    assert status == 1 and "--control must be one of the methods compared [a, b]; got 'zzz'" in err


def test_help_shows_each_default_once(capsys):
    assert main(["compare", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "(default: None)" not in text and "(default: False)" not in text
    assert "(default: the card's noise floor)" in text and "(default: 0.05)" in text


def test_best_val_fallback_from_the_command_line(tmp_path):
    rows = [(d, m, s, e, split, round(0.5 + 0.1 * e + 0.01 * s + (0.003 if split == "val" else 0.0), 4))
            for d in ("d1", "d2", "d3") for m in ("a", "b") for s in (0, 1) for e in (1, 2, 3)
            for split in (("test", "val") if d != "d3" else ("test",))]
    path = tmp_path / "curves.csv"
    pd.DataFrame(rows, columns=["dataset", "method", "seed", "epoch", "split", "score"]).to_csv(path, index=False)
    argv = ["compare", str(path), "--metric", "accuracy", "--epoch-selection", "best_val", "--out",
            str(tmp_path / "o"), "--no-figures"]
    status, _, err = run(argv)
    assert status == 1 and "Pass --fallback-final" in err and "strict" not in err and "`" not in err
    status, out, err = run(argv + ["--fallback-final"])
    assert status == 0, err
    assert "epochs: best_val (8 runs best_val, 4 runs final (fallback: no validation))" in out


def test_cli_words_for_library_errors(tmp_path):
    semi = tmp_path / "semi.csv"
    semi.write_text("dataset;a;b\nd1;0.5;0.6\nd2;0.6;0.7\n", encoding="utf-8")
    status, _, err = run(["compare", str(semi), "--metric", "ari", "--out", str(tmp_path / "o")])
    assert status == 1 and "separated by semicolons" in err
    named = tmp_path / "rmse.csv"
    named.write_text("dataset,method,rmse\nd1,a,0.5\nd1,b,0.6\n", encoding="utf-8")
    status, _, err = run(["compare", str(named), "--out", str(tmp_path / "o")])
    assert status == 1 and "the column 'rmse' names a metric card: give --metric rmse" in err
    wide = tmp_path / "wide.csv"
    wide.write_text("dataset,a,b\nd1,0.5,0.6\nd2,0.6,0.7\n", encoding="utf-8")
    status, _, err = run(["compare", str(wide), "--direction", "lower_is_better", "--out", str(tmp_path / "o")])
    assert status == 1 and "give --rope (0 for none)" in err and "rope=" not in err
    # a bad --out fails before the analysis is printed
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    status, out, err = run(["compare", str(wide), "--metric", "ari", "--out", str(blocker / "o")])
    assert status == 1 and out == "" and "--out" in err


def test_extra_columns_are_ignored_with_a_note_and_control_means_holm(tmp_path):
    path = tmp_path / "scores.csv"
    rows = ["dataset,algorithm,score,runtime,notes"] + [
        f"d{i},{m},{0.7 + 0.05 * j + 0.01 * (i % 3)},{i + j},x" for i in range(8) for j, m in enumerate("abc")]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    status, out, err = run(["compare", str(path), "--metric", "accuracy", "--control", "a", "--no-figures",
                            "--out", str(tmp_path / "o")])
    assert status == 0, err
    assert "read as a tidy file with 'algorithm' as the method column" in out
    assert "ignored the extra numeric column 'runtime'" in out and "text column 'notes'" in out
    assert "--control a without --test: Holm's step-down against a" in out
    assert "holm against a" in out.lower()


def test_a_wide_file_that_looks_transposed_is_refused_and_offered_the_flags(tmp_path):
    path = tmp_path / "wide.csv"
    header = "name," + ",".join(f"d{i}" for i in range(6))  # rows are methods, columns datasets
    rows = [header] + [f"{m}," + ",".join(f"{0.6 + 0.01 * (i + j)}" for i in range(6)) for j, m in enumerate("abc")]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    status, out, err = run(["compare", str(path), "--metric", "accuracy", "--no-figures", "--out",
                            str(tmp_path / "o")])
    assert status == 1
    assert "this wide file has 3 rows (datasets, as written: 'a', 'b', 'c') and 6 method columns" in err
    assert "give --transpose" in err and "give --no-transpose" in err
