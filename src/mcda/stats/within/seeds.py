"""Within a dataset, over seeds: is A better than B on *this* dataset?

Every function here reads the per-seed scores of a cube with a ``seed`` dim (dataset ×
method × seed, optionally × metric) and answers per dataset:

- :func:`summary`: mean, spread and a t or percentile-bootstrap interval per (dataset, method);
- :func:`paired_tests`: paired t or Wilcoxon signed-rank for every pair of methods, Holm
  step-down with the dataset as the family;
- :func:`equivalence`: paired TOST against a margin (the card's noise floor by default);
- :func:`power`: minimum detectable effect at this seed count, observed power, seeds needed;
- :func:`design_adequacy`: before anything is run, whether a design of k methods on N
  datasets can reach significance at all;
- :func:`wilcoxon_signed_ranks`: the signed-rank sums R+ and R− of a set of differences.

Pairs are compared on the seeds both methods have (aligned by seed label); the count is in
every table. Outputs speak in the metric's own units and direction: ``mean_diff`` is
a − b, so for a lower-is-better metric (an error, a run time) a negative ``mean_diff``
means that a is better.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd
import xarray as xr
from scipy import stats

from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError
from mcda._core.results import Result, pair_decisions_table, states_scale
from mcda._core.validation import (check_control, MissingDataWarning, UnpairedSeedsWarning, as_rng, check_alpha, check_choice, check_positive_int, check_probability, shown, warn)
from mcda._core.validation import OverlappingFoldsWarning
from mcda.data.cards import MetricCard, direction_sign
from mcda.data.cube import as_cube
from mcda.data.checks import cube_card, cube_cards
from mcda._core.numeric import rank, score_tolerance, snap_differences
from mcda._core.validation import Reason
from mcda.stats._shared.intervals import spread, t_interval
from mcda.stats._shared.multitest import adjust_by_family
from mcda.stats._shared.folds import FoldDesign, declared_folds, fold_design
from mcda.stats.procedures import PROCEDURES, canonical, names, paired_test_methods

__all__ = [
    "summary",
    "IntervalSummary",
    "paired_tests",
    "PairedTests",
    "equivalence",
    "EquivalenceResult",
    "power",
    "PowerResult",
    "wilcoxon_signed_ranks",
    "SignedRanks",
]

CI_METHODS = ("t", "bootstrap")
#: The tests of :func:`paired_tests` (its ``method=``): the registered tests over seeds that have an
#: unpaired counterpart (Welch's t, Mann–Whitney U, which ``paired=False`` runs instead), then the
#: tests over cross-validation folds (family "seeds-cv"), which know that the folds overlap.
TEST_METHODS = paired_test_methods()
FOLD_METHODS = names("seeds-cv")
_FOLD_DEFAULT = "corrected-repeated-cv-t"  # the test over folds a warning about a naive test points to
ZERO_METHODS = ("wilcox", "pratt", "zsplit")
_FEW_SEEDS_FOR_BOOTSTRAP = 10
_DEFAULT_RESAMPLES = 9999  # percentile bootstrap resamples per cell when n_resamples is not given (as scipy)


# --------------------------------------------------------------------------- input


@dataclass(frozen=True)
class _Block:
    """One metric's per-seed scores, in the metric's own units."""

    metric: str
    direction: str
    card: MetricCard | None
    noise_floor: float
    values: np.ndarray  # (n_datasets, n_methods, n_seeds), NaN = no result
    datasets: list
    methods: list

    @property
    def sign(self) -> float:
        return direction_sign(self.direction)


def _blocks(scores, direction, metric, method_names) -> tuple[xr.DataArray, list[_Block]]:
    """The cube and one block per metric; a cube without ``seed`` (or with epoch/split) raises."""
    from mcda.data.blocks import require_in_memory

    require_in_memory(scores, "the within-dataset views (summary, paired_tests, equivalence, power)",
                      reason="they return one row per (dataset, method) cell or pair, as large as the cube itself",
                      instead="select the datasets you need and load them, e.g. cube.isel(dataset=slice(0, 1000))"
                              ".load(), or use mcda.method_summary for per-method statistics")
    cube = as_cube(scores, direction, metric=metric, method_names=method_names)
    if "seed" not in cube.dims:
        raise McdaArgumentError(
            f"`scores` has no 'seed' dim (its dims are {tuple(cube.dims)}): within-dataset statistics compare "
            "methods over repeated runs (seeds) on each dataset. Pass per-seed scores (a tidy frame with a "
            "`seed` column, a nested dict of lists, or a datasets × methods × seeds array); for one score per "
            "dataset use the across-dataset functions (mcda.friedman_test, mcda.pairwise_superiority).",
            argument="scores")
    extra = [d for d in cube.dims if d not in ("dataset", "method", "seed", "metric")]
    if extra:
        raise McdaArgumentError(f"`scores` has the extra dims {extra}; select one value along each first "
                         f"(e.g. cube.sel({extra[0]}=...)).", argument="scores")
    datasets = [str(d) for d in cube.coords["dataset"].values]
    methods = [str(m) for m in cube.coords["method"].values]
    blocks = []
    if "metric" in cube.dims:
        cards = cube_cards(cube)
        for i, label in enumerate(str(m) for m in cube.coords["metric"].values):
            sub = cube.isel(metric=i).transpose("dataset", "method", "seed")
            blocks.append(_Block(metric=label, direction=str(cube.coords["direction"].values[i]),
                                 card=cards.get(label), noise_floor=float(cube.coords["noise_floor"].values[i]),
                                 values=np.ascontiguousarray(sub.values, dtype=np.float64),
                                 datasets=datasets, methods=methods))
    else:
        floor = cube.attrs.get("noise_floor", math.nan)
        blocks.append(_Block(metric=str(cube.attrs.get("metric", "")), direction=str(cube.attrs["direction"]),
                             card=cube_card(cube), noise_floor=math.nan if floor is None else float(floor),
                             values=np.ascontiguousarray(cube.transpose("dataset", "method", "seed").values,
                                                         dtype=np.float64),
                             datasets=datasets, methods=methods))
    return cube, blocks


def _meta(cube: xr.DataArray, blocks: list[_Block]):
    """(metric, direction) fields: a name and a direction, or a tuple and a dict with a metric dim."""
    if "metric" in cube.dims:
        return tuple(b.metric for b in blocks), {b.metric: b.direction for b in blocks}
    return blocks[0].metric, blocks[0].direction


def _pairing_notes(cube: xr.DataArray, blocks: list[_Block], *, paired: bool = True,
                   view: str = "paired_tests") -> list[str]:
    """A note (and a warning) when a (dataset, pair) comparison shares fewer seeds than each method has.

    Paired comparisons align seeds by label. Two cases, told apart from the data:

    * every method was run with the same seed labels and some runs were lost here and there
      (SVM lost seed 2 on one dataset, kNN seed 4): the pair is compared on the seeds both
      have, and a :class:`~mcda.MissingDataWarning` names the lost seeds;
    * the seed labels differ between methods (one method's seeds are 100–104, the other's
      0–4): the pairs lose their partners, and an :class:`~mcda.UnpairedSeedsWarning` says so.
      Its advice fits ``view``: :func:`paired_tests` with ``paired=True`` points to
      ``paired=False``; with ``paired=False`` nothing is paired; ``equivalence`` and ``power``
      have no unpaired form, so they say what they pair.

    Said once per call, loudly, never silently turned into "0 shared seeds".
    """
    notes = []
    seeds = cube.coords["seed"].values
    for block in blocks:
        has = ~np.isnan(block.values)  # (datasets, methods, seeds)
        n = has.sum(axis=2)
        ia, ib = np.triu_indices(has.shape[1], 1)
        shared = (has[:, ia, :] & has[:, ib, :]).sum(axis=2)
        short = (shared < np.minimum(n[:, ia], n[:, ib])) & (n[:, ia] > 0) & (n[:, ib] > 0)
        if not short.any():
            continue
        ran = has.any(axis=0)  # (methods, seeds): the labels each method was run with, on any dataset
        labels = {m: sorted({_plain(seeds[j]) for j in np.nonzero(ran[i])[0]}) for i, m in enumerate(block.methods)}
        same_labels = (ran[ia] == ran[ib]).all(axis=1)  # per pair: both methods were run with the same labels
        lost = short & same_labels[None, :]
        differ = short & ~same_labels[None, :]
        where = f" of {block.metric!r}" if "metric" in cube.dims else ""
        if lost.any():
            d, q = (int(x[0]) for x in np.nonzero(lost))
            a, b = ia[q], ib[q]
            gone = {m: [_plain(seeds[j]) for j in np.nonzero(ran[i] & ~has[d, i])[0]] for i, m in
                    ((a, block.methods[a]), (b, block.methods[b]))}
            example = " and ".join(f"{m} lacks seed{'s' if len(g) > 1 else ''} {shown(g, 5)}"
                                   for m, g in gone.items() if g)
            what = (f"lost seeds{where}: {int(lost.sum())} of {lost.size} (dataset, pair) comparisons lack a seed one "
                    f"of the two methods lost (e.g. on {block.datasets[d]} {example}); both methods were run with "
                    f"the same seed labels, so each pair is "
                    + ("compared on the seeds both have (n_seeds counts them)" if paired or view != "paired_tests"
                       else "compared as two samples of the seeds each has"))
            notes.append(what)
            warn(what + ".", MissingDataWarning)
        if differ.any():
            q = int(np.nonzero(differ.any(axis=0))[0][0])
            first, second = block.methods[ia[q]], block.methods[ib[q]]
            if labels[first] == labels[block.methods[0]]:  # name first the method whose labels stand out
                first, second = second, first
            what = (f"seed labels differ between methods{where}: {int(differ.sum())} of {differ.size} (dataset, pair) "
                    f"comparisons share fewer seeds than each method has (e.g. {first} has seeds "
                    f"{shown(labels[first], 5)}, {second} has {shown(labels[second], 5)})")
            if not paired:
                what += ("; the unpaired tests compare" if view == "paired_tests" else f"; {view} compares") + \
                    " each method's seeds as two samples"
            elif view != "paired_tests":
                what += (f"; {view} pairs seeds by label, so these pairs use only the shared seeds (or none). If the "
                         "seeds are paired runs, relabel them to match")
            else:
                what += "; paired comparisons align seeds by label, so these pairs use only the shared seeds (or none)."
                fix = ("If the seeds are not paired runs, {} (Welch t / Mann-Whitney); if they are, relabel them to "
                       "match").format
                notes.append(f"{what} {fix('use paired_tests(..., paired=False)')}")
                warn(what, UnpairedSeedsWarning, remedy={"library": fix("use paired_tests(..., paired=False)") + ".",
                                                         "cli": fix("give --unpaired") + "."})
                continue
            notes.append(what)
            warn(what + ".", UnpairedSeedsWarning)
    return notes


def _plain(label):
    return label.item() if isinstance(label, np.generic) else label


def _check_confidence(confidence_level) -> float:
    return check_probability("confidence_level", confidence_level)


# --------------------------------------------------------------------------- result display helpers


def _show_table(frame: pd.DataFrame, columns: list[str], limit: int = 20) -> str:
    if "reason" in frame.columns and (frame["reason"] == "").all():
        columns = [c for c in columns if c != "reason"]
    shown = frame[[c for c in columns if c in frame.columns]].head(limit)
    text = shown.to_string(index=False, float_format=lambda v: f"{v:.4g}")
    if len(frame) > limit:
        text += f"\n… ({len(frame) - limit} more rows; see .to_frame())"
    return text


def _notes_text(notes) -> str:
    return "".join(f"\nnote: {n}" for n in notes)


class _TableResult(Result):
    """The table-shaped results: :class:`Result` (``to_frame`` is a copy of ``table``) and their text.

    The subclasses are frozen dataclasses (``repr=False``) with ``table`` and ``notes`` fields.
    """

    def _text(self, head: str, columns: list[str]) -> str:
        return head + "\n" + _show_table(self.table, columns) + _notes_text(self.notes)


# --------------------------------------------------------------------------- summary


@dataclass(frozen=True, repr=False)
class IntervalSummary(_TableResult):
    """Mean, spread and an interval for the mean per (dataset, method[, metric]), over seeds.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per (dataset, method[, metric]): ``dataset, method, [metric,] n_seeds, mean,
        std, sem, ci_low, ci_high, reason``. Values in the metric's own units; ``std`` is the
        sample standard deviation (ddof = 1), ``sem = std / sqrt(n_seeds)``. ``reason`` is
        empty, or says why a value is NaN (no seed, or a single seed).
    ci_method : {"t", "bootstrap"}
    confidence_level : float
    n_resamples : int or None
        Resamples per cell for the bootstrap (None for the t interval).
    metric : str or tuple of str
    direction : str or dict
    notes : tuple of str
        What the reader should know (e.g. that the card marks the metric as bounded, so the
        percentile bootstrap suits it better than the t interval).
    """

    table: pd.DataFrame
    ci_method: str
    confidence_level: float
    n_resamples: int | None
    metric: object
    direction: object
    notes: tuple = ()

    @property
    def too_narrow(self) -> pd.DataFrame:
        """The rows whose interval is too narrow for its nominal level: percentile-bootstrap cells
        with 2 to 9 seeds (none for the t interval). Below 10 seeds the percentile bootstrap of a
        mean covers less than its nominal rate (about 84 % for a nominal 95 % at 5 normal seeds)."""
        if self.ci_method != "bootstrap":
            return self.table.iloc[0:0]
        n = self.table["n_seeds"]
        return self.table[(n >= 2) & (n < _FEW_SEEDS_FOR_BOOTSTRAP)]

    def summary(self) -> str:
        how = ("Student t" if self.ci_method == "t"
               else f"percentile bootstrap, {self.n_resamples} resamples")
        metric = self.metric if isinstance(self.metric, str) else ", ".join(self.metric)
        head = (f"Interval summary over seeds ({metric or 'unnamed metric'}; {self.confidence_level:.0%} {how}), "
                f"{len(self.table)} cells")
        cols = ["dataset", "method", "metric", "n_seeds", "mean", "std", "ci_low", "ci_high", "reason"]
        return self._text(head, cols)


def _compact(values: np.ndarray, valid: np.ndarray):
    """Rows of a (cells, seeds) array with their valid entries packed: (flat values, offsets)."""
    counts = valid.sum(axis=1)
    offsets = np.zeros(values.shape[0] + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    return np.ascontiguousarray(values[valid], dtype=np.float64), offsets


def _bootstrap_interval(oriented: np.ndarray, confidence_level: float, n_resamples: int, gen) -> np.ndarray:
    """Percentile-bootstrap endpoints of the mean per row of an oriented (cells, seeds) array."""
    from mcda._core._kernels.bootstrap import bootstrap_mean_quantiles, cell_keys

    valid = ~np.isnan(oriented)
    flat, offsets = _compact(oriented + 0.0, valid)  # + 0.0: -0.0 and 0.0 share one key
    base = np.uint64(gen.integers(0, 2**64, dtype=np.uint64))
    keys = cell_keys(flat.view(np.uint64), offsets, base)
    tail = (1.0 - confidence_level) / 2.0
    probs = np.array([tail, 1.0 - tail])
    return bootstrap_mean_quantiles(flat, offsets, keys, int(n_resamples), probs)


@states_scale
def summary(scores, direction=None, *, ci_method: str = "t", confidence_level: float = 0.95,
            n_resamples: int | None = None, rng=None, metric=None, method_names=None) -> IntervalSummary:
    """Mean, spread and an interval for the mean of each method on each dataset, over seeds.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube` with a ``seed`` dim
        Per-seed scores (dataset × method × seed, optionally × metric).
    ci_method : {"t", "bootstrap"}
        ``"t"``: the Student interval with n − 1 degrees of freedom. ``"bootstrap"``: the
        percentile bootstrap of the mean over seeds, reported by its own (asymmetric) endpoints.
    confidence_level : float
        In (0, 1); default 0.95.
    n_resamples : int, optional
        Bootstrap resamples per cell (default 9999, as scipy). Only for ``"bootstrap"``: given
        with ``"t"`` it raises (the t interval draws nothing).
    rng : numpy.random.Generator, int or None
        Source of the bootstrap draws (one 64-bit number is drawn per call). Only for
        ``"bootstrap"``: given with ``"t"`` it raises.
    direction, metric : optional
        The metric's direction or card, when ``scores`` does not carry them.
    method_names : sequence of str, optional
        As in :func:`mcda.data.cube.as_cube`.

    Returns
    -------
    IntervalSummary
        ``table`` with columns ``dataset, method, [metric,] n_seeds, mean, std, sem, ci_low,
        ci_high, reason``; ``ci_method``, ``confidence_level``, ``n_resamples``, ``metric``,
        ``direction``, ``notes``.

    Raises
    ------
    ValueError
        ``scores`` without a ``seed`` dim (or with an ``epoch``/``split`` dim); a
        ``ci_method`` that is not "t" or "bootstrap"; ``confidence_level`` outside (0, 1);
        ``n_resamples`` or ``rng`` with ``ci_method="t"``.
    TypeError
        ``n_resamples`` not an integer; ``rng`` not a Generator or seed.

    Notes
    -----
    With n seeds x_1..x_n of a cell, mean x̄, standard deviation s (ddof 1) and
    sem = s/√n, the t interval is x̄ ± t_{(1+c)/2, n−1} · sem (t_{0.975, 9} = 2.262 for ten
    seeds, not 1.96). It is exact for normal seeds and good for smooth, unbounded metrics; it
    ignores bounds, so near a bound (accuracy near 1) it can extend past it.

    The percentile bootstrap draws B resamples of the n seeds with replacement and reports
    the (1−c)/2 and (1+c)/2 quantiles (numpy's linear definition) of the B resampled means.
    It stays inside the range of the data and follows its skew, which suits bounded or
    heavy-tailed metrics (the card says which), but it is too narrow with few seeds (it
    covers less than its nominal rate below about ten seeds; Efron & Tibshirani 1993, §13).
    Each cell's resampling stream is derived from one draw of ``rng`` and the cell's own
    scores, so a cell's interval does not depend on the other cells or their order.

    A cell with no seed has NaN everywhere; with one seed, a mean and NaN spread and interval;
    the ``reason`` column says which. Nothing is imputed.

    References
    ----------
    Efron, B. and Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman & Hall.
    https://doi.org/10.1201/9780429246593

    Examples
    --------
    Nine seeds at 1.00 and one at 0.90: the t interval runs past 1, the percentile bootstrap
    does not.

    >>> import mcda
    >>> scores = {"iris": {"a": [1.0] * 9 + [0.9], "b": [0.95] * 10}}
    >>> t = mcda.summary(scores, metric="accuracy")
    >>> t.to_frame().loc[0, ["mean", "ci_low", "ci_high"]].round(4).tolist()
    [0.99, 0.9674, 1.0126]
    >>> boot = mcda.summary(scores, metric="accuracy", ci_method="bootstrap", rng=1)
    >>> boot.to_frame().loc[0, ["ci_low", "ci_high"]].round(2).tolist()
    [0.97, 1.0]
    """
    check_choice("ci_method", ci_method, CI_METHODS)
    confidence_level = _check_confidence(confidence_level)
    if ci_method != "bootstrap":  # the t interval draws nothing: a resample count or a seed would be silently unused
        for name, given in (("n_resamples", n_resamples), ("rng", rng)):
            if given is not None:
                raise McdaArgumentError(f"`{name}` is used only with ci_method='bootstrap'; ci_method={ci_method!r} "
                                        f"draws nothing. Leave `{name}` out, or pass ci_method='bootstrap'.",
                                        argument=name, value=given)
    n_resamples = check_positive_int("n_resamples", _DEFAULT_RESAMPLES if n_resamples is None else n_resamples)
    if ci_method == "bootstrap":
        import os

        from mcda._core.options import check_count_allocation

        # each kernel thread holds two buffers of n_resamples resampled means for the cell it is on
        threads = os.cpu_count() or 1
        check_count_allocation("n_resamples", n_resamples, 2 * 8 * threads,
                               f"needs two buffers of resampled means on each of {threads} threads "
                               "(9,999 is the usual choice for percentile intervals)")
    gen = as_rng(rng)
    cube, blocks = _blocks(scores, direction, metric, method_names)
    frames, notes = [], []
    for block in blocks:
        d, k, s = block.values.shape
        values = block.values.reshape(d * k, s)
        valid = ~np.isnan(values)
        n = valid.sum(axis=1)
        mean, std = spread(values, n)
        sem = std / np.sqrt(np.where(n > 0, n, np.nan))
        if ci_method == "t":
            ci_low, ci_high = t_interval(mean, sem, n, confidence_level)
        else:
            oriented = block.sign * values
            ends = _bootstrap_interval(oriented, confidence_level, n_resamples, gen)
            if block.sign > 0:
                ci_low, ci_high = ends[:, 0], ends[:, 1]
            else:
                ci_low, ci_high = -ends[:, 1], -ends[:, 0]
        reason = np.full(d * k, "", dtype=object)
        reason[n == 1] = "only 1 seed: no spread to estimate, so no interval"
        reason[n == 0] = "no seed has a result for this cell"
        frame = pd.DataFrame({
            "dataset": np.repeat(np.array(block.datasets, dtype=object), k),
            "method": np.tile(np.array(block.methods, dtype=object), d),
        })
        if "metric" in cube.dims:
            frame["metric"] = block.metric
        frame["n_seeds"] = n.astype(np.int64)
        frame["mean"] = mean
        frame["std"] = std
        frame["sem"] = sem
        frame["ci_low"] = ci_low
        frame["ci_high"] = ci_high
        frame["reason"] = reason
        frames.append(frame)
        notes.extend(_summary_notes(block, ci_method, n, ci_low, ci_high))
    table = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    if len(frames) > 1:
        table = table.sort_values(["dataset", "method"], kind="stable", key=_label_order(cube)).reset_index(drop=True)
    metric_field, direction_field = _meta(cube, blocks)
    return IntervalSummary(table=table, ci_method=ci_method, confidence_level=confidence_level,
                           n_resamples=n_resamples if ci_method == "bootstrap" else None,
                           metric=metric_field, direction=direction_field,
                           notes=tuple(notes))


def _label_order(cube: xr.DataArray):
    """A sort key that keeps the cube's own dataset and method order."""
    order = {"dataset": {str(v): i for i, v in enumerate(cube.coords["dataset"].values)},
             "method": {str(v): i for i, v in enumerate(cube.coords["method"].values)}}

    def key(column: pd.Series) -> pd.Series:
        return column.map(order[column.name]) if column.name in order else column

    return key


def _summary_notes(block: _Block, ci_method: str, n, ci_low, ci_high) -> list[str]:
    notes = []
    name = block.metric or "the metric"
    card = block.card
    if card is not None and (card.bounded or card.heavy_tailed) and ci_method == "t":
        what = " and ".join(w for w, flag in (("bounded", card.bounded), ("heavy-tailed", card.heavy_tailed)) if flag)
        extra = f" ({card.interval_note.rstrip('.')})" if card.interval_note else ""
        many = n >= _FEW_SEEDS_FOR_BOOTSTRAP
        if many.any():
            notes.append(f"the card marks {name!r} as {what}{extra}; with {_FEW_SEEDS_FOR_BOOTSTRAP} or more seeds "
                         f"({int(many.sum())} cell(s) here) the percentile bootstrap (ci_method='bootstrap') suits it "
                         "better than the t interval.")
        elif (n >= 2).any():
            counts = n[n >= 2]
            seeds = f"{int(counts.min())}" + ("" if counts.min() == counts.max() else f"-{int(counts.max())}")
            notes.append(f"the card marks {name!r} as {what}; the t interval is kept: with {seeds} seeds per "
                         f"cell (fewer than {_FEW_SEEDS_FOR_BOOTSTRAP}) the percentile bootstrap covers less than its "
                         "nominal rate.")
    if card is not None and ci_method == "t":
        outside = np.zeros(len(n), dtype=bool)
        with np.errstate(invalid="ignore"):
            if card.lower is not None:
                outside |= ci_low < card.lower
            if card.upper is not None:
                outside |= ci_high > card.upper
        if outside.any():
            notes.append(f"{int(outside.sum())} t interval(s) of {name!r} extend beyond its range "
                         f"[{card.lower}, {card.upper}] (reported as computed, not clipped).")
    if ci_method == "bootstrap":
        few = (n >= 2) & (n < _FEW_SEEDS_FOR_BOOTSTRAP)
        if few.any():
            counts = n[few]
            seeds = f"{int(counts.min())}" + ("" if counts.min() == counts.max() else f"-{int(counts.max())}")
            notes.append(f"{int(few.sum())} cell(s) of {name!r} have {seeds} seeds (fewer than "
                         f"{_FEW_SEEDS_FOR_BOOTSTRAP}): the percentile bootstrap is too narrow there (it covers less "
                         "than its nominal rate; the t interval, ci_method='t', keeps it for normal seeds).")
    partial = (n > 0) & (n < block.values.shape[2])
    if partial.any():
        notes.append(f"{int(partial.sum())} cell(s) of {name!r} lack some seeds; each row uses the seeds it has "
                     "(n_seeds).")
    return notes


# --------------------------------------------------------------------------- paired differences


@dataclass(frozen=True)
class _Pairs:
    """Seed-aligned differences a − b for every (dataset, pair) row of one block."""

    dataset: np.ndarray  # (rows,) labels
    method_a: np.ndarray
    method_b: np.ndarray
    diff: np.ndarray  # (rows, seeds) a − b in the metric's units, NaN where either is missing
    n: np.ndarray  # shared seeds per row
    row_dataset: np.ndarray  # dataset index per row (the Holm family)


def _pair_indices(k: int, control: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(a, b) method indices of the compared pairs: every pair a < b, or (control, other) for each other."""
    if control is None:
        return np.triu_indices(k, 1)
    others = np.array([j for j in range(k) if j != control], dtype=np.intp)
    return np.full(len(others), control, dtype=np.intp), others


def _pairs(block: _Block, control: int | None = None) -> _Pairs:
    d, k, s = block.values.shape
    ia, ib = _pair_indices(k, control)
    a = block.values[:, ia, :]
    b = block.values[:, ib, :]
    diff = (a - b).reshape(-1, s)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        scale = np.nanmax(np.maximum(np.abs(a), np.abs(b)).reshape(-1, s), axis=1)
    scale = np.where(np.isnan(scale), 0.0, scale)
    diff = snap_differences(diff, score_tolerance(scale))  # the subtraction's own rounding is forgiven
    n = (~np.isnan(diff)).sum(axis=1)
    p = len(ia)
    methods = np.array(block.methods, dtype=object)
    return _Pairs(dataset=np.repeat(np.array(block.datasets, dtype=object), p),
                  method_a=np.tile(methods[ia], d), method_b=np.tile(methods[ib], d),
                  diff=diff, n=n, row_dataset=np.repeat(np.arange(d), p))


def _identical_sentence(n_seeds, ending: str = "the test does not apply") -> str:
    return f"every paired difference is exactly 0 (identical scores on all {n_seeds} shared seeds): {ending}"


def _constant_sentence(pairs: _Pairs, i: int, ending: str = "the t statistic is undefined") -> str:
    value = pairs.diff[i][~np.isnan(pairs.diff[i])][0]
    return f"every paired difference equals {float(value):.6g} (no spread over {pairs.n[i]} seeds): {ending}"


def _pair_reasons(pairs: _Pairs, sd: np.ndarray, *, t_based: bool) -> tuple[np.ndarray, np.ndarray]:
    """Why a row's test does not apply: (sentences, '' where it does; :class:`Reason` codes)."""
    reason = np.full(len(pairs.n), "", dtype=object)
    codes = np.full(len(pairs.n), Reason.NONE, dtype=object)
    with np.errstate(invalid="ignore"):
        all_zero = (pairs.n >= 2) & (np.nansum(np.abs(pairs.diff), axis=1) == 0)
        constant = (pairs.n >= 2) & (sd == 0) & ~all_zero
    for i in np.nonzero(all_zero)[0]:
        reason[i], codes[i] = _identical_sentence(pairs.n[i]), Reason.IDENTICAL
    if t_based:
        for i in np.nonzero(constant)[0]:
            reason[i], codes[i] = _constant_sentence(pairs, i), Reason.CONSTANT_DIFFERENCE
    for i in np.nonzero(pairs.n < 2)[0]:
        reason[i] = f"only {pairs.n[i]} shared seed(s): a paired comparison needs at least 2"
        codes[i] = Reason.TOO_FEW
    return reason, codes


def _pair_frame(pairs: _Pairs, metric: str | None) -> pd.DataFrame:
    frame = pd.DataFrame({"dataset": pairs.dataset, "method_a": pairs.method_a, "method_b": pairs.method_b})
    if metric is not None:
        frame["metric"] = metric
    frame["n_seeds"] = pairs.n.astype(np.int64)
    return frame


def _concat_pairs(frames: list[pd.DataFrame], cube: xr.DataArray) -> pd.DataFrame:
    if len(frames) == 1:
        return frames[0]
    table = pd.concat(frames, ignore_index=True)
    return table.sort_values(["dataset"], kind="stable", key=_label_order(cube)).reset_index(drop=True)


def _sem(sd: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Standard error of a mean difference, sd / √n (NaN or inf where n is 0)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return sd / np.sqrt(n)


def _pair_table(cube: xr.DataArray, blocks: list[_Block], columns, *, t_based: bool = True,
                control: int | None = None) -> pd.DataFrame:
    """One row per (dataset, pair[, metric]) over every block, for the per-pair functions.

    For each block this pairs the methods, takes the mean and sd of the paired differences
    and the reasons a row's test does not apply (``_pair_reasons``), and calls
    ``columns(i, pairs, mean, sd, reason, codes)`` (``i`` the block's index; ``codes`` the
    :class:`~mcda._core.validation.Reason` of each row); the dict it returns
    gives the columns after ``n_seeds``, in order. Blocks are concatenated by dataset. With
    ``control`` (a method index) only the pairs (control, other) are formed.
    """
    frames = []
    for i, block in enumerate(blocks):
        pairs = _pairs(block, control)
        mean, sd = spread(pairs.diff, pairs.n)
        reason, codes = _pair_reasons(pairs, sd, t_based=t_based)
        frame = _pair_frame(pairs, block.metric if "metric" in cube.dims else None)
        for name, values in columns(i, pairs, mean, sd, reason, codes).items():
            frame[name] = values
        frames.append(frame)
    return _concat_pairs(frames, cube)


# --------------------------------------------------------------------------- signed ranks


@dataclass(frozen=True, repr=False)
class SignedRanks(Result):
    """The Wilcoxon signed-rank sums of a set of differences.

    Attributes
    ----------
    r_plus, r_minus : float
        Sums of the ranks of |d| over the positive and the negative differences (ties get
        average ranks; zeros as ``zero_method`` says).
    statistic : float
        min(R+, R−), the two-sided statistic of Wilcoxon (1945) and scipy.
    n : int
        Differences ranked (zeros excluded under "wilcox").
    n_zero : int
        Differences exactly 0.
    zero_method : str
    """

    r_plus: float
    r_minus: float
    statistic: float
    n: int
    n_zero: int
    zero_method: str

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame([{"r_plus": self.r_plus, "r_minus": self.r_minus, "statistic": self.statistic,
                              "n": self.n, "n_zero": self.n_zero, "zero_method": self.zero_method}])

    def summary(self) -> str:
        return (f"Wilcoxon signed ranks of {self.n} differences ({self.n_zero} zero, zero_method "
                f"{self.zero_method!r}): R+ = {self.r_plus:g}, R- = {self.r_minus:g}, statistic {self.statistic:g}")


def _signed_rank_sums(diff: np.ndarray, zero_method: str):
    """(R+, R−) per row of a NaN-free (rows, n) array of differences."""
    zero = diff == 0
    absd = np.abs(diff)
    if zero_method == "wilcox":
        absd = np.where(zero, np.nan, absd)
        ranks = rank(absd, exact=True)  # the differences are snapped to the tie rule already
        ranks = np.where(zero, 0.0, ranks)
    else:
        ranks = rank(absd, exact=True)
    r_plus = np.sum(np.where(diff > 0, ranks, 0.0), axis=1)
    r_minus = np.sum(np.where(diff < 0, ranks, 0.0), axis=1)
    if zero_method == "zsplit":
        half_zero = np.sum(np.where(zero, ranks, 0.0), axis=1) / 2.0
        r_plus = r_plus + half_zero
        r_minus = r_minus + half_zero
    return r_plus, r_minus


def wilcoxon_signed_ranks(differences, *, zero_method: str = "wilcox") -> SignedRanks:
    """R+ and R−: the signed-rank sums behind the Wilcoxon test.

    Parameters
    ----------
    differences : array_like
        Paired differences (NaN not allowed: align the pairs first). They are ranked as
        given: round them first when they come from printed decimals (0.768 − 0.763 and
        0.936 − 0.931 differ in floating point).
    zero_method : {"wilcox", "pratt", "zsplit"}
        scipy's names. "wilcox" drops zero differences before ranking; "pratt" ranks them and
        drops their ranks; "zsplit" ranks them and splits their ranks evenly between R+ and R−
        (Demšar 2006 §3.1.3).

    Returns
    -------
    SignedRanks
        ``r_plus``, ``r_minus``, ``statistic`` (min of the two), ``n``, ``n_zero``,
        ``zero_method``.

    Raises
    ------
    ValueError
        Empty or non-finite ``differences``; an unknown ``zero_method``.

    Notes
    -----
    Rank |d_i| from 1 (smallest) with average ranks for ties; R+ = Σ_{d_i>0} rank_i,
    R− = Σ_{d_i<0} rank_i. Without zeros, R+ + R− = n(n+1)/2.

    References
    ----------
    Wilcoxon, F. (1945). Individual comparisons by ranking methods. Biometrics Bulletin
    1(6):80–83. https://doi.org/10.2307/3001968

    Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
    JMLR 7:1–30.

    Examples
    --------
    >>> from mcda.stats.within.seeds import wilcoxon_signed_ranks
    >>> r = wilcoxon_signed_ranks([0.5, -0.2, 1.0, 0.0], zero_method="zsplit")
    >>> r.r_plus, r.r_minus
    (7.5, 2.5)
    """
    check_choice("zero_method", zero_method, ZERO_METHODS)
    d = np.asarray(differences, dtype=np.float64).ravel()
    if d.size == 0:
        raise McdaArgumentError("`differences` is empty", argument="differences")
    if not np.isfinite(d).all():
        bad = np.nonzero(~np.isfinite(d))[0]
        raise McdaArgumentError(f"`differences` must be finite; got non-finite values at positions {bad[:8].tolist()}",
                                argument="differences")
    r_plus, r_minus = _signed_rank_sums(d[None, :], zero_method)
    n_zero = int((d == 0).sum())
    n = d.size - n_zero if zero_method == "wilcox" else d.size
    return SignedRanks(r_plus=float(r_plus[0]), r_minus=float(r_minus[0]),
                       statistic=float(min(r_plus[0], r_minus[0])), n=int(n), n_zero=n_zero,
                       zero_method=zero_method)


# --------------------------------------------------------------------------- paired tests


@dataclass(frozen=True, repr=False)
class PairedTests(_TableResult):
    """Paired tests of every pair of methods on each dataset, over seeds, Holm within dataset.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per (dataset, pair[, metric]): ``dataset, method_a, method_b, [metric,]
        n_seeds, mean_diff, ci_low, ci_high, statistic, p_raw, p_holm, significant, reason``
        and, for the Wilcoxon test, ``r_plus, r_minus``. ``mean_diff`` is a − b in the
        metric's units (for a lower-is-better metric, negative means a is better);
        ``ci_low, ci_high`` the t interval of the mean difference at 1 − alpha;
        ``statistic`` the t statistic of a − b, or min(R+, R−); ``p_holm`` Holm-adjusted
        within the dataset; ``significant`` is ``p_holm <= alpha``. With a ``control``, only
        the rows (control, other): ``method_a`` is the control, the family is its k − 1
        comparisons on the dataset. For the tests over folds ``statistic`` is the corrected t,
        Dietterich's t or Alpaydın's F, and the interval is the corrected t interval (NaN for
        the 5×2cv tests, which invert none around the mean difference).
    method : str
        The test that ran: "t", "wilcoxon" or a test over folds (:data:`FOLD_METHODS`).
    alpha : float
    direction : str or dict
    metric : str or tuple of str
    zero_method : str
        How Wilcoxon treats zero differences.
    notes : tuple of str
    paired : bool
    control : str or None
        The method every other is compared with, or None for every pair.
    runs : int or None
        For a test over folds: the runs of k-fold cross-validation (None for random splits
        and for the tests over independent seeds).
    rho : float or None
        For a test over folds: the test share n_test / n_total of each split (1/k for k-fold),
        the correlation of the folds' differences the correction assumes.
    """

    table: pd.DataFrame
    method: str
    alpha: float
    direction: object
    metric: object
    zero_method: str = "wilcox"
    notes: tuple = ()
    paired: bool = True
    control: str | None = None
    runs: int | None = None
    rho: float | None = None

    def assumes(self) -> str:
        """What the test takes the seeds to be, in one sentence."""
        if self.method in FOLD_METHODS:
            design = (f"random train/test splits with test share rho = {self.rho:g}" if self.runs is None else
                      f"{self.runs} run{'s' if self.runs != 1 else ''} of {round(1 / self.rho)}-fold "
                      "cross-validation, run after run")
            return (f"assumes: the seeds are {design}, the same splits for every method; the variance is "
                    f"corrected for the overlap of the training sets (rho = {self.rho:g}).")
        return ("assumes: the seeds are independent runs. If they are the folds of (repeated) cross-validation, "
                "their training sets overlap and these p-values are too small: use method="
                f"{_FOLD_DEFAULT!r} (Bouckaert & Frank 2004) or another test over folds "
                f"({', '.join(FOLD_METHODS)}), with `runs=` or a cube that says its design.")

    def summary(self) -> str:
        if self.method in FOLD_METHODS:
            name = PROCEDURES[self.method].display
        elif self.paired:
            name = "paired t" if self.method == "t" else "Wilcoxon signed-rank"
        else:
            name = "unpaired Welch t" if self.method == "t" else "unpaired Mann-Whitney U"
        n_sig = int(self.table["significant"].sum())
        over = "folds" if self.method in FOLD_METHODS else "seeds"
        if self.control is None:
            head = (f"{name} tests over {over}, Holm within each dataset (alpha = {self.alpha:g}): "
                    f"{n_sig} of {len(self.table)} pairs significant")
        else:
            others = int(self.table["method_b"].nunique())
            head = (f"{name} tests over {over} of the control {self.control} against each of the {others} other "
                    f"method{'s' if others != 1 else ''}, Holm over those {others} comparisons within each dataset "
                    f"(alpha = {self.alpha:g}; mean_diff = {self.control} − other): {n_sig} of {len(self.table)} "
                    "comparisons significant")
        cols = ["dataset", "method_a", "method_b", "metric", "n_seeds", "mean_diff", "p_raw", "p_holm",
                "significant", "reason"]
        return self._text(head + "\n" + self.assumes(), cols)

    def control_rows(self, control: str) -> pd.DataFrame:
        """The rows (control, other) of this all-pairs table, oriented control first, Holm over them per dataset.

        Equal to :func:`mcda.paired_tests` run with ``control``: two-sided p-values do not depend
        on the order of a pair, so only the sign of the difference and its interval turn, and the
        Holm family shrinks to the k − 1 comparisons of each dataset (and metric).
        """
        rows = self.table[(self.table["method_a"] == control) | (self.table["method_b"] == control)].copy()
        turn = (rows["method_b"] == control).to_numpy()
        if turn.any():
            rows.loc[turn, ["method_a", "method_b"]] = rows.loc[turn, ["method_b", "method_a"]].to_numpy()
            rows.loc[turn, "mean_diff"] = -rows.loc[turn, "mean_diff"]
            low, high = rows.loc[turn, "ci_low"].to_numpy(), rows.loc[turn, "ci_high"].to_numpy()
            rows.loc[turn, "ci_low"], rows.loc[turn, "ci_high"] = -high, -low
        keys = ["dataset"] + (["metric"] if "metric" in rows.columns else [])
        family = pd.MultiIndex.from_frame(rows[keys].astype(str)).factorize()[0]
        rows["p_holm"] = adjust_by_family(rows["p_raw"].to_numpy(dtype=float), family, "holm")
        return rows.reset_index(drop=True)

    def pair_decisions(self) -> pd.DataFrame:
        """The pairs of each dataset (and metric) and what Holm's procedure decided there (the pair-decisions
        protocol of :func:`mcda._core.results.pair_decisions_table`, keyed by ``dataset`` [and ``metric``]).

        ``rank_a``, ``rank_b`` order the methods of a dataset by the sum of their mean differences against
        the others (with every seed shared: by mean score), oriented so that 1 is the best; the better
        side of a separated pair is the one its oriented mean difference favours.
        """
        from mcda.data.cards import direction_sign

        table = self.table
        keys = ["dataset"] + (["metric"] if "metric" in table.columns else [])
        blocks, n_untested = [], 0
        for key, block in table.groupby(keys, sort=False):
            key = key if isinstance(key, tuple) else (key,)
            d = self.direction[key[1]] if isinstance(self.direction, dict) and len(key) > 1 else self.direction
            sign = direction_sign(d) if isinstance(d, str) else 1.0
            methods = list(dict.fromkeys(list(block["method_a"]) + list(block["method_b"])))
            position = {m: i for i, m in enumerate(methods)}
            advantage = np.zeros(len(methods))
            a = block["method_a"].map(position).to_numpy()
            b = block["method_b"].map(position).to_numpy()
            diff = sign * block["mean_diff"].to_numpy(dtype=float)
            n_untested += int(np.isnan(block["p_holm"].to_numpy(dtype=float)).sum())
            np.add.at(advantage, a, np.nan_to_num(diff))
            np.add.at(advantage, b, -np.nan_to_num(diff))
            ranking = pd.Series(advantage, index=methods).rank(ascending=False, method="average").to_numpy()
            part = block[keys].copy()
            part["method_a"], part["method_b"] = block["method_a"].to_numpy(), block["method_b"].to_numpy()
            part["rank_a"], part["rank_b"] = ranking[a], ranking[b]
            part["significant"] = block["significant"].to_numpy(dtype=bool)
            part["p_adjusted"] = block["p_holm"].to_numpy(dtype=float)
            part["_a_better"] = diff > 0
            blocks.append(part)
        pairs = pd.concat(blocks, ignore_index=True) if blocks else pd.DataFrame(
            columns=[*keys, "method_a", "method_b", "rank_a", "rank_b", "significant", "p_adjusted", "_a_better"])
        a_better = pairs.pop("_a_better").to_numpy(dtype=bool)
        name = ("paired t" if self.method == "t" else "Wilcoxon signed-rank") if self.paired else \
            ("Welch t" if self.method == "t" else "Mann-Whitney U")
        if self.method in FOLD_METHODS:
            name = PROCEDURES[self.method].display
        note = ("pairs without a p-value (not tested: see the result's reason column) count as not separated: "
                f"{n_untested} such pair(s)") if n_untested else ""
        methods = list(dict.fromkeys(list(table["method_a"]) + list(table["method_b"])))
        return pair_decisions_table(pairs, a_better, test=f"{name}, Holm within dataset", alpha=self.alpha,
                                    methods=methods, note=note, scope="within datasets")


_SIGNFLIP_MAX = 13  # up to 2**13 sign patterns: scipy's exact permutation p for tied / zero differences
_SIGNFLIP_ROWS = 256  # rows per block of the enumeration (2**13 × 256 doubles = 16 MB)


def _signflip_pvalues(block: np.ndarray, zero_method: str, r_plus: np.ndarray) -> np.ndarray:
    """Exact two-sided sign-flip p of R+ for each row of a (rows, n) block, n ≤ 13.

    The permutation distribution scipy.stats.wilcoxon uses for tied or zero differences with
    n ≤ 13 (``permutation_test`` with every one of the 2**n sign patterns): ranks are fixed,
    each nonzero difference is positive or negative with probability 1/2. Enumerated here
    directly instead of through scipy's generic, much slower loop; the tests check the two
    agree.
    """
    rows, n = block.shape
    zero = block == 0
    absd = np.abs(block)
    if zero_method == "wilcox":
        ranks = rank(np.where(zero, np.nan, absd), exact=True)  # snapped to the tie rule already
    else:
        ranks = rank(absd, exact=True)
    ranks = np.where(zero, 0.0, ranks)  # a zero is never positive, whatever its sign flip
    constant = r_plus - np.sum(np.where(block > 0, ranks, 0.0), axis=1)  # the zsplit share of zero ranks
    patterns = ((np.arange(2**n)[:, None] >> np.arange(n)[None, :]) & 1).astype(np.float64)
    gamma = np.abs(np.finfo(np.float64).eps * 100 * r_plus)  # scipy's tolerance for equal values
    p = np.empty(rows)
    for start in range(0, rows, _SIGNFLIP_ROWS):
        part = slice(start, start + _SIGNFLIP_ROWS)
        null = patterns @ ranks[part].T + constant[part][None, :]
        less = np.count_nonzero(null <= r_plus[part] + gamma[part], axis=0) / 2.0**n
        greater = np.count_nonzero(null >= r_plus[part] - gamma[part], axis=0) / 2.0**n
        p[part] = np.clip(2.0 * np.minimum(less, greater), 0.0, 1.0)
    return p


def _wilcoxon_pvalues(diff: np.ndarray, n: np.ndarray, rows: np.ndarray, zero_method: str):
    """The Wilcoxon p, statistic, R+ and R− of the given rows, as scipy.stats.wilcoxon gives them.

    scipy's automatic choice, row by row: the exact null distribution when no |d| ties or is
    zero (and n ≤ 50), the exact sign-flip distribution when some do and n ≤ 13, the normal
    approximation with tie and continuity corrections otherwise. Rows are grouped by n and
    by whether they tie, so each vectorised call makes the choice each row would get alone.
    """
    p = np.full(len(n), np.nan)
    statistic = np.full(len(n), np.nan)
    r_plus = np.full(len(n), np.nan)
    r_minus = np.full(len(n), np.nan)
    if len(rows) == 0:
        return p, statistic, r_plus, r_minus
    order = np.argsort(np.isnan(diff[rows]), axis=1, kind="stable")
    packed = np.take_along_axis(diff[rows], order, axis=1)  # the shared seeds first, in seed order
    sizes = n[rows]
    for size in np.unique(sizes):
        here = np.nonzero(sizes == size)[0]
        block = packed[here, :size]
        sorted_abs = np.sort(np.abs(block), axis=1)
        irregular = (sorted_abs[:, 0] == 0) | (np.diff(sorted_abs, axis=1) == 0).any(axis=1)
        rp, rm = _signed_rank_sums(block, zero_method)
        r_plus[rows[here]] = rp
        r_minus[rows[here]] = rm
        statistic[rows[here]] = np.minimum(rp, rm)
        regular = here[~irregular]
        if len(regular):
            p[rows[regular]] = stats.wilcoxon(packed[regular, :size], zero_method=zero_method, axis=1).pvalue
        tied = here[irregular]
        if len(tied):
            if size <= _SIGNFLIP_MAX:
                p[rows[tied]] = _signflip_pvalues(packed[tied, :size], zero_method, rp[irregular])
            else:
                p[rows[tied]] = stats.wilcoxon(packed[tied, :size], zero_method=zero_method, axis=1).pvalue
    return p, statistic, r_plus, r_minus


def _unpaired_table(cube: xr.DataArray, blocks: list[_Block], *, method: str, alpha: float,
                    control: int | None = None) -> pd.DataFrame:
    """Welch t or Mann-Whitney U per (dataset, pair) on each method's seeds as two samples, Holm per dataset.

    Every row is scipy's test on the two samples ``x[~isnan(x)]`` (the seeds in their order),
    computed for many rows at once: the rows are grouped by their two sample sizes (and, for
    Mann–Whitney, by the p-value method scipy's ``"auto"`` picks for the row alone), and each
    group goes to scipy along an axis, so each row's numbers are those of its own call.
    """
    frames = []
    for block in blocks:
        d, k, s = block.values.shape
        ia, ib = _pair_indices(k, control)
        p = len(ia)
        present = ~np.isnan(block.values)
        # each method's seeds moved to the front, in their order (what x[~isnan(x)] takes)
        packed = np.take_along_axis(block.values, np.argsort(~present, axis=2, kind="stable"), axis=2)
        count = present.sum(axis=2)
        row_d = np.repeat(np.arange(d), p)
        row_a, row_b = np.tile(ia, d), np.tile(ib, d)
        n_a, n_b = count[row_d, row_a], count[row_d, row_b]
        columns = {name: np.full(d * p, np.nan) for name in ("mean_diff", "ci_low", "ci_high", "statistic", "p_raw")}
        reason = np.full(d * p, "", dtype=object)
        group = n_a * (s + 1) + n_b
        for key in np.flatnonzero(np.bincount(group, minlength=(s + 1) ** 2)):
            size_a, size_b = divmod(int(key), s + 1)
            in_group = np.nonzero(group == key)[0]
            for rows in np.array_split(in_group, max(1, len(in_group) * (size_a + size_b) // 2**22 + 1)):
                _unpaired_rows(packed, rows, row_d, row_a, row_b, int(size_a), int(size_b), method, alpha,
                               block.methods, columns, reason)
        shared = (present[:, ia] & present[:, ib]).sum(axis=2).ravel()
        methods = np.array(block.methods, dtype=object)
        frame = pd.DataFrame({"dataset": np.repeat(np.array(block.datasets, dtype=object), p),
                              "method_a": methods[row_a], "method_b": methods[row_b]})
        if "metric" in cube.dims:
            frame["metric"] = block.metric
        frame["n_seeds"] = shared.astype(np.int64)
        frame["n_seeds_a"] = n_a.astype(np.int64)
        frame["n_seeds_b"] = n_b.astype(np.int64)
        for name, values in columns.items():
            frame[name] = values
        frame["p_holm"] = adjust_by_family(columns["p_raw"], row_d, "holm")
        frame["significant"] = np.nan_to_num(frame["p_holm"].to_numpy(dtype=float), nan=np.inf) <= alpha
        frame["reason"] = reason
        frames.append(frame)
    return _concat_pairs(frames, cube)


def _unpaired_rows(packed, rows, row_d, row_a, row_b, size_a: int, size_b: int, method: str, alpha: float,
                   methods, columns: dict, reason: np.ndarray) -> None:
    """Fill ``columns`` and ``reason`` at ``rows``, whose samples have sizes ``size_a`` and ``size_b``."""
    if size_a == 0 or size_b == 0 or len(rows) == 0:
        few = rows
    else:
        xa = packed[row_d[rows], row_a[rows], :size_a]
        xb = packed[row_d[rows], row_b[rows], :size_b]
        columns["mean_diff"][rows] = xa.mean(axis=1) - xb.mean(axis=1)
        few = rows if size_a < 2 or size_b < 2 else rows[:0]
    for i in few:
        reason[i] = (f"{methods[row_a[i]]} has {size_a} and {methods[row_b[i]]} {size_b} seed(s): "
                     "an unpaired comparison needs at least 2 each")
    if len(few):
        return
    low_a, high_a, low_b, high_b = xa.min(axis=1), xa.max(axis=1), xb.min(axis=1), xb.max(axis=1)
    flat = np.maximum(high_a, high_b) == np.minimum(low_a, low_b)
    reason[rows[flat]] = "every seed of both methods has the same score: the test does not apply"
    if method == "t":
        neither = ~flat & (high_a == low_a) & (high_b == low_b)
        reason[rows[neither]] = "neither method varies over its seeds: Welch's t is undefined"
        test = ~flat & ~neither
        if test.any():
            # in units of each row's largest magnitude: t and its Welch df do not depend on the units, but
            # their squares do (variances of 1e-200 scores underflow to 0, squared variances of 1e100 overflow)
            top = np.maximum(np.abs(xa[test]).max(axis=1), np.abs(xb[test]).max(axis=1))
            scale = np.ldexp(1.0, np.frexp(np.where(top > 0, top, 1.0))[1])[:, None]  # a power of two: exact
            with warnings.catch_warnings():   # scipy's "precision loss" for a sample without spread: its
                warnings.simplefilter("ignore", RuntimeWarning)   # variance is exactly 0, nothing is lost
                res = stats.ttest_ind(xa[test] / scale, xb[test] / scale, equal_var=False, axis=1)
            ci = res.confidence_interval(confidence_level=1.0 - alpha)
            at = rows[test]
            columns["statistic"][at], columns["p_raw"][at] = res.statistic, res.pvalue
            columns["ci_low"][at], columns["ci_high"][at] = ci.low * scale[:, 0], ci.high * scale[:, 0]
        return
    # scipy's "auto" for one row: exact when a sample has at most 8 seeds and the row has no tie
    both = np.sort(np.concatenate([xa, xb], axis=1), axis=1)
    tied = (both[:, 1:] == both[:, :-1]).any(axis=1)
    exact = ~tied if not (size_a > 8 and size_b > 8) else np.zeros(len(rows), dtype=bool)
    for choice, use in (("exact", ~flat & exact), ("asymptotic", ~flat & ~exact)):
        if use.any():
            res = stats.mannwhitneyu(xa[use], xb[use], alternative="two-sided", method=choice, axis=1)
            columns["statistic"][rows[use]], columns["p_raw"][rows[use]] = res.statistic, res.pvalue


@states_scale
def paired_tests(scores, direction=None, *, method: str = "t", alpha: float = 0.05, zero_method: str = "wilcox",
                 metric=None, method_names=None, paired: bool = True, control: str | None = None,
                 runs: int | None = None, rho: float | None = None) -> PairedTests:
    """Is A better than B on this dataset? Paired tests over seeds for every pair, per dataset.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube` with a ``seed`` dim
    method : {"t", "wilcoxon", "corrected-resampled-t", "corrected-repeated-cv-t", "5x2cv-t", "5x2cv-f"}
        The paired t test (scipy ``ttest_rel``) or the Wilcoxon signed-rank test (scipy
        ``wilcoxon``, its automatic choice of exact, exact-permutation or normal p-value), which
        take the seeds as independent runs; or a test over cross-validation folds, which knows
        that the folds' training sets overlap (see Notes): Nadeau and Bengio's corrected
        resampled t, Bouckaert and Frank's corrected repeated k-fold cross-validation t,
        Dietterich's 5×2cv paired t, Alpaydın's 5×2cv combined F.
    alpha : float
        Family-wise error rate per dataset; also sets the (1 − alpha) interval of the mean
        difference.
    zero_method : {"wilcox", "pratt", "zsplit"}
        How the paired Wilcoxon test treats zero differences (scipy's names); any other value than
        "wilcox" with ``method="t"`` or ``paired=False`` raises (it would not be used).
    direction, metric : optional
        The metric's direction or card, when ``scores`` does not carry them.
    method_names : sequence of str, optional
        As in :func:`mcda.data.cube.as_cube`.
    paired : bool, default True
        Whether the seeds are paired runs (the same seed label means the same split, data order
        or initialisation for every method). False compares each method's seeds on a dataset as
        two independent samples: Welch's t (scipy ``ttest_ind(equal_var=False)``) for
        ``method="t"``, Mann–Whitney U (scipy ``mannwhitneyu``, two-sided) for
        ``method="wilcoxon"``. Never chosen for you: when seed labels differ between methods
        the paired tests warn (:class:`~mcda.UnpairedSeedsWarning`) and say so in ``notes``.
    control : str, optional
        A method chosen beforehand ("my method"): only the pairs (control, other) are tested
        on each dataset, ``method_a`` is the control, ``mean_diff`` is control − other, and
        Holm's family is those k − 1 comparisons per dataset (not the k(k − 1)/2 pairs), the
        "my method vs each baseline" table.
    runs : int, optional
        For a test over folds: the seeds are ``runs`` runs of k-fold cross-validation, run
        after run along ``seed`` (k = n_seeds / runs). None reads the design from the cube:
        ``run`` / ``fold`` coordinates along ``seed``, else ``attrs["cv_runs"]``, else
        ``attrs["rho"]``.
    rho : float, optional
        For the corrected resampled t: the seeds are random train/test splits whose test sets
        hold the share ``rho`` of the data (n_test / n_total). Not with ``runs``.

    Returns
    -------
    PairedTests
        ``table`` (columns ``dataset, method_a, method_b, [metric,] n_seeds, mean_diff, ci_low,
        ci_high, statistic, p_raw, p_holm, significant, reason`` and ``r_plus, r_minus`` for
        Wilcoxon; unpaired: ``n_seeds_a, n_seeds_b`` beside ``n_seeds`` (the shared seeds),
        ``mean_diff`` the difference of the two means, the interval Welch's), ``method``,
        ``alpha``, ``direction``, ``metric``, ``zero_method``, ``notes``, ``paired``, ``control``,
        ``runs`` and ``rho`` (the fold design a test over folds used; None otherwise).

    Raises
    ------
    ValueError
        ``scores`` without a ``seed`` dim; an unknown ``method`` or ``zero_method``;
        ``alpha`` outside (0, 1); a ``control`` that is not one of the methods; a test over
        folds without a design (no ``runs`` / ``rho`` and nothing in the cube), with
        ``paired=False``, or a 5×2cv test on folds that are not runs of 2-fold
        cross-validation; ``runs`` or ``rho`` with a test over independent seeds.

    Warns
    -----
    OverlappingFoldsWarning
        ``method="t"`` or ``"wilcoxon"`` on a cube that says its seeds are folds (``run`` /
        ``fold`` coordinates, ``attrs["cv_runs"]`` or ``attrs["rho"]``): those tests take the
        seeds as independent and their p-values are too small there.

    Notes
    -----
    Per dataset, every pair (a, b) of methods is compared on the seeds both have (aligned
    by seed label), with d_s = a_s − b_s in the metric's own units. Paired t:
    t = d̄ / (s_d / √n) on n − 1 df. Wilcoxon: ranks of |d_s|, statistic min(R+, R−).
    Differences that agree up to the rounding of their own subtraction (8 ulp of the
    scores) are treated as equal, so scores stored as rounded decimals tie as they should;
    on noise-free input nothing changes and the p-values are scipy's.

    A row gets NaN and a ``reason`` (never p = 1) when fewer than 2 seeds are shared, when
    every difference is exactly 0, or (t test) when every difference is the same number.

    Holm's step-down runs within each dataset (the family is the dataset, and with a ``metric``
    dim the dataset and metric, never the whole sweep): with the m available p-values sorted, p_(i) is multiplied by m − i + 1 and made
    monotone. ``significant`` is p_holm ≤ alpha.

    The t and Wilcoxon tests treat seeds as independent replications. Seeds that share a data
    split or a test set are not independent of each other across methods in every way, so
    read p as "this difference is not seed noise", not as a statement about new data. The
    folds of cross-validation are not independent at all: every two training sets share most
    of their data, the differences d_s are positively correlated, s_d²/n underestimates the
    variance of d̄ and the p-values come out too small (Dietterich 1998; Nadeau & Bengio
    2003). The tests over folds correct for it:

    - corrected resampled t (Nadeau & Bengio 2003), for J random train/test splits with test
      share ρ = n_test/n_total: t = d̄ / √((1/J + ρ/(1 − ρ)) s_d²) on J − 1 df, J the
      shared seeds; for k-fold cross-validation ρ = 1/k;
    - corrected repeated k-fold cross-validation t (Bouckaert & Frank 2004), r runs of k
      folds: the same statistic with J = k·r and ρ/(1 − ρ) = 1/(k − 1), on k·r − 1 df;
      every fold is needed (a missing one would break the runs);
    - 5×2cv paired t (Dietterich 1998), r runs of 2-fold cross-validation (r = 5 in the
      paper): with d_i1, d_i2 the two folds' differences of run i and
      s_i² = Σ_j (d_ij − d̄_i)², t = d_11 / √(Σ_i s_i² / r) on r df (d_11: the first fold of
      the first run, in ``run`` / ``fold`` order);
    - 5×2cv combined F (Alpaydın 1999): F = Σ_ij d_ij² / (2 Σ_i s_i²) on (2r, r) df, one
      sided (F large), more stable than the t, whose numerator is a single fold.

    The corrected tests' interval is d̄ ± t_{1−α/2, df} · se with their corrected se; the
    5×2cv tests invert no interval around d̄ (``ci_low``, ``ci_high`` are NaN). The
    correction assumes what ``rho`` says; Bouckaert & Frank found the corrected repeated
    10×10 test the most replicable of these, and the 5×2cv tests have lower power.

    References
    ----------
    Holm, S. (1979). A simple sequentially rejective multiple test procedure. Scandinavian
    Journal of Statistics 6(2):65–70.

    Wilcoxon, F. (1945). Individual comparisons by ranking methods. Biometrics Bulletin
    1(6):80–83. https://doi.org/10.2307/3001968

    Nadeau, C. and Bengio, Y. (2003). Inference for the generalization error. Machine
    Learning 52(3):239–281. https://doi.org/10.1023/A:1024068626366

    Bouckaert, R. R. and Frank, E. (2004). Evaluating the replicability of significance tests
    for comparing learning algorithms. PAKDD 2004, LNCS 3056:3–12.
    https://doi.org/10.1007/978-3-540-24775-3_3

    Dietterich, T. G. (1998). Approximate statistical tests for comparing supervised
    classification learning algorithms. Neural Computation 10(7):1895–1923.
    https://doi.org/10.1162/089976698300017197

    Alpaydın, E. (1999). Combined 5 × 2 cv F test for comparing supervised classification
    learning algorithms. Neural Computation 11(8):1885–1892.
    https://doi.org/10.1162/089976699300016007

    Examples
    --------
    >>> import mcda
    >>> cube = mcda.datasets.synthetic(n_datasets=2, n_methods=3, n_seeds=10, effects=[0, 0.02, 0.04], rng=0)
    >>> res = mcda.paired_tests(cube)
    >>> res.to_frame()[["dataset", "method_a", "method_b", "n_seeds", "mean_diff", "significant"]].round(3)
         dataset  method_a  method_b  n_seeds  mean_diff  significant
    0  dataset_0  method_0  method_1       10     -0.017         True
    1  dataset_0  method_0  method_2       10     -0.037         True
    2  dataset_0  method_1  method_2       10     -0.020         True
    3  dataset_1  method_0  method_1       10     -0.025         True
    4  dataset_1  method_0  method_2       10     -0.035         True
    5  dataset_1  method_1  method_2       10     -0.010         True

    ``mean_diff`` is a − b: accuracy is higher-is-better, so negative means b is better.

    On 10 runs of 10-fold cross-validation the naive t and the corrected test disagree:

    >>> folds = mcda.datasets.load("benavoli2017_uci54_folds").mcda.sel(dataset=["cmc"], method=["nbc", "hnb"])
    >>> corrected = mcda.paired_tests(folds, method="corrected-repeated-cv-t")  # the design: the run/fold coords
    >>> corrected.runs, round(float(corrected.to_frame()["p_raw"].iloc[0]), 3)
    (10, 0.114)
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", mcda.OverlappingFoldsWarning)  # said once: the folds overlap
    ...     naive = mcda.paired_tests(folds, method="t")
    >>> float(naive.to_frame()["p_raw"].iloc[0]) < 1e-6
    True
    """
    method = canonical("method", method, allowed=TEST_METHODS)
    alpha = check_alpha(alpha)
    check_choice("zero_method", zero_method, ZERO_METHODS)
    if not isinstance(paired, bool):
        raise McdaArgumentTypeError(f"`paired` must be True or False; got {paired!r}", argument="paired", value=paired)
    if zero_method != "wilcox" and (method == "t" or not paired):
        used = "the t test has no zero differences to treat" if method == "t" else \
            "unpaired seeds are compared by the rank-sum test, which has no zero differences"
        raise McdaArgumentError(f"`zero_method` {zero_method!r} is used only by the paired Wilcoxon test "
                                f"(method='wilcoxon', paired=True): {used}; leave it at 'wilcox'.",
                                argument="zero_method", value=zero_method)
    over_folds = method in FOLD_METHODS
    if over_folds and not paired:
        raise McdaArgumentError(f"`paired` is False, and method={method!r} compares the same folds of every method: "
                                "a test over folds is paired; leave `paired` at True.", argument="paired", value=paired)
    for name, given in (("runs", runs), ("rho", rho)):
        if given is not None and not over_folds:
            raise McdaArgumentError(f"`{name}` describes cross-validation folds and is used only by the tests over "
                                    f"folds ({', '.join(FOLD_METHODS)}); method={method!r} takes the seeds as "
                                    f"independent runs. Leave `{name}` out, or choose a test over folds.",
                                    argument=name, value=given)
    cube, blocks = _blocks(scores, direction, metric, method_names)
    control_index = None
    if control is not None:
        control_index = blocks[0].methods.index(check_control(control, blocks[0].methods))
    design = _fold_design_for(cube, method, runs, rho) if over_folds else None
    notes = _pairing_notes(cube, blocks, paired=paired)
    if not over_folds:
        _warn_naive_over_folds(cube, method, paired, notes)
    if not paired:
        table = _unpaired_table(cube, blocks, method=method, alpha=alpha, control=control_index)
        metric_field, direction_field = _meta(cube, blocks)
        return PairedTests(table=table, method=method, alpha=alpha, direction=direction_field,
                           metric=metric_field, zero_method=zero_method, notes=tuple(notes), paired=False,
                           control=control)

    def columns(i, pairs, mean, sd, reason, codes):
        if over_folds:
            return _fold_columns(method, design, pairs, mean, sd, reason, alpha)
        testable = np.nonzero(reason == "")[0]
        se = _sem(sd, pairs.n)
        ci_low, ci_high = t_interval(mean, se, pairs.n, 1.0 - alpha)
        if method == "t":
            statistic = np.full(len(mean), np.nan)
            p = np.full(len(mean), np.nan)
            statistic[testable] = mean[testable] / se[testable]
            p[testable] = 2.0 * stats.t.sf(np.abs(statistic[testable]), pairs.n[testable] - 1)
        else:
            p, statistic, r_plus, r_minus = _wilcoxon_pvalues(pairs.diff, pairs.n, testable, zero_method)
        p_holm = adjust_by_family(p, pairs.row_dataset, "holm")
        out = {"mean_diff": mean, "ci_low": ci_low, "ci_high": ci_high, "statistic": statistic, "p_raw": p,
               "p_holm": p_holm, "significant": np.nan_to_num(p_holm, nan=np.inf) <= alpha, "reason": reason}
        if method == "wilcoxon":
            out |= {"r_plus": r_plus, "r_minus": r_minus}
            small = (pairs.n >= 2) & (pairs.n < 6) & (reason == "")
            if small.any():
                notes.append(f"{int(small.sum())} pair(s) share fewer than 6 seeds: the two-sided Wilcoxon p "
                             "cannot go below 2/2^n (0.0625 at n = 5), so they cannot be significant at 0.05.")
        return out

    table = _pair_table(cube, blocks, columns, t_based=method != "wilcoxon", control=control_index)
    metric_field, direction_field = _meta(cube, blocks)
    return PairedTests(table=table, method=method, alpha=alpha, direction=direction_field,
                       metric=metric_field, zero_method=zero_method, notes=tuple(notes), control=control,
                       runs=None if design is None else design.runs, rho=None if design is None else design.rho)


def _fold_design_for(cube: xr.DataArray, method: str, runs, rho) -> FoldDesign:
    """The fold design ``method`` runs on: from ``runs`` / ``rho`` or the cube; refused when it does not fit."""
    name = PROCEDURES[method].subject
    design = fold_design(cube, runs=runs, rho=rho, needs=f"{name} needs at least 2 folds per run.")
    if design is None:
        raise McdaArgumentError(
            f"{name} needs the design of the folds along `seed`, and the scores do not say it: pass `runs=` "
            "(repetitions of k-fold cross-validation, run after run along seed)"
            + (" or `rho=` (the test share of random train/test splits)" if method == "corrected-resampled-t" else "")
            + ", or give the cube `run` / `fold` coordinates along seed or attrs['cv_runs'].", argument="runs")
    if method != "corrected-resampled-t" and design.runs is None:
        raise McdaArgumentError(f"{name} needs runs of k-fold cross-validation, and {design.source} gives random "
                                f"splits (rho = {design.rho:g}); use method='corrected-resampled-t' for those, or "
                                "pass `runs=`.", argument="rho", value=design.rho)
    if method.startswith("5x2cv") and design.n_folds != 2:
        raise McdaArgumentError(f"{name} needs runs of 2-fold cross-validation (5 runs in the paper), and "
                                f"{design.source} gives {design.words()}; use method='corrected-repeated-cv-t' "
                                "for k-fold cross-validation.", argument="runs", value=design.runs)
    return design


def _warn_naive_over_folds(cube: xr.DataArray, method: str, paired: bool, notes: list) -> None:
    """Warn once (and note) when a test over independent seeds runs on scores the cube says are folds."""
    said = declared_folds(cube)
    if said is None:
        return
    name = ("paired t" if method == "t" else "Wilcoxon signed-rank") if paired else PROCEDURES[
        PROCEDURES[method].unpaired].display
    what = (f"the scores say their seeds are cross-validation folds ({said}), whose training sets overlap: the "
            f"{name} test takes them as independent runs, so its p-values are too small (Nadeau & Bengio 2003).")
    notes.append(f"{what} A test over folds corrects for it: method={_FOLD_DEFAULT!r}.")
    warn(what, OverlappingFoldsWarning,
         remedy={"library": f"Use paired_tests(..., method={_FOLD_DEFAULT!r}) (a Report: "
                            f"pairwise_method={_FOLD_DEFAULT!r}), or another test over folds: "
                            f"{', '.join(FOLD_METHODS)}.",
                 "cli": f"Give --pairwise-method {_FOLD_DEFAULT} (or another test over folds: "
                        f"{', '.join(FOLD_METHODS)})."})


def _fold_columns(method: str, design: FoldDesign, pairs: _Pairs, mean, sd, reason, alpha: float) -> dict:
    """The columns of a test over folds for every (dataset, pair) row of one block."""
    rows, n_total = pairs.diff.shape
    statistic = np.full(rows, np.nan)
    p = np.full(rows, np.nan)
    ci_low = np.full(rows, np.nan)
    ci_high = np.full(rows, np.nan)
    if method != "corrected-resampled-t":  # the runs need every fold
        lacking = (pairs.n < n_total) & (pairs.n >= 2)
        for i in np.nonzero(lacking)[0]:
            reason[i] = (f"{n_total - pairs.n[i]} of {n_total} fold scores missing: {PROCEDURES[method].subject} "
                         "needs every fold of every run (dropping folds would break the runs)")
    ok = reason == ""
    if method.startswith("5x2cv"):
        d = pairs.diff[:, design.order].reshape(rows, design.runs, 2)
        run_mean = d.mean(axis=2, keepdims=True)
        variance_sum = ((d - run_mean) ** 2).sum(axis=(1, 2))
        flat = ok & (variance_sum == 0)
        for i in np.nonzero(flat)[0]:
            reason[i] = ("in every run the two folds' differences are equal: the 5×2cv variance estimate is 0 and "
                         "the statistic is undefined")
        ok &= ~flat
        if method == "5x2cv-t":
            statistic[ok] = d[ok, 0, 0] / np.sqrt(variance_sum[ok] / design.runs)
            p[ok] = 2.0 * stats.t.sf(np.abs(statistic[ok]), design.runs)
        else:
            statistic[ok] = (d[ok] ** 2).sum(axis=(1, 2)) / (2.0 * variance_sum[ok])
            p[ok] = stats.f.sf(statistic[ok], 2 * design.runs, design.runs)
    else:
        size = pairs.n.astype(float) if method == "corrected-resampled-t" else np.full(rows, float(n_total))
        with np.errstate(invalid="ignore", divide="ignore"):
            se = sd * np.sqrt(1.0 / size + design.rho / (1.0 - design.rho))
        statistic[ok] = mean[ok] / se[ok]
        p[ok] = 2.0 * stats.t.sf(np.abs(statistic[ok]), size[ok] - 1.0)
        half = stats.t.isf(alpha / 2.0, size[ok] - 1.0) * se[ok]
        ci_low[ok], ci_high[ok] = mean[ok] - half, mean[ok] + half
    p_holm = adjust_by_family(p, pairs.row_dataset, "holm")
    return {"mean_diff": mean, "ci_low": ci_low, "ci_high": ci_high, "statistic": statistic, "p_raw": p,
            "p_holm": p_holm, "significant": np.nan_to_num(p_holm, nan=np.inf) <= alpha, "reason": reason}


# --------------------------------------------------------------------------- equivalence


@dataclass(frozen=True, repr=False)
class EquivalenceResult(_TableResult):
    """Paired TOST equivalence of every pair of methods on each dataset, over seeds.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per (dataset, pair[, metric]): ``dataset, method_a, method_b, [metric,]
        n_seeds, mean_diff, margin, ci_low, ci_high, p_lower, p_upper, p_tost, equivalent,
        verdict, reason``. ``ci_low, ci_high`` is the (1 − 2·alpha) t interval of the mean
        difference (the interval TOST inverts); ``p_lower`` tests H0: mean ≤ −margin,
        ``p_upper`` H0: mean ≥ +margin, ``p_tost`` = max of the two; ``equivalent`` is
        ``p_tost <= alpha``; ``verdict`` is "equivalent", "different" (the interval lies
        wholly beyond the margin), "inconclusive", "identical" (every difference exactly 0)
        or "not applicable".
    margin : float or dict
        The margin(s) used, in the metric's units.
    alpha : float
    direction : str or dict
    metric : str or tuple of str
    notes : tuple of str
    """

    table: pd.DataFrame
    margin: object
    alpha: float
    direction: object
    metric: object
    notes: tuple = ()

    def summary(self) -> str:
        counts = self.table["verdict"].value_counts()
        head = (f"Equivalence (paired TOST, alpha = {self.alpha:g}, margin = {self.margin}): "
                + ", ".join(f"{v} {k}" for k, v in counts.items()))
        cols = ["dataset", "method_a", "method_b", "metric", "n_seeds", "mean_diff", "margin", "p_tost", "verdict"]
        return self._text(head, cols)


def _margins(blocks: list[_Block], margin) -> list[float]:
    out = []
    for block in blocks:
        if margin is None:
            value = block.noise_floor
            if value is None or math.isnan(value):
                raise McdaArgumentError(f"`margin` is None and {'metric ' + repr(block.metric) if block.metric else 'the scores'}"
                                 " carries no card with a noise floor; pass `margin=` (a positive number in the "
                                 "metric's units) or `metric=` naming a card.", argument="margin")
            if value <= 0:
                why = f" ({block.card.noise_floor_justification})" if block.card is not None else ""
                raise McdaArgumentError(f"`margin` is None and the card for {block.metric!r} has noise floor {value!r}{why}; "
                                 "pass `margin=` (a positive number in the metric's units).",
                                 argument="margin", value=None)
        elif isinstance(margin, Mapping):
            if block.metric not in margin:
                raise McdaArgumentError(f"`margin` has no entry for metric {block.metric!r}; it has {sorted(margin)}",
                                        argument="margin")
            value = margin[block.metric]
        else:
            value = margin
        if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)):
            raise McdaArgumentTypeError(f"`margin` must be a positive number (or None for the card's noise floor); got {value!r}",
                                        argument="margin", value=value)
        value = float(value)
        if not math.isfinite(value) or value <= 0:
            raise McdaArgumentError(f"`margin` must be a finite number > 0 in the metric's units; got {value!r}",
                                    argument="margin", value=value)
        out.append(value)
    return out


@states_scale
def equivalence(scores, direction=None, *, margin=None, alpha: float = 0.05, metric=None,
                method_names=None) -> EquivalenceResult:
    """Are A and B equivalent on this dataset? Paired TOST over seeds for every pair.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube` with a ``seed`` dim
    margin : float, mapping or None
        Half-width of the equivalence region, in the metric's units; None uses the card's
        noise floor (with a ``metric`` dim: each metric's own; a mapping gives one per metric).
    alpha : float
        Level of each one-sided test.
    direction, metric, method_names : optional
        As in :func:`summary`.

    Returns
    -------
    EquivalenceResult
        ``table`` with ``dataset, method_a, method_b, [metric,] n_seeds, mean_diff, margin,
        ci_low, ci_high, p_lower, p_upper, p_tost, equivalent, verdict, reason``; ``margin``,
        ``alpha``, ``direction``, ``metric``, ``notes``.

    Raises
    ------
    ValueError
        ``scores`` without a ``seed`` dim; ``margin`` ≤ 0, or None without a card;
        ``alpha`` outside (0, 1).

    Notes
    -----
    Two one-sided paired t tests (Schuirmann 1987) on d_s = a_s − b_s over the n shared
    seeds, se = s_d/√n, df = n − 1: p_lower = P(T ≥ (d̄ + margin)/se) for H0: μ_d ≤ −margin,
    p_upper = P(T ≤ (d̄ − margin)/se) for H0: μ_d ≥ +margin; p_tost = max(p_lower, p_upper).
    Equivalence at level alpha is p_tost ≤ alpha, the same as the (1 − 2·alpha) t interval
    lying inside (−margin, margin). "different" means that interval lies wholly outside
    [−margin, margin]; anything else is "inconclusive" (more seeds would tell).
    NaN and a reason (never p = 1) when fewer than 2 seeds are shared or every difference
    is the same number; all-zero differences get the verdict "identical".

    References
    ----------
    Schuirmann, D. J. (1987). A comparison of the two one-sided tests procedure and the
    power approach for assessing the equivalence of average bioavailability. Journal of
    Pharmacokinetics and Biopharmaceutics 15(6):657–680. https://doi.org/10.1007/BF01068419

    Examples
    --------
    >>> import mcda
    >>> cube = mcda.datasets.synthetic(n_datasets=1, n_methods=2, n_seeds=20, effects=[0, 0.001],
    ...                                noise_sd=0.002, rng=0)
    >>> res = mcda.equivalence(cube)  # margin: the accuracy card's noise floor, 0.01
    >>> row = res.to_frame().iloc[0]
    >>> float(row["margin"]), bool(row["equivalent"]), row["verdict"]
    (0.01, True, 'equivalent')
    """
    alpha = check_alpha(alpha)
    cube, blocks = _blocks(scores, direction, metric, method_names)
    margins = _margins(blocks, margin)

    def columns(i, pairs, mean, sd, reason, codes):
        m = margins[i]
        ok = reason == ""
        se = _sem(sd, pairs.n)
        df = np.where(ok, pairs.n - 1, 1)
        p_lower = np.where(ok, stats.t.sf((mean + m) / np.where(ok, se, 1.0), df), np.nan)
        p_upper = np.where(ok, stats.t.cdf((mean - m) / np.where(ok, se, 1.0), df), np.nan)
        p_tost = np.maximum(p_lower, p_upper)
        ci_low, ci_high = t_interval(mean, se, pairs.n, 1.0 - 2.0 * alpha)
        equivalent = np.nan_to_num(p_tost, nan=np.inf) <= alpha
        verdict = np.full(len(mean), "inconclusive", dtype=object)
        verdict[equivalent] = "equivalent"
        with np.errstate(invalid="ignore"):
            verdict[ok & ((ci_low > m) | (ci_high < -m))] = "different"
        verdict[~ok] = "not applicable"
        verdict[codes == Reason.IDENTICAL] = "identical"
        return {"mean_diff": mean, "margin": m, "ci_low": ci_low, "ci_high": ci_high, "p_lower": p_lower,
                "p_upper": p_upper, "p_tost": p_tost, "equivalent": equivalent, "verdict": verdict,
                "reason": reason}

    table = _pair_table(cube, blocks, columns)
    metric_field, direction_field = _meta(cube, blocks)
    margin_field = dict(zip((b.metric for b in blocks), margins)) if "metric" in cube.dims else margins[0]
    return EquivalenceResult(table=table, margin=margin_field, alpha=alpha,
                             direction=direction_field, metric=metric_field,
                             notes=tuple(_pairing_notes(cube, blocks, view="equivalence")))


# --------------------------------------------------------------------------- power


@dataclass(frozen=True, repr=False)
class PowerResult(_TableResult):
    """Power of the paired t test over seeds, per pair and dataset.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per (dataset, pair[, metric]): ``dataset, method_a, method_b, [metric,]
        n_seeds, mean_diff, sd_diff, effect_size, mde, observed_power, seeds_needed, reason``.
        ``effect_size`` = mean_diff / sd_diff (Cohen's d_z, signed as a − b); ``mde`` the
        smallest |mean difference| the two-sided paired t test detects with
        ``target_power`` at this seed count, in the metric's units; ``observed_power`` the
        power against the observed effect; ``seeds_needed`` the smallest seed count
        (≥ 2) with ``target_power`` against the observed effect.
    alpha, target_power : float
    direction : str or dict
    metric : str or tuple of str
    notes : tuple of str
    """

    table: pd.DataFrame
    alpha: float
    target_power: float
    direction: object
    metric: object
    notes: tuple = ()

    def summary(self) -> str:
        head = (f"Power of the paired t test over seeds (alpha = {self.alpha:g}, "
                f"target power = {self.target_power:g})")
        cols = ["dataset", "method_a", "method_b", "metric", "n_seeds", "mean_diff", "mde", "observed_power",
                "seeds_needed", "reason"]
        return self._text(head, cols)


def _t_power(effect, n, alpha):
    """Power of the two-sided one-sample (paired) t test: effect size d (σ units), n observations.

    The lower tail P(T' < −c | nc) is taken as P(T' > c | −nc), its mirror image: scipy's
    ``nct.cdf(-c, df, nc)`` returns NaN far in the tail (df = 3, nc = 8), which would make a
    large effect look undetectable.
    """
    df = n - 1.0
    nc = effect * np.sqrt(n)
    crit = stats.t.isf(alpha / 2.0, df)
    return stats.nct.sf(crit, df, nc) + stats.nct.sf(crit, df, -nc)


def _mde_effect(n, alpha, target):
    """Smallest effect size d > 0 with power ≥ target at n observations (bisection, per n)."""
    n = np.asarray(n, dtype=float)
    lo = np.zeros(n.shape)
    hi = np.ones(n.shape)
    while True:
        short = _t_power(hi, n, alpha) < target
        if not short.any():
            break
        hi = np.where(short, hi * 2.0, hi)
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if np.all((hi - lo) <= 1e-13 * hi):
            break
        reach = _t_power(mid, n, alpha) >= target
        lo = np.where(reach, lo, mid)
        hi = np.where(reach, mid, hi)
    return hi


_MAX_SEEDS_SEARCHED = 2**40


def _seeds_needed(effect, alpha, target):
    """Smallest integer n ≥ 2 with power ≥ target against |effect| (NaN beyond 2**40).

    The search starts at Guenther's approximation n ≈ ((z_{1−α/2} + z_target) / d)² + z²_{1−α/2} / 2
    (within a seed of the answer for the usual α and power): the bracket lo < n ≤ hi around it
    (power(lo) < target ≤ power(hi)) is checked, widened where it does not hold, and halved on
    the rows still open, so a row costs about four power evaluations. The power rises with n,
    so the answer is the one integer where it crosses the target, however the search starts.
    """
    effect = np.abs(np.asarray(effect, dtype=float))
    out = np.full(effect.shape, np.nan)
    ok = effect > 0
    if not ok.any():
        return out
    e = effect[ok]
    cap = float(_MAX_SEEDS_SEARCHED)
    z_alpha = stats.norm.isf(alpha / 2.0)
    with np.errstate(over="ignore"):
        guess = ((z_alpha + stats.norm.ppf(target)) / e) ** 2 + z_alpha ** 2 / 2.0
    lo = np.clip(np.floor(guess) - 1.0, 1.0, cap)  # power(lo) < target, or lo = 1 meaning "below 2"
    hi = np.clip(np.ceil(guess) + 2.0, 2.0, cap)
    above = np.zeros(e.shape, dtype=bool)
    check = np.nonzero(lo >= 2.0)[0]
    above[check] = _t_power(e[check], lo[check], alpha) >= target
    hi, lo = np.where(above, lo, hi), np.where(above, 1.0, lo)
    reach = _t_power(e, hi, alpha) >= target
    short = np.nonzero(~reach & (hi < cap))[0]
    while short.size:
        lo[short] = hi[short]
        hi[short] = np.minimum(hi[short] * 2.0, cap)
        reach[short] = _t_power(e[short], hi[short], alpha) >= target
        short = short[~reach[short] & (hi[short] < cap)]
    open_rows = np.nonzero(reach & (hi - lo > 1))[0]
    while open_rows.size:
        mid = np.floor(0.5 * (lo[open_rows] + hi[open_rows]))
        rises = _t_power(e[open_rows], np.maximum(mid, 2.0), alpha) >= target
        hi[open_rows] = np.where(rises, mid, hi[open_rows])
        lo[open_rows] = np.where(rises, lo[open_rows], mid)
        open_rows = open_rows[hi[open_rows] - lo[open_rows] > 1]
    out[ok] = np.where(reach, np.maximum(hi, 2.0), np.nan)
    return out


@states_scale
def power(scores, direction=None, *, alpha: float = 0.05, target_power: float = 0.8, metric=None,
          method_names=None) -> PowerResult:
    """How large a difference can these seeds detect, and how many seeds would the observed one need?

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube` with a ``seed`` dim
    alpha : float
        Level of the two-sided paired t test.
    target_power : float
        The power asked for, in (alpha, 1).
    direction, metric, method_names : optional
        As in :func:`summary`.

    Returns
    -------
    PowerResult
        ``table`` with ``dataset, method_a, method_b, [metric,] n_seeds, mean_diff, sd_diff,
        effect_size, mde, observed_power, seeds_needed, reason``; ``alpha``,
        ``target_power``, ``direction``, ``metric``, ``notes``.

    Raises
    ------
    ValueError
        ``scores`` without a ``seed`` dim; ``alpha`` or ``target_power`` outside their range.

    Notes
    -----
    The two-sided paired t test on n seeds with standardised effect d = μ_d/σ_d has power
    P(|T'| > t_{1−α/2, n−1}) with T' noncentral t (df n − 1, noncentrality d√n) — the
    formula of statsmodels' ``TTestPower``. ``mde`` solves power = target for d at the
    observed n and reports d · s_d in the metric's units; ``seeds_needed`` is the smallest
    integer n with power ≥ target at the observed d = d̄/s_d. Both take the observed s_d as
    the true σ_d, so they are rough with few seeds.

    ``observed_power`` (power at the observed effect) is a one-to-one function of the p-value
    and adds no evidence (Hoenig & Heisey 2001); use ``mde`` to say what a non-significant
    result rules out, and ``seeds_needed`` to plan the next run.

    NaN and a reason when fewer than 2 seeds are shared or the differences have no spread;
    ``seeds_needed`` is NaN when the observed difference is 0.

    References
    ----------
    Cohen, J. (1988). Statistical Power Analysis for the Behavioral Sciences, 2nd ed.
    Lawrence Erlbaum. https://doi.org/10.4324/9780203771587

    Hoenig, J. M. and Heisey, D. M. (2001). The abuse of power: the pervasive fallacy of power
    calculations for data analysis. The American Statistician 55(1):19–24.
    https://doi.org/10.1198/000313001300339897

    Examples
    --------
    >>> import mcda
    >>> cube = mcda.datasets.synthetic(n_datasets=1, n_methods=2, n_seeds=5, effects=[0, 0.005], rng=0)
    >>> row = mcda.power(cube).to_frame().iloc[0]
    >>> int(row["n_seeds"]), bool(row["mde"] > abs(row["mean_diff"])), bool(row["seeds_needed"] > 5)
    (5, True, True)
    """
    alpha = check_alpha(alpha)
    target_power = check_probability("target_power", target_power)
    if target_power <= alpha:
        raise McdaArgumentError(f"`target_power` must exceed `alpha` ({alpha!r}): the test already rejects with "
                         f"probability alpha when there is no difference; got {target_power!r}",
                                argument="target_power", value=target_power)
    cube, blocks = _blocks(scores, direction, metric, method_names)

    def columns(_, pairs, mean, sd, reason, codes):
        no_spread = "no spread to base a power calculation on"
        for i in np.nonzero(codes == Reason.IDENTICAL)[0]:
            reason[i] = _identical_sentence(pairs.n[i], no_spread)
        for i in np.nonzero(codes == Reason.CONSTANT_DIFFERENCE)[0]:
            reason[i] = _constant_sentence(pairs, i, no_spread)
        ok = reason == ""
        effect = np.full(len(mean), np.nan)
        mde = np.full(len(mean), np.nan)
        observed = np.full(len(mean), np.nan)
        needed = np.full(len(mean), np.nan)
        if ok.any():
            effect[ok] = mean[ok] / sd[ok]
            sizes = pairs.n[ok].astype(float)
            unique_n, inverse = np.unique(sizes, return_inverse=True)
            mde[ok] = _mde_effect(unique_n, alpha, target_power)[inverse] * sd[ok]
            observed[ok] = _t_power(np.abs(effect[ok]), sizes, alpha)
            needed[ok] = _seeds_needed(effect[ok], alpha, target_power)
            zero = ok & (mean == 0)
            for i in np.nonzero(zero)[0]:
                reason[i] = "the observed mean difference is 0: no seed count detects it"
            huge = ok & (mean != 0) & np.isnan(needed)
            for i in np.nonzero(huge)[0]:
                reason[i] = f"the observed effect is too small to detect with fewer than {_MAX_SEEDS_SEARCHED} seeds"
        return {"mean_diff": mean, "sd_diff": sd, "effect_size": effect, "mde": mde, "observed_power": observed,
                "seeds_needed": needed, "reason": reason}

    table = _pair_table(cube, blocks, columns)
    metric_field, direction_field = _meta(cube, blocks)
    notes = ("observed_power is a function of the p-value and adds no evidence (Hoenig & Heisey 2001); "
             "read mde for what these seeds can rule out.",) + tuple(_pairing_notes(cube, blocks, view="power"))
    return PowerResult(table=table, alpha=alpha, target_power=target_power,
                       direction=direction_field, metric=metric_field, notes=notes)
