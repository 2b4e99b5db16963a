"""Scores on the wrong scale: a card's range is checked, and `scale=` converts explicitly."""

import numpy as np
import pandas as pd
import pytest

import mcda
from mcda.app.cli import main


def _percent_frame():
    rng = np.random.default_rng(3)
    return pd.DataFrame({"dataset": np.repeat([f"d{i}" for i in range(6)], 3), "method": ["a", "b", "c"] * 6,
                         "score": rng.uniform(60, 99, 18)})


def test_percent_scores_are_refused_with_the_way_on():
    frame = _percent_frame()
    with pytest.raises(ValueError) as info:
        mcda.score_cube(frame, metric="accuracy")
    text = str(info.value)
    assert "'accuracy'" in text and "[0, 1]" in text and "18 of 18" in text
    assert "dataset 'd0', method 'a'" in text and "(and 13 more)" in text
    assert "scale='percent'" in text


def test_scale_percent_divides_by_100_and_is_recorded():
    frame = _percent_frame()
    cube = mcda.score_cube(frame, metric="accuracy", scale="percent")
    np.testing.assert_allclose(np.sort(cube.values.ravel()), np.sort(frame["score"].to_numpy() / 100))
    assert cube.attrs["scale"] == "percent -> fraction (divided by 100)"
    again = mcda.data.io.from_json(mcda.data.io.to_json(cube))
    assert again.attrs["scale"] == cube.attrs["scale"]
    with pytest.raises(ValueError, match="already converted"):
        mcda.score_cube(cube, scale="percent")
    with pytest.raises(ValueError, match="`scale`"):
        mcda.score_cube(frame, metric="accuracy", scale="per mille")


def test_every_metric_of_a_multi_metric_cube_is_checked():
    frame = _percent_frame()
    tidy = pd.concat([frame.assign(metric="accuracy"), frame.assign(metric="ari", score=frame["score"] / 100)])
    with pytest.raises(ValueError, match="metric 'accuracy'"):
        mcda.score_cube(tidy)
    cube = mcda.score_cube(tidy, scale={"accuracy": "percent"})
    assert float(cube.sel(metric="accuracy").max()) <= 1
    np.testing.assert_allclose(cube.sel(metric="ari").values, cube.sel(metric="accuracy").values)
    bad = pd.concat([frame.assign(metric="ari", score=frame["score"] / 100),
                     frame.assign(metric="accuracy", score=frame["score"] / 100)])
    bad.iloc[0, bad.columns.get_loc("score")] = 1.7  # ari lies in [-1, 1]
    with pytest.raises(ValueError, match="metric 'ari': 1 of"):
        mcda.score_cube(bad)


def test_report_and_cli_show_the_conversion(tmp_path, capsys):
    frame = _percent_frame()
    path = tmp_path / "percent.csv"
    frame.to_csv(path, index=False)
    report = mcda.Report(frame, metric="accuracy", scale="percent", rng=0)
    assert "scores converted percent -> fraction" in report.overview()
    assert "percent to fraction" in report.to_latex()
    assert main(["compare", str(path), "--metric", "accuracy", "--no-figures", "--out", str(tmp_path / "a")]) == 1
    err = capsys.readouterr().err
    assert "--scale percent" in err and "scale=" not in err
    assert main(["compare", str(path), "--metric", "accuracy", "--scale", "percent", "--no-figures",
                 "--out", str(tmp_path / "b")]) == 0
    assert "scores converted percent -> fraction" in capsys.readouterr().out
    back = mcda.Report.from_json(tmp_path / "b" / "report.json")
    assert back.raw.attrs["scale"] == "percent -> fraction (divided by 100)"
    assert back.compare().friedman.statistic == pytest.approx(report.compare().friedman.statistic)
