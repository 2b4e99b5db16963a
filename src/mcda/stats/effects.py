"""How large is a difference? Paired effect sizes with bootstrap intervals and magnitude labels.

A p-value says whether a difference is detectable; an effect size says how large it is, on
a scale that does not depend on the number of datasets or seeds. :func:`effect_sizes`
computes, for each compared pair, one of

- Cohen's d for paired data, d_z = mean(d) / sd(d) with d the paired differences (Cohen
  1988, §2.3.5; Lakens 2013): the effect the paired t test sees;
- Cohen's d with the pooled standard deviation of the two methods' scores, as autorank
  reports it ("cohen_d_pooled": it ignores the pairing, so the spread between datasets
  inflates its denominator);
- Cliff's δ = P(a > b) − P(a < b) over all pairs of observations (Cliff 1993), a rank-based,
  two-sample dominance measure, as autorank computes it;
- Akinshin's γ, a robust Cohen's d: the difference of medians over the pooled median
  absolute deviation (scaled by 1.4826 to estimate a normal sd), as autorank computes it;

each with a percentile-bootstrap interval over the paired units (datasets, or seeds) and the
magnitude label of its cited thresholds. Across datasets (a cube without ``seed``) the units
are datasets; within each dataset (a cube with ``seed``) they are the seeds both methods have.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError
from mcda._core.results import Result, states_scale
from mcda._core.validation import (MissingDataWarning, as_rng, check_choice, check_positive_int, check_probability, shown, warn)

__all__ = ["EffectSizes", "effect_sizes", "EFFECT_SIZE_THRESHOLDS", "MIN_UNITS_FOR_INTERVAL", "magnitude"]

#: kind -> ((upper bound of "negligible", "small", "medium"), source). |effect| at or above the
#: last bound is "large".
EFFECT_SIZE_THRESHOLDS: dict[str, tuple[tuple[float, float, float], str]] = {
    "cohen_d": ((0.2, 0.5, 0.8), "Cohen (1988), §2.2.3"),
    "cohen_d_pooled": ((0.2, 0.5, 0.8), "Cohen (1988), §2.2.3"),
    "cliff_delta": ((0.147, 0.33, 0.474), "Romano, Kromrey, Coraggio & Skowronek (2006)"),
    "akinshin_gamma": ((0.2, 0.5, 0.8), "Akinshin (2020), Cohen's thresholds; as autorank"),
}
_KINDS = tuple(EFFECT_SIZE_THRESHOLDS)
#: Paired units (datasets or seeds) a percentile-bootstrap interval of an effect size needs: with
#: fewer it covers much less than its level (for Cohen's d_z of normal differences, a nominal 95 %
#: interval covers about 81 % at 5 units; about 88 % at 10, so read those with care too).
MIN_UNITS_FOR_INTERVAL = 10
_LABELS = ("negligible", "small", "medium", "large")


def magnitude(effect, kind: str = "cohen_d"):
    """The magnitude label of an effect size (or an array of them) by the thresholds of ``kind``.

    >>> from mcda.stats.effects import magnitude
    >>> magnitude(0.35), magnitude(-0.5, "cliff_delta")
    ('small', 'large')
    """
    kind = check_choice("kind", kind, _KINDS)
    bounds = np.array(EFFECT_SIZE_THRESHOLDS[kind][0])
    values = np.abs(np.asarray(effect, dtype=np.float64))
    labels = np.array(_LABELS, dtype=object)[np.searchsorted(bounds, values, side="right")]
    labels = np.where(np.isnan(values), "", labels)
    return str(labels) if labels.ndim == 0 else labels


@dataclass(frozen=True, repr=False)
class EffectSizes(Result):
    """Effect sizes of compared pairs, with intervals and magnitude labels.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per pair (per dataset within datasets): ``[dataset,] method_a, method_b,
        effect_size, ci_low, ci_high, magnitude, n_datasets | n_seeds, reason``.
        ``effect_size`` is positive when ``method_a`` is better (in the metric's direction);
        ``method_a`` is the best method or the control when ``against`` names one.
        ``n_datasets`` (across datasets) or ``n_seeds`` (within) counts the paired units;
        ``reason`` says why a value is NaN. A pair with fewer than
        :data:`MIN_UNITS_FOR_INTERVAL` (10) units has its effect size but no interval (NaN,
        with the reason): a percentile bootstrap over 5 seeds gives intervals such as
        [+10.4, +56.4] around 12.8 that do not hold their level.
    kind : str
    against : str
        "best", "all" or the control's name.
    scope : str
        "across datasets" (units are datasets) or "within datasets" (units are seeds).
    confidence_level : float
    n_resamples : int
    thresholds : tuple of float
        The bounds of "negligible", "small" and "medium" for ``kind``.
    threshold_source : str
    excluded : dict
        Across datasets: method -> datasets it lacks (dropped, never imputed).
    notes : tuple of str
        What the reader should know (e.g. how many pairs have no interval, and why).
    """

    table: pd.DataFrame
    kind: str
    against: str
    scope: str
    confidence_level: float
    n_resamples: int
    thresholds: tuple
    threshold_source: str
    excluded: dict
    notes: tuple = ()

    def to_frame(self) -> pd.DataFrame:
        """The table (a copy)."""
        return self.table.copy()

    def summary(self) -> str:
        """One line per pair (the first 20), with the interval and the label."""
        lines = [f"{self.kind} {self.scope}, against {self.against}; {self.confidence_level:.0%} percentile-"
                 f"bootstrap intervals ({self.n_resamples} resamples); thresholds {self.thresholds} "
                 f"({self.threshold_source})"]
        for row in self.table.head(20).itertuples(index=False):
            where = f"{row.dataset}: " if "dataset" in self.table.columns else ""
            if not np.isfinite(row.effect_size):
                text = f"{row.effect_size} ({row.reason})"
            elif np.isfinite(row.ci_low) and np.isfinite(row.ci_high):
                text = f"{row.effect_size:+.3f} [{row.ci_low:+.3f}, {row.ci_high:+.3f}] {row.magnitude}"
            else:
                text = f"{row.effect_size:+.3f} (no interval) {row.magnitude}"
            lines.append(f"  {where}{row.method_a} vs {row.method_b}: {text} (n = {row[-2]})")
        if len(self.table) > 20:
            lines.append(f"  ... {len(self.table) - 20} more rows in to_frame()")
        lines += [f"note: {n}" for n in self.notes]
        return "\n".join(lines)


def _pairs(methods: list, against: str, location: np.ndarray) -> list[tuple[int, int]]:
    k = len(methods)
    if against == "all":
        return [(i, j) for i in range(k) for j in range(i + 1, k)]
    if against == "best":
        ref = int(np.argmax(location))  # ties: the first in the order of methods
    else:
        ref = methods.index(against)
    return [(ref, j) for j in range(k) if j != ref]


def _canonical_units(x: np.ndarray, y: np.ndarray):
    """The pair's units in an order that depends only on their values, the same for (x, y) and (y, x).

    Datasets (or seeds) are sorted by x + y, then |x − y|; the pair is then read in a fixed
    orientation (the one whose column is lexicographically smaller), so that the bootstrap
    draws the same units whatever the order of datasets and methods.
    """
    order = np.lexsort((np.abs(x - y), x + y))
    x, y = x[order] + 0.0, y[order] + 0.0  # + 0.0: -0.0 and 0.0 share one key
    flipped = tuple(y) < tuple(x)
    return (y, x, True) if flipped else (x, y, False)


def _power_of_two(x: np.ndarray, y: np.ndarray) -> float:
    """The power of two at or above the largest finite magnitude of ``x`` and ``y`` (1 when there is none)."""
    both = np.abs(np.concatenate([x, y]))
    both = both[np.isfinite(both)]
    top = float(both.max()) if both.size else 0.0
    return float(np.ldexp(1.0, int(np.frexp(top)[1]))) if top > 0 else 1.0


def _compute(units_x: list, units_y: list, kind: str, confidence_level: float, n_resamples: int, gen):
    from mcda._core._kernels.bootstrap import cell_keys
    from mcda._core._kernels.effect_sizes import KINDS, bootstrap_effect_quantiles, effect_statistic

    code = KINDS[kind]
    canon = [_canonical_units(x, y) for x, y in zip(units_x, units_y)]
    # every kind is a ratio or a rank statistic: each pair in units of a power of two near its largest
    # magnitude (an exact division) gives the same value, without variances of 1e-300 scores underflowing
    # to 0 (d = inf) or squares of large ones overflowing
    canon = [(x / _power_of_two(x, y), y / _power_of_two(x, y), flipped) for x, y, flipped in canon]
    counts = np.array([c[0].size for c in canon], dtype=np.int64)
    offsets = np.zeros(len(canon) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    xs = np.ascontiguousarray(np.concatenate([c[0] for c in canon]) if canon else np.empty(0))
    ys = np.ascontiguousarray(np.concatenate([c[1] for c in canon]) if canon else np.empty(0))
    both = np.ascontiguousarray(np.concatenate([np.concatenate([c[0], c[1]]) for c in canon]) if canon
                                else np.empty(0))
    base = np.uint64(gen.integers(0, 2**64, dtype=np.uint64))
    keys = cell_keys(both.view(np.uint64), 2 * offsets, base)
    tail = (1.0 - confidence_level) / 2.0
    quantiles = bootstrap_effect_quantiles(xs, ys, offsets, keys, code, int(n_resamples), np.array([tail, 1 - tail]))
    effect = np.full(len(canon), np.nan)
    for p, (x, y, _) in enumerate(canon):
        if x.size >= 2:
            effect[p] = effect_statistic(x, y, code)
    sign = np.array([-1.0 if c[2] else 1.0 for c in canon])
    low = np.where(sign > 0, quantiles[:, 0], -quantiles[:, 1]) if len(canon) else np.empty(0)
    high = np.where(sign > 0, quantiles[:, 1], -quantiles[:, 0]) if len(canon) else np.empty(0)
    return sign * effect, low, high, counts


@states_scale
def effect_sizes(scores, direction=None, *, kind: str = "cohen_d", against: str = "best",
                 confidence_level: float = 0.95, n_resamples: int = 9999, rng=None,
                 method_names=None) -> EffectSizes:
    """Effect sizes of method pairs across datasets (or within each dataset over seeds).

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube`
        Without a ``seed`` dim: one score per (dataset, method), compared across datasets
        (methods missing a dataset are excluded and named). With a ``seed`` dim: per-seed
        scores, compared within each dataset over the seeds both methods have.
    direction : {"higher_is_better", "lower_is_better"}, optional
        As in :func:`mcda.data.cube.as_cube`.
    kind : {"cohen_d", "cohen_d_pooled", "cliff_delta", "akinshin_gamma"}
        Cohen's d_z for paired data (default), Cohen's d with the pooled sd (autorank's),
        Cliff's δ, or Akinshin's γ (see the module docstring).
    against : str
        "best" (every method against the best: the lowest mean rank across datasets, the
        highest mean over seeds within a dataset; ties go to the first method), "all" (every
        pair), or a method's name (a control chosen beforehand).
    confidence_level : float
        Of the percentile-bootstrap interval (units resampled with replacement, pairing kept).
    n_resamples : int
    rng : numpy.random.Generator, int or None
        Source of the bootstrap draws (one 64-bit seed is drawn from it).
    method_names : sequence of str, optional
        As in :func:`mcda.data.cube.as_cube`.

    Returns
    -------
    EffectSizes
        ``table`` with ``[dataset,] method_a, method_b, effect_size, ci_low, ci_high,
        magnitude, n_datasets (or n_seeds), reason``; ``kind``, ``against``, ``scope``,
        ``thresholds``.

    Raises
    ------
    ValueError
        An unknown ``kind`` or ``against``, a cube with a ``metric`` dim (select one metric).

    Notes
    -----
    Magnitude labels ("negligible", "small", "medium", "large") use
    :data:`EFFECT_SIZE_THRESHOLDS`: Cohen's 0.2 / 0.5 / 0.8 for d and γ, Romano et al.'s
    0.147 / 0.33 / 0.474 for δ, |effect| compared with each bound (as autorank).

    **Where mcda and autorank differ.** autorank's "cohen_d" is the pooled-sd d
    (``kind="cohen_d_pooled"`` here, equal to it); mcda's default is d_z, because the
    comparisons are paired: the same datasets (or seeds) under both methods. d_z divides by
    the spread of the differences, which removes the spread between datasets; the two agree
    only when the scores are uncorrelated across units (d_z = d / √(2(1 − ρ)) with equal
    variances). Cliff's δ and γ are two-sample statistics that ignore the pairing, as in
    autorank; Akinshin's own γ uses the Harrell–Davis quantile estimator, autorank and mcda
    the sample median. autorank compares each method with the best by mean rank (and with
    its neighbour); it gives no intervals.

    An effect size computed over datasets is an average over a population of datasets only
    as much as the benchmark's datasets are a sample of it.

    References
    ----------
    Cohen, J. (1988). Statistical Power Analysis for the Behavioral Sciences, 2nd ed. Erlbaum.
    Lakens, D. (2013). Calculating and reporting effect sizes. Front. Psychol. 4:863.
    doi:10.3389/fpsyg.2013.00863
    Cliff, N. (1993). Dominance statistics: ordinal analyses to answer ordinal questions.
    Psychol. Bull. 114(3):494–509. doi:10.1037/0033-2909.114.3.494
    Romano, J., Kromrey, J. D., Coraggio, J., Skowronek, J. (2006). Appropriate statistics for
    ordinal level data. Annual meeting of the Florida Association of Institutional Research.
    Akinshin, A. (2020). A nonparametric Cohen's d-consistent effect size.
    https://aakinshin.net/posts/nonparametric-effect-size/
    Herbold, S. (2020). Autorank: a Python package for automated ranking of classifiers.
    JOSS 5(48):2173. doi:10.21105/joss.02173

    Examples
    --------
    >>> import mcda
    >>> res = mcda.effect_sizes(mcda.datasets.load("garcia_herrera2008"), rng=0, n_resamples=999)
    >>> res.to_frame()[["method_a", "method_b", "magnitude"]].head(2).to_dict("records")
    [{'method_a': 'C4.5', 'method_b': 'k-NN(k=1)', 'magnitude': 'small'}, {'method_a': 'C4.5', 'method_b': 'NaiveBayes', 'magnitude': 'small'}]
    """
    from mcda.data.cube import as_cube, orient

    kind = check_choice("kind", kind, _KINDS)
    confidence_level = check_probability("confidence_level", confidence_level)
    n_resamples = check_positive_int("n_resamples", n_resamples, minimum=1)
    from mcda._core.options import check_count_allocation

    check_count_allocation("n_resamples", n_resamples, 2 * 8, "resampled effect sizes are kept and sorted per pair")
    gen = as_rng(rng)
    if not isinstance(against, str):
        raise McdaArgumentTypeError(f"`against` must be 'best', 'all' or a method's name; got {against!r}.",
                                    argument="against", value=against)
    from mcda.data.blocks import require_in_memory

    cube = as_cube(scores, direction, method_names=method_names)
    require_in_memory(cube, "effect_sizes", reason="it returns one row per compared pair (per dataset over seeds) "
                      "and resamples each pair's units", instead="select the datasets you need and load them, "
                      "e.g. cube.isel(dataset=slice(0, 1000)).load()")
    if "metric" in cube.dims:
        raise McdaArgumentError(f"`scores` has a 'metric' dim ({shown([str(m) for m in cube.coords['metric'].values])}): "
                         "effect sizes are per metric; select one, e.g. cube.sel(metric=...).", argument="scores")
    methods = [str(m) for m in cube.coords["method"].values]
    if against not in ("best", "all") and against not in methods:
        from mcda._core.validation import nearest

        close = nearest(against, methods)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        raise McdaArgumentError(f"`against` must be 'best', 'all' or one of the methods [{shown(methods, fmt=str)}]; "
                         f"got {against!r}.{hint}",
                                argument="against", value=against, allowed=["best", "all", *methods])
    rows, units_x, units_y = [], [], []
    excluded: dict = {}
    if "seed" in cube.dims:
        extra = [d for d in cube.dims if d not in ("dataset", "method", "seed")]
        if extra:
            raise McdaArgumentError(f"`scores` has the extra dims {extra}; select one value along each first.",
                                    argument="scores")
        scope = "within datasets"
        values = np.asarray(orient(cube).transpose("dataset", "method", "seed").values, dtype=np.float64)
        datasets = [str(d) for d in cube.coords["dataset"].values]
        for d, dataset in enumerate(datasets):
            with np.errstate(invalid="ignore"):
                means = np.nanmean(np.where(np.isnan(values[d]), np.nan, values[d]), axis=1) \
                    if np.isfinite(values[d]).any() else np.full(len(methods), np.nan)
            location = np.where(np.isnan(means), -np.inf, means)
            for i, j in _pairs(methods, against, location):
                both = ~np.isnan(values[d, i]) & ~np.isnan(values[d, j])
                rows.append({"dataset": dataset, "method_a": methods[i], "method_b": methods[j]})
                units_x.append(values[d, i][both])
                units_y.append(values[d, j][both])
    else:
        from mcda.stats._shared.ranks import prepare_across, rank_rows

        scope = "across datasets"
        prep = prepare_across(cube, method_names=None, missing="complete")
        excluded = dict(prep.excluded)
        if excluded:
            lacks = shown([f"{m} lacks [{shown(ds, 4, fmt=str)}]" for m, ds in excluded.items()], fmt=str, sep="; ")
            warn(f"{len(excluded)} method(s) lack results on some datasets and are excluded from the effect sizes "
                 f"(nothing is imputed): {lacks}.", MissingDataWarning)
        if against not in ("best", "all") and against not in prep.methods:
            raise McdaArgumentError(f"`against` {against!r} was excluded as incomplete: it lacks "
                             f"[{shown(excluded.get(against, []), 4, fmt=str)}].", argument="against", value=against)
        methods = list(prep.methods)
        location = -rank_rows(prep.values).mean(axis=0) if prep.n_datasets else np.zeros(len(methods))
        for i, j in _pairs(methods, against, location):
            rows.append({"method_a": methods[i], "method_b": methods[j]})
            units_x.append(prep.values[:, i])
            units_y.append(prep.values[:, j])
    effect, low, high, counts = _compute(units_x, units_y, kind, confidence_level, n_resamples, gen)
    table = pd.DataFrame(rows, columns=(["dataset"] if scope == "within datasets" else []) + ["method_a", "method_b"])
    table["effect_size"] = effect
    table["ci_low"] = low
    table["ci_high"] = high
    table["magnitude"] = magnitude(effect, kind) if len(effect) else np.array([], dtype=object)
    units = "n_seeds" if scope == "within datasets" else "n_datasets"
    table[units] = counts
    few = (counts >= 2) & (counts < MIN_UNITS_FOR_INTERVAL)
    table.loc[few, ["ci_low", "ci_high"]] = np.nan
    table["reason"] = np.where(counts < 2, f"fewer than 2 paired {units[2:]}",
                               np.where(few, [f"no interval: only {n} paired {units[2:]} (a percentile-bootstrap "
                                              f"interval needs at least {MIN_UNITS_FOR_INTERVAL})" for n in counts], ""))
    notes = ()
    if few.any():
        shown_counts = counts[few]
        span = (f"{int(shown_counts.min())}" if shown_counts.min() == shown_counts.max()
                else f"{int(shown_counts.min())}-{int(shown_counts.max())}")
        notes = (f"{int(few.sum())} of {len(table)} pairs rest on only {span} paired {units[2:]}: their effect size "
                 f"is given without an interval (a percentile bootstrap over fewer than {MIN_UNITS_FOR_INTERVAL} "
                 "units covers much less than its level: about 81 % for a nominal 95 % at 5).",)
    bounds, source = EFFECT_SIZE_THRESHOLDS[kind]
    return EffectSizes(table=table, kind=kind, against=against, scope=scope, confidence_level=confidence_level,
                       n_resamples=n_resamples, thresholds=bounds, threshold_source=source, excluded=excluded,
                       notes=notes)
