"""The correlated Bayesian t test of Corani & Benavoli (2015) on the per-fold scores of
cross-validation, per dataset and pair of methods."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from mcda._core.results import Result, states_scale
from mcda._core.validation import McdaArgumentError, check_positive_int
from mcda.data.cards import direction_sign
from mcda.data.cube import orient
from mcda.stats._shared.folds import fold_design
from mcda.stats.bayesian._shared import _check_threshold, _fold_cube, _folds_per_run, _region_columns

__all__ = ["CorrelatedTResult", "correlated_t_test"]

@dataclass(frozen=True, repr=False)
class CorrelatedTResult(Result):
    """The correlated Bayesian t test per dataset and pair of methods.

    Attributes
    ----------
    methods : list of str
    datasets : list of str
    table : pandas.DataFrame
        One row per (dataset, pair); see :meth:`to_frame`.
    rope : float
    runs : int
        Repetitions of the cross-validation.
    n_folds : int
        Folds per run (``n_seeds / runs``).
    threshold : float
    direction : str
    """

    methods: list
    datasets: list
    table: pd.DataFrame
    rope: float
    runs: int
    n_folds: int
    threshold: float
    direction: str

    def to_frame(self) -> pd.DataFrame:
        """One row per (dataset, pair).

        Columns: ``dataset, method_a, method_b, n_seeds`` (fold scores per method, along the ``seed`` dim),
        ``mean_diff`` (mean of a − b in the metric's own units: the posterior
        location), ``scale`` (posterior scale, Nadeau–Bengio corrected), ``df``,
        ``prob_a_better, prob_equivalent, prob_b_better`` (posterior probabilities of the three
        regions), ``label`` and ``reason`` (why a row is NaN, else empty).
        """
        return self.table.copy()

    def summary(self) -> str:
        shown = self.table[["dataset", "method_a", "method_b", "mean_diff", "prob_a_better", "prob_equivalent",
                            "prob_b_better", "label"]].copy()
        for col in ("mean_diff", "prob_a_better", "prob_equivalent", "prob_b_better"):
            shown[col] = shown[col].round(4)
        head = (f"Correlated Bayesian t test ({self.runs} run(s) of {self.n_folds}-fold cross-validation, "
                f"Nadeau-Bengio correction); rope {self.rope:g}, threshold {self.threshold:g}; {self.direction}")
        lines = [head, shown.to_string(index=False)]
        notes = self.table.loc[self.table["reason"] != ""]
        lines += [f"note: {r.dataset}: {r.method_a} vs {r.method_b}: {r.reason}" for r in notes.itertuples()]
        return "\n".join(lines)


@states_scale
def correlated_t_test(scores, direction=None, *, rope=None, runs: int | None = None, threshold: float = 0.95,
                      method_names=None) -> CorrelatedTResult:
    r"""Correlated Bayesian t test on cross-validation scores, per dataset and pair of methods.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube` with a ``seed`` dim
        The per-fold scores of every method on every dataset along ``seed``: ``runs`` runs
        of k-fold cross-validation, run after run (k = ``n_seeds / runs``), the same folds
        for every method. For example ``{"iris": {"a": [fold scores], "b": [...]}}``.
    direction : {"higher_is_better", "lower_is_better"}, optional
        As in :func:`mcda.data.cube.as_cube`.
    rope : float, optional
        Half-width of the region of practical equivalence (None: the card's noise floor;
        0: two regions).
    runs : int, optional
        Repetitions of the cross-validation (>= 1, dividing the number of scores). None reads
        the design the cube states (``run`` / ``fold`` coordinates along ``seed``, else
        ``attrs["cv_runs"]``, as :func:`mcda.paired_tests` reads them), else 1.
    threshold : float
        In (0.5, 1): a row is labelled with the region whose probability reaches it.
    method_names : sequence of str, optional
        As in :func:`mcda.data.cube.as_cube`.

    Returns
    -------
    CorrelatedTResult
        ``to_frame()``: one row per (dataset, pair) with ``dataset, method_a, method_b,
        n_seeds, mean_diff, scale, df, prob_a_better, prob_equivalent, prob_b_better, label,
        reason``.

    Raises
    ------
    ValueError
        Scores without a ``seed`` dim, ``runs`` not dividing the number of scores or
        leaving fewer than 2 folds per run, a negative rope, ``threshold`` outside (0.5, 1).

    Notes
    -----
    With d_1..d_n the per-fold differences b − a (oriented, n = runs · k), the posterior of
    the mean difference μ under the correlated model (fold correlation ρ = 1/k, the test
    share of each fold) and a non-informative prior is Student

    .. math:: \mu \mid d \sim t_{n-1}\left(\bar d,\;
              \left(\tfrac{1}{n} + \tfrac{\rho}{1-\rho}\right) s^2\right),
              \qquad \tfrac{\rho}{1-\rho} = \tfrac{1}{k-1},

    s² the sample variance (Nadeau–Bengio's correction of the variance for overlapping
    training sets). P(a better) = P(μ < −rope), P(b better) = P(μ > rope), exactly from the
    Student distribution function (no sampling), as baycomp's ``CorrelatedTTest``. When
    all differences are equal the posterior is a point mass at their mean (baycomp's
    convention: with rope = 0 a zero mean gives ½ each). A pair with a missing fold score
    on a dataset is NaN there with the reason (folds are not dropped: that would break the
    run structure). The correction assumes k-fold cross-validation; for other designs the
    correlation 1/k is only an approximation.

    References
    ----------
    .. [1] Corani, G. and Benavoli, A. (2015). A Bayesian approach for comparing
       cross-validated algorithms on multiple data sets. Machine Learning 100(2-3):285-304.
       https://doi.org/10.1007/s10994-015-5486-z
    .. [2] Nadeau, C. and Bengio, Y. (2003). Inference for the generalization error.
       Machine Learning 52(3):239-281. https://doi.org/10.1023/A:1024068626366

    Examples
    --------
    >>> from mcda import correlated_t_test
    >>> folds = {"iris": {"a": [0.93, 0.95, 0.91, 0.96, 0.94, 0.92, 0.95, 0.93, 0.97, 0.94],
    ...                   "b": [0.95, 0.96, 0.94, 0.97, 0.95, 0.95, 0.96, 0.95, 0.98, 0.96]}}
    >>> result = correlated_t_test(folds, "higher_is_better", rope=0.01)
    >>> row = result.to_frame().iloc[0]
    >>> float(round(row["mean_diff"], 4)), float(round(row["prob_b_better"], 4))
    (-0.017, 0.9514)
    """
    if runs is not None:
        runs = check_positive_int("runs", runs)
    threshold = _check_threshold(threshold)
    cube, rope = _fold_cube(scores, direction, method_names, rope, "correlated_t_test",
                            reason="it tests each dataset's folds separately and returns one row per dataset and pair",
                            example="{dataset: {method: [fold scores]}}")
    n_scores = cube.sizes["seed"]
    if runs is None:   # what the cube says (one reading of a fold design, shared with the tests over folds)
        design = fold_design(cube, needs="the correlated t test needs k-fold cross-validation with k >= 2.")
        if design is not None and design.runs is None:
            raise McdaArgumentError(f"the scores give random train/test splits (rho = {design.rho:g}), and the "
                                    "correlated t test reads runs of k-fold cross-validation: pass `runs=`.",
                                    argument="runs", value=runs)
        runs = 1 if design is None else design.runs
    n_folds = _folds_per_run(n_scores, runs, "the correlated t test needs k-fold cross-validation with k >= 2.")
    values = orient(cube).transpose("dataset", "method", "seed").values
    sign = direction_sign(cube.attrs["direction"])
    methods = [str(m) for m in cube.coords["method"].values]
    datasets = [str(d) for d in cube.coords["dataset"].values]
    ii, jj = np.triu_indices(len(methods), 1)
    n_pairs = len(ii)
    # every (dataset, pair) row at once, b − a over the folds; rows in dataset order, pairs i < j
    z = (values[:, jj, :] - values[:, ii, :]).reshape(-1, n_scores)
    missing = np.isnan(z).sum(axis=1)
    ok = missing == 0
    good = z[ok]
    mean = np.full(len(z), np.nan)
    var = np.full(len(z), np.nan)
    mean[ok] = good.mean(axis=1)
    spread = np.abs(good).max(axis=1) if good.size else np.zeros(0)
    spread = np.where(spread == 0.0, 1.0, spread)  # scaled: squares of tiny differences underflow
    var[ok] = (good / spread[:, None]).var(axis=1, ddof=1) * spread ** 2 * (1.0 / n_scores + 1.0 / (n_folds - 1))
    prob = np.full((len(z), 3), np.nan)
    prob[ok] = _student_regions(mean[ok], var[ok], n_scores - 1, rope)
    reasons = np.full(len(z), "", dtype=object)
    for row in np.nonzero(~ok)[0]:
        reasons[row] = f"{int(missing[row])} of {n_scores} fold scores missing"
    method_names = np.array(methods, dtype=object)
    table = pd.DataFrame({
        "dataset": np.repeat(np.array(datasets, dtype=object), n_pairs),
        "method_a": np.tile(method_names[ii], len(datasets)),
        "method_b": np.tile(method_names[jj], len(datasets)),
        "n_seeds": np.full(len(z), n_scores, dtype=np.int64),
        "mean_diff": -sign * mean,
        "scale": np.sqrt(var),
        "df": np.where(ok, float(n_scores - 1), np.nan),
        **_region_columns(prob, threshold, ~ok),
        "reason": reasons,
    })
    return CorrelatedTResult(methods=methods, datasets=datasets, table=table, rope=rope, runs=runs,
                             n_folds=n_folds, threshold=threshold, direction=str(cube.attrs["direction"]))


def _student_regions(mean: np.ndarray, var: np.ndarray, df: int, rope: float) -> np.ndarray:
    """(P(a better), P(equivalent), P(b better)) per row for μ ~ t_df(mean, var) of b − a, as baycomp computes them.

    A row with variance 0 is a point mass at its mean (with rope = 0 a zero mean gives ½ each).
    """
    mean, var = np.asarray(mean, dtype=np.float64), np.asarray(var, dtype=np.float64)
    point = var == 0
    scale = np.sqrt(np.where(point, 1.0, var))
    if rope == 0:
        right = np.where(point, (mean > 0) + 0.5 * (mean == 0), 1.0 - stats.t.cdf(0.0, df, mean, scale))
        return np.stack([1.0 - right, np.zeros_like(right), right], axis=1)
    left = np.where(point, (mean < -rope).astype(np.float64), stats.t.cdf(-rope, df, mean, scale))
    right = np.where(point, (mean > rope).astype(np.float64), 1.0 - stats.t.cdf(rope, df, mean, scale))
    return np.stack([left, 1.0 - left - right, right], axis=1)
