"""The result bases of mcda._core.results: every omnibus across datasets is an OmnibusResult, and a
post-hoc names the kind of its statistic.

Reference numbers: the p-values are recomputed from each result's statistic and degrees of
freedom with scipy.stats (chi2, f, t), independently of mcda's own special-function calls.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import mcda
from mcda._core.results import OmnibusResult, Result, scale_sentence

DATA = Path(__file__).parent / "data"


def _icecream() -> pd.DataFrame:
    """Conover (1999, p. 391): a balanced incomplete design, 7 judges x 7 ice creams, 3 per judge."""
    frame = pd.read_csv(DATA / "conover1999_icecream" / "icecream.csv", index_col="judge")
    frame.index = frame.index.astype(str)
    return frame


def _assembly():
    """Skillings & Mack (1981): an unbalanced incomplete design."""
    frame = pd.read_csv(DATA / "skillings_mack1981" / "assembly.csv", index_col="block")
    frame.index = frame.index.astype(str)
    return mcda.score_cube(frame, direction="lower_is_better")


def _omnibus_results():
    demsar = mcda.datasets.load("demsar2006")
    return {
        "friedman": mcda.friedman_test(demsar),
        "friedman-aligned-ranks": mcda.friedman_aligned_ranks_test(demsar),
        "quade": mcda.quade_test(demsar),
        "skillings-mack": mcda.skillings_mack_test(_assembly()),
        "durbin": mcda.durbin_test(_icecream(), direction="higher_is_better"),
    }


def test_every_omnibus_exposes_statistic_pvalue_df_and_kind_through_the_base():
    for test, result in _omnibus_results().items():
        assert isinstance(result, OmnibusResult) and isinstance(result, Result), test
        assert result.test == test
        assert result.kind in ("chi2", "F")
        df = (result.df,) if np.ndim(result.df) == 0 else tuple(result.df)
        if result.kind == "chi2":
            expected = stats.chi2.sf(result.statistic, *df)
        else:
            expected = stats.f.sf(result.statistic, *df)
        assert result.pvalue == pytest.approx(expected, rel=1e-9), test
        assert result.rejected == bool(result.decision_pvalue <= result.alpha), test


def test_the_decision_pvalue_is_the_one_each_test_decides_by():
    results = _omnibus_results()
    # Friedman and Durbin decide by their F forms (Iman-Davenport; Conover's T2), the others by pvalue
    assert results["friedman"].decision_pvalue == results["friedman"].f_pvalue
    assert results["durbin"].decision_pvalue == results["durbin"].f_pvalue
    for test in ("friedman-aligned-ranks", "quade", "skillings-mack"):
        assert results[test].decision_pvalue == results[test].pvalue
    assert results["quade"].kind == "F" and results["friedman-aligned-ranks"].kind == "chi2"


def test_a_comparison_holds_an_omnibus_result_whatever_the_design():
    complete = mcda.compare_over_datasets(mcda.datasets.load("demsar2006"))
    bibd = mcda.compare_over_datasets(_icecream(), "higher_is_better", missing="available", test="holm")
    assert complete.friedman.test == "friedman" and bibd.friedman.test == "durbin"
    assert isinstance(complete.friedman, OmnibusResult) and isinstance(bibd.friedman, OmnibusResult)


def test_the_durbin_conover_posthoc_says_its_statistics_are_t():
    frame = _icecream()
    res = mcda.compare_over_datasets(frame, "higher_is_better", missing="available", test="holm")
    posthoc = res.posthoc
    assert posthoc is not None and posthoc.kind == "t" and posthoc.distribution == "t"
    b, k, t = 7, 3, 7  # datasets, methods per dataset, methods (Conover 1999, p. 391)
    assert posthoc.df == b * k - b - t + 1
    table = posthoc.to_frame()
    assert "t" in table.columns and "z" not in table.columns
    # the public field keeps its name; the neutral accessor reads the same values
    assert posthoc.statistic is posthoc.z
    np.testing.assert_allclose(table["p_raw"], 2 * stats.t.sf(np.abs(table["t"]), posthoc.df), rtol=1e-10)


def test_a_friedman_posthoc_says_its_statistics_are_z():
    posthoc = mcda.compare_over_datasets(mcda.datasets.load("demsar2006"), test="holm").posthoc
    assert posthoc.kind == "z" and posthoc.statistic is posthoc.z
    table = posthoc.to_frame()
    np.testing.assert_allclose(table["p_raw"], 2 * stats.norm.sf(np.abs(table["z"])), rtol=1e-10)


def _percent(frame: pd.DataFrame, direction: str):
    return mcda.score_cube(frame * 100.0, direction=direction, scale="percent")


def test_skillings_mack_and_durbin_summaries_state_the_scale():
    assembly = _assembly().to_pandas()
    sm = mcda.skillings_mack_test(_percent(assembly, "lower_is_better"))
    durbin = mcda.durbin_test(_percent(_icecream(), "higher_is_better"))
    line = scale_sentence("percent -> fraction (divided by 100)")
    for result in (sm, durbin):
        assert result.summary().count(line) == 1
        assert repr(result).count(line) == 1
    assert line not in mcda.skillings_mack_test(_assembly()).summary()


# --------------------------------------------------------------------------- pair decisions
def _deciders():
    demsar = mcda.datasets.load("demsar2006")
    rng = np.random.default_rng(3)
    values = rng.normal(0.8, 0.02, size=(2, 4, 6)) + np.array([0.0, 0.01, 0.03, 0.05])[None, :, None]
    seeds = mcda.score_cube(values, metric="accuracy", method_names=["m0", "m1", "m2", "m3"],
                            dataset_names=["d0", "d1"])
    return {
        "comparison": mcda.compare_over_datasets(demsar),
        "comparison without post-hoc": mcda.compare_over_datasets(demsar.isel(dataset=slice(0, 3))),
        "posthoc": mcda.all_pairs_test(demsar, test="holm"),
        "pool-independent": mcda.pairwise_over_datasets(demsar),
        "paired tests": mcda.paired_tests(seeds),
    }


def test_every_pair_deciding_result_gives_the_same_pair_decisions_table():
    from mcda._core.results import PAIR_DECISION_COLUMNS

    for name, result in _deciders().items():
        decisions = result.pair_decisions()
        assert list(decisions.columns[-len(PAIR_DECISION_COLUMNS):]) == list(PAIR_DECISION_COLUMNS), name
        assert {"test", "alpha", "methods", "control", "note", "scope"} <= set(decisions.attrs), name
        sig = decisions["significant"].to_numpy(dtype=bool)
        # a separated pair names its better side, an unseparated one none
        assert (decisions["better"][sig].isin(decisions["method_a"]) | decisions["better"][sig].isin(
            decisions["method_b"])).all(), name
        assert (decisions["better"][~sig] == "").all(), name
        # the decision is the adjusted p-value's, at the result's alpha
        decided = decisions["p_adjusted"].to_numpy(dtype=float)[sig] <= decisions.attrs["alpha"]
        assert decided.all(), name


def test_pair_decisions_agree_with_each_results_own_table():
    found = _deciders()
    posthoc = found["posthoc"]
    decisions = posthoc.pair_decisions()
    for row in decisions.itertuples(index=False):
        assert row.significant == bool(posthoc.significant.at[row.method_a, row.method_b])
        if row.significant:  # the better side ranks lower
            assert row.better == (row.method_a if row.rank_a < row.rank_b else row.method_b)
    pool = found["pool-independent"]
    assert pool.pair_decisions()["significant"].tolist() == pool.table["significant"].tolist()
    paired = found["paired tests"]
    assert paired.pair_decisions()["significant"].tolist() == paired.table["significant"].tolist()
    assert not found["comparison without post-hoc"].pair_decisions()["significant"].any()
