"""Over items: every statistic against its named oracle (statsmodels, scipy) on fresh data."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.proportion import proportion_confint

import mcda


def _tidy(n_items=60, n_clusters=15, methods=(("a", 0.4), ("b", 0.0), ("c", -0.3)), binary=True, rng=0,
          datasets=("qa",), shuffle=False):
    """Per-item scores with a shared item difficulty per cluster (correlated within a cluster)."""
    gen = np.random.default_rng(rng)
    rows = []
    for dataset in datasets:
        cluster = np.repeat(np.arange(n_clusters), n_items // n_clusters)
        if shuffle:
            cluster = gen.permutation(cluster)
        difficulty = gen.normal(0.0, 1.0, n_clusters)[cluster] + gen.normal(0.0, 0.5, n_items)
        for method, skill in methods:
            latent = skill + difficulty + gen.normal(0.0, 1.0, n_items)
            score = (latent > 0).astype(float) if binary else latent
            prefix = "" if dataset == datasets[0] else f"{dataset}-"  # benchmarks have their own items
            rows += [{"dataset": dataset, "method": method, "item": f"{prefix}q{i}", "cluster": f"{prefix}p{cluster[i]}",
                      "score": float(score[i])} for i in range(n_items)]
    return pd.DataFrame(rows)


def _column(frame, method):
    part = frame[frame["method"] == method]
    return part["score"].to_numpy(), pd.factorize(part["cluster"])[0]


# --------------------------------------------------------------------------- data

def test_a_tidy_table_with_a_question_column_becomes_an_item_cube_with_clusters():
    frame = _tidy().rename(columns={"item": "question"})
    cube = mcda.score_cube(frame, metric="exact_match")
    assert cube.dims == ("dataset", "method", "item")
    assert cube.sizes["item"] == 60 and cube.coords["cluster"].dims == ("item",)
    assert cube.coords["cluster"].values[0] == "p0"


def test_the_columns_mapping_names_the_item_and_cluster_columns():
    frame = _tidy().rename(columns={"item": "qid", "cluster": "passage"})
    cube = mcda.score_cube(frame, metric="exact_match", columns={"item": "qid", "cluster": "passage"})
    assert cube.sizes["item"] == 60 and set(cube.coords["cluster"].values) == {f"p{c}" for c in range(15)}


def test_an_id_column_is_an_item_only_when_the_cells_repeat_without_it():
    frame = pd.DataFrame({"dataset": ["d", "d"], "method": ["a", "b"], "score": [0.5, 0.6], "id": [1, 2]})
    assert mcda.score_cube(frame, direction="higher_is_better").dims == ("dataset", "method")


def test_a_sample_column_adds_the_sample_dim_after_item():
    frame = _tidy(n_items=8, n_clusters=4)
    frame = pd.concat([frame.assign(sample=s) for s in range(3)], ignore_index=True)
    cube = mcda.score_cube(frame, metric="exact_match")
    assert cube.dims == ("dataset", "method", "item", "sample")


def test_an_item_in_two_clusters_is_refused_naming_it():
    frame = _tidy(n_items=8, n_clusters=4)
    frame.loc[(frame["item"] == "q3") & (frame["method"] == "b"), "cluster"] = "other"
    with pytest.raises(mcda.McdaArgumentError, match="q3"):
        mcda.score_cube(frame, metric="exact_match")


def test_the_item_cards_say_what_a_score_is():
    assert mcda.get_card("pass_at_1").name == "exact_match" and mcda.get_card("exact_match").outcome == "binary"
    judge = mcda.get_card("judge_score")
    assert (judge.outcome, judge.lower, judge.upper) == ("bounded", 1.0, 10.0)
    assert mcda.get_card("log_loss").outcome == "continuous" and mcda.get_card("accuracy").outcome == "bounded"


# --------------------------------------------------------------------------- per model

def test_item_means_standard_errors_and_intervals_match_statsmodels():
    frame = _tidy(rng=1)
    table = mcda.item_means(frame, metric="exact_match").to_frame().set_index("method")
    for method in "abc":
        y, groups = _column(frame, method)
        ones = np.ones(y.size)
        # oracle: statsmodels OLS on a constant, nonrobust (CLT) and cluster-robust (CR1, t with G - 1 df)
        naive = sm.OLS(y, ones).fit()
        clustered = sm.OLS(y, ones).fit(cov_type="cluster", cov_kwds={"groups": groups}, use_t=True)
        row = table.loc[method]
        np.testing.assert_allclose(row["mean"], naive.params[0], rtol=1e-12)
        np.testing.assert_allclose(row["standard_error"], naive.bse[0], rtol=1e-10)
        np.testing.assert_allclose(row["standard_error_clustered"], clustered.bse[0], rtol=1e-10)
        np.testing.assert_allclose([row["ci_low"], row["ci_high"]], clustered.conf_int()[0], rtol=1e-10)
        # oracle: statsmodels proportion_confint, Wilson and Clopper-Pearson ("beta")
        np.testing.assert_allclose([row["wilson_low"], row["wilson_high"]],
                                   proportion_confint(y.sum(), y.size, method="wilson"), rtol=1e-10)
        np.testing.assert_allclose([row["exact_low"], row["exact_high"]],
                                   proportion_confint(y.sum(), y.size, method="beta"), rtol=1e-10)


def test_miller_uncorrected_clustered_se_is_statsmodels_without_its_correction():
    # oracle: statsmodels cov_type="cluster" with use_correction=False is Miller's eq. without G/(G-1)
    frame = _tidy(rng=2, binary=False)
    row = mcda.item_means(frame, direction="higher_is_better").to_frame().iloc[0]
    y, groups = _column(frame, "a")
    raw = sm.OLS(y, np.ones(y.size)).fit(cov_type="cluster", cov_kwds={"groups": groups, "use_correction": False})
    g = len(np.unique(groups))
    np.testing.assert_allclose(row["standard_error_clustered"] ** 2 * (g - 1) / g, raw.bse[0] ** 2, rtol=1e-10)


def test_without_clusters_the_interval_is_the_t_interval_of_the_items():
    frame = _tidy(rng=3, binary=False).drop(columns="cluster")
    row = mcda.item_means(frame, direction="higher_is_better", confidence_level=0.9).to_frame().iloc[0]
    y, _ = _column(frame.assign(cluster="x"), "a")
    # oracle: scipy's t interval of a mean
    low, high = stats.t.interval(0.9, y.size - 1, loc=y.mean(), scale=stats.sem(y))
    np.testing.assert_allclose([row["ci_low"], row["ci_high"]], [low, high], rtol=1e-10)
    assert np.isnan(row["standard_error_clustered"]) and np.isnan(row["wilson_low"])


def test_within_item_variance_is_the_mean_variance_of_an_items_answers():
    gen = np.random.default_rng(4)
    values = gen.normal(size=(1, 2, 10, 4))
    values[0, 1, 3, 1:] = np.nan  # one answer only: no within variance for that item
    cube = mcda.score_cube(pd.DataFrame(
        [{"dataset": "d", "method": m, "item": i, "sample": s, "score": values[0, j, i, s]}
         for j, m in enumerate("ab") for i in range(10) for s in range(4)]).dropna(), direction="higher_is_better")
    table = mcda.item_means(cube).to_frame()
    # oracle: numpy, item by item
    item_scores = np.nanmean(values, axis=3)
    within_b = np.nanvar(values[0, 1][[i for i in range(10) if i != 3]], axis=1, ddof=1).mean()
    np.testing.assert_allclose(table["mean"], item_scores[0].mean(axis=1), rtol=1e-12)
    np.testing.assert_allclose(table["within_item_variance"], [values[0, 0].var(axis=1, ddof=1).mean(), within_b])
    np.testing.assert_allclose(table["samples_per_item"], [4.0, 37 / 10])


def test_missing_items_are_counted_and_named():
    frame = _tidy(rng=5)
    frame = frame[~((frame["method"] == "b") & frame["item"].isin(["q7", "q9"]))]
    res = mcda.item_means(frame, metric="exact_match")
    row = res.to_frame().set_index("method").loc["b"]
    assert (row["n_items"], row["n_missing"]) == (58, 2)
    assert res.missing_items.to_dict("records") == [{"dataset": "qa", "method": "b", "n_missing": 2,
                                                     "first_missing": "q7, q9"}]
    pairs = mcda.paired_items(frame, metric="exact_match").to_frame().set_index(["method_a", "method_b"])
    assert pairs.loc[("a", "b"), "n_items"] == 58 and pairs.loc[("a", "b"), "n_unpaired"] == 2
    assert pairs.loc[("a", "c"), "n_unpaired"] == 0


# --------------------------------------------------------------------------- per pair

def test_paired_items_without_clusters_is_scipys_paired_t_test():
    frame = _tidy(rng=6, binary=False).drop(columns="cluster")
    res = mcda.paired_items(frame, direction="higher_is_better", adjust=None)
    table = res.to_frame().set_index(["method_a", "method_b"])
    for a, b in [("a", "b"), ("a", "c"), ("b", "c")]:
        x, _ = _column(frame.assign(cluster="x"), a)
        y, _ = _column(frame.assign(cluster="x"), b)
        expected = stats.ttest_rel(x, y)  # oracle: scipy
        row = table.loc[(a, b)]
        np.testing.assert_allclose([row["statistic"], row["p_raw"]], [expected.statistic, expected.pvalue], rtol=1e-9)
        np.testing.assert_allclose([row["ci_low"], row["ci_high"]], expected.confidence_interval(), rtol=1e-9)
        np.testing.assert_allclose(row["correlation"], stats.pearsonr(x, y).statistic, rtol=1e-9)


def test_paired_items_clustered_matches_statsmodels_and_holm():
    frame = _tidy(rng=7, binary=False, shuffle=True)
    res = mcda.paired_items(frame, direction="higher_is_better")
    table = res.to_frame().set_index(["method_a", "method_b"])
    raw = []
    for a, b in [("a", "b"), ("a", "c"), ("b", "c")]:
        x, groups = _column(frame, a)
        y, _ = _column(frame, b)
        # oracle: statsmodels OLS of the differences on a constant, cluster-robust, t with G - 1 df
        fit = sm.OLS(x - y, np.ones(x.size)).fit(cov_type="cluster", cov_kwds={"groups": groups}, use_t=True)
        row = table.loc[(a, b)]
        np.testing.assert_allclose(row["standard_error_clustered"], fit.bse[0], rtol=1e-9)
        np.testing.assert_allclose(row["p_raw"], fit.pvalues[0], rtol=1e-9)
        np.testing.assert_allclose([row["ci_low"], row["ci_high"]], fit.conf_int()[0], rtol=1e-9)
        raw.append(fit.pvalues[0])
    from statsmodels.stats.multitest import multipletests

    np.testing.assert_allclose(table["p_adjusted"], multipletests(raw, method="holm")[1], rtol=1e-9)


@pytest.mark.parametrize("test", ["mcnemar-exact", "mcnemar-mid-p", "mcnemar-asymptotic"])
def test_mcnemar_matches_statsmodels_and_the_mid_p_formula(test):
    frame = _tidy(n_items=80, n_clusters=80, rng=8)
    table = mcda.paired_items(frame, metric="exact_match", test=test, adjust=None).to_frame()
    for row in table.itertuples():
        x, _ = _column(frame, row.method_a)
        y, _ = _column(frame, row.method_b)
        a_only, b_only = int(((x == 1) & (y == 0)).sum()), int(((x == 0) & (y == 1)).sum())
        assert (row.n_a_only, row.n_b_only) == (a_only, b_only)
        counts = [[((x == 1) & (y == 1)).sum(), a_only], [b_only, ((x == 0) & (y == 0)).sum()]]
        if test == "mcnemar-exact":  # oracle: statsmodels mcnemar, exact binomial
            expected = mcnemar(counts, exact=True)
        elif test == "mcnemar-asymptotic":  # oracle: statsmodels, chi-squared without continuity correction
            expected = mcnemar(counts, exact=False, correction=False)
        else:  # oracle: the mid-p formula (Fagerland et al. 2013, eq. 3) with scipy's binomial
            n, low = a_only + b_only, min(a_only, b_only)
            expected = type("R", (), {"statistic": low, "pvalue": 2 * stats.binom.cdf(low, n, 0.5)
                                      - stats.binom.pmf(low, n, 0.5)})
        np.testing.assert_allclose([row.statistic, row.p_raw], [expected.statistic, expected.pvalue], rtol=1e-10)


def test_every_spelling_of_a_pair_test_over_items_dispatches():
    from mcda.stats.items.paired import PAIR_TESTS
    from mcda.stats.procedures import PROCEDURES

    frame = _tidy(rng=9)
    assert PAIR_TESTS == ("paired-items-t", "mcnemar-exact", "mcnemar-mid-p", "mcnemar-asymptotic")
    for test in PAIR_TESTS:
        direct = mcda.paired_items(frame, metric="exact_match", test=test)
        for spelling in (test, *PROCEDURES[test].aliases, test.upper()):
            got = mcda.paired_items(frame, metric="exact_match", test=spelling)
            assert got.test == test
            np.testing.assert_array_equal(got.table["p_adjusted"], direct.table["p_adjusted"])


def test_mde_is_the_z_formula_on_the_standard_error():
    frame = _tidy(rng=10)
    row = mcda.paired_items(frame, metric="exact_match", alpha=0.1, power=0.9).to_frame().iloc[0]
    # oracle: (z_{1-alpha/2} + z_power) * SE with scipy's normal quantiles
    expected = (stats.norm.ppf(0.95) + stats.norm.ppf(0.9)) * row["standard_error_clustered"]
    np.testing.assert_allclose(row["mde"], expected, rtol=1e-12)


def test_a_control_keeps_its_pairs_and_a_lower_is_better_metric_keeps_its_units():
    frame = _tidy(rng=11, binary=False, methods=(("a", 0.0), ("b", 1.0), ("c", 0.5)))
    res = mcda.paired_items(frame, direction="lower_is_better", control="b")
    assert [tuple(p) for p in res.table[["method_a", "method_b"]].to_numpy()] == [("a", "b"), ("b", "c")]
    row = res.table.iloc[0]
    assert row["mean_diff"] < 0 and (not row["significant"] or row["superior"] == "a")


# --------------------------------------------------------------------------- across datasets

def test_reduce_items_gives_a_dataset_cube_that_friedman_reads():
    frame = _tidy(datasets=("qa", "code", "math", "law"), rng=12)
    cube = mcda.reduce_items(frame, metric="exact_match")
    assert cube.dims == ("dataset", "method")
    means = mcda.item_means(frame, metric="exact_match").to_frame()
    np.testing.assert_allclose(cube.values.ravel(), means["mean"])
    np.testing.assert_allclose(cube.coords["standard_error"].values.ravel(), means["standard_error_clustered"])
    # oracle: scipy's Friedman test on the per-dataset means
    expected = stats.friedmanchisquare(*cube.values.T)
    np.testing.assert_allclose(mcda.friedman_test(cube).statistic_tied, expected.statistic, rtol=1e-10)


def test_a_function_over_datasets_refuses_an_item_cube_and_names_reduce_items():
    cube = mcda.score_cube(_tidy(), metric="exact_match")
    with pytest.raises(mcda.McdaArgumentError, match="reduce_items"):
        mcda.friedman_test(cube)


# --------------------------------------------------------------------------- scale

def test_a_lazy_cube_chunked_along_items_gives_the_in_memory_results():
    frame = _tidy(n_items=120, n_clusters=30, rng=13, shuffle=True, datasets=("qa", "code"))
    frame = frame[~((frame["method"] == "c") & frame["item"].isin(["q5", "q77"]))]
    cube = mcda.score_cube(frame, metric="exact_match")
    lazy = cube.chunk({"item": 17})
    for run in (lambda c: mcda.item_means(c).to_frame(),
                lambda c: mcda.paired_items(c).to_frame(),
                lambda c: mcda.paired_items(c, test="mcnemar-mid-p").to_frame()):
        pd.testing.assert_frame_equal(run(lazy), run(cube), rtol=1e-9)
    assert mcda.item_means(lazy).missing_items.equals(mcda.item_means(cube).missing_items)


# --------------------------------------------------------------------------- k models

def test_item_omnibus_is_statsmodels_cochrans_q_for_binary_scores():
    from statsmodels.stats.contingency_tables import cochrans_q

    frame = _tidy(n_items=80, n_clusters=80, rng=14, methods=(("a", 0.5), ("b", 0.0), ("c", -0.2), ("d", 0.1)))
    row = mcda.item_omnibus(frame, metric="exact_match").to_frame().iloc[0]
    table = frame.pivot(index="item", columns="method", values="score").to_numpy()
    expected = cochrans_q(table)  # oracle: statsmodels
    assert row["test"] == "cochran-q" and row["df"] == expected.df
    np.testing.assert_allclose([row["statistic"], row["p_raw"]], [expected.statistic, expected.pvalue], rtol=1e-10)


def test_item_omnibus_is_scipys_friedman_over_items_for_continuous_scores():
    frame = _tidy(n_items=40, n_clusters=40, rng=15, binary=False)
    frame["score"] = frame["score"].round(1)  # ties within items
    frame = frame[~((frame["method"] == "b") & (frame["item"] == "q3"))]  # an item some model lacks
    res = mcda.item_omnibus(frame, direction="higher_is_better")
    row = res.to_frame().iloc[0]
    table = frame.pivot(index="item", columns="method", values="score").dropna().to_numpy()
    expected = stats.friedmanchisquare(*table.T)  # oracle: scipy, with its tie correction
    assert (row["test"], row["n_items"], row["n_excluded"]) == ("friedman-items", 39, 1)
    np.testing.assert_allclose([row["statistic"], row["p_raw"]], [expected.statistic, expected.pvalue], rtol=1e-10)
    # oracle: pandas' average ranks within each item (1 = best)
    ranks = pd.DataFrame(-table).rank(axis=1).mean().to_numpy()
    np.testing.assert_allclose(res.mean_ranks.to_numpy()[0], ranks, rtol=1e-12)


def test_the_leaderboard_groups_the_models_no_test_separates_from_the_best():
    frame = _tidy(n_items=200, n_clusters=50, rng=16, methods=(("a", 0.0), ("b", 1.5), ("c", 1.45), ("d", -1.0)))
    board = mcda.item_leaderboard(frame, metric="exact_match")
    table = board.to_frame()
    assert table["method"].tolist()[:2] in (["b", "c"], ["c", "b"])
    pairs = board.pairs.to_frame().set_index(["method_a", "method_b"])
    best = table["method"].iloc[0]
    for row in table.itertuples():  # group 1: the best and every model its test does not separate from it
        if row.method != best:
            key = tuple(sorted((best, row.method)))
            assert row.tied_with_best == (not pairs.loc[key, "significant"])
    assert table["rank"].iloc[1] == 1 and "1=" in board.summary()


# --------------------------------------------------------------------------- planning

def test_items_needed_reaches_its_power_in_simulation():
    # oracle: a Monte Carlo run of the paired t test (scipy's ttest_rel) at the planned size
    gen = np.random.default_rng(17)
    sd, delta, power = 1.0, 0.25, 0.8

    def pair(n):
        shared = gen.normal(size=n)
        return shared + delta + gen.normal(0, sd, n), shared + gen.normal(0, sd, n)

    a, b = pair(400)
    pilot = pd.DataFrame([{"dataset": "pilot", "method": m, "item": i, "score": float(v)}
                          for m, values in (("a", a), ("b", b)) for i, v in enumerate(values)])
    needed = int(mcda.items_needed(pilot, direction="higher_is_better", difference=delta, power=power)
                 .to_frame()["n_items_needed"].iloc[0])
    assert 200 < needed < 320  # 2 sd² (z_.975 + z_.8)² / delta² = 251 for the true variance
    hits = np.mean([stats.ttest_rel(*pair(needed)).pvalue < 0.05 for _ in range(300)])
    assert abs(hits - power) < 0.08


# --------------------------------------------------------------------------- coverage

def test_the_clustered_interval_covers_at_its_level_and_the_naive_one_does_not():
    # oracle: the true mean of the simulated population (0.5 by symmetry), 300 test sets of 40 clusters of 10
    gen = np.random.default_rng(18)
    n_clusters, size, reps = 40, 10, 300
    values = (gen.normal(size=(reps, n_clusters, 1)) * 1.0 + gen.normal(size=(reps, n_clusters, size)) > 0)
    values = values.reshape(reps, 1, n_clusters * size).astype(float)
    cube = mcda.score_cube(xr_cube(np.concatenate([values, 1.0 - values], axis=1), n_clusters, size),
                           metric="exact_match")
    table = mcda.item_means(cube).to_frame()
    table = table[table["method"] == "m0"]
    clustered = ((table["ci_low"] <= 0.5) & (0.5 <= table["ci_high"])).mean()
    naive = ((table["wilson_low"] <= 0.5) & (0.5 <= table["wilson_high"])).mean()
    assert abs(clustered - 0.95) < 0.035 and naive < 0.8


def xr_cube(values, n_clusters, size):
    import xarray as xr

    reps, k, n = values.shape
    return xr.DataArray(values, dims=("dataset", "method", "item"),
                        coords={"dataset": [f"set{r}" for r in range(reps)], "method": [f"m{j}" for j in range(k)],
                                "item": np.arange(n), "cluster": ("item", np.repeat(np.arange(n_clusters), size))})
