"""Every count and claim of Report.text() agrees with the results it describes, over a grid of designs (issue 37).

For each design (k methods, N datasets, no / strong / mixed effect, with or without a control,
complete or with missing cells under each ``missing=``, several registered post-hocs) the test
parses the numbers and claims of the Results and Reading paragraphs ("separated X of Y",
"decided X of Y pairs (B …, E …)", "p = …", "P = …", the named pairs) and checks each against
the Report's own result objects, and where cheap against an independent recomputation: the
sign tests' adjusted p-values from scipy's exact binomial test with Holm's step-down written
out here, the Bayesian decisions from the posterior probabilities and the threshold, mean ranks
and the Friedman statistic from scipy (complete designs), the post-hoc's count from its adjusted
p-values at α.
"""

from __future__ import annotations

import functools
import re

import numpy as np
import pytest
import xarray as xr
from scipy import stats

import mcda

pytestmark = pytest.mark.filterwarnings("ignore::mcda.McdaWarning")

PAIR = r"(method_\d+)"
NUM = r"([0-9.]+(?:e[-+]?\d+)?)"


def _scores(k, n, effect, seed, *, missing_cells=0, bibd=False, seeds=0):
    """An (n, k) score matrix in (0, 1): a dataset level, a method effect, noise; NaN where a cell is missing.

    With ``seeds``, an (n, k, seeds) array: each run the cell's score plus its own noise.
    """
    gen = np.random.default_rng(seed)
    level = gen.uniform(0.55, 0.75, size=(n, 1))
    if effect == "null":  # differences far inside the accuracy card's rope (0.01): practically equivalent
        shift, sd = np.zeros(k), 0.001
    elif effect == "noisy":  # no real difference, noise larger than the rope: mostly inconclusive
        shift, sd = np.zeros(k), 0.04
    elif effect == "tiny":  # a consistent order, every difference inside the rope: ranks separate, P(rope) high
        shift, sd = np.linspace(0.0, 0.002 * (k - 1), k), 0.0003
    elif effect == "strong":
        shift, sd = np.linspace(0.0, 0.03 * (k - 1), k), 0.01
    else:  # "mixed": the first half equal, the second half better by steps near the rope
        shift, sd = np.where(np.arange(k) < k // 2, 0.0, 0.012 * (np.arange(k) - k // 2 + 1)), 0.01
    scores = level + shift[None, :] + gen.normal(0.0, sd, size=(n, k))
    if bibd:  # every dataset misses one method, each method missing equally often: balanced incomplete
        scores[np.arange(n), np.arange(n) % k] = np.nan
    if missing_cells:  # one method lacks the first few datasets: unbalanced
        scores[:missing_cells, 1] = np.nan
    if seeds:
        scores = scores[:, :, None] + gen.normal(0.0, 0.01, size=(n, k, seeds))
    return scores


# (id, k, N, effect, settings, missing cells, balanced incomplete)
DESIGNS = [
    ("k3-N8-null", 3, 8, "null", {}, 0, False),
    ("k3-N8-strong", 3, 8, "strong", {"signed_rank": "always"}, 0, False),
    ("k3-N20-noisy-shaffer", 3, 20, "noisy", {"test": "shaffer"}, 0, False),
    ("k5-N20-strong-control-holm", 5, 20, "strong", {"control": "method_0", "test": "holm"}, 0, False),
    ("k5-N20-null-control-holm", 5, 20, "null", {"control": "method_0", "test": "holm"}, 0, False),
    ("k5-N8-strong-bergmann-hommel", 5, 8, "strong", {"test": "bergmann-hommel"}, 0, False),
    ("k5-N20-mixed-nemenyi", 5, 20, "mixed", {}, 0, False),
    ("k5-N20-strong-control-bonferroni-dunn", 5, 20, "strong", {"control": "method_4", "test": "bonferroni-dunn"},
     0, False),
    ("k8-N20-mixed-control-finner", 8, 20, "mixed", {"control": "method_0", "test": "finner"}, 0, False),
    ("k5-N20-tiny-nemenyi", 5, 20, "tiny", {}, 0, False),
    ("k3-N20-tiny-control-holm", 3, 20, "tiny", {"control": "method_2", "test": "holm"}, 0, False),
    ("k8-N20-null-nemenyi", 8, 20, "null", {}, 0, False),
    ("k8-N8-strong-control-li", 8, 8, "strong", {"control": "method_0", "test": "li"}, 0, False),
    ("k5-N20-strong-missing-methods", 5, 20, "strong", {"missing": "methods"}, 3, False),
    ("k5-N20-strong-missing-datasets", 5, 20, "strong", {"missing": "datasets"}, 3, False),
    ("k5-N20-strong-missing-available", 5, 20, "strong", {"missing": "available"}, 3, False),
    ("k5-N20-mixed-missing-available-control", 5, 20, "mixed",
     {"missing": "available", "control": "method_0", "test": "holm"}, 3, False),
    ("k3-N20-null-missing-available", 3, 20, "null", {"missing": "available"}, 4, False),
    ("k5-N20-strong-balanced-incomplete", 5, 20, "strong", {"missing": "available"}, 0, True),
    ("k5-N20-mixed-holm-all-pairs", 5, 20, "mixed", {"test": "holm"}, 0, False),
    ("k5-N8-strong-control-hommel", 5, 8, "strong", {"control": "method_0", "test": "hommel"}, 0, False),
    ("k8-N20-strong-control-rom", 8, 20, "strong", {"control": "method_7", "test": "rom"}, 0, False),
    ("k3-N8-strong-seeds-bonferroni", 3, 8, "strong", {"_seeds": 3, "adjust": "bonferroni"}, 0, False),
    ("k8-N20-noisy-missing-methods-control", 8, 20, "noisy",
     {"missing": "methods", "control": "method_0", "test": "hochberg"}, 2, False),
]


def _holm(p):
    """Holm's step-down adjusted p-values (Holm 1979), written out: max over the running products, capped at 1."""
    p = np.asarray(p, dtype=float)
    order = np.argsort(p, kind="stable")
    m = p.size
    adjusted = np.maximum.accumulate((m - np.arange(m)) * p[order])
    out = np.empty(m)
    out[order] = np.minimum(adjusted, 1.0)
    return out


def _sections(text):
    results = text.split("## Results")[1].split("## Reading the procedures together")[0]
    reading = text.split("## Reading the procedures together")[1].split("## References")[0]
    methods = text.split("## Methods")[1].split("## Results")[0]
    return methods.strip(), results.strip(), reading.strip()


def _close(printed: str, value: float, decimals: int) -> bool:
    return abs(float(printed) - value) <= 0.5 * 10.0 ** -decimals + 1e-12


def _p_matches(printed: str, value: float) -> bool:
    """A printed ``p = …`` (3 decimals, or 2 significant digits below 0.001) against the value."""
    x = float(printed)
    if value < 0.001:
        return abs(x - value) <= 0.051 * value
    return _close(printed, value, 3)


@functools.lru_cache(maxsize=None)
def _build(index: int):
    name, k, n, effect, settings, missing_cells, bibd = DESIGNS[index]
    settings = dict(settings)
    seeds = settings.pop("_seeds", 0)
    scores = _scores(k, n, effect, seed=len(name), missing_cells=missing_cells, bibd=bibd, seeds=seeds)
    if seeds:
        scores = xr.DataArray(scores, dims=("dataset", "method", "seed"))
    cube = mcda.score_cube(scores, metric="accuracy")
    report = mcda.Report(cube, **{"rng": 0, "signed_rank": "never", **settings})
    text = report.text(max_pairs=100, references=False)
    # the Markdown escapes its labels (method\_0); CommonMark's backslash escapes undone to read the names
    return name, np.asarray(scores), report, re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text)


@pytest.fixture(scope="module", params=range(len(DESIGNS)), ids=[d[0] for d in DESIGNS])
def design(request):
    return _build(request.param)


def test_the_grid_reaches_every_kind_of_sentence():
    """Each reading of the procedures (and each checked phrase) occurs in some design, so the checks run."""
    texts = [_build(i)[3] for i in range(len(DESIGNS))]
    readings = [_sections(t)[2] for t in texts]
    for phrase in ("does not separate", "by mean rank, but the Bayesian sign test", "it decides the two practically "
                   "equivalent", "agree on the", "the only pairs it tests", "not among the", "none as one method "
                   "better", "the omnibus test does not reject at", "and the pairwise sign test (Holm-adjusted p",
                   "and the pairwise sign test (Bonferroni-adjusted p", "in the comparisons against the control"):
        assert any(phrase.lower() in r.lower() for r in readings), phrase
    assert any("Within datasets" in t for t in texts) and any("signed-rank test decided" in t for t in texts)
    assert {_build(i)[2].compare().design for i in range(len(DESIGNS))} == {"complete", "balanced incomplete",
                                                                           "unbalanced incomplete"}


def test_methods_counts(design):
    _, scores, report, text = design
    methods, _, _ = _sections(text)
    k, n = scores.shape[1], scores.shape[0]
    if scores.ndim == 3:
        scores = scores.mean(axis=2)
    assert methods.startswith(f"We compared {k} methods on {n} datasets")
    n_missing = int(np.isnan(scores).sum())
    match = re.search(r"(\d+) \(dataset, method\) cells? (?:have|has) no result", methods)
    assert (int(match.group(1)) if match else 0) == n_missing
    threshold = report.bayesian().threshold
    assert f"a pair is decided when one probability reaches {threshold:g}." in methods


def test_omnibus_and_mean_ranks(design):
    _, scores, report, text = design
    if scores.ndim == 3:  # the report reduces the seeds by their mean
        scores = scores.mean(axis=2)
    _, results, _ = _sections(text)
    comparison = report.compare()
    f = comparison.friedman
    verb = re.search(r"(rejected|did not reject) equal (?:mean )?ranks", results).group(1)
    assert (verb == "rejected") == bool(f.rejected)
    p_values = re.findall(r"p = " + NUM, results.split("Mean ranks")[0])
    assert len(p_values) == (1 if comparison.design == "unbalanced incomplete" else 2)
    assert _p_matches(p_values[0], f.pvalue)
    if len(p_values) == 2:
        assert _p_matches(p_values[1], f.f_pvalue)
        assert (f.f_pvalue <= comparison.alpha) == bool(f.rejected)  # the F form decides
    printed = dict(re.findall(PAIR + r" (\d+\.\d\d)", results.split("Mean ranks (1 = best): ")[1].split(". ")[0]))
    assert set(printed) == set(map(str, comparison.mean_ranks.index))
    for m, r in printed.items():
        assert _close(r, float(comparison.mean_ranks[m]), 2)
    if comparison.design == "complete":  # independent: scipy's ranks on the datasets and methods tested
        methods = [int(m.split("_")[1]) for m in comparison.mean_ranks.index]
        block = scores[:, methods]
        block = block[~np.isnan(block).any(axis=1)]
        assert comparison.n_datasets == block.shape[0]
        ranks = stats.rankdata(-block, axis=1).mean(axis=0)
        for m, r in zip(comparison.mean_ranks.index, ranks):
            assert _close(printed[str(m)], r, 2)
        chi2 = re.search(r"χ²_F\((\d+)\) = ([0-9.]+)", results)
        reference = stats.friedmanchisquare(*block.T)  # no ties in continuous scores: no correction to differ
        assert int(chi2.group(1)) == len(methods) - 1 and _close(chi2.group(2), reference.statistic, 2)
        assert _p_matches(p_values[0], reference.pvalue)


def test_posthoc_counts_and_pairs(design):
    _, _, report, text = design
    _, results, reading = _sections(text)
    comparison = report.compare()
    match = re.search(r"The post-hoc test separated (\d+) of (\d+) comparisons(?: against " + PAIR + r")?", results)
    if comparison.posthoc is None:
        assert match is None
        assert ("No difference between methods may be claimed" in results) != bool(comparison.friedman.rejected)
        assert "separates" not in reading or "sign tests separate" in reading
        return
    decisions = comparison.pair_decisions()
    significant = decisions["significant"].astype(bool)
    assert int(match.group(1)) == int(significant.sum())
    assert int(match.group(2)) == len(decisions)
    assert match.group(3) == comparison.control
    # independent of the decision column: the adjusted p-values at alpha
    assert int(match.group(1)) == int((decisions["p_adjusted"] <= comparison.alpha).sum())
    if comparison.control is not None:  # only the control's pairs were tested
        assert all(comparison.control in (r.method_a, r.method_b) for r in decisions.itertuples(index=False))
    listed = re.findall(PAIR + r" ranks better than " + PAIR, results)
    expected = {(r.better, r.method_b if r.better == r.method_a else r.method_a)
                for r in decisions[significant].itertuples(index=False)}
    assert set(listed) == expected
    ranks = comparison.mean_ranks
    assert all(ranks[a] < ranks[b] for a, b in listed)  # the better side has the better (lower) mean rank


def test_sign_tests(design):
    _, _, report, text = design
    _, results, reading = _sections(text)
    table = report.superiority().to_frame()
    match = re.search(r"The pairwise sign tests found (\d+) of (\d+) pairs significantly different", results)
    significant = table["superior"].notna()
    assert int(match.group(1)) == int(significant.sum()) and int(match.group(2)) == len(table)
    # independent: scipy's exact two-sided binomial test on the decisive datasets, Holm written out here
    # (a pair with no decisive dataset has no test: NaN, and Holm runs over the pairs tested)
    raw = np.array([stats.binomtest(int(r.wins_a), int(r.wins_a + r.wins_b)).pvalue if r.wins_a + r.wins_b else np.nan
                    for r in table.itertuples(index=False)])
    adjusted = np.full(raw.size, np.nan)
    tested = raw[~np.isnan(raw)]
    adjusted[~np.isnan(raw)] = (_holm(tested) if report.adjust == "holm" else
                                np.minimum(tested * tested.size, 1.0))  # Bonferroni
    np.testing.assert_allclose(table["p_adjusted"].to_numpy(dtype=float), adjusted, rtol=1e-9)
    assert int(match.group(1)) == int((np.nan_to_num(adjusted, nan=1.0) <= report.alpha).sum())
    lookup = {}
    for r, p in zip(table.itertuples(index=False), adjusted):
        lookup[(r.method_a, r.method_b)] = lookup[(r.method_b, r.method_a)] = p
    for a, b, p in re.findall(r"that " + PAIR + r" is better than " + PAIR + r" by more than the rope \(±[0-9.]+\), "
                              r"and the pairwise sign test \((?:Holm|Bonferroni)-adjusted p = " + NUM + r"\)", reading):
        assert _p_matches(p, lookup[(a, b)]) and lookup[(a, b)] <= report.alpha


def _bayes(report):
    frame = report.bayesian().to_frame()
    threshold = report.bayesian().threshold
    probs = frame[["prob_a_better", "prob_equivalent", "prob_b_better"]].to_numpy(dtype=float)
    # independent of the label column: the region whose probability reaches the threshold
    region = np.where(np.nan_to_num(probs, nan=0.0) >= threshold, 1, 0)
    better, equivalent = {}, {}
    for r, row in zip(frame.itertuples(index=False), region):
        if row[0]:
            better[(r.method_a, r.method_b)] = r.prob_a_better
        elif row[2]:
            better[(r.method_b, r.method_a)] = r.prob_b_better
        elif row[1]:
            equivalent[frozenset((r.method_a, r.method_b))] = r.prob_equivalent
    return frame, better, equivalent


def test_bayesian_decisions_one_meaning(design):
    _, _, report, text = design
    _, results, reading = _sections(text)
    frame, better, equivalent = _bayes(report)
    labels = frame["label"].astype(str)
    assert int(labels.isin(["a_better", "b_better"]).sum()) == len(better)
    assert int((labels == "equivalent").sum()) == len(equivalent)
    counts = r"(\d+) of (\d+) pairs \((\d+) with one method better, (\d+) practically equivalent\)"
    expected = (len(better) + len(equivalent), len(frame), len(better), len(equivalent))
    said = re.findall(r"The Bayesian sign test decided " + counts, results)
    assert [tuple(map(int, s)) for s in said] == [expected]
    signed = re.findall(r"The Bayesian signed-rank test decided " + counts, results)
    if report.signed_rank_skipped():
        assert not signed
    else:  # the same meaning of "decided", read from the signed-rank result's probabilities
        other = report.bayesian_signed_rank()
        probs = other.to_frame()[["prob_a_better", "prob_equivalent", "prob_b_better"]].to_numpy(dtype=float)
        reached = np.nan_to_num(probs, nan=0.0) >= other.threshold
        n_better, n_equivalent = int((reached[:, 0] | reached[:, 2]).sum()), int(reached[:, 1].sum())
        assert [tuple(map(int, s)) for s in signed] == [(n_better + n_equivalent, len(probs), n_better, n_equivalent)]
    for s in re.findall(r"decides " + counts, reading):  # the reading paragraph counts the same decisions
        assert tuple(map(int, s)) == expected
    assert ("no pair is decided" not in reading) or not expected[0]
    assert {float(r) for r in re.findall(r"±([0-9.]+)", reading)} <= {report.bayesian().rope}
    if "none as one method better" in reading:
        assert not better
    sign_part = results.split("The Bayesian sign test decided")[1].split("The Bayesian signed-rank test")[0]
    bayes_listed = re.findall(PAIR + r" better than " + PAIR + r" \(P = ([0-9.]+)\)", sign_part)
    assert {(a, b) for a, b, _ in bayes_listed} == set(better)
    assert all(_close(p, better[(a, b)], 3) for a, b, p in bayes_listed)
    eq_listed = re.findall(PAIR + r" and " + PAIR + r" practically equivalent \(P = ([0-9.]+)\)", sign_part)
    assert {frozenset((a, b)) for a, b, _ in eq_listed} == set(equivalent)
    for p, a, b in re.findall(r"the Bayesian sign test's P = ([0-9.]+) that " + PAIR + r" is better than " + PAIR,
                              reading):
        assert (a, b) in better and _close(p, better[(a, b)], 3)


def test_reading_speaks_of_the_tested_family(design):
    _, _, report, text = design
    _, _, reading = _sections(text)
    comparison = report.compare()
    _, better, equivalent = _bayes(report)
    if comparison.posthoc is None:
        return
    decisions = comparison.pair_decisions()
    tested = {frozenset((r.method_a, r.method_b)) for r in decisions.itertuples(index=False)}
    separated = {(r.better, r.method_b if r.better == r.method_a else r.method_a)
                 for r in decisions[decisions["significant"].astype(bool)].itertuples(index=False)}
    match = re.search(r"separates (\d+) of (?:the )?(\d+) pairs( with " + PAIR + r")?", reading)
    if match:
        assert int(match.group(1)) == len(separated) and int(match.group(2)) == len(tested)
        assert match.group(4) == comparison.control
    if comparison.control is not None:
        assert "among all pairs" not in reading and "comparison of all methods" not in reading
    for a, b in re.findall(r"does not separate " + PAIR + r" from " + PAIR, reading):
        assert frozenset((a, b)) in tested and (a, b) not in separated and (b, a) not in separated
        assert (a, b) in better
    for a, b in re.findall(r"separates " + PAIR + r" from " + PAIR + " by mean rank", reading):
        assert (a, b) in separated and (a, b) not in better
        said = re.search(r"it decides the two practically equivalent, P = ([0-9.]+)", reading)
        assert (said is not None) == (frozenset((a, b)) in equivalent)
        assert said is None or _close(said.group(1), equivalent[frozenset((a, b))], 3)
    outside = [pair for pair in better if frozenset(pair) not in tested]
    match = re.search(r"(\d+) pairs? the Bayesian sign test decides with one method better (?:is|are) not among", reading)
    assert (int(match.group(1)) if match else 0) == len(outside)
    match = re.search(r"both find one method better on the same (\d+) pairs?, and neither on the other (\d+)", reading)
    if match:
        inside = {pair for pair in better if frozenset(pair) in tested}
        assert inside == separated
        assert int(match.group(1)) == len(separated) and int(match.group(2)) == len(tested) - len(separated)
    if "No procedure separates any pair" in reading:
        assert not separated and not better and report.superiority().to_frame()["superior"].isna().all()
    if "separates none of" in reading:
        assert not separated and not {pair for pair in better if frozenset(pair) in tested}


def test_every_count_in_the_text_is_one_the_checks_read(design):
    """No 'X of Y' in Results or Reading escapes the checks above (a new count needs a check here)."""
    _, _, _, text = design
    _, results, reading = _sections(text)
    known = [r"separated \d+ of \d+ comparisons", r"sign tests found \d+ of \d+ pairs", r"decided \d+ of \d+ pairs",
             r"decides \d+ of \d+ pairs", r"separates \d+ of (?:the )?\d+ pairs", r"sign tests separate \d+ of \d+",
             r"Within datasets, \d+ of \d+ \(dataset, pair\)", r"Replicability: \d+ of \d+ claims",
             r"beats .{1,40} on at least \d+ of \d+", r"In the meta-analysis, \d+ of \d+ pairs",
             r"\d+ of \d+ methods may be the", r"\d+ of \d+ methods have a rank"]
    for paragraph in (results, reading):
        for hit in re.finditer(r"\d+ of (?:the )?\d+", paragraph):
            window = paragraph[max(0, hit.start() - 40):hit.end() + 20]
            assert any(re.search(k, window) for k in known), window


def test_replicability_and_meta_analysis_counts(design):
    """With seeds: the replicability and meta-analysis counts are those of their results, and each pair's
    per-dataset p-value is scipy's one-sided paired t (the replicability count itself is checked against
    its definition by brute force in test_replicability.py)."""
    _, scores, report, text = design
    _, results, _ = _sections(text)
    if scores.ndim == 2:
        assert "Replicability:" not in results
        return
    claims = report.replicability().to_frame()
    supported = claims[claims["n_replicated"] > 0]
    assert f"Replicability: {len(supported)} of {len(claims)} claims hold on at least one dataset" in results
    for row in supported.itertuples(index=False):
        line = f"{row.method_a} beats {row.method_b} on at least {row.n_replicated} of {row.n_datasets}"
        assert line in results or "more." in results, line  # a long list ends with "and n more"
    per = report.replicability().per_dataset.iloc[0]
    a = report.cube.mcda.sel(dataset=per["dataset"], method=per["method_a"]).values
    b = report.cube.mcda.sel(dataset=per["dataset"], method=per["method_b"]).values
    side = "greater" if report.direction.startswith("higher") else "less"
    assert per["p_raw"] == pytest.approx(stats.ttest_rel(a, b, alternative=side).pvalue, rel=1e-8)
    pairs = report.meta_analysis().to_frame()
    fitted = pairs[np.isfinite(pairs["standard_error"].to_numpy(dtype=float))]
    if len(fitted):
        excludes = int(((fitted["prediction_low"] > 0) | (fitted["prediction_high"] < 0)).sum())
        significant = int((fitted["p_raw"] <= report.alpha).sum())
        assert (f"In the meta-analysis, {significant} of {len(fitted)} pairs have a mean difference significant at "
                f"α = {report.alpha:g}, and for {excludes} the prediction interval") in results


def test_the_overview_counts_the_same_decisions(design):
    """The overview's Bayesian count and its reading paragraph are the write-up's, from the same result."""
    _, _, report, text = design
    _, _, reading = _sections(text)
    _, better, equivalent = _bayes(report)
    frame = report.bayesian().to_frame()
    overview = report.overview()
    n_open = int((frame["label"].astype(str) == "inconclusive").sum())
    assert (f"decided {len(better) + len(equivalent)} of {len(frame)} pairs ({len(better)} with one method better, "
            f"{len(equivalent)} practically equivalent); {n_open} inconclusive") in overview
    assert "  " + reading in overview


def test_within_datasets_count(design):
    """With seeds: the count of significant (dataset, pair) differences, against scipy's paired t and Holm."""
    _, scores, report, text = design
    _, results, _ = _sections(text)
    match = re.search(r"Within datasets, (\d+) of (\d+) \(dataset, pair\) differences were significant", results)
    if scores.ndim == 2:
        assert match is None
        return
    table = report.pairwise().to_frame()
    assert int(match.group(1)) == int(table["significant"].astype(bool).sum()) and int(match.group(2)) == len(table)
    expected = 0
    k = scores.shape[1]
    for d in range(scores.shape[0]):
        raw = [stats.ttest_rel(scores[d, i], scores[d, j]).pvalue for i in range(k) for j in range(i + 1, k)]
        expected += int((_holm(raw) <= report.alpha).sum())
    assert int(match.group(1)) == expected


def test_rank_set_counts(design):
    """The rank-set sentence counts the result's best set and single places, and the result reads the mean ranks
    and their covariance that scipy's rankdata gives on the complete datasets of the kept methods."""
    _, _, report, text = design
    _, results, _ = _sections(text)
    if report.rank_sets_not_applicable():   # e.g. every dataset misses a method: no common datasets to rank on
        assert "may be the best" not in results
        return
    result = report.rank_sets()
    frame = result.to_frame()
    n_best, n_single = len(result.best_set), int((frame["rank_low"] == frame["rank_high"]).sum())
    best = (f"{result.best_set[0]} alone may be the best; " if n_best == 1 else
            f"{n_best} of {result.n_methods} methods may be the best (")
    assert f"With {result.confidence_level:.0%} confidence, {best}" in results
    assert f"{n_single} of {result.n_methods} methods have a rank set of a single place" in results
    assert n_best == int((result.rank_low_simultaneous == 1).sum()) >= 1
    cube = report.across_cube.mcda.sel(method=list(result.estimates.index)).transpose("dataset", "method").values
    cube = cube[~np.isnan(cube).any(axis=1)]
    sign = -1.0 if report.direction.startswith("higher") else 1.0
    ranks = stats.rankdata(sign * cube, axis=1)
    np.testing.assert_allclose(result.estimates.to_numpy(), ranks.mean(axis=0), rtol=1e-12)
    np.testing.assert_allclose(result.covariance.to_numpy(), np.cov(ranks, rowvar=False) / len(ranks), rtol=1e-9,
                               atol=1e-15)
