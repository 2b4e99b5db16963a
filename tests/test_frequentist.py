"""Across datasets: Friedman, Iman–Davenport, critical differences and the post-hoc procedures.

Reference numbers come from independent sources, named where they are used:
- Demšar (2006), JMLR 7:1–30: Table 5 (q_α) and Table 6 with its printed ranks, and the
  numbers of §3.2.2 (tests/data/demsar2006/PROVENANCE.md lists them and the paper's misprints);
- García & Herrera (2008), JMLR 9:2677–2694, Table 2 data (tests/data/garcia_herrera2008), with
  the figures of the scmamp vignette and the Bergmann–Hommel decisions of edgar-gip/hyp-test's
  BH.t, as that PROVENANCE records;
- scipy (studentized_range, norm, friedmanchisquare, wilcoxon), statsmodels (multipletests),
  scikit-posthocs (posthoc_nemenyi_friedman), run in the tests;
- slow reference computations written out here (exhaustive sets, maximal cliques).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import mcda
from mcda import (MissingDataWarning, adjust_pvalues, all_pairs_test, attainable_significance, bonferroni_dunn, compare_over_datasets, control_test, critical_difference, friedman_test, iman_davenport, nemenyi, q_alpha)
from mcda.stats.across.compare import _maximal_cliques
from mcda.stats.across.posthoc import _studentized_range_sf
from mcda.stats._shared.multitest import (BERGMANN_HOMMEL_MAX_METHODS, PVALUE_ADJUSTMENTS, _set_partitions, _shaffer_counts, _true_hypothesis_counts)

DATA = Path(__file__).parent / "data"
FAST = settings(max_examples=40, deadline=None)


def demsar_ranks():
    """Demšar Table 6 with the ranks printed in the paper (the voting tie broken as printed)."""
    return mcda.datasets.load("demsar2006_published_ranks")


def garcia_herrera():
    frame = pd.read_csv(DATA / "garcia_herrera2008" / "garcia_herrera2008_table2_accuracy.csv")
    return mcda.score_cube(frame, metric="accuracy")


GH_METHODS = ["C4.5", "k-NN(k=1)", "NaiveBayes", "Kernel", "CN2"]


def random_scores(n_datasets, n_methods, *, rng, ties=False, shift=0.0):
    values = rng.normal(size=(n_datasets, n_methods)) + shift * np.arange(n_methods)
    if ties:
        values = np.round(values, 0)
    return mcda.score_cube(values, direction="higher_is_better",
                           method_names=[f"m{j}" for j in range(n_methods)])


# --------------------------------------------------------------------------- q_alpha, CD, Iman–Davenport


TABLE5 = pd.read_csv(DATA / "demsar2006" / "demsar2006_table5_critical_values.csv")


@pytest.mark.parametrize("row", list(TABLE5.itertuples(index=False)),
                         ids=lambda r: f"{r.test}-k{r.n_classifiers}-{r.alpha}")
def test_q_alpha_reproduces_demsar_table5(row):
    test = row.test.replace("_", "-")
    q = q_alpha(int(row.n_classifiers), alpha=float(row.alpha), test=test)
    if (test, row.n_classifiers, row.alpha) == ("bonferroni-dunn", 9, 0.05):
        # Demšar's misprint: Table 5(b) prints 2.724 for z_{1-0.05/16} = 2.734 (PROVENANCE, pitfall 4)
        assert abs(q - row.q) > 0.009
        assert q == pytest.approx(2.734, abs=5e-4)
        return
    # the table is printed to 3 decimals, a few entries truncated rather than rounded
    # (k = 3: 2.3437 printed 2.343): within 1e-3
    assert q == pytest.approx(row.q, abs=1e-3)


@pytest.mark.parametrize("alpha", [0.01, 0.05, 0.10, 0.2])
def test_q_alpha_matches_scipy_studentized_range(alpha):
    for k in range(2, 51):
        expected = stats.studentized_range.ppf(1 - alpha, k, np.inf) / math.sqrt(2)
        assert q_alpha(k, alpha=alpha) == pytest.approx(expected, abs=1e-6), k
        bd = stats.norm.isf(alpha / (2 * (k - 1)))
        assert q_alpha(k, alpha=alpha, test="bonferroni_dunn") == pytest.approx(bd, rel=1e-12), k


def test_studentized_range_sf_agrees_with_scipy_and_the_exact_k2_case():
    q = np.linspace(0, 9, 91)
    for k in (2, 3, 4, 7, 15, 50):
        np.testing.assert_allclose(_studentized_range_sf(q, k), stats.studentized_range.sf(q, k, np.inf),
                                   atol=1e-10, rtol=0)
    # k = 2: the range is √2 |Z|, so sf(q) = 2 Φ(−q/√2), to full relative precision far in the tail
    q = np.linspace(0, 30, 61)
    np.testing.assert_allclose(_studentized_range_sf(q, 2), 2 * stats.norm.sf(q / math.sqrt(2)), rtol=1e-12)


def test_critical_differences_of_the_issue():
    assert critical_difference(15, 8) == pytest.approx(7.583, abs=5e-4)
    assert critical_difference(15, 32) == pytest.approx(3.792, abs=5e-4)


def test_iman_davenport_of_the_issue():
    assert iman_davenport(79.093, 15, 8) == pytest.approx(16.825, abs=5e-4)
    # edges: complete concordance gives F = inf; one dataset has no F
    assert iman_davenport(8 * 14, 15, 8) == math.inf
    assert math.isnan(iman_davenport(14.0, 15, 1))


@pytest.mark.parametrize("kwargs, exc, text", [
    ({"chi2": -1.0}, ValueError, r"`chi2` must lie in \[0, N\(k-1\)\]"),
    ({"chi2": 200.0}, ValueError, r"`chi2` must lie in"),
    ({"chi2": "9"}, TypeError, r"`chi2` must be a finite real number"),
    ({"n_methods": 1}, ValueError, r"`n_methods` must be an integer >= 2"),
    ({"n_datasets": 0}, ValueError, r"`n_datasets` must be an integer >= 1"),
])
def test_iman_davenport_bad_input(kwargs, exc, text):
    args = {"chi2": 79.093, "n_methods": 15, "n_datasets": 8} | kwargs
    with pytest.raises(exc, match=text):
        iman_davenport(**args)


def test_q_alpha_and_critical_difference_bad_input():
    with pytest.raises(ValueError, match=r"`test` must be one of \{'nemenyi', 'bonferroni-dunn'\}"):
        q_alpha(4, test="tukey")
    with pytest.raises(ValueError, match="`alpha` must lie in"):
        q_alpha(4, alpha=1.5)
    with pytest.raises(ValueError, match="`n_methods` must be an integer >= 2"):
        q_alpha(1)
    with pytest.raises(TypeError, match="needs `n_datasets`"):
        critical_difference(4)


# --------------------------------------------------------------------------- Demšar (2006), Table 6


def test_demsar_table6_friedman_with_published_ranks():
    res = friedman_test(demsar_ranks())
    # Demšar §3.2.2: mean ranks 3.143 / 2.000 / 2.893 / 1.964, chi2_F = 9.28, F_F = 3.69 with df (3, 39)
    assert res.mean_ranks.round(3).to_dict() == {"C4.5": 3.143, "C4.5+m": 2.0, "C4.5+cf": 2.893, "C4.5+m+cf": 1.964}
    assert res.statistic == pytest.approx(9.28, abs=5e-3)
    assert res.statistic == res.statistic_untied
    assert res.f_statistic == pytest.approx(3.69, abs=5e-3)
    assert res.f_df == (3, 39) and res.df == 3
    # critical F(3, 39) at 0.05 is 2.85 (Demšar): the omnibus rejects
    assert res.f_statistic > stats.f.isf(0.05, 3, 39) == pytest.approx(2.85, abs=5e-3)
    assert res.rejected and res.n_datasets == 14 and res.n_methods == 4


def test_demsar_table6_printed_aucs_and_the_tie_correction():
    # PROVENANCE pitfalls 1-2: ranking the printed AUCs (voting tie averaged) gives 9.857 / 3.987,
    # and scipy's tie-corrected statistic 10.952
    cube = mcda.datasets.load("demsar2006")
    res = friedman_test(cube)
    assert res.statistic_untied == pytest.approx(9.857, abs=5e-4)
    assert res.f_statistic == pytest.approx(3.987, abs=5e-4)
    scipy_res = stats.friedmanchisquare(*cube.transpose("method", "dataset").values)
    assert res.statistic_tied == pytest.approx(scipy_res.statistic, rel=1e-12)
    frame = res.to_frame().set_index("test")
    assert frame.loc["friedman_chi2_tie_corrected", "p_raw"] == pytest.approx(scipy_res.pvalue, rel=1e-9)
    assert res.statistic_tied == pytest.approx(10.952, abs=5e-4)


def test_demsar_table6_nemenyi_critical_differences():
    cube = demsar_ranks()
    strict = nemenyi(cube, alpha=0.05)
    loose = nemenyi(cube, alpha=0.10)
    assert strict.critical_difference == pytest.approx(1.25, abs=5e-3)
    assert loose.critical_difference == pytest.approx(1.12, abs=5e-3)
    assert strict.standard_error == pytest.approx(0.488, abs=5e-4)
    # at 0.05 no pair is separated (best vs worst 1.179 < 1.25); at 0.10 C4.5 is worse than
    # C4.5+m and C4.5+m+cf and nothing else is separated
    assert not strict.significant.to_numpy().any()
    pairs = {frozenset((a, b)) for a, b in itertools.combinations(loose.significant.index, 2)
             if loose.significant.at[a, b]}
    assert pairs == {frozenset(("C4.5", "C4.5+m")), frozenset(("C4.5", "C4.5+m+cf"))}


def test_demsar_table6_bonferroni_dunn_with_c45_as_control():
    res = bonferroni_dunn(demsar_ranks(), control="C4.5")
    # Demšar: q_0.05 = 2.394, CD = 1.16 (2.394 × 0.488 = 1.168, printed truncated)
    assert res.critical_difference == pytest.approx(1.168, abs=5e-4)
    assert abs(res.critical_difference - 1.16) < 0.01
    # C4.5+m+cf significant (1.179 > CD), C4.5+m not (1.143), C4.5+cf not (0.250)
    assert res.significant.to_dict() == {"C4.5+m": False, "C4.5+cf": False, "C4.5+m+cf": True}
    frame = res.to_frame().set_index("method_b")
    assert frame["rank_diff"].round(3).to_dict() == {"C4.5+m": 1.143, "C4.5+cf": 0.25, "C4.5+m+cf": 1.179}


def test_demsar_table6_holm_against_c45():
    res = control_test(demsar_ranks(), control="C4.5", test="holm")
    # Demšar's Holm table: z = 2.416, 2.342, 0.512 and p = 0.016, 0.019, 0.607. The paper divides
    # rounded numbers (1.179 / 0.488 = 2.416; unrounded 1.17857 / 0.48795 = 2.4154), and its 0.607
    # is 2Φ(−0.512) read from rounded z (unrounded 0.6084): those two within 2e-3.
    for method, z in {"C4.5+m": 2.342, "C4.5+cf": 0.512, "C4.5+m+cf": 2.416}.items():
        assert res.z[method] == pytest.approx(z, abs=2e-3), method
    assert res.pvalues["C4.5+m+cf"] == pytest.approx(0.016, abs=5e-4)
    assert res.pvalues["C4.5+m"] == pytest.approx(0.019, abs=5e-4)
    assert res.pvalues["C4.5+cf"] == pytest.approx(0.607, abs=2e-3)
    # Holm, Hochberg and Hommel all reject the first two (Demšar §3.2.2)
    for test in ("holm", "hochberg", "hommel"):
        decided = control_test(demsar_ranks(), control="C4.5", test=test).significant
        assert decided.to_dict() == {"C4.5+m": True, "C4.5+cf": False, "C4.5+m+cf": True}, test


# --------------------------------------------------------------------------- García & Herrera (2008)


# scmamp vignette (PROVENANCE): raw Friedman post-hoc p-values of the ten pairs
GH_RAW_P = {
    ("C4.5", "Kernel"): 4.487e-08, ("NaiveBayes", "Kernel"): 1.736e-07, ("Kernel", "CN2"): 2.880e-03,
    ("C4.5", "k-NN(k=1)"): 4.849e-03, ("k-NN(k=1)", "Kernel"): 7.963e-03, ("k-NN(k=1)", "NaiveBayes"): 1.011e-02,
    ("C4.5", "CN2"): 1.276e-02, ("NaiveBayes", "CN2"): 2.474e-02, ("k-NN(k=1)", "CN2"): 0.744,
    ("C4.5", "NaiveBayes"): 0.8065,
}


def gh_pair_set(result, keep_significant=True):
    return {frozenset((a, b)) for a, b in itertools.combinations(result.significant.index, 2)
            if bool(result.significant.at[a, b]) == keep_significant}


def test_garcia_herrera_friedman():
    res = friedman_test(garcia_herrera())
    expected = {"C4.5": 2.100, "k-NN(k=1)": 3.250, "NaiveBayes": 2.200, "Kernel": 4.333, "CN2": 3.117}
    assert res.mean_ranks.round(3).to_dict() == expected
    assert res.statistic == pytest.approx(39.647, abs=5e-4)  # untied, as published
    assert res.pvalue == pytest.approx(5.121e-08, rel=1e-3)
    assert res.statistic_tied == pytest.approx(39.913, abs=5e-4)  # scipy's value (PROVENANCE)
    assert res.f_statistic == pytest.approx(14.309, abs=5e-4)
    assert res.f_pvalue == pytest.approx(1.593e-09, rel=1e-3)
    assert res.f_df == (4, 116)


def test_garcia_herrera_raw_pvalues():
    res = all_pairs_test(garcia_herrera(), test="holm")
    for (a, b), p in GH_RAW_P.items():
        assert res.pvalues.at[a, b] == pytest.approx(p, rel=2e-3), (a, b)
        assert res.pvalues.at[b, a] == res.pvalues.at[a, b]
    # z = ΔR / 0.4082 (PROVENANCE)
    assert res.standard_error == pytest.approx(0.4082, abs=5e-5)


def test_garcia_herrera_bergmann_hommel_decisions():
    res = all_pairs_test(garcia_herrera(), test="bergmann-hommel")
    # hyp-test BH.t: 8 of 10 rejected, retaining C4.5–NaiveBayes and kNN–CN2
    retained = gh_pair_set(res, keep_significant=False)
    assert retained == {frozenset(("C4.5", "NaiveBayes")), frozenset(("k-NN(k=1)", "CN2"))}
    # the same from the rounded p-values BH.t feeds in (pairs in combinations order of GH_METHODS)
    rounded = {("C4.5", "k-NN(k=1)"): 0.0048, ("C4.5", "NaiveBayes"): 0.8065, ("C4.5", "Kernel"): 4.487e-8,
               ("C4.5", "CN2"): 0.0128, ("k-NN(k=1)", "NaiveBayes"): 0.0101, ("k-NN(k=1)", "Kernel"): 0.008,
               ("k-NN(k=1)", "CN2"): 0.744, ("NaiveBayes", "Kernel"): 1.736e-7, ("NaiveBayes", "CN2"): 0.0247,
               ("Kernel", "CN2"): 0.0029}
    p = np.array([rounded[pair] for pair in itertools.combinations(GH_METHODS, 2)])
    rejected = adjust_pvalues(p, method="bergmann-hommel") <= 0.05
    assert rejected.sum() == 8
    kept = [pair for pair, r in zip(itertools.combinations(GH_METHODS, 2), rejected) if not r]
    assert kept == [("C4.5", "NaiveBayes"), ("k-NN(k=1)", "CN2")]


def test_garcia_herrera_decision_counts_by_power():
    # PROVENANCE's arithmetic on the raw p-values at 0.05: Nemenyi 4, Holm 5, Shaffer 6, Bergmann–Hommel 8
    cube = garcia_herrera()
    counts = {test: int(all_pairs_test(cube, test=test).significant.to_numpy().sum() // 2)
              for test in ("nemenyi", "holm", "shaffer", "bergmann-hommel")}
    assert counts == {"nemenyi": 4, "holm": 5, "shaffer": 6, "bergmann-hommel": 8}
    nem = nemenyi(cube)
    assert nem.critical_difference == pytest.approx(1.114, abs=5e-4)  # 2.728 × 0.4082 (PROVENANCE)
    assert gh_pair_set(nem) == {frozenset(p) for p in [("C4.5", "k-NN(k=1)"), ("C4.5", "Kernel"),
                                                       ("NaiveBayes", "Kernel"), ("Kernel", "CN2")]}


# --------------------------------------------------------------------------- peers: scipy, scikit-posthocs, statsmodels


@pytest.mark.parametrize("seed", range(4))
def test_tie_corrected_statistic_equals_scipy_friedmanchisquare(seed):
    rng = np.random.default_rng(seed)
    cube = random_scores(25, 3 + seed, rng=rng, ties=True, shift=0.3)
    res = friedman_test(cube)
    scipy_res = stats.friedmanchisquare(*cube.values.T)
    assert res.statistic_tied == pytest.approx(scipy_res.statistic, rel=1e-12)


@pytest.mark.parametrize("seed, ties", [(0, False), (1, True), (2, True)])
def test_nemenyi_pvalues_match_scikit_posthocs(seed, ties):
    sp = pytest.importorskip("scikit_posthocs")  # an optional test dependency
    rng = np.random.default_rng(seed)
    cube = random_scores(40, 7, rng=rng, ties=ties, shift=0.2)
    mine = nemenyi(cube).pvalues_adjusted.to_numpy()
    theirs = sp.posthoc_nemenyi_friedman(cube.values).to_numpy().copy()
    np.fill_diagonal(theirs, np.nan)
    np.testing.assert_allclose(mine, theirs, atol=1e-12, rtol=1e-9)
    gh = garcia_herrera()
    np.testing.assert_allclose(nemenyi(gh).pvalues_adjusted.fillna(1.0).to_numpy(),
                               sp.posthoc_nemenyi_friedman(gh.values).to_numpy(), atol=1e-12)


STATSMODELS_NAMES = {"bonferroni": "bonferroni", "sidak": "sidak", "holm": "holm", "holm-sidak": "holm-sidak",
                     "hochberg": "simes-hochberg", "hommel": "hommel", "fdr-bh": "fdr_bh", "fdr-by": "fdr_by"}


@pytest.mark.parametrize("method", list(STATSMODELS_NAMES))
def test_adjust_pvalues_equals_statsmodels(method):
    multipletests = pytest.importorskip("statsmodels.stats.multitest").multipletests
    rng = np.random.default_rng(11)
    for m in (1, 2, 5, 17, 60):
        p = rng.uniform(0, 0.2, size=m) ** 2
        p[: m // 3] = p[0]  # ties
        expected = multipletests(p, method=STATSMODELS_NAMES[method])[1]
        np.testing.assert_allclose(adjust_pvalues(p, method=method), expected, rtol=1e-12, atol=1e-15)
        # statsmodels' own name is an accepted alias
        np.testing.assert_allclose(adjust_pvalues(p, method=STATSMODELS_NAMES[method]), expected, rtol=1e-12)


def test_adjust_pvalues_aliases_table_and_series():
    for name, aliases in PVALUE_ADJUSTMENTS.items():
        for alias in aliases:
            if name in ("shaffer", "bergmann-hommel"):
                p = np.array([0.01, 0.2, 0.03])
            else:
                p = np.array([0.01, 0.2, 0.03, 0.5])
            np.testing.assert_array_equal(adjust_pvalues(p, method=alias), adjust_pvalues(p, method=name))
    s = pd.Series([0.01, 0.04, 0.03], index=["a", "b", "c"], name="p")
    out = adjust_pvalues(s, method="holm")
    assert isinstance(out, pd.Series) and list(out.index) == ["a", "b", "c"]
    assert out.round(3).tolist() == [0.03, 0.06, 0.06]


def test_adjust_pvalues_nan_is_left_out_of_the_family():
    # R's p.adjust: NaN stays NaN and the family is the non-missing p-values
    p = np.array([0.01, np.nan, 0.04, 0.03])
    out = adjust_pvalues(p, method="holm")
    assert np.isnan(out[1])
    np.testing.assert_allclose(out[[0, 2, 3]], adjust_pvalues(p[[0, 2, 3]], method="holm"))


@pytest.mark.parametrize("kwargs, exc, text", [
    ({"method": "holmes"}, ValueError, r"`method` must be one of .*Did you mean 'holm'"),
    ({"pvalues": [0.1, 1.2]}, ValueError, r"`pvalues` must lie in \[0, 1\]"),
    ({"pvalues": [[0.1, 0.2]]}, ValueError, r"`pvalues` must be 1-D"),
    ({"pvalues": [0.1, 0.2], "method": "shaffer"}, ValueError, r"k\(k-1\)/2 p-values of all pairs"),
    ({"pvalues": [0.1, np.nan, 0.3], "method": "bergmann-hommel"}, ValueError, "must have no NaN"),
])
def test_adjust_pvalues_bad_input(kwargs, exc, text):
    args = {"pvalues": [0.01, 0.2, 0.03], "method": "holm"} | kwargs
    with pytest.raises(exc, match=text):
        adjust_pvalues(args.pop("pvalues"), **args)


# --------------------------------------------------------------------------- Shaffer and Bergmann–Hommel


def test_shaffer_possible_true_hypotheses_and_t_i():
    # Shaffer (1986): S(3) = {0, 1, 3}, S(4) = {0, 1, 2, 3, 6}, S(5) = {0, 1, 2, 3, 4, 6, 10};
    # for k = 4 the t_i are 6, 3, 3, 3, 2, 1
    assert _true_hypothesis_counts(3) == {0, 1, 3}
    assert _true_hypothesis_counts(4) == {0, 1, 2, 3, 6}
    assert _true_hypothesis_counts(5) == {0, 1, 2, 3, 4, 6, 10}
    assert _shaffer_counts(4).tolist() == [6, 3, 3, 3, 2, 1]
    # Shaffer with t_i replaced by m − i + 1 would be Holm; t_i <= m − i + 1 always
    for k in range(2, 20):
        m = k * (k - 1) // 2
        t = _shaffer_counts(k)
        assert t[0] == m and np.all(t <= np.arange(m, 0, -1)) and t[-1] == 1


def partitions_slow(items):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for smaller in partitions_slow(rest):
        for i in range(len(smaller)):
            yield smaller[:i] + [[first] + smaller[i]] + smaller[i + 1:]
        yield [[first]] + smaller


def bergmann_hommel_rejections_slow(p, k, alpha):
    """The definition: reject H_i iff i lies in no exhaustive set I with min_{j ∈ I} p_j > α/|I|."""
    pairs = list(itertools.combinations(range(k), 2))
    accepted = set()
    for partition in partitions_slow(list(range(k))):
        block = {x: b for b, members in enumerate(partition) for x in members}
        inside = [i for i, (a, c) in enumerate(pairs) if block[a] == block[c]]
        if inside and min(p[i] for i in inside) > alpha / len(inside):
            accepted.update(inside)
    return np.array([i not in accepted for i in range(len(pairs))])


def test_exhaustive_sets_are_the_set_partitions():
    bell = [1, 1, 2, 5, 15, 52, 203, 877, 4140, 21147]
    for k in range(1, 10):
        labels = _set_partitions(k)
        assert labels.shape == (bell[k], k)
        assert len({tuple(row) for row in labels.tolist()}) == bell[k]


@pytest.mark.parametrize("k", [3, 4, 5, 6])
def test_bergmann_hommel_matches_its_definition(k):
    rng = np.random.default_rng(k)
    m = k * (k - 1) // 2
    for _ in range(30):
        p = rng.uniform(0, 0.08, size=m) ** rng.uniform(0.5, 2)
        for alpha in (0.05, 0.1):
            decided = adjust_pvalues(p, method="bergmann-hommel") <= alpha
            np.testing.assert_array_equal(decided, bergmann_hommel_rejections_slow(p, k, alpha))


def test_power_order_holm_shaffer_bergmann_hommel():
    # each procedure rejects at least what the previous one rejects (García & Herrera 2008)
    rng = np.random.default_rng(5)
    for _ in range(50):
        k = int(rng.integers(3, 8))
        p = rng.uniform(0, 0.05, size=k * (k - 1) // 2) ** 1.5
        holm = adjust_pvalues(p, method="holm")
        shaffer = adjust_pvalues(p, method="shaffer")
        bh = adjust_pvalues(p, method="bergmann-hommel")
        assert np.all(shaffer <= holm + 1e-15) and np.all(bh <= shaffer + 1e-15)


def test_bergmann_hommel_refuses_beyond_its_largest_k():
    cube = random_scores(20, BERGMANN_HOMMEL_MAX_METHODS + 1, rng=np.random.default_rng(0), shift=0.3)
    with pytest.raises(ValueError, match=r"handles k <= 12 .* use test='shaffer'"):
        all_pairs_test(cube, test="bergmann-hommel")
    with pytest.raises(ValueError, match=r"handles k <= 12"):
        compare_over_datasets(cube, test="bergmann-hommel")
    with pytest.raises(ValueError, match=r"handles k <= 12"):
        adjust_pvalues(np.full(78, 0.01), method="bergmann-hommel")
    shaffer = all_pairs_test(cube, test="shaffer")  # Shaffer has no limit
    assert shaffer.pvalues_adjusted.shape == (13, 13)


# --------------------------------------------------------------------------- groups (cliques)


def maximal_cliques_slow(adjacent):
    k = adjacent.shape[0]
    cliques = [set(c) for r in range(1, k + 1) for c in itertools.combinations(range(k), r)
               if all(adjacent[a, b] for a, b in itertools.combinations(c, 2))]
    return {frozenset(c) for c in cliques if not any(c < other for other in cliques)}


def test_maximal_cliques_against_brute_force():
    rng = np.random.default_rng(9)
    for _ in range(200):
        k = int(rng.integers(1, 9))
        upper = np.triu(rng.random((k, k)) < rng.uniform(0.2, 0.9), 1)
        adjacent = upper | upper.T
        found = _maximal_cliques(adjacent)
        assert {frozenset(c) for c in found} == maximal_cliques_slow(adjacent)
        assert len(found) == len(set(found))


def check_groups(result):
    """Every group: no separated pair inside, maximal, ordered by mean rank; every method covered."""
    sig = result.posthoc.significant
    ranks = result.mean_ranks
    for group in result.groups:
        assert not any(sig.at[a, b] for a, b in itertools.combinations(group, 2)), group
        assert list(ranks.loc[list(group)]) == sorted(ranks.loc[list(group)])
        outside = [m for m in ranks.index if m not in group]
        assert all(any(sig.at[m, g] for g in group) for m in outside), group  # maximal
    assert {m for g in result.groups for m in g} == set(ranks.index)
    firsts = [ranks[g[0]] for g in result.groups]
    assert firsts == sorted(firsts)


@pytest.mark.parametrize("test", ["nemenyi", "holm", "shaffer", "bergmann-hommel"])
def test_groups_follow_the_pairwise_decisions_exactly(test):
    for seed in range(6):
        cube = random_scores(30, 8, rng=np.random.default_rng(seed), shift=0.25, ties=seed % 2 == 1)
        res = compare_over_datasets(cube, test=test)
        if res.posthoc is not None:
            check_groups(res)
    res = compare_over_datasets(garcia_herrera(), test=test)
    check_groups(res)


def test_groups_garcia_herrera_nemenyi():
    res = compare_over_datasets(garcia_herrera())
    assert res.groups == [("C4.5", "NaiveBayes", "CN2"), ("NaiveBayes", "CN2", "k-NN(k=1)"),
                          ("k-NN(k=1)", "Kernel")]


def test_groups_against_a_control_and_without_posthoc():
    res = compare_over_datasets(demsar_ranks(), test="bonferroni-dunn", control="C4.5")
    assert res.groups == [("C4.5+m", "C4.5+cf", "C4.5")]  # C4.5+m+cf is separated from the control
    assert res.critical_difference == pytest.approx(1.168, abs=5e-4)
    quiet = compare_over_datasets(random_scores(6, 4, rng=np.random.default_rng(1)))
    assert quiet.posthoc is None and quiet.critical_difference is None
    assert quiet.groups == [tuple(quiet.mean_ranks.sort_values(kind="stable").index)]


# --------------------------------------------------------------------------- the whole procedure


def test_compare_over_datasets_summary_block():
    res = compare_over_datasets(garcia_herrera())
    text = res.summary()
    assert text.splitlines()[0] == "5 methods over 30 datasets"
    assert "Friedman chi2(4) = 39.647, p = 5.12e-08" in text
    assert "Iman-Davenport F(4, 116) = 14.309, p = 1.59e-09" in text
    assert "omnibus rejects at alpha = 0.05; nemenyi CD = 1.114 over a rank range of 2.23" in text
    assert "best: C4.5 (rank 2.10)" in text
    assert "separated from best: 2/4 -> [k-NN(k=1), Kernel]" in text
    assert repr(res).startswith("ComparisonResult")


def test_control_summary_says_which_way_each_separation_goes():
    # García & Herrera's data (PROVENANCE: Kernel has the worst mean rank, 4.333, and is separated from
    # the four others at 0.05): against Kernel as control all four separations are methods ranked better
    res = compare_over_datasets(garcia_herrera(), test="holm", control="Kernel")
    assert "separated from control Kernel: 4/4 -> [C4.5, NaiveBayes, CN2, k-NN(k=1)] (4 ranked better, 0 worse)" \
        in res.summary()
    res = compare_over_datasets(demsar_ranks(), test="holm", control="C4.5")  # Demšar: two better than C4.5
    assert "(2 ranked better, 0 worse)" in res.summary()


def test_posthoc_only_if_the_omnibus_rejects():
    rng = np.random.default_rng(2)
    cube = random_scores(8, 5, rng=rng)  # no real differences
    res = compare_over_datasets(cube)
    assert not res.friedman.rejected
    assert res.posthoc is None and res.critical_difference is None
    assert "no difference may be claimed" in res.summary()
    assert (res.to_frame()["n_separated"] == 0).all()


def test_missing_cells_exclude_methods_by_name():
    cube = mcda.datasets.load("duo2018")  # 5 missing cells: ascend and SAFE are incomplete
    with pytest.warns(MissingDataWarning, match="excluded from the comparison over datasets"):
        res = compare_over_datasets(cube)
    assert set(res.excluded) == {"ascend", "SAFE"}
    assert set(res.excluded["ascend"]) == {"Koh", "KohTCC", "SimKumar8hard"}
    assert res.n_methods == 12 and "ascend" not in res.mean_ranks.index
    assert "excluded (incomplete): ascend lacks" in res.summary()
    frame = res.to_frame()
    assert sorted(frame.loc[frame["excluded"], "method"]) == ["SAFE", "ascend"]
    assert frame.loc[frame["excluded"], "mean_rank"].isna().all()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MissingDataWarning)
        with pytest.raises(ValueError, match="`control` 'ascend' was excluded as incomplete"):
            compare_over_datasets(cube, test="holm", control="ascend")
        assert friedman_test(cube).excluded == res.excluded


def test_seed_dim_must_be_reduced_first():
    cube = mcda.datasets.synthetic(n_datasets=6, n_methods=3, n_seeds=2, rng=0)
    with pytest.raises(ValueError, match="Reduce the seeds explicitly first"):
        compare_over_datasets(cube)
    res = compare_over_datasets(mcda.reduce_seeds(cube, how="mean"))
    assert res.n_datasets == 6


def test_weighted_mean_ranks_are_refused():
    cube = garcia_herrera()
    datasets = [str(d) for d in cube.coords["dataset"].values]
    weighted = mcda.mean_ranks(cube, aggregation="custom", weights={d: i + 1.0 for i, d in enumerate(datasets)})
    assert weighted.is_weighted
    for call in (lambda: critical_difference(weighted), lambda: friedman_test(weighted),
                 lambda: compare_over_datasets(weighted), lambda: nemenyi(weighted),
                 lambda: control_test(weighted, control="C4.5")):
        with pytest.raises(ValueError, match="Only the uniform mean rank has the Friedman/Nemenyi null"):
            call()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mcda.DescriptiveOnlyWarning)
        available = mcda.average_ranks(cube, missing="available")
    with pytest.raises(ValueError, match="descriptive only"):
        critical_difference(available)


def test_uniform_mean_ranks_give_the_same_answer_as_scores():
    cube = garcia_herrera()
    ranks = mcda.average_ranks(cube)
    assert critical_difference(ranks) == critical_difference(5, 30)
    with pytest.raises(ValueError, match="pass `n_datasets` only with an integer"):
        critical_difference(ranks, 30)
    a, b = compare_over_datasets(cube, test="shaffer"), compare_over_datasets(ranks, test="shaffer")
    pd.testing.assert_frame_equal(a.posthoc.to_frame(), b.posthoc.to_frame())
    assert a.groups == b.groups and a.friedman.statistic_tied == b.friedman.statistic_tied


def test_lower_is_better_metric_gives_the_same_ranks():
    cube = garcia_herrera()
    errors = mcda.score_cube(1 - cube.values, direction="lower_is_better",
                             method_names=list(cube.coords["method"].values),
                             dataset_names=list(cube.coords["dataset"].values))
    a, b = compare_over_datasets(cube, test="holm"), compare_over_datasets(errors, test="holm")
    pd.testing.assert_series_equal(a.mean_ranks, b.mean_ranks, rtol=0, atol=1e-12)


def test_nemenyi_and_bonferroni_dunn_decisions_are_the_critical_difference():
    for seed in range(5):
        cube = random_scores(20, 6, rng=np.random.default_rng(seed), shift=0.3, ties=True)
        nem = nemenyi(cube)
        diff = np.abs(nem.mean_ranks.to_numpy()[:, None] - nem.mean_ranks.to_numpy()[None, :])
        np.testing.assert_array_equal(nem.significant.to_numpy(), diff >= nem.critical_difference)
        bd = bonferroni_dunn(cube, control="m0")
        gap = (bd.mean_ranks["m0"] - bd.mean_ranks.drop("m0")).abs()
        pd.testing.assert_series_equal(bd.significant, (gap >= bd.critical_difference).rename("significant"),
                                       check_index_type=False)


def test_posthoc_frame_and_fields():
    res = all_pairs_test(garcia_herrera(), test="shaffer")
    frame = res.to_frame()
    assert list(frame.columns) == ["method_a", "method_b", "mean_rank_a", "mean_rank_b", "rank_diff", "z", "p_raw",
                                   "p_adjusted", "significant"]
    assert len(frame) == 10 and res.critical_difference is None
    z = res.z.to_numpy()
    np.testing.assert_allclose(z, -z.T)
    assert np.isnan(np.diag(res.pvalues.to_numpy())).all() and not np.diag(res.significant.to_numpy()).any()
    np.testing.assert_allclose(frame["z"], frame["rank_diff"] / res.standard_error)
    assert "shaffer (all pairs)" in res.summary()
    control = control_test(garcia_herrera(), control="C4.5", test="hommel").to_frame()
    assert control["method_a"].unique().tolist() == ["C4.5"] and len(control) == 4


@pytest.mark.parametrize("call, exc, text", [
    (lambda c: compare_over_datasets(c, test="bonferroni-dunn"), ValueError, "pass `control=`"),
    (lambda c: compare_over_datasets(c, test="nemenyi", control="C4.5"), ValueError, "takes no `control`"),
    (lambda c: compare_over_datasets(c, test="tukey"), ValueError, "`test` must be one of"),
    (lambda c: compare_over_datasets(c, alpha=0), ValueError, "`alpha` must lie in"),
    (lambda c: control_test(c, control="C45", test="holm"), ValueError, "Did you mean 'C4.5'"),
    (lambda c: control_test(c, control=3), TypeError, "`control` must be the name of a method"),
    (lambda c: control_test(c, control="C4.5", test="shaffer"), ValueError, "`test` must be one of"),
    (lambda c: all_pairs_test(c, test="hochberg"), ValueError, "`test` must be one of"),
])
def test_bad_input(call, exc, text):
    with pytest.raises(exc, match=text):
        call(garcia_herrera())


def test_friedman_edges_return_nan_with_a_reason():
    one = mcda.score_cube(np.array([[0.9, 0.8, 0.7]]), direction="higher_is_better", method_names=["a", "b", "c"])
    res = friedman_test(one)
    assert math.isnan(res.f_statistic) and math.isnan(res.f_pvalue) and not res.rejected
    assert "at least 2 datasets" in res.reason
    agree = mcda.score_cube(np.tile([0.9, 0.8, 0.7], (5, 1)), direction="higher_is_better",
                            method_names=["a", "b", "c"])
    res = friedman_test(agree)  # complete concordance: F = inf, and its p is the exact one, not 0
    assert res.statistic == pytest.approx(10.0) and res.f_statistic == math.inf
    assert res.f_pvalue == pytest.approx(exact_friedman_pvalue(np.tile([1.0, 2.0, 3.0], (5, 1))), rel=1e-12)
    assert res.f_pvalue > 0 and "complete concordance" in res.reason
    flat = mcda.score_cube(np.full((5, 3), 0.5), direction="higher_is_better", method_names=["a", "b", "c"])
    res = friedman_test(flat)
    assert res.statistic == 0.0 and math.isnan(res.statistic_tied) and "0/0" in res.reason
    # every dataset ties every method: the test does not apply, so NaN and a reason, never p = 1
    assert math.isnan(res.pvalue) and math.isnan(res.f_pvalue) and not res.rejected
    assert "does not apply" in res.reason
    assert frame_pvalues_are_nan(res)
    quiet = compare_over_datasets(flat)
    assert quiet.posthoc is None and "p = nan" in quiet.summary()


def frame_pvalues_are_nan(res):
    return bool(res.to_frame()["p_raw"].isna().all())


def exact_friedman_pvalue(ranks):
    """The exact permutation p-value of Friedman's untied statistic, by enumerating every way the N
    datasets could have ordered the k methods (each of the k! orders equally likely under the null)."""
    n, k = ranks.shape
    orders = np.array(list(itertools.permutations(range(1, k + 1))), dtype=float)

    def chi2(sums):
        return 12.0 / (n * k * (k + 1)) * np.sum(np.asarray(sums) ** 2, axis=-1) - 3.0 * n * (k + 1)

    observed = chi2(ranks.sum(axis=0))
    sums = orders
    for _ in range(n - 1):  # rank sums of every combination of orders, dataset by dataset
        sums = (sums[:, None, :] + orders[None, :, :]).reshape(-1, k)
    return float(np.mean(chi2(sums) >= observed - 1e-9))


def test_complete_concordance_gives_the_exact_pvalue_not_zero():
    # Two methods, A better on all 5 datasets: Friedman is the sign test here, and the exact
    # two-sided sign test (scipy.stats.binomtest) gives 2/2^5 = 0.0625, not significant at 0.05.
    # The F approximation at F = inf said p = 0 and let Nemenyi "separate" the pair.
    two = mcda.score_cube(np.tile([0.9, 0.8], (5, 1)), direction="higher_is_better", method_names=["a", "b"])
    res = friedman_test(two)
    assert res.f_statistic == math.inf
    assert res.f_pvalue == pytest.approx(stats.binomtest(5, 5).pvalue, rel=1e-12)
    assert not res.rejected
    assert compare_over_datasets(two).posthoc is None
    # k = 3, N = 4: the exact permutation distribution, enumerated (6^4 configurations)
    three = mcda.score_cube(np.tile([0.9, 0.8, 0.7], (4, 1)), direction="higher_is_better",
                            method_names=["a", "b", "c"])
    assert friedman_test(three).f_pvalue == pytest.approx(exact_friedman_pvalue(np.tile([1.0, 2.0, 3.0], (4, 1))),
                                                          rel=1e-12)


def test_summary_names_every_method_tied_for_best():
    # m0 and m1 tie on every dataset: calling either one "best" would be arbitrary
    values = np.tile([3.0, 3.0, 1.0, 0.0], (10, 1))
    res = compare_over_datasets(mcda.score_cube(values, direction="higher_is_better",
                                                method_names=["m0", "m1", "m2", "m3"]))
    assert res.posthoc is not None
    assert "best: m0, m1 (tied at rank 1.50)" in res.summary()
    flat = compare_over_datasets(mcda.score_cube(np.full((5, 3), 0.5), direction="higher_is_better",
                                                 method_names=["a", "b", "c"]))
    assert "lowest mean rank: a, b, c (tied at rank 2.00)" in flat.summary()


# --------------------------------------------------------------------------- attainable significance


def test_attainable_significance_of_the_issue():
    a = attainable_significance(8, 15)
    # k = 15, N = 8: 2/2^8 = 0.0078 > 0.05/105 = 0.00048
    assert a.min_pvalue == pytest.approx(0.0078125) and a.strictest_threshold == pytest.approx(0.05 / 105)
    assert not a.attainable and a.n_comparisons == 105 and a.min_datasets == 13
    assert "no pair can ever be significant" in a.summary()
    # the exact two-sided Wilcoxon over 8 datasets all favouring one method gives exactly 2/2^8
    assert stats.wilcoxon(np.arange(1, 9) / 10, method="exact").pvalue == pytest.approx(a.min_pvalue)
    assert stats.binomtest(8, 8).pvalue == pytest.approx(a.min_pvalue)  # the sign test too
    # and 13 datasets suffice, 12 do not
    assert attainable_significance(13, 15).attainable and not attainable_significance(12, 15).attainable
    control = attainable_significance(8, 15, comparisons="control")
    assert control.n_comparisons == 14 and not control.attainable
    assert attainable_significance(8, 15, adjust=None).attainable
    assert len(a.to_frame()) == 1


def test_attainable_significance_bad_input():
    with pytest.raises(ValueError, match="`adjust` must be None or one of"):
        attainable_significance(8, 15, adjust="hochberg")
    with pytest.raises(ValueError, match="`comparisons` must be one of"):
        attainable_significance(8, 15, comparisons="some")


# --------------------------------------------------------------------------- invariants (hypothesis)


score_matrices = st.integers(min_value=2, max_value=7).flatmap(
    lambda k: st.integers(min_value=3, max_value=25).flatmap(
        lambda n: st.lists(st.integers(min_value=0, max_value=4), min_size=n * k, max_size=n * k).map(
            lambda v: np.array(v, dtype=float).reshape(n, k))))


def cube_of(values):
    n, k = values.shape
    return mcda.score_cube(values, direction="higher_is_better", method_names=[f"m{j}" for j in range(k)],
                           dataset_names=[f"d{i}" for i in range(n)])


@FAST
@given(values=score_matrices)
def test_ranks_sum_to_k_k_plus_1_over_2(values):
    table = mcda.rank_table(cube_of(values))
    k = values.shape[1]
    np.testing.assert_allclose(table.sum(axis=1), k * (k + 1) / 2)
    res = friedman_test(cube_of(values))
    assert res.mean_ranks.sum() == pytest.approx(k * (k + 1) / 2)
    assert 0 <= res.pvalue <= 1 and res.statistic <= res.statistic_tied + 1e-9 or math.isnan(res.statistic_tied)


@FAST
@given(p=st.lists(st.floats(min_value=0, max_value=1), min_size=1, max_size=30),
       method=st.sampled_from([m for m in PVALUE_ADJUSTMENTS if m not in ("shaffer", "bergmann-hommel")]))
def test_adjusted_pvalues_are_at_least_raw(p, method):
    p = np.array(p)
    adjusted = adjust_pvalues(p, method=method)
    assert np.all(adjusted >= p) and np.all(adjusted <= 1)


@FAST
@given(k=st.integers(min_value=2, max_value=7), data=st.data())
def test_pair_structured_adjusted_pvalues_are_at_least_raw(k, data):
    m = k * (k - 1) // 2
    p = np.array(data.draw(st.lists(st.floats(min_value=0, max_value=1), min_size=m, max_size=m)))
    for method in ("shaffer", "bergmann-hommel"):
        adjusted = adjust_pvalues(p, method=method)
        assert np.all(adjusted >= p) and np.all(adjusted <= 1)
        assert np.all(adjusted <= adjust_pvalues(p, method="holm") + 1e-15)


@FAST
@given(values=score_matrices, seed=st.integers(0, 2**16), test=st.sampled_from(["nemenyi", "holm", "shaffer"]))
def test_permuting_datasets_changes_nothing(values, seed, test):
    rng = np.random.default_rng(seed)
    cube = cube_of(values)
    a = compare_over_datasets(cube, test=test)
    b = compare_over_datasets(cube.isel(dataset=rng.permutation(values.shape[0])), test=test)
    pd.testing.assert_series_equal(a.mean_ranks, b.mean_ranks, rtol=1e-12)
    assert a.friedman.statistic == pytest.approx(b.friedman.statistic, rel=1e-12, abs=1e-12)
    assert a.groups == b.groups
    if a.posthoc is not None:
        pd.testing.assert_frame_equal(a.posthoc.to_frame(), b.posthoc.to_frame(), rtol=1e-12)


@FAST
@given(values=score_matrices, seed=st.integers(0, 2**16),
       test=st.sampled_from(["nemenyi", "holm", "shaffer", "bergmann-hommel"]))
def test_permuting_methods_permutes_everything(values, seed, test):
    k = values.shape[1]
    perm = np.random.default_rng(seed).permutation(k)
    cube = cube_of(values)
    a = compare_over_datasets(cube, test=test)
    b = compare_over_datasets(cube.isel(method=perm), test=test)
    order = list(a.mean_ranks.index)
    pd.testing.assert_series_equal(a.mean_ranks, b.mean_ranks.loc[order], rtol=1e-12)
    assert a.friedman.statistic == pytest.approx(b.friedman.statistic, rel=1e-12, abs=1e-12)
    assert {frozenset(g) for g in a.groups} == {frozenset(g) for g in b.groups}
    if a.posthoc is not None:
        for name in ("z", "pvalues", "pvalues_adjusted", "significant"):
            pd.testing.assert_frame_equal(getattr(a.posthoc, name),
                                          getattr(b.posthoc, name).loc[order, order], rtol=1e-12)


@FAST
@given(values=score_matrices, seed=st.integers(0, 2**16), test=st.sampled_from(["holm", "hochberg", "hommel"]))
def test_control_tests_permute_with_methods(values, seed, test):
    k = values.shape[1]
    perm = np.random.default_rng(seed).permutation(k)
    cube = cube_of(values)
    a = control_test(cube, control="m0", test=test)
    b = control_test(cube.isel(method=perm), control="m0", test=test)
    order = list(a.z.index)
    for name in ("z", "pvalues", "pvalues_adjusted", "significant"):
        pd.testing.assert_series_equal(getattr(a, name), getattr(b, name).loc[order], rtol=1e-12)


def test_results_are_frozen():
    res = compare_over_datasets(garcia_herrera())
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.test = "holm"
