"""``mcda compare`` on the files users bring at 20-50 methods: one order and one key for every figure
of a run, the critical-difference diagram's width, and wide tables written the wrong way round."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from scipy.stats import rankdata

from mcda.app.cli import main

NAMES = ["GradientBoosting_depth6_lr0.05", "RandomForest_500trees", "LogisticRegression_L2", "SVM_rbf_C10",
         "KNN_k15_distance", "MLP_2x256_dropout0.2", "XGBoost_depth4_eta0.1", "NaiveBayes_gaussian"]


def run(argv):
    out, err = io.StringIO(), io.StringIO()
    status = main(argv, stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def wide(k: int, n: int, *, seed: int = 0, missing=(3, 2)) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    names = [NAMES[i % len(NAMES)] + ("" if i < len(NAMES) else f"_v{i // len(NAMES)}") for i in range(k)]
    skill = rng.normal(0.0, 0.03, k)
    table = pd.DataFrame({m: np.round(0.75 + skill[j] + rng.normal(0.0, 0.05, n), 4) for j, m in enumerate(names)},
                         index=pd.Index([f"ds{i}" for i in range(n)], name="dataset"))
    if missing is not None:
        table.iloc[missing] = np.nan
    return table


def across_dataset_order(table: pd.DataFrame) -> list:
    """The across-dataset ranking computed here with scipy: mean rank (1 = best, ties averaged) over the
    methods with a result on every dataset, best first (ties in the file's order), then the others."""
    complete = [m for m in table.columns if table[m].notna().all()]
    ranks = np.vstack([rankdata(-row) for row in table[complete].to_numpy(dtype=float)]).mean(axis=0)
    ranked = [complete[i] for i in np.lexsort((np.arange(len(complete)), ranks))]
    return ranked + [m for m in table.columns if m not in complete]


def figure_orders(monkeypatch):
    """Capture, for every figure the command saves, the methods in the order its key (or its rows) lists them."""
    from mcda.present.plots import _style

    seen = {}
    real = _style.save_formats

    def capture(fig, paths):
        name = paths[0].stem
        keys = [leg for leg in fig.legends if leg.get_title().get_text().startswith("methods")]
        if keys:
            seen[name] = [t.get_text().strip().split(" ", 1)[1] for t in keys[0].get_texts()]
        else:  # names on the rows
            seen[name] = [t.get_text() for t in fig.axes[0].get_yticklabels()]
        return real(fig, paths)

    monkeypatch.setattr(_style, "save_formats", capture)
    return seen


def test_every_figure_of_a_run_sorts_and_numbers_the_methods_alike(tmp_path, monkeypatch):
    table = wide(14, 12)
    path = tmp_path / "scores.csv"
    table.to_csv(path)
    seen = figure_orders(monkeypatch)
    status, out, err = run(["compare", str(path), "--metric", "accuracy", "--out", str(tmp_path / "out"),
                            "--rng", "0", "--signed-rank", "never",
                            "--figures", "superiority,relation,posterior_bars,rank_stability"])
    assert status == 0, err
    expected = across_dataset_order(table)
    assert expected[-1] == table.columns[2]  # the incomplete method comes last
    assert set(seen) == {"superiority", "relation", "posterior_bars", "rank_stability"}
    for name, methods in seen.items():
        # rank_stability ranks the complete methods only: the same numbers, the excluded one absent
        assert methods == [m for m in expected if m in methods], name
        assert len(methods) >= len(expected) - 1, name
    # scores.tex keys the long names M1, M2, ... in the same order
    import re

    tex = (tmp_path / "out" / "scores.tex").read_text(encoding="utf-8")
    keys = re.findall(r"^M(\d+) & (.+?) \\\\$", tex, flags=re.M)
    assert [int(i) for i, _ in keys] == list(range(1, len(expected) + 1))
    assert [name.replace("\\_", "_") for _, name in keys] == expected


def test_the_rule_is_in_the_help(capsys):
    assert run(["compare", "--help"])[0] == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "Every figure and scores.tex sort and number the methods in one order, the across-" in text
    assert "--cd-width {auto,column,page}" in text


def test_the_help_lists_every_registered_post_hoc_test(capsys):
    from mcda.stats.procedures import names

    run(["compare", "--help"])
    text = "".join(capsys.readouterr().out.split())  # argparse wraps at spaces and hyphens
    registered = names("posthoc")
    assert {"finner", "holland", "li", "rom"} <= set(registered)  # the four the help once left out
    for name in registered:
        assert f",{name}(" in text or f":{name}(" in text, name


def test_the_cd_diagram_of_many_long_names_goes_across_the_page_on_one_page(tmp_path):
    import matplotlib

    matplotlib.use("Agg", force=True)
    import mcda
    from mcda.app.cli import cd_width_for
    from mcda.data.readers import read_scores

    path = tmp_path / "scores.csv"
    wide(50, 30, missing=None).to_csv(path)
    report = mcda.Report(read_scores(str(path), metric="accuracy"), metric="accuracy")
    assert cd_width_for(report) == "page"
    assert cd_width_for(report, "column") == "column"
    from mcda.present.plots._layout import PageOutOfRange

    with pytest.raises(PageOutOfRange) as caught:
        report.plot_critical_difference(width="page", page=10**9)
    assert caught.value.n_pages == 1
    with pytest.raises(PageOutOfRange) as caught:
        report.plot_critical_difference(width="column", page=10**9)
    assert caught.value.n_pages > 1  # what the column width did at 50 methods
    short = mcda.Report(mcda.datasets.load("demsar2006"))
    assert cd_width_for(short) == "column"  # four short names: the column fits


# --------------------------------------------------------------------------- wide tables the wrong way round

def test_a_table_with_a_row_per_method_is_refused_and_read_with_transpose(tmp_path):
    table = wide(4, 9, missing=None)
    path = tmp_path / "by_method.csv"
    table.T.to_csv(path, index_label="name")  # 4 rows (methods) x 9 columns (datasets)
    status, _, err = run(["compare", str(path), "--metric", "accuracy", "--no-figures", "--out", str(tmp_path / "a")])
    assert status == 1
    assert "4 rows (datasets, as written: 'GradientBoosting_depth6_lr0.05'" in err
    assert "and 9 method columns ('ds0'" in err
    assert "more method columns than dataset rows, and no 'dataset' header" in err  # the rule, stated
    assert "give --transpose" in err and "give --no-transpose" in err
    status, out, err = run(["compare", str(path), "--metric", "accuracy", "--no-figures", "--transpose",
                            "--out", str(tmp_path / "b")])
    assert status == 0, err
    assert "9 datasets x 4 methods" in out
    assert "read with --transpose: 4 rows as methods" in out
    # read as written when the user says so: the nine dataset names are then methods
    status, out, err = run(["compare", str(path), "--metric", "accuracy", "--no-figures", "--no-transpose",
                            "--out", str(tmp_path / "c")])
    assert status == 0, err
    assert "4 datasets x 9 methods" in out


def test_transpose_reads_the_same_scores_as_the_table_written_the_right_way(tmp_path):
    from mcda.data.readers import read_scores

    table = wide(5, 8)
    right, wrong = tmp_path / "right.csv", tmp_path / "wrong.csv"
    table.to_csv(right)
    table.T.to_csv(wrong, index_label="method")
    a = read_scores(str(right))
    b = read_scores(str(wrong), transpose=True)
    pd.testing.assert_frame_equal(a, b, check_names=False)
    assert list(b.index) == list(table.index) and list(b.columns) == list(table.columns)


def test_a_method_column_with_numeric_dataset_columns_asks_for_transpose(tmp_path):
    path = tmp_path / "by_method.csv"
    wide(4, 6, missing=None).T.to_csv(path, index_label="method")
    status, _, err = run(["compare", str(path), "--metric", "accuracy", "--no-figures", "--out", str(tmp_path / "a")])
    assert status == 1
    assert "a 'method' column and 6 numeric columns ('ds0', 'ds1', 'ds2', 'ds3', … (2 more))" in err
    assert "Give --transpose" in err


@pytest.mark.parametrize("label", ["Average", "MEAN", "avg", "Total", "Rank", "Mean rank", "avg. rank"])
def test_a_summary_row_is_refused_by_name_and_line(tmp_path, label):
    table = wide(3, 6, missing=None)
    table.loc[label] = table.mean()
    path = tmp_path / "scores.csv"
    table.to_csv(path)
    status, _, err = run(["compare", str(path), "--metric", "accuracy", "--no-figures", "--out", str(tmp_path / "o")])
    assert status == 1
    assert f"the row {label!r} (line 8) is a summary of the other rows, not a dataset; delete it" in err


def test_a_summary_column_is_refused_and_a_name_with_the_word_is_not(tmp_path):
    table = wide(3, 6, missing=None)
    table["Mean"] = table.mean(axis=1)
    path = tmp_path / "scores.csv"
    table.to_csv(path)
    status, _, err = run(["compare", str(path), "--metric", "accuracy", "--no-figures", "--out", str(tmp_path / "o")])
    assert status == 1
    assert "the column 'Mean' is a summary of the other columns, not a method" in err
    table = table.rename(columns={"Mean": "mean_teacher"}, index={"ds5": "average_precision_set"})
    table.to_csv(path)
    status, out, err = run(["compare", str(path), "--metric", "accuracy", "--no-figures", "--out",
                            str(tmp_path / "o")])
    assert status == 0, err
    assert "6 datasets x 4 methods" in out


def test_a_summary_row_of_a_transposed_table_is_not_a_method(tmp_path):
    table = wide(3, 6, missing=None).T
    table.loc["Average"] = table.mean()
    path = tmp_path / "by_method.csv"
    table.to_csv(path, index_label="name")
    status, _, err = run(["compare", str(path), "--metric", "accuracy", "--no-figures", "--transpose",
                          "--out", str(tmp_path / "o")])
    assert status == 1
    assert "the row 'Average' (line 5) is a summary of the other rows, not a method" in err


def test_a_dataset_header_says_the_rows_are_datasets(tmp_path):
    path = tmp_path / "scores.csv"
    wide(9, 6, missing=None).to_csv(path)  # 6 datasets x 9 methods, the row labels headed 'dataset'
    status, out, err = run(["compare", str(path), "--metric", "accuracy", "--no-figures", "--out", str(tmp_path / "o")])
    assert status == 0, err
    assert "6 datasets x 9 methods" in out


def test_transpose_is_for_wide_files_only(tmp_path):
    path = tmp_path / "tidy.csv"
    path.write_text("dataset,method,score\nd1,a,0.5\nd1,b,0.6\nd2,a,0.4\nd2,b,0.7\n", encoding="utf-8")
    status, _, err = run(["compare", str(path), "--metric", "accuracy", "--no-figures", "--no-transpose",
                          "--out", str(tmp_path / "o")])
    assert status == 1 and "--no-transpose applies to a wide file; this one is tidy" in err
    status, _, err = run(["compare", "--example", "demsar2006", "--transpose", "--no-figures",
                          "--out", str(tmp_path / "o")])
    assert status == 1 and "--transpose reads a wide CSV file; --example data is not one" in err


# --------------------------------------------------------------------------- incomplete methods: the way out

def test_an_excluded_method_is_offered_missing_datasets_and_available(tmp_path):
    table = wide(4, 8)  # one missing cell: method 2 on ds3
    path = tmp_path / "scores.csv"
    table.to_csv(path)
    status, out, err = run(["compare", str(path), "--metric", "accuracy", "--no-figures", "--out", str(tmp_path / "o")])
    assert status == 0, err
    assert ("to rank the 1 excluded method(s) too, give --missing datasets (drops the 1 dataset(s) they lack: ds3) "
            "or --missing available") in out
    status, out, err = run(["compare", str(path), "--metric", "accuracy", "--no-figures", "--missing", "datasets",
                            "--out", str(tmp_path / "o")])
    assert status == 0, err
    assert "to rank the" not in out


def test_too_few_complete_methods_names_the_flag(tmp_path):
    path = tmp_path / "scores.csv"
    path.write_text("dataset,A,B,C\nd1,0.5,0.6,0.7\nd2,,0.5,0.6\nd3,0.4,,0.5\nd4,0.3,0.4,0.6\nd5,0.3,0.4,0.6\n",
                    encoding="utf-8")
    status, out, err = run(["compare", str(path), "--metric", "accuracy", "--no-figures", "--out", str(tmp_path / "o")])
    assert status == 0, err
    text = " ".join(out.split())
    assert "only 1 (C) of 3 have one" in text
    assert "on the command line --missing datasets" in text and "--missing available" in text
