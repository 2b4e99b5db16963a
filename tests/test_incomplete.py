"""Skillings–Mack and Durbin: the published worked examples, the oracles, and Friedman on a complete design."""

import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import mcda
from mcda.stats._shared.multitest import PVALUE_ADJUSTMENTS

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


# --------------------------------------------------------------------------- the pairwise Skillings-Mack post-hoc


def _sums_by_hand(table: np.ndarray) -> np.ndarray:
    """A of Skillings & Mack (1981) eq. 2.1 with loops (blocks x treatments, NaN = missing, higher = better)."""
    adjusted = np.zeros(table.shape[1])
    for row in table:
        cols = np.flatnonzero(~np.isnan(row))
        size = cols.size
        if size >= 2:
            adjusted[cols] += np.sqrt(12.0 / (size + 1)) * ((size + 1) / 2 - stats.rankdata(-row[cols]))
    return adjusted


def _effects_by_hand(table: np.ndarray):
    """θ = L⁺ A and V = L⁺ Σ L⁺ written out with loops: A and Σ of Skillings & Mack (1981) eq. 2.1-2.3,
    L the same Laplacian with each block weighted by sqrt(12/(k_i + 1)); also L⁺."""
    n, k = table.shape
    sigma, laplacian = np.zeros((k, k)), np.zeros((k, k))
    for i in range(n):
        cols = [j for j in range(k) if not np.isnan(table[i, j])]
        size = len(cols)
        if size < 2:
            continue
        weight = np.sqrt(12.0 / (size + 1))
        for j in cols:
            for m in cols:
                if j != m:
                    sigma[j, m] -= 1.0
                    sigma[j, j] += 1.0
                    laplacian[j, m] -= weight
                    laplacian[j, j] += weight
    plus = np.linalg.pinv(laplacian)
    return plus @ _sums_by_hand(table), plus @ sigma @ plus, plus


def _z_by_hand(table: np.ndarray) -> np.ndarray:
    effects, covariance, _ = _effects_by_hand(table)
    k = table.shape[1]
    z = np.zeros((k, k))
    for a in range(k):
        for b in range(k):
            if a != b:
                z[a, b] = (effects[b] - effects[a]) / np.sqrt(covariance[a, a] + covariance[b, b]
                                                                - 2 * covariance[a, b])
    return z


def _unbalanced(seed=4, n=40, k=5, keep=0.7, shift=0.35):
    """Continuous scores (no ties), higher is better, about 1 - keep of the cells missing."""
    rng = np.random.default_rng(seed)
    values = rng.normal(size=(n, k)) + shift * np.arange(k)[::-1]
    values[rng.random((n, k)) > keep] = np.nan
    return pd.DataFrame(values, index=[f"d{i}" for i in range(n)], columns=[f"m{j}" for j in range(k)])


def test_pairwise_skillings_mack_is_the_friedman_z_on_a_complete_design():
    # On a complete design the contrast is (R̄_a − R̄_b) / sqrt(k(k+1)/(6N)) (Demšar 2006, the z of the
    # Nemenyi / Holm procedures), computed here from scipy's ranks; its p is 2Φ(−|z|).
    rng = np.random.default_rng(8)
    values = rng.normal(size=(14, 5)) + 0.4 * np.arange(5)
    n, k = values.shape
    mean_ranks = np.mean([stats.rankdata(-row) for row in values], axis=0)
    expected = (mean_ranks[:, None] - mean_ranks[None, :]) / np.sqrt(k * (k + 1) / (6 * n))
    res = mcda.skillings_mack_posthoc(values, "higher_is_better", adjust=None)
    np.testing.assert_allclose(res.z.to_numpy(), expected, rtol=1e-12, atol=1e-12)
    off = ~np.eye(k, dtype=bool)
    np.testing.assert_allclose(res.pvalues.to_numpy()[off], 2 * stats.norm.sf(np.abs(expected[off])), rtol=1e-10)
    # and the same as the library's Friedman z post-hoc, all pairs and against a control
    siegel = mcda.all_pairs_test(values, "higher_is_better", test="siegel", adjust=None)
    np.testing.assert_allclose(res.z.to_numpy(), siegel.z.to_numpy(), rtol=1e-12, atol=1e-12)
    control = mcda.skillings_mack_posthoc(values, "higher_is_better", control="method_2", adjust="holm")
    reference = mcda.control_test(values, "higher_is_better", control="method_2", test="holm")
    np.testing.assert_allclose(control.z.to_numpy(), reference.z.loc[control.z.index].to_numpy(), rtol=1e-12)
    np.testing.assert_allclose(control.pvalues_adjusted.to_numpy(),
                               reference.pvalues_adjusted.loc[control.z.index].to_numpy(), rtol=1e-10)


def test_pairwise_skillings_mack_on_a_balanced_design_is_the_raw_contrast_of_a():
    # Balanced incomplete (Conover's ice cream: t = 7, λ = 1): the estimated effects are proportional to
    # A, and z_ab = (A_b − A_a) / sqrt(2 λ t) with A of Skillings & Mack's eq. 2.1 (looped above).
    frame = _icecream()
    table = frame.to_numpy(dtype=float)
    res = mcda.skillings_mack_posthoc(frame, "higher_is_better", adjust=None)
    ranks_by_hand = np.zeros(7)
    for row in table:
        cols = np.flatnonzero(~np.isnan(row))
        ranks_by_hand[cols] += np.sqrt(12 / 4) * (2 - stats.rankdata(-row[cols]))
    expected = (ranks_by_hand[None, :] - ranks_by_hand[:, None]) / np.sqrt(2 * 1 * 7)
    np.testing.assert_allclose(res.z.to_numpy(), expected, rtol=1e-12, atol=1e-12)


def test_pairwise_skillings_mack_equals_the_loops_on_an_unbalanced_design():
    frame = _unbalanced()
    res = mcda.skillings_mack_posthoc(frame, "higher_is_better", adjust=None)
    np.testing.assert_allclose(res.z.to_numpy(), _z_by_hand(frame.to_numpy()), rtol=1e-10, atol=1e-12)
    # the worse direction is the same test with the signs flipped
    flipped = mcda.skillings_mack_posthoc(-frame, "lower_is_better", adjust=None)
    np.testing.assert_allclose(flipped.z.to_numpy(), res.z.to_numpy(), rtol=1e-12, atol=1e-12)


def test_normal_pvalues_agree_with_the_conditional_permutation_test():
    # Oracle: the permutation distribution of each pair's contrast θ_b − θ_a, permuting the scores
    # within each dataset among the methods present there (the Skillings-Mack null), written here
    # with a plain loop. The normal p-values must agree within Monte-Carlo error plus the normal
    # approximation's; the library's own permutation p-values within Monte-Carlo error.
    frame = _unbalanced(seed=21, n=45, k=4, keep=0.75, shift=0.25)
    table = frame.to_numpy()
    effects, _, plus = _effects_by_hand(table)
    k = table.shape[1]
    a, b = np.triu_indices(k, 1)
    observed = np.abs(effects[b] - effects[a])
    rng = np.random.default_rng(5)
    n_resamples = 3000
    # permuting a dataset's scores permutes its centred ranks among the same cells: permute those
    rows = []
    for row in table:
        cols = np.flatnonzero(~np.isnan(row))
        if cols.size >= 2:
            rows.append((cols, np.sqrt(12 / (cols.size + 1)) * ((cols.size + 1) / 2 - stats.rankdata(-row[cols]))))
    exceed = np.zeros(a.size)
    for _ in range(n_resamples):
        sums = np.zeros(k)
        for cols, centred in rows:
            sums[cols] += rng.permutation(centred)
        drawn = plus @ sums  # the design, so L, is the same in every permutation
        exceed += np.abs(drawn[b] - drawn[a]) >= observed * (1 - 1e-10)
    oracle = (1 + exceed) / (1 + n_resamples)
    normal = mcda.skillings_mack_posthoc(frame, "higher_is_better", adjust=None).to_frame()["p_raw"].to_numpy()
    permuted = mcda.skillings_mack_posthoc(frame, "higher_is_better", adjust=None, n_resamples=n_resamples,
                                           rng=1).to_frame()["p_raw"].to_numpy()
    assert oracle.min() < 0.05 and oracle.max() > 0.2  # the design spans small and large p
    mc = np.sqrt(oracle * (1 - oracle) / n_resamples)
    assert np.all(np.abs(permuted - oracle) <= 4 * np.sqrt(2) * mc + 2 / n_resamples)
    assert np.all(np.abs(normal - oracle) <= 4 * mc + 0.02)


def test_permutation_pvalues_depend_on_neither_the_order_nor_the_names():
    # The same rng draws the same permutations whatever the order of the methods and datasets and
    # whatever the methods are called: reorder both and rename the methods so that their names sort
    # the other way, with ties within datasets (rounded scores), and every pair keeps its p-value.
    frame = _unbalanced(seed=3, n=16, k=5, keep=0.8, shift=0.3).round(1)
    assert any(pd.Series(row).dropna().duplicated().any() for row in frame.to_numpy())  # ties exist
    shuffled = frame.iloc[np.random.default_rng(1).permutation(len(frame)),
                          np.random.default_rng(2).permutation(frame.shape[1])]
    names = {m: f"x{9 - int(m[1:])}" for m in frame.columns}  # m0 -> x9, ..., m4 -> x5
    renamed = shuffled.rename(columns=names)

    def pvalues(table, back=None):
        res = mcda.skillings_mack_posthoc(table, "higher_is_better", adjust=None, n_resamples=499, rng=7)
        out = res.to_frame()
        back = back or {}
        pairs = [tuple(sorted((back.get(x, x), back.get(y, y)))) for x, y in zip(out["method_a"], out["method_b"])]
        return pd.Series(out["p_raw"].to_numpy(), index=pd.MultiIndex.from_tuples(pairs)).sort_index()

    original = pvalues(frame)
    assert original.min() < 0.05 < original.max()  # small and large p, not all at the floor
    pd.testing.assert_series_equal(pvalues(shuffled), original)
    pd.testing.assert_series_equal(pvalues(renamed, {v: k for k, v in names.items()}), original)


@pytest.mark.parametrize("adjust", ["holm", "hochberg", "hommel", "bonferroni", "sidak", "holm-sidak", "fdr-bh",
                                    "fdr-by"])
def test_every_statsmodels_adjustment_is_applied_to_the_raw_pvalues(adjust):
    # reference: statsmodels' multipletests on the post-hoc's raw p-values
    from statsmodels.stats.multitest import multipletests

    statsmodels_name = {"hochberg": "simes-hochberg", "fdr-bh": "fdr_bh", "fdr-by": "fdr_by"}.get(adjust, adjust)
    frame = _unbalanced()
    res = mcda.skillings_mack_posthoc(frame, "higher_is_better", adjust=adjust).to_frame()
    expected = multipletests(res["p_raw"].to_numpy(), method=statsmodels_name)[1]
    np.testing.assert_allclose(res["p_adjusted"].to_numpy(), expected, rtol=1e-12)
    control = mcda.skillings_mack_posthoc(frame, "higher_is_better", adjust=adjust, control="m4").to_frame()
    expected = multipletests(control["p_raw"].to_numpy(), method=statsmodels_name)[1]
    np.testing.assert_allclose(control["p_adjusted"].to_numpy(), expected, rtol=1e-12)
    assert control["method_a"].eq("m4").all() and len(control) == 4


@pytest.mark.parametrize("adjust", sorted(PVALUE_ADJUSTMENTS))
def test_any_registered_adjustment_is_accepted(adjust):
    frame = _unbalanced()
    res = mcda.skillings_mack_posthoc(frame, "higher_is_better", adjust=adjust)
    table = res.to_frame()
    assert res.adjust == adjust and table["p_adjusted"].between(0, 1).all()
    assert (table["p_adjusted"] >= table["p_raw"] - 1e-15).all()


def test_against_a_control_the_raw_pvalues_are_the_control_row():
    frame = _unbalanced()
    pairs = mcda.skillings_mack_posthoc(frame, "higher_is_better", adjust=None)
    control = mcda.skillings_mack_posthoc(frame, "higher_is_better", adjust=None, control="m2")
    np.testing.assert_allclose(control.pvalues.to_numpy(), pairs.pvalues.loc["m2", control.pvalues.index].to_numpy(),
                               rtol=1e-12)
    np.testing.assert_allclose(control.z.to_numpy(), pairs.z.loc["m2", control.z.index].to_numpy(), rtol=1e-12)
    with pytest.raises(mcda.McdaArgumentError, match="`adjust` 'shaffer'"):
        mcda.skillings_mack_posthoc(frame, "higher_is_better", adjust="shaffer", control="m2")
    with pytest.raises(mcda.McdaArgumentError, match="`control`"):
        mcda.skillings_mack_posthoc(frame, "higher_is_better", control="nope")


def test_methods_in_unconnected_groups_are_not_compared():
    # {m0, m1} and {m2, m3} never share a dataset: their cross pairs have no contrast
    rng = np.random.default_rng(2)
    values = np.full((12, 4), np.nan)
    values[:6, :2] = rng.normal(size=(6, 2)) + [2.0, 0.0]
    values[6:, 2:] = rng.normal(size=(6, 2))
    res = mcda.skillings_mack_posthoc(values, "higher_is_better")
    table = res.to_frame().set_index(["method_a", "method_b"])
    assert table.loc[("method_0", "method_2"), "p_raw"] != table.loc[("method_0", "method_2"), "p_raw"]  # NaN
    assert not table.loc[("method_0", "method_2"), "significant"]
    assert np.isfinite(table.loc[("method_0", "method_1"), "p_raw"])
    with pytest.raises(mcda.McdaArgumentError, match="share no dataset"):
        mcda.skillings_mack_posthoc(values, "higher_is_better", adjust="shaffer")


def test_unbalanced_compare_runs_the_pairwise_post_hoc_and_groups_by_it():
    from mcda.stats.procedures import display_name

    frame = _unbalanced(shift=0.9)
    res = mcda.compare_over_datasets(frame, "higher_is_better", missing="available")
    assert res.design == "unbalanced incomplete" and res.friedman.rejected and res.posthoc is not None
    assert res.posthoc_test == "skillings-mack-pairwise" and res.adjust == "holm"
    assert res.procedure == f"{display_name('skillings-mack')}, then pairwise Skillings–Mack (Holm)"
    assert len(res.groups) > 1 and len(set(res.letters().values())) > 1
    decided = res.pair_decisions()
    assert decided["significant"].any()
    # the better side of a separated pair is the one its z favours
    for row in decided[decided["significant"]].itertuples(index=False):
        z = res.posthoc.z.at[row.method_a, row.method_b]
        assert row.better == (row.method_b if z > 0 else row.method_a)
    controlled = mcda.compare_over_datasets(frame, "higher_is_better", missing="available", control="m0",
                                            test="hochberg")
    assert controlled.posthoc.control == "m0" and controlled.adjust == "hochberg"
    assert controlled.procedure.endswith("then pairwise Skillings–Mack (Hochberg) against control m0")


def test_cli_writes_the_pairwise_groups_of_an_unbalanced_design(tmp_path, capsys):
    from mcda.app.cli import main

    frame = _unbalanced(shift=0.9)
    tidy = frame.stack().rename("score").rename_axis(["dataset", "method"]).reset_index()
    path = tmp_path / "unbalanced.csv"
    tidy.to_csv(path, index=False)
    out = tmp_path / "out"
    assert main(["compare", str(path), "--direction", "higher_is_better", "--rope", "0", "--missing", "available",
                 "--no-figures", "--out", str(out), "--rng", "0"]) == 0
    printed = capsys.readouterr().out
    assert "then pairwise Skillings–Mack (Holm) only if it rejects" in printed
    tex = (out / "comparison.tex").read_text()
    body = tex.split(r"\midrule")[1].split(r"\bottomrule")[0]
    groups = {line.split("&")[-1].strip(" \\") for line in body.strip().splitlines()}
    assert groups != {"a"} and len(groups) > 1
    assert "pairwise Skillings--Mack (Holm)" in tex
    text = (out / "report.md").read_text()
    assert "pairwise z tests of the method effects estimated from the Skillings–Mack rank sums" in text
    assert "@yates1936" in text and "{yates1936," in text


def test_two_equal_methods_with_different_competitors_are_not_separated():
    # Why the contrast is taken on the estimated effects, not on A: X and Y are the same method
    # (effect 0), but X mostly meets a strong method S (+1) and Y a weak one W (−1). A_X − A_Y then
    # drifts (X loses to S, Y beats W) and the raw contrast (A_Y − A_X)/sqrt(Σ_XX + Σ_YY − 2Σ_XY) —
    # written out here — separates X from Y in about a fifth of the designs at alpha = 0.05; the
    # contrast of the effects, net of the competitors, keeps the nominal rate. 120 simulated designs.
    rng = np.random.default_rng(0)
    effects = np.array([0.0, 0.0, 1.0, -1.0])  # X, Y, S, W
    blocks = [(0, 2)] * 12 + [(1, 3)] * 12 + [(0, 1)] * 6 + [(2, 3)] * 6 + [(0, 3)] * 3 + [(1, 2)] * 3
    n_designs, ours, raw = 120, 0, 0
    for _ in range(n_designs):
        values = np.full((len(blocks), 4), np.nan)
        for i, block in enumerate(blocks):
            for j in block:
                values[i, j] = effects[j] + rng.normal()
        ours += mcda.skillings_mack_posthoc(values, "higher_is_better", adjust=None).pvalues.iloc[0, 1] <= 0.05
        sums = _sums_by_hand(values)
        pairs = (~np.isnan(values)).astype(float)
        together = pairs.T @ pairs  # λ_jl off the diagonal: Σ_jl = −λ_jl, Σ_jj = Σ_{l≠j} λ_jl
        shared = together.sum(axis=1) - np.diag(together)
        variance = shared[0] + shared[1] + 2 * together[0, 1]
        raw += 2 * stats.norm.sf(abs(sums[1] - sums[0]) / np.sqrt(variance)) <= 0.05
    assert ours / n_designs <= 0.08
    assert raw / n_designs >= 0.12
