"""The tests over cross-validation folds of mcda.paired_tests: corrected resampled t (Nadeau & Bengio 2003),
corrected repeated k-fold CV t (Bouckaert & Frank 2004), 5×2cv paired t (Dietterich 1998) and 5×2cv combined F
(Alpaydın 1999).

Oracles: the published formulas computed here by hand (plain loops over the folds, scipy's t and F
distributions), and mlxtend's ``paired_ttest_5x2cv``, ``combined_ftest_5x2cv``, ``paired_ttest_kfold_cv`` and
``paired_ttest_resampled`` run on the same data: mlxtend fits the estimators itself, so the tests reproduce its
splits (its ``random_seed`` drives a ``RandomState`` whose ``randint(0, 32767)`` seeds each
``train_test_split``; ``KFold(shuffle=True, random_state=random_seed)`` for the k-fold test), fit the same
deterministic scikit-learn models on them and give mcda those fold scores.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import mcda
from mcda.stats.procedures import PROCEDURES, names

FOLD_METHODS = names("seeds-cv")


def _fold_cube(scores: np.ndarray, runs: int, *, methods=("a", "b", "c"), datasets=None, coords=True):
    """A cube of per-fold scores (datasets × methods × runs·k), seeds run after run, with run/fold coordinates."""
    n_datasets, n_methods, n = scores.shape
    datasets = datasets or [f"d{i}" for i in range(n_datasets)]
    cube = mcda.score_cube(scores, direction="higher_is_better", method_names=list(methods))
    cube = cube.assign_coords(dataset=datasets)
    if coords:
        k = n // runs
        cube = cube.assign_coords(run=("seed", np.arange(n) // k + 1), fold=("seed", np.arange(n) % k + 1))
    return cube


# --------------------------------------------------------------------------- the formulas by hand


def _corrected_by_hand(a, b, rho, alpha=0.05):
    """Nadeau & Bengio (2003) eq. for the corrected resampled t, with plain Python sums."""
    d = [x - y for x, y in zip(a, b) if not (np.isnan(x) or np.isnan(y))]
    n = len(d)
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    se = (var * (1.0 / n + rho / (1.0 - rho))) ** 0.5
    t = mean / se
    half = stats.t.ppf(1 - alpha / 2, n - 1) * se
    return t, 2 * stats.t.sf(abs(t), n - 1), mean - half, mean + half


def _five_by_two_by_hand(d_runs):
    """Dietterich's t and Alpaydın's F from a list of (d_i1, d_i2) per run."""
    s2 = []
    for d1, d2 in d_runs:
        m = (d1 + d2) / 2
        s2.append((d1 - m) ** 2 + (d2 - m) ** 2)
    r = len(d_runs)
    t = d_runs[0][0] / (sum(s2) / r) ** 0.5
    f = sum(d1 ** 2 + d2 ** 2 for d1, d2 in d_runs) / (2 * sum(s2))
    return t, 2 * stats.t.sf(abs(t), r), f, stats.f.sf(f, 2 * r, r)


def test_the_corrected_tests_equal_the_formulas_by_hand():
    rng = np.random.default_rng(2035)
    runs, k = 3, 5
    scores = 0.8 + rng.normal(0, 0.02, (2, 3, runs * k)) + np.array([0, 0.01, 0.015])[None, :, None]
    cube = _fold_cube(scores, runs)
    for method in ("corrected-repeated-cv-t", "corrected-resampled-t"):
        res = mcda.paired_tests(cube, method=method, alpha=0.1)
        assert res.runs == runs and res.rho == pytest.approx(1 / k)
        for row in res.to_frame().itertuples():
            a = scores[int(row.dataset[1]), "abc".index(row.method_a)]
            b = scores[int(row.dataset[1]), "abc".index(row.method_b)]
            t, p, low, high = _corrected_by_hand(a, b, 1 / k, alpha=0.1)
            np.testing.assert_allclose([row.statistic, row.p_raw, row.ci_low, row.ci_high], [t, p, low, high],
                                       rtol=1e-12)
    # random splits with test share 0.25 and a lost split: the resampled t uses the J splits both have
    scores[0, 1, 4] = np.nan
    split = mcda.score_cube(scores, direction="higher_is_better", method_names=["a", "b", "c"])
    res = mcda.paired_tests(split, method="corrected-resampled-t", rho=0.25).to_frame()
    row = res.iloc[0]
    assert row["n_seeds"] == 14
    np.testing.assert_allclose(row[["statistic", "p_raw"]].to_numpy(float),
                               _corrected_by_hand(scores[0, 0], scores[0, 1], 0.25)[:2], rtol=1e-12)
    # the repeated k-fold test needs every fold: NaN and the reason, not a silently shorter run
    lost = mcda.paired_tests(_fold_cube(scores, runs), method="corrected-repeated-cv-t").to_frame().iloc[0]
    assert np.isnan(lost["p_raw"]) and lost["reason"].startswith("1 of 15 fold scores missing")


def test_the_5x2cv_tests_equal_the_formulas_by_hand_in_run_and_fold_order():
    rng = np.random.default_rng(1998)
    runs = 5
    scores = 0.7 + rng.normal(0, 0.03, (3, 2, 2 * runs))
    scores[:, 1] += 0.02
    order = rng.permutation(2 * runs)  # seeds stored out of order: the run/fold coordinates put them back
    cube = _fold_cube(scores, runs, methods=("a", "b"))
    shuffled = cube.isel(seed=order)
    for method in ("5x2cv-t", "5x2cv-f"):
        res = mcda.paired_tests(shuffled, method=method).to_frame()
        for i, row in res.iterrows():
            d = scores[i, 0] - scores[i, 1]
            t, p_t, f, p_f = _five_by_two_by_hand([(d[2 * r], d[2 * r + 1]) for r in range(runs)])
            np.testing.assert_allclose([row["statistic"], row["p_raw"]], [t, p_t] if method == "5x2cv-t" else [f, p_f],
                                       rtol=1e-12)
            assert np.isnan(row["ci_low"]) and row["mean_diff"] == pytest.approx(d.mean(), rel=1e-12)
    # without coordinates, attrs["cv_runs"] reads the seeds run after run, as runs= does
    plain = _fold_cube(scores, runs, methods=("a", "b"), coords=False)
    by_attrs = mcda.paired_tests(plain.assign_attrs(cv_runs=runs), method="5x2cv-t").to_frame()
    by_argument = mcda.paired_tests(plain, method="5x2cv-t", runs=runs).to_frame()
    pd.testing.assert_frame_equal(by_attrs, by_argument)
    np.testing.assert_allclose(by_attrs["statistic"], mcda.paired_tests(cube, method="5x2cv-t").table["statistic"],
                               rtol=1e-15)


def test_a_design_that_does_not_fit_the_test_is_refused():
    scores = np.random.default_rng(0).normal(size=(1, 2, 12))
    cube = mcda.score_cube(scores, direction="higher_is_better", method_names=["a", "b"])
    with pytest.raises(mcda.McdaArgumentError, match="needs the design of the folds") as caught:
        mcda.paired_tests(cube, method="corrected-repeated-cv-t")
    assert caught.value.argument == "runs"
    with pytest.raises(mcda.McdaArgumentError, match="needs runs of 2-fold"):
        mcda.paired_tests(cube, method="5x2cv-f", runs=3)
    with pytest.raises(mcda.McdaArgumentError, match="needs runs of k-fold cross-validation"):
        mcda.paired_tests(cube, method="corrected-repeated-cv-t", rho=0.2)
    with pytest.raises(mcda.McdaArgumentError, match="`runs` describes cross-validation folds"):
        mcda.paired_tests(cube, method="t", runs=2)
    uneven = cube.assign_coords(run=("seed", [1] * 5 + [2] * 7))
    with pytest.raises(mcda.McdaArgumentError, match="unequal numbers of folds"):
        mcda.paired_tests(uneven, method="corrected-repeated-cv-t")


@pytest.mark.parametrize("method", FOLD_METHODS)
def test_every_spelling_of_a_test_over_folds_dispatches(method):
    scores = np.random.default_rng(4).normal(0.8, 0.02, (1, 3, 10))
    cube = _fold_cube(scores, 5)
    direct = mcda.paired_tests(cube, method=method)
    for spelling in sorted({method, *PROCEDURES[method].aliases, method.upper(), method.replace("-", "_")}):
        got = mcda.paired_tests(cube, method=spelling)
        assert got.method == method
        np.testing.assert_array_equal(got.table["p_raw"], direct.table["p_raw"])


# --------------------------------------------------------------------------- mlxtend on the same fold scores


def _data():
    from sklearn.datasets import make_classification

    return make_classification(n_samples=240, n_features=6, n_informative=3, random_state=7)


def _estimators():
    from sklearn.linear_model import LogisticRegression
    from sklearn.tree import DecisionTreeClassifier

    return LogisticRegression(max_iter=1000), DecisionTreeClassifier(max_depth=3, random_state=0)


def _accuracies(estimators, X, y, splits) -> np.ndarray:
    """(methods, splits) accuracy of each estimator fitted on each split's training part."""
    out = np.empty((len(estimators), len(splits)))
    for s, (train, test) in enumerate(splits):
        for m, estimator in enumerate(estimators):
            out[m, s] = estimator.fit(X[train], y[train]).score(X[test], y[test])
    return out


def _mlxtend_5x2_splits(n, random_seed):
    """mlxtend's 5×2cv splits: RandomState(random_seed).randint(0, 32767) seeds each train_test_split(test_size=0.5),
    fitted on one half and scored on the other, then the reverse."""
    from sklearn.model_selection import train_test_split

    rng = np.random.RandomState(random_seed)
    splits = []
    for _ in range(5):
        first, second = train_test_split(np.arange(n), test_size=0.5, random_state=rng.randint(low=0, high=32767))
        splits += [(first, second), (second, first)]
    return splits


def test_the_5x2cv_tests_equal_mlxtend_on_the_same_fold_scores():
    from mlxtend.evaluate import combined_ftest_5x2cv, paired_ttest_5x2cv

    X, y = _data()
    for random_seed in (1, 11):
        scores = _accuracies(_estimators(), X, y, _mlxtend_5x2_splits(len(y), random_seed))
        cube = _fold_cube(scores[None], 5, methods=("logistic", "tree"))
        t = mcda.paired_tests(cube, method="5x2cv-t").to_frame().iloc[0]
        f = mcda.paired_tests(cube, method="5x2cv-f").to_frame().iloc[0]
        their_t, their_pt = paired_ttest_5x2cv(*_estimators(), X, y, random_seed=random_seed)
        their_f, their_pf = combined_ftest_5x2cv(*_estimators(), X, y, random_seed=random_seed)
        np.testing.assert_allclose([t["statistic"], t["p_raw"]], [their_t, their_pt], rtol=1e-12)
        np.testing.assert_allclose([f["statistic"], f["p_raw"]], [their_f, their_pf], rtol=1e-12)


def test_the_kfold_t_equals_mlxtend_and_the_correction_rescales_it():
    from mlxtend.evaluate import paired_ttest_kfold_cv
    from sklearn.model_selection import KFold

    X, y = _data()
    k = 10
    splits = list(KFold(n_splits=k, shuffle=True, random_state=3).split(X))
    scores = _accuracies(_estimators(), X, y, splits)
    their_t, their_p = paired_ttest_kfold_cv(*_estimators(), X, y, cv=k, shuffle=True, random_seed=3)
    plain = mcda.score_cube(scores[None], direction="higher_is_better", method_names=["logistic", "tree"])
    naive = mcda.paired_tests(plain, method="t").to_frame().iloc[0]  # mlxtend's test is the naive one
    np.testing.assert_allclose([naive["statistic"], naive["p_raw"]], [their_t, their_p], rtol=1e-12)
    # Bouckaert & Frank on one run of k folds: se grows by sqrt(1 + n·rho/(1 − rho)) = sqrt(1 + k/(k − 1))
    corrected = mcda.paired_tests(plain, method="corrected-repeated-cv-t", runs=1).to_frame().iloc[0]
    t = their_t / np.sqrt(1 + k / (k - 1))
    np.testing.assert_allclose([corrected["statistic"], corrected["p_raw"]], [t, 2 * stats.t.sf(abs(t), k - 1)],
                               rtol=1e-12)


def test_the_resampled_t_equals_mlxtend_and_the_correction_rescales_it():
    from mlxtend.evaluate import paired_ttest_resampled
    from sklearn.model_selection import train_test_split

    X, y = _data()
    rounds, test_size, random_seed = 15, 0.3, 5
    rng = np.random.RandomState(random_seed)  # mlxtend's splits, as its source draws them
    splits = [train_test_split(np.arange(len(y)), test_size=test_size, random_state=rng.randint(low=0, high=32767))
              for _ in range(rounds)]
    scores = _accuracies(_estimators(), X, y, splits)
    their_t, their_p = paired_ttest_resampled(*_estimators(), X, y, num_rounds=rounds, test_size=test_size,
                                              random_seed=random_seed)
    plain = mcda.score_cube(scores[None], direction="higher_is_better", method_names=["logistic", "tree"])
    naive = mcda.paired_tests(plain, method="t").to_frame().iloc[0]
    np.testing.assert_allclose([naive["statistic"], naive["p_raw"]], [their_t, their_p], rtol=1e-12)
    rho = len(splits[0][1]) / len(y)  # the test share of each split: 72 of 240
    corrected = mcda.paired_tests(plain, method="corrected-resampled-t", rho=rho).to_frame().iloc[0]
    t = their_t / np.sqrt(1 + rounds * rho / (1 - rho))  # Nadeau & Bengio: 1/J + n2/n1 instead of 1/J
    np.testing.assert_allclose([corrected["statistic"], corrected["p_raw"]],
                               [t, 2 * stats.t.sf(abs(t), rounds - 1)], rtol=1e-12)


# --------------------------------------------------------------------------- what the naive tests do on folds


def _centroid_accuracies(x, y, splits):
    """Accuracy of a one-feature nearest-centroid classifier on feature 0 and on feature 1, per split."""
    out = np.empty((2, len(splits)))
    for s, (train, test) in enumerate(splits):
        centres = np.stack([x[train][y[train] == c].mean(axis=0) for c in (0, 1)])  # (class, feature)
        predicted = np.abs(x[test][:, None, :] - centres[None]).argmin(axis=1)  # (test point, feature)
        out[:, s] = (predicted == y[test][:, None]).mean(axis=0)
    return out


def _kfold(n, k, runs, rng):
    splits = []
    for _ in range(runs):
        parts = np.array_split(rng.permutation(n), k)
        splits += [(np.concatenate(parts[:i] + parts[i + 1:]), parts[i]) for i in range(k)]
    return splits


def test_the_naive_t_rejects_a_true_null_on_overlapping_folds_and_the_corrected_tests_do_not():
    # A simulation with real models, not a simulation of correlated scores (whose correlation would be the very
    # rho the correction assumes): 200 datasets of 100 points, two classes 0.6 sd apart on each of two features;
    # the two "methods" are one nearest-centroid classifier on feature 0 and one on feature 1, equally good by
    # symmetry, so every rejection is a false positive. 10 runs of 10-fold CV and 5 runs of 2-fold CV per dataset.
    rng = np.random.default_rng(2004)
    n_datasets, n = 200, 100
    tenfold, twofold = [], []
    for _ in range(n_datasets):
        y = np.repeat([0, 1], n // 2)
        x = rng.normal(size=(n, 2)) + 0.6 * y[:, None]
        tenfold.append(_centroid_accuracies(x, y, _kfold(n, 10, 10, rng)))
        twofold.append(_centroid_accuracies(x, y, _kfold(n, 2, 5, rng)))
    ten = _fold_cube(np.array(tenfold), 10, methods=("feature0", "feature1"))
    two = _fold_cube(np.array(twofold), 5, methods=("feature0", "feature1"))
    with pytest.warns(mcda.OverlappingFoldsWarning):
        naive = mcda.paired_tests(ten, method="t").to_frame()
    rate = {"t": (naive["p_raw"] <= 0.05).mean()}
    for method, cube in (("corrected-repeated-cv-t", ten), ("5x2cv-t", two), ("5x2cv-f", two)):
        p = mcda.paired_tests(cube, method=method).to_frame()["p_raw"]
        rate[method] = (p <= 0.05).mean()
    # measured here: t 0.575, corrected 0.05, 5x2cv t 0.07, F 0.06 (an earlier run at 600 datasets: 0.55, 0.04,
    # 0.04, 0.07): the naive rate is ten times the level, the corrected ones near it
    assert rate["t"] > 0.3, rate
    for method in ("corrected-repeated-cv-t", "5x2cv-t", "5x2cv-f"):
        assert rate[method] < 0.12, rate


def test_a_cube_that_says_its_seeds_are_folds_warns_once_for_a_naive_test():
    scores = np.random.default_rng(6).normal(0.8, 0.02, (3, 3, 20))
    cube = _fold_cube(scores, 2)
    for method, paired in (("t", True), ("wilcoxon", True), ("t", False)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            res = mcda.paired_tests(cube, method=method, paired=paired)
        folds = [w for w in caught if issubclass(w.category, mcda.OverlappingFoldsWarning)]
        assert len(folds) == 1 and folds[0].filename == __file__  # once per call, at the caller's line
        assert "corrected-repeated-cv-t" in str(folds[0].message)
        assert any("training sets overlap" in note for note in res.notes)
    said = mcda.score_cube(scores, direction="higher_is_better").assign_attrs(cv_runs=2)
    with pytest.warns(mcda.OverlappingFoldsWarning, match=r"attrs\['cv_runs'\] = 2"):
        mcda.paired_tests(said, method="t")
    # a cube that says nothing: no warning, and the summary says what the test assumes
    silent = mcda.score_cube(scores, direction="higher_is_better")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        text = mcda.paired_tests(silent, method="t").summary()
    assert "assumes: the seeds are independent runs" in text and "corrected-repeated-cv-t" in text
    corrected = mcda.paired_tests(cube, method="corrected-repeated-cv-t").summary()
    assert "assumes: the seeds are 2 runs of 10-fold cross-validation" in corrected


# --------------------------------------------------------------------------- the report and the command line


def _small_folds():
    """6 datasets × 3 methods × 2 runs of 5-fold CV, as a tidy frame (what a CSV gives the command line)."""
    rng = np.random.default_rng(35)
    return pd.DataFrame([{"dataset": f"d{d}", "method": m, "seed": s, "score": 0.8 + 0.01 * i + rng.normal(0, 0.02)}
                         for d in range(6) for i, m in enumerate(["a", "b", "c"]) for s in range(10)])


@pytest.mark.parametrize("method", ["corrected-repeated-cv-t", "5x2cv-f"])
def test_the_report_runs_a_test_over_folds_and_the_write_up_cites_it(method):
    folds = _small_folds()
    if method == "5x2cv-f":
        folds = folds[folds["seed"] < 10]   # 5 runs of 2-fold: the same ten scores read as another design
    cube = mcda.score_cube(folds, direction="higher_is_better").assign_attrs(cv_runs=2 if method != "5x2cv-f" else 5)
    report = mcda.Report(cube, rope=0.01, rng=1, pairwise_method=method, signed_rank="never")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mcda.SmallSampleWarning)   # 6 datasets: the Bayesian views say so
        overview, text = report.overview(), report.text()
    direct = mcda.paired_tests(cube, method=method)
    pd.testing.assert_frame_equal(report.pairwise().to_frame(), direct.to_frame())
    assert f"{PROCEDURES[method].display} tests, Holm within each dataset" in overview
    assert direct.assumes() in overview
    assert f"Pairwise {PROCEDURES[method].display} test" in mcda.export.pairwise_to_latex(direct)
    body, bib = text.split("## References")
    assert f"compared over the cross-validation folds with {PROCEDURES[method].words} [" in body
    for key in PROCEDURES[method].references:
        assert f"@{key}" in body and f"{{{key}," in bib


def test_mcda_compare_takes_a_test_over_folds_with_the_design(tmp_path):
    import io

    from mcda.app.cli import main

    path = tmp_path / "folds.csv"
    _small_folds().to_csv(path, index=False)
    out, err = io.StringIO(), io.StringIO()
    code = main(["compare", str(path), "--metric", "accuracy", "--pairwise-method", "Bouckaert_Frank",
                 "--no-figures", "--signed-rank", "never", "--rng", "1", "--out", str(tmp_path / "o")],
                stdout=out, stderr=err)
    assert code != 0 and "give --cv-runs N" in err.getvalue()   # the design is not guessed
    out, err = io.StringIO(), io.StringIO()
    code = main(["compare", str(path), "--metric", "accuracy", "--pairwise-method", "corrected-repeated-cv-t",
                 "--cv-runs", "2", "--no-figures", "--signed-rank", "never", "--rng", "1", "--out",
                 str(tmp_path / "o2")], stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    assert "corrected repeated k-fold CV t tests, Holm within each dataset" in out.getvalue()
    assert "assumes: the seeds are 2 runs of 5-fold cross-validation" in out.getvalue()
    paper = (tmp_path / "o2" / "report.md").read_text(encoding="utf-8")
    assert "@bouckaert2004" in paper
    # the naive default over declared folds: the warning reaches the notes in the command line's words
    out = io.StringIO()
    assert main(["compare", str(path), "--metric", "accuracy", "--cv-runs", "2", "--no-figures", "--signed-rank",
                 "never", "--rng", "1", "--out", str(tmp_path / "o3")], stdout=out, stderr=io.StringIO()) == 0
    assert "Give --pairwise-method corrected-repeated-cv-t" in out.getvalue()


# --------------------------------------------------------------------------- one design, read alike


def test_the_correlated_t_reads_the_same_design_and_mirrors_the_corrected_t():
    # the Bayesian correlated t (checked against baycomp in test_bayesian.py) has the corrected t's scale: with
    # rope 0 its two tail probabilities are the corrected repeated k-fold t's one-sided p-values
    folds = mcda.datasets.load("benavoli2017_uci54_folds").isel(dataset=slice(0, 5))
    said = mcda.correlated_t_test(folds, rope=0.0)
    given = mcda.correlated_t_test(folds, rope=0.0, runs=10)
    assert said.runs == 10 and said.n_folds == 10
    pd.testing.assert_frame_equal(said.to_frame(), given.to_frame())
    bayes = said.to_frame()
    corrected = mcda.paired_tests(folds, method="corrected-repeated-cv-t").to_frame()
    assert list(bayes["method_a"]) == list(corrected["method_a"]) and list(bayes["dataset"]) == list(corrected["dataset"])
    two_sided = 2 * np.minimum(bayes["prob_a_better"], bayes["prob_b_better"])
    tested = (corrected["reason"] == "").to_numpy()   # identical folds: NaN here, a point mass there (baycomp's)
    assert (~tested).sum() == 1 and (bayes.loc[~tested, "scale"] == 0).all()
    np.testing.assert_allclose(corrected["p_raw"][tested], two_sided[tested], rtol=1e-9, atol=1e-15)
    np.testing.assert_allclose(corrected["mean_diff"], bayes["mean_diff"], rtol=1e-12)
    # without a design in the cube the correlated t keeps its one-run default
    plain = folds.drop_vars(["run", "fold"]).assign_attrs(cv_runs=None)
    assert mcda.correlated_t_test(plain, rope=0.0).runs == 1


@pytest.mark.parametrize("k", [2, 5, 10])
def test_a_corrected_p_is_never_below_the_naive_p(k):
    from hypothesis import given, settings
    from hypothesis import strategies as st
    from hypothesis.extra.numpy import arrays

    # the correction only widens the standard error on the same df: p can only grow
    @settings(max_examples=40, deadline=None)
    @given(arrays(np.float64, (1, 2, 2 * k), elements=st.floats(0.0, 1.0, allow_nan=False)))
    def check(scores):
        cube = _fold_cube(scores, 2, methods=("a", "b"))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", mcda.OverlappingFoldsWarning)
            naive = mcda.paired_tests(cube, method="t").to_frame()["p_raw"].iloc[0]
        corrected = mcda.paired_tests(cube, method="corrected-repeated-cv-t").to_frame()["p_raw"].iloc[0]
        assert np.isnan(naive) == np.isnan(corrected)
        assert np.isnan(naive) or corrected >= naive - 1e-15

    check()


def test_the_pairwise_figure_names_the_test_over_folds_and_claims_no_interval_it_lacks():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cube = _fold_cube(np.random.default_rng(3).normal(0.8, 0.02, (1, 3, 10)), 5)
    for method, interval in (("5x2cv-f", "no interval"), ("corrected-repeated-cv-t", "95% t interval")):
        fig, ax = mcda.plots.plot_pairwise(mcda.paired_tests(cube, method=method), layout="list")
        label = " ".join(np.ravel(ax)[0].get_xlabel().split())
        assert label == f"mean difference a − b ({interval}); {PROCEDURES[method].display} test"
        plt.close(fig)
