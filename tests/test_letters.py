"""compact_letters: two methods share a letter iff their pair is not rejected; letters in rank order.

Oracles: the result's own adjusted p-values and alpha, and scikit-posthocs run in the test on
the same data (``posthoc_nemenyi_friedman``, ``posthoc_wilcoxon`` with Holm, ``sign_array``).
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mcda
from mcda.stats.across.letters import letter_name

sp = pytest.importorskip("scikit_posthocs")


def _share(letters: str, other: str) -> bool:
    split = (lambda s: set(s.split())) if " " in letters + other else set
    return bool(split(letters) & split(other))


def _assert_display(cl, separated: pd.DataFrame) -> None:
    """Shares a letter iff not separated; every method has a letter; letters in rank order."""
    letters = cl.letters
    methods = list(letters.index)
    for i, a in enumerate(methods):
        assert letters[a], f"{a} has no letter"
        for b in methods[i + 1:]:
            assert _share(letters[a], letters[b]) == (not bool(separated.at[a, b])), (a, b, letters[a], letters[b])
    # letter i's best member ranks no worse than letter i+1's best member (rank order)
    position = {m: i for i, m in enumerate(methods)}
    firsts = [min(position[m] for m in group) for group in cl.groups.values()]
    assert firsts == sorted(firsts)
    assert list(cl.groups)[0] == "a" and "a" in letters.iloc[0]


def _scores(draw_seed: int, k: int, n: int, spread: float) -> pd.DataFrame:
    rng = np.random.default_rng(draw_seed)
    effects = np.linspace(0.0, spread, k)
    values = 0.7 + rng.normal(0, 0.05, (n, 1)) + effects + rng.normal(0, 0.03, (n, k))
    return pd.DataFrame(values, index=[f"d{i}" for i in range(n)], columns=[f"m{j}" for j in range(k)])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), k=st.integers(3, 9), n=st.integers(8, 30), spread=st.floats(0.0, 0.15))
def test_nemenyi_letters_match_scikit_posthocs(seed, k, n, spread):
    frame = _scores(seed, k, n, spread)
    res = mcda.nemenyi(frame, "higher_is_better")
    cl = mcda.compact_letters(res)
    # the result's own decisions
    own = res.pvalues_adjusted <= res.alpha
    _assert_display(cl, own)
    # scikit-posthocs on the same data: Nemenyi p (it ranks lowest value as rank 1: negate the scores)
    theirs = sp.posthoc_nemenyi_friedman(-frame.to_numpy())
    theirs.index = theirs.columns = list(frame.columns)
    sig = pd.DataFrame(sp.sign_array(theirs, alpha=0.05) == 1, index=frame.columns, columns=frame.columns)
    # a p-value within 1e-9 of alpha would make `<` and `<=` disagree: none is drawn here in practice
    assume_clear = (np.abs(theirs.to_numpy() - 0.05) > 1e-9).all()
    if assume_clear:
        _assert_display(cl, sig)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), k=st.integers(3, 7), n=st.integers(10, 25), spread=st.floats(0.0, 0.1))
def test_wilcoxon_holm_letters_match_scikit_posthocs(seed, k, n, spread):
    frame = _scores(seed, k, n, spread)
    res = mcda.pairwise_over_datasets(frame, "higher_is_better", adjust="holm")
    cl = mcda.compact_letters(res)
    _assert_display(cl, res.significant)
    long = frame.rename_axis("dataset").reset_index().melt(id_vars="dataset", var_name="method", value_name="score")
    theirs = sp.posthoc_wilcoxon(long, val_col="score", group_col="method", p_adjust="holm")
    theirs = theirs.loc[list(frame.columns), list(frame.columns)]
    if (np.abs(theirs.to_numpy() - 0.05) > 1e-9).all():
        sig = pd.DataFrame(sp.sign_array(theirs, alpha=0.05) == 1, index=frame.columns, columns=frame.columns)
        _assert_display(cl, sig)


def test_all_pairs_step_down_letters_follow_the_adjusted_pvalues():
    frame = _scores(3, 6, 24, 0.12)
    for test in ("holm", "shaffer", "bergmann-hommel"):
        res = mcda.all_pairs_test(frame, "higher_is_better", test=test)
        _assert_display(mcda.compact_letters(res), res.pvalues_adjusted <= res.alpha)


def test_comparison_result_and_non_rejecting_omnibus():
    cube = mcda.datasets.load("garcia_herrera2008")
    res = mcda.compare_over_datasets(cube)
    cl = mcda.compact_letters(res)
    _assert_display(cl, res.posthoc.significant)
    assert list(cl.to_frame().columns) == ["method", "mean_rank", "letters"]
    flat = _scores(1, 5, 10, 0.0)
    quiet = mcda.compare_over_datasets(flat, "higher_is_better")
    assert quiet.posthoc is None
    cl = mcda.compact_letters(quiet)
    assert set(cl.letters) == {"a"} and "does not reject" in cl.note


def test_fifty_methods_letters_stay_distinct_past_z():
    frame = _scores(0, 50, 30, 2.0)
    res = mcda.nemenyi(frame, "higher_is_better")
    cl = mcda.compact_letters(res)
    _assert_display(cl, res.significant)
    if len(cl.groups) > 26:
        assert any(" " in s for s in cl.letters)


def test_paired_tests_letters_per_dataset():
    cube = mcda.datasets.synthetic(n_datasets=3, n_methods=4, n_seeds=6, effects=[0, 0.002, 0.05, 0.06], rng=2)
    res = mcda.paired_tests(cube)
    cl = mcda.compact_letters(res)
    frame = cl.to_frame()
    assert list(frame.columns) == ["dataset", "method", "rank", "letters"]
    table = res.to_frame()
    for dataset, block in table.groupby("dataset"):
        letters = cl.letters.loc[dataset]
        for row in block.itertuples():
            assert _share(letters[row.method_a], letters[row.method_b]) == (not row.significant)
        # the best by mean score first: scipy-free check from the cube itself
        means = cube.sel(dataset=dataset).mean("seed").to_series()
        assert letters.index[0] == means.idxmax()


def test_control_results_are_refused_and_wrong_types_named():
    frame = _scores(0, 4, 12, 0.1)
    with pytest.raises(ValueError, match="control"):
        mcda.compact_letters(mcda.control_test(frame, "higher_is_better", control="m0"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ctrl = mcda.pairwise_over_datasets(frame, "higher_is_better", control="m0")
    with pytest.raises(ValueError, match="`result`"):
        mcda.compact_letters(ctrl)
    with pytest.raises(TypeError, match="`result`"):
        mcda.compact_letters(frame)


def test_letter_names():
    assert [letter_name(i) for i in (0, 25, 26, 51, 52)] == ["a", "z", "aa", "az", "ba"]


def test_latex_comparison_group_column_is_the_compact_letter_display():
    from mcda.export import comparison_to_latex

    res = mcda.compare_over_datasets(mcda.datasets.load("garcia_herrera2008"))
    rows = comparison_to_latex(res).splitlines()
    body = rows[rows.index(r"\midrule") + 1:]
    printed = [r.split("&")[-1].strip(" \\") for r in body[:res.n_methods]]
    assert printed == list(mcda.compact_letters(res).letters)
