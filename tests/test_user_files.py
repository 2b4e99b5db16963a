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
