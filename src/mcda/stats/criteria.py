"""Several criteria at once: practical dominance, the practical Pareto front, outranking and
the stability of the top choice over the weights.

Methods are chosen on more than one metric (accuracy and runtime; ARI, stability and
memory). Each metric's card gives its direction and its noise floor, the smallest difference
it can honestly resolve; here the noise floors decide what counts as "better" on a criterion,
so near-ties never make one method dominate or outrank another.

The input is a score cube with a ``metric`` dim (coordinates ``direction(metric)`` and
``noise_floor(metric)``, as :func:`mcda.score_cube` builds it from the cards), one score per
(dataset, method, metric): reduce seeds first with :func:`mcda.reduce_seeds`. A cube without
a ``metric`` dim is one criterion.

- :func:`compare_criteria`: the across-dataset procedure and pairwise superiority for every
  criterion, side by side (each criterion on its own).
- :func:`practical_dominance`: per dataset, A dominates B when it is not worse beyond the noise
  floor on any criterion and better beyond it on at least one; across datasets, the dominance
  counts per pair, an exact sign test on them, and the practical Pareto front.
- :func:`promethee`: PROMETHEE II net flows, each card's noise floor as the indifference
  threshold, over user weights, per dataset and averaged over datasets.
- :func:`weight_stability`: over the simplex of weights, the share of weight vectors for which
  each method ranks first.

Examples
--------
>>> import mcda
>>> cube = mcda.datasets.load("duo2018_all").sel(metric=["ARI", "elapsed"])
>>> mcda.practical_dominance(cube).front
['CIDR', 'SC3', 'Seurat']
"""

from __future__ import annotations

import itertools
import math
import numbers
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import xarray as xr

from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError
from mcda._core.numeric import TIE_TOLERANCE, rank
from mcda._core.results import Result, states_scale
from mcda._core.validation import (MissingDataWarning, as_rng, check_choice, check_nonnegative_float, check_positive_int, check_probability, shown, warn)
from mcda.data.cards import DIRECTIONS, direction_sign
from mcda.data.cube import as_cube
from mcda.data.design import complete_cases, complete_cases_with, missing_policy
from mcda.data.checks import cube_metric, metric_keys
from mcda.stats.procedures import canonical

__all__ = [
    "CriteriaComparison",
    "compare_criteria",
    "PracticalDominance",
    "practical_dominance",
    "PrometheeResult",
    "promethee",
    "WeightStability",
    "weight_stability",
]
#: The families this module composes (tests/test_architecture.py lets a family import another only
#: when it is named here): compare_criteria runs the across-dataset procedure and pairwise
#: superiority per criterion, practical_dominance reads the pairwise sign test.
__composes__ = ("across", "pairwise")

#: The ``missing=`` policies of the outranking flows (:data:`mcda.data.design.MISSING_CHOICES`).
CRITERIA_MISSING = ("methods", "available", "complete")
# Net flows closer than the tie tolerance are tied (top choice, ranks): mcda._core.numeric.
_FLOW_TOL = TIE_TOLERANCE
_BLOCK_ELEMENTS = 2_000_000  # datasets × k × k × criteria per block: memory stays bounded
_GRID_MAX_CRITERIA = 3
_MAX_SHOWN = 8


# =========================================================================== preparation

@dataclass(frozen=True)
class _Criteria:
    """A cube of several criteria prepared once (internal).

    ``values`` is oriented (higher is better on every criterion), shape
    (n_datasets, n_methods, n_criteria); NaN marks a missing result.
    """

    cube: xr.DataArray
    values: np.ndarray
    methods: list
    datasets: list
    metrics: list
    directions: list
    floors: np.ndarray

    @property
    def n_metrics(self) -> int:
        return len(self.metrics)

    def present(self) -> np.ndarray:
        """(n_datasets, n_methods) bool: the method has a result on every criterion."""
        return ~np.isnan(self.values).any(axis=2)

    def series(self, values, name: str) -> pd.Series:
        return pd.Series(values, index=pd.Index(self.metrics, name="metric"), name=name)


def _metric_mapping(name: str, value, metrics: list, what: str) -> dict:
    """A partial mapping metric -> value, checked against the criteria."""
    if isinstance(value, pd.Series):
        value = value.to_dict()
    if not isinstance(value, Mapping):
        raise McdaArgumentTypeError(f"`{name}` must be a mapping metric -> {what} (a dict or a pandas Series); "
                        f"got {value!r}", argument=name, value=value)
    return dict(zip(metric_keys(value, metrics, argument=name), value.values()))


def _prepare(scores, *, metrics=None, rope=None) -> _Criteria:
    """Validate the cube and the criteria (one place for every public function)."""
    from mcda.data.blocks import require_in_memory

    require_in_memory(scores, "the multi-criteria views (practical_dominance, promethee, weight_stability)",
                      reason="they compare every (dataset, method, metric) cell across metrics at once",
                      instead="load a subset of datasets first, e.g. cube.isel(dataset=slice(0, 100_000)).load()")
    cube = as_cube(scores)
    if "seed" in cube.dims:
        raise McdaArgumentError("`scores` has a 'seed' dim; comparing criteria needs one score per (dataset, method, "
                         "metric). Reduce the seeds explicitly first, e.g. mcda.reduce_seeds(cube, how='mean') "
                         "(how seeds are collapsed is the analyst's decision).", argument="scores")
    extra = [d for d in cube.dims if d not in ("dataset", "method", "metric")]
    if extra:
        raise McdaArgumentError(f"`scores` has extra dims {extra}; select one value along each first "
                         f"(e.g. cube.sel({extra[0]}=...)).", argument="scores")
    if "metric" not in cube.dims:
        label = cube_metric(cube) or "score"
        floor = cube.attrs.get("noise_floor", math.nan)
        floor = math.nan if floor is None else float(floor)
        cube = cube.expand_dims(metric=[label], axis=-1).assign_coords(
            direction=("metric", np.array([str(cube.attrs["direction"])], dtype=object)),
            noise_floor=("metric", np.array([floor])))
    labels = [str(m) for m in cube.coords["metric"].values]
    if metrics is not None:
        if isinstance(metrics, str):
            metrics = [metrics]
        metrics = metric_keys(metrics, labels, argument="metrics")
        if len(set(metrics)) != len(metrics) or not metrics:
            raise McdaArgumentError(f"`metrics` must name at least one metric, each once; got {metrics!r}",
                                    argument="metrics", value=metrics)
        cube = cube.sel(metric=np.array(metrics, dtype=object))
        labels = metrics
    cube = cube.transpose("dataset", "method", "metric")
    directions = [str(d) for d in cube.coords["direction"].values]
    for label, d in zip(labels, directions):
        if d not in DIRECTIONS:
            raise McdaArgumentError(f"metric {label!r} has direction {d!r}; it must be one of {set(DIRECTIONS)}",
                                    argument=None)
    floors = np.array(cube.coords["noise_floor"].values, dtype=np.float64)
    if rope is not None:
        if isinstance(rope, numbers.Real) and not isinstance(rope, bool):
            if len(labels) != 1:
                raise McdaArgumentTypeError(f"`rope` must be a mapping metric -> floor when there are several criteria "
                                f"({shown(labels)}): each metric has its own units; got {rope!r}",
                                            argument="rope", value=rope)
            rope = {labels[0]: rope}
        for label, value in _metric_mapping("rope", rope, labels, "noise floor").items():
            floors[labels.index(label)] = check_nonnegative_float("rope", value)
    lacking = [m for m, f in zip(labels, floors) if math.isnan(f)]
    if lacking:
        raise McdaArgumentError(f"metrics {shown(lacking)} carry no card, so there is no noise floor to use; pass "
                         f"`rope={{{lacking[0]!r}: ...}}` (0.0 for none) or give them a card (mcda.register_card).",
                                argument="rope", value=rope)
    signs = direction_sign(directions)
    values = np.ascontiguousarray(cube.values * signs, dtype=np.float64)
    return _Criteria(cube=cube, values=values, methods=[str(m) for m in cube.coords["method"].values],
                     datasets=[str(d) for d in cube.coords["dataset"].values], metrics=labels,
                     directions=directions, floors=floors)


def _blocks(n_datasets: int, per_dataset: int):
    """Slices of datasets so that a block holds at most ``_BLOCK_ELEMENTS`` elements."""
    size = max(1, _BLOCK_ELEMENTS // max(1, per_dataset))
    for start in range(0, n_datasets, size):
        yield slice(start, min(n_datasets, start + size))


def _beyond(values: np.ndarray, floor: float) -> np.ndarray:
    """(n, k, k) bool: on each dataset, row − column > floor beyond rounding (one criterion, oriented).

    The boundary rule is :func:`mcda.stats.pairwise.count_regions`'s (|d| ≤ floor + 8 ulp is
    equivalent): :func:`mcda.stats.pairwise.beyond_rope` applies the same kernel rule per dataset.
    """
    from mcda.stats._shared.counts import beyond_rope

    return beyond_rope(values, floor)


def _tied_ranks(values: np.ndarray, tol: float = _FLOW_TOL) -> np.ndarray:
    """Ranks of ``values`` (1 = largest), values within ``tol`` of each other tied (average rank)."""
    return rank(values, descending=True, tolerance=tol)


# =========================================================================== per criterion

def _single_metric_cube(prep: _Criteria, c: int) -> xr.DataArray:
    """The scores of criterion ``c`` as a single-metric cube carrying its direction and floor."""
    from mcda.data.cards import MetricCard
    from mcda.data.cube import score_cube

    label = prep.metrics[c]
    raw = prep.cube.isel(metric=c, drop=True)
    data = xr.DataArray(raw.values, dims=("dataset", "method"),
                        coords={"dataset": raw.coords["dataset"].values, "method": raw.coords["method"].values},
                        name="score")
    card = MetricCard(name=label, direction=prep.directions[c], noise_floor=float(prep.floors[c]),
                      source="mcda.stats.criteria")
    return score_cube(data, metric=card)


@dataclass(frozen=True, repr=False)
class CriteriaComparison(Result):
    """The across-dataset procedure and pairwise superiority for every criterion, side by side.

    Attributes
    ----------
    metrics : list of str
    directions : pandas.Series
        Direction per metric.
    noise_floors : pandas.Series
        The rope of each metric's pairwise superiority (its card's floor unless ``rope`` overrode it).
    across : dict
        Metric -> :class:`~mcda.stats.across.compare.ComparisonResult` of
        :func:`mcda.compare_over_datasets` (Friedman, then a post-hoc only if it rejects).
    superiority : dict
        Metric -> :class:`~mcda.stats.pairwise.SuperiorityReport` of :func:`mcda.pairwise_superiority`.
    alpha : float
    test : str
    adjust : str or None
    """

    metrics: list
    directions: pd.Series
    noise_floors: pd.Series
    across: dict
    superiority: dict
    alpha: float
    test: str
    adjust: str | None

    def to_frame(self, view: str = "methods") -> pd.DataFrame:
        """A tidy table over every criterion.

        ``view="methods"`` (default): one row per (metric, method): ``metric, method,
        mean_rank`` (NaN for a method excluded as incomplete from the across-dataset
        procedure), ``n_separated`` (post-hoc comparisons in which it was separated),
        ``friedman_pvalue`` (of the metric's Iman–Davenport F), ``standing`` (pairwise
        superiority's Copeland-style score), ``n_superior`` and ``n_inferior`` (methods it is
        significantly better / worse than by the sign test).

        ``view="pairs"``: the rows of every ``SuperiorityReport.to_frame()`` with a leading
        ``metric`` column.
        """
        check_choice("view", view, ("methods", "pairs"))
        frames = []
        for metric in self.metrics:
            sup = self.superiority[metric]
            if view == "pairs":
                frame = sup.to_frame()
                frame.insert(0, "metric", metric)
                frames.append(frame)
                continue
            across = self.across[metric].to_frame().set_index("method")
            better = pd.Series(0, index=pd.Index(sup.methods, name="method"))
            worse = better.copy()
            for winner, loser in sup.superior_pairs:
                better[winner] += 1
                worse[loser] += 1
            frame = pd.DataFrame({
                "metric": metric, "method": sup.methods,
                "mean_rank": across["mean_rank"].reindex(sup.methods).to_numpy(),
                "n_separated": across["n_separated"].reindex(sup.methods).fillna(0).astype(int).to_numpy(),
                "friedman_pvalue": float(self.across[metric].friedman.f_pvalue),
                "standing": sup.standing.reindex(sup.methods).to_numpy(),
                "n_superior": better.to_numpy(), "n_inferior": worse.to_numpy()})
            frames.append(frame)
        return pd.concat(frames, ignore_index=True)

    def summary(self) -> str:
        """Per criterion: the omnibus verdict, the best method and the pairs told apart."""
        lines = [f"{len(self.metrics)} criteria, each compared across datasets ({self.test}, alpha {self.alpha:g}) "
                 f"and pairwise (sign test{', ' + self.adjust if self.adjust else ''})"]
        for metric, direction, floor in zip(self.metrics, self.directions, self.noise_floors):
            across, sup = self.across[metric], self.superiority[metric]
            best = str(across.mean_ranks.sort_values(kind="stable").index[0])
            verdict = ("omnibus rejects" if across.posthoc is not None else "omnibus does not reject")
            lines.append(f"{metric} ({direction.split('_')[0]} is better, rope {floor:g}): {verdict} "
                         f"(p = {across.friedman.f_pvalue:.3g}); lowest mean rank {best}; "
                         f"{len(sup.superior_pairs)} pair(s) told apart; pairwise order {', '.join(sup.order[:4])}"
                         + (", …" if len(sup.order) > 4 else ""))
        return "\n".join(lines)


@states_scale
def compare_criteria(scores, *, metrics=None, rope=None, alpha: float = 0.05, test: str = "nemenyi",
                     adjust: str | None = "holm") -> CriteriaComparison:
    """The across-dataset procedure and pairwise superiority for every criterion, in one call.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube` with a ``metric`` dim
        One score per (dataset, method, metric); reduce a ``seed`` dim first.
    metrics : sequence of str, optional
        The criteria; default all.
    rope : mapping metric -> float, optional
        Ropes of the pairwise superiority overriding the cards' noise floors.
    alpha : float
        Level of every test.
    test : str
        The all-pairs post-hoc of :func:`mcda.compare_over_datasets` ("nemenyi", "holm",
        "shaffer", "bergmann-hommel").
    adjust : {"holm", "bonferroni", None}
        Multiplicity adjustment of the pairwise sign tests, within each criterion.

    Returns
    -------
    CriteriaComparison
        ``metrics, directions, noise_floors, across`` (metric -> ComparisonResult),
        ``superiority`` (metric -> SuperiorityReport), ``alpha, test, adjust``;
        ``to_frame()`` gives one row per (metric, method), ``to_frame("pairs")`` one row per
        (metric, pair).

    Raises
    ------
    ValueError
        As :func:`practical_dominance` for the cube and the criteria, and as the two
        procedures for ``alpha``, ``test`` and ``adjust``.

    Notes
    -----
    Each criterion is analysed on its own, exactly as :func:`mcda.compare_over_datasets`
    (ranks within datasets, the Friedman / Iman–Davenport omnibus, a post-hoc only when it
    rejects, incomplete methods excluded and named) and :func:`mcda.pairwise_superiority`
    (per pair, wins beyond the metric's noise floor on shared datasets, exact sign test) do.
    The families are per criterion: nothing is adjusted across criteria, so a claim that
    combines criteria ("better on both") needs its own analysis: :func:`practical_dominance`.

    References
    ----------
    Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
    JMLR 7:1–30. https://jmlr.org/papers/v7/demsar06a.html

    Examples
    --------
    >>> import warnings
    >>> import mcda
    >>> cube = mcda.datasets.load("duo2018_all")
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")   # SAFE and ascend are incomplete; few datasets per pair
    ...     both = mcda.compare_criteria(cube, metrics=["ARI", "elapsed"])
    >>> table = both.to_frame()
    >>> table.loc[table["method"] == "Seurat", ["metric", "mean_rank"]].round(2).to_dict("list")
    {'metric': ['ARI', 'elapsed'], 'mean_rank': [4.79, 2.5]}
    """
    from mcda.stats._shared.ranks import prepare_across
    from mcda.stats.across.compare import COMPARISON_TESTS, compare_over_datasets
    from mcda.stats.pairwise import check_adjust, pairwise_superiority

    test = canonical("test", test, allowed=COMPARISON_TESTS)  # both checked before the data is read
    check_adjust(adjust)
    prep = _prepare(scores, metrics=metrics, rope=rope)
    across, superiority = {}, {}
    for c, metric in enumerate(prep.metrics):
        single = _single_metric_cube(prep, c)
        # too few complete methods is said here, naming compare_criteria's own ways out (it takes no `missing`)
        prepare_across(single, missing="methods", ways_out="none")
        across[metric] = compare_over_datasets(single, test=test, alpha=alpha)
        superiority[metric] = pairwise_superiority(single, rope=float(prep.floors[c]), alpha=alpha, adjust=adjust)
    return CriteriaComparison(metrics=prep.metrics, directions=prep.series(prep.directions, "direction"),
                              noise_floors=prep.series(prep.floors, "noise_floor"), across=across,
                              superiority=superiority, alpha=float(superiority[prep.metrics[0]].alpha),
                              test=across[prep.metrics[0]].test, adjust=adjust)


# =========================================================================== practical dominance

@dataclass(frozen=True, repr=False)
class PracticalDominance(Result):
    """Practical dominance between methods over several criteria, counted across datasets.

    Attributes
    ----------
    methods : list of str
    metrics : list of str
        The criteria.
    directions : pandas.Series
        Direction per metric (its card's).
    noise_floors : pandas.Series
        The floor used per metric, in its own units (the card's unless ``rope`` overrode it).
    dominates : pandas.DataFrame
        ``dominates.loc[a, b]``: datasets on which a practically dominates b.
    n_equivalent : pandas.DataFrame
        Datasets on which a and b are within the noise floor on every criterion (symmetric).
        The shared datasets left, ``n_shared − dominates − dominates.T − n_equivalent``, are
        trade-offs: each is better beyond the floor on some criterion.
    n_shared : pandas.DataFrame
        Datasets on which both have a result on every criterion (NaN cells dropped pairwise);
        the diagonal holds each method's complete datasets.
    pvalues : pandas.DataFrame
        Exact two-sided sign test of ``dominates[a, b]`` against ``dominates[b, a]``
        (symmetric; NaN on the diagonal and for pairs where neither dominates anywhere, the
        reason in ``reasons``). Not adjusted for multiplicity (see :func:`mcda.adjust_pvalues`).
    majority : pandas.DataFrame
        ``majority.loc[a, b]``: a dominates b on a strict majority of their shared datasets.
    front : list of str
        The practical Pareto front: the methods no other method dominates on a majority of
        shared datasets, in method order.
    dominated_by : dict
        Method -> the methods that dominate it on a majority of shared datasets (empty on the front).
    criterion_summary : pandas.DataFrame
        One row per (metric, method): ``metric, method, n_datasets, median, ci_low, ci_high``,
        the median score across the datasets where the method has a result on that metric,
        in the metric's own units, with a distribution-free confidence interval (NaN where
        too few datasets reach ``confidence_level``).
    confidence_level : float
    n_datasets : int
        Datasets in the input.
    reasons : dict
        ``(a, b) -> why the pair has no p-value``.
    """

    methods: list
    metrics: list
    directions: pd.Series
    noise_floors: pd.Series
    dominates: pd.DataFrame
    n_equivalent: pd.DataFrame
    n_shared: pd.DataFrame
    pvalues: pd.DataFrame
    majority: pd.DataFrame
    front: list
    dominated_by: dict
    criterion_summary: pd.DataFrame
    confidence_level: float
    n_datasets: int
    reasons: dict = field(default_factory=dict)

    def to_frame(self) -> pd.DataFrame:
        """One row per unordered pair (in method order).

        Columns: ``method_a, method_b, n_datasets`` (shared), ``a_dominates, b_dominates,
        equivalent`` (within the floor on every criterion), ``trade_off`` (each better beyond
        the floor on some criterion), ``p_raw``, ``majority`` (the method dominating on a
        strict majority of the shared datasets, or None) and ``reason`` (why the p-value is
        NaN, else "").
        """
        rows = []
        dom, shared, p = self.dominates.to_numpy(), self.n_shared.to_numpy(), self.pvalues.to_numpy()
        eq = self.n_equivalent.to_numpy()
        maj = self.majority.to_numpy()
        k = len(self.methods)
        for i in range(k):
            for j in range(i + 1, k):
                a, b = self.methods[i], self.methods[j]
                winner = a if maj[i, j] else (b if maj[j, i] else None)
                rows.append((a, b, int(shared[i, j]), int(dom[i, j]), int(dom[j, i]), int(eq[i, j]),
                             int(shared[i, j] - dom[i, j] - dom[j, i] - eq[i, j]), float(p[i, j]), winner,
                             self.reasons.get((a, b), "")))
        return pd.DataFrame(rows, columns=["method_a", "method_b", "n_datasets", "a_dominates", "b_dominates",
                                           "n_equivalent", "trade_off", "p_raw", "majority", "reason"])

    def summary(self) -> str:
        """A few lines for people: the criteria and floors, the front, who dominates whom."""
        floors = ", ".join(f"{m} ({d.split('_')[0]} is better, floor {f:g})"
                           for m, d, f in zip(self.metrics, self.directions, self.noise_floors))
        lines = [f"Practical dominance of {len(self.methods)} methods over {self.n_datasets} datasets on "
                 f"{len(self.metrics)} criteria: {floors}",
                 f"practical Pareto front: {', '.join(self.front) if self.front else 'empty (majority cycle)'}"]
        off_front = [f"{m} (by {', '.join(by)})" for m, by in self.dominated_by.items() if by]
        if off_front:
            lines.append("dominated on a majority of shared datasets: "
                         + shown(off_front, _MAX_SHOWN, fmt=str, sep="; "))
        return "\n".join(lines)


def _median_rank(n: int, confidence_level: float) -> int:
    """r of the order-statistic interval [x_(r), x_(n+1-r)] of the median; 0 when none reaches the level.

    The largest r with P(B ≤ r − 1) ≤ (1 − level) / 2, B ~ Binomial(n, 1/2) (Conover 1999, §3.2);
    the interval covers the median with probability 1 − 2 P(B ≤ r − 1) ≥ level.
    """
    from scipy import stats

    if n == 0:
        return 0
    tail = stats.binom.cdf(np.arange(n // 2 + 1), n, 0.5)  # P(B <= j) for j = 0 .. n // 2
    ok = np.nonzero(tail <= (1.0 - confidence_level) / 2.0 * (1.0 + 1e-12))[0]
    return int(ok[-1]) + 1 if ok.size else 0


def _criterion_summary(prep: _Criteria, confidence_level: float) -> pd.DataFrame:
    """Median per (metric, method) over the datasets with a result, with its order-statistic interval."""
    raw = np.sort(prep.cube.values, axis=0)  # NaN sorts last
    counts = (~np.isnan(raw)).sum(axis=0)  # (k, m)
    ranks = {n: _median_rank(int(n), confidence_level) for n in np.unique(counts)}
    rows = []
    for c, metric in enumerate(prep.metrics):
        for j, method in enumerate(prep.methods):
            n = int(counts[j, c])
            x = raw[:n, j, c]
            r = ranks[n]
            median = float(np.median(x)) if n else math.nan
            low, high = (float(x[r - 1]), float(x[n - r])) if r else (math.nan, math.nan)
            rows.append((metric, method, n, median, low, high))
    return pd.DataFrame(rows, columns=["metric", "method", "n_datasets", "median", "ci_low", "ci_high"])


@states_scale
def practical_dominance(scores, *, metrics=None, rope=None, confidence_level: float = 0.95) -> PracticalDominance:
    """Practical dominance over several criteria, across datasets, and the practical Pareto front.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube` with a ``metric`` dim
        One score per (dataset, method, metric); each metric's card gives its direction and
        noise floor. A cube without a ``metric`` dim is one criterion. Reduce a ``seed`` dim
        first (:func:`mcda.reduce_seeds`).
    metrics : sequence of str, optional
        The criteria (labels along ``metric``); default all.
    rope : mapping metric -> float, optional
        Noise floors overriding the cards' (in each metric's own units); a plain number when
        there is one criterion. Needed for metrics without a card.
    confidence_level : float
        Level of the intervals of ``criterion_summary`` (for :func:`mcda.plots.plot_tradeoffs`).

    Returns
    -------
    PracticalDominance
        ``methods, metrics, directions, noise_floors, dominates, n_equivalent, n_shared, pvalues, majority,
        front, dominated_by, criterion_summary, confidence_level, n_datasets, reasons``;
        ``to_frame()`` gives one row per pair.

    Raises
    ------
    ValueError
        A ``seed`` or other extra dim, unknown ``metrics``, a metric without a noise floor,
        a negative ``rope``, ``confidence_level`` outside (0, 1).

    Notes
    -----
    On dataset d, with oriented scores x (higher is better on every criterion c) and noise
    floors f_c, method a **practically dominates** b when

        no c has x_bc − x_ac > f_c   and   some c has x_ac − x_bc > f_c,

    i.e. a is not worse beyond the floor on any criterion and better beyond it on at least
    one. Differences within the floor (|d| ≤ f_c, up to 8 ulp of rounding, the boundary rule
    of :func:`mcda.stats.pairwise.pairwise_counts`) are near-ties and never make a method dominate.
    With a single criterion, dominance is superiority beyond the rope: ``dominates`` equals
    ``mcda.pairwise_counts(..., rope=floor).wins``.

    Across datasets, per pair, only the datasets where both methods have a result on every
    criterion count (NaN cells are dropped pairwise; ``n_shared``). ``dominates[a, b]`` and
    ``dominates[b, a]`` are compared with the exact two-sided sign test (binomial, p = 1/2,
    as ``scipy.stats.binomtest``), the datasets where neither dominates dropped, as in the
    sign test over datasets (Demšar 2006, §3.1.3). The **practical Pareto front** is the set
    of methods that no other method dominates on a strict majority of their shared datasets.
    The majority relation need not be transitive, so in principle the front can be empty
    (every method beaten by some other in a cycle); it is then reported as empty.

    ``criterion_summary`` is descriptive: per metric and method, the median over the
    datasets where the method has a result, with the distribution-free order-statistic
    interval for the median (coverage at least ``confidence_level``; NaN with fewer than 6
    datasets at 95 %). Scores on different datasets are on different scales, so it places
    methods on a plot; it is not a test.

    References
    ----------
    Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
    JMLR 7:1–30. https://jmlr.org/papers/v7/demsar06a.html
    Conover, W. J. (1999). Practical Nonparametric Statistics, 3rd ed., Wiley (§3.2, the
    confidence interval for a quantile).
    Miettinen, K. (1999). Nonlinear Multiobjective Optimization. Kluwer.
    doi:10.1007/978-1-4615-5563-6 (Pareto optimality).

    Examples
    --------
    >>> import mcda
    >>> cube = mcda.datasets.load("duo2018_all")
    >>> dom = mcda.practical_dominance(cube, metrics=["ARI", "elapsed"])
    >>> dom.front
    ['CIDR', 'SC3', 'Seurat']
    >>> row = dom.to_frame().query("method_a == 'SC3' and method_b == 'Seurat'").iloc[0]
    >>> [int(row[c]) for c in ("n_datasets", "a_dominates", "b_dominates", "n_equivalent", "trade_off")]
    [12, 0, 6, 0, 6]

    Seurat dominates SC3 on half of their datasets (the sign test gives p = 2 / 2**6), but
    not on a majority: on the other six SC3 is more accurate and slower, so both stay on
    the front.
    """
    confidence_level = check_probability("confidence_level", confidence_level)
    prep = _prepare(scores, metrics=metrics, rope=rope)
    n, k, m = prep.values.shape
    dominates = np.zeros((k, k), dtype=np.int64)
    equivalent = np.zeros((k, k), dtype=np.int64)
    shared = np.zeros((k, k), dtype=np.int64)
    present_all = prep.present()
    for block in _blocks(n, k * k * m):
        present = present_all[block]
        valid = present[:, :, None] & present[:, None, :]
        better_any = np.zeros((present.shape[0], k, k), dtype=bool)
        worse_any = np.zeros_like(better_any)
        for c in range(m):
            better = _beyond(prep.values[block, :, c], prep.floors[c])
            better_any |= better
            worse_any |= better.transpose(0, 2, 1)
        dominates += (valid & better_any & ~worse_any).sum(axis=0)
        equivalent += (valid & ~better_any & ~worse_any).sum(axis=0)
        shared += valid.sum(axis=0)
    return _dominance_result(prep, dominates, equivalent, shared, confidence_level)


def _dominance_result(prep: _Criteria, dominates: np.ndarray, equivalent: np.ndarray, shared: np.ndarray,
                      confidence_level: float) -> PracticalDominance:
    from mcda.stats.pairwise import sign_test_pvalues

    methods = prep.methods
    k = len(methods)
    off = ~np.eye(k, dtype=bool)
    pvalues = sign_test_pvalues(dominates, dominates.T)
    pvalues[~off] = np.nan
    majority = off & (2 * dominates > shared)
    reasons = {}
    for i, j in zip(*np.triu_indices(k, 1)):
        a, b = methods[i], methods[j]
        if shared[i, j] == 0:
            reasons[(a, b)] = reasons[(b, a)] = "no dataset where both have a result on every criterion"
        elif dominates[i, j] + dominates[j, i] == 0:
            reasons[(a, b)] = reasons[(b, a)] = (f"neither dominates on any of the {shared[i, j]} shared datasets: "
                                                 "no decisive dataset for the sign test")
    dominated_by = {methods[j]: [methods[i] for i in range(k) if majority[i, j]] for j in range(k)}
    front = [m for m in methods if not dominated_by[m]]
    idx = pd.Index(methods, name="method")
    frame = lambda a: pd.DataFrame(a, index=idx, columns=idx.rename("versus"))  # noqa: E731
    return PracticalDominance(
        methods=methods, metrics=prep.metrics, directions=prep.series(prep.directions, "direction"),
        noise_floors=prep.series(prep.floors, "noise_floor"), dominates=frame(dominates),
        n_equivalent=frame(equivalent), n_shared=frame(shared),
        pvalues=frame(pvalues), majority=frame(majority), front=front, dominated_by=dominated_by,
        criterion_summary=_criterion_summary(prep, confidence_level), confidence_level=confidence_level,
        n_datasets=len(prep.datasets), reasons=reasons)


# =========================================================================== PROMETHEE II

def _thresholds(prep: _Criteria, preference) -> np.ndarray:
    """Preference thresholds p per criterion (NaN: usual criterion with indifference)."""
    p = np.full(prep.n_metrics, np.nan)
    if preference is None:
        return p
    if isinstance(preference, numbers.Real) and not isinstance(preference, bool):
        if prep.n_metrics != 1:
            raise McdaArgumentTypeError(f"`preference` must be a mapping metric -> threshold when there are several criteria "
                            f"({shown(prep.metrics)}); got {preference!r}", argument="preference", value=preference)
        preference = {prep.metrics[0]: preference}
    for label, value in _metric_mapping("preference", preference, prep.metrics, "preference threshold").items():
        if value is None:
            continue
        c = prep.metrics.index(label)
        v = check_nonnegative_float("preference", value)
        if not v > prep.floors[c]:
            raise McdaArgumentError(f"`preference` for metric {label!r} must exceed its indifference threshold (noise "
                             f"floor) {prep.floors[c]:g}; got {value!r}. Use None for the usual criterion with "
                             "indifference (a step at the floor).", argument="preference", value=value)
        p[c] = v
    return p


def _weights(prep: _Criteria, weights) -> np.ndarray:
    """Normalised criterion weights (equal by default)."""
    if weights is None:
        return np.full(prep.n_metrics, 1.0 / prep.n_metrics)
    mapping = _metric_mapping("weights", weights, prep.metrics, "weight")
    lacking = [m for m in prep.metrics if m not in mapping]
    if lacking:
        raise McdaArgumentError(f"`weights` must give a weight to every criterion; it lacks {shown(lacking)}",
                                argument="weights")
    raw = []
    for label in prep.metrics:
        w = mapping[label]
        if isinstance(w, (bool, np.bool_)) or not isinstance(w, numbers.Real) or not math.isfinite(float(w)) or w < 0:
            raise McdaArgumentError(f"`weights` must be finite numbers >= 0; got {w!r} for metric {label!r}",
                                    argument="weights")
        raw.append(float(w))
    raw = np.array(raw)
    if not (raw > 0).any():
        raise McdaArgumentError("`weights` are all zero; at least one criterion needs a positive weight",
                                argument="weights")
    return raw / raw.sum()


@dataclass(frozen=True)
class _Flows:
    """Per-criterion flows per dataset (internal): arrays (n_datasets, n_criteria, n_methods)."""

    prep: _Criteria
    positive: np.ndarray
    negative: np.ndarray
    kept_datasets: list
    dropped_datasets: tuple
    excluded: dict
    methods: list
    preference: np.ndarray
    missing: str = "complete"

    @property
    def net(self) -> np.ndarray:
        return self.positive - self.negative

    def mean(self, array: np.ndarray) -> np.ndarray:
        """Mean over datasets (where the method has a result): (n_criteria, n_methods)."""
        with np.errstate(invalid="ignore"):
            return np.nanmean(array, axis=0) if np.isnan(array).any() else array.mean(axis=0)


def _criterion_flows(scores, *, metrics, rope, preference, missing, check=None) -> _Flows:
    """The per-criterion flows; ``check(prep)`` validates the caller's own arguments first
    (before anything is computed or warned about)."""
    missing = missing_policy(missing, allowed=CRITERIA_MISSING)
    prep = _prepare(scores, metrics=metrics, rope=rope)
    p = _thresholds(prep, preference)
    if check is not None:
        check(prep)
    excluded: dict = {}
    values, methods, datasets = prep.values, prep.methods, prep.datasets
    if missing == "complete":
        cc = complete_cases_with(prep.cube, policy="methods", ways_out="missing_no_datasets")  # no 'datasets' here
        method_at = {label: j for j, label in enumerate(methods)}
        dataset_at = {label: i for i, label in enumerate(datasets)}
        keep_m = [method_at[str(x)] for x in cc.cube.coords["method"].values]
        keep_d = [dataset_at[str(x)] for x in cc.cube.coords["dataset"].values]
        values = values[np.ix_(keep_d, keep_m)]
        methods = [methods[j] for j in keep_m]
        datasets = [datasets[i] for i in keep_d]
        excluded = dict(cc.excluded)
    present = ~np.isnan(values).any(axis=2)
    k_present = present.sum(axis=1)
    kept = k_present >= 2
    somewhere = (present & kept[:, None]).any(axis=0)
    if not somewhere.all():
        # "available": a method with no dataset to be compared on is named, not ranked
        for j in np.nonzero(~somewhere)[0]:
            excluded[methods[j]] = tuple(datasets)
        values = values[:, somewhere]
        methods = [mth for mth, keep in zip(methods, somewhere) if keep]
        present = present[:, somewhere]
        k_present = present.sum(axis=1)
        kept = k_present >= 2
    dropped = tuple(d for d, keep in zip(datasets, kept) if not keep)
    values, present, k_present = values[kept], present[kept], k_present[kept]
    datasets = [d for d, keep in zip(datasets, kept) if keep]
    if not datasets:
        raise McdaArgumentError("no dataset has results for at least 2 methods on every criterion; nothing to compare",
                                argument=None)
    if excluded or dropped:
        parts = [f"{mth} lacks {shown(lacks, 4)}" for mth, lacks in list(excluded.items())[:_MAX_SHOWN]]
        if dropped:
            parts.append(f"datasets with fewer than 2 complete methods dropped: {shown(dropped, 4)}")
        warn(f"{len(excluded)} method(s) excluded from the outranking (nothing is imputed; missing={missing!r}): "
             + "; ".join(parts) + ".", MissingDataWarning)
    n, k, m = values.shape
    positive = np.full((n, m, k), np.nan)
    negative = np.full((n, m, k), np.nan)
    for block in _blocks(n, k * k * m):
        pres = present[block]
        valid = pres[:, :, None] & pres[:, None, :]
        scale = (k_present[block] - 1).astype(np.float64)[:, None]
        for c in range(m):
            x = values[block, :, c]
            beyond = _beyond(x, prep.floors[c])
            if np.isnan(p[c]):
                # preference 0 or 1: the sums of ones are counts (exact either way)
                beyond &= valid
                plus = np.count_nonzero(beyond, axis=2) / scale
                minus = np.count_nonzero(beyond, axis=1) / scale
            else:
                pref = beyond.astype(np.float64)
                with np.errstate(invalid="ignore"):
                    diff = x[:, :, None] - x[:, None, :]
                    pref *= np.clip((diff - prep.floors[c]) / (p[c] - prep.floors[c]), 0.0, 1.0)
                pref = np.where(valid, pref, 0.0)
                plus = pref.sum(axis=2) / scale
                minus = pref.sum(axis=1) / scale
            positive[block, c, :] = np.where(pres, plus, np.nan)
            negative[block, c, :] = np.where(pres, minus, np.nan)
    sub = _Criteria(cube=prep.cube, values=values, methods=methods, datasets=datasets, metrics=prep.metrics,
                    directions=prep.directions, floors=prep.floors)
    return _Flows(prep=sub, positive=positive, negative=negative, kept_datasets=datasets, dropped_datasets=dropped,
                  excluded=excluded, methods=methods, preference=p, missing=missing)


@dataclass(frozen=True, repr=False)
class PrometheeResult(Result):
    """PROMETHEE II net flows with the noise floors as indifference thresholds.

    Attributes
    ----------
    methods : list of str
        The methods ranked (incomplete methods excluded under ``missing="complete"``).
    metrics : list of str
    weights : pandas.Series
        Weight per metric, normalised to sum to 1.
    indifference : pandas.Series
        Indifference threshold q per metric: its noise floor (or the ``rope`` given).
    preference : pandas.Series
        Preference threshold p per metric; NaN for the usual criterion with indifference.
    net_flow : pandas.Series
        Mean over datasets of the per-dataset PROMETHEE II net flow φ = φ⁺ − φ⁻, in [−1, 1];
        larger is better.
    positive_flow, negative_flow : pandas.Series
        Means over datasets of φ⁺ (how much a method outranks the others) and φ⁻ (how much it is
        outranked).
    per_dataset : pandas.DataFrame
        Net flow per dataset (datasets × methods; NaN where a method has no result under
        ``missing="available"``).
    criterion_flows : pandas.DataFrame
        Metrics × methods: the mean over datasets of each criterion's own (unweighted) net
        flow; ``net_flow == weights @ criterion_flows``.
    order : list of str
        Methods by decreasing net flow (ties in input order).
    top : list of str
        The method(s) with the largest net flow (several when tied within 1e-10).
    n_datasets : pandas.Series
        Datasets per method.
    missing : str
    excluded : dict
        Method -> datasets it lacks (dropped under ``missing="complete"``).
    dropped_datasets : tuple
        Datasets with fewer than 2 methods having results on every criterion (no comparison).
    """

    methods: list
    metrics: list
    weights: pd.Series
    indifference: pd.Series
    preference: pd.Series
    net_flow: pd.Series
    positive_flow: pd.Series
    negative_flow: pd.Series
    per_dataset: pd.DataFrame
    criterion_flows: pd.DataFrame
    order: list
    top: list
    n_datasets: pd.Series
    missing: str = "complete"
    excluded: dict = field(default_factory=dict)
    dropped_datasets: tuple = ()

    def to_frame(self) -> pd.DataFrame:
        """One row per method, best first: ``method, net_flow, positive_flow, negative_flow, rank,
        n_datasets`` (rank 1 = best, net flows within 1e-10 tied with the average rank)."""
        frame = pd.DataFrame({"method": self.methods, "net_flow": self.net_flow.to_numpy(),
                              "positive_flow": self.positive_flow.to_numpy(),
                              "negative_flow": self.negative_flow.to_numpy(),
                              "rank": _tied_ranks(self.net_flow.to_numpy()),
                              "n_datasets": self.n_datasets.to_numpy()})
        return frame.sort_values(["rank"], kind="stable").reset_index(drop=True)

    def summary(self) -> str:
        crit = ", ".join(f"{m} (w {w:.3g}, q {q:g}" + (f", p {p:g})" if not math.isnan(p) else ")")
                         for m, w, q, p in zip(self.metrics, self.weights, self.indifference, self.preference))
        lines = [f"PROMETHEE II over {len(self.metrics)} criteria: {crit}",
                 f"mean net flow over {int(self.n_datasets.max())} datasets: "
                 + shown(self.order, _MAX_SHOWN, fmt=lambda m: f"{m} {self.net_flow[m]:+.3f}"),
                 f"top choice: {' = '.join(self.top)}"]
        for method, lacks in self.excluded.items():
            lines.append(f"excluded (incomplete): {method} lacks {list(lacks)}")
        if self.dropped_datasets:
            lines.append(f"datasets with fewer than 2 complete methods (dropped): {list(self.dropped_datasets)}")
        return "\n".join(lines)


def _top(flows: np.ndarray) -> np.ndarray:
    """(..., k) bool: the methods within the tie tolerance of the largest flow."""
    return flows >= np.nanmax(flows, axis=-1, keepdims=True) - _FLOW_TOL


@states_scale
def promethee(scores, *, weights=None, metrics=None, rope=None, preference=None,
              missing: str = "methods") -> PrometheeResult:
    """PROMETHEE II net flows over several criteria, the noise floors as indifference thresholds.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube` with a ``metric`` dim
        One score per (dataset, method, metric); each metric's card gives its direction and
        noise floor. Reduce a ``seed`` dim first (:func:`mcda.reduce_seeds`).
    weights : mapping metric -> float >= 0, optional
        The weight of each criterion (every criterion named; normalised to sum to 1). Default:
        equal weights.
    metrics : sequence of str, optional
        The criteria (labels along ``metric``); default all.
    rope : mapping metric -> float, optional
        Indifference thresholds q overriding the cards' noise floors (each metric's own units).
    preference : mapping metric -> float, optional
        Preference thresholds p (> q) for the criteria that should have a linear preference
        between q and p; the others keep the usual criterion with indifference.
    missing : {"methods", "available"}
        ``"methods"`` (default; also spelt ``"complete"``) drops every method lacking a result on
        some dataset (named in ``excluded``; the result records ``"complete"``). ``"available"`` runs PROMETHEE on each dataset among the methods that
        have results on every criterion there and averages each method over its datasets;
        flows from different pools are not on quite the same footing, so read it as
        descriptive.

    Returns
    -------
    PrometheeResult
        ``methods, metrics, weights, indifference, preference, net_flow, positive_flow,
        negative_flow, per_dataset, criterion_flows, order, top, n_datasets, missing,
        excluded, dropped_datasets``; ``to_frame()`` gives one row per method.

    Raises
    ------
    ValueError
        A ``seed`` or other extra dim; unknown metrics in ``metrics``, ``weights``, ``rope`` or
        ``preference``; weights negative, all zero or not naming every criterion; ``p ≤ q``;
        an unknown ``missing``.

    Warns
    -----
    MissingDataWarning
        When methods are excluded (or datasets dropped) for missing results, naming them.

    Notes
    -----
    On one dataset, with oriented scores (higher is better) and d_c(a, b) = x_ac − x_bc, the
    preference of a over b on criterion c is

        P_c(a, b) = 0                        if d ≤ q_c   (indifference: the noise floor)
                  = (d − q_c) / (p_c − q_c)  if q_c < d ≤ p_c
                  = 1                        if d > p_c,

    the V-shape with indifference (Brans & Vincke 1985, type V); without p_c it is the usual
    criterion with indifference (type II: 1 as soon as d > q_c). The boundary d = q_c (up to
    8 ulp of rounding) is indifference, as in :func:`mcda.stats.pairwise.pairwise_counts`. With
    weights w_c summing to 1 and k methods on the dataset,

        φ⁺(a) = Σ_b Σ_c w_c P_c(a, b) / (k − 1),   φ⁻(a) = Σ_b Σ_c w_c P_c(b, a) / (k − 1),

    and the PROMETHEE II net flow is φ(a) = φ⁺(a) − φ⁻(a) ∈ [−1, 1]; the net flows of a dataset
    sum to 0. Across datasets, ``net_flow`` is the mean of the per-dataset net flows: every
    dataset counts once, which is PROMETHEE II run once with every (dataset, criterion) pair
    as a criterion of weight w_c / N. Net flows are linear in the weights
    (``net_flow = Σ_c w_c · criterion_flows[c]``), which :func:`weight_stability` uses.

    The ranking is descriptive (no test). Scores enter only through differences on one
    dataset and one criterion, so criteria in different units are never mixed.

    References
    ----------
    Brans, J. P. & Vincke, Ph. (1985). A preference ranking organisation method (The PROMETHEE
    method for multiple criteria decision-making). Management Science 31(6):647–656.
    doi:10.1287/mnsc.31.6.647
    Brans, J. P., Vincke, Ph. & Mareschal, B. (1986). How to select and how to rank projects:
    the PROMETHEE method. European Journal of Operational Research 24(2):228–238.
    doi:10.1016/0377-2217(86)90044-5

    Examples
    --------
    >>> import mcda
    >>> cube = mcda.datasets.load("duo2018_all")
    >>> res = mcda.promethee(cube, metrics=["ARI", "elapsed"], weights={"ARI": 0.7, "elapsed": 0.3})
    >>> res.top, sorted(res.excluded)
    (['Seurat'], ['SAFE', 'ascend'])
    >>> abs(float(res.net_flow.sum())) < 1e-12   # the net flows of a dataset sum to 0
    True
    >>> res.to_frame().head(3)[["method", "net_flow", "rank"]].round(3).to_dict("list")
    {'method': ['Seurat', 'PCAHC', 'SC3'], 'net_flow': [0.427, 0.236, 0.205], 'rank': [1.0, 2.0, 3.0]}
    """
    flows = _criterion_flows(scores, metrics=metrics, rope=rope, preference=preference, missing=missing,
                             check=lambda prep: _weights(prep, weights))
    prep = flows.prep
    w = _weights(prep, weights)
    per_dataset = np.einsum("c,ncm->nm", w, flows.net)
    positive = np.einsum("c,ncm->nm", w, flows.positive)
    negative = np.einsum("c,ncm->nm", w, flows.negative)
    with np.errstate(invalid="ignore"):
        mean = lambda a: np.nanmean(a, axis=0) if np.isnan(a).any() else a.mean(axis=0)  # noqa: E731
        net, plus, minus = mean(per_dataset), mean(positive), mean(negative)
    criterion = flows.mean(flows.net)
    methods = flows.methods
    idx = pd.Index(methods, name="method")
    ranks = _tied_ranks(net)
    order = [methods[i] for i in np.lexsort((np.arange(len(methods)), ranks))]
    return PrometheeResult(
        methods=methods, metrics=prep.metrics, weights=prep.series(w, "weight"),
        indifference=prep.series(prep.floors, "indifference"), preference=prep.series(flows.preference, "preference"),
        net_flow=pd.Series(net, index=idx, name="net_flow"),
        positive_flow=pd.Series(plus, index=idx, name="positive_flow"),
        negative_flow=pd.Series(minus, index=idx, name="negative_flow"),
        per_dataset=pd.DataFrame(per_dataset, index=pd.Index(flows.kept_datasets, name="dataset"), columns=idx),
        criterion_flows=pd.DataFrame(criterion, index=pd.Index(prep.metrics, name="metric"), columns=idx),
        order=order, top=[m for m, t in zip(methods, _top(net)) if t],
        n_datasets=pd.Series((~np.isnan(per_dataset)).sum(axis=0), index=idx, name="n_datasets"),
        missing=flows.missing, excluded=flows.excluded, dropped_datasets=flows.dropped_datasets)


# =========================================================================== weight stability

def _simplex_grid(n_criteria: int, n_steps: int) -> np.ndarray:
    """Every weight vector with coordinates in {0, 1/n_steps, …, 1} summing to 1 (lexicographic)."""
    if n_criteria == 1:
        return np.ones((1, 1))
    rows = [c + (n_steps - sum(c),) for c in itertools.product(range(n_steps + 1), repeat=n_criteria - 1)
            if sum(c) <= n_steps]
    return np.array(rows, dtype=np.float64) / n_steps


@dataclass(frozen=True, repr=False)
class WeightStability(Result):
    """How the top choice of PROMETHEE II moves over the simplex of criterion weights.

    Attributes
    ----------
    methods : list of str
    metrics : list of str
    weights : pandas.DataFrame
        The weight vectors tried (points × metrics, each row summing to 1).
    net_flows : pandas.DataFrame
        Points × methods: the mean PROMETHEE II net flow under each weight vector.
    top : pandas.Series
        Per point: the top method ("A = B" when tied within 1e-10).
    share_first : pandas.Series
        Per method: the share of weight vectors for which it ranks first (a tie shares the
        point equally), summing to 1.
    sampling : {"grid", "dirichlet"}
        A regular grid (≤ 3 criteria) or uniform random draws on the simplex.
    n_steps : int or None
        Grid steps per unit weight (grid only).
    n_resamples : int or None
        Random weight vectors drawn (Dirichlet only).
    criterion_flows : pandas.DataFrame
        Metrics × methods: each criterion's mean net flow (``net_flows = weights @ criterion_flows``).
    indifference, preference : pandas.Series
        The thresholds per metric (as in :class:`PrometheeResult`).
    excluded : dict
    dropped_datasets : tuple
    """

    methods: list
    metrics: list
    weights: pd.DataFrame
    net_flows: pd.DataFrame
    top: pd.Series
    share_first: pd.Series
    sampling: str
    n_steps: int | None
    n_resamples: int | None
    criterion_flows: pd.DataFrame
    indifference: pd.Series
    preference: pd.Series
    excluded: dict = field(default_factory=dict)
    dropped_datasets: tuple = ()

    def to_frame(self) -> pd.DataFrame:
        """One row per method, most often first: ``method, share_first``."""
        frame = self.share_first.rename("share_first").rename_axis("method").reset_index()
        order = np.lexsort((np.arange(len(frame)), -frame["share_first"].to_numpy()))
        return frame.iloc[order].reset_index(drop=True)

    def top_choices(self) -> pd.DataFrame:
        """One row per weight vector: the weights (one column per metric), ``top`` and its ``net_flow``."""
        frame = self.weights.copy()
        frame["top"] = self.top.to_numpy()
        frame["net_flow"] = self.net_flows.max(axis=1).to_numpy()
        return frame.reset_index(drop=True)

    def summary(self) -> str:
        how = (f"a grid of {len(self.weights)} weight vectors (steps of 1/{self.n_steps})" if self.sampling == "grid"
               else f"{len(self.weights)} uniform random weight vectors")
        shares = [f"{m} {s:.1%}" for m, s in self.share_first.sort_values(ascending=False, kind="stable").items()
                  if s > 0]
        lines = [f"Top choice of PROMETHEE II over {how} on {len(self.metrics)} criteria ({', '.join(self.metrics)})",
                 "ranks first: " + ", ".join(shares)]
        if self.excluded:
            lines.append(f"excluded (incomplete): {', '.join(self.excluded)}")
        return "\n".join(lines)


@states_scale
def weight_stability(scores, *, metrics=None, rope=None, preference=None, missing: str = "methods",
                     n_steps: int = 20, n_resamples: int = 10_000, rng=None) -> WeightStability:
    """The share of criterion weights for which each method is PROMETHEE II's top choice.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube` with a ``metric`` dim
        As for :func:`promethee`.
    metrics, rope, preference, missing
        As for :func:`promethee`.
    n_steps : int
        With up to 3 criteria, the weights are the regular grid of the simplex with steps of
        ``1 / n_steps`` (21 points for 2 criteria, 231 for 3 at the default 20).
    n_resamples : int
        With more than 3 criteria, the number of weight vectors drawn uniformly on the simplex
        (Dirichlet(1, …, 1)).
    rng : numpy.random.Generator or seed, optional
        For the random draws (unused on the grid).

    Returns
    -------
    WeightStability
        ``methods, metrics, weights, net_flows, top, share_first, sampling, n_steps,
        n_resamples, criterion_flows, indifference, preference, excluded,
        dropped_datasets``; ``to_frame()`` gives the share per method, ``top_choices()`` the
        top method per weight vector.

    Raises
    ------
    ValueError
        As for :func:`promethee`; ``n_steps`` or ``n_resamples`` below 1.

    Notes
    -----
    PROMETHEE II net flows are linear in the weights: with Φ the criteria × methods matrix
    of per-criterion mean net flows (``criterion_flows``), the net flows under a weight
    vector w are w · Φ. The preferences are computed once and every weight vector costs one
    small product. A share of 1 means the top choice does not depend on the weights; a share
    spread over several methods means the choice is a matter of how the criteria are
    weighed, which the user should state.

    The grid covers the simplex uniformly, vertices (one criterion only) and edges included;
    beyond 3 criteria a grid grows too fast and uniform Dirichlet draws replace it, so the
    shares are Monte Carlo estimates (standard error at most 0.5 / √n_resamples).

    References
    ----------
    Brans, J. P. & Mareschal, B. (1994). The PROMCALC & GAIA decision support system for
    multicriteria decision aid. Decision Support Systems 12(4–5):297–310.
    doi:10.1016/0167-9236(94)90048-5 (weight stability intervals)
    Butler, J., Jia, J. & Dyer, J. (1997). Simulation techniques for the sensitivity analysis
    of multi-criteria decision models. European Journal of Operational Research
    103(3):531–546. doi:10.1016/S0377-2217(96)00307-4

    Examples
    --------
    >>> import mcda
    >>> cube = mcda.datasets.load("duo2018_all")
    >>> ws = mcda.weight_stability(cube, metrics=["ARI", "elapsed"], n_steps=10)
    >>> ws.top_choices()[["elapsed", "top"]].iloc[[0, 8, 9, 10]].to_dict("list")
    {'elapsed': [1.0, 0.2, 0.1, 0.0], 'top': ['Seurat', 'Seurat', 'SC3', 'SC3']}
    >>> ws.share_first[["SC3", "Seurat"]].round(3).tolist()
    [0.182, 0.818]
    """
    n_steps = check_positive_int("n_steps", n_steps)
    n_resamples = check_positive_int("n_resamples", n_resamples)
    gen = as_rng(rng)
    flows = _criterion_flows(scores, metrics=metrics, rope=rope, preference=preference, missing=missing)
    prep = flows.prep
    m = prep.n_metrics
    from mcda._core.options import check_allocation, check_count_allocation

    k = len(flows.methods)
    # per weight point: the weights, the net flows, the top flags and the top's label (about 100 bytes)
    per_point = 8 * (m + 2 * k) + 100
    if m <= _GRID_MAX_CRITERIA:
        points = math.comb(n_steps + m - 1, m - 1)
        check_allocation(points * (per_point + 8 * m + 100), f"`n_steps`={n_steps} gives {points:,} weight points "
                         f"of {m} criteria", "Use fewer n_steps", argument="n_steps", value=n_steps)
        sampling, grid = "grid", _simplex_grid(m, n_steps)
    else:
        check_count_allocation("n_resamples", n_resamples, per_point, f"weight points of {m} criteria are kept")
        sampling, grid = "dirichlet", gen.dirichlet(np.ones(m), size=n_resamples)
    criterion = flows.mean(flows.net)
    # the mean over datasets of weighted per-dataset flows is the weighted per-criterion mean
    net = grid @ criterion
    is_top = _top(net)
    share = (is_top / is_top.sum(axis=1, keepdims=True)).mean(axis=0)
    methods = flows.methods
    idx = pd.Index(methods, name="method")
    points = pd.RangeIndex(len(grid), name="point")
    top = [" = ".join(m_ for m_, t in zip(methods, row) if t) for row in is_top]
    return WeightStability(
        methods=methods, metrics=prep.metrics,
        weights=pd.DataFrame(grid, index=points, columns=pd.Index(prep.metrics, name="metric")),
        net_flows=pd.DataFrame(net, index=points, columns=idx), top=pd.Series(top, index=points, name="top"),
        share_first=pd.Series(share, index=idx, name="share_first"), sampling=sampling,
        n_steps=n_steps if sampling == "grid" else None, n_resamples=n_resamples if sampling == "dirichlet" else None,
        criterion_flows=pd.DataFrame(criterion, index=pd.Index(prep.metrics, name="metric"), columns=idx),
        indifference=prep.series(prep.floors, "indifference"), preference=prep.series(flows.preference, "preference"),
        excluded=flows.excluded, dropped_datasets=flows.dropped_datasets)
