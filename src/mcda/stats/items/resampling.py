"""Is A better than B on this test set? Paired permutation tests and paired bootstrap intervals over items.

Several methods scored on the same items (a cube ``dataset × method × item``, optionally with a
``sample`` dim and a ``cluster`` coordinate on ``item``) are compared pair by pair on the items
both have. The units resampled are the clusters (questions sharing a passage, files of one
repository), or the items themselves when there is no ``cluster`` coordinate:

- :func:`paired_permutation_test` flips the sign of each unit's paired difference (the sum of
  a − b over the unit's items): under the null hypothesis that the two methods' scores are
  exchangeable within each item, every sign pattern is equally likely;
- :func:`paired_bootstrap` draws units with replacement and reads the interval of the mean
  difference off the resampled means (percentile, basic or BCa).

Every pair of a dataset shares the same draws (one matrix product of the draws with the units'
per-method sums gives every method's resampled sum), so all pairs of 200 methods cost little
more than one. Items are taken in the order of their labels and clusters in the order of theirs,
so the rows' order in the input changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import xarray as xr

from mcda._core.results import Result, p_text, states_scale
from mcda._core.validation import (McdaArgumentError, McdaArgumentTypeError, MissingDataWarning, Reason, as_rng,
                                   check_alpha, check_choice, check_control, check_positive_int, check_probability,
                                   shown, warn)
from mcda.data.cards import direction_sign
from mcda.data.checks import cube_direction
from mcda.data.cube import as_cube
from mcda.stats._shared.multitest import PAIR_STRUCTURED, PVALUE_ADJUSTMENTS, adjust_finite, canonical_adjustment

__all__ = ["ItemPermutationTests", "ItemBootstrapIntervals", "paired_permutation_test", "paired_bootstrap"]

_ALTERNATIVES = ("two-sided", "greater", "less")
_CI_METHODS = ("percentile", "basic", "bca")
_BLOCK_CELLS = 1 << 22  # draws held at once (32 MB of float64), whatever the number of units
_PAIR_COLUMNS = ["dataset", "method_a", "method_b", "n_items", "n_clusters", "mean_diff"]


# --------------------------------------------------------------------------- the units of a dataset


@dataclass(frozen=True)
class _Group:
    """The pairs of one dataset that share the same items, with the sums their resampling reads."""

    pairs: np.ndarray  # rows of the dataset's pair list
    sums: np.ndarray  # (units, methods) float64: each unit's sum of each method's scores (0 for a method not paired here)
    sizes: np.ndarray  # (units,) float64: items per unit
    n_items: int


@dataclass(frozen=True)
class _Dataset:
    label: object
    groups: list
    missing: dict  # method -> items it lacks on this dataset


@dataclass(frozen=True)
class _Design:
    cube: xr.DataArray
    methods: list
    pair_a: np.ndarray
    pair_b: np.ndarray
    sign: float  # +1 higher is better, -1 lower is better
    clustered: bool
    sampled: bool
    datasets: list


def _item_cube(scores, direction, metric, method_names) -> xr.DataArray:
    cube = as_cube(scores, direction, metric=metric, method_names=method_names)
    if "item" not in cube.dims:
        raise McdaArgumentError(f"`scores` needs an 'item' dim (scores per item of a test set); its dims are "
                                f"{shown(cube.dims)}. Across datasets or seeds, use the tests of those levels.",
                                argument="scores", value=tuple(cube.dims), allowed=("item",))
    extra = [d for d in cube.dims if d not in ("dataset", "method", "item", "sample")]
    if extra:
        raise McdaArgumentError(f"`scores` over items may have the dims dataset, method, item and sample; it also has "
                                f"{shown(extra)}. Select one metric (`metric=`) or reduce the other dims first.",
                                argument="scores", value=tuple(extra))
    if "cluster" in cube.coords and cube.coords["cluster"].dims != ("item",):
        raise McdaArgumentError(f"`scores`' 'cluster' coordinate must lie along 'item'; it has dims "
                                f"{shown(cube.coords['cluster'].dims)}.", argument="scores")
    return cube


def _check_pairs(methods: list, control, pair):
    """(pair_a, pair_b) method indices: every pair i < j, (control, other), or the one pair named."""
    if control is not None and pair is not None:
        raise McdaArgumentError("`pair` and `control` exclude each other: name one pair, or a control and its "
                                f"k − 1 comparisons; got pair={pair!r} and control={control!r}.", argument="pair",
                                value=pair)
    if pair is not None:
        if isinstance(pair, str) or not hasattr(pair, "__len__") or len(pair) != 2:
            raise McdaArgumentTypeError(f"`pair` must be two method names (method_a, method_b); got {pair!r}.",
                                        argument="pair", value=pair)
        a, b = (str(p) for p in pair)
        unknown = [m for m in (a, b) if m not in methods]
        if unknown or a == b:
            why = f"{shown(unknown)} not among the methods" if unknown else "the same method twice"
            raise McdaArgumentError(f"`pair` must name two different methods of [{shown(methods, fmt=str)}]; got "
                                    f"{pair!r} ({why}).", argument="pair", value=pair, allowed=methods)
        return np.array([methods.index(a)], dtype=np.int64), np.array([methods.index(b)], dtype=np.int64)
    if control is not None:
        c = methods.index(check_control(control, methods))
        others = np.array([j for j in range(len(methods)) if j != c], dtype=np.int64)
        return np.full(others.size, c, dtype=np.int64), others
    a, b = np.triu_indices(len(methods), 1)
    return a.astype(np.int64), b.astype(np.int64)


def _codes(labels: np.ndarray) -> np.ndarray:
    """Each label's position among the sorted distinct labels."""
    return np.unique(labels, return_inverse=True)[1].reshape(-1)


def _group(values: np.ndarray, mask: np.ndarray, clusters, pairs: np.ndarray) -> _Group:
    """The units of the items in ``mask``: clusters (or items), their per-method sums and sizes."""
    items = np.flatnonzero(mask)
    scores = np.where(np.isnan(values[:, items]), 0.0, values[:, items]).T  # (items, methods)
    if clusters is None:
        sums = np.ascontiguousarray(scores)
        sizes = np.ones(items.size)
    else:
        codes = _codes(clusters[items])
        order = np.argsort(codes, kind="stable")
        starts = np.flatnonzero(np.r_[True, np.diff(codes[order]) != 0])
        sums = np.ascontiguousarray(np.add.reduceat(scores[order], starts, axis=0)) if items.size else scores
        sizes = np.diff(np.r_[starts, items.size]).astype(np.float64)
    return _Group(pairs=pairs, sums=sums, sizes=sizes, n_items=int(items.size))


def _design(scores, direction, metric, method_names, control, pair) -> _Design:
    cube = _item_cube(scores, direction, metric, method_names)
    methods = [str(m) for m in cube.coords["method"].values]
    pair_a, pair_b = _check_pairs(methods, control, pair)
    item_order = np.argsort(np.asarray(cube.coords["item"].values), kind="stable")
    clusters = None
    if "cluster" in cube.coords:
        clusters = np.asarray(cube.coords["cluster"].values)[item_order]
    datasets = []
    for d, label in enumerate(cube.coords["dataset"].values):
        one = cube.isel(dataset=d)
        if "sample" in one.dims:  # an item's score is the mean of its samples
            with np.errstate(invalid="ignore"), _quiet_mean():
                one = one.mean("sample", skipna=True)
        values = np.asarray(one.transpose("method", "item").values, dtype=np.float64)[:, item_order]
        present = ~np.isnan(values)
        everywhere = present.any(axis=0)  # items no method has are not items of this dataset
        missing = {methods[m]: int((everywhere & ~present[m]).sum()) for m in range(len(methods))
                   if (everywhere & ~present[m]).any()}
        shared = {}
        for p in range(pair_a.size):
            mask = present[pair_a[p]] & present[pair_b[p]]
            shared.setdefault(mask.tobytes(), (mask, []))[1].append(p)
        groups = [_group(values, mask, clusters, np.array(rows, dtype=np.int64)) for mask, rows in shared.values()]
        datasets.append(_Dataset(label=label.item() if isinstance(label, np.generic) else label, groups=groups,
                                 missing=missing))
    sign = float(direction_sign(cube_direction(cube)))
    return _Design(cube=cube, methods=methods, pair_a=pair_a, pair_b=pair_b, sign=sign,
                   clustered=clusters is not None, sampled="sample" in cube.dims, datasets=datasets)


class _quiet_mean:
    """Silence numpy's "mean of empty slice" while averaging samples (an item without any sample stays NaN)."""

    def __enter__(self):
        import warnings

        self._catch = warnings.catch_warnings()
        self._catch.__enter__()
        warnings.simplefilter("ignore", RuntimeWarning)

    def __exit__(self, *exc):
        return self._catch.__exit__(*exc)


def _missing_notes(design: _Design) -> list[str]:
    """The methods lacking items, named per dataset (pairs are compared on the items both have)."""
    notes = []
    for ds in design.datasets:
        if ds.missing:
            lacking = shown([f"{m} ({n})" for m, n in ds.missing.items()], 6, fmt=str)
            notes.append(f"dataset {ds.label!r}: methods lacking items (how many): {lacking}; each pair is compared "
                         "on the items both methods have")
    if notes:
        warn("some methods lack results on some items; each pair is compared on the items both have ("
             + "; ".join(notes) + ")", MissingDataWarning)
    return notes


def _key(gen: np.random.Generator) -> np.uint64:
    return np.uint64(gen.integers(0, 2**64, dtype=np.uint64))


def _frame(design: _Design, columns: dict) -> pd.DataFrame:
    """One row per (dataset, pair): the pair columns, then ``columns`` (arrays over the same rows)."""
    n_pairs = design.pair_a.size
    methods = np.array(design.methods, dtype=object)
    frame = pd.DataFrame({
        "dataset": np.repeat(np.array([ds.label for ds in design.datasets], dtype=object), n_pairs),
        "method_a": np.tile(methods[design.pair_a], len(design.datasets)),
        "method_b": np.tile(methods[design.pair_b], len(design.datasets)),
    })
    for name, values in columns.items():
        frame[name] = values
    return frame


def _pair_basics(design: _Design, group: _Group):
    """For one group's pairs: method indices, the observed sum of differences, Σ|D_c|, and which are identical."""
    from mcda._core._kernels.item_resampling import pair_spreads

    a = np.ascontiguousarray(design.pair_a[group.pairs])
    b = np.ascontiguousarray(design.pair_b[group.pairs])
    totals = group.sums.sum(axis=0)
    observed = totals[a] - totals[b]
    absolute = np.empty(a.size)
    identical = np.empty(a.size, dtype=np.bool_)
    pair_spreads(group.sums, a, b, absolute, identical)
    return a, b, observed, absolute, identical


def _too_few_sentence(n_units: int, clustered: bool) -> str:
    unit = "cluster" if clustered else "item"
    return f"only {n_units} shared {unit}(s): a paired comparison needs at least 2"


def _identical_sentence(n_items: int) -> str:
    return f"every paired difference is exactly 0 (identical scores on all {n_items} shared items)"


# --------------------------------------------------------------------------- permutation test


@dataclass(frozen=True, repr=False)
class ItemPermutationTests(Result):
    """Paired permutation tests over items, per dataset and pair.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per (dataset, pair): ``dataset, method_a, method_b, n_items, n_clusters,
        mean_diff, exact, p_raw, p_adjusted, significant, reason``. ``n_items`` are the items
        both methods have, ``n_clusters`` the clusters they fall in (``n_items`` without
        clusters); ``mean_diff`` is the mean of a − b over those items in the metric's own units;
        ``exact`` says whether every sign pattern was enumerated; ``p_adjusted`` is adjusted by
        ``adjust`` within each dataset; ``reason`` says why a p-value is NaN.
    alternative : str
        "two-sided", "greater" (``method_a`` better, in the metric's direction) or "less".
    adjust : str
    alpha : float
    n_resamples : int
    clustered : bool
        Whether the signs were flipped per cluster.
    control : str or None
    notes : tuple of str
    """

    table: pd.DataFrame
    alternative: str
    adjust: str
    alpha: float
    n_resamples: int
    clustered: bool
    control: str | None
    notes: tuple = ()

    def summary(self) -> str:
        unit = "clusters" if self.clustered else "items"
        lines = [f"Paired permutation tests over items (signs flipped per {unit[:-1]}; {self.alternative}; "
                 f"{self.n_resamples} resamples unless exact; {self.adjust} within each dataset, alpha = {self.alpha})"]
        for row in self.table.head(20).itertuples(index=False):
            text = (f"{p_text(row.p_raw)}, adjusted {p_text(row.p_adjusted)}" if np.isfinite(row.p_raw)
                    else f"p = nan ({row.reason})")
            lines.append(f"  {row.dataset}: {row.method_a} vs {row.method_b}: mean diff {row.mean_diff:+.4g} over "
                         f"{row.n_items} items ({row.n_clusters} {unit}), {text}")
        if len(self.table) > 20:
            lines.append(f"  … ({len(self.table) - 20} more rows; see .to_frame())")
        lines += [f"note: {n}" for n in self.notes]
        return "\n".join(lines)


def _sign_flip_counts(group: _Group, a, b, observed, tolerance, alternative: int, n_resamples: int, key):
    """(exceedance counts, rows drawn, exact) of one group's pairs."""
    from mcda._core._kernels.item_resampling import exact_sign_rows, exceedances, sign_rows

    n_units = group.sums.shape[0]
    exact = n_units < 62 and 2**n_units <= n_resamples
    total = 2**n_units if exact else n_resamples
    counts = np.zeros(a.size, dtype=np.int64)
    block = max(1, min(total, _BLOCK_CELLS // max(n_units, 1)))
    draws = np.empty((block, n_units))
    for first in range(0, total, block):
        last = min(total, first + block)
        rows = draws[:last - first]
        if exact:
            exact_sign_rows(first, last, n_units, rows)
        else:
            sign_rows(key, first, last, n_units, rows)
        exceedances(rows @ group.sums, a, b, observed, tolerance, alternative, counts)
    return counts, total, exact


@states_scale
def paired_permutation_test(scores, direction=None, *, control: str | None = None, pair=None,
                            alternative: str = "two-sided", adjust: str = "holm", alpha: float = 0.05,
                            n_resamples: int = 9999, rng=None, metric=None,
                            method_names=None) -> ItemPermutationTests:
    """Is A better than B on this test set? A paired permutation test over items for every pair, per dataset.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube` with an ``item`` dim
        Per-item scores; a ``cluster`` coordinate on ``item`` makes the clusters the units; a
        ``sample`` dim is averaged within each item first.
    direction, metric, method_names : optional
        As in :func:`mcda.data.cube.as_cube`.
    control : str, optional
        A method chosen beforehand: only the pairs (control, other) are tested, ``method_a`` is
        the control, and the adjustment's family is those k − 1 comparisons per dataset.
    pair : (str, str), optional
        One pair (method_a, method_b) only: no adjustment is needed (``p_adjusted`` equals ``p_raw``).
    alternative : {"two-sided", "greater", "less"}
        "greater": ``method_a`` is better than ``method_b`` (in the metric's direction).
    adjust : str
        Any registered p-value adjustment (:data:`mcda.stats._shared.multitest.PVALUE_ADJUSTMENTS`)
        but Shaffer's and Bergmann–Hommel's, applied within each dataset.
    alpha : float
        Level at which ``significant`` is read from ``p_adjusted``.
    n_resamples : int
        Random sign patterns; with fewer units u than log2(n_resamples) every one of the 2**u
        patterns is enumerated instead (an exact p-value).
    rng : numpy.random.Generator or seed, optional

    Returns
    -------
    ItemPermutationTests

    Raises
    ------
    McdaArgumentError
        ``scores`` without an ``item`` dim or with other dims than dataset, method, item and
        sample; an unknown ``alternative`` or ``adjust``; ``alpha`` outside (0, 1);
        ``n_resamples`` < 1; a ``control`` or ``pair`` that does not name methods; both.

    Notes
    -----
    Per pair, with D_c the sum of a − b over the items of unit c (a cluster, or an item) that
    both methods have, the statistic is T = Σ_c D_c (the mean difference times the number of
    items) and its null distribution is that of Σ_c s_c D_c over sign vectors s (Good 2005;
    per cluster, the randomisation respects the clustering). Two-sided: p is the share of
    sign vectors with |Σ s_c D_c| ≥ |T|; one-sided: Σ s_c D_c ≥ T (or ≤). Exact enumeration
    gives that share exactly; random signs give (hits + 1) / (n_resamples + 1), which never
    reaches 0 (Phipson & Smyth 2010). Without clusters this is scipy's
    ``permutation_test(..., permutation_type="samples")`` of the mean difference (the
    two-sided p-values agree exactly when every pattern is enumerated). Sums within
    Σ_c |D_c| · u · ε of T count as equal (u units): rounding never decides a tie.

    All pairs of a dataset read the same sign vectors (one product of the signs with the
    units' per-method sums), so the whole table costs about one pair's draws times the
    number of methods. A pair whose differences are all 0 gets NaN with a reason, as does
    one sharing fewer than 2 units.

    References
    ----------
    Good, P. (2005). Permutation, Parametric and Bootstrap Tests of Hypotheses. Springer.
    https://doi.org/10.1007/b138696

    Phipson, B. and Smyth, G. K. (2010). Permutation p-values should never be zero.
    Statistical Applications in Genetics and Molecular Biology 9(1).
    https://doi.org/10.2202/1544-6115.1585

    Examples
    --------
    >>> import numpy as np, xarray as xr, mcda
    >>> rng = np.random.default_rng(0)
    >>> correct = (rng.random((1, 3, 40)) < [[[0.8], [0.6], [0.55]]]).astype(float)
    >>> cube = mcda.score_cube(xr.DataArray(correct, dims=("dataset", "method", "item"),
    ...     coords={"dataset": ["qa"], "method": ["a", "b", "c"], "item": np.arange(40)}), metric="accuracy")
    >>> result = mcda.paired_permutation_test(cube, rng=1)
    >>> result.table[["method_a", "method_b", "n_items"]].values.tolist()
    [['a', 'b', 40], ['a', 'c', 40], ['b', 'c', 40]]
    """
    alternative = check_choice("alternative", alternative, _ALTERNATIVES)
    adjust = canonical_adjustment(adjust, "adjust", allowed=[m for m in PVALUE_ADJUSTMENTS if m not in PAIR_STRUCTURED],
                                  why_not="Its logical restrictions need the p-value of every pair, and a pair "
                                          "that shares too few items has none.")
    alpha = check_alpha(alpha)
    n_resamples = check_positive_int("n_resamples", n_resamples)
    gen = as_rng(rng)
    design = _design(scores, direction, metric, method_names, control, pair)
    notes = _missing_notes(design)
    key = _key(gen)
    code = {"two-sided": 0, "greater": int(design.sign), "less": -int(design.sign)}[alternative]
    n_pairs = design.pair_a.size
    rows = n_pairs * len(design.datasets)
    n_items = np.zeros(rows, dtype=np.int64)
    n_units = np.zeros(rows, dtype=np.int64)
    mean_diff = np.full(rows, np.nan)
    exact = np.zeros(rows, dtype=bool)
    p_raw = np.full(rows, np.nan)
    reason = np.full(rows, "", dtype=object)
    for d, ds in enumerate(design.datasets):
        for group in ds.groups:
            at = d * n_pairs + group.pairs
            units = group.sums.shape[0]
            n_items[at], n_units[at] = group.n_items, units
            if units < 2:
                reason[at] = _too_few_sentence(units, design.clustered)
                if group.n_items:
                    mean_diff[at] = _observed_mean(design, group)
                continue
            a, b, observed, absolute, identical = _pair_basics(design, group)
            mean_diff[at] = observed / group.n_items
            live = ~identical
            reason[at[identical]] = _identical_sentence(group.n_items)
            if live.any():
                tolerance = units * np.finfo(np.float64).eps * absolute[live]
                counts, total, is_exact = _sign_flip_counts(group, a[live], b[live], observed[live], tolerance, code,
                                                            n_resamples, key)
                p_raw[at[live]] = counts / total if is_exact else (counts + 1) / (total + 1)
                exact[at[live]] = is_exact
    p_adjusted = np.full(rows, np.nan)
    for d in range(len(design.datasets)):
        block = slice(d * n_pairs, (d + 1) * n_pairs)
        finite = np.flatnonzero(np.isfinite(p_raw[block])) + d * n_pairs
        if finite.size:
            p_adjusted[finite] = adjust_finite(p_raw[finite], adjust, alpha=alpha)
    table = _frame(design, {"n_items": n_items, "n_clusters": n_units, "mean_diff": mean_diff, "exact": exact,
                            "p_raw": p_raw, "p_adjusted": p_adjusted, "significant": p_adjusted < alpha,
                            "reason": reason})
    return ItemPermutationTests(table=table, alternative=alternative, adjust=adjust, alpha=alpha,
                                n_resamples=n_resamples, clustered=design.clustered,
                                control=None if control is None else str(control), notes=tuple(notes))


def _observed_mean(design: _Design, group: _Group) -> np.ndarray:
    totals = group.sums.sum(axis=0)
    return (totals[design.pair_a[group.pairs]] - totals[design.pair_b[group.pairs]]) / group.n_items


# --------------------------------------------------------------------------- bootstrap


@dataclass(frozen=True, repr=False)
class ItemBootstrapIntervals(Result):
    """Paired bootstrap intervals of the mean difference over items, per dataset and pair.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per (dataset, pair): ``dataset, method_a, method_b, n_items, n_clusters,
        mean_diff, ci_low, ci_high, reason``, in the metric's own units (``mean_diff`` is the
        mean of a − b over the items both methods have); ``reason`` says why an interval is NaN.
    confidence_level : float
    ci_method : str
        "percentile", "basic" or "bca".
    n_resamples : int
    clustered : bool
        Whether whole clusters were resampled.
    control : str or None
    notes : tuple of str
    """

    table: pd.DataFrame
    confidence_level: float
    ci_method: str
    n_resamples: int
    clustered: bool
    control: str | None
    notes: tuple = ()

    def summary(self) -> str:
        unit = "clusters" if self.clustered else "items"
        lines = [f"Paired bootstrap of the mean difference over items ({self.confidence_level:.0%} {self.ci_method} "
                 f"intervals; {self.n_resamples} resamples of whole {unit})"]
        for row in self.table.head(20).itertuples(index=False):
            text = (f"[{row.ci_low:+.4g}, {row.ci_high:+.4g}]" if np.isfinite(row.ci_low)
                    else f"no interval ({row.reason})")
            lines.append(f"  {row.dataset}: {row.method_a} vs {row.method_b}: {row.mean_diff:+.4g} {text} "
                         f"({row.n_items} items, {row.n_clusters} {unit})")
        if len(self.table) > 20:
            lines.append(f"  … ({len(self.table) - 20} more rows; see .to_frame())")
        lines += [f"note: {n}" for n in self.notes]
        return "\n".join(lines)


def _resampled_sums(group: _Group, n_resamples: int, key):
    """(sums, sizes): every method's sum over each resample of the units (rows), and the resample's items."""
    from mcda._core._kernels.item_resampling import count_rows

    n_units = group.sums.shape[0]
    sums = np.empty((n_resamples, group.sums.shape[1]))
    sizes = np.empty(n_resamples)
    block = max(1, min(n_resamples, _BLOCK_CELLS // n_units))
    draws = np.empty((block, n_units))
    for first in range(0, n_resamples, block):
        last = min(n_resamples, first + block)
        rows = draws[:last - first]
        count_rows(key, first, last, n_units, rows)
        np.matmul(rows, group.sums, out=sums[first:last])
        np.matmul(rows, group.sizes, out=sizes[first:last])
    return sums, sizes


def _group_intervals(group: _Group, a, b, theta, ci_method: str, confidence_level: float, n_resamples: int, key):
    """(low, high, degenerate) of one group's live pairs."""
    from scipy.special import ndtr, ndtri

    from mcda._core._kernels.item_resampling import jackknife_acceleration, pair_quantiles, below_counts

    sums, sizes = _resampled_sums(group, n_resamples, key)
    tail = (1.0 - confidence_level) / 2.0
    probs = np.tile([tail, 1.0 - tail], (a.size, 1))
    degenerate = np.zeros(a.size, dtype=bool)
    if ci_method == "bca":
        below = np.empty(a.size, dtype=np.int64)
        below_counts(sums, sizes, a, b, theta, below)
        accel = np.empty(a.size)
        jackknife_acceleration(group.sums, group.sizes, a, b, accel)
        with np.errstate(divide="ignore", invalid="ignore"):
            z0 = ndtri(below / (2.0 * n_resamples))
            z = ndtri(np.array([tail, 1.0 - tail]))
            shifted = z0[:, None] + z[None, :]
            probs = ndtr(z0[:, None] + shifted / (1.0 - accel[:, None] * shifted))
        degenerate = ~np.isfinite(probs).all(axis=1)
        probs = np.where(degenerate[:, None], 0.5, probs)
    out = np.empty((a.size, 2))
    pair_quantiles(sums, sizes, a, b, np.ascontiguousarray(probs), out)
    low, high = out[:, 0], out[:, 1]
    if ci_method == "basic":
        low, high = 2.0 * theta - high, 2.0 * theta - low
    low = np.where(degenerate, np.nan, low)
    high = np.where(degenerate, np.nan, high)
    return low, high, degenerate


@states_scale
def paired_bootstrap(scores, direction=None, *, control: str | None = None, pair=None,
                     confidence_level: float = 0.95, ci_method: str = "percentile", n_resamples: int = 9999,
                     rng=None, metric=None, method_names=None) -> ItemBootstrapIntervals:
    """How large is the difference between A and B on this test set? Paired bootstrap intervals over items.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube` with an ``item`` dim
        Per-item scores; a ``cluster`` coordinate on ``item`` makes whole clusters the units
        drawn; a ``sample`` dim is averaged within each item first.
    direction, metric, method_names : optional
        As in :func:`mcda.data.cube.as_cube`.
    control : str, optional
        Only the pairs (control, other), ``method_a`` the control.
    pair : (str, str), optional
        One pair (method_a, method_b) only.
    confidence_level : float
    ci_method : {"percentile", "basic", "bca"}
        scipy.stats.bootstrap's interval methods.
    n_resamples : int
    rng : numpy.random.Generator or seed, optional

    Returns
    -------
    ItemBootstrapIntervals

    Raises
    ------
    McdaArgumentError
        ``scores`` without an ``item`` dim or with other dims than dataset, method, item and
        sample; an unknown ``ci_method``; ``confidence_level`` outside (0, 1);
        ``n_resamples`` < 1; a ``control`` or ``pair`` that does not name methods; both.

    Notes
    -----
    A resample draws as many units (clusters, or items) as the pair shares, with replacement;
    its mean difference is Σ_c w_c D_c / Σ_c w_c n_c (w_c the times unit c was drawn, D_c
    the sum of a − b over its n_c items): the cluster bootstrap of a mean (Field & Welsh 2007),
    which keeps the dependence within clusters. Without clusters this is scipy's
    ``bootstrap`` of the mean difference (``paired=True``): the percentile interval takes the
    quantiles (numpy's "linear") of the resampled means, the basic one reflects them about the
    estimate, and BCa (Efron 1987) shifts them by the bias correction z0 (the share of
    resampled means below the estimate, ties counted half) and the acceleration from the leave-one-unit-out
    means. A BCa interval whose resampled means all lie on one side of the estimate is NaN
    with a reason, as is a pair sharing fewer than 2 units or with every difference 0.

    All pairs of a dataset read the same resamples (one product of the draw counts with the
    units' per-method sums).

    References
    ----------
    Efron, B. (1987). Better bootstrap confidence intervals. Journal of the American
    Statistical Association 82(397), 171–185. https://doi.org/10.1080/01621459.1987.10478410

    Field, C. A. and Welsh, A. H. (2007). Bootstrapping clustered data. Journal of the Royal
    Statistical Society B 69(3), 369–390. https://doi.org/10.1111/j.1467-9868.2007.00593.x

    Examples
    --------
    >>> import numpy as np, xarray as xr, mcda
    >>> rng = np.random.default_rng(0)
    >>> correct = (rng.random((1, 2, 60)) < [[[0.8], [0.6]]]).astype(float)
    >>> cube = mcda.score_cube(xr.DataArray(correct, dims=("dataset", "method", "item"),
    ...     coords={"dataset": ["qa"], "method": ["a", "b"], "item": np.arange(60)}), metric="accuracy")
    >>> row = mcda.paired_bootstrap(cube, rng=1).table.iloc[0]
    >>> bool(row.ci_low < row.mean_diff < row.ci_high)
    True
    """
    confidence_level = check_probability("confidence_level", confidence_level)
    ci_method = check_choice("ci_method", ci_method, _CI_METHODS)
    n_resamples = check_positive_int("n_resamples", n_resamples)
    gen = as_rng(rng)
    design = _design(scores, direction, metric, method_names, control, pair)
    notes = _missing_notes(design)
    key = _key(gen)
    n_pairs = design.pair_a.size
    rows = n_pairs * len(design.datasets)
    n_items = np.zeros(rows, dtype=np.int64)
    n_units = np.zeros(rows, dtype=np.int64)
    mean_diff = np.full(rows, np.nan)
    low = np.full(rows, np.nan)
    high = np.full(rows, np.nan)
    reason = np.full(rows, "", dtype=object)
    for d, ds in enumerate(design.datasets):
        for group in ds.groups:
            at = d * n_pairs + group.pairs
            units = group.sums.shape[0]
            n_items[at], n_units[at] = group.n_items, units
            if units < 2:
                reason[at] = _too_few_sentence(units, design.clustered)
                if group.n_items:
                    mean_diff[at] = _observed_mean(design, group)
                continue
            a, b, observed, _, identical = _pair_basics(design, group)
            theta = observed / group.n_items
            mean_diff[at] = theta
            reason[at[identical]] = _identical_sentence(group.n_items)
            live = ~identical
            if live.any():
                lo, hi, degenerate = _group_intervals(group, a[live], b[live], theta[live], ci_method,
                                                      confidence_level, n_resamples, key)
                low[at[live]], high[at[live]] = lo, hi
                reason[at[live][degenerate]] = ("every resampled mean difference lies on one side of the estimate: "
                                                "the BCa bias correction is infinite")
    table = _frame(design, {"n_items": n_items, "n_clusters": n_units, "mean_diff": mean_diff, "ci_low": low,
                            "ci_high": high, "reason": reason})
    return ItemBootstrapIntervals(table=table, confidence_level=confidence_level, ci_method=ci_method,
                                  n_resamples=n_resamples, clustered=design.clustered,
                                  control=None if control is None else str(control), notes=tuple(notes))
