"""mcda.replicability: partial conjunction tests across datasets (Dror et al. 2017; Benjamini & Heller 2008).

Oracles: the formulas written out here (Bonferroni's (N − u + 1)·p_(u); Fisher's χ² through
``scipy.stats.combine_pvalues``), the definition of the partial conjunction p-value by brute force
(the largest combined p-value over every subset of N − u + 1 datasets), closed testing by
brute force over every intersection of the claims' nested hypotheses (for ``adjust="holm"``),
scipy's one-sided paired tests for the per-dataset p-values, and simulations of the count's
error control, P(k̂ > true count) ≤ α.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import mcda
from mcda.stats.replicability import _levels, count_with_effect, partial_conjunction_pvalues

# the example of the authors' code (github rtmdrr/replicability-analysis-NLP, README): six datasets' p-values
DROR_EXAMPLE = [0.168, 0.297, 0.357, 0.019, 0.218, 0.001]


def _table(p, a="A", b="B"):
    return pd.DataFrame({"dataset": [f"d{i}" for i in range(len(p))], "method_a": a, "method_b": b, "p_raw": p})


def _by_definition(p, u, how):
    """max over subsets S of N − u + 1 datasets of the combined p-value of "no effect on any of S"."""
    n = len(p)
    out = 0.0
    for subset in itertools.combinations(p, n - u + 1):
        if how == "bonferroni":
            combined = min(1.0, len(subset) * min(subset))
        else:
            combined = stats.combine_pvalues(subset, method="fisher").pvalue
        out = max(out, combined)
    return out


def test_the_authors_example_by_the_formulas():
    p = np.sort(DROR_EXAMPLE)  # 0.001, 0.019, 0.168, 0.218, 0.297, 0.357
    bonferroni = [min(1.0, (6 - u + 1) * p[u - 1]) for u in range(1, 7)]  # 0.006, 0.095, 0.672, ...
    fisher = [stats.combine_pvalues(p[u - 1:], method="fisher").pvalue for u in range(1, 7)]
    np.testing.assert_allclose(partial_conjunction_pvalues(DROR_EXAMPLE),
                               np.maximum.accumulate(bonferroni), rtol=1e-12)
    np.testing.assert_allclose(partial_conjunction_pvalues(DROR_EXAMPLE, method="conjunction-fisher"),
                               np.maximum.accumulate(fisher), rtol=1e-10)
    # k̂ at 0.05: Bonferroni 0.006 ≤ 0.05 < 0.095 gives 1; Fisher 0.00102, 0.0399 ≤ 0.05 < 0.196 gives 2
    bon = mcda.replicability(_table(DROR_EXAMPLE), method="bonferroni").to_frame().iloc[0]
    fis = mcda.replicability(_table(DROR_EXAMPLE), method="fisher").to_frame().iloc[0]
    assert (bon["n_replicated"], bon["n_identified"], bon["identified"]) == (1, 1, "d5")
    assert (fis["n_replicated"], fis["n_identified"], fis["identified"]) == (2, 1, "d5")  # Holm names 1 (p = 0.001)
    assert fis["level"] == 0.05  # one claim: no adjustment over claims


@pytest.mark.parametrize("how", ["bonferroni", "fisher"])
def test_partial_conjunction_equals_its_definition_by_brute_force(how):
    rng = np.random.default_rng(1)
    for n in (1, 2, 3, 5, 7):
        for _ in range(4):
            p = np.concatenate([rng.uniform(size=n - n // 2), rng.uniform(0, 0.02, size=n // 2)])
            expected = np.maximum.accumulate([_by_definition(p, u, how) for u in range(1, n + 1)])
            got = partial_conjunction_pvalues(p, method=f"conjunction-{how}")
            np.testing.assert_allclose(got, expected, rtol=1e-10)


def test_holm_count_equals_the_bonferroni_partial_conjunction_count():
    # Holm's step-down rejects p_(u) ≤ α/(N − u + 1) in turn: the Bonferroni k̂, written out independently
    rng = np.random.default_rng(2)
    for _ in range(50):
        p = np.concatenate([rng.uniform(size=6), rng.uniform(0, 0.01, size=rng.integers(0, 6))])
        holm = 0
        for i, value in enumerate(np.sort(p)):
            if value > 0.05 / (p.size - i):
                break
            holm += 1
        assert count_with_effect(p, 0.05) == holm
        assert holm == int((mcda.adjust_pvalues(p, method="holm") <= 0.05).sum())


def _closed_testing(pcs, alpha):
    """k̂ per claim by closed testing over every intersection ∩_{j∈S} H_j^{u_j}, Bonferroni local tests."""
    m = len(pcs)
    counts = []
    for j in range(m):
        count = 0
        for u in range(1, len(pcs[j]) + 1):
            rejected = True
            others = [i for i in range(m) if i != j]
            for size in range(0, m):
                for subset in itertools.combinations(others, size):
                    for levels in itertools.product(*[range(1, len(pcs[i]) + 1) for i in subset]):
                        for own in range(1, u + 1):
                            local = [pcs[j][own - 1]] + [pcs[i][lv - 1] for i, lv in zip(subset, levels)]
                            if min(local) > alpha / (len(subset) + 1):
                                rejected = False
                                break
                        if not rejected:
                            break
                    if not rejected:
                        break
                if not rejected:
                    break
            if not rejected:
                break
            count += 1
        counts.append(count)
    return counts


def test_holm_over_claims_equals_closed_testing_by_brute_force():
    rng = np.random.default_rng(3)
    checked_gain = False
    for trial in range(40):
        n = 4
        strength = rng.choice([0.0005, 0.004, 0.05], size=3)
        frames = []
        for j, (a, b) in enumerate([("A", "B"), ("A", "C"), ("B", "C")]):
            p = rng.uniform(0, strength[j], size=n) if trial % 2 else rng.uniform(size=n) * strength[j] * 4
            frames.append(_table(np.minimum(p, 1.0), a, b))
        table = pd.concat(frames, ignore_index=True)
        res = mcda.replicability(table, adjust="holm", alpha=0.05).to_frame()
        pcs = [partial_conjunction_pvalues(f["p_raw"].to_numpy()) for f in frames]
        assert res["n_replicated"].tolist() == _closed_testing(pcs, 0.05)
        bonf = mcda.replicability(table, adjust="bonferroni", alpha=0.05).to_frame()
        assert (res["n_replicated"] >= bonf["n_replicated"]).all()
        checked_gain |= bool((res["n_replicated"] > bonf["n_replicated"]).any())
    assert checked_gain  # the draws include a case where Holm over claims finds more than Bonferroni


def _simulate_overstatement(how, n_datasets, true_count, reps, rng, shift=4.0):
    """Share of replications whose k̂ exceeds the true count (nulls exactly at the boundary: uniform p)."""
    over = 0
    for _ in range(reps):
        z = rng.normal(size=n_datasets)
        z[:true_count] += shift
        p = stats.norm.sf(z)
        over += count_with_effect(p, 0.05, method=f"conjunction-{how}") > true_count
    return over / reps


@pytest.mark.parametrize("how", ["bonferroni", "fisher"])
def test_the_count_overstates_the_true_count_with_probability_at_most_alpha(how):
    rng = np.random.default_rng(4)
    reps = 3000
    rate = _simulate_overstatement(how, 10, 4, reps, rng)
    se = np.sqrt(0.05 * 0.95 / reps)
    assert rate <= 0.05 + 3 * se, rate
    # the same simulation can fail: counting the datasets with p ≤ 0.05 overstates about 1 − 0.95^6 ≈ 26 % of the time
    naive = 0
    for _ in range(500):
        z = rng.normal(size=10)
        z[:4] += 4.0
        naive += int((stats.norm.sf(z) <= 0.05).sum() > 4)
    assert naive / 500 > 0.15


def test_the_family_of_claims_overstates_any_count_with_probability_at_most_alpha():
    # three claims (as mcda.replicability forms them: partial conjunction sequences, Holm over the claims):
    # the first two have 3 real effects among 8 datasets, the third none
    rng = np.random.default_rng(5)
    reps, over = 3000, 0
    truth = (3, 3, 0)
    for _ in range(reps):
        pcs = []
        for true in truth:
            z = rng.normal(size=8)
            z[:true] += 5.0
            pcs.append(partial_conjunction_pvalues(stats.norm.sf(z)))
        levels = _levels(pcs, 0.05, "holm")
        over += any(int((pc <= level).sum()) > true for pc, level, true in zip(pcs, levels, truth))
    assert over / reps <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / reps), over / reps


def test_seeds_give_scipys_one_sided_paired_t_per_dataset():
    cube = mcda.datasets.synthetic(n_datasets=5, n_methods=3, n_seeds=8, effects=[0, 0.01, 0.02], rng=11)
    res = mcda.replicability(cube)
    assert res.test == "t" and res.n_comparisons == 6
    per = res.per_dataset
    for row in per.sample(8, random_state=0).itertuples(index=False):
        a = cube.mcda.sel(dataset=row.dataset, method=row.method_a).values
        b = cube.mcda.sel(dataset=row.dataset, method=row.method_b).values
        expected = stats.ttest_rel(a, b, alternative="greater").pvalue  # accuracy: higher is better
        assert row.p_raw == pytest.approx(expected, rel=1e-9)
        assert row.mean_diff == pytest.approx(np.mean(a - b), rel=1e-9)
    # every claim's k̂ is its own partial conjunction count at its level
    for row in res.to_frame().itertuples(index=False):
        p = per[(per.method_a == row.method_a) & (per.method_b == row.method_b)]["p_raw"].to_numpy()
        assert row.n_replicated == count_with_effect(p, row.level)


def test_unpaired_seeds_give_scipys_one_sided_welch_t_per_dataset():
    cube = mcda.datasets.synthetic(n_datasets=4, n_methods=3, n_seeds=6, effects=[0, 0.01, 0.02], rng=12)
    res = mcda.replicability(cube, paired=False)
    assert res.test == "welch"   # the result names the test that ran
    for row in res.per_dataset.itertuples(index=False):
        a = cube.mcda.sel(dataset=row.dataset, method=row.method_a).values
        b = cube.mcda.sel(dataset=row.dataset, method=row.method_b).values
        expected = stats.ttest_ind(a, b, equal_var=False, alternative="greater").pvalue  # higher is better
        assert row.p_raw == pytest.approx(expected, rel=1e-8)


def test_wilcoxon_over_seeds_gives_scipys_one_sided_p_on_the_favoured_side():
    cube = mcda.datasets.synthetic(n_datasets=4, n_methods=2, n_seeds=9, effects=[0, 0.02], noise_sd=0.01, rng=3)
    per = mcda.replicability(cube, test="wilcoxon").per_dataset
    for row in per.itertuples(index=False):
        d = cube.mcda.sel(dataset=row.dataset, method=row.method_a).values - cube.mcda.sel(dataset=row.dataset,
                                                                                      method=row.method_b).values
        if row.mean_diff > 0:
            assert row.p_raw == pytest.approx(stats.wilcoxon(d, alternative="greater").pvalue, rel=1e-9)


def test_a_lower_is_better_metric_turns_the_claims():
    cube = mcda.datasets.synthetic(n_datasets=6, n_methods=2, n_seeds=6, effects=[0, 0.05], noise_sd=0.005, rng=2)
    plain = cube.copy(data=1 - cube.values)
    plain.attrs = {}
    errors = mcda.score_cube(plain, metric="brier")
    high = mcda.replicability(cube).to_frame().set_index(["method_a", "method_b"])["n_replicated"]
    low = mcda.replicability(errors).to_frame().set_index(["method_a", "method_b"])["n_replicated"]
    assert high[("method_1", "method_0")] == 6 and low[("method_1", "method_0")] == 6


def test_a_table_with_two_sided_p_and_differences_reads_both_orders():
    table = pd.DataFrame({"dataset": ["x", "y", "z"], "method_a": "A", "method_b": "B",
                          "p_raw": [0.001, 0.002, 0.5], "mean_diff": [0.1, -0.2, 0.01]})
    res = mcda.replicability(table, "higher_is_better", alpha=0.1)
    per = res.per_dataset.set_index(["method_a", "method_b", "dataset"])["p_raw"]
    assert per[("A", "B", "x")] == 0.0005 and per[("B", "A", "x")] == 0.9995
    assert per[("B", "A", "y")] == 0.001
    frame = res.to_frame().set_index(["method_a", "method_b"])
    assert frame.loc[("A", "B"), "identified"] == "x" and frame.loc[("B", "A"), "identified"] == "y"


def test_control_keeps_only_its_claims():
    cube = mcda.datasets.synthetic(n_datasets=4, n_methods=4, n_seeds=5, rng=1)
    res = mcda.replicability(cube, control="method_2")
    assert res.n_comparisons == 6
    assert set(res.to_frame()["method_a"]) | set(res.to_frame()["method_b"]) >= {"method_2"}
    assert ((res.to_frame()["method_a"] == "method_2") | (res.to_frame()["method_b"] == "method_2")).all()


@pytest.mark.parametrize("kwargs, argument", [({"method": "simes"}, "method"), ({"adjust": "fdr-bh"}, "adjust"),
                                              ({"test": "t"}, "test"), ({"alpha": 1.5}, "alpha")])
def test_bad_arguments_name_themselves(kwargs, argument):
    with pytest.raises(mcda.McdaArgumentError) as raised:
        mcda.replicability(_table(DROR_EXAMPLE), **kwargs)
    assert raised.value.argument == argument


def test_bad_tables_and_cubes_without_seeds_are_refused():
    with pytest.raises(mcda.McdaArgumentError, match="lacks"):
        mcda.replicability(_table(DROR_EXAMPLE).drop(columns="method_b"))
    with pytest.raises(mcda.McdaArgumentError, match=r"\[0, 1\]"):
        mcda.replicability(_table([0.5, 1.5]))
    with pytest.raises(mcda.McdaArgumentError, match="direction"):
        mcda.replicability(_table([0.5, 0.1]).assign(mean_diff=[1.0, 2.0]))
    with pytest.raises(mcda.McdaArgumentError, match="seed"):
        mcda.replicability(mcda.datasets.load("demsar2006"))


def test_the_report_writes_replicability_and_the_meta_analysis_from_their_results():
    import warnings

    cube = mcda.datasets.synthetic(n_datasets=6, n_methods=3, n_seeds=6, effects=[0, 0.01, 0.03], rng=5)
    report = mcda.Report(cube, rng=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        overview, text = report.overview(), report.text()
    claims = mcda.replicability(cube).to_frame()
    best = claims.sort_values("n_replicated", ascending=False, kind="stable").iloc[0]
    line = f"{best.method_a} beats {best.method_b} on at least {best.n_replicated} of {best.n_datasets} datasets"
    assert line in overview and "@dror2017" in text and "@benjamini2008" in text and "@viechtbauer2005" in text
    meta = mcda.meta_analysis(cube).to_frame().iloc[0]
    assert f"{meta.mean_diff:.4g} [{meta.ci_low:.4g}, {meta.ci_high:.4g}]" in overview
    plain = mcda.Report(mcda.datasets.load("demsar2006"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert "replicability and the meta-analysis read the per-dataset tests over seeds" in plain.overview()


def test_a_corrected_t_over_folds_gives_one_sided_corrected_p_values():
    cube = mcda.datasets.synthetic(n_datasets=4, n_methods=2, n_seeds=20, effects=[0, 0.01], rng=9)
    cube.attrs["cv_runs"] = 2   # 2 runs of 10-fold cross-validation
    per = mcda.replicability(cube, test="corrected-repeated-cv-t").per_dataset
    for row in per.itertuples(index=False):
        d = (cube.mcda.sel(dataset=row.dataset, method=row.method_a).values
             - cube.mcda.sel(dataset=row.dataset, method=row.method_b).values)
        t = d.mean() / (d.std(ddof=1) * np.sqrt(1 / 20 + 1 / 9))   # Bouckaert & Frank's corrected t, by hand
        assert row.p_raw == pytest.approx(stats.t.sf(t, 19), rel=1e-8)
