"""The replicability matrix (issue 34's third figure): every cell is the result's own count, every method is
named at 8, 50 and 200 methods (by name, by number beside it, or in a key), and the command line draws it."""

from __future__ import annotations

import warnings

import matplotlib
import numpy as np
import pytest

import mcda

matplotlib.use("Agg")


def _result(k, n_datasets=6, **kwargs):
    cube = mcda.datasets.synthetic(n_datasets=n_datasets, n_methods=k, n_seeds=5,
                                   effects=np.linspace(0, 0.05, k), noise_sd=0.01, rng=k)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mcda.McdaWarning)
        return mcda.replicability(cube, **kwargs)


def test_each_cell_is_the_claims_count_and_its_colour_the_share():
    import matplotlib.pyplot as plt
    from mcda.plots import plot_replicability

    result = _result(4, n_datasets=10)
    table = result.to_frame()
    fig, ax = plot_replicability(result)
    rows = [t.get_text() for t in ax.get_yticklabels()]
    cols = [t.get_text() for t in ax.get_xticklabels()]
    assert rows == cols and sorted(rows) == sorted(set(table["method_a"]))
    image = next(im for im in ax.images if im.get_gid() == "replicability_matrix")
    share = np.ma.filled(image.get_array(), np.nan)
    texts = {(round(t.get_position()[1]), round(t.get_position()[0])): t.get_text()
             for t in ax.texts if t.get_gid() == "cell_value"}
    for r in table.itertuples(index=False):  # the result's table, claim by claim
        i, j = rows.index(r.method_a), cols.index(r.method_b)
        assert share[i, j] == pytest.approx(r.n_replicated / r.n_datasets)
        assert texts[(i, j)] == str(int(r.n_replicated))
    assert np.isnan(np.diag(share)).all()
    # most datasets won first
    wins = table.groupby("method_a")["n_replicated"].sum()
    assert list(wins.loc[rows]) == sorted(wins, reverse=True)
    plt.close(fig)


def test_a_given_order_is_kept_and_a_wrong_result_is_named():
    import matplotlib.pyplot as plt
    from mcda.plots import plot_replicability

    result = _result(3)
    order = ["method_2", "method_0", "method_1"]
    fig, ax = plot_replicability(result, order=order)
    assert [t.get_text() for t in ax.get_yticklabels()] == order
    plt.close(fig)
    with pytest.raises(mcda.McdaArgumentError, match="ReplicabilityResult") as info:
        plot_replicability(mcda.datasets.load("demsar2006"))
    assert info.value.argument == "result"


@pytest.mark.parametrize("k", [8, 50, 200])
def test_every_method_is_named_at_8_50_and_200(k):
    import matplotlib.pyplot as plt
    from mcda.plots import plot_replicability
    from mcda.present.plots import _layout

    result = _result(k, n_datasets=4)
    fig, ax = plot_replicability(result, width="column" if k == 8 else "page")
    order = [t.get_text() for t in ax.get_yticklabels()]
    layout = _layout.matrix_layout(k, [f"method_{i}" for i in range(k)], width=fig.get_figwidth(), cell_text="4")
    legend_texts = [t.get_text() for lg in fig.legends for t in lg.get_texts()]
    if layout["key"]:  # rows by number: the key under the matrix names every method
        assert len(legend_texts) == k
    else:  # every tick_step-th row labelled, by name
        assert len(order) == len(range(0, k, layout["tick_step"]))
    assert fig.get_figheight() <= _layout.PAGE_HEIGHT + 1e-9
    plt.close(fig)


def test_the_report_and_the_command_line_draw_it(tmp_path):
    import io

    from mcda.app.cli import main

    cube = mcda.datasets.synthetic(n_datasets=6, n_methods=4, n_seeds=3, rng=2)
    csv = tmp_path / "scores.csv"
    cube.to_dataframe(name="score").reset_index()[["dataset", "method", "seed", "score"]].to_csv(csv, index=False)
    out, err = io.StringIO(), io.StringIO()
    assert main(["compare", str(csv), "--metric", "accuracy", "--rng", "0", "--figures", "replicability",
                 "--out", str(tmp_path / "o")], stdout=out, stderr=err) == 0, err.getvalue()
    assert sorted(p.name for p in (tmp_path / "o").glob("*.png")) == ["replicability.png"]
    text = io.StringIO()
    main(["compare", "--example", "demsar2006", "--figures", "replicability", "--out", str(tmp_path / "d")],
         stdout=text, stderr=io.StringIO())
    assert "figure replicability: not drawn (needs seeds (several runs per cell))" in text.getvalue()
