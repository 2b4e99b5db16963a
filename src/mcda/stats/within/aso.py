"""Within a dataset, over seeds: does A's distribution of scores almost stochastically dominate B's?

:func:`almost_stochastic_order` compares the seed distributions of every pair of methods on each
dataset by the almost stochastic order of del Barrio, Cuesta-Albertos & Matrán (2018) as Dror,
Shlomov & Reichart (2019) and Ulmer, Hardmeier & Frellsen (2022, the ``deepsig`` package) use it
for deep models: ε_min, an upper confidence bound of the share of the squared Wasserstein
distance between the two quantile functions on which A is the worse one, with Bonferroni's
adjustment over the pairs of a dataset. ε_min below the threshold τ reads "A almost
stochastically dominates B"; ε_min = 0, "A stochastically dominates B".
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from mcda._core.numeric import score_tolerance
from mcda._core.results import Result, states_scale
from mcda._core.validation import (McdaArgumentError, Reason, as_rng, check_positive_int, check_probability)
from mcda.stats.procedures import canonical
from mcda.stats.within.seeds import _blocks, _concat_pairs, _meta, _notes_text, _show_table

__all__ = ["almost_stochastic_order", "AlmostStochasticOrder", "exact_segments"]

_MIN_SEEDS = 2  # a quantile function of one run is a point: its bootstrap has no spread


def exact_segments(n: int, m: int):
    """The pieces of (0, 1) on which the quantile functions of n and of m scores are both constant.

    Returns ``(index_a, index_b, weight)``: on the piece (i/n, (i+1)/n] ∩ (j/m, (j+1)/m] the first
    function is its (i + 1)-th order statistic and the second its (j + 1)-th; ``weight`` is the
    piece's length. The breakpoints i·m and j·n are merged as integers over the common
    denominator n·m, so the lengths are exact and sum to 1.
    """
    ends = np.union1d(np.arange(1, n + 1, dtype=np.int64) * m, np.arange(1, m + 1, dtype=np.int64) * n)
    starts = np.concatenate(([0], ends[:-1]))
    return starts // m, starts // n, (ends - starts) / float(n * m)


@dataclass(frozen=True, repr=False)
class AlmostStochasticOrder(Result):
    """The almost stochastic order of every ordered pair of methods on each dataset, over seeds.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per (dataset, ordered pair[, metric]): ``dataset, method_a, method_b, [metric,]
        n_seeds_a, n_seeds_b, violation_ratio, violation_ratio_se, n_comparisons,
        epsilon_min, almost_dominates, reason``. ``violation_ratio`` is ε_W of the observed
        scores (the share of the squared Wasserstein distance on which a is worse than b;
        the row (b, a) holds 1 − it); ``violation_ratio_se`` its bootstrap standard error;
        ``n_comparisons`` the pairs of the dataset Bonferroni's adjustment counts;
        ``epsilon_min`` the upper confidence bound of the violation ratio; ``almost_dominates``
        is ``epsilon_min < threshold``; ``reason`` says why a row is NaN.
    confidence_level : float
        The confidence level before the adjustment.
    threshold : float
        τ: a pair with ε_min below it is decided for a.
    adjust : str or None
        "bonferroni" (the level of each pair is 1 − (1 − confidence_level) / n_comparisons) or None.
    n_resamples : int
    direction : str or dict
    metric : str or tuple of str
    notes : tuple of str
    """

    table: pd.DataFrame
    confidence_level: float
    threshold: float
    adjust: str | None
    n_resamples: int
    direction: object
    metric: object
    notes: tuple = ()

    def matrix(self, dataset=None, metric=None) -> pd.DataFrame:
        """ε_min as a methods × methods table (row a, column b) for one dataset (and metric), as
        deepsig's ``multi_aso(return_df=True)``; the diagonal is NaN. ``dataset`` may be omitted
        when there is one."""
        rows = self.table
        for name, value in (("dataset", dataset), ("metric", metric)):
            if name in rows.columns:
                labels = list(dict.fromkeys(rows[name]))
                if value is None and len(labels) > 1:
                    raise McdaArgumentError(f"`{name}` must name one of {labels[:8]}: the result has {len(labels)}.",
                                            argument=name, value=value, allowed=labels)
                rows = rows[rows[name] == (labels[0] if value is None else value)]
        methods = list(dict.fromkeys(list(rows["method_a"]) + list(rows["method_b"])))
        frame = rows.pivot(index="method_a", columns="method_b", values="epsilon_min")
        return frame.reindex(index=methods, columns=methods).rename_axis(index=None, columns=None)

    def summary(self) -> str:
        level = f"{self.confidence_level:.0%}"
        how = ", Bonferroni over the pairs of each dataset" if self.adjust else ""
        decided = int(self.table["almost_dominates"].sum())
        head = (f"Almost stochastic order over seeds ({level} bound{how}, {self.n_resamples} resamples): "
                f"{decided} of {len(self.table)} ordered pairs with epsilon_min < {self.threshold:g}")
        cols = ["dataset", "method_a", "method_b", "metric", "n_seeds_a", "n_seeds_b", "violation_ratio",
                "epsilon_min", "almost_dominates", "reason"]
        decided_rows = self.table[self.table["almost_dominates"]]
        shown = decided_rows if len(decided_rows) else self.table
        return head + "\n" + _show_table(shown, cols) + _notes_text(self.notes)


def _cell_uniforms(base: int, values: np.ndarray, n_resamples: int) -> np.ndarray:
    """The (n_resamples, n) uniforms of one method's resamples: a stream keyed by the caller's draw
    ``base`` and the bit patterns of the method's sorted scores, so that a pair's bound depends on
    its two samples and ``rng`` only, never on which other methods or datasets are in the call."""
    words = (values + 0.0).view(np.uint64).tolist()  # + 0.0: -0.0 and 0.0 share one key
    return np.random.default_rng(np.random.SeedSequence([base, *words])).random((n_resamples, values.size))


def _ratios(samples: np.ndarray, counts: np.ndarray, ia: np.ndarray, ib: np.ndarray, tol: np.ndarray,
            segments=None) -> np.ndarray:
    """ε_W of each pair (ia, ib) on each row of ``samples``, one kernel call per pair of sample sizes.

    ``segments(n, m)`` gives ``(index_a, index_b, weight, weight_violation)``; the default is the
    exact integral (:func:`exact_segments`, both weights its lengths).
    """
    from mcda._core._kernels.aso import violation_ratios

    out = np.full((ia.size, samples.shape[1]), np.nan)
    sizes = np.stack([counts[ia], counts[ib]], axis=1)
    for n, m in {tuple(s) for s in sizes.tolist()}:
        rows = np.nonzero((sizes[:, 0] == n) & (sizes[:, 1] == m))[0]
        if segments is None:
            index_a, index_b, weight = exact_segments(n, m)
            weight_violation = weight
        else:
            index_a, index_b, weight, weight_violation = segments(n, m)
        part = np.empty((rows.size, samples.shape[1]))
        violation_ratios(samples, np.ascontiguousarray(ia[rows], dtype=np.int64),
                         np.ascontiguousarray(ib[rows], dtype=np.int64),
                         np.ascontiguousarray(index_a, dtype=np.int64), np.ascontiguousarray(index_b, dtype=np.int64),
                         np.ascontiguousarray(weight, dtype=np.float64),
                         np.ascontiguousarray(weight_violation, dtype=np.float64),
                         np.ascontiguousarray(tol[rows], dtype=np.float64), part)
        out[rows] = part
    return out


def _bounds(ratios: np.ndarray, confidence: np.ndarray):
    """(ε_W, its bootstrap standard error, ε_min of (a, b), ε_min of (b, a)) from the ratios of each
    pair: column 0 observed, the others resamples (a resample without distance counts 0.5, as
    deepsig). ε_min = ε_W + z σ̂ / √(nm/(n+m)) with σ̂ the standard deviation of √(nm/(n+m)) times
    the resampled ratios (ddof 0), i.e. ε_W + z times the resamples' standard deviation."""
    observed = ratios[:, 0]
    resampled = np.where(np.isnan(ratios[:, 1:]), 0.5, ratios[:, 1:])
    se = resampled.std(axis=1) if resampled.shape[1] else np.zeros(len(observed))
    z = stats.norm.ppf(confidence)
    upper_ab = np.clip(observed + z * se, 0.0, 1.0)
    upper_ba = np.clip((1.0 - observed) + z * se, 0.0, 1.0)
    return observed, se, upper_ab, upper_ba


def _dataset_samples(oriented: np.ndarray, n_resamples: int, base: int, draws=None):
    """Per method of one dataset: its sorted scores (row 0) and sorted resamples (rows 1..), padded.

    ``oriented``: (methods, seeds), NaN = no run. ``draws(i, values)`` gives a method's uniforms
    (default :func:`_cell_uniforms`). Returns (samples, counts).
    """
    from mcda._core._kernels.aso import resample_sorted

    k = oriented.shape[0]
    counts = (~np.isnan(oriented)).sum(axis=1).astype(np.int64)
    samples = np.zeros((k, n_resamples + 1, max(int(counts.max(initial=0)), 1)))
    for i in range(k):
        if counts[i] < _MIN_SEEDS:
            continue
        values = np.sort(oriented[i][~np.isnan(oriented[i])])
        samples[i, 0, :counts[i]] = values
        uniforms = _cell_uniforms(base, values, n_resamples) if draws is None else draws(i, values)
        samples[i, 1:, :counts[i]] = resample_sorted(values, np.ascontiguousarray(uniforms, dtype=np.float64))
    return samples, counts


def _block_table(block, n_resamples: int, confidence_level: float, adjust, threshold: float, base: int,
                 with_metric: bool) -> pd.DataFrame:
    n_datasets, k, _ = block.values.shape
    ia, ib = np.triu_indices(k, 1)
    parts = []
    for d in range(n_datasets):
        oriented = block.sign * block.values[d]
        samples, counts = _dataset_samples(oriented, n_resamples, base)
        testable = (counts[ia] >= _MIN_SEEDS) & (counts[ib] >= _MIN_SEEDS)
        scale = np.abs(np.where(np.isnan(oriented), 0.0, oriented)).max(axis=1, initial=0.0)
        tol = score_tolerance(np.maximum(scale[ia], scale[ib]))
        ratios = np.full((ia.size, n_resamples + 1), np.nan)
        if testable.any():
            ratios[testable] = _ratios(samples, counts, ia[testable], ib[testable], tol[testable])
        identical = testable & np.isnan(ratios[:, 0])
        usable = testable & ~identical
        n_comparisons = int(usable.sum())
        confidence = (1.0 - (1.0 - confidence_level) / n_comparisons
                      if adjust and n_comparisons > 1 else confidence_level)
        observed, se, upper_ab, upper_ba = _bounds(ratios, confidence)
        reason = np.full(ia.size, "", dtype=object)
        for q in np.nonzero(~testable)[0]:
            few = [(block.methods[i], int(counts[i])) for i in (ia[q], ib[q]) if counts[i] < _MIN_SEEDS]
            reason[q] = ("; ".join(f"{m} has {c} seed(s)" for m, c in few)
                         + f": the bootstrap of a quantile function needs at least {_MIN_SEEDS} runs")
        for q in np.nonzero(identical)[0]:
            reason[q] = (f"the two methods' scores have the same quantile function ({int(counts[ia[q]])} and "
                         f"{int(counts[ib[q]])} seeds): no distance, so neither dominates")
        nan = ~usable
        for values in (observed, se, upper_ab, upper_ba):
            values[nan] = np.nan
        order = np.argsort(np.concatenate([ia, ib]) * k + np.concatenate([ib, ia]), kind="stable")
        upper = np.concatenate([upper_ab, upper_ba])
        columns = {"dataset": np.full(2 * ia.size, d), "method_a": np.concatenate([ia, ib]),
                   "method_b": np.concatenate([ib, ia]),
                   "n_seeds_a": np.concatenate([counts[ia], counts[ib]]),
                   "n_seeds_b": np.concatenate([counts[ib], counts[ia]]),
                   "violation_ratio": np.concatenate([observed, 1.0 - observed]),
                   "violation_ratio_se": np.concatenate([se, se]),
                   "n_comparisons": np.full(2 * ia.size, n_comparisons if adjust else 1),
                   "epsilon_min": upper, "almost_dominates": np.nan_to_num(upper, nan=np.inf) < threshold,
                   "reason": np.concatenate([reason, reason])}
        parts.append({name: values[order] for name, values in columns.items()})
    joined = {name: np.concatenate([part[name] for part in parts]) for name in parts[0]}
    labels = np.array(block.methods, dtype=object)
    frame = pd.DataFrame({"dataset": np.array(block.datasets, dtype=object)[joined.pop("dataset")],
                          "method_a": labels[joined.pop("method_a")], "method_b": labels[joined.pop("method_b")]})
    if with_metric:
        frame["metric"] = block.metric
    for name, values in joined.items():
        frame[name] = values
    return frame


@states_scale
def almost_stochastic_order(scores, direction=None, *, confidence_level: float = 0.95, threshold: float = 0.2,
                            adjust: str | None = "bonferroni", n_resamples: int = 1000, rng=None, metric=None,
                            method_names=None) -> AlmostStochasticOrder:
    """Does A's distribution over seeds almost stochastically dominate B's? Every ordered pair, per dataset.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube` with a ``seed`` dim
        Each method's seeds on a dataset are one sample; seeds need not pair across methods.
    confidence_level : float, default 0.95
        Level of the upper bound ε_min of each pair before the adjustment.
    threshold : float, default 0.2
        τ in (0, 0.5]: a pair with ε_min < τ is decided as "a almost stochastically dominates b".
        Dror et al. (2019) decide at 0.5; Ulmer et al. (2022) recommend 0.2, whose false-positive
        rate was lower in their simulations.
    adjust : {"bonferroni", None}, default "bonferroni"
        Bonferroni over the unordered pairs of each dataset (and metric), as deepsig's
        ``multi_aso``: each pair's bound is taken at 1 − (1 − confidence_level) / m.
    n_resamples : int, default 1000
        Bootstrap resamples of each method's seeds (deepsig's ``num_bootstrap_iterations``).
    rng : numpy.random.Generator, int or None
        Source of the resamples.
    direction, metric, method_names : optional
        As in :func:`mcda.data.cube.as_cube`.

    Returns
    -------
    AlmostStochasticOrder
        ``table`` (one row per dataset and ordered pair: ``dataset, method_a, method_b,
        [metric,] n_seeds_a, n_seeds_b, violation_ratio, violation_ratio_se, n_comparisons,
        epsilon_min, almost_dominates, reason``), ``confidence_level``, ``threshold``,
        ``adjust``, ``n_resamples``, ``direction``, ``metric``, ``notes``; ``matrix()`` gives
        one dataset's ε_min as a methods × methods table.

    Raises
    ------
    ValueError
        ``scores`` without a ``seed`` dim; ``confidence_level`` outside (0, 1); ``threshold``
        outside (0, 0.5]; an unknown ``adjust``; ``n_resamples`` below 1.
    TypeError
        An ``rng`` numpy cannot seed from.

    Notes
    -----
    Scores are oriented so that higher is better. With F⁻¹ and G⁻¹ the empirical quantile
    functions of a's and b's seeds (F⁻¹(t) = x_(⌈nt⌉)), the violation ratio is

        ε_W = ∫ (G⁻¹ − F⁻¹)₊² dt / ∫ (G⁻¹ − F⁻¹)² dt,

    the share of the squared Wasserstein distance on which a is worse (0: a is better at every
    quantile; the row (b, a) holds 1 − ε_W). mcda integrates the two step functions exactly;
    Dror et al.'s code and deepsig sum on the grid t = 0.005, 0.010, … (deepsig also leaves the
    first grid point out of the numerator), which moves ε_W by at most about (n + m + 2) · 0.005
    of the distance. Each resample draws n scores from F⁻¹ and m from G⁻¹ (the bootstrap of
    each sample); with σ̂ the standard deviation of √(nm/(n+m)) (ε*_W − ε_W) over the resamples
    (del Barrio et al.'s scaling), the bound is

        ε_min = ε_W + Φ⁻¹(level) σ̂ / √(nm/(n+m)),

    clipped to [0, 1], which is deepsig's estimator. Bonferroni's level is 1 − (1 − level) / m
    for the m pairs of a dataset that have a value; deepsig's code raises the level to
    level + (1 − level) / m instead, which agrees with Bonferroni only at m = 2 (at m = 10 and
    0.95 it uses 0.955, not 0.995). A resample in which the two samples coincide has no
    distance and counts as 0.5 (deepsig's convention). Differences within the rounding of one
    subtraction count as 0 (the tie rule).

    ε_min is not a p-value: ε_min < 0.5 says that a is better than b on more than half of the
    distance at the given confidence (Dror et al. 2019); ε_min = 0 that a stochastically
    dominates b. A row is NaN with a ``reason`` when a method has fewer than 2 seeds on the
    dataset or the two quantile functions are identical.

    References
    ----------
    del Barrio, E., Cuesta-Albertos, J. A. and Matrán, C. (2018). An optimal transportation
    approach for assessing almost stochastic order. In The Mathematics of the Uncertain,
    33–44. Springer. https://doi.org/10.1007/978-3-319-73848-2_3

    Dror, R., Shlomov, S. and Reichart, R. (2019). Deep dominance: how to properly compare deep
    neural models. Proceedings of ACL 2019, 2773–2785. https://doi.org/10.18653/v1/P19-1266

    Ulmer, D., Hardmeier, C. and Frellsen, J. (2022). deep-significance: easy and meaningful
    significance testing in the age of neural networks. ML Evaluation Standards Workshop,
    ICLR 2022. https://arxiv.org/abs/2204.06815

    Examples
    --------
    >>> import mcda
    >>> cube = mcda.datasets.synthetic(n_datasets=1, n_methods=3, n_seeds=20, effects=[0, 0.005, 0.03], rng=0)
    >>> res = mcda.almost_stochastic_order(cube, rng=1)
    >>> res.matrix().round(3)
              method_0  method_1  method_2
    method_0       NaN       1.0       1.0
    method_1     0.083       NaN       1.0
    method_2     0.000       0.0       NaN

    Row a, column b: method_1's ε_min against method_0 is 0.083 < τ = 0.2, so method_1 almost
    stochastically dominates method_0; method_2 stochastically dominates both (ε_min = 0).
    """
    confidence_level = check_probability("confidence_level", confidence_level)
    threshold = check_probability("threshold", threshold, high=0.5, closed="right")
    if adjust is not None:
        adjust = canonical("adjust", adjust, allowed=("bonferroni",))
    n_resamples = check_positive_int("n_resamples", n_resamples)
    gen = as_rng(rng)
    cube, blocks = _blocks(scores, direction, metric, method_names)
    base = int(gen.integers(0, 2**63))
    frames = [_block_table(block, n_resamples, confidence_level, adjust, threshold, base, "metric" in cube.dims)
              for block in blocks]
    metric_field, direction_field = _meta(cube, blocks)
    notes = []
    few = sum(int((frame["reason"] != "").sum()) for frame in frames)
    if few:
        notes.append(f"{few} ordered pair(s) have no bound (see the reason column)")
    return AlmostStochasticOrder(table=_concat_pairs(frames, cube), confidence_level=confidence_level,
                                 threshold=threshold, adjust=adjust, n_resamples=n_resamples,
                                 direction=direction_field, metric=metric_field, notes=tuple(notes))
