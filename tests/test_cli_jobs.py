"""``mcda compare --jobs``: the figures' pages drawn in forked processes, the same files and messages."""

from __future__ import annotations

import io
import os
import threading
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import mcda.app.cli
from mcda.app.cli import main

pytestmark = pytest.mark.filterwarnings("ignore::mcda.McdaWarning")

DATA = Path(__file__).parent / "data" / "user_benchmark" / "tidy_model_column.csv"  # 8 models x 20 datasets x 5 seeds


def run(argv):
    out, err = io.StringIO(), io.StringIO()
    status = main(argv, stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def _compare_jobs(tmp_path, argv):
    """Run ``argv`` with --jobs 1 and --jobs 2 (pids of the drawing processes recorded): both outputs."""
    outputs = {}
    for jobs in (1, 2):
        out = tmp_path / f"jobs{jobs}"
        status, text, err = run(argv + ["--out", str(out), "--jobs", str(jobs)])
        assert status == 0, err
        outputs[jobs] = (out, text.replace(str(out), "OUT"))
    return outputs


def _same_files(a: Path, b: Path):
    names = sorted(p.name for p in a.iterdir())
    assert names == sorted(p.name for p in b.iterdir())
    for name in names:
        if not name.endswith(".pdf"):  # a PDF embeds its creation time; its PNG twin holds the drawing
            assert (a / name).read_bytes() == (b / name).read_bytes(), name
    return names


@pytest.fixture
def drawing_pids(monkeypatch, tmp_path):
    """The pids of the processes that drew pages (a file each worker appends to)."""
    log = tmp_path / "pids.txt"
    draw = mcda.app.cli._draw_page

    def logged(*args, **kwargs):
        with open(log, "a") as f:
            f.write(f"{os.getpid()}\n")
        return draw(*args, **kwargs)

    monkeypatch.setattr(mcda.app.cli, "_draw_page", logged)
    return lambda: {int(line) for line in log.read_text().split()} if log.exists() else set()


def test_jobs_2_writes_the_same_bytes_and_says_the_same(tmp_path, drawing_pids):
    forked = threading.active_count() == 1 and mcda.app.cli._jobs_for(2, ["pairwise"]) == 2
    outputs = _compare_jobs(tmp_path, ["compare", str(DATA), "--metric", "accuracy", "--rng", "0", "--figures",
                                       "critical_difference,posterior_top_pair,pairwise,rank_stability"])
    (a, text_a), (b, text_b) = outputs[1], outputs[2]
    assert text_a == text_b
    names = _same_files(a, b)
    assert {"pairwise.png", "pairwise_page2.png", "posterior_top_pair.png", "critical_difference.png",
            "rank_stability.png"} <= set(names)
    if forked:  # the pages were drawn by other processes than this one
        assert drawing_pids() - {os.getpid()}


def test_jobs_2_with_a_single_page_to_draw(tmp_path):
    """One figure of one page is one task: drawn in this process, as with --jobs 1 (it used to fail
    looking for the workers' state)."""
    outputs = _compare_jobs(tmp_path, ["compare", str(DATA), "--metric", "accuracy", "--rng", "0", "--figures",
                                       "critical_difference"])
    (a, text_a), (b, text_b) = outputs[1], outputs[2]
    assert text_a == text_b
    assert "critical_difference.png" in _same_files(a, b)


def test_a_figure_failing_in_a_worker_is_named_and_the_rest_drawn(tmp_path, monkeypatch):
    draw = mcda.Report.plot_pairwise

    def second_page_fails(self, **kwargs):
        if kwargs.get("page", 1) == 2:
            raise RuntimeError("page two cannot be drawn")
        return draw(self, **kwargs)

    monkeypatch.setattr(mcda.Report, "plot_pairwise", second_page_fails)
    monkeypatch.setattr(mcda.Report, "plot_relation", lambda self, **kw: 1 / 0)
    outputs = _compare_jobs(tmp_path, ["compare", str(DATA), "--metric", "accuracy", "--rng", "0", "--figures",
                                       "relation,pairwise,superiority"])
    (a, text_a), (b, text_b) = outputs[1], outputs[2]
    assert text_a == text_b
    assert "figure relation: not drawn (division by zero)" in text_a
    assert "figure pairwise: not drawn (page two cannot be drawn)" in text_a
    names = _same_files(a, b)
    assert "pairwise.png" in names and "superiority.png" in names
    assert "relation.png" not in names and "pairwise_page2.png" not in names


def test_every_page_of_the_learning_curves(tmp_path):
    gen = np.random.default_rng(3)  # 10 methods: one panel per method, a page per dataset
    rows = [(d, f"method{m}", s, e, round(gen.uniform(0.5, 0.9), 4))
            for d in ("d1", "d2", "d3") for m in range(10) for s in (0, 1) for e in (1, 2, 3)]
    path = tmp_path / "curves.csv"
    pd.DataFrame(rows, columns=["dataset", "method", "seed", "epoch", "score"]).to_csv(path, index=False)
    outputs = _compare_jobs(tmp_path, ["compare", str(path), "--metric", "accuracy", "--rng", "0",
                                       "--figures", "learning_curves"])
    (a, text_a), (b, text_b) = outputs[1], outputs[2]
    assert text_a == text_b
    names = _same_files(a, b)
    assert {"learning_curves.png", "learning_curves_page2.png", "learning_curves_page3.png"} <= set(names)
    assert "learning_curves_page4.png" not in names
    listed = text_a.split("== Files written to OUT/\n")[1].splitlines()[0]
    assert "learning_curves_page3.png" in listed


@pytest.mark.parametrize("value", ["0", "x", "-2", "1.5"])
def test_bad_jobs_are_refused(tmp_path, value, capsys):
    status, _, _ = run(["compare", str(DATA), "--metric", "accuracy", "--jobs", value, "--out",
                          str(tmp_path / "o"), "--no-figures"])
    err = capsys.readouterr().err  # argparse's usage error
    assert status == 2
    assert "argument --jobs" in err and repr(value) in err


def test_files_are_listed_in_natural_order():
    names = ["forest_page10.png", "forest.png", "forest_page2.png", "report.json"]
    assert sorted(names, key=mcda.app.cli._natural) == ["forest.png", "forest_page2.png", "forest_page10.png",
                                                      "report.json"]


def test_a_page_past_the_end_says_how_many_pages_as_data():
    """The parallel CLI counts a paged figure's pages from the error's ``n_pages`` (not its text):
    every paged figure raises it, and its last page draws while the next one is refused."""
    import matplotlib.pyplot as plt

    from mcda.plots import plot_forest
    from mcda.present.plots._layout import PageOutOfRange
    from mcda.stats.within.seeds import summary

    rng = np.random.default_rng(0)
    frame = pd.DataFrame([(f"d{d:02d}", f"m{m}", s, float(rng.random()))
                          for d in range(40) for m in range(14) for s in range(3)],
                         columns=["dataset", "method", "seed", "score"])
    import mcda

    result = summary(mcda.score_cube(frame, direction="higher_is_better"))
    with pytest.raises(PageOutOfRange) as caught:
        plot_forest(result, page=10**9)
    n_pages = caught.value.n_pages
    assert n_pages > 1 and caught.value.argument == "page"
    plt.close(plot_forest(result, page=n_pages)[0])
    with pytest.raises(PageOutOfRange, match=f"from 1 to {n_pages}"):
        plot_forest(result, page=n_pages + 1)
