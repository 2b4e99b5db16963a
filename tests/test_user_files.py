"""User-style files (tests/data/user_benchmark): the library and the CLI read them, and analyse them, the same way."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from scipy import stats

import mcda
from mcda.app.cli import main

DATA = Path(__file__).parent / "data" / "user_benchmark"
COLUMNS = {"method": "model", "score": "accuracy"}


def _library(name, **settings):
    frame = pd.read_csv(DATA / f"{name}.csv")
    scale = settings.pop("scale", None)
    cube = mcda.score_cube(frame, columns=COLUMNS, metric="accuracy", scale=scale)
    return mcda.Report(cube, rng=0, **settings)


def _cli(name, tmp_path, *options):
    out = tmp_path / name
    status = main(["compare", str(DATA / f"{name}.csv"), "--metric", "accuracy", "--no-figures", "--rng", "0",
                   "--out", str(out), *options])
    assert status == 0
    return mcda.Report.from_json(out / "report.json"), out


def _same_analysis(library, cli):
    xr.testing.assert_allclose(library.raw.drop_attrs(), cli.raw.drop_attrs())
    assert library.settings == cli.settings
    assert library.overview() == cli.overview()
    assert library.text() == cli.text()


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
def test_tidy_file_with_a_model_column(tmp_path, capsys):
    frame = pd.read_csv(DATA / "tidy_model_column.csv")
    with pytest.raises(ValueError, match=r"columns=\{'method': 'model'"):
        mcda.score_cube(frame, metric="accuracy")  # the library names the way on, and reads nothing silently
    cli, out = _cli("tidy_model_column", tmp_path)
    printed = capsys.readouterr().out
    assert "read as a tidy file with 'model' as the method column" in printed
    assert "ignored the extra numeric column 'runtime_s'" in printed and "text column 'notes'" in printed
    _same_analysis(_library("tidy_model_column"), cli)
    assert "== Notes" in (out / "report.txt").read_text() and "## Notes" in (out / "report.md").read_text()
    # the extra numeric column is read as the metric when asked
    assert main(["compare", str(DATA / "tidy_model_column.csv"), "--metric", "runtime", "--score-column",
                 "runtime_s", "--no-figures", "--out", str(tmp_path / "rt")]) == 0


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
def test_percent_file(tmp_path, capsys):
    assert main(["compare", str(DATA / "percent_scale.csv"), "--metric", "accuracy", "--no-figures",
                 "--out", str(tmp_path / "refused")]) == 1
    assert "give --scale percent" in capsys.readouterr().err
    cli, _ = _cli("percent_scale", tmp_path, "--scale", "percent")
    library = _library("percent_scale", scale="percent")
    _same_analysis(library, cli)
    fraction = _library("tidy_model_column")  # the same accuracies as fractions: the same analysis
    np.testing.assert_allclose(library.raw.values, fraction.raw.values, rtol=1e-12)
    assert library.bayesian().to_frame()["label"].tolist() == fraction.bayesian().to_frame()["label"].tolist()
    assert "scores converted percent -> fraction" in cli.overview()


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
def test_unpaired_seeds_file(tmp_path, capsys):
    cli, _ = _cli("unpaired_seeds", tmp_path)
    assert "seed labels differ between methods: 140 of 560" in capsys.readouterr().out
    _same_analysis(_library("unpaired_seeds"), cli)
    cli_u, _ = _cli("unpaired_seeds", tmp_path / "u", "--unpaired")
    library_u = _library("unpaired_seeds", paired=False)
    _same_analysis(library_u, cli_u)
    table = library_u.pairwise().to_frame()
    row = table[(table.dataset == "openml_00") & (table.method_a == "LogReg") & (table.method_b == "MLP")].iloc[0]
    frame = pd.read_csv(DATA / "unpaired_seeds.csv")
    pick = lambda m: frame[(frame.dataset == "openml_00") & (frame.model == m)]["accuracy"]  # noqa: E731
    assert row.p_raw == pytest.approx(stats.ttest_ind(pick("LogReg"), pick("MLP"), equal_var=False).pvalue)


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
@pytest.mark.parametrize("missing", ["methods", "datasets", "available"])
def test_one_missing_cell_file(tmp_path, missing):
    cli, out = _cli("one_missing_cell", tmp_path, "--missing", missing)
    library = _library("one_missing_cell", missing=missing)
    _same_analysis(library, cli)
    comparison = library.compare()
    expected = {"methods": (7, 20, "complete"), "datasets": (8, 19, "complete"),
                "available": (8, 20, "unbalanced incomplete")}[missing]
    assert (comparison.n_methods, comparison.n_datasets, comparison.design) == expected
    if missing == "available":
        assert comparison.datasets_per_method["kNN"] == 19
    text = (out / "report.md").read_text()
    assert "## Methods" in text and "## Results" in text and "```bibtex" in text
    assert {"methods": "kNN: 1 dataset", "datasets": "lacking a result for some method",
            "available": "Skillings–Mack"}[missing] in text


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
def test_lost_seed_file_one_rule(tmp_path):
    cli, _ = _cli("lost_seed", tmp_path)
    library = _library("lost_seed")
    _same_analysis(library, cli)
    frame = pd.read_csv(DATA / "lost_seed.csv")
    cube = mcda.score_cube(frame, columns=COLUMNS, metric="accuracy")
    with pytest.warns(mcda.MissingDataWarning, match="openml_03/SVM \\(4 of 5\\)"):
        reduced = mcda.reduce_seeds(cube, how="mean")  # the library default is the Report's rule
    assert mcda.compare_over_datasets(reduced).n_datasets == library.compare().n_datasets == 20
    assert int(reduced.coords["n_seeds"].sel({"dataset": "openml_03", "method": "SVM"})) == 4
    expected = frame[(frame.dataset == "openml_03") & (frame.model == "SVM")]["accuracy"].mean()
    assert float(library.across_cube.sel({"dataset": "openml_03", "method": "SVM"})) == pytest.approx(expected)


# --------------------------------------------------------------------------- the files of the write-up's cases

def _wide_cli(name, tmp_path, capsys, *options):
    status = main(["compare", str(DATA / f"{name}.csv"), "--metric", "accuracy", "--no-figures", "--rng", "0",
                   "--out", str(tmp_path / name), *options])
    return status, capsys.readouterr()


def test_transposed_wide_file_is_refused_until_the_user_says_how_to_read_it(tmp_path, capsys):
    status, printed = _wide_cli("transposed_wide", tmp_path, capsys)
    assert status == 1 and "Give --transpose to read its rows as methods" in printed.err
    status, _ = _wide_cli("transposed_wide", tmp_path / "t", capsys, "--transpose")
    assert status == 0
    cli = mcda.Report.from_json(tmp_path / "t" / "transposed_wide" / "report.json")
    frame = pd.read_csv(DATA / "transposed_wide.csv", index_col=0)
    with pytest.raises(ValueError, match="headed 'model': its rows are methods") as refused:
        mcda.score_cube(frame, metric="accuracy")  # the library refuses the same table, naming the way on
    assert refused.value.argument == "data"
    library = mcda.Report(mcda.score_cube(frame.T.rename_axis("dataset"), metric="accuracy"), rng=0)
    xr.testing.assert_allclose(library.raw.drop_attrs(), cli.raw.drop_attrs())
    assert cli.raw.sizes == {"dataset": 20, "method": 8}
    # the seed means of the tidy file, which this table holds: the same cells
    tidy = pd.read_csv(DATA / "tidy_model_column.csv").groupby(["dataset", "model"])["accuracy"].mean()
    cell = float(cli.raw.sel({"dataset": "openml_03", "method": "SVM"}))
    assert cell == pytest.approx(tidy[("openml_03", "SVM")], abs=5e-5)  # the file rounds to 4 decimals


def test_a_wide_file_with_an_average_row_is_refused_by_the_library_and_the_cli(tmp_path, capsys):
    status, printed = _wide_cli("wide_with_average_row", tmp_path, capsys)
    assert status == 1 and "the row 'Average' (line 22) is a summary of the other rows, not a dataset" in printed.err
    for data in (DATA / "wide_with_average_row.csv", pd.read_csv(DATA / "wide_with_average_row.csv", index_col=0)):
        with pytest.raises(ValueError, match="the row 'Average', a summary of the other rows, not a dataset"):
            mcda.score_cube(data, metric="accuracy")


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
def test_two_methods_that_each_lost_a_different_seed_are_paired_on_the_seeds_both_have(tmp_path, capsys):
    cli, _ = _cli("lost_seeds_two_methods", tmp_path)
    printed = capsys.readouterr().out
    assert "lost seeds: 1 of 560 (dataset, pair) comparisons" in printed
    assert "SVM lacks seed 2 and RandomForest lacks seed 4" in printed
    assert "seed labels differ" not in printed and "--unpaired" not in printed and "paired=False" not in printed
    library = _library("lost_seeds_two_methods")
    _same_analysis(library, cli)
    table = library.pairwise().to_frame()
    row = table[(table.dataset == "openml_03") & (table.method_a == "SVM") & (table.method_b == "RandomForest")].iloc[0]
    frame = pd.read_csv(DATA / "lost_seeds_two_methods.csv")
    pick = lambda m: frame[(frame.dataset == "openml_03") & (frame.model == m)].set_index("seed")["accuracy"]  # noqa: E731
    both = pick("SVM").index.intersection(pick("RandomForest").index)
    assert list(both) == [0, 1, 3] and row.n_seeds == 3
    assert row.p_raw == pytest.approx(stats.ttest_rel(pick("SVM")[both], pick("RandomForest")[both]).pvalue)


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
def test_an_incomplete_design_gets_its_post_hoc_in_text_and_latex(tmp_path):
    cli, out = _cli("incomplete_design", tmp_path, "--missing", "available")
    library = _library("incomplete_design", missing="available")
    _same_analysis(library, cli)
    comparison = library.compare()
    assert comparison.design == "unbalanced incomplete" and comparison.test == "skillings-mack-pairwise (holm)"
    assert comparison.friedman.pvalue < 0.05  # the omnibus that ran (Skillings–Mack on this design) rejects
    decided = comparison.posthoc.to_frame()
    latex = (out / "comparison.tex").read_text()
    assert "pairwise Skillings--Mack (Holm)" in latex and "Friedman, then" not in latex
    groups = dict(line.split(" & ")[0::2] for line in latex.splitlines() if line.count(" & ") == 2
                  and line.endswith("\\\\") and not line.startswith("Method"))
    groups = {m: g.rstrip(" \\") for m, g in groups.items()}
    # letters say what the post-hoc decided: two methods share a letter exactly when that pair is not separated
    for r in decided.itertuples():
        assert bool(set(groups[r.method_a]) & set(groups[r.method_b])) == (not r.significant), (r.method_a, r.method_b)
    assert len(set("".join(groups.values()))) > 1


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
def test_a_benchmark_without_real_differences_is_described_without_contradiction(tmp_path):
    cli, out = _cli("no_real_difference", tmp_path)
    library = _library("no_real_difference")
    _same_analysis(library, cli)
    bayes = library.bayesian().to_frame()
    better = int(bayes["label"].isin(["a_better", "b_better"]).sum())
    equivalent = int((bayes["label"] == "equivalent").sum())
    results = (out / "report.md").read_text().split("## Results")[1].split("## References")[0]
    # the counts the sentences give are the library's own decisions, whatever they are
    assert (f"The Bayesian sign test decided {better + equivalent} of {len(bayes)} pairs "
            f"({better} with one method better, {equivalent} practically equivalent)") in results
    rejected = library.compare().friedman.pvalue < library.settings["alpha"]
    assert ("The Friedman test did not reject" in results) == (not rejected)
    # no sentence may claim a better method when neither the omnibus test nor the sign test found one
    if not rejected and better == 0:
        assert "license no claim" in results and " better (P = " not in results


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
def test_a_control_run_speaks_only_of_the_control_pairs(tmp_path):
    cli, out = _cli("tidy_model_column", tmp_path, "--control", "LogReg")
    library = _library("tidy_model_column", control="LogReg", test="holm")
    _same_analysis(library, cli)
    posthoc = library.compare().posthoc.to_frame()
    assert len(posthoc) == 7 and set(posthoc["method_a"]) == {"LogReg"}
    text = (out / "report.md").read_text()
    separated = int(posthoc["significant"].sum())
    # the post-hoc speaks of the control's 7 comparisons; the whole-table views that still speak of all 28 pairs
    # are said to lie outside the family the post-hoc controls
    assert f"The post-hoc test separated {separated} of 7 comparisons against LogReg" in text
    outside = len(set(map(frozenset, library.bayesian().to_frame().query("label in ['a_better', 'b_better']")
                          [["method_a", "method_b"]].itertuples(index=False))) - set(map(frozenset, posthoc[
                              ["method_a", "method_b"]].itertuples(index=False))))
    assert f"{outside} pairs the Bayesian sign test decides with one method better are not among the 7 pairs " \
           "with LogReg" in text


def test_fifty_methods_with_long_names_run_within_their_budgets(tmp_path, capsys):
    status = main(["compare", str(DATA / "fifty_methods_wide.csv"), "--metric", "accuracy", "--rng", "0",
                   "--figures", "critical_difference", "--out", str(tmp_path / "fifty_methods_wide")])
    assert status == 0
    out = tmp_path / "fifty_methods_wide"
    report = mcda.Report.from_json(out / "report.json")
    assert report.raw.sizes == {"dataset": 30, "method": 50}
    overview = (out / "report.txt").read_text()
    # the two samplers past their budgets are left out, each saying what it would cost and how to ask for it
    assert report.plackett_luce_skipped() in overview and "--plackett-luce always" in overview
    assert report.signed_rank_skipped() in overview and "--signed-rank always" in overview
    assert (out / "critical_difference.png").exists() and not (out / "critical_difference_page2.png").exists()
