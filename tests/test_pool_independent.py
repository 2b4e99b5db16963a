"""Pairwise Wilcoxon signed-rank and sign tests over datasets (mcda.pairwise_over_datasets).

Oracles: scipy.stats.wilcoxon and scipy.stats.binomtest row by row, statsmodels'
multipletests for the adjustment, brute-force enumeration for the kernel's exact
distributions, brute-force clique search for the groups, and Demšar (2006) Table 2 (R+ = 93,
R− = 12, T = 12 for C4.5 vs C4.5+m, zeros split evenly; tests/data/demsar2006/PROVENANCE.md).
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import mcda
from mcda._core._kernels.paired_ranks import ZERO_CODES, pair_signed_ranks, signed_rank_null_counts

multitest = pytest.importorskip("statsmodels.stats.multitest")


def _design(rng, n, k, decimals):
    return np.round(rng.normal(size=(n, k)), decimals)


def _names(k):
    return [f"m{i}" for i in range(k)]


def _scipy_p(x, a, b, zero_method):
    # scipy.stats.wilcoxon on the differences, with the ones within the rounding of their own
    # subtraction (0.13 + 0.1 against 0.23) read as the zeros they are: mcda's one tie rule
    d = x[:, a] - x[:, b]
    d = np.where(np.isclose(x[:, a], x[:, b], rtol=8 * np.finfo(float).eps, atol=0.0), 0.0, d)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return stats.wilcoxon(d, zero_method=zero_method)


@pytest.mark.parametrize("zero_method", ["wilcox", "pratt", "zsplit"])
def test_wilcoxon_equals_scipy_row_by_row(zero_method):
    # scipy.stats.wilcoxon (method="auto": exact, exact sign-flip or normal) on random designs
    # with ties and zeros (rounded scores), N from 2 to 70 so every branch is taken
    rng = np.random.default_rng(11)
    methods_seen = set()
    for trial in range(30):
        n, k = int(rng.integers(2, 71)), int(rng.integers(2, 6))
        x = _design(rng, n, k, int(rng.integers(0, 3)))
        res = mcda.pairwise_over_datasets(x, "higher_is_better", zero_method=zero_method, method_names=_names(k))
        for row in res.to_frame().itertuples():
            a, b = int(row.method_a[1:]), int(row.method_b[1:])
            if np.all(x[:, a] == x[:, b]):
                assert np.isnan(row.p_raw) and row.reason
                continue
            ref = _scipy_p(x, a, b, zero_method)
            np.testing.assert_allclose(row.p_raw, ref.pvalue, rtol=1e-10, atol=1e-15)
            assert row.statistic == pytest.approx(float(ref.statistic), abs=1e-9)
            methods_seen.add(row.null_distribution)
    assert methods_seen == {"exact", "exact sign-flip", "normal"}


@pytest.mark.parametrize("zero_method", ["wilcox", "zsplit"])
def test_sign_test_equals_binomtest(zero_method):
    rng = np.random.default_rng(5)
    for _ in range(20):
        n, k = int(rng.integers(1, 40)), int(rng.integers(2, 5))
        x = _design(rng, n, k, 0)
        res = mcda.pairwise_over_datasets(x, "higher_is_better", test="sign", zero_method=zero_method,
                                          method_names=_names(k))
        for row in res.to_frame().itertuples():
            a, b = int(row.method_a[1:]), int(row.method_b[1:])
            wins, losses = int(np.sum(x[:, a] > x[:, b])), int(np.sum(x[:, a] < x[:, b]))
            ties = n - wins - losses
            assert (row.wins_a, row.wins_b, row.n_ties) == (wins, losses, ties)
            if zero_method == "zsplit":
                wins, losses = wins + ties // 2, losses + ties // 2
            if wins + losses == 0:
                assert np.isnan(row.p_raw)
                continue
            ref = stats.binomtest(wins, wins + losses, 0.5).pvalue
            np.testing.assert_allclose(row.p_raw, ref, rtol=1e-10)


@pytest.mark.parametrize("ours, theirs", [("holm", "holm"), ("bonferroni", "bonferroni"), ("sidak", "sidak"),
                                          ("holm-sidak", "holm-sidak"), ("hochberg", "simes-hochberg"),
                                          ("hommel", "hommel"), ("fdr-bh", "fdr_bh"), ("fdr-by", "fdr_by")])
def test_adjustment_equals_statsmodels(ours, theirs):
    rng = np.random.default_rng(3)
    for _ in range(5):
        k = int(rng.integers(3, 8))
        x = _design(rng, 30, k, 2) + np.linspace(0, 0.8, k)
        res = mcda.pairwise_over_datasets(x, "higher_is_better", adjust=ours, method_names=_names(k))
        frame = res.to_frame()
        raw = [_scipy_p(x, a, b, "wilcox").pvalue for a, b in itertools.combinations(range(k), 2)]
        reject, adjusted, _, _ = multitest.multipletests(raw, alpha=0.05, method=theirs)
        np.testing.assert_allclose(frame["p_adjusted"], adjusted, rtol=1e-10, atol=1e-15)
        assert frame["significant"].tolist() == reject.tolist()


def test_control_family_is_the_k_minus_1_pairs_with_it():
    rng = np.random.default_rng(8)
    x = _design(rng, 25, 5, 2) + np.array([0.0, 0.1, 0.6, 0.9, 1.2])
    res = mcda.pairwise_over_datasets(x, "higher_is_better", control="m0", method_names=_names(5))
    frame = res.to_frame()
    assert frame["method_a"].tolist() == ["m0"] * 4 and frame["method_b"].tolist() == ["m1", "m2", "m3", "m4"]
    raw = [_scipy_p(x, 0, b, "wilcox").pvalue for b in range(1, 5)]
    np.testing.assert_allclose(frame["p_adjusted"], multitest.multipletests(raw, method="holm")[1], rtol=1e-10)
    assert isinstance(res.pvalues, pd.Series) and list(res.pvalues.index) == ["m1", "m2", "m3", "m4"]
    kept = {"m0"} | {m for m, s in res.significant.items() if not s}
    assert len(res.groups) == 1 and set(res.groups[0]) == kept


def test_a_pair_does_not_depend_on_the_pool():
    # the point of the procedure (Benavoli et al. 2016): a pair's raw p-value uses its scores only
    rng = np.random.default_rng(2)
    x = _design(rng, 20, 5, 2)
    small = mcda.pairwise_over_datasets(x[:, :3], "higher_is_better", method_names=_names(3)).to_frame()
    large = mcda.pairwise_over_datasets(x, "higher_is_better", method_names=_names(5)).to_frame()
    merged = small.merge(large, on=["method_a", "method_b"], suffixes=("_small", "_large"))
    np.testing.assert_array_equal(merged["p_raw_small"], merged["p_raw_large"])
    assert not np.array_equal(merged["mean_rank_a_small"], merged["mean_rank_a_large"])


def test_groups_are_exactly_the_maximal_cliques_of_not_separated_pairs():
    rng = np.random.default_rng(4)
    for _ in range(10):
        k = 6
        x = _design(rng, 40, k, 2) + rng.uniform(0, 1.0, k)
        res = mcda.pairwise_over_datasets(x, "higher_is_better", method_names=_names(k))
        sig = res.significant
        together = lambda g: all(not sig.at[a, b] for a, b in itertools.combinations(g, 2))  # noqa: E731
        cliques = [set(g) for r in range(1, k + 1) for g in itertools.combinations(_names(k), r) if together(g)]
        maximal = {frozenset(c) for c in cliques if not any(c < d for d in cliques)}
        assert {frozenset(g) for g in res.groups} == maximal
        for g in res.groups:  # each ordered by mean rank
            assert list(res.mean_ranks[list(g)].to_numpy()) == sorted(res.mean_ranks[list(g)])


def test_demsar_table2_signed_ranks():
    # Demšar (2006) Table 2: C4.5 vs C4.5+m over 14 datasets, |d| rounded to the printed
    # 3 decimals, zero differences split evenly: R+ = 93 (C4.5+m better), R- = 12, T = 12
    cube = mcda.datasets.load("demsar2006")
    res = mcda.pairwise_over_datasets(cube, zero_method="zsplit", decimals=3)
    row = res.to_frame().set_index(["method_a", "method_b"]).loc[("C4.5", "C4.5+m")]
    assert (row["r_plus"], row["r_minus"], row["statistic"]) == (12.0, 93.0, 12.0)
    assert (row["wins_a"], row["wins_b"], row["n_ties"]) == (2, 10, 2)  # Table 2: 2 ties, C4.5+m wins 10


def test_all_zero_pair_is_nan_with_reason_and_left_out_of_the_family():
    x = np.array([[0.1, 0.1, 0.3], [0.2, 0.2, 0.1], [0.4, 0.4, 0.5], [0.3, 0.3, 0.9]])
    res = mcda.pairwise_over_datasets(x, "higher_is_better", method_names=["a", "b", "c"])
    frame = res.to_frame().set_index(["method_a", "method_b"])
    assert np.isnan(frame.loc[("a", "b"), "p_raw"]) and "same on all 4" in frame.loc[("a", "b"), "reason"]
    raw = frame["p_raw"].dropna().to_numpy()
    np.testing.assert_allclose(frame["p_adjusted"].dropna(), multitest.multipletests(raw, method="holm")[1])


def test_direction_is_respected():
    rng = np.random.default_rng(9)
    x = _design(rng, 15, 3, 2) + np.array([0.0, 0.5, 1.0])
    up = mcda.pairwise_over_datasets(x, "higher_is_better", method_names=_names(3)).to_frame()
    down = mcda.pairwise_over_datasets(-x, "lower_is_better", method_names=_names(3)).to_frame()
    # mean_diff is in the metric's own units: the negated scores give the negated difference, the rest is equal
    pd.testing.assert_series_equal(up.pop("mean_diff"), -down.pop("mean_diff"))
    pd.testing.assert_frame_equal(up, down)
    assert np.allclose(mcda.pairwise_over_datasets(x, "higher_is_better").to_frame()["mean_diff"],
                       [(x[:, i] - x[:, j]).mean() for i, j in ((0, 1), (0, 2), (1, 2))])   # numpy, a − b
    assert (up["r_plus"] < up["r_minus"]).all()  # m0 is the worst: a < b on most datasets


@pytest.mark.parametrize("kwargs, error, text", [
    ({"test": "t"}, ValueError, "`test`"),
    ({"zero_method": "drop"}, ValueError, "`zero_method`"),
    ({"test": "sign", "zero_method": "pratt"}, ValueError, "`zero_method`"),
    ({"adjust": "shaffer"}, ValueError, "`adjust`"),
    ({"adjust": "nonsense"}, ValueError, "`adjust`"),
    ({"control": "nope"}, ValueError, "`control`"),
    ({"control": 3}, TypeError, "`control`"),
    ({"alpha": 1.5}, ValueError, "alpha"),
    ({"decimals": 1.5}, TypeError, "`decimals`"),
])
def test_bad_input(kwargs, error, text):
    x = np.arange(12.0).reshape(4, 3)
    with pytest.raises(error, match=text):
        mcda.pairwise_over_datasets(x, "higher_is_better", method_names=["a", "b", "c"], **kwargs)


# --------------------------------------------------------------------------- the kernel against plain references


def _plain_signed_ranks(d, zero_method):
    """R+, R-, tie term: scipy.stats.rankdata on |d| written out (the kernel's reference)."""
    zero = d == 0
    if zero_method == "wilcox":
        kept = d[~zero]
        ranks = stats.rankdata(np.abs(kept))
        rp, rm = ranks[kept > 0].sum(), ranks[kept < 0].sum()
        _, counts = np.unique(np.abs(kept), return_counts=True)
    else:
        ranks = stats.rankdata(np.abs(d))
        rp, rm = ranks[d > 0].sum(), ranks[d < 0].sum()
        if zero_method == "zsplit":
            rp, rm = rp + ranks[zero].sum() / 2, rm + ranks[zero].sum() / 2
        values, counts = np.unique(np.abs(d), return_counts=True)
        if zero_method == "pratt":
            counts = counts[values != 0]
    return rp, rm, float(np.sum(counts.astype(float) ** 3 - counts))


def _brute_signflip(d, zero_method):
    """Two-sided p over all 2^n sign patterns, R+ recomputed for each (scipy's permutation test)."""
    n = d.size
    observed = _plain_signed_ranks(d, zero_method)[0]
    null = np.array([_plain_signed_ranks(d * np.where(np.array(s), -1.0, 1.0), zero_method)[0]
                     for s in itertools.product([False, True], repeat=n)])
    return min(1.0, 2 * min(np.mean(null <= observed + 1e-9), np.mean(null >= observed - 1e-9)))


@pytest.mark.parametrize("zero_method", ["wilcox", "pratt", "zsplit"])
def test_kernel_against_plain_reference(zero_method):
    rng = np.random.default_rng(21)
    for _ in range(25):
        n = int(rng.integers(1, 10))
        diff = np.round(rng.normal(size=(3, n)), int(rng.integers(0, 2))) + 0.0
        order = np.argsort(np.abs(diff), axis=1)
        out = [np.empty(3) for _ in range(4)]
        ints = [np.empty(3, dtype=np.int64) for _ in range(3)]
        tied = np.empty(3, dtype=np.bool_)
        pair_signed_ranks(diff, order, ZERO_CODES[zero_method], 13, out[0], out[1], ints[0], out[2], tied, ints[1],
                          ints[2], out[3])
        for p in range(3):
            d = diff[p]
            if np.all(d == 0):
                continue
            rp, rm, ties = _plain_signed_ranks(d, zero_method)
            assert (out[0][p], out[1][p], out[2][p]) == pytest.approx((rp, rm, ties))
            assert (ints[0][p], ints[1][p], ints[2][p]) == (np.sum(d == 0), np.sum(d > 0), np.sum(d < 0))
            if tied[p] or np.any(d == 0):
                assert out[3][p] == pytest.approx(_brute_signflip(d, zero_method), abs=1e-12)
            else:
                assert np.isnan(out[3][p])


def test_null_counts_are_subset_sums():
    for n in range(0, 12):
        brute = np.zeros(n * (n + 1) // 2 + 1)
        for r in range(n + 1):
            for subset in itertools.combinations(range(1, n + 1), r):
                brute[sum(subset)] += 1
        np.testing.assert_array_equal(signed_rank_null_counts(n), brute)


def test_cd_diagram_draws_the_cliques_without_a_cd_bar():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from mcda.plots import plot_critical_difference
    from mcda.present.plots.critical_difference import cd_layout

    res = mcda.pairwise_over_datasets(mcda.datasets.load("benavoli2017_uci54"))
    fig, ax = plot_critical_difference(res)
    gids = [line.get_gid() for line in ax.lines]
    assert "cd_bar" not in gids
    assert gids.count("clique_bar") == sum(len(g) > 1 for g in res.groups)
    notes = [t.get_text() for t in ax.texts if t.get_gid() == "note"]
    assert any(n.startswith("Wilcoxon–Holm (all pairs") for n in notes)
    layout = cd_layout(res.mean_ranks, res.groups)
    assert sorted(b.methods for b in layout.bars) == sorted(g for g in res.groups if len(g) > 1)
    plt.close(fig)


def test_incomplete_method_is_excluded_and_named_never_imputed():
    x = np.arange(20.0).reshape(5, 4) % 7
    x[2, 3] = np.nan
    with pytest.warns(mcda.MissingDataWarning, match="d lacks"):
        res = mcda.pairwise_over_datasets(x, "higher_is_better", method_names=["a", "b", "c", "d"])
    assert res.n_methods == 3 and list(res.excluded) == ["d"]
    assert "d" not in set(res.to_frame()["method_a"]) | set(res.to_frame()["method_b"])
