"""Pairwise superiority, transitivity, Bradley–Terry and marginal means.

Reference numbers come from: Kendall & Babington Smith (1940) via the PROVENANCE of
tests/data/kendall_bs1940 (dog: 5 circular triads of 8, ζ = 0.375, the five cycles),
scipy.stats.binomtest (sign test), statsmodels (Holm / Bonferroni, GLM standard errors),
choix (Bradley–Terry strengths), and pandas computations written out in the tests.
"""

from __future__ import annotations

import itertools
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special, stats

import mcda
from mcda import (SmallSampleWarning, bradley_terry, marginal_means, pairwise_superiority, pairwise_transitivity)
from mcda.stats.pairwise import PairwiseCounts, beyond_rope, count_regions, pairwise_counts, sign_test_pvalues

DATA = Path(__file__).parent / "data" / "kendall_bs1940"
FAST = settings(max_examples=40, deadline=None)


def quiet(function, *args, **kwargs):
    """Run without the small-sample warnings that tiny inputs raise on purpose (and, for drawn data,
    the note naming a dataset without any result)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SmallSampleWarning)
        warnings.simplefilter("ignore", mcda.MissingDataWarning)
        return function(*args, **kwargs)


def dog_counts() -> PairwiseCounts:
    pairs = pd.read_csv(DATA / "dog_food_preferences.csv")
    foods = ["meat", "biscuit", "chocolate", "apple", "pear", "cheese"]
    wins = pd.crosstab(pairs["winner"], pairs["loser"]).reindex(index=foods, columns=foods, fill_value=0)
    return PairwiseCounts.from_matrix(wins)


def school_counts(group: str) -> PairwiseCounts:
    table = pd.read_csv(DATA / "school_subjects_choice_counts.csv")
    table = table[table["group"] == group]
    subjects = list(dict.fromkeys(table["row_subject"]))
    wins = table.pivot(index="row_subject", columns="col_subject", values="n_preferring_row_over_col")
    wins = wins.reindex(index=subjects, columns=subjects).fillna(0).astype(int)
    return PairwiseCounts.from_matrix(wins, n_shared=int(table["n_judges"].iloc[0]))


def rotations(triple):
    return {tuple(triple[i:] + triple[:i]) for i in range(3)}


def same_cycles(left, right) -> bool:
    canon = lambda ts: {min(rotations(list(t))) for t in ts}  # noqa: E731
    return canon(left) == canon(right) and len(left) == len(right)


# --------------------------------------------------------------------------- the equivalence boundary

def test_077_minus_076_with_rope_001_is_an_equivalence():
    # 0.77 - 0.76 == 0.010000000000000009 in floating point: the boundary counts as equivalent
    assert 0.77 - 0.76 > 0.01
    scores = {"d1": {"a": 0.77, "b": 0.76}}
    counts = pairwise_counts(scores, "higher_is_better", rope=0.01)
    assert counts.n_equivalent.loc["a", "b"] == 1 and counts.wins.loc["a", "b"] == 0
    report = pairwise_superiority(scores, "higher_is_better", rope=0.01)
    assert report.probability_equivalent.loc["a", "b"] == 1.0
    assert report.equivalent_pairs == [("a", "b")]
    assert np.isnan(report.pvalues.loc["a", "b"]) and "within the rope" in report.reasons[("a", "b")]
    # a rope visibly smaller than the difference makes it a win
    assert pairwise_counts(scores, "higher_is_better", rope=0.0099).wins.loc["a", "b"] == 1
    # lower is better: the same numbers, the other winner
    assert pairwise_counts(scores, "lower_is_better", rope=0.0099).wins.loc["b", "a"] == 1


# --------------------------------------------------------------------------- sign test

def test_sign_test_equals_scipy_binomtest():
    for n in range(1, 31):
        for k in range(n + 1):
            expected = stats.binomtest(k, n, 0.5).pvalue  # the reference
            assert sign_test_pvalues(k, n - k) == pytest.approx(expected, rel=1e-12, abs=1e-300)
    assert np.isnan(sign_test_pvalues(0, 0))


def test_report_pvalues_are_binomtest_on_the_decisive_datasets():
    report = quiet(pairwise_superiority, mcda.datasets.load("duo2018"))
    frame = report.to_frame()
    for row in frame.itertuples():
        assert row.n_decisive == row.wins_a + row.wins_b
        assert row.n_datasets == row.wins_a + row.wins_b + row.n_equivalent
        if row.n_decisive:
            assert row.p_raw == pytest.approx(stats.binomtest(row.wins_a, row.n_decisive).pvalue, rel=1e-12)
        else:
            assert np.isnan(row.p_raw) and row.reason


@pytest.mark.parametrize("adjust", ["holm", "bonferroni", "hommel", "fdr_bh"])
def test_adjustment_matches_statsmodels(adjust):
    from statsmodels.stats.multitest import multipletests

    report = quiet(pairwise_superiority, mcda.datasets.load("duo2018"), adjust=adjust)
    frame = report.to_frame()
    tested = frame["p_raw"].notna()
    reject, expected, _, _ = multipletests(frame.loc[tested, "p_raw"], alpha=0.05, method=adjust)
    np.testing.assert_allclose(frame.loc[tested, "p_adjusted"], expected, rtol=1e-12)
    assert frame.loc[~tested, "p_adjusted"].isna().all()
    told_apart = frame.loc[tested].loc[reject]
    assert {frozenset((r.method_a, r.method_b)) for r in told_apart.itertuples()} == {
        frozenset(p) for p in report.superior_pairs}
    # symmetric matrices, NaN diagonal
    assert np.allclose(report.pvalues_adjusted, report.pvalues_adjusted.T, equal_nan=True)
    assert np.isnan(np.diag(report.pvalues_adjusted)).all()


def test_superior_and_equivalent_pairs_follow_alpha():
    # a wins on all 8 datasets (p = 2/256), b and c trade wins 2 : 2 (p = 1)
    rng = np.random.default_rng(0)
    base = rng.uniform(0.3, 0.6, size=8)
    scores = np.column_stack([base + 0.2, base, base + np.array([0.05, -0.05, 0.05, -0.05, 0, 0, 0, 0])])
    report = quiet(pairwise_superiority, scores, "higher_is_better", rope=0.01, method_names=["a", "b", "c"])
    assert ("a", "b") in report.superior_pairs and ("a", "c") in report.superior_pairs
    assert report.equivalent_pairs == [("b", "c")]
    assert report.pvalues.loc["a", "b"] == pytest.approx(stats.binomtest(8, 8).pvalue)
    assert report.order[0] == "a"
    strict = quiet(pairwise_superiority, scores, "higher_is_better", rope=0.01, method_names=["a", "b", "c"],
                   alpha=0.001)
    assert strict.superior_pairs == [] and len(strict.equivalent_pairs) == 3


def test_issue_call_shape_with_an_array_and_the_ari_noise_floor():
    from mcda.data.cards import properties_for

    cube = mcda.datasets.load("duo2018")
    ari_by_dataset = cube.values
    method_names = [str(m) for m in cube.coords["method"].values]
    floor = properties_for(["ari"])[0].noise_floor
    report = quiet(pairwise_superiority, ari_by_dataset, "higher_is_better", rope=floor, method_names=method_names)
    from_cube = quiet(pairwise_superiority, cube)  # direction and rope from the card
    assert report.order == from_cube.order and report.rope == from_cube.rope == floor
    pd.testing.assert_frame_equal(report.probability_superior, from_cube.probability_superior)
    assert report.order[0] == report.standing.idxmax()
    trans = pairwise_transitivity(report)
    assert isinstance(trans.is_transitive, bool) and isinstance(trans.circular_triads, list)
    assert trans.condorcet_choice in (None, *method_names)


def test_missing_cells_are_dropped_pairwise_and_counted():
    scores = pd.DataFrame({"a": [0.9, 0.8, 0.7, np.nan], "b": [0.5, np.nan, 0.6, 0.4],
                           "c": [np.nan, np.nan, np.nan, 0.3]}, index=["d1", "d2", "d3", "d4"])
    report = quiet(pairwise_superiority, scores, "higher_is_better", rope=0.0)
    frame = report.to_frame().set_index(["method_a", "method_b"])
    assert frame.loc[("a", "b"), "n_datasets"] == 2 and frame.loc[("a", "b"), "wins_a"] == 2
    assert frame.loc[("b", "c"), "n_datasets"] == 1
    assert report.incomparable_pairs == [("a", "c")]
    assert frame.loc[("a", "c"), "reason"] == "no dataset where both have a result"
    assert np.isnan(report.probability_superior.loc["a", "c"])
    assert report.counts.n_datasets == 4
    assert report.counts.n_shared.loc["c", "c"] == 1  # the diagonal counts each method's results


def test_small_sample_warning_names_the_pairs():
    with pytest.warns(SmallSampleWarning, match="fewer than 6 decisive datasets"):
        pairwise_superiority([[0.9, 0.1], [0.8, 0.2]], "higher_is_better", rope=0.0, method_names=["a", "b"])


def test_standing_is_the_mean_share_of_wins_and_equivalences():
    cube = mcda.datasets.load("garcia_herrera2008")
    report = pairwise_superiority(cube, rope=0.0)
    scores = pd.DataFrame(cube.values, columns=report.methods)
    for m in report.methods:
        shares = [((scores[m] >= scores[o]).sum()) / len(scores) for o in report.methods if o != m]
        assert report.standing[m] == pytest.approx(np.mean(shares), rel=1e-12)
    assert report.standing.between(0, 1).all()
    assert list(report.standing[report.order]) == sorted(report.standing, reverse=True)


# --------------------------------------------------------------------------- Kendall & Babington Smith's dog

def test_dog_circular_triads_match_kendall_babington_smith():
    t = pairwise_transitivity(dog_counts())
    # PROVENANCE.md: scores meat 4, chocolate 4, biscuit 2, pear 2, cheese 2, apple 1
    assert t.scores.to_dict() == {"meat": 4, "biscuit": 2, "chocolate": 4, "apple": 1, "pear": 2, "cheese": 2}
    assert t.n_circular_triads == 5 and t.max_circular_triads == 8
    assert t.coefficient_of_consistence == pytest.approx(0.375, abs=1e-15)
    published = [("meat", "biscuit", "apple"), ("meat", "chocolate", "apple"), ("meat", "apple", "pear"),
                 ("meat", "apple", "cheese"), ("biscuit", "pear", "cheese")]
    assert {frozenset(c) for c in t.circular_triads} == {frozenset(c) for c in published}
    for a, b, c in t.circular_triads:  # each listed triple is a cycle a → b → c → a
        assert t.relation.loc[a, b] and t.relation.loc[b, c] and t.relation.loc[c, a]
    assert not t.is_transitive and t.is_complete
    assert t.condorcet_choice is None and t.order is None and "circular triads" in t.reason
    frame = t.to_frame()
    assert frame["n_circular_triads"].sum() == 3 * 5 and len(frame) == 15


def test_school_subjects_majority_cycles_match_provenance():
    # PROVENANCE.md (computed by the data curator from the eba counts, not quoted from the paper):
    # boys d = 3 of 91, ζ = 0.967, cycles {art, hist, geog}, {lit, comm, alge}, {lit, comm, gram};
    # girls d = 16 of 55, ζ = 0.709.
    boys = pairwise_transitivity(school_counts("boys"))
    assert (boys.n_circular_triads, boys.max_circular_triads) == (3, 91)
    assert round(boys.coefficient_of_consistence, 3) == 0.967
    assert {frozenset(c) for c in boys.circular_triads} == {
        frozenset({"art", "hist", "geog"}), frozenset({"lit", "comm", "alge"}), frozenset({"lit", "comm", "gram"})}
    girls = pairwise_transitivity(school_counts("girls"))
    assert (girls.n_circular_triads, girls.max_circular_triads) == (16, 55)
    assert round(girls.coefficient_of_consistence, 3) == 0.709


def tournaments(min_size=3, max_size=7):
    """Random complete tournaments as 0/1 win matrices."""
    def build(args):
        n, bits = args
        wins = np.zeros((n, n), dtype=int)
        for (i, j), bit in zip(itertools.combinations(range(n), 2), bits):
            wins[i, j], wins[j, i] = (1, 0) if bit else (0, 1)
        return wins
    return st.integers(min_size, max_size).flatmap(
        lambda n: st.tuples(st.just(n), st.lists(st.booleans(), min_size=n * (n - 1) // 2,
                                                  max_size=n * (n - 1) // 2))).map(build)


@FAST
@given(tournaments())
def test_circular_triads_agree_with_kendalls_formula(wins):
    # Kendall & Babington Smith (1940): d = n(n−1)(2n−1)/12 − ½ Σ a_i² for a complete tournament
    n = wins.shape[0]
    t = pairwise_transitivity(PairwiseCounts.from_matrix(wins))
    a = wins.sum(axis=1)
    assert t.n_circular_triads == n * (n - 1) * (2 * n - 1) / 12 - (a ** 2).sum() / 2
    assert len(set(map(frozenset, t.circular_triads))) == t.n_circular_triads
    assert t.is_transitive == (t.n_circular_triads == 0)


@FAST
@given(st.integers(2, 7).flatmap(lambda n: st.tuples(st.permutations(range(n)),
                                                      st.lists(st.integers(1, 5), min_size=n * n, max_size=n * n))))
def test_a_relation_from_any_total_order_is_transitive_with_coefficient_one(args):
    order, margins = args
    n = len(order)
    names = [f"m{i}" for i in range(n)]
    position = {m: p for p, m in enumerate(order)}
    wins = np.zeros((n, n), dtype=int)
    for i, j in itertools.permutations(range(n), 2):
        if position[i] < position[j]:  # i ranks above j: more wins than losses, by any margin
            wins[i, j] = margins[i * n + j] + margins[j * n + i]
            wins[j, i] = margins[j * n + i]
    t = pairwise_transitivity(PairwiseCounts.from_matrix(wins, methods=names))
    expected = [names[i] for i in order]
    assert t.is_transitive and t.is_complete and t.n_circular_triads == 0
    assert t.order == expected and t.condorcet_choice == expected[0]
    if n >= 3:
        assert t.coefficient_of_consistence == 1.0
    else:
        assert t.coefficient_of_consistence is None and "fewer than 3" in t.reason


def test_ties_leave_no_edge_and_no_coefficient():
    wins = [[0, 2, 3], [2, 0, 3], [0, 0, 0]]  # a and b split 2 : 2
    t = pairwise_transitivity(PairwiseCounts.from_matrix(wins, methods=["a", "b", "c"]))
    assert t.tied_pairs == [("a", "b")] and not t.is_complete and t.is_transitive
    assert t.coefficient_of_consistence is None and "tied" in t.reason
    assert t.order is None and t.condorcet_choice is None
    # a → b → c with a and c tied is not transitive, and says why
    t2 = pairwise_transitivity(PairwiseCounts.from_matrix([[0, 1, 0], [0, 0, 1], [0, 0, 0]], methods=["a", "b", "c"]))
    assert not t2.is_transitive and t2.n_circular_triads == 0 and "a → b → c" in t2.reason


# --------------------------------------------------------------------------- Bradley–Terry

@pytest.mark.parametrize("group", ["boys", "girls"])
def test_bradley_terry_agrees_with_choix(group):
    import choix

    counts = school_counts(group)
    bt = bradley_terry(counts)
    reference = choix.ilsr_pairwise_dense(counts.wins.to_numpy().astype(float), tol=1e-12, max_iter=10_000)
    np.testing.assert_allclose(bt.strengths.to_numpy(), reference - reference.mean(), atol=1e-6)
    along_order = pd.Series(reference, index=counts.methods)[bt.order].to_numpy()
    assert bt.converged and np.all(np.diff(along_order) <= 1e-6)  # equal strengths (girls) may come in any order


def test_bradley_terry_with_half_ties_agrees_with_choix():
    import choix

    report = quiet(pairwise_superiority, mcda.datasets.load("duo2018"))
    counts = report.counts
    won = counts.wins.to_numpy() + counts.n_equivalent.to_numpy() / 2.0
    np.fill_diagonal(won, 0.0)
    reference = choix.ilsr_pairwise_dense(won, tol=1e-12, max_iter=10_000)
    bt = bradley_terry(report)
    np.testing.assert_allclose(bt.strengths.to_numpy(), reference - reference.mean(), atol=1e-6)
    dropped = bradley_terry(report, ties="drop")
    reference = choix.ilsr_pairwise_dense(counts.wins.to_numpy().astype(float), tol=1e-12, max_iter=10_000)
    np.testing.assert_allclose(dropped.strengths.to_numpy(), reference - reference.mean(), atol=1e-6)


def test_bradley_terry_standard_errors_match_a_logistic_glm():
    import statsmodels.api as sm

    counts = school_counts("boys")
    k = len(counts.methods)
    wins = counts.wins.to_numpy()
    rows, outcomes = [], []
    for i, j in itertools.combinations(range(k), 2):
        x = np.zeros(k)
        x[i], x[j] = 1.0, -1.0
        rows.append(x[:-1])  # last strength pinned at 0
        outcomes.append([wins[i, j], wins[j, i]])
    fit = sm.GLM(np.array(outcomes), np.array(rows), family=sm.families.Binomial()).fit(tol=1e-12)
    pinned = np.zeros((k, k))
    pinned[:-1, :-1] = fit.cov_params()
    centre = np.eye(k) - 1.0 / k
    covariance = centre @ pinned @ centre
    beta = np.append(fit.params, 0.0)
    bt = bradley_terry(counts, confidence_level=0.9)
    np.testing.assert_allclose(bt.strengths, beta - beta.mean(), atol=1e-8)
    np.testing.assert_allclose(bt.standard_errors, np.sqrt(np.diag(covariance)), rtol=1e-6)
    z = stats.norm.ppf(0.95)
    np.testing.assert_allclose(bt.confidence_interval["high"] - bt.strengths, z * bt.standard_errors, rtol=1e-12)
    outcomes = np.array(outcomes)
    log_binomial_coefficients = np.log(special.comb(outcomes.sum(axis=1), outcomes[:, 0])).sum()
    assert bt.log_likelihood == pytest.approx(fit.llf - log_binomial_coefficients, rel=1e-9)
    assert bt.worth.sum() == pytest.approx(1.0)


def test_bradley_terry_is_nan_with_a_reason_when_a_method_never_loses():
    wins = [[0, 3, 2], [0, 0, 1], [0, 1, 0]]  # a is never beaten: its strength diverges
    bt = bradley_terry(PairwiseCounts.from_matrix(wins, methods=["a", "b", "c"]))
    assert bt.order is None and bt.strengths.isna().all() and "['a'] never lose" in bt.reason
    assert "no strengths" in bt.summary()
    # half-ties connect it again
    tied = PairwiseCounts.from_matrix(wins, n_equivalent=[[0, 1, 0], [1, 0, 0], [0, 0, 0]], methods=["a", "b", "c"])
    assert bradley_terry(tied).order[0] == "a"


# --------------------------------------------------------------------------- marginal means

def test_marginal_means_match_pandas_on_shared_datasets():
    cube = mcda.datasets.load("duo2018")  # 5 missing cells
    frame = pd.DataFrame(cube.values, columns=[str(m) for m in cube.coords["method"].values])
    mm = marginal_means(cube)
    for a, b in itertools.permutations(frame.columns, 2):
        both = frame[[a, b]].dropna()
        assert mm.pairwise_means.loc[a, b] == pytest.approx(both[a].mean(), rel=1e-12)
        assert mm.n_shared.loc[a, b] == len(both)
        assert mm.mean_differences.loc[a, b] == pytest.approx((both[a] - both[b]).mean(), rel=1e-9, abs=1e-15)
    pd.testing.assert_series_equal(mm.means, frame.mean().rename_axis("method").rename("mean"), rtol=1e-12)
    assert list(mm.mean_advantage[mm.order]) == sorted(mm.mean_advantage, reverse=True)


def test_marginal_means_advantage_follows_the_direction():
    scores = {"d1": {"a": 1.0, "b": 3.0}, "d2": {"a": 2.0, "b": 2.5}}
    low = marginal_means(scores, "lower_is_better")
    high = marginal_means(scores, "higher_is_better")
    assert low.order == ["a", "b"] and high.order == ["b", "a"]
    assert low.mean_differences.loc["a", "b"] == high.mean_differences.loc["a", "b"] == -1.25
    assert low.mean_advantage["a"] == 1.25 and high.mean_advantage["a"] == -1.25


# --------------------------------------------------------------------------- properties

def score_matrices(min_methods=2, max_methods=5, missing=True):
    """Small datasets × methods matrices on a coarse grid (so ties and rope boundaries happen)."""
    cell = st.sampled_from([0.5, 0.51, 0.52, 0.55, 0.6, 0.7, 0.77, 0.76] + ([np.nan] if missing else []))
    return st.tuples(st.integers(1, 12), st.integers(min_methods, max_methods)).flatmap(
        lambda shape: st.lists(cell, min_size=shape[0] * shape[1], max_size=shape[0] * shape[1]).map(
            lambda v: np.array(v, dtype=float).reshape(shape)))


@FAST
@given(score_matrices(missing=False), st.floats(0, 0.3), st.floats(0, 0.3))
def test_raising_the_rope_only_turns_decisive_datasets_into_equivalences(values, r1, r2):
    low, high = min(r1, r2), max(r1, r2)
    for row in values:  # dataset by dataset
        w1, e1, s1 = count_regions(row[None, :], low)
        w2, e2, s2 = count_regions(row[None, :], high)
        assert np.array_equal(s1, s2)
        assert np.all(e2 >= e1)          # an equivalence stays an equivalence
        assert np.all(w2 <= w1)          # a win at the wider rope was a win at the narrower one
        assert np.all((w1 - w2) + (w1.T - w2.T) == e2 - e1)  # what changed went to equivalences


@FAST
@given(score_matrices(), st.sampled_from([0.0, 0.01, 0.05]))
def test_a_pair_its_reverse_and_the_equivalences_sum_to_one(values, rope):
    k = values.shape[1]
    report = quiet(pairwise_superiority, values, "higher_is_better", rope=rope,
                   method_names=[f"m{i}" for i in range(k)])
    p, e = report.probability_superior.to_numpy(), report.probability_equivalent.to_numpy()
    shared = report.counts.n_shared.to_numpy() > 0
    off = ~np.eye(k, dtype=bool)
    total = p + p.T + e
    np.testing.assert_allclose(total[shared & off], 1.0, rtol=0, atol=1e-12)
    assert np.isnan(total[~shared | ~off]).all()
    pvals = report.pvalues.to_numpy()
    assert np.all((pvals[~np.isnan(pvals)] >= 0) & (pvals[~np.isnan(pvals)] <= 1))
    tested = len(report.superior_pairs) + len(report.equivalent_pairs) + len(report.incomparable_pairs)
    assert tested == k * (k - 1) // 2


@FAST
@given(score_matrices(min_methods=3, max_methods=5), st.randoms(use_true_random=False))
def test_relabelling_methods_permutes_everything(values, random):
    k = values.shape[1]
    names = [f"m{i}" for i in range(k)]
    perm = list(range(k))
    random.shuffle(perm)
    new_names = [f"x{names[j]}" for j in perm]
    back = {f"x{m}": m for m in names}
    a = quiet(pairwise_superiority, values, "higher_is_better", rope=0.01, method_names=names, adjust="holm")
    b = quiet(pairwise_superiority, values[:, perm], "higher_is_better", rope=0.01, method_names=new_names,
              adjust="holm")
    unlabel = lambda frame: frame.rename(index=back, columns=back).loc[names, names]  # noqa: E731
    for field in ("probability_superior", "probability_equivalent", "pvalues", "pvalues_adjusted"):
        pd.testing.assert_frame_equal(getattr(a, field), unlabel(getattr(b, field)), check_names=False)
    pd.testing.assert_series_equal(a.standing, b.standing.rename(index=back).loc[names], check_names=False)
    as_sets = lambda pairs, m=None: {frozenset(m[x] for x in p) if m else frozenset(p) for p in pairs}  # noqa: E731
    assert as_sets(a.equivalent_pairs) == as_sets(b.equivalent_pairs, back)
    assert {tuple(p) for p in a.superior_pairs} == {tuple(back[x] for x in p) for p in b.superior_pairs}
    ta, tb = pairwise_transitivity(a), pairwise_transitivity(b)
    assert same_cycles(ta.circular_triads, [tuple(back[x] for x in c) for c in tb.circular_triads])
    assert ta.is_transitive == tb.is_transitive and ta.coefficient_of_consistence == tb.coefficient_of_consistence
    assert ta.condorcet_choice == (None if tb.condorcet_choice is None else back[tb.condorcet_choice])
    ba, bb = bradley_terry(a), bradley_terry(b)
    np.testing.assert_allclose(ba.strengths.to_numpy(), bb.strengths.rename(index=back).loc[names].to_numpy(),
                               atol=1e-8)


# --------------------------------------------------------------------------- inputs and errors

def test_from_matrix_checks_its_tables():
    with pytest.raises(ValueError, match="non-negative whole counts"):
        PairwiseCounts.from_matrix([[0, -1], [1, 0]])
    with pytest.raises(ValueError, match="square"):
        PairwiseCounts.from_matrix([[0, 1, 2], [1, 0, 2]])
    with pytest.raises(ValueError, match="counts disagree"):
        PairwiseCounts.from_matrix([[0, 3], [2, 0]], n_shared=4)
    with pytest.raises(ValueError, match="`methods`"):
        PairwiseCounts.from_matrix([[0, 3], [2, 0]], methods=["a", "a"])
    with pytest.raises(ValueError, match="`direction` must be one of"):
        PairwiseCounts.from_matrix([[0, 3], [2, 0]], direction="up")
    counts = PairwiseCounts.from_matrix([[0, 3], [2, 0]], n_shared=7, methods=["a", "b"])
    assert counts.n_equivalent.loc["a", "b"] == 2 and counts.n_shared.loc["b", "a"] == 7
    labelled = pd.DataFrame([[0, 2], [3, 0]], index=["b", "a"], columns=["b", "a"])
    assert PairwiseCounts.from_matrix(labelled).wins.loc["a", "b"] == 3


def test_bad_arguments_name_themselves():
    scores = np.array([[0.9, 0.8], [0.7, 0.6]])
    with pytest.raises(ValueError, match="`adjust` must be None or one of"):
        pairwise_superiority(scores, "higher_is_better", rope=0.0, adjust="fdr")
    with pytest.raises(ValueError, match="need not be transitive"):
        pairwise_superiority(scores, "higher_is_better", rope=0.0, adjust="shaffer")
    assert quiet(pairwise_superiority, scores, "higher_is_better", rope=0.0, adjust="Holm_Bonferroni").adjust == "holm"
    with pytest.raises(ValueError, match="`alpha` must lie in"):
        pairwise_superiority(scores, "higher_is_better", rope=0.0, alpha=1.5)
    with pytest.raises(ValueError, match="`rope`"):
        pairwise_superiority(scores, "higher_is_better", rope=-0.1)
    with pytest.raises(ValueError, match="`rope` is None"):
        pairwise_superiority(scores, "higher_is_better")
    counts = PairwiseCounts.from_matrix([[0, 3], [2, 0]])
    with pytest.raises(ValueError, match="`rope` cannot change it"):
        pairwise_superiority(counts, rope=0.1)
    with pytest.raises(TypeError, match="`report` must be"):
        pairwise_transitivity(scores)
    with pytest.raises(ValueError, match="`ties` must be one of"):
        bradley_terry(counts, ties="davidson")
    with pytest.raises(ValueError, match="`confidence_level` must lie in"):
        bradley_terry(counts, confidence_level=95)
    seeds = mcda.datasets.synthetic(n_datasets=4, n_methods=3, n_seeds=2, rng=0)
    with pytest.raises(ValueError, match="reduce_seeds"):
        marginal_means(seeds)


def test_results_read_well():
    report = quiet(pairwise_superiority, mcda.datasets.load("demsar2006"), adjust="holm")
    text = repr(report)
    assert "standing" in text and "holm" in text
    assert "circular triads: 5 of at most 8" in pairwise_transitivity(dog_counts()).summary()
    assert "Bradley–Terry" in repr(bradley_terry(report))
    assert list(bradley_terry(report).to_frame().columns) == ["method", "strength", "standard_error", "ci_low",
                                                              "ci_high", "worth"]
    assert "Marginal means" in repr(marginal_means(mcda.datasets.load("demsar2006")))


@FAST
@given(score_matrices(min_methods=2, max_methods=6), st.sampled_from([0.0, 0.01, 0.05]))
def test_numba_region_counts_kernel_agrees_with_a_plain_numpy_reference(values, rope):
    # a plain broadcast computation of the documented rule is the reference for the one-pass
    # kernel (mcda._core._kernels.counts) behind count_regions
    from mcda._core.numeric import EPS, SCORE_ULPS

    a = values[:, :, None]
    b = values[:, None, :]
    diff = a - b
    valid = ~np.isnan(diff)
    tol = SCORE_ULPS * EPS * np.maximum(np.maximum(np.abs(a), np.abs(b)), rope)
    within = valid & (np.abs(diff) <= rope + tol)
    expected = ((valid & ~within & (diff > 0)).sum(axis=0), within.sum(axis=0), valid.sum(axis=0))
    got = count_regions(values, rope)
    for e, g in zip(expected, got):
        np.testing.assert_array_equal(g, e)


@FAST
@given(score_matrices(min_methods=2, max_methods=6), st.sampled_from([0.0, 0.01, 0.05]))
def test_per_dataset_beyond_kernel_agrees_with_a_plain_numpy_reference(values, rope):
    # the same broadcast reference of the documented rule, kept per dataset (the outranking
    # views' indicator), and each dataset's indicator is that dataset's wins > 0
    from mcda._core.numeric import EPS, SCORE_ULPS

    a = values[:, :, None]
    b = values[:, None, :]
    diff = a - b
    tol = SCORE_ULPS * EPS * np.maximum(np.maximum(np.abs(a), np.abs(b)), rope)
    expected = ~np.isnan(diff) & ~(np.abs(diff) <= rope + tol) & (diff > 0)
    got = beyond_rope(values, rope)
    assert got.dtype == bool
    np.testing.assert_array_equal(got, expected)
    for d in range(values.shape[0]):
        np.testing.assert_array_equal(got[d], count_regions(values[d:d + 1], rope)[0] > 0)
