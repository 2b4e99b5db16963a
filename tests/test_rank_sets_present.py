"""Rank confidence sets as a figure and in the Report: the figure draws the result's fields, page by page;
the sentences say what the result holds.

The numbers asserted here are the result's own fields (the figure and the text compute nothing), and
the designs are chosen so that the sets are known without mcda: estimates 10 standard errors apart
are ordered with certainty (every set a single rank), equal estimates tie every place.
"""

from __future__ import annotations

import matplotlib
import numpy as np
import pandas as pd
import pytest

import mcda

matplotlib.use("Agg")


def _given(k, *, gap, se=1.0, rng=0):
    names = [f"m{j:03d}" for j in range(k)]
    estimates = pd.Series(-gap * np.arange(k, dtype=float), index=names)
    covariance = pd.DataFrame(np.eye(k) * se ** 2, index=names, columns=names)
    return mcda.rank_confidence_sets_from_estimates(estimates, covariance, n_resamples=200, rng=rng)


def test_page_and_tick_geometry():
    from mcda.present.plots.rank_sets import rank_set_pages, rank_ticks

    assert [len(range(200)[p]) for p in rank_set_pages(200)["pages"]] == [50, 50, 50, 50]
    assert len(rank_set_pages(8)["pages"]) == 1 and len(rank_set_pages(50)["pages"]) == 1
    for k in (3, 8, 12, 50, 51, 200, 1000):
        ticks = rank_ticks(k)
        assert ticks[0] == 1 and ticks == sorted(set(ticks)) and ticks[-1] <= k, (k, ticks)
        assert ticks == list(range(1, k + 1)) if k <= 10 else len(ticks) <= 6, (k, ticks)


def test_the_figure_draws_each_methods_set_in_the_tables_order():
    from mcda.plots import plot_rank_sets
    from mcda.present.plots.rank_sets import HALF_BOX, rank_set_pages

    # 10 standard errors apart: every set is its own rank, one method may be the best
    certain = _given(8, gap=10.0)
    fig, ax = plot_rank_sets(certain)
    assert [t.get_text() for t in ax.get_yticklabels()] == [f"m{j:03d}" for j in range(8)]
    dots = next(line for line in ax.lines if line.get_gid() == "estimated_rank").get_xdata()
    assert list(dots) == list(range(1, 9))
    best = next(c for c in ax.collections if c.get_gid() == "rank_set_best").get_segments()
    assert len(best) == 1 and tuple(best[0][:, 0]) == pytest.approx((1 - HALF_BOX, 1 + HALF_BOX))
    # one apart with standard error 1 on 120 methods: wide sets, and the second of two pages
    wide = _given(120, gap=1.0)
    frame = wide.to_frame()
    part = frame.iloc[rank_set_pages(120)["pages"][1]]
    fig, ax = plot_rank_sets(wide, page=2)
    segments = [s for c in ax.collections if c.get_gid() in ("rank_set", "rank_set_best") for s in c.get_segments()]
    drawn = sorted((s[0, 1], s[0, 0], s[1, 0]) for s in segments)
    np.testing.assert_allclose([d[1] for d in drawn], part["rank_low"] - HALF_BOX)
    np.testing.assert_allclose([d[2] for d in drawn], part["rank_high"] + HALF_BOX)
    assert [t.get_text() for t in ax.get_yticklabels()] == list(part["method"])
    assert "page 2 of 2" in fig.get_suptitle() and ax.get_xlim() == (0.5, 120.5)
    with pytest.raises(mcda.McdaArgumentError, match="`page`"):
        plot_rank_sets(wide, page=3)


# --------------------------------------------------------------------------- the Report, its text and mcda compare

def _ordered_cube(k, n_datasets, *, n_seeds=None, tied=False, rng=0):
    """Scores in which method j scores j-th on every dataset (each seed too): the mean ranks are k, …, 1 with
    no variance, so every rank set is one place and only the last method may be the best. ``tied``: every
    method scores alike on every dataset, so every method is tied for every place."""
    gen = np.random.default_rng(rng)
    base = gen.uniform(0.3, 0.6, size=(n_datasets, 1))
    step = 0.0 if tied else 0.02
    values = base + step * np.arange(k)[None, :]
    if n_seeds:
        noise = gen.uniform(-1e-3, 1e-3, size=(n_datasets, k, n_seeds)) if not tied else 0.0
        values = values[:, :, None] + noise
        dims = ("dataset", "method", "seed")
    else:
        dims = ("dataset", "method")
    import xarray as xr

    coords = {"dataset": [f"d{i}" for i in range(n_datasets)], "method": [f"m{j}" for j in range(k)]}
    if n_seeds:
        coords["seed"] = list(range(n_seeds))
    return mcda.score_cube(xr.DataArray(values, dims=dims, coords=coords), metric="accuracy")


@pytest.mark.parametrize("k,n_datasets,n_seeds,tied", [(3, 5, None, False), (6, 8, 3, False), (4, 6, None, True),
                                                       (15, 10, None, False)])
def test_the_sentences_say_what_the_design_makes_certain(k, n_datasets, n_seeds, tied):
    import warnings

    report = mcda.Report(_ordered_cube(k, n_datasets, n_seeds=n_seeds, tied=tied), rng=4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        text, overview = report.text(), report.overview()
    result = report.rank_sets()
    names = [f"m{j}" for j in range(k)]
    if tied:   # every method may be every place: the design, not the result, says so
        assert sorted(result.best_set) == names
        assert f"{k} of {k} methods may be the best" in text and f"0 of {k} methods have a rank set of a single" in text
        assert f"may be the best: {', '.join(result.best_set)} ({k} of {k}); places that are certain: 0 of {k}" \
            in overview
        sets = [f"{m} 1–{k}" for m in result.to_frame()["method"]]
    else:      # m_{k-1} first on every dataset, then m_{k-2}, …
        assert result.best_set == (names[-1],)
        assert f"{names[-1]} alone may be the best; {k} of {k} methods have a rank set of a single place" in text
        assert f"may be the best: {names[-1]} (1 of {k}); places that are certain: {k} of {k}" in overview
        sets = [f"{m} {k - j}" for j, m in reversed(list(enumerate(names)))]
    listed = sets[:12] + ([f"and {k - 12} more"] if k > 12 else [])
    assert f"The rank sets, by estimated rank, are: {'; '.join(listed)}." in text
    assert f"over the {n_datasets} datasets" in text and "[@mogstad2024]" in text and "@article{mogstad2024" in text
    assert "== Confidence sets for the ranks" in overview


def test_a_method_without_every_result_is_named_and_the_figure_is_the_reports():
    import warnings

    cube = _ordered_cube(5, 7, rng=3)
    cube = cube.where(~((cube.dataset == "d2") & (cube.method == "m1")))
    report = mcda.Report(cube, rng=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        text = report.text()
        result = report.rank_sets()
        fig, ax = report.plot_rank_sets()
    assert list(result.excluded) == ["m1"] and result.n_methods == 4
    assert "1 method lacking results (m1) was left out of them." in text
    assert [t.get_text() for t in ax.get_yticklabels()] == ["m4", "m3", "m2", "m0"]
    # one dataset: no covariance to estimate, and the report says so instead of failing
    one = mcda.Report(_ordered_cube(3, 1), rng=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert "there are 3 method(s) on 1 dataset(s)" in one.overview()
        assert "mogstad2024" not in one.text()


def test_mcda_compare_prints_the_rank_sets(tmp_path):
    import io

    from mcda.app.cli import main

    out, err = io.StringIO(), io.StringIO()
    assert main(["compare", "--example", "demsar2006", "--out", str(tmp_path), "--rng", "3", "--figures", "none"],
                stdout=out, stderr=err) == 0, err.getvalue()
    report = mcda.Report(mcda.datasets.load("demsar2006"), rng=3)
    result = report.rank_sets()
    assert "== Confidence sets for the ranks" in out.getvalue()
    assert f"may be the best: {', '.join(result.best_set)}" in out.getvalue()
    assert "[@mogstad2024]" in (tmp_path / "report.md").read_text()


def test_the_figure_names_the_methods_left_out_for_missing_results():
    import warnings

    from mcda.plots import plot_rank_sets

    cube = mcda.datasets.synthetic(n_datasets=6, n_methods=4, n_seeds=0, rng=1).copy()
    cube[0, 2] = np.nan   # method_2 lacks dataset_0: it has no rank set
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mcda.McdaWarning)
        result = mcda.rank_confidence_sets(cube, rng=0)
    assert list(result.excluded) == ["method_2"]
    fig, ax = plot_rank_sets(result)
    assert "left out (missing results): method_2" in fig._suptitle.get_text()
    assert "method_2" not in [t.get_text() for t in ax.get_yticklabels()]
    matplotlib.pyplot.close(fig)
