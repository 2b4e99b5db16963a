"""Several criteria under uncertainty: SMAA-2 rank acceptability, central weights and confidence factors.

Methods are chosen on several criteria (accuracy, runtime, memory) whose scores are uncertain
(they come from a sample of datasets or seeds) and whose weights are rarely known. SMAA-2
(Lahdelma & Salminen 2001) explores both at once by Monte Carlo: in each draw the criterion
values of every method (a bootstrap over datasets, a draw over seeds, or distributions given by
hand) and a weight vector (uniform on the simplex, or restricted by what the user knows) give
each method a value, hence a rank. Over the draws:

- the **rank acceptability** b_i^r: the share of draws in which method i takes rank r;
- the **central weight vector** of method i: the mean weight vector of the draws it ranks first;
- the **confidence factor** of method i: the share of measurement draws in which it ranks first
  when every method is valued with its central weights.

Each index carries its Monte Carlo standard error. The draws are made in blocks and never
kept, so memory stays bounded whatever ``n_draws``.

Examples
--------
>>> import mcda
>>> cube = mcda.datasets.load("duo2018_all").sel(metric=["ARI", "elapsed"])
>>> res = mcda.smaa(cube, n_draws=2_000, rng=1)
>>> res.rank_acceptability.shape == (len(res.methods), len(res.methods))
True
>>> bool((res.rank_acceptability.sum(axis=1) - 1).abs().max() < 1e-12)  # every method takes one rank per draw
True
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import xarray as xr

from mcda._core.numeric import TIE_TOLERANCE
from mcda._core.results import Result, states_scale
from mcda._core.validation import (MAX_SEED, McdaArgumentError, McdaArgumentTypeError, MissingDataWarning, as_rng,
                                   check_choice, check_positive_int, shown, warn)
from mcda.data.cards import DIRECTIONS, direction_sign
from mcda.data.checks import cube_cards, metric_keys
from mcda.stats._shared.criteria import criteria_cube

__all__ = ["SmaaResult", "smaa", "UNCERTAINTIES", "RANGES"]

#: The score uncertainties the cube itself supplies (a mapping of distributions is the third way).
UNCERTAINTIES = ("bootstrap-datasets", "seeds")
#: How each criterion is normalised to [0, 1] (a mapping metric -> (low, high) is the third way).
RANGES = ("observed", "card")
#: The weight information as users have it.
WEIGHT_INFORMATION = ("uniform", "order", "intervals", "exact")

_BLOCK_VALUES = 1_000_000   # numbers in one block of measurement draws (8 MB): memory stays bounded
_PILOT_DRAWS = 20_000       # uniform weight draws that estimate how much of the simplex the intervals keep
_MIN_ACCEPTANCE = 1e-3      # interval weights rarer than this on the simplex are refused (rejection too slow)
_SECONDS_PER_VALUE = 2e-9   # one core, per method × (criterion + sort step) × draw, measured (benchmarks/bench_smaa.py)
_TOL = TIE_TOLERANCE        # values (weighted sums of normalised criteria) closer than this are tied


# =========================================================================== the result

@dataclass(frozen=True, repr=False)
class SmaaResult(Result):
    """SMAA-2 over the uncertainty of the scores and of the criterion weights.

    Attributes
    ----------
    methods : list of str
    metrics : list of str
    directions : pandas.Series
        Direction per metric (from its card).
    rank_acceptability : pandas.DataFrame
        Methods × ranks (1 = best): b_i^r, the share of draws in which method i takes rank r.
        Each row sums to 1; each column sums to 1 unless methods tie (tied methods share the
        better rank).
    rank_acceptability_se : pandas.DataFrame
        Its Monte Carlo standard error, sqrt(b (1 − b) / n_draws).
    central_weights : pandas.DataFrame
        Methods × metrics: the mean weight vector of the draws in which the method ranks first
        (NaN for a method never first, and with exact weights).
    central_weights_se : pandas.DataFrame
        Its Monte Carlo standard error (the standard deviation of those weights over √(their number)).
    confidence_factors : pandas.Series
        Per method: the share of measurement draws in which it ranks first when every method is
        valued with its central weights (NaN where they are).
    confidence_factors_se : pandas.Series
        Its Monte Carlo standard error, sqrt(p (1 − p) / n_draws), the central weights taken as given.
    ranges : pandas.DataFrame
        Per metric: ``worst``, ``best`` (the metric's own units) mapped to 0 and 1 by the
        normalisation, and their ``source`` ("observed", "card" or "given").
    weights : None, list or dict
        The weight information as given: None (uniform), an importance order (most important
        first), intervals {metric: (low, high)} or exact weights {metric: w} (normalised).
    weight_information : {"uniform", "order", "intervals", "exact"}
    uncertainty : {"bootstrap-datasets", "seeds", "given"}
        Where the score uncertainty came from.
    n_draws : int
    n_datasets : int
        Datasets the criterion values are means over (0 with given distributions).
    excluded : dict
        Method -> why it was left out (a missing result).
    """

    methods: list
    metrics: list
    directions: pd.Series
    rank_acceptability: pd.DataFrame
    rank_acceptability_se: pd.DataFrame
    central_weights: pd.DataFrame
    central_weights_se: pd.DataFrame
    confidence_factors: pd.Series
    confidence_factors_se: pd.Series
    ranges: pd.DataFrame
    weights: object
    weight_information: str
    uncertainty: str
    n_draws: int
    n_datasets: int
    excluded: dict = field(default_factory=dict)

    @property
    def order(self) -> list:
        """Methods by first-rank acceptability, then the next ranks (lexicographic), best first."""
        table = self.rank_acceptability.to_numpy()
        keys = [-table[:, r] for r in range(table.shape[1] - 1, -1, -1)]
        return [self.methods[i] for i in np.lexsort([np.arange(len(self.methods)), *keys])]

    def to_frame(self, view: str = "ranks") -> pd.DataFrame:
        """A tidy table.

        ``view="ranks"`` (default): one row per (method, rank): ``method, rank, acceptability,
        acceptability_se``. ``view="methods"``: one row per method: ``method, acceptability``
        (of rank 1), ``acceptability_se``, ``confidence_factor``, ``confidence_factor_se``.
        ``view="central-weights"``: one row per (method, metric): ``method, metric,
        central_weight, central_weight_se``.
        """
        check_choice("view", view, ("ranks", "methods", "central-weights"))
        k = len(self.methods)
        if view == "ranks":
            return pd.DataFrame({"method": np.repeat(self.methods, k), "rank": np.tile(np.arange(1, k + 1), k),
                                 "acceptability": self.rank_acceptability.to_numpy().ravel(),
                                 "acceptability_se": self.rank_acceptability_se.to_numpy().ravel()})
        if view == "methods":
            return pd.DataFrame({"method": self.methods,
                                 "acceptability": self.rank_acceptability.iloc[:, 0].to_numpy(),
                                 "acceptability_se": self.rank_acceptability_se.iloc[:, 0].to_numpy(),
                                 "confidence_factor": self.confidence_factors.to_numpy(),
                                 "confidence_factor_se": self.confidence_factors_se.to_numpy()})
        m = len(self.metrics)
        return pd.DataFrame({"method": np.repeat(self.methods, m), "metric": np.tile(self.metrics, k),
                             "central_weight": self.central_weights.to_numpy().ravel(),
                             "central_weight_se": self.central_weights_se.to_numpy().ravel()})

    def weight_words(self) -> str:
        """The weight information in words (the summary, the report and the figures' titles read it)."""
        if self.weight_information == "uniform":
            return "uniform on the simplex (no weight information)"
        if self.weight_information == "order":
            return "uniform subject to the importance order " + " ≥ ".join(self.weights)
        if self.weight_information == "intervals":
            return "uniform on the simplex within " + ", ".join(
                f"{m} in [{lo:g}, {hi:g}]" for m, (lo, hi) in self.weights.items())
        return "exact: " + ", ".join(f"{m} {w:.3g}" for m, w in self.weights.items())

    def uncertainty_words(self) -> str:
        """Where the criterion values of each draw came from, in words."""
        if self.uncertainty == "bootstrap-datasets":
            return f"means over a bootstrap resample of the {self.n_datasets} datasets"
        if self.uncertainty == "seeds":
            return f"means over the {self.n_datasets} datasets of one seed drawn per dataset"
        return "draws from the distributions given per criterion"

    def summary(self) -> str:
        """The first-rank acceptabilities, confidence factors and central weights of the leading methods."""
        frame = self.to_frame("methods").set_index("method")
        order = self.order
        lines = [f"SMAA-2 on {len(self.metrics)} criteria ({', '.join(self.metrics)}), {len(self.methods)} methods, "
                 f"{self.n_draws:,} draws",
                 f"criterion values: {self.uncertainty_words()}; weights: {self.weight_words()}",
                 "normalisation: linear, " + "; ".join(
                     f"{m} {r.worst:.4g} -> 0, {r.best:.4g} -> 1 ({r.source})" for m, r in self.ranges.iterrows())]
        for method in order[:8]:
            row = frame.loc[method]
            cw = self.central_weights.loc[method]
            weights = ("" if cw.isna().any() else "; central weights " + ", ".join(
                f"{m} {w:.2f}" for m, w in cw.items()))
            cf = "" if math.isnan(row.confidence_factor) else f"; confidence factor {row.confidence_factor:.3f}"
            lines.append(f"{method}: first-rank acceptability {row.acceptability:.3f} "
                         f"(MC se {row.acceptability_se:.3f}){cf}{weights}")
        if len(order) > 8:
            lines.append(f"… and {len(order) - 8} more methods")
        if self.excluded:
            lines.append("excluded: " + "; ".join(f"{m} ({why})" for m, why in self.excluded.items()))
        return "\n".join(lines)


# =========================================================================== preparation

@dataclass(frozen=True)
class _Setup:
    """Everything the draws need, validated once (internal)."""

    methods: list
    metrics: list
    directions: list
    uncertainty: str
    worst: np.ndarray          # oriented units, per criterion: mapped to 0
    width: np.ndarray          # oriented best − worst (0: the criterion cannot separate)
    ranges: pd.DataFrame
    weight_information: str
    weights: object
    weight_array: np.ndarray   # exact: (1, m); intervals: (2, m) low/high; order: the metric positions
    n_datasets: int
    excluded: dict
    values: np.ndarray | None = None      # bootstrap: (n_datasets, k·m); seeds: (n_datasets, k, S, m); oriented
    positions: np.ndarray | None = None   # seeds: the usable seed positions of each cell, first
    n_seeds: np.ndarray | None = None     # seeds: how many per cell
    distributions: list | None = None     # given: [criterion][method] -> a number or a frozen distribution

    @property
    def n_methods(self) -> int:
        return len(self.methods)

    @property
    def n_metrics(self) -> int:
        return len(self.metrics)

    @property
    def block(self) -> int:
        """Draws per block: a fixed function of the shapes, so the draws depend on ``rng`` only."""
        per_draw = self.n_methods * self.n_metrics + (self.n_datasets if self.values is not None else 0)
        return max(1, _BLOCK_VALUES // max(1, per_draw))


def _is_real(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _criteria_cube(scores, metrics) -> xr.DataArray:
    cube = criteria_cube(scores, metrics, function="mcda.smaa", seeds=True,
                         reason="its draws resample every dataset at once",
                         instead="load a subset of datasets first, e.g. cube.isel(dataset=slice(0, 100_000)).load()")
    dims = ("dataset", "method", "seed", "metric") if "seed" in cube.dims else ("dataset", "method", "metric")
    return cube.transpose(*dims)


def _parse_weights(weights, metrics: list):
    """(information, as given normalised, array) of ``weights``."""
    m = len(metrics)
    if weights is None or (isinstance(weights, str) and weights == "uniform"):
        return "uniform", None, np.empty((0, m))
    if isinstance(weights, str):
        raise McdaArgumentError(f"`weights` must be None or 'uniform', an importance order (a list of metrics, most "
                                f"important first), intervals {{metric: (low, high)}} or exact weights "
                                f"{{metric: w}}; got {weights!r}", argument="weights", value=weights,
                                allowed=("uniform",))
    if isinstance(weights, pd.Series):
        weights = weights.to_dict()
    if isinstance(weights, Mapping):
        keys = metric_keys(list(weights), metrics, argument="weights")
        given = list(weights.values())
        if all(_is_real(v) for v in given):
            missing = [x for x in metrics if x not in keys]
            w = np.array([float(weights[x]) if x in keys else math.nan for x in metrics] if not missing else given,
                         dtype=np.float64)
            if missing or not np.all(np.isfinite(w)) or (w < 0).any() or w.sum() <= 0:
                raise McdaArgumentError(f"exact `weights` must name every criterion ({shown(metrics)}) with finite "
                                        f"numbers >= 0, not all 0; got {weights!r}", argument="weights", value=weights)
            w = w / w.sum()
            return "exact", dict(zip(metrics, w.tolist())), w[None, :].copy()
        pairs = {}
        for key, value in zip(keys, given):
            if (isinstance(value, (str, bytes)) or not isinstance(value, Sequence) or len(value) != 2
                    or not all(_is_real(v) for v in value)):
                raise McdaArgumentTypeError(f"`weights` must map every metric to a number (exact weights) or every "
                                            f"metric it names to an interval (low, high); got {key!r}: {value!r}",
                                            argument="weights", value=weights)
            lo, hi = float(value[0]), float(value[1])
            if not 0.0 <= lo <= hi <= 1.0:
                raise McdaArgumentError(f"`weights` interval of {key!r} must satisfy 0 <= low <= high <= 1; got "
                                        f"({lo:g}, {hi:g})", argument="weights", value=weights)
            pairs[key] = (lo, hi)
        bounds = np.array([pairs.get(x, (0.0, 1.0)) for x in metrics], dtype=np.float64).T.copy()
        if bounds[0].sum() > 1.0 or bounds[1].sum() < 1.0:
            raise McdaArgumentError(f"`weights` intervals leave no weight vector summing to 1 (lows sum to "
                                    f"{bounds[0].sum():g}, highs to {bounds[1].sum():g})", argument="weights",
                                    value=weights)
        pilot = _dirichlet(np.random.default_rng(0), _PILOT_DRAWS, m)
        share = float(_inside(pilot, bounds).mean())
        if share < _MIN_ACCEPTANCE:
            raise McdaArgumentError(f"`weights` intervals keep about {share:.2g} of the weight simplex (estimated on "
                                    f"{_PILOT_DRAWS:,} uniform draws), under {_MIN_ACCEPTANCE:g}: drawing uniformly "
                                    "inside them would take too long. Give exact weights, or wider intervals",
                                    argument="weights", value=weights)
        return "intervals", {x: pairs.get(x, (0.0, 1.0)) for x in metrics}, bounds
    if isinstance(weights, Sequence) and all(isinstance(v, str) for v in weights):
        order = metric_keys(list(weights), metrics, argument="weights")
        if sorted(order) != sorted(metrics):
            raise McdaArgumentError(f"an importance order in `weights` must list every criterion ({shown(metrics)}) "
                                    f"once, most important first; got {list(weights)!r}", argument="weights",
                                    value=weights)
        return "order", order, np.array([metrics.index(x) for x in order], dtype=np.int64)
    raise McdaArgumentTypeError(f"`weights` must be None or 'uniform', a list of metrics (an importance order), or a "
                                f"mapping metric -> weight or -> (low, high); got {weights!r}", argument="weights",
                                value=weights)


def _given_distributions(uncertainty: Mapping, metrics: list, methods: list) -> list:
    keys = metric_keys(list(uncertainty), metrics, argument="uncertainty")
    missing = [x for x in metrics if x not in keys]
    if missing:
        raise McdaArgumentError(f"`uncertainty` as distributions must give every criterion; {shown(missing)} "
                                "missing", argument="uncertainty", value=missing)
    out = []
    for metric in metrics:
        per_method = uncertainty[metric]
        if not isinstance(per_method, Mapping):
            raise McdaArgumentTypeError(f"`uncertainty[{metric!r}]` must map every method to a number or a frozen "
                                        f"scipy.stats distribution; got {per_method!r}", argument="uncertainty",
                                        value=per_method)
        lacking = [m for m in methods if m not in per_method]
        unknown = [str(m) for m in per_method if str(m) not in methods]
        if lacking or unknown:
            raise McdaArgumentError(f"`uncertainty[{metric!r}]` must name exactly the methods "
                                    f"[{shown(methods)}]; lacking {shown(lacking)}, unknown {shown(unknown)}",
                                    argument="uncertainty", value=sorted(per_method))
        row = []
        for method in methods:
            dist = per_method[method]
            if _is_real(dist) and math.isfinite(float(dist)):
                row.append(float(dist))
            elif hasattr(dist, "rvs"):
                row.append(dist)
            else:
                raise McdaArgumentTypeError(f"`uncertainty[{metric!r}][{method!r}]` must be a finite number or an "
                                            f"object with .rvs(size=, random_state=) (a frozen scipy.stats "
                                            f"distribution); got {dist!r}", argument="uncertainty", value=dist)
        out.append(row)
    return out


def _centre(dist) -> float:
    """The point value of a given criterion distribution: its mean, or its median when it has no finite mean."""
    if isinstance(dist, float):
        return dist
    centre = float(dist.mean()) if hasattr(dist, "mean") else math.nan
    if not math.isfinite(centre) and hasattr(dist, "median"):
        centre = float(dist.median())
    if not math.isfinite(centre):
        raise McdaArgumentError(f"`uncertainty` distribution {dist!r} has no finite mean or median to normalise "
                                "with; give `ranges=` explicitly", argument="uncertainty", value=dist)
    return centre


def _prepare(scores, *, metrics, weights, uncertainty, ranges) -> _Setup:
    """Validate every argument (one place) and lay out the draws' inputs."""
    cube = _criteria_cube(scores, metrics)
    labels = [str(m) for m in cube.coords["metric"].values]
    directions = [str(d) for d in cube.coords["direction"].values]
    for label, d in zip(labels, directions):
        if d not in DIRECTIONS:
            raise McdaArgumentError(f"metric {label!r} has direction {d!r}; it must be one of {set(DIRECTIONS)}",
                                    argument="scores", value=d)
    signs = direction_sign(directions)
    information, given, weight_array = _parse_weights(weights, labels)
    methods = [str(m) for m in cube.coords["method"].values]
    if isinstance(uncertainty, Mapping):
        kind = "given"
    else:
        kind = check_choice("uncertainty", uncertainty, UNCERTAINTIES)
    if kind == "seeds" and "seed" not in cube.dims:
        raise McdaArgumentError("`uncertainty`='seeds' needs scores with a 'seed' dim (several runs per cell); these "
                                "have one score per (dataset, method, metric). Use 'bootstrap-datasets'",
                                argument="uncertainty", value=uncertainty)
    if kind == "bootstrap-datasets" and "seed" in cube.dims:
        raise McdaArgumentError("`scores` has a 'seed' dim; a bootstrap over datasets needs one score per (dataset, "
                                "method, metric). Reduce the seeds explicitly first, e.g. mcda.reduce_seeds(cube, "
                                "how='mean'), or draw over the seeds with uncertainty='seeds'",
                                argument="uncertainty", value=uncertainty)
    raw = np.asarray(cube.values, dtype=np.float64)
    oriented = raw * (signs if kind != "seeds" else signs[None, None, None, :])
    excluded, extra = {}, {}
    if kind == "given":
        distributions = _given_distributions(uncertainty, labels, methods)
        centres = np.array([[_centre(d) for d in row] for row in distributions]).T * signs  # methods × criteria
        keep = list(range(len(methods)))
        extra["distributions"] = distributions
        n_datasets = 0
    else:
        n_datasets = cube.sizes["dataset"]
        if kind == "bootstrap-datasets":
            usable = ~np.isnan(oriented).any(axis=2)                       # datasets × methods
        else:
            usable_seed = ~np.isnan(oriented).any(axis=3)                  # datasets × methods × seeds
            usable = usable_seed.any(axis=2)
        empty = ~usable.any(axis=1)
        for j, method in enumerate(methods):
            lacks = [str(d) for d, ok, e in zip(cube.coords["dataset"].values, usable[:, j], empty) if not ok and not e]
            if lacks:
                excluded[method] = f"no result on {shown(lacks, 4, fmt=str)}"
        if empty.all():
            raise McdaArgumentError("`scores` has no dataset with a result on every criterion", argument="scores")
        keep = [j for j, m in enumerate(methods) if m not in excluded]
        if excluded:
            warn(f"SMAA-2 leaves out {len(excluded)} method(s) lacking a result on some dataset and criterion: "
                 f"{shown(list(excluded), fmt=str)} (nothing is imputed)", MissingDataWarning)
        # datasets in label order: the draws do not depend on the order the datasets were given in
        labels_order = np.argsort(np.array([str(d) for d in cube.coords["dataset"].values], dtype=object),
                                  kind="stable")
        rows = labels_order[~empty[labels_order]]
        n_datasets = int(rows.size)
        if kind == "bootstrap-datasets":
            values = oriented[rows][:, keep, :]
            centres = values.mean(axis=0)
            extra["values"] = np.ascontiguousarray(values.reshape(n_datasets, -1))
        else:
            values = oriented[rows][:, keep]
            ok = usable_seed[rows][:, keep]
            n_seeds = ok.sum(axis=2).astype(np.int64)
            positions = np.argsort(~ok, axis=2, kind="stable").astype(np.int64)
            filled = np.where(np.isnan(values), 0.0, values)
            per_cell = (filled * ok[..., None]).sum(axis=2) / n_seeds[..., None]
            centres = per_cell.mean(axis=0)
            extra.update(values=np.ascontiguousarray(filled), positions=np.ascontiguousarray(positions),
                         n_seeds=np.ascontiguousarray(n_seeds))
        methods = [methods[j] for j in keep]
    if len(methods) < 2:
        raise McdaArgumentError(f"SMAA-2 needs at least 2 methods with results; got {shown(methods)}"
                                + (f" (excluded: {shown(list(excluded))})" if excluded else ""), argument="scores")
    worst, best, sources = _ranges(ranges, cube, labels, directions, signs, centres)
    ranges_frame = pd.DataFrame({"worst": worst * signs, "best": best * signs, "source": sources},
                                index=pd.Index(labels, name="metric"))
    return _Setup(methods=methods, metrics=labels, directions=directions, uncertainty=kind, worst=worst,
                  width=best - worst, ranges=ranges_frame, weight_information=information, weights=given,
                  weight_array=weight_array, n_datasets=n_datasets, excluded=excluded, **extra)


def _ranges(ranges, cube, labels, directions, signs, centres):
    """(worst, best, source) per criterion in oriented units."""
    m = len(labels)
    observed_low, observed_high = centres.min(axis=0), centres.max(axis=0)
    if isinstance(ranges, Mapping):
        keys = metric_keys(list(ranges), labels, argument="ranges")
        spec = dict(zip(keys, ranges.values()))
    else:
        check_choice("ranges", ranges, RANGES)
        spec = {}
    cards = cube_cards(cube) if ranges == "card" else {}
    worst, best, sources = np.empty(m), np.empty(m), []
    for c, label in enumerate(labels):
        if label in spec:
            value = spec[label]
            if (isinstance(value, (str, bytes)) or not isinstance(value, Sequence) or len(value) != 2
                    or not all(_is_real(v) and math.isfinite(float(v)) for v in value)
                    or not float(value[0]) < float(value[1])):
                raise McdaArgumentError(f"`ranges[{label!r}]` must be (low, high) with finite low < high in the "
                                        f"metric's units; got {value!r}", argument="ranges", value=value)
            ends, source = sorted(float(v) * signs[c] for v in value), "given"
        elif ranges == "card":
            card = cards.get(label)
            if card is None or card.lower is None or card.upper is None:
                raise McdaArgumentError(f"`ranges`='card' needs a bounded range on every criterion's card; {label!r} "
                                        f"has {'no card' if card is None else 'an unbounded range'}. Use "
                                        f"ranges='observed' or give ranges={{{label!r}: (low, high)}}",
                                        argument="ranges", value=ranges)
            ends, source = sorted([card.lower * signs[c], card.upper * signs[c]]), "card"
        else:
            ends, source = [observed_low[c], observed_high[c]], "observed"
        worst[c], best[c] = ends
        sources.append(source)
    return worst, best, sources


# =========================================================================== the draws

def _dirichlet(gen: np.random.Generator, n: int, m: int) -> np.ndarray:
    """``n`` weight vectors uniform on the simplex of ``m`` criteria (normalised exponentials)."""
    w = gen.standard_exponential((n, m))
    w /= w.sum(axis=1, keepdims=True)
    return w


def _inside(w: np.ndarray, bounds: np.ndarray) -> np.ndarray:
    return ((w >= bounds[0]) & (w <= bounds[1])).all(axis=1)


def _weight_block(setup: _Setup, gen: np.random.Generator, n: int) -> np.ndarray:
    m = setup.n_metrics
    info = setup.weight_information
    if info == "exact":
        return setup.weight_array
    if info == "uniform":
        return _dirichlet(gen, n, m)
    if info == "order":
        ranked = -np.sort(-_dirichlet(gen, n, m), axis=1)
        out = np.empty_like(ranked)
        out[:, setup.weight_array] = ranked
        return out
    out, filled = np.empty((n, m)), 0  # intervals: uniform on the simplex, kept when inside (rejection)
    batch = max(1, _BLOCK_VALUES // m)
    while filled < n:
        w = _dirichlet(gen, batch, m)
        kept = w[_inside(w, setup.weight_array)][: n - filled]
        out[filled:filled + len(kept)] = kept
        filled += len(kept)
    return out


def _measurement_block(setup: _Setup, gen: np.random.Generator, n: int) -> np.ndarray:
    """(n, methods, criteria) normalised criterion values of ``n`` draws (higher is better)."""
    k, m = setup.n_methods, setup.n_metrics
    if setup.uncertainty == "bootstrap-datasets":
        n_datasets = setup.n_datasets
        counts = gen.multinomial(n_datasets, np.full(n_datasets, 1.0 / n_datasets), size=n).astype(np.float64)
        meas = (counts @ setup.values).reshape(n, k, m) / n_datasets
    elif setup.uncertainty == "seeds":
        from mcda._core._kernels.smaa import seed_means

        meas = np.empty((n, k, m))
        seed_means(setup.values, setup.positions, setup.n_seeds, gen.random((n, setup.n_datasets)), meas)
    else:
        meas = np.empty((n, k, m))
        signs = direction_sign(setup.directions)
        for c, row in enumerate(setup.distributions):
            for j, dist in enumerate(row):
                drawn = dist if isinstance(dist, float) else np.asarray(dist.rvs(size=n, random_state=gen),
                                                                          dtype=np.float64)
                meas[:, j, c] = drawn * signs[c]
    scale = np.divide(1.0, setup.width, out=np.zeros(m), where=setup.width > 0)
    meas -= setup.worst
    meas *= scale
    return np.ascontiguousarray(meas)


def _streams(rng) -> tuple[int, int]:
    """The seeds of the measurement and the weight streams (two, so the confidence factors replay the
    measurement draws whatever the weights took)."""
    gen = as_rng(rng)
    first, second = gen.integers(0, MAX_SEED, size=2, endpoint=True)
    return int(first), int(second)


def _draws(setup: _Setup, n_draws: int, streams: tuple[int, int], *, weights: bool = True):
    """Blocks of (measurement draws, weight draws): the one sequence of draws of a call."""
    meas_gen = np.random.default_rng(streams[0])
    weight_gen = np.random.default_rng(streams[1])
    done = 0
    while done < n_draws:
        n = min(setup.block, n_draws - done)
        meas = _measurement_block(setup, meas_gen, n)
        yield meas, (np.ascontiguousarray(_weight_block(setup, weight_gen, n)) if weights else None)
        done += n


# =========================================================================== the function

@states_scale
def smaa(scores, *, metrics=None, weights=None, uncertainty="bootstrap-datasets", ranges="observed",
         n_draws: int = 10_000, rng=None) -> SmaaResult:
    """SMAA-2: rank acceptability indices, central weights and confidence factors of methods on several criteria.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube` with a ``metric`` dim
        One score per (dataset, method, metric), or per (dataset, method, seed, metric) with
        ``uncertainty="seeds"``. Each metric's direction comes from its card (see
        :func:`mcda.data.cube.as_cube`).
    metrics : sequence of str, optional
        The criteria (labels along ``metric``); default all.
    weights : None, "uniform", list of str, or mapping
        What is known of the criterion weights. None or ``"uniform"``: nothing (uniform on the
        simplex). A list of every metric, most important first: an importance order
        (w₁ ≥ w₂ ≥ …, uniform on that part of the simplex). ``{metric: (low, high)}``:
        intervals (uniform on the simplex inside them; unnamed metrics in [0, 1]).
        ``{metric: w}`` naming every metric: exact weights (normalised to sum to 1).
    uncertainty : {"bootstrap-datasets", "seeds"} or mapping
        Where each draw's criterion values come from. ``"bootstrap-datasets"`` (default): each
        method's mean over a bootstrap resample of the datasets (the same resample for every
        method and criterion, so methods stay paired). ``"seeds"``: each method's mean over the
        datasets of one seed drawn per dataset (the same seed position for every method and
        criterion; a cell with fewer seeds draws among its own). A mapping ``{metric: {method:
        distribution}}`` gives them by hand: frozen ``scipy.stats`` distributions (anything with
        ``.rvs(size=, random_state=)``) or fixed numbers, in the metric's own units.
    ranges : {"observed", "card"} or mapping
        The normalisation of each criterion to [0, 1]. ``"observed"`` (default): the worst and
        the best method's point value (its mean over datasets, or its distribution's mean) map
        to 0 and 1, the usual scaling of SMAA, so a weight is the value of going from the worst
        to the best method on that criterion. ``"card"``: the card's range (both ends finite).
        ``{metric: (low, high)}``: given ends in the metric's units (others as ``"observed"``).
    n_draws : int
        Monte Carlo draws of measurements and weights (each index's standard error is at most
        0.5 / √n_draws).
    rng : numpy.random.Generator or seed, optional
        The one source of every draw.

    Returns
    -------
    SmaaResult
        ``methods, metrics, directions, rank_acceptability, rank_acceptability_se,
        central_weights, central_weights_se, confidence_factors, confidence_factors_se, ranges,
        weights, weight_information, uncertainty, n_draws, n_datasets, excluded``;
        ``to_frame()`` one row per (method, rank), ``to_frame("methods")`` one per method.

    Raises
    ------
    McdaArgumentError
        Unknown metrics; weights that are not an order of every metric, intervals with no
        weight vector summing to 1 (or keeping under 1/1000 of the simplex), exact weights not
        naming every metric; ``"seeds"`` without a seed dim, a seed dim with the bootstrap;
        ``ranges="card"`` on a card without a bounded range; fewer than 2 methods with results;
        outputs beyond ``memory_limit`` or work beyond ``compute_limit``
        (:func:`mcda.set_options`).

    Warns
    -----
    MissingDataWarning
        When methods lacking a result on some dataset and criterion are left out (named in
        ``excluded``).

    Notes
    -----
    Each criterion c is oriented (higher is better, by its card's direction) and normalised
    linearly, u_c(x) = (x − worst_c) / (best_c − worst_c), with ``ranges``; a value outside
    [worst, best] extends the line. A method's value is the linear additive
    u(ξ_i, w) = Σ_c w_c u_c(ξ_ic) (Lahdelma & Salminen 2001). In each draw, ξ (the criterion
    values) and w (the weights) are drawn independently; method i's rank is
    1 + #{k : u(ξ_k, w) > u(ξ_i, w)}, values within 1e-9 tied (tied methods share the better
    rank, as in the R package smaa). Over N draws, b_i^r is the share with rank r; the central
    weight vector w_i^c the mean of w over the draws in which i ranks first; the confidence
    factor p_i^c the share of a second pass over the same measurement draws in which i ranks
    first under w_i^c. Standard errors are those of means of N independent draws:
    sqrt(b (1 − b) / N) for shares, s / √n₁ for a central weight (s the standard deviation of
    the weight over the n₁ first-rank draws).

    Draws are made in blocks of a fixed size (at most 10⁶ numbers) and only the counts are kept,
    so memory does not grow with ``n_draws``: 200 methods × 5 criteria × 10⁶ draws keep
    200 × 200 rank counts. The measurement and weight streams are two seeds drawn from ``rng``;
    the same ``rng`` gives the same result.

    References
    ----------
    Lahdelma, R. & Salminen, P. (2001). SMAA-2: Stochastic multicriteria acceptability analysis
    for group decision making. Operations Research 49(3):444–454. doi:10.1287/opre.49.3.444.11220
    Tervonen, T. & Figueira, J. R. (2008). A survey on stochastic multicriteria acceptability
    analysis methods. Journal of Multi-Criteria Decision Analysis 15(1–2):1–14. doi:10.1002/mcda.407

    Examples
    --------
    >>> import mcda
    >>> cube = mcda.datasets.load("duo2018_all").sel(metric=["ARI", "elapsed"])
    >>> res = mcda.smaa(cube, weights=["ARI", "elapsed"], n_draws=2_000, rng=1)
    >>> res.weight_information, res.uncertainty
    ('order', 'bootstrap-datasets')
    >>> bool((res.central_weights.dropna()["ARI"] >= 0.5).all())   # ARI at least as important
    True
    """
    n_draws = check_positive_int("n_draws", n_draws)
    streams = _streams(rng)
    setup = _prepare(scores, metrics=metrics, weights=weights, uncertainty=uncertainty, ranges=ranges)
    k, m = setup.n_methods, setup.n_metrics
    _check_budget(setup, n_draws)
    from mcda._core._kernels.smaa import first_counts, rank_counts

    counts = np.zeros((k, k), dtype=np.int64)
    sums, squares = np.zeros((k, m)), np.zeros((k, m))
    for meas, w in _draws(setup, n_draws, streams):
        rank_counts(meas, w, _TOL, counts, sums, squares)
    first = counts[:, 0]
    exact = setup.weight_information == "exact"
    with np.errstate(invalid="ignore", divide="ignore"):
        central = np.where((first > 0)[:, None] & (not exact), sums / first[:, None], np.nan)
        spread = (squares - sums * sums / first[:, None]) / (first[:, None] - 1.0)
        central_se = np.where((first > 1)[:, None] & (not exact),
                              np.sqrt(np.maximum(spread, 0.0) / first[:, None]), np.nan)
    active = np.flatnonzero(~np.isnan(central).any(axis=1)).astype(np.int64)
    confidence = np.full(k, np.nan)
    if active.size:
        hits = np.zeros(active.size, dtype=np.int64)
        central_c = np.ascontiguousarray(np.nan_to_num(central))
        for meas, _ in _draws(setup, n_draws, streams, weights=False):
            first_counts(meas, central_c, active, _TOL, hits)
        confidence[active] = hits / n_draws
    share = counts / n_draws
    idx = pd.Index(setup.methods, name="method")
    ranks = pd.RangeIndex(1, k + 1, name="rank")
    criteria = pd.Index(setup.metrics, name="metric")
    return SmaaResult(
        methods=setup.methods, metrics=setup.metrics,
        directions=pd.Series(setup.directions, index=criteria, name="direction"),
        rank_acceptability=pd.DataFrame(share, index=idx, columns=ranks),
        rank_acceptability_se=pd.DataFrame(np.sqrt(share * (1 - share) / n_draws), index=idx, columns=ranks),
        central_weights=pd.DataFrame(central, index=idx, columns=criteria),
        central_weights_se=pd.DataFrame(central_se, index=idx, columns=criteria),
        confidence_factors=pd.Series(confidence, index=idx, name="confidence_factor"),
        confidence_factors_se=pd.Series(np.sqrt(confidence * (1 - confidence) / n_draws), index=idx,
                                        name="confidence_factor_se"),
        ranges=setup.ranges, weights=setup.weights, weight_information=setup.weight_information,
        uncertainty=setup.uncertainty, n_draws=n_draws, n_datasets=setup.n_datasets, excluded=setup.excluded)


def _check_budget(setup: _Setup, n_draws: int) -> None:
    """Refuse, before drawing, outputs beyond ``memory_limit`` and work beyond ``compute_limit``."""
    from mcda._core.options import check_allocation, check_compute

    k, m = setup.n_methods, setup.n_metrics
    block = setup.block
    # kept: rank counts and shares with their errors (4 k × k), central weights (4 k × m); one block of draws
    # (measurements, weights, bootstrap counts and the product's copy)
    nbytes = 8 * (4 * k * k + 4 * k * m) + 8 * block * (2 * k * m + m + 2 * setup.n_datasets)
    check_allocation(nbytes, f"SMAA-2 of {k:,} methods keeps {k:,} × {k:,} rank acceptabilities",
                     "Compare fewer methods (e.g. select some with mcda.select)", argument="scores")
    per_draw = k * (m + math.log2(max(k, 2))) + setup.n_datasets * k * m / 8
    check_compute(_SECONDS_PER_VALUE * per_draw * n_draws * 2,
                  f"SMAA-2 of {k:,} methods × {m} criteria over {n_draws:,} draws (two passes)",
                  "Ask for fewer n_draws", argument="n_draws", value=n_draws)
