"""Statistical dominance across criteria of mixed scale: the GSD-front (Jansen et al. 2024).

Methods are scored on datasets on several criteria, some cardinal (differences mean something:
accuracy, runtime) and some ordinal (only the order counts: a rank, a grade, a binned time).
Jansen, Schollmeyer, Rodemann, Blocher & Augustin (2024) compare the methods' *distributions*
over datasets by **generalized stochastic dominance** (GSD):

- The outcomes are the vectors of criterion values (oriented, higher is better). The
  *preference system* holds R1, x ≥ y in every criterion, and R2, the pair (x, y) is preferred
  to (z, w) at least as strongly when, on every ordinal criterion, y ≤ w ≤ z ≤ x (the interval
  of (z, w) nested in that of (x, y)) and, on every cardinal criterion, x − y ≥ z − w.
- A utility u represents it when u is monotone on R1 and u(x) − u(y) ≥ u(z) − u(w) on R2,
  normalised to 0 at the worst observed outcome (componentwise minimum) and 1 at the best.
- Method A GSD-dominates B when A's expected utility over datasets is at least B's for every
  such u: the linear program d(A, B) = min_u Σ_x (π_A(x) − π_B(x)) u(x) is ≥ 0. A strictly
  dominates B when moreover B does not dominate A. The **GSD-front** is the set of methods no
  other method strictly dominates: it never holds more than the Pareto front, and is often
  much smaller, since it uses the cardinal information (how much better) and the
  distribution over datasets, without weighting the criteria.
- **The test** (the paper's static permutation test): method C lies in the front of the
  population of datasets unless some competitor D dominates it. For each competitor the null
  "D ≿ C" is rejected when d(D, C) is small against its permutation distribution (the 2n
  results of C and D pooled and split at random, as in the authors' code); C is
  significantly in the front when every competitor's null is rejected (an intersection–union
  test: the overall p-value is the largest of them, no adjustment needed).
- **Robustified test**: when up to a share γ of the datasets may not be an i.i.d. draw (a
  γ-contamination of both samples), the observed statistic is shifted by 2γ/(1 − γ) before it
  is compared (the authors' code); ``tolerated_contamination`` is the largest number of such
  datasets under which C stays significantly in the front.

The statistic is in the authors' scale: the difference of the two methods' outcome counts
divided by their total, times the utility (for complete data, half the difference of the
expected utilities). Each linear program runs through :func:`scipy.optimize.linprog`
(HiGHS). Constraints implied by others are left out before solving (R1 and the strict part of
R2 by their covering pairs, since both are transitive, and an R2 constraint that R1 alone
implies), which leaves the feasible set, hence every value, unchanged.

Examples
--------
>>> import mcda
>>> cube = mcda.datasets.synthetic_criteria(n_datasets=12, n_methods=4, rng=0)
>>> res = mcda.gsd_front(cube, n_resamples=20, rng=0)
>>> res.front
['method_0', 'method_1', 'method_2', 'method_3']
>>> bool(res.dominates.to_numpy().any())
False
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import scipy.sparse as sparse
import xarray as xr
from scipy.optimize import linprog

from mcda._core.results import Result, p_text, states_scale
from mcda._core.validation import (McdaArgumentError, MissingDataWarning, as_rng, check_alpha, check_choice,
                                   check_positive_int, check_probability, shown, warn)
from mcda.data.cards import DIRECTIONS, direction_sign
from mcda.data.checks import metric_keys
from mcda.stats._shared.criteria import criteria_cube

__all__ = ["GsdFrontResult", "gsd_front", "gsd_statistic", "estimated_seconds"]

_LP_TOLERANCE = 1e-7        # HiGHS' primal feasibility tolerance: d within it of 0 counts as 0
_MAX_PAIRS = 9_000          # comparable outcome pairs of one LP: its R2 table is this squared (81 M booleans)
_SECONDS_PER_LP = 1.6e-4    # × n_datasets²: one LP, measured on one core (0.14 s at 30 datasets, 3 cardinal criteria)


# =========================================================================== the result

@dataclass(frozen=True, repr=False)
class GsdFrontResult(Result):
    """The GSD relation between methods over datasets, its front, and the permutation test.

    Attributes
    ----------
    methods : list of str
    metrics : list of str
    directions : pandas.Series
        Direction per metric (from its card).
    ordinal : list of str
        The metrics read as ordinal (only their order counts); the others are cardinal.
    statistics : pandas.DataFrame
        Methods × methods: d(row, column) = min over the utilities of the preference system of
        Σ_x (n_row(x) − n_column(x)) u(x) / (n_row + n_column); ≥ 0 when row GSD-dominates
        column (NaN on the diagonal). The utilities are normalised on the pair's own pooled
        outcomes, as in the authors' code.
    dominates : pandas.DataFrame
        Methods × methods, boolean: row strictly GSD-dominates column (empirically).
    front : list of str
        The empirical GSD-front: the methods no other strictly dominates.
    dominated_by : dict
        Method -> the methods that strictly dominate it (empty for the front).
    tested : list of str
        The methods whose membership in the front was tested.
    pvalues : pandas.DataFrame
        Competitors (rows) × tested methods (columns): the permutation p-value of the null
        "row GSD-dominates column" (NaN on the diagonal), at ``contamination``.
    front_pvalues : pandas.Series
        Per tested method: the p-value of the null "the method lies outside the GSD-front"
        (the largest of its column of ``pvalues``: an intersection–union test).
    tolerated_contamination : pandas.Series
        Per tested method: the largest number of datasets that may be contaminated (not an
        i.i.d. draw) with the method still significantly in the front at ``alpha`` (NaN where
        it is not significant even without contamination).
    alpha : float
    contamination : float
        The share γ of contaminated datasets the p-values allow for (0: the plain test).
    n_resamples : int
        Permutations per competitor.
    n_datasets : int
    dropped_datasets : list of str
        Datasets left out because a method lacks a result on some criterion there.
    """

    methods: list
    metrics: list
    directions: pd.Series
    ordinal: list
    statistics: pd.DataFrame
    dominates: pd.DataFrame
    front: list
    dominated_by: dict
    tested: list
    pvalues: pd.DataFrame
    front_pvalues: pd.Series
    tolerated_contamination: pd.Series
    alpha: float
    contamination: float
    n_resamples: int
    n_datasets: int
    dropped_datasets: list = field(default_factory=list)

    @property
    def significant(self) -> list:
        """The tested methods significantly in the GSD-front at ``alpha``."""
        return [m for m in self.tested if self.front_pvalues[m] <= self.alpha]

    def to_frame(self, view: str = "methods") -> pd.DataFrame:
        """A tidy table.

        ``view="methods"`` (default): one row per method: ``method``, ``in_front`` (empirical),
        ``dominated_by`` (the methods strictly dominating it, text), ``p_raw`` (the test's
        p-value that the method lies outside the front; NaN where not tested), ``significant``
        (p_raw ≤ alpha) and ``tolerated_contamination``. ``view="pairs"``: one row per ordered
        pair: ``method_a``, ``method_b``, ``statistic`` (d(a, b)), ``dominates`` (a strictly
        dominates b) and ``p_raw`` (the permutation p-value of "a dominates b" where b was tested).
        """
        check_choice("view", view, ("methods", "pairs"))
        if view == "methods":
            p = np.array([self.front_pvalues.get(m, math.nan) for m in self.methods], dtype=np.float64)
            return pd.DataFrame({
                "method": self.methods, "in_front": [m in self.front for m in self.methods],
                "dominated_by": [", ".join(self.dominated_by[m]) for m in self.methods],
                "p_raw": p, "significant": p <= self.alpha,
                "tolerated_contamination": [self.tolerated_contamination.get(m, math.nan) for m in self.methods]})
        rows = [(a, b) for a in self.methods for b in self.methods if a != b]
        return pd.DataFrame({
            "method_a": [a for a, _ in rows], "method_b": [b for _, b in rows],
            "statistic": [float(self.statistics.loc[a, b]) for a, b in rows],
            "dominates": [bool(self.dominates.loc[a, b]) for a, b in rows],
            "p_raw": [float(self.pvalues.loc[a, b]) if b in self.tested else math.nan for a, b in rows]})

    def criteria_words(self) -> str:
        """The criteria with their scales, in words."""
        return ", ".join(f"{m} ({'ordinal' if m in self.ordinal else 'cardinal'})" for m in self.metrics)

    def summary(self) -> str:
        """The front, who dominates whom, and the test of each tested method."""
        lines = [f"GSD-front (Jansen et al. 2024) of {len(self.methods)} methods over {self.n_datasets} datasets on "
                 f"{len(self.metrics)} criteria: {self.criteria_words()}",
                 f"empirical GSD-front: {', '.join(self.front)}"]
        out = [m for m in self.methods if self.dominated_by[m]]
        for method in out[:8]:
            lines.append(f"{method} is strictly GSD-dominated by {', '.join(self.dominated_by[method])}")
        if len(out) > 8:
            lines.append(f"… and {len(out) - 8} more dominated methods")
        if self.tested:
            robust = (f", allowing {self.contamination:g} of the datasets to be contaminated"
                      if self.contamination > 0 else "")
            lines.append(f"permutation test ({self.n_resamples} permutations per competitor{robust}), null: the method "
                         f"lies outside the GSD-front; rejected at alpha = {self.alpha:g} when every competitor's "
                         "dominance is rejected")
            for method in self.tested:
                p = float(self.front_pvalues[method])
                worst = self.pvalues[method].drop(method).idxmax() if not math.isnan(p) else None
                k = self.tolerated_contamination[method]
                verdict = "significantly in the front" if p <= self.alpha else "not shown to be in the front"
                tail = (f"; still so with up to {int(k)} of {self.n_datasets} datasets contaminated"
                        if not math.isnan(k) else f" (weakest against {worst})" if worst is not None else "")
                lines.append(f"{method}: {verdict} ({p_text(p)}){tail}")
        if self.dropped_datasets:
            lines.append(f"dropped datasets (a missing result): {shown(self.dropped_datasets, fmt=str)}")
        return "\n".join(lines)


# =========================================================================== the linear programs

@dataclass(frozen=True)
class _Program:
    """The constraints of one preference system over a set of distinct outcomes (internal)."""

    matrix: sparse.csr_matrix       # A_ub of A u <= 0
    n_outcomes: int
    bottom: int                     # the outcome with u = 0
    top: int                        # the outcome with u = 1


def _program(outcomes: np.ndarray, cardinal: np.ndarray) -> _Program:
    """The LP constraints of the preference system of ``outcomes`` (distinct rows, oriented, the
    componentwise minimum and maximum among them); ``cardinal`` marks the cardinal criteria."""
    m = len(outcomes)
    ge = np.all(outcomes[:, None, :] >= outcomes[None, :, :], axis=2)   # ge[i, j]: x_i >= x_j in every criterion
    above = ge.copy()
    np.fill_diagonal(above, False)
    hi, lo = np.nonzero(above)                                          # R1's strict pairs (hi over lo)
    n_pairs = hi.size
    if n_pairs > _MAX_PAIRS:
        raise McdaArgumentError(f"`scores` give {n_pairs:,} comparable pairs of outcomes for one pair of methods; "
                                f"the GSD linear program compares every two of them ({n_pairs ** 2:,} entries, over the "
                                f"bound of {_MAX_PAIRS ** 2:,}). Use fewer datasets, or read some criteria as ordinal "
                                "with coarser levels", argument="scores", value=n_pairs)
    # R1 by its covering pairs: the rest follow by transitivity
    step = above.astype(np.float32)
    cover = above & ~((step @ step) > 0.5)
    c_hi, c_lo = np.nonzero(cover)
    # R2: pair p over pair q when q's ordinal interval is nested in p's and every cardinal gain of p is >= q's
    r2 = np.ones((n_pairs, n_pairs), dtype=bool)
    for c in np.nonzero(~cardinal)[0]:
        r2 &= outcomes[lo, c][:, None] <= outcomes[lo, c][None, :]
        r2 &= outcomes[hi, c][None, :] <= outcomes[hi, c][:, None]
    for c in np.nonzero(cardinal)[0]:
        gain = outcomes[hi, c] - outcomes[lo, c]
        r2 &= gain[:, None] >= gain[None, :]
    # R2 is a preorder on the pairs: its strict part is generated by its covering pairs (a strict pair with a
    # pair strictly between is implied by the two steps); its indifferences are kept; and a constraint R1
    # implies (p's interval encloses q's in every criterion) is left out
    np.fill_diagonal(r2, False)
    strict = r2 & ~r2.T
    if strict.any():
        steps = strict.astype(np.float32)
        strict &= ~((steps @ steps) > 0.5)
    encloses = ge[hi][:, hi] & ge[lo][:, lo].T
    r2 = (strict | (r2 & r2.T)) & ~encloses
    p, q = np.nonzero(r2)
    n1, n2 = c_hi.size, p.size
    rows = np.concatenate([np.tile(np.arange(n1), 2), np.tile(np.arange(n1, n1 + n2), 4)])
    cols = np.concatenate([c_hi, c_lo, hi[p], lo[p], hi[q], lo[q]])
    vals = np.concatenate([-np.ones(n1), np.ones(n1), -np.ones(n2), np.ones(n2), np.ones(n2), -np.ones(n2)])
    matrix = sparse.csr_matrix((vals, (rows, cols)), shape=(n1 + n2, m))
    bottom = int(np.nonzero(np.all(outcomes == outcomes.min(axis=0), axis=1))[0][0])
    top = int(np.nonzero(np.all(outcomes == outcomes.max(axis=0), axis=1))[0][0])
    return _Program(matrix=matrix, n_outcomes=m, bottom=bottom, top=top)


def _minimum(program: _Program, weights: np.ndarray) -> float:
    """min over the normalised representing utilities u of weights · u."""
    if program.top == program.bottom:       # one outcome only: every method has the same distribution
        return 0.0
    bounds = np.zeros((program.n_outcomes, 2))
    bounds[:, 1] = 1.0
    bounds[program.top] = 1.0
    bounds[program.bottom] = 0.0
    res = linprog(weights, A_ub=program.matrix, b_ub=np.zeros(program.matrix.shape[0]), bounds=bounds,
                  method="highs")
    if res.status != 0:  # cannot happen: a normalised criterion is a feasible utility and u is bounded
        raise RuntimeError(f"the GSD linear program did not solve: {res.message}")
    return float(res.fun)


def _pooled(a: np.ndarray, b: np.ndarray):
    """The distinct outcomes of two samples (rows) with the componentwise worst and best added, and
    each observation's outcome index (a's first)."""
    stacked = np.vstack([a, b, np.minimum(a.min(axis=0), b.min(axis=0))[None, :],
                         np.maximum(a.max(axis=0), b.max(axis=0))[None, :]])
    outcomes, index = np.unique(stacked, axis=0, return_inverse=True)
    return outcomes, np.asarray(index).ravel()[: len(a) + len(b)]


def gsd_statistic(a: np.ndarray, b: np.ndarray, *, cardinal) -> float:
    """d(a, b): the least, over the utilities representing the preference system of the pooled outcomes,
    of Σ_x (n_a(x) − n_b(x)) u(x) / (n_a + n_b); ≥ 0 exactly when sample ``a`` GSD-dominates ``b``.

    Parameters
    ----------
    a, b : array (n_a, n_criteria), (n_b, n_criteria)
        One row per observation (dataset), oriented so that higher is better on every criterion.
    cardinal : sequence of bool
        Per criterion: cardinal (True: differences count) or ordinal (False: only the order).

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> a = np.array([[0.9, 3.0], [0.8, 2.0]]); b = np.array([[0.7, 1.0], [0.6, 1.0]])
    >>> gsd_statistic(a, b, cardinal=[True, False]) >= 0  # a is better on both criteria everywhere
    True
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    cardinal = np.asarray(cardinal, dtype=bool)
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[1] or a.shape[1] != cardinal.size:
        raise McdaArgumentError(f"`a` and `b` must be 2-d with one column per criterion ({cardinal.size}); got "
                                f"shapes {a.shape} and {b.shape}", argument="a", value=(a.shape, b.shape))
    if not (np.isfinite(a).all() and np.isfinite(b).all()) or not len(a) or not len(b):
        raise McdaArgumentError("`a` and `b` must hold at least one row each, all finite", argument="a")
    outcomes, index = _pooled(a, b)
    program = _program(outcomes, cardinal)
    weights = _weights(index, len(a), program.n_outcomes)
    return _minimum(program, weights)


def _weights(index: np.ndarray, n_first: int, n_outcomes: int) -> np.ndarray:
    """(n_first(x) − n_second(x)) / n for the observations ``index`` (the first ``n_first`` are the first sample)."""
    first = np.bincount(index[:n_first], minlength=n_outcomes)
    second = np.bincount(index[n_first:], minlength=n_outcomes)
    return (first - second) / index.size


# =========================================================================== the procedure

def _cube(scores, metrics) -> xr.DataArray:
    cube = criteria_cube(scores, metrics, function="mcda.gsd_front", seeds=False,
                         reason="its linear programs compare every dataset's outcomes at once",
                         instead="load a subset of datasets first, e.g. cube.isel(dataset=slice(0, 200)).load()")
    return cube.transpose("dataset", "method", "metric")


def estimated_seconds(n_methods: int, n_datasets: int, *, n_tested: int = 0, n_resamples: int = 200) -> float:
    """Seconds of one core :func:`gsd_front` is estimated to take: k (k − 1) linear programs for the relation
    and n_tested (k − 1) n_resamples for the test, each about 1.6e-4 s × n_datasets² (measured on the
    worked example, 30 datasets and three cardinal criteria: 0.14 s; fewer with ordinal criteria).

    >>> round(estimated_seconds(10, 30), 1)
    13.0
    """
    k = n_methods
    return _SECONDS_PER_LP * n_datasets ** 2 * (k * (k - 1) + n_tested * (k - 1) * n_resamples)


def _contamination_shift(gamma: float) -> float:
    """How far the observed statistic moves when a share ``gamma`` of both samples may be contaminated."""
    return 2.0 * gamma / (1.0 - gamma)


def _pvalue(observed: float, permuted: np.ndarray, gamma: float) -> float:
    """(1 + #{permuted <= observed + shift}) / (1 + n): small when the observed d lies below the permutations'."""
    hits = np.count_nonzero(permuted <= observed + _contamination_shift(gamma) + _LP_TOLERANCE)
    return (1.0 + hits) / (1.0 + permuted.size)


@states_scale
def gsd_front(scores, *, metrics=None, ordinal=None, candidates=None, alpha: float = 0.05,
              n_resamples: int = 200, contamination: float = 0.0, rng=None) -> GsdFrontResult:
    """The GSD-front of methods over datasets on criteria of mixed scale, with its permutation test.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube` with a ``metric`` dim
        One score per (dataset, method, metric); each metric's direction comes from its card.
    metrics : sequence of str, optional
        The criteria (labels along ``metric``); default all.
    ordinal : sequence of str, optional
        The criteria read as ordinal: only the order of their values counts (a grade, a rank, a
        binned runtime). The others are cardinal: differences of their values count too.
        Default none (every criterion cardinal).
    candidates : sequence of str, optional
        The methods whose membership in the front is tested, each against every other method.
        Default the empirical front; ``[]`` tests none (the relation and the front only).
    alpha : float
        Level of the test.
    n_resamples : int
        Permutations per (tested method, competitor): one linear program each.
    contamination : float in [0, 1)
        The share γ of datasets allowed to be contaminated (the robustified test); 0: the plain
        permutation test.
    rng : numpy.random.Generator or seed, optional
        The source of the permutations.

    Returns
    -------
    GsdFrontResult

    Raises
    ------
    McdaArgumentError
        An unknown metric in ``metrics`` or ``ordinal``, an unknown method in ``candidates``, a
        bad ``alpha``, ``n_resamples`` or ``contamination``, scores with a ``seed`` dim, fewer
        than two methods or two complete datasets, or an LP over its memory bound.
    ComputeLimitError
        Before any linear program, when the relation and the test would take more than
        ``mcda.set_options(compute_limit=...)`` seconds of one core (about 1.6e-4 s × n_datasets²
        per linear program; the message gives the estimate and the way on).

    Notes
    -----
    d(A, B) = min_u Σ_x (n_A(x) − n_B(x)) u(x) / (n_A + n_B) over the utilities u with u(bottom) =
    0, u(top) = 1, u(x) ≥ u(y) on R1 and u(x) − u(y) ≥ u(z) − u(w) on R2 (see the module). A
    GSD-dominates B when d(A, B) ≥ 0 (within HiGHS' tolerance, 1e-7), strictly when moreover
    d(B, A) < 0. Datasets where some method lacks a result on some criterion are dropped (and
    listed); nothing is imputed. The permutation pools the two methods' results as two
    independent samples (the datasets' pairing is not used), as the paper does. The permutations
    are the same for every pair (drawn once from ``rng`` over positions in dataset-label order),
    so the result does not depend on the order the methods or datasets are given in.
    The p-value counts the permuted statistics at or below the observed one (plus
    2γ/(1 − γ) under contamination) and adds one to both counts, so it is never 0.

    References
    ----------
    .. [1] Jansen, C., Schollmeyer, G., Rodemann, J., Blocher, H. and Augustin, T. (2024).
       Statistical multicriteria benchmarking via the GSD-front. Advances in Neural Information
       Processing Systems 37 (NeurIPS 2024). arXiv:2406.03924.
    .. [2] Jansen, C., Schollmeyer, G., Blocher, H., Rodemann, J. and Augustin, T. (2023).
       Robust statistical comparison of random variables with locally varying scale of
       measurement. Proceedings of UAI 2023, PMLR 216, 941–952.

    Examples
    --------
    >>> import mcda
    >>> cube = mcda.datasets.synthetic_criteria(n_datasets=10, n_methods=3, rng=1)
    >>> res = mcda.gsd_front(cube, ordinal=["memory_mb"], candidates=[], rng=0)
    >>> res.to_frame().columns.tolist()
    ['method', 'in_front', 'dominated_by', 'p_raw', 'significant', 'tolerated_contamination']
    """
    cube = _cube(scores, metrics)
    labels = [str(m) for m in cube.coords["metric"].values]
    directions = [str(d) for d in cube.coords["direction"].values]
    for label, d in zip(labels, directions):
        if d not in DIRECTIONS:
            raise McdaArgumentError(f"metric {label!r} has direction {d!r}; it must be one of {set(DIRECTIONS)}",
                                    argument="scores", value=d)
    if ordinal is None:
        ordinal_list = []
    else:
        given = [ordinal] if isinstance(ordinal, str) else list(ordinal)
        ordinal_list = metric_keys(given, labels, argument="ordinal")
    alpha = check_alpha(alpha)
    n_resamples = check_positive_int("n_resamples", n_resamples)
    gamma = check_probability("contamination", contamination, closed="left")
    methods = [str(m) for m in cube.coords["method"].values]
    if len(set(methods)) < 2:
        raise McdaArgumentError(f"the GSD-front needs at least 2 methods; got {shown(methods)}", argument="scores",
                                value=methods)
    if candidates is not None:
        given = [candidates] if isinstance(candidates, str) else list(candidates)
        unknown = [str(c) for c in given if str(c) not in methods]
        if unknown:
            raise McdaArgumentError(f"`candidates` names methods not among the scores' methods "
                                    f"[{shown(methods)}]: {shown(unknown)}", argument="candidates", value=unknown,
                                    allowed=tuple(methods))
        candidates = list(dict.fromkeys(str(c) for c in given))
    gen = as_rng(rng)

    # datasets in label order, complete ones only (nothing imputed; the dropped are listed)
    datasets = [str(d) for d in cube.coords["dataset"].values]
    order = np.argsort(np.array(datasets, dtype=object), kind="stable")
    signs = direction_sign(directions)
    values = np.asarray(cube.values, dtype=np.float64)[order] * signs     # datasets × methods × criteria, oriented
    complete = ~np.isnan(values).any(axis=(1, 2))
    dropped = [datasets[i] for i in order[~complete]]
    values = values[complete]
    n = values.shape[0]
    if n < 2:
        raise McdaArgumentError(f"the GSD-front needs at least 2 datasets with a result of every method on every "
                                f"criterion; got {n}", argument="scores", value=n)
    if dropped:
        warn(f"the GSD-front leaves out {len(dropped)} dataset(s) where some method lacks a result: "
             f"{shown(dropped, fmt=str)} (nothing is imputed)", MissingDataWarning)
    cardinal = np.array([m not in ordinal_list for m in labels])
    k = len(methods)

    from mcda._core.options import check_compute

    n_tested = len(candidates) if candidates is not None else k        # the front: at most every method
    check_compute(estimated_seconds(k, n, n_tested=n_tested, n_resamples=n_resamples),
                  f"the GSD-front of {k} methods over {n} datasets: {k * (k - 1):,} linear programs for the relation"
                  f" and up to {n_tested * (k - 1) * n_resamples:,} for the test ({n_tested} method(s) × {k - 1} "
                  f"competitors × {n_resamples} permutations)",
                  "Name fewer `candidates` (candidates=[] for the relation and the front only) or ask for fewer "
                  "`n_resamples`", argument="candidates" if n_tested else "scores", value=n_tested)
    programs = {}
    statistic = np.full((k, k), math.nan)
    for i in range(k):
        for j in range(i + 1, k):
            outcomes, index = _pooled(values[:, i], values[:, j])
            program = _program(outcomes, cardinal)
            programs[i, j] = (program, index)
            w = _weights(index, n, program.n_outcomes)
            statistic[i, j] = _minimum(program, w)
            statistic[j, i] = _minimum(program, -w)
    weak = statistic >= -_LP_TOLERANCE
    strict = weak & ~weak.T
    np.fill_diagonal(strict, False)
    dominated_by = {m: [methods[i] for i in range(k) if strict[i, j]] for j, m in enumerate(methods)}
    front = [m for m in methods if not dominated_by[m]]
    tested = front if candidates is None else candidates

    # the test: the same permutations of the 2n pooled positions for every pair
    permutations = gen.permuted(np.tile(np.arange(2 * n), (n_resamples, 1)), axis=1)
    pvalues = np.full((k, k), math.nan)
    tolerated = {}
    front_p = {}
    shifts_k = np.array([_contamination_shift(c / n) for c in range(n)])  # c contaminated datasets, c < n
    for name in tested:
        j = methods.index(name)
        worst_by_k = np.zeros(n)
        for i in range(k):
            if i == j:
                continue
            program, index = programs[min(i, j), max(i, j)]
            # positions of the competitor's results first, the tested method's after
            pooled = np.concatenate([index[n:], index[:n]]) if i > j else index
            observed = statistic[i, j]
            permuted = np.array([_minimum(program, _weights(pooled[perm], n, program.n_outcomes))
                                 for perm in permutations])
            pvalues[i, j] = _pvalue(observed, permuted, gamma)
            hits = np.count_nonzero(permuted[None, :] <= observed + shifts_k[:, None] + _LP_TOLERANCE, axis=1)
            worst_by_k = np.maximum(worst_by_k, (1.0 + hits) / (1.0 + n_resamples))
        front_p[name] = float(np.nanmax(np.delete(pvalues[:, j], j)))
        failing = np.nonzero(worst_by_k > alpha)[0]   # p grows with the number of contaminated datasets
        tolerated[name] = float(failing[0] - 1 if failing.size else n - 1) if worst_by_k[0] <= alpha else math.nan
    frame = lambda a: pd.DataFrame(a, index=pd.Index(methods, name="method"), columns=pd.Index(methods, name="method"))
    return GsdFrontResult(
        methods=methods, metrics=labels, directions=pd.Series(directions, index=pd.Index(labels, name="metric")),
        ordinal=ordinal_list, statistics=frame(statistic), dominates=frame(strict), front=front,
        dominated_by=dominated_by, tested=list(tested),
        pvalues=frame(pvalues).loc[:, list(tested)] if tested else frame(pvalues).iloc[:, :0],
        front_pvalues=pd.Series(front_p, index=pd.Index(list(tested), name="method"), dtype=np.float64),
        tolerated_contamination=pd.Series(tolerated, index=pd.Index(list(tested), name="method"), dtype=np.float64),
        alpha=alpha, contamination=gamma, n_resamples=n_resamples, n_datasets=n, dropped_datasets=dropped)
