"""Speed of mcda's tests over cross-validation folds against mlxtend on the same fold scores.

    python benchmarks/bench_cv_tests.py [--datasets 200] [--methods 5] [--repeats 5]

mlxtend's tests (``paired_ttest_5x2cv``, ``combined_ftest_5x2cv``, ``paired_ttest_kfold_cv``,
``paired_ttest_resampled``) take two estimators and the data, split the data, FIT the estimators on
every split and compute the statistic from the fold scores; none takes fold scores. So the main
comparison is on the statistic only, given the same fold scores, for every (dataset, pair) of a
benchmark of ``--datasets`` datasets × ``--methods`` methods:

- mcda: ``mcda.paired_tests(cube, method=...)`` — the whole call (validation, every pair of every
  dataset, Holm within datasets, the table);
- mlxtend's statistic: the lines of mlxtend's source that turn a pair's fold differences into
  (t or F, p) (its list comprehension for the variance, its loop over the five runs), in a loop over
  the pairs: what a user reusing mlxtend's code on fold scores runs;
- numpy by hand, vectorised over all (dataset, pair) rows at once: the fastest fair use (the
  formulas with no validation and no table); mcda's own overhead is the gap to it.

mlxtend has no corrected test: its k-fold t on the same scores is the naive one, so the corrected
repeated k-fold t is timed against mlxtend's k-fold statistic (the same arithmetic but the factor).

A last block times ONE whole mlxtend call, including its estimator fits (logistic regression and a
depth-3 tree on 240 points), against mcda on the fold scores of the same splits; it is labelled as
including fitting: the fits, not the statistic, are what that call costs.

Times are the best of ``--repeats`` runs.
"""

from __future__ import annotations

import argparse

import numpy as np
from scipy import stats

import mcda
from _timing import best_of


def mlxtend_kfold_statistic(score_diff):
    """mlxtend.evaluate.paired_ttest_kfold_cv's statistic, from its source, on given differences."""
    cv = len(score_diff)
    avg_diff = np.mean(score_diff)
    numerator = avg_diff * np.sqrt(cv)
    denominator = np.sqrt(sum([(diff - avg_diff) ** 2 for diff in score_diff]) / (cv - 1))
    t_stat = numerator / denominator
    return float(t_stat), float(stats.t.sf(np.abs(t_stat), cv - 1) * 2.0)


def mlxtend_5x2_statistics(differences):
    """mlxtend's paired_ttest_5x2cv and combined_ftest_5x2cv statistics, from their source, on (5, 2) differences."""
    variance_sum, first_diff, variances, squares = 0.0, None, [], []
    for score_diff_1, score_diff_2 in differences:
        score_mean = (score_diff_1 + score_diff_2) / 2.0
        score_var = (score_diff_1 - score_mean) ** 2 + (score_diff_2 - score_mean) ** 2
        variance_sum += score_var
        variances.append(score_var)
        squares.extend([score_diff_1 ** 2, score_diff_2 ** 2])
        if first_diff is None:
            first_diff = score_diff_1
    t_stat = first_diff / np.sqrt(1 / 5.0 * variance_sum)
    f_stat = sum(squares) / (2 * sum(variances))
    return (float(t_stat), float(stats.t.sf(np.abs(t_stat), 5) * 2.0),
            float(f_stat), float(stats.f.sf(f_stat, 10, 5)))


def pair_differences(scores):
    """(rows, folds) differences a − b of every (dataset, pair a < b) row."""
    ia, ib = np.triu_indices(scores.shape[1], 1)
    return (scores[:, ia, :] - scores[:, ib, :]).reshape(-1, scores.shape[2])


def numpy_corrected(diff, k):
    n = diff.shape[1]
    t = diff.mean(axis=1) / (diff.std(axis=1, ddof=1) * np.sqrt(1.0 / n + 1.0 / (k - 1)))
    return t, 2.0 * stats.t.sf(np.abs(t), n - 1)


def numpy_5x2(diff):
    d = diff.reshape(len(diff), 5, 2)
    s2 = ((d - d.mean(axis=2, keepdims=True)) ** 2).sum(axis=(1, 2))
    t = d[:, 0, 0] / np.sqrt(s2 / 5)
    f = (d ** 2).sum(axis=(1, 2)) / (2 * s2)
    return 2.0 * stats.t.sf(np.abs(t), 5), stats.f.sf(f, 10, 5)


def fold_cube(scores, runs):
    n = scores.shape[2]
    k = n // runs
    cube = mcda.score_cube(scores, direction="higher_is_better")
    return cube.assign_coords(run=("seed", np.arange(n) // k + 1), fold=("seed", np.arange(n) % k + 1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--datasets", type=int, default=200)
    parser.add_argument("--methods", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    pairs = args.methods * (args.methods - 1) // 2
    rows = []

    # ---------------------------------------------------------------- corrected repeated 10x10 t
    scores = 0.8 + rng.normal(0, 0.02, (args.datasets, args.methods, 100))
    cube = fold_cube(scores, 10)
    diff = pair_differences(scores)
    t_mcda, res = best_of(lambda: mcda.paired_tests(cube, method="corrected-repeated-cv-t"), args.repeats)
    t_mlx, naive = best_of(lambda: [mlxtend_kfold_statistic(list(d)) for d in diff], args.repeats)
    t_np, (t_ref, p_ref) = best_of(lambda: numpy_corrected(diff, 10), args.repeats)
    np.testing.assert_allclose(res.table["p_raw"].to_numpy(), p_ref, rtol=1e-10)
    np.testing.assert_allclose(res.table["statistic"].to_numpy() * np.sqrt(1 + 100 / 9),
                               [t for t, _ in naive], rtol=1e-10)  # mlxtend's naive t, rescaled
    rows.append(("corrected repeated 10x10 t", t_mcda, t_mlx, t_np))

    # ---------------------------------------------------------------- 5x2cv t and F
    scores = 0.8 + rng.normal(0, 0.02, (args.datasets, args.methods, 10))
    cube = fold_cube(scores, 5)
    diff = pair_differences(scores)
    t_mcda_t, res_t = best_of(lambda: mcda.paired_tests(cube, method="5x2cv-t"), args.repeats)
    t_mcda_f, res_f = best_of(lambda: mcda.paired_tests(cube, method="5x2cv-f"), args.repeats)
    t_mlx, theirs = best_of(lambda: [mlxtend_5x2_statistics(d.reshape(5, 2).tolist()) for d in diff], args.repeats)
    t_np, (p_t, p_f) = best_of(lambda: numpy_5x2(diff), args.repeats)
    theirs = np.array(theirs)
    np.testing.assert_allclose(res_t.table["p_raw"].to_numpy(), theirs[:, 1], rtol=1e-10)
    np.testing.assert_allclose(res_f.table["p_raw"].to_numpy(), theirs[:, 3], rtol=1e-10)
    np.testing.assert_allclose(res_f.table["p_raw"].to_numpy(), p_f, rtol=1e-10)
    # mlxtend computes t and F in one loop each call; mcda runs them as two calls: both mcda calls are counted
    rows.append(("5x2cv t and F (both)", t_mcda_t + t_mcda_f, t_mlx, t_np))

    print(f"tests over folds, statistic only on given fold scores: {args.datasets} datasets x {args.methods} "
          f"methods = {args.datasets * pairs} (dataset, pair) rows; best of {args.repeats}")
    print(f"{'test':<30}{'mcda (s)':>10}{'mlxtend stat (s)':>18}{'numpy (s)':>11}{'mlxtend/mcda':>14} |"
          f"{'numpy/mcda':>11}")
    for name, ours, mlx, vec in rows:
        print(f"{name:<30}{ours:>10.4f}{mlx:>18.4f}{vec:>11.4f}{mlx / ours:>13.1f}x |{vec / ours:>10.2f}x")
    print("(mlxtend/mcda > 1: mcda faster than mlxtend's statistic code looped over the pairs; numpy/mcda < 1: the")
    print(" bare vectorised formulas are faster than mcda's whole call, which validates, aligns seeds, adjusts")
    print(" and builds the table)")

    # ---------------------------------------------------------------- one whole mlxtend call, with its fits
    from mlxtend.evaluate import combined_ftest_5x2cv
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.tree import DecisionTreeClassifier

    X, y = make_classification(n_samples=240, n_features=6, n_informative=3, random_state=7)

    def estimators():
        return LogisticRegression(max_iter=1000), DecisionTreeClassifier(max_depth=3, random_state=0)

    t_whole, (f_theirs, _) = best_of(lambda: combined_ftest_5x2cv(*estimators(), X, y, random_seed=1), args.repeats)

    def fold_scores():
        state = np.random.RandomState(1)
        out = np.empty((2, 10))
        for i in range(5):
            first, second = train_test_split(np.arange(len(y)), test_size=0.5, random_state=state.randint(0, 32767))
            for j, (train, test) in enumerate(((first, second), (second, first))):
                for m, est in enumerate(estimators()):
                    out[m, 2 * i + j] = est.fit(X[train], y[train]).score(X[test], y[test])
        return out

    t_fit, fitted = best_of(fold_scores, args.repeats)
    one = fold_cube(fitted[None], 5)
    t_one, ours = best_of(lambda: mcda.paired_tests(one, method="5x2cv-f"), args.repeats)
    assert abs(ours.table["statistic"].iloc[0] - f_theirs) <= 1e-12 * abs(f_theirs)
    print()
    print("one whole mlxtend call INCLUDING its 20 estimator fits (combined_ftest_5x2cv, 240 points):")
    print(f"  mlxtend combined_ftest_5x2cv (fits + statistic)  {t_whole:.4f} s")
    print(f"  the same 20 fits by hand (fold scores)           {t_fit:.4f} s")
    print(f"  mcda.paired_tests(method='5x2cv-f') on them      {t_one:.4f} s   "
          f"(mlxtend call / (fits + mcda) = {t_whole / (t_fit + t_one):.2f}x; either way the fits cost "
          f"{t_fit / t_one:.0f}x the test)")


if __name__ == "__main__":
    main()
