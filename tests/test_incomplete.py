"""Skillings–Mack and Durbin: the published worked examples, the oracles, and Friedman on a complete design."""

import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import mcda

DATA = Path(__file__).parent / "data"


def _assembly():
    frame = pd.read_csv(DATA / "skillings_mack1981" / "assembly.csv", index_col="block")
    frame.index = frame.index.astype(str)
    return mcda.score_cube(frame, direction="lower_is_better")


def _icecream():
    frame = pd.read_csv(DATA / "conover1999_icecream" / "icecream.csv", index_col="judge")
    frame.index = frame.index.astype(str)
    return frame


def _skillings_mack_by_hand(table: np.ndarray) -> float:
    """Skillings & Mack (1981) eq. 2.1–2.3 written out with loops (blocks x treatments, NaN = missing)."""
    n, k = table.shape
    adjusted = np.zeros(k)
    for i in range(n):
        cols = [j for j in range(k) if not np.isnan(table[i, j])]
        size = len(cols)
        ranks = stats.rankdata([table[i, j] for j in cols])
        for j, rank in zip(cols, ranks):
            adjusted[j] += np.sqrt(12.0 / (size + 1)) * (rank - (size + 1) / 2)
    cov = np.zeros((k, k))
    for j in range(k):
        for m in range(k):
            if j != m:
                shared = sum(1 for i in range(n) if not np.isnan(table[i, j]) and not np.isnan(table[i, m]))
                cov[j, m] = -shared
                cov[j, j] += shared
    return float(adjusted @ np.linalg.pinv(cov) @ adjusted)


def test_skillings_mack_reproduces_the_published_example():
    # Skillings & Mack (1981) Table 1. Reference: R, PMCMRplus::skillingsMackTest (r_reference.csv,
    # made by make_reference.R): SM = 15.4930, df 3, p = 0.00144. The 15.493 quoted for
    # Chatfield & Mander (2009) could not be checked against the article's text (PROVENANCE.md).
    reference = pd.read_csv(DATA / "skillings_mack1981" / "r_reference.csv").set_index("example").loc["assembly"]
    result = mcda.skillings_mack_test(_assembly())
    assert result.statistic == pytest.approx(reference.statistic, rel=1e-10)
    assert result.df == 3 == reference.df
    assert result.pvalue == pytest.approx(reference.pvalue, rel=1e-8)
    assert result.statistic == pytest.approx(_skillings_mack_by_hand(_assembly().values), rel=1e-12)
    assert result.design.kind == "unbalanced incomplete"
    assert result.design.n_datasets_per_method.to_dict() == {"A": 8, "B": 8, "C": 9, "D": 7}
    assert "datasets per method: A 8, B 8, C 9, D 7" in result.summary()


def test_skillings_mack_equals_friedman_on_a_complete_design():
    rng = np.random.default_rng(5)
    scores = rng.normal(size=(12, 5))  # continuous: no ties
    cube = mcda.score_cube(scores, direction="higher_is_better")
    sm = mcda.skillings_mack_test(cube)
    reference = stats.friedmanchisquare(*scores.T)  # scipy, no ties: untied = tie-corrected
    assert sm.statistic == pytest.approx(reference.statistic, rel=1e-10)
    assert sm.pvalue == pytest.approx(reference.pvalue, rel=1e-8)
    assert sm.df == 4 and sm.design.kind == "complete"
    assert sm.statistic == pytest.approx(mcda.friedman_test(cube).statistic, rel=1e-10)


def test_durbin_reproduces_conover_and_scikit_posthocs():
    sp = pytest.importorskip("scikit_posthocs")
    frame = _icecream()
    result = mcda.durbin_test(frame, direction="higher_is_better", adjust=None)
    assert result.statistic == pytest.approx(12.0, abs=1e-12)  # Conover (1999) p. 391: T1 = 12.00
    p, statistic, df = sp.test_durbin(frame.to_numpy(dtype=float))
    assert (result.statistic, result.df) == (pytest.approx(statistic), df)
    assert result.pvalue == pytest.approx(p, rel=1e-10)
    assert (result.methods_per_dataset, result.datasets_per_method, result.pair_count) == (3, 3, 1)
    # post-hoc: Conover's t on rank sums, against scikit-posthocs (unadjusted and Holm)
    for adjust, sp_adjust in ((None, None), ("holm", "holm")):
        ours = mcda.durbin_test(frame, direction="higher_is_better", adjust=adjust).pairwise
        ref = sp.posthoc_durbin(frame.to_numpy(dtype=float), p_adjust=sp_adjust)
        methods = list(frame.columns)
        expected = [ref.iloc[methods.index(a), methods.index(b)] for a, b in zip(ours["method_a"], ours["method_b"])]
        np.testing.assert_allclose(ours["p_adjusted"].to_numpy(dtype=float), expected, rtol=1e-10)
    # on a balanced incomplete design without ties Skillings-Mack is Durbin's statistic (Skillings & Mack 1981)
    sm = mcda.skillings_mack_test(frame, direction="higher_is_better")
    assert sm.statistic == pytest.approx(result.statistic, rel=1e-10)
    assert sm.design.kind == "balanced incomplete"


def test_durbin_refuses_an_unbalanced_design_and_points_to_skillings_mack():
    with pytest.raises(ValueError, match="skillings_mack_test"):
        mcda.durbin_test(_assembly())


def test_durbin_without_rejection_claims_no_pair():
    frame = _icecream()
    result = mcda.durbin_test(frame, direction="higher_is_better", alpha=0.001)
    assert not result.rejected and result.pairwise.empty
    assert "no pair may be claimed" in result.summary()


# --------------------------------------------------------------------------- missing= on the across-dataset views


def _one_hole():
    """Four methods over eight datasets, method 'C' lacking one dataset."""
    rng = np.random.default_rng(11)
    values = rng.uniform(0.6, 0.9, size=(8, 4)) + np.array([0.0, 0.05, 0.1, 0.02])
    values[3, 2] = np.nan
    return mcda.score_cube(values, metric="accuracy", method_names=list("ABCD"),
                           dataset_names=[f"d{i}" for i in range(8)])


def test_missing_policies_on_friedman_and_the_ranks():
    cube = _one_hole()
    with pytest.warns(mcda.MissingDataWarning, match="C lacks"):
        by_methods = mcda.friedman_test(cube)
    assert list(by_methods.mean_ranks.index) == ["A", "B", "D"] and by_methods.excluded == {"C": ("d3",)}
    with pytest.warns(mcda.MissingDataWarning, match="d3 lacks"):
        by_datasets = mcda.friedman_test(cube, missing="datasets")
    assert by_datasets.n_datasets == 7 and by_datasets.excluded_datasets == {"d3": ("C",)}
    complete = cube.drop_sel(dataset="d3")
    reference = stats.friedmanchisquare(*complete.values.T)  # scipy on the 7 complete datasets, no ties
    assert by_datasets.statistic == pytest.approx(reference.statistic, rel=1e-10)
    available = mcda.friedman_test(cube, missing="available")
    assert isinstance(available, mcda.stats.across.incomplete.SkillingsMackResult)
    assert available.statistic == pytest.approx(_skillings_mack_by_hand(-cube.values), rel=1e-10)
    with pytest.warns(mcda.MissingDataWarning):
        ranks = mcda.average_ranks(cube, missing="datasets")
    assert ranks.n_datasets == 7 and ranks.supports_critical_difference
    with pytest.warns(mcda.MissingDataWarning, match="C lacks"):
        assert mcda.rank_table(cube, missing="methods").shape == (8, 3)
    with pytest.raises(ValueError, match="`missing`"):
        mcda.friedman_test(cube, missing="impute")


def test_compare_over_datasets_missing_each_way():
    cube = _one_hole()
    with pytest.warns(mcda.MissingDataWarning):
        assert mcda.compare_over_datasets(cube, control="B", test="holm", missing="datasets").control == "B"
    with pytest.raises(ValueError, match="excluded as incomplete"):
        with pytest.warns(mcda.MissingDataWarning):
            mcda.compare_over_datasets(cube, control="C", test="holm")
    res = mcda.compare_over_datasets(cube, missing="available")
    assert res.design == "unbalanced incomplete" and res.posthoc is None
    assert res.datasets_per_method.to_dict() == {"A": 8, "B": 8, "C": 7, "D": 8}
    assert "unbalanced incomplete design tested as it is" in res.summary()


def test_balanced_incomplete_compare_uses_durbin_and_conover():
    sp = pytest.importorskip("scikit_posthocs")
    frame = _icecream()
    res = mcda.compare_over_datasets(frame, "higher_is_better", missing="available", test="holm")
    assert res.design == "balanced incomplete" and res.posthoc is not None
    ref = sp.posthoc_durbin(frame.to_numpy(dtype=float), p_adjust="holm")
    ref.index = ref.columns = list(frame.columns)
    ours = res.posthoc.pvalues_adjusted
    for a in frame.columns:
        for b in frame.columns:
            if a != b:
                assert ours.at[a, b] == pytest.approx(ref.at[a, b], rel=1e-10)


def test_report_and_cli_take_missing(tmp_path, capsys):
    from mcda.app.cli import main

    cube = _one_hole()
    tidy = cube.to_dataframe(name="score").reset_index()[["dataset", "method", "score"]].dropna()
    path = tmp_path / "hole.csv"
    tidy.to_csv(path, index=False)
    for missing in ("methods", "datasets", "available"):
        report = mcda.Report(cube, missing=missing, rng=0)
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always", mcda.MissingDataWarning)
            text = report.overview()
        if missing != "available":  # the policy's exclusion is said (the method, or the dataset)
            assert any(("C lacks" if missing == "methods" else "d3 lacks") in str(w.message) for w in said)
        assert "design tested:" in text and "datasets per method:" in text
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", mcda.MissingDataWarning)  # said for methods/datasets; checked above
            library = mcda.compare_over_datasets(cube, missing=missing)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", mcda.MissingDataWarning)  # the overview's warning again: checked above
            compared = report.compare()
        assert compared.friedman.statistic == pytest.approx(library.friedman.statistic, rel=1e-12)
        out = tmp_path / missing
        assert main(["compare", str(path), "--metric", "accuracy", "--missing", missing, "--no-figures",
                     "--out", str(out), "--rng", "0"]) == 0
        printed = capsys.readouterr().out
        assert f"{library.friedman.statistic:.3f}" in printed
    with pytest.warns(mcda.MissingDataWarning, match="C lacks"):
        assert "C: lacks d3" in mcda.Report(cube, rng=0).overview()
