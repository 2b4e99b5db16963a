"""Seeds that do not pair: said loudly, and the unpaired alternative (Welch t, Mann-Whitney) matches scipy."""

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import mcda


def _unpaired_frame():
    rng = np.random.default_rng(4)
    rows = []
    for d in range(3):
        for m, effect in zip("abc", (0.0, 0.02, 0.04)):
            for s in range(6):
                seed = s + (100 if m == "c" else 0)  # method c was run with seeds 100-105
                rows.append((f"d{d}", m, seed, 0.8 + effect + rng.normal(0, 0.01)))
    return pd.DataFrame(rows, columns=["dataset", "method", "seed", "score"])


def test_differing_seed_labels_warn_and_are_noted_everywhere():
    cube = mcda.score_cube(_unpaired_frame(), metric="accuracy")
    with pytest.warns(mcda.UnpairedSeedsWarning, match="c has seeds 100, 101"):
        paired = mcda.paired_tests(cube)
    assert any("seed labels differ" in n for n in paired.notes) and "seed labels differ" in paired.summary()
    for view in (mcda.equivalence, mcda.power):
        with pytest.warns(mcda.UnpairedSeedsWarning):
            result = view(cube)
        assert any("seed labels differ" in n for n in result.notes)
        assert not any("paired=False" in n for n in result.notes)  # they have no unpaired form to point to
    with warnings.catch_warnings():
        warnings.simplefilter("error", mcda.UnpairedSeedsWarning)  # an interval per cell pairs nothing
        assert not any("seed labels differ" in n for n in mcda.summary(cube).notes)
    table = paired.to_frame()
    assert (table.loc[table["method_b"] == "c", "n_seeds"] == 0).all()


def test_unpaired_tests_match_scipy():
    frame = _unpaired_frame()
    cube = mcda.score_cube(frame, metric="accuracy")
    with pytest.warns(mcda.UnpairedSeedsWarning):
        welch = mcda.paired_tests(cube, paired=False).to_frame()
    with pytest.warns(mcda.UnpairedSeedsWarning):
        mwu = mcda.paired_tests(cube, method="wilcoxon", paired=False).to_frame()
    for row_w, row_m in zip(welch.itertuples(), mwu.itertuples()):
        a = frame[(frame.dataset == row_w.dataset) & (frame.method == row_w.method_a)]["score"].to_numpy()
        b = frame[(frame.dataset == row_w.dataset) & (frame.method == row_w.method_b)]["score"].to_numpy()
        ref = stats.ttest_ind(a, b, equal_var=False)
        assert row_w.statistic == pytest.approx(ref.statistic, rel=1e-12)
        assert row_w.p_raw == pytest.approx(ref.pvalue, rel=1e-12)
        assert row_w.mean_diff == pytest.approx(a.mean() - b.mean(), rel=1e-12)
        ref_u = stats.mannwhitneyu(a, b, alternative="two-sided")
        assert row_m.statistic == pytest.approx(ref_u.statistic) and row_m.p_raw == pytest.approx(ref_u.pvalue)
        assert (row_w.n_seeds_a, row_w.n_seeds_b) == (6, 6)
    assert welch["p_holm"].notna().all()


def test_paired_is_never_switched_silently():
    cube = mcda.score_cube(_unpaired_frame(), metric="accuracy")
    with pytest.warns(mcda.UnpairedSeedsWarning):
        result = mcda.paired_tests(cube)
    assert result.paired is True
    with pytest.raises(TypeError, match="`paired`"):
        mcda.paired_tests(cube, paired="no")
    report = mcda.Report(cube, rng=0)
    with pytest.warns(mcda.UnpairedSeedsWarning), pytest.warns(mcda.SmallSampleWarning, match="3 of 3 pairs"):
        text = report.overview()
    assert "seed labels differ" in text and "paired t tests" in text
    with pytest.warns(mcda.UnpairedSeedsWarning), pytest.warns(mcda.SmallSampleWarning, match="3 of 3 pairs"):
        assert "unpaired Welch t tests" in mcda.Report(cube, paired=False, rng=0).overview()


def _awkward_cube():
    """Rounded scores (ties), samples of 1-12 seeds (scipy's exact and normal Mann-Whitney p), constant methods."""
    rng = np.random.default_rng(1)
    values = 0.8 + rng.normal(0, 0.01, (5, 7, 12)).round(3)
    values[0, 0, :] = values[0, 1, :] = 0.5          # both constant and equal: no test
    values[1, 2, :], values[1, 3, :] = 0.7, 0.6        # both constant, different: Welch undefined
    values[2, 4, 3:] = np.nan                          # 3 seeds
    values[2, 5, 1:] = np.nan                          # 1 seed
    values[3, 6, :] = np.nan                           # none
    values[4, :, 8:] = np.nan                          # 8 seeds each: exact p where untied
    values[4, 0, :8] = np.arange(8) / 100.0            # untied against anything else
    return values


@pytest.mark.parametrize("test", ["t", "wilcoxon"])
def test_every_unpaired_row_is_scipy_on_its_own_two_samples(test):
    # the rows are computed together (grouped by sample sizes); each must equal scipy's call on that row alone
    values = _awkward_cube()
    cube = mcda.score_cube({f"d{d}": {f"m{m}": list(values[d, m]) for m in range(7)} for d in range(5)},
                           metric="accuracy")
    table = mcda.paired_tests(cube, paired=False, method=test).to_frame()
    assert len(table) == 5 * 21
    tested = 0
    for row in table.itertuples():
        d, a, b = int(row.dataset[1:]), int(row.method_a[1:]), int(row.method_b[1:])
        xa, xb = values[d, a][~np.isnan(values[d, a])], values[d, b][~np.isnan(values[d, b])]
        assert (row.n_seeds_a, row.n_seeds_b) == (len(xa), len(xb))
        if len(xa) and len(xb):
            assert row.mean_diff == xa.mean() - xb.mean()
        if row.reason:
            assert np.isnan(row.p_raw)
            continue
        tested += 1
        if test == "t":
            with warnings.catch_warnings():   # "precision loss" where one sample is constant (variance 0)
                warnings.simplefilter("ignore", RuntimeWarning)
                ref = stats.ttest_ind(xa, xb, equal_var=False)
            ci = ref.confidence_interval(confidence_level=0.95)
            assert (row.statistic, row.p_raw, row.ci_low, row.ci_high) == (ref.statistic, ref.pvalue, ci.low, ci.high)
        else:
            ref = stats.mannwhitneyu(xa, xb, alternative="two-sided")
            assert (row.statistic, row.p_raw) == (ref.statistic, ref.pvalue)
    reasons = set(table["reason"])
    assert "every seed of both methods has the same score: the test does not apply" in reasons
    assert any("0 seed(s)" in r for r in reasons) and any("1 seed(s)" in r for r in reasons)
    assert ("neither method varies over its seeds: Welch's t is undefined" in reasons) == (test == "t")
    assert tested > 80
