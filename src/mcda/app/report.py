"""One object holding a cube and the analyst's choices, so tables, figures and exports agree.

A :class:`Report` keeps the raw scores (per seed, per epoch where present) and a few
settings — the interval (``ci_method``), the paired test (``pairwise_method``), ``alpha``,
the ``rope``, the ``epoch_selection`` and how seeds are collapsed for the across-dataset
question (``seed_reduction``). Every view calls the module that owns the statistic with
these settings as defaults; any view takes a setting per call. report.py computes no
statistic itself.

Random views (bootstrap intervals, rank stability, sampled Bayesian posteriors) draw from
the report's ``rng``, an integer stored with the settings: every view, figure and export of
one report (and of its JSON bundle, read back later) uses the same draws.

Examples
--------
>>> import mcda
>>> report = mcda.Report(mcda.datasets.load("demsar2006"))
>>> report.metric_name(), report.alpha, report.rope, report.rope_value()
('auroc', 0.05, None, 0.01)
>>> report.compare().friedman.rejected
True
>>> report.final_metrics()["adult (sample)"]
{'C4.5': [0.763], 'C4.5+m': [0.768], 'C4.5+cf': [0.771], 'C4.5+m+cf': [0.798]}
"""

from __future__ import annotations

import contextlib
import json
import math
import numbers
import re
import threading
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

from mcda._core.options import ComputeLimitError
from mcda._core.validation import MAX_SEED, McdaArgumentError, McdaArgumentTypeError, MissingDataWarning, warn
from mcda import __version__
from mcda._core.validation import (check_alpha, check_choice, check_control, check_positive_int, check_probability, check_rope, nearest, shown, user_stacklevel)
from mcda.data.cards import MetricCard, get_card
from mcda.data.cube import as_cube, score_cube
from mcda.data.checks import SCALES, cube_card, cube_cards, cube_metric, select_metric, resolve_rope
from mcda.data.design import DEFAULT_MISSING, MISSING_POLICIES, missing_cells, reduce_seeds, without_empty_datasets
from mcda.data.io import from_json as _cube_from_json
from mcda.data.io import from_netcdf as _cube_from_netcdf
from mcda.data.io import to_json as _cube_to_json
from mcda.data.io import to_netcdf as _cube_to_netcdf
from mcda.stats.procedures import PROCEDURES, canonical, display_name, names, paired_test_methods
from mcda.stats.within.epochs import (EPOCH_SELECTIONS, epoch_selection_support, learning_curves, select_epoch, selected_epochs)
from mcda.data.cards import better_phrase, higher_is_better

__all__ = ["Report", "REPORT_FORMAT", "REPORT_VERSION", "select_epoch", "selected_epochs",
           "epoch_selection_support"]

REPORT_FORMAT = "mcda-report"
REPORT_VERSION = 1
CI_METHODS = ("t", "bootstrap")
PAIRWISE_METHODS = paired_test_methods()
SEED_REDUCTIONS = ("mean", "median")
MISSING_SETTINGS = tuple(MISSING_POLICIES)  # the one vocabulary of `missing=` (mcda.data.design)
_MAX_RESAMPLES = 10**7

# setting -> default; the order is the order shown and stored
_DEFAULTS = {
    "ci_method": "t",  # Student's t; the bootstrap only when asked for (it is too narrow with few seeds)
    "confidence_level": 0.95,
    "pairwise_method": "t",
    "paired": True,
    "alpha": 0.05,
    "rope": None,  # None: the card's noise floor
    "test": "nemenyi",
    "control": None,
    "adjust": "holm",
    "seed_reduction": "mean",
    "missing": DEFAULT_MISSING,
    "epoch_selection": "final",
    "split": "test",
    "validation": None,
    "strict": True,
    "n_resamples": 9999,
    "plackett_luce_samples": None,  # None: 2000, or 100 per method beyond 20 methods
    "signed_rank": "auto",  # the Bayesian signed-rank test in the overview, write-up and CLI: by its cost
    "seed_distributions": False,  # the almost stochastic order of the seed distributions in the overview and write-up
    "plackett_luce": "auto",  # the Plackett-Luce model in the overview, write-up and CLI: by its cost
    "design_power": "auto",  # what the design could detect, beside a result that separates not every pair: by its cost
    "item_test": "paired-items-t",  # over items: the paired test of the pairs, the tie groups and the figures
    "rng": None,  # None: an integer is drawn once and stored
}
SETTINGS = tuple(_DEFAULTS)
# settings only the within-dataset views (over seeds) read: refused away from their defaults without seeds
_SEED_SETTINGS = ("ci_method", "pairwise_method", "paired", "seed_reduction", "seed_distributions")
# settings only the views over items read: refused away from their defaults without an `item` dim
_ITEM_SETTINGS = ("item_test",)
# settings that change the cube every view starts from
_CUBE_SETTINGS = ("epoch_selection", "split", "validation", "strict")


#: When the overview, the write-up and the command line include the Bayesian signed-rank test:
#: "auto" by its cost (at most SIGNED_RANK_BUDGET), "always", or "never".
SIGNED_RANK_CHOICES = ("auto", "always", "never")
#: The signed-rank sampler's work a report runs unasked: pairs × posterior draws × datasets (each
#: draw weighs every dataset of the pair). 10 ns a unit on one core is an upper bound of what the
#: kernel takes (6.5 ns measured at 4,000 datasets), so the budget is about ten seconds
#: (50 methods on 60 datasets are 3.7e9 such steps).
SIGNED_RANK_BUDGET = 10**9
_SIGNED_RANK_SECONDS_PER_UNIT = 1e-8


#: When the overview, the write-up and the command line include the Bayesian Plackett–Luce model:
#: "auto" by its cost (at most PLACKETT_LUCE_BUDGET), "always", or "never".
PLACKETT_LUCE_CHOICES = ("auto", "always", "never")
#: The Plackett–Luce sampler's work a report runs unasked: chains × sweeps × datasets × methods ×
#: (1 + methods / 2) (each sweep's Gibbs step visits every place of every ranking once, and its
#: methods / 2 tail moves each visit every place again). 15 ns a unit on one core was measured
#: (4 chains × 6,250 sweeps on 60 datasets × 50 methods: 1.95e9 units, 29 s of CPU), so the budget
#: is about seven seconds of one core.
PLACKETT_LUCE_BUDGET = 5 * 10**8
_PLACKETT_LUCE_SECONDS_PER_UNIT = 1.5e-8
_PLACKETT_LUCE_CHAINS = 4


#: When the overview, the write-up and the command line say, beside an across-dataset result that
#: leaves pairs unseparated, what the design could have detected (:func:`mcda.design_power`):
#: "auto" by its cost (at most DESIGN_POWER_BUDGET), "always", or "never".
DESIGN_POWER_CHOICES = ("auto", "always", "never")
#: Simulated benchmarks per evaluation of a report's design power (its powers are within about
#: ±0.03 of the truth; the bisection of the detectable lead is reproducible from the report's rng).
DESIGN_POWER_RESAMPLES = 200
#: The simulation's work a report runs unasked: simulated benchmarks × datasets × methods. 2.4 µs
#: a unit was measured at 50 methods on 200 datasets (3.3 µs at 100 methods: ranking grows with k),
#: so with 5 µs as the bound the budget is about ten seconds of one core.
DESIGN_POWER_BUDGET = 2 * 10**6
_DESIGN_POWER_SECONDS_PER_UNIT = 5e-6


def _duration(seconds: float) -> str:
    """A cost estimate in words: "40 seconds", "12 minutes"."""
    return f"{seconds:,.0f} seconds" if seconds < 120 else f"{seconds / 60:,.0f} minutes"


def plackett_luce_draws(n_methods: int) -> int:
    """The draws per chain of a Report's Plackett–Luce model by default: 2000, or 100 per method
    beyond 20 methods. Its convergence rule (every worth's R-hat ≤ 1.01) is met by chance less
    often as methods are added: at 50 methods with ties 2000 draws per chain gave R-hat 1.0105
    on one synthetic benchmark of three, 5000 gave at most 1.0038 on all three."""
    return max(2000, 100 * int(n_methods))


def _check_setting(name: str, value, cube: xr.DataArray | None = None):
    """The validated value of one setting (one place for the constructor, the setters and per-call overrides)."""
    if name == "ci_method":
        if value is None:  # the former "the card's interval": now always Student's t (see the class Notes)
            return "t"
        return check_choice("ci_method", value, CI_METHODS)
    if name == "pairwise_method":
        return canonical("pairwise_method", value, allowed=PAIRWISE_METHODS)
    if name == "paired":
        if not isinstance(value, bool):
            raise McdaArgumentTypeError(f"`paired` must be True or False; got {value!r}",
                                        argument="paired", value=value)
        return value
    if name == "alpha":
        return check_alpha(value)
    if name == "confidence_level":
        return check_probability("confidence_level", value)
    if name == "rope":
        return None if value is None else check_rope(value)
    if name == "epoch_selection":
        return check_choice("epoch_selection", value, EPOCH_SELECTIONS)
    if name == "seed_reduction":
        return check_choice("seed_reduction", value, SEED_REDUCTIONS)
    if name == "missing":
        return check_choice("missing", value, MISSING_SETTINGS)
    if name == "n_resamples":
        n = check_positive_int("n_resamples", value)
        if n > _MAX_RESAMPLES:
            raise McdaArgumentError(f"a Report's `n_resamples` must be at most {_MAX_RESAMPLES:,} (each view draws that "
                                    f"many resamples per cell or per comparison); got {n:,}", argument="n_resamples")
        return n
    if name == "plackett_luce_samples":
        if value is None:
            return None
        n = check_positive_int("plackett_luce_samples", value)
        if n > _MAX_RESAMPLES:
            raise McdaArgumentError(f"a Report's `plackett_luce_samples` must be at most {_MAX_RESAMPLES:,} (draws kept "
                                    f"per chain); got {n:,}", argument="plackett_luce_samples")
        return n
    if name == "signed_rank":
        return check_choice("signed_rank", value, SIGNED_RANK_CHOICES)
    if name == "plackett_luce":
        return check_choice("plackett_luce", value, PLACKETT_LUCE_CHOICES)
    if name == "design_power":
        return check_choice("design_power", value, DESIGN_POWER_CHOICES)
    if name in ("strict", "seed_distributions"):
        if not isinstance(value, bool):
            raise McdaArgumentTypeError(f"`{name}` must be True or False; got {value!r}",
                                        argument=name, value=value)
        return value
    if name == "item_test":
        from mcda.stats.items.paired import PAIR_TESTS

        return canonical("item_test", value, allowed=PAIR_TESTS)
    if name == "test":
        from mcda.stats.across.compare import COMPARISON_TESTS

        return canonical("test", value, allowed=COMPARISON_TESTS)
    if name == "adjust":
        from mcda.stats.pairwise import check_adjust

        return check_adjust(value)
    if name == "control":
        if value is None:
            return None
        if cube is None:  # no methods to check against yet: only that it names one
            return check_control(value, [value] if isinstance(value, str) else [])
        return check_control(value, cube.coords["method"].values)
    if name == "split":
        if not isinstance(value, str):
            raise McdaArgumentTypeError(f"`{name}` must be a string; got {value!r}", argument=name, value=value)
        return value
    if name == "validation":
        if value is not None and not isinstance(value, str):
            raise McdaArgumentTypeError(f"`{name}` must be a string or None; got {value!r}", argument=name, value=value)
        return value
    if name == "rng":
        if value is None:
            return int(np.random.SeedSequence().generate_state(1, dtype=np.uint64)[0] % MAX_SEED)
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not 0 <= int(value) <= MAX_SEED:
            raise McdaArgumentTypeError("a Report's `rng` must be an integer in [0, 2**63 - 1] (or None: one is drawn and "
                            "stored), so "
                            f"that every view, figure and export of the report uses the same draws; got {value!r}. "
                            "A Generator may still be passed to a single view, e.g. report.summary(ci_method='bootstrap', rng=gen).",
                                        argument="rng", value=value)
        return int(value)
    raise AttributeError(f"`{name}` is not a Report setting; the settings are {list(SETTINGS)}")


def _validation_for(s: dict):
    """The report's validation split for the epoch selection: only "best_val" reads one (select_epoch refuses it with
    "final"); the setting stays the report's for epoch_selection_support()."""
    return s["validation"] if s["epoch_selection"] == "best_val" else None


def _lost_seeds_note(cube: xr.DataArray) -> str:
    """Which (dataset, method) cells lost which seeds ("" when none did): generated from the cube."""
    if "seed" not in cube.dims or "metric" in cube.dims:
        return ""
    present = cube.notnull().transpose("dataset", "method", "seed").values
    counts = present.sum(axis=2)
    ran = present.any(axis=0)  # (methods, seeds): the seed labels each method was run with, on some dataset
    short = (counts > 0) & (counts < ran.sum(axis=1)[None, :])
    if not short.any():
        return ""
    labels = cube.coords["seed"].values
    datasets, methods = cube.coords["dataset"].values, cube.coords["method"].values
    cells = []
    for i, j in zip(*np.nonzero(short)):
        gone = [x.item() if isinstance(x, np.generic) else x for x in labels[ran[j] & ~present[i, j]]]
        cells.append(f"{datasets[i]}/{methods[j]} lacks seed{'s' if len(gone) > 1 else ''} {shown(gone, 4)} "
                     f"({counts[i, j]} of {int(ran[j].sum())})")
    n = len(cells)
    return (f"{n} cell{'s' if n != 1 else ''} lost seeds: {shown(cells, 6, fmt=str, sep='; ')}. Across datasets "
            f"{'each is' if n != 1 else 'it is'} reduced over the seeds {'they have' if n != 1 else 'it has'} (a lost "
            "seed is skipped, never filled; the coordinate n_seeds counts them).")


class _NotCacheable(TypeError):
    """A call argument the view cache cannot key on."""


def _frozen(value):
    """A hashable stand-in for a call argument, or raise TypeError (then the view is not cached)."""
    if isinstance(value, (str, int, float, bool, type(None))):
        return value
    if isinstance(value, (tuple, list)):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((str(k), _frozen(v)) for k, v in value.items()))
    raise _NotCacheable("not cacheable")


_SCALE_UNITS = {100.0: "percent"}

#: The raw cube's attribute holding the factor the scores were divided by (:func:`mcda.score_cube`'s ``scale=``).
SCALE_FACTOR_ATTR = "scale_factor"


def _converted(scores) -> bool:
    """Whether ``scores`` is a cube that already records a unit conversion (``attrs["scale"]``)."""
    return isinstance(scores, xr.DataArray) and bool(scores.attrs.get("scale"))


def _scale_factor(scale, raw: xr.DataArray) -> float:
    """The factor ``scale`` divided the report's metric by (1.0 for "fraction" or a metric it leaves alone)."""
    if isinstance(scale, str):
        return float(SCALES[scale])
    name = scale.get(cube_metric(raw)) if hasattr(scale, "get") else None
    return float(SCALES[name]) if name is not None else 1.0


def _rope_in_cube_units(rope, raw: xr.DataArray, scale, converted_before: bool) -> float:
    """A rope given to ``Report(...)`` in the units of the scores as given, in the cube's (converted) units.

    With ``scale=`` in the same call the rope is in the file's units and is converted with the
    scores. Scores converted before they reached the report leave its unit ambiguous: refused.
    """
    rope = check_rope(rope)
    if scale is not None:
        return rope / raw.attrs[SCALE_FACTOR_ATTR]
    if converted_before and float(raw.attrs.get(SCALE_FACTOR_ATTR, math.nan)) != 1.0:
        raise McdaArgumentError(
            f"`rope`={rope!r} is ambiguous: these scores were converted before they reached the report "
            f"({raw.attrs['scale']}), so the rope could be in their original or their converted units. Give the "
            "unconverted scores with `scale=` (the rope is then read in their units and converted with them), or "
            "set the rope after building the report (report.rope = ..., in the converted units)",
            argument="rope", value=rope)
    return rope


def _one_metric(scores, metric, direction, method_names) -> xr.DataArray:
    """The raw cube of one metric: a report is about one metric (select it from a metric dim or column)."""
    if isinstance(scores, pd.DataFrame) and "metric" in scores.columns and "method" in scores.columns:
        labels = [str(v) for v in pd.unique(scores["metric"].astype(str))]
        label = select_metric(metric, labels)
        scores = scores.loc[scores["metric"].astype(str) == label].drop(columns="metric")
        if metric is None or (not isinstance(metric, MetricCard) and str(metric) == label):
            metric = label if direction is None else _card_or_label(label)
        return score_cube(scores, metric=metric, direction=direction, method_names=method_names)
    if isinstance(scores, xr.DataArray) and "metric" in scores.dims:
        full = as_cube(scores)
        labels = [str(v) for v in full.coords["metric"].values]
        label = select_metric(metric, labels)
        card = cube_cards(full).get(label)
        stored_direction = str(full.coords["direction"].values[labels.index(label)])
        sub = full.sel(metric=label).drop_vars(["metric", "direction", "noise_floor"], errors="ignore")
        sub.attrs = {k: v for k, v in full.attrs.items() if k not in ("cards",)}
        use = metric if isinstance(metric, MetricCard) else (card if card is not None else None)
        if use is None:
            return score_cube(sub, metric=label if direction is None else None,
                              direction=direction or stored_direction)
        return score_cube(sub, metric=use, direction=direction)
    return score_cube(scores, metric=metric, direction=direction, method_names=method_names)


def _several_metrics(scores, method_names) -> tuple[xr.DataArray | None, str]:
    """(the cube of every metric, "") when ``scores`` holds several (a ``metric`` dim or column), else
    (None, why not): the report's metric is analysed alone, and all of them together by :meth:`Report.smaa`."""
    from mcda.data.cards import UnknownMetricError

    if isinstance(scores, pd.DataFrame) and "metric" in scores.columns and "method" in scores.columns:
        if scores["metric"].nunique() < 2:
            return None, ""
        try:
            return score_cube(scores, method_names=method_names), ""
        except UnknownMetricError as exc:  # a metric without a card has no direction to weigh it by
            return None, (f"not run: {exc.args[0].split('. ')[0]}, so its direction is unknown (name the metrics "
                          "by their cards, e.g. memory_mb, or register a card)")
    if isinstance(scores, xr.DataArray) and "metric" in scores.dims and scores.sizes["metric"] > 1:
        return as_cube(scores), ""
    return None, ""


def _bayes_lines(result, max_pairs: int) -> list[str]:
    """The decided pairs and their count, from the one definition of "decided" the write-up uses too."""
    from mcda.present.writeup import BayesDecisions

    decisions = BayesDecisions(result)
    claims = decisions.claims
    lines = [f"{a} better than {b} (P = {p:.3f})" if kind == "better" else
             f"{a} and {b} practically equivalent (P = {p:.3f})" for a, b, p, kind in claims[:max_pairs]]
    if len(claims) > max_pairs:
        lines.append(f"… and {len(claims) - max_pairs} more decided pairs")
    n_na = decisions.n_not_applicable
    lines.append(f"decided {decisions.counts()}; {decisions.n_inconclusive} inconclusive"
                 + (f"; {n_na} not applicable (no shared dataset)" if n_na else ""))
    return lines


def _missing_words(comparison) -> str:
    if comparison.missing == "available":
        return "missing='available': every result used, each method ranked among those present on each dataset"
    if comparison.missing == "datasets":
        return f"missing='datasets': {len(comparison.excluded_datasets)} incomplete dataset(s) dropped"
    return (f"missing='methods': {len(comparison.excluded)} incomplete method(s) dropped" if comparison.excluded
            else "no cell missing")


def _card_or_label(label: str):
    try:
        return get_card(label)
    except (KeyError, ValueError):
        return label



# `warnings.catch_warnings` swaps process-wide state: two threads inside it at once record each
# other's warnings (a Report shared by threads would cache another thread's warning and re-issue it
# on every call) and restore the filters out of order. Views compute one at a time, and only the
# warnings raised by the computing thread are recorded; other threads' warnings are shown as usual.
_VIEW_LOCK = threading.RLock()


@contextlib.contextmanager
def _this_threads_warnings():
    owner = threading.get_ident()
    records: list = []
    active = [True]
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        show = warnings.showwarning

        def record(message, category, filename, lineno, file=None, line=None):
            # another thread's warning, or this hook reinstalled later by some other thread's
            # catch_warnings restoring what it saved: pass it on, never record it here
            if active[0] and threading.get_ident() == owner:
                records.append((message, category))
            else:
                show(message, category, filename, lineno, file, line)

        warnings.showwarning = record
        try:
            yield records
        finally:
            active[0] = False



def _not_computed(exc: ComputeLimitError, report_way: str, cli_way: str) -> str:
    """A view refused by its cost, with the ways on the Report and the command line offer (not the function's)."""
    return (f"not computed: {exc.cost()}. Ask for {report_way} (command line: {cli_way}), or raise the limit with "
            "mcda.set_options(compute_limit=...)")

#: The overview and the write-up show the GSD-front when its relation is estimated to take at most this many
#: seconds of one core (mcda.stats.gsd.estimated_seconds: k (k - 1) linear programs growing with the square of
#: the datasets; 10 methods on 30 datasets take about 13 s); report.gsd_front() runs it anyway.
GSD_REPORT_SECONDS = 30.0

class Report:
    """A score cube and the analyst's choices; every view, figure and export reads both.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube`
        Per seed and per epoch where present (dims ``dataset``, ``method`` and optionally
        ``seed``, ``epoch``, ``split``). With several metrics (a ``metric`` dim or column),
        ``metric`` selects the one the report is about.
    metric : str or MetricCard, optional
        The metric (its card gives the direction, the noise floor and the suitable interval).
    direction : {"higher_is_better", "lower_is_better"}, optional
        Needed when the metric has no card.
    method_names : sequence of str, optional
        As in :func:`mcda.data.cube.as_cube`.
    scale : {"percent", "fraction"}, optional
        The unit the scores are written in (:func:`mcda.score_cube`'s ``scale``): "percent"
        divides them by 100 so the card's range and noise floor apply. Recorded with the
        scores (``report.raw.attrs["scale"]``), shown in the overview and the exports.
    **settings
        The analyst's choices below (keyword only); each is also an attribute.

    Other Parameters
    ----------------
    ci_method : {"t", "bootstrap"}, default "t"
        The interval of :meth:`summary`, the forest plot and the LaTeX table: Student's t over
        the seeds of each cell, or the percentile bootstrap when asked for. The bootstrap is
        too narrow with few seeds (below 10 it covers less than its nominal rate: about 84 %
        for a nominal 95 % at 5 normal seeds, where the t interval covers 95 %); its note
        says so in :meth:`overview`, :meth:`text` and ``mcda compare``. None is read as "t".
    confidence_level : float, default 0.95
    pairwise_method : str, default "t"
        The paired test over seeds within a dataset (Holm over the pairs of a dataset): "t",
        "wilcoxon", or a test over cross-validation folds (:func:`mcda.paired_tests`), whose
        design the cube gives (``attrs["cv_runs"]``, ``run`` / ``fold`` coordinates).
    paired : bool, default True
        Whether seeds are paired runs; False uses Welch's t / Mann–Whitney on each method's
        seeds as two samples (:func:`mcda.paired_tests`' ``paired``). Never switched for you:
        differing seed labels are warned about and noted.
    alpha : float, default 0.05
        The level of every test.
    rope : float, optional
        Region of practical equivalence in the units of ``scores`` as given: with ``scale=``
        it is converted with the scores (``scale="percent", rope=1`` is 0.01 on the fraction
        scale); a cube converted before it reached the report makes the unit ambiguous, and a
        rope is refused there (set ``report.rope`` afterwards, in the converted units). None
        uses the card's noise floor (then the card is required). The attribute ``report.rope``
        and per-call overrides are in the cube's (converted) units; the overview and the text
        state the rope in both.
    test : str, default "nemenyi"
        The post-hoc of :meth:`compare` (see :func:`mcda.compare_over_datasets`).
    control : str, optional
        A control method chosen beforehand (then ``test`` must be a control test).
    adjust : str or None, default "holm"
        The multiplicity adjustment of the pairwise sign tests of :meth:`superiority`.
    missing : {"methods", "datasets", "available"}, default "methods"
        What a missing (dataset, method) cell does in the across-dataset procedure
        (:func:`mcda.compare_over_datasets`) and the ranks: drop the incomplete methods, drop
        the incomplete datasets, or test the incomplete design as it is (Durbin / Skillings–Mack).
        Nothing is imputed; the pairwise views always use the datasets each pair shares.
    seed_reduction : {"mean", "median"}, default "mean"
        How seeds are collapsed for the across-dataset views, by :func:`mcda.reduce_seeds`'s
        one rule: a lost seed is skipped and counted in the coordinate ``n_seeds`` (a cell with
        no seed stays missing), as the library and ``mcda compare`` do.
    epoch_selection : {"final", "best_val"}, default "final"
        With an ``epoch`` dim: which epoch of each run is reported (:func:`select_epoch`).
    split, validation : str
        The reported and the validation split (``validation=None``: "val", "valid", …).
    strict : bool, default True
        "best_val" raises where no validation series exists; False falls back to the final
        epoch there.
    n_resamples : int, default 9999
        Bootstrap resamples of the intervals and of :meth:`rank_stability`.
    plackett_luce_samples : int, optional
        Draws kept per chain of :meth:`plackett_luce` (its text and figure), after
        ``max(500, n // 4)`` discarded; more when its chains have not converged. None
        (default): 2000, or 100 per method beyond 20 methods.
    signed_rank : {"auto", "always", "never"}
        Whether :meth:`overview`, :meth:`text` and ``mcda compare`` include the Bayesian
        signed-rank test. ``"auto"`` (default) leaves it out, saying so and why, when its sampler
        would exceed :data:`SIGNED_RANK_BUDGET` steps (pairs × draws × datasets; see
        :meth:`signed_rank_skipped`). :meth:`bayesian_signed_rank` computes it whenever called.
    seed_distributions : bool, default False
        Whether :meth:`overview`, :meth:`text` and ``mcda compare`` also compare the methods' seed
        distributions on each dataset by almost stochastic order
        (:meth:`almost_stochastic_order`, ``n_resamples`` resamples at ``confidence_level``).
    item_test : str, default "paired-items-t"
        Over items (scores with an ``item`` dim): the paired test of :meth:`item_pairs`,
        :meth:`item_leaderboard`'s tie groups and the item figures: the paired t test on the item
        differences (cluster-robust with clusters) or McNemar's exact, mid-p or asymptotic test of
        0/1 scores (:func:`mcda.paired_items`' ``test``).
    plackett_luce : {"auto", "always", "never"}
        Whether :meth:`overview`, :meth:`text` and ``mcda compare`` include the Bayesian
        Plackett–Luce model. ``"auto"`` (default) leaves it out, saying so, why and what it would
        cost, when its sampler would exceed :data:`PLACKETT_LUCE_BUDGET` steps (about seven seconds
        of one core; see :meth:`plackett_luce_skipped`). :meth:`plackett_luce` computes it whenever
        called.
    design_power : {"auto", "always", "never"}
        Whether :meth:`overview`, :meth:`text` and ``mcda compare`` say, beside an across-dataset
        result that leaves some pair unseparated, what the design could have detected
        (:meth:`design_power`: the smallest lead of one method the report's test finds with power
        0.8). ``"auto"`` (default) leaves it out, saying so and what it would cost, when the
        simulation would exceed :data:`DESIGN_POWER_BUDGET` units (see
        :meth:`design_power_skipped`).
    rng : int, optional
        The seed of every random view; None draws one integer now and stores it.

    Notes
    -----
    Settings are attributes: ``report.ci_method = "bootstrap"`` changes the summary, the
    forest plot and the LaTeX table together. Each view also takes any setting as a keyword
    for one call. Results are cached per settings, so repeated views are free.

    Examples
    --------
    >>> import mcda
    >>> report = mcda.Report(mcda.datasets.synthetic(n_datasets=4, n_methods=3, n_seeds=5, rng=1), rng=7)
    >>> report.ci_method                       # Student's t unless the bootstrap is asked for
    't'
    >>> report.summary().ci_method, report.summary(ci_method="bootstrap").ci_method
    ('t', 'bootstrap')
    """

    def __init__(self, scores, *, metric=None, direction=None, method_names=None, scale=None, **settings):
        unknown = [k for k in settings if k not in _DEFAULTS]
        if unknown:
            close = nearest(unknown[0], list(SETTINGS))
            hint = f" Did you mean {close[0]!r}?" if close else ""
            raise McdaArgumentTypeError(f"Report() got unknown settings {unknown}; the settings are {list(SETTINGS)}.{hint}",
                                        argument=unknown[0], value=settings[unknown[0]], allowed=list(SETTINGS))
        from mcda.data.blocks import require_in_memory

        require_in_memory(scores, "mcda.Report", reason="a report draws every view, figure and table of one "
                          "in-memory cube", instead="call the chunk-wise functions (compare_over_datasets, "
                          "pairwise_superiority, bayesian_sign_comparison, rank_stability, method_summary) on "
                          "the lazy cube directly")
        converted_before = _converted(scores)
        if scale is not None:  # the unit conversion is made once, on the raw scores (recorded in attrs["scale"])
            scores = score_cube(scores, metric=metric, direction=direction, method_names=method_names, scale=scale)
            metric = direction = method_names = None
        raw = _one_metric(scores, metric, direction, method_names)
        criteria, criteria_note = _several_metrics(scores, method_names)
        if scale is not None:  # score_cube records it for one scale; for a mapping, the report's metric's
            raw.attrs[SCALE_FACTOR_ATTR] = _scale_factor(scale, raw)
        rope = settings.get("rope")
        if rope is not None:
            settings = dict(settings)
            settings["rope"] = _rope_in_cube_units(rope, raw, scale, converted_before)
        object.__setattr__(self, "_raw", raw)
        object.__setattr__(self, "_criteria", criteria)
        object.__setattr__(self, "_criteria_note", criteria_note)
        object.__setattr__(self, "_cache", {})
        object.__setattr__(self, "_settings", {})
        for name, default in _DEFAULTS.items():
            self._settings[name] = _check_setting(name, settings.get(name, default), raw)
            self._check_seed_setting(name)
        self._check_epoch_settings()

    # ------------------------------------------------------------------ settings

    def __getattr__(self, name):
        settings = self.__dict__.get("_settings")
        if settings is not None and name in settings:
            return settings[name]
        raise AttributeError(f"'Report' object has no attribute {name!r}")

    def __setattr__(self, name, value):
        if name in _DEFAULTS:
            previous = self._settings[name]
            self._settings[name] = _check_setting(name, value, self._raw)
            try:
                self._check_seed_setting(name)
            except McdaArgumentError:
                self._settings[name] = previous
                raise
            if name in _CUBE_SETTINGS:
                try:
                    self._check_epoch_settings()
                except (ValueError, TypeError):
                    self._settings[name] = previous
                    raise
            return
        raise AttributeError(f"cannot set {name!r} on a Report; the settings are {list(SETTINGS)}")

    def _check_seed_setting(self, name):
        """A setting only the views over seeds read, away from its default on scores without seeds, is refused
        (it would be silently unused); so is a setting of the views over items on scores without items."""
        if name in _ITEM_SETTINGS and "item" not in self._raw.dims:
            value = self._settings[name]
            if value != _check_setting(name, _DEFAULTS[name], self._raw):
                raise McdaArgumentError(f"`{name}={value!r}` applies to the comparison over the items of a test set, "
                                        "and these scores have no `item` dim; leave it at its default",
                                        argument=name, value=value)
            return
        if name not in _SEED_SETTINGS or "seed" in self._raw.dims:
            return
        value = self._settings[name]
        if value != _check_setting(name, _DEFAULTS[name], self._raw):
            raise McdaArgumentError(f"`{name}={value!r}` applies to the seeds within a dataset, and these scores have no "
                                    f"`seed` dim (one score per dataset and method); leave `{name}` at its default",
                                    argument=name, value=value)

    def _check_epoch_settings(self):
        """Apply the epoch choice now, so an impossible one fails where it is made (not in a later view)."""
        if "epoch" not in self._raw.dims and self._settings["epoch_selection"] != "final":
            raise McdaArgumentError(f"`epoch_selection={self._settings['epoch_selection']!r}` needs scores with an `epoch` "
                             "dim; these have none (one score per run)", argument="epoch_selection")
        if "epoch" in self._raw.dims or "split" in self._raw.dims:
            self._selected()

    @property
    def settings(self) -> dict:
        """The settings as stored in the JSON bundle (a copy)."""
        return dict(self._settings)

    def _resolve(self, overrides: dict, names) -> dict:
        unknown = [k for k in overrides if k not in _DEFAULTS]
        if unknown:
            raise McdaArgumentTypeError(f"unknown settings {unknown}; the settings are {list(SETTINGS)}",
                                        argument=unknown[0], value=overrides[unknown[0]], allowed=list(SETTINGS))
        out = {}
        for name in names:
            if name in overrides:
                value = overrides[name]
                out[name] = value if name == "rng" and not isinstance(value, (int, type(None))) else \
                    _check_setting(name, value, self._raw)
            else:
                out[name] = self._settings[name]
        return out

    # ------------------------------------------------------------------ cubes

    @property
    def raw(self) -> xr.DataArray:
        """The cube as given: per seed and per epoch where present, before any choice is applied."""
        return self._raw

    def _selected(self, overrides: dict | None = None) -> xr.DataArray:
        s = self._resolve(overrides or {}, _CUBE_SETTINGS)
        key = ("_cube",) + tuple(s[k] for k in _CUBE_SETTINGS)
        if key not in self._cache:
            if "epoch" in self._raw.dims:
                cube = select_epoch(self._raw, selection=s["epoch_selection"], split=s["split"],
                                    validation=_validation_for(s), strict=s["strict"])
            elif "split" in self._raw.dims:
                cube = as_cube(self._raw.sel(split=s["split"]).drop_vars("split"))
            else:
                cube = self._raw
            self._cache[key] = cube
        return self._cache[key]

    @property
    def cube(self) -> xr.DataArray:
        """The cube every within-dataset view starts from: one score per run (epoch selected), seeds kept."""
        return self._selected()

    def _across(self, overrides: dict | None = None) -> xr.DataArray:
        overrides = overrides or {}
        cube = self._selected(overrides)
        if "item" in cube.dims:  # over items: the one explicit step to a dataset cube (mcda.reduce_items)
            return self._items_reduced(cube, self._resolve(overrides, _CUBE_SETTINGS).values())
        if "seed" not in cube.dims:
            return cube
        how = self._resolve(overrides, ("seed_reduction",))["seed_reduction"]
        key = ("_across", how) + tuple(self._resolve(overrides, _CUBE_SETTINGS).values())
        if key not in self._cache:
            with _VIEW_LOCK, _this_threads_warnings() as caught:
                reduced = reduce_seeds(cube, how=how)  # the library's one rule: a lost seed is skipped
            # reduce_seeds names the short cells in its own words (its `missing=`, which a report does not
            # take); the report says which seeds each lost instead, and passes every other warning on
            for message, category in caught:
                if not issubclass(category, MissingDataWarning):
                    warnings.warn(message, category, stacklevel=user_stacklevel())
            note = _lost_seeds_note(cube)
            if note:
                warn(note, MissingDataWarning)
            self._cache[key] = reduced
        return self._cache[key]

    @property
    def across_cube(self) -> xr.DataArray:
        """One score per (dataset, method): seeds collapsed by ``seed_reduction`` (the across-dataset input)."""
        return self._across()

    @property
    def has_seeds(self) -> bool:
        """Whether the within-dataset views (intervals, paired tests, equivalence, power) apply."""
        return "seed" in self._raw.dims

    @property
    def has_epochs(self) -> bool:
        return "epoch" in self._raw.dims

    @property
    def methods(self) -> list:
        return [str(m) for m in self._raw.coords["method"].values]

    @property
    def datasets(self) -> list:
        return [str(d) for d in self._raw.coords["dataset"].values]

    @property
    def direction(self) -> str:
        return str(self._raw.attrs["direction"])

    @property
    def card(self) -> MetricCard | None:
        return cube_card(self._raw)

    def rope_value(self, **overrides) -> float:
        """The rope in use: the setting, or the card's noise floor when it is None (in the cube's units)."""
        return resolve_rope(self._raw, self._resolve(overrides, ("rope",))["rope"])

    @property
    def scale_factor(self) -> float:
        """What the scores were divided by on reading (``scale="percent"``: 100.0, here or in :func:`mcda.score_cube`);
        1.0 without a conversion.

        The rope given with ``scale=`` was divided by it too; :meth:`overview` and :meth:`text`
        state the rope in both units.
        """
        return float(self._raw.attrs.get(SCALE_FACTOR_ATTR, 1.0))

    def rope_words(self) -> str:
        """The rope in use and where it came from, in the cube's units and, after a conversion, the file's."""
        rope = self.rope_value()
        where = "the card's noise floor" if self._settings["rope"] is None else "set by the analyst"
        factor = self.scale_factor
        unit = _SCALE_UNITS.get(factor)
        if factor != 1.0:
            where += f"; {rope * factor:g} in the units of the scores as given{f' ({unit})' if unit else ''}"
        return f"{rope:g} ({where})"

    def metric_name(self, *, long: bool = False) -> str:
        """The metric's name ("score" when the scores carry none); ``long=True`` gives the card's long name."""
        name = cube_metric(self._raw) or "score"
        card = self.card
        if long and card is not None and card.long_name:
            return card.long_name
        return name

    def final_metrics(self, **overrides) -> dict:
        """The reported scores as a nested dict: dataset -> method -> list of seed values.

        After epoch selection, in the metric's own units; a cube without seeds gives one-element
        lists. A missing seed (or cell) stays NaN: nothing is dropped or filled, so
        ``mcda.score_cube(report.final_metrics(), metric=...)`` gives the same cube back.
        """
        if self.has_items:
            raise McdaArgumentError("report.final_metrics() lists the score of each run, and these scores are per item "
                                    "(an `item` dim); read report.item_means() (each cell's mean over its items) or "
                                    "report.across_cube (mcda.reduce_items) instead", argument="scores")
        cube = self._selected(overrides)
        out: dict = {}
        values = cube.transpose("dataset", "method", *(["seed"] if "seed" in cube.dims else [])).values
        for i, d in enumerate(cube.coords["dataset"].values):
            row = {}
            for j, m in enumerate(cube.coords["method"].values):
                cell = values[i, j]
                row[str(m)] = [float(v) for v in np.atleast_1d(cell)]
            out[str(d)] = row
        return out

    def missing_cells(self, **overrides) -> pd.DataFrame:
        """The (dataset, method) cells with no result after epoch selection (over items: no item at all)."""
        return missing_cells(self._across(overrides) if self.has_items else self._selected(overrides))

    # ------------------------------------------------------------------ caching

    def _cached(self, key_parts, compute):
        """The view's result, computed once per settings; its warnings are re-issued at the user's call."""
        try:
            key = ("_view",) + _frozen(key_parts)
        except TypeError:
            key = None
        if key is None or key not in self._cache:
            with _VIEW_LOCK, _this_threads_warnings() as caught:
                result = compute()
            entry = (result, tuple(caught))
            if key is None:
                self._rewarn(entry[1])
                return result
            self._cache[key] = entry
        result, caught = self._cache[key]
        self._rewarn(caught)
        return result

    @staticmethod
    def _rewarn(caught) -> None:
        for message, category in caught:
            warnings.warn(message, category, stacklevel=user_stacklevel())

    def _rng(self, value):
        return np.random.default_rng(value) if isinstance(value, numbers.Integral) else value

    def _requires_seeds(self, view: str):
        if "seed" not in self._selected().dims:
            raise McdaArgumentError(f"report.{view}() is a within-dataset view over seeds, and these scores have one "
                             "score per "
                             "(dataset, method) (no `seed` dim): it does not apply. The across-dataset views "
                             "(compare, superiority, bayesian, …) do.", argument=None)

    # ------------------------------------------------------------------ epochs

    def epoch_selection_support(self, **overrides):
        """Which datasets can have their epoch chosen on validation, and why not (:func:`epoch_selection_support`)."""
        s = self._resolve(overrides, ("split", "validation"))
        return epoch_selection_support(self._raw, split=s["split"], validation=s["validation"])

    def selected_epochs(self, **overrides) -> pd.DataFrame:
        """The epoch chosen per (dataset, method, seed) under the report's ``epoch_selection``."""
        s = self._resolve(overrides, _CUBE_SETTINGS)
        return selected_epochs(self._raw, selection=s["epoch_selection"], split=s["split"],
                               validation=_validation_for(s), strict=s["strict"])

    # ------------------------------------------------------------------ within a dataset

    def summary(self, **overrides):
        """Per (dataset, method) mean and interval over seeds (:func:`mcda.summary`)."""
        from mcda.stats.within.seeds import summary

        self._requires_seeds("summary")
        s = self._resolve(overrides, _CUBE_SETTINGS + ("ci_method", "confidence_level", "n_resamples", "rng"))
        # the report-wide n_resamples and rng feed the bootstrap only; given to this view with the t interval
        # they go through, and summary() refuses them rather than ignore them
        draws = {name: (self._rng(s[name]) if name == "rng" else s[name]) for name in ("n_resamples", "rng")
                 if s["ci_method"] == "bootstrap" or name in overrides}
        return self._cached(("summary", s), lambda: summary(
            self._selected(s), ci_method=s["ci_method"], confidence_level=s["confidence_level"], **draws))

    def pairwise(self, *, control: str | None = None, **overrides):
        """Paired tests over seeds within each dataset, Holm per dataset (:func:`mcda.paired_tests`).

        Every pair by default; with ``control`` (a method, e.g. the report's own ``control``)
        only the pairs (control, other), Holm over those k − 1 comparisons per dataset.
        """
        from mcda.stats.within.seeds import paired_tests

        self._requires_seeds("pairwise")
        s = self._resolve(overrides, _CUBE_SETTINGS + ("pairwise_method", "alpha", "paired"))
        return self._cached(("pairwise", control, s), lambda: paired_tests(
            self._selected(s), method=s["pairwise_method"], alpha=s["alpha"], paired=s["paired"], control=control))

    def equivalence(self, **overrides):
        """TOST equivalence over seeds within each dataset, the rope as margin (:func:`mcda.equivalence`)."""
        from mcda.stats.within.seeds import equivalence

        self._requires_seeds("equivalence")
        s = self._resolve(overrides, _CUBE_SETTINGS + ("rope", "alpha"))
        return self._cached(("equivalence", s), lambda: equivalence(
            self._selected(s), margin=self.rope_value(rope=s["rope"]), alpha=s["alpha"]))

    def power(self, **overrides):
        """Power and minimum detectable effect of the paired t test at this many seeds (:func:`mcda.power`)."""
        from mcda.stats.within.seeds import power

        self._requires_seeds("power")
        s = self._resolve(overrides, _CUBE_SETTINGS + ("alpha",))
        return self._cached(("power", s), lambda: power(self._selected(s), alpha=s["alpha"]))

    def almost_stochastic_order(self, **overrides):
        """ε_min of every ordered pair's seed distributions per dataset, Bonferroni over a dataset's pairs
        (:func:`mcda.almost_stochastic_order`, with the report's ``confidence_level``, ``n_resamples`` and ``rng``)."""
        from mcda.stats.within.aso import almost_stochastic_order

        self._requires_seeds("almost_stochastic_order")
        s = self._resolve(overrides, _CUBE_SETTINGS + ("confidence_level", "n_resamples", "rng"))
        return self._cached(("almost_stochastic_order", s), lambda: almost_stochastic_order(
            self._selected(s), confidence_level=s["confidence_level"], n_resamples=s["n_resamples"],
            rng=self._rng(s["rng"])))

    def _seed_distribution_lines(self, max_pairs: int) -> list[str]:
        """The overview's lines on the almost stochastic order (none unless ``seed_distributions``)."""
        if not self.seed_distributions:
            return []
        from mcda.present.writeup import dominance_claims

        result = self.almost_stochastic_order()
        table = result.to_frame()
        untested = int(table["epsilon_min"].isna().sum())
        claims = dominance_claims(result)
        lines = [f"almost stochastic order of the seed distributions ({result.confidence_level * 100:g}% bound, "
                 f"Bonferroni over the pairs of each dataset, {result.n_resamples} resamples; report."
                 f"almost_stochastic_order()): {len(claims)} of {len(table) - untested} ordered (dataset, pair) "
                 f"comparisons with epsilon_min < {result.threshold:g}"
                 + (f"; {untested} without a bound (see the reason column)" if untested else "")]
        lines += [f"  {dataset}: {a} {verb} {b} (epsilon_min {eps:.3g})"
                  for dataset, a, b, eps, verb in claims[:max_pairs]]
        if len(claims) > max_pairs:
            lines.append(f"  … and {len(claims) - max_pairs} more")
        return lines

    # ------------------------------------------------------------------ across datasets, from the seeds

    def replicability(self, *, method: str = "bonferroni", **overrides):
        """On how many datasets each method beats each other (:func:`mcda.replicability`): one-sided tests over
        seeds per dataset (the report's ``pairwise_method`` when its p-value has a side: "t", "wilcoxon" or a
        corrected t over folds; after a 5×2cv test the corrected repeated k-fold t, else the paired t; their
        unpaired forms when the report's ``paired`` is False), partial conjunction counts with Holm over the
        claims at the report's ``alpha``."""
        from mcda.stats.procedures import one_sided_over_seeds
        from mcda.stats.replicability import replicability

        self._requires_seeds("replicability")
        s = self._resolve(overrides, _CUBE_SETTINGS + ("pairwise_method", "alpha", "paired"))
        test = s["pairwise_method"]
        if test not in one_sided_over_seeds():   # the folds stay folds: a 5×2cv report reads the corrected t
            test = "corrected-repeated-cv-t" if test in names("seeds-cv") else "t"
        return self._cached(("replicability", method, s), lambda: replicability(
            self._selected(s), method=method, test=test, alpha=s["alpha"], paired=s["paired"]))

    def meta_analysis(self, *, method: str = "reml", **overrides):
        """Random-effects meta-analysis of every pair's per-dataset mean difference over seeds
        (:func:`mcda.meta_analysis`) at the report's ``confidence_level``, seeds paired as the report's
        ``paired`` says."""
        from mcda.stats.meta_analysis import meta_analysis

        self._requires_seeds("meta_analysis")
        s = self._resolve(overrides, _CUBE_SETTINGS + ("confidence_level", "paired"))
        return self._cached(("meta_analysis", method, s), lambda: meta_analysis(
            self._selected(s), method=method, confidence_level=s["confidence_level"], paired=s["paired"]))

    def plot_replicability(self, **kwargs):
        """:func:`mcda.plots.plot_replicability` of :meth:`replicability` (settings and the figure's keywords)."""
        settings, rest = self._split(kwargs)
        return self._plot("plot_replicability", self.replicability(**settings), rest)

    def plot_meta_forest(self, pair=None, **kwargs):
        """The forest plot of :meth:`meta_analysis` for one pair (default: its first)."""
        settings, rest = self._split(kwargs)
        return self._plot("plot_meta_forest", self.meta_analysis(**settings), {"pair": pair, **rest})

    def _replication_text(self, max_pairs: int) -> list[str]:
        """The overview's lines on replicability and the meta-analysis, generated from their results."""
        from mcda._core.results import p_text

        if not self.has_seeds:
            return ["do not apply: replicability and the meta-analysis read the per-dataset tests over seeds, and "
                    "these scores have one score per (dataset, method)."]
        rep = self.replicability()
        claims = rep.to_frame()
        supported = claims[claims["n_replicated"] > 0].sort_values("n_replicated", ascending=False, kind="stable")
        lines = [f"replicability ({display_name(rep.method)}, one-sided {display_name(rep.test)} tests over seeds, "
                 f"{display_name(rep.adjust)} over {rep.n_comparisons} claims, alpha {rep.alpha:g}): "
                 f"{len(supported)} of {len(claims)} claims 'a beats b' hold on at least one dataset "
                 "(report.replicability())"]
        for r in supported.head(max_pairs).itertuples(index=False):
            named = f"; named: {r.identified}" if r.n_identified <= 6 else f"; {r.n_identified} named"
            lines.append(f"  {r.method_a} beats {r.method_b} on at least {r.n_replicated} of {r.n_datasets} "
                         f"datasets{named}")
        if len(supported) > max_pairs:
            lines.append(f"  … and {len(supported) - max_pairs} more")
        meta = self.meta_analysis()
        pairs = meta.to_frame()
        level = f"{meta.confidence_level * 100:g}%"
        lines.append(f"random-effects meta-analysis ({display_name(meta.method)} tau^2; mean_diff = a - b, {level} "
                     "intervals; report.meta_analysis(), report.plot_meta_forest()):")
        for r in pairs.head(max_pairs).itertuples(index=False):
            if not np.isfinite(r.standard_error):
                lines.append(f"  {r.method_a} vs {r.method_b}: {r.reason}")
                continue
            new = (f"; on a new dataset [{r.prediction_low:.4g}, {r.prediction_high:.4g}]"
                   if np.isfinite(r.prediction_low) else "")
            lines.append(f"  {r.method_a} vs {r.method_b}: {r.mean_diff:.4g} [{r.ci_low:.4g}, {r.ci_high:.4g}] "
                         f"({p_text(r.p_raw)}), tau^2 {r.tau2:.3g}, I^2 {r.i2:.0%}{new}")
        if len(pairs) > max_pairs:
            lines.append(f"  … and {len(pairs) - max_pairs} more pairs")
        return lines

    # ------------------------------------------------------------------ across datasets

    def friedman(self, **overrides):
        """Friedman's omnibus with the Iman–Davenport F over datasets (:func:`mcda.friedman_test`)."""
        from mcda.stats.across.friedman import friedman_test

        s = self._resolve(overrides, _CUBE_SETTINGS + ("seed_reduction", "alpha", "missing"))
        return self._cached(("friedman", s), lambda: friedman_test(self._across(s), alpha=s["alpha"],
                                                                   missing=s["missing"]))

    def compare(self, **overrides):
        """Across datasets: ranks, Friedman, a post-hoc only if it rejects (:func:`mcda.compare_over_datasets`)."""
        from mcda.stats.across.compare import compare_over_datasets

        s = self._resolve(overrides, _CUBE_SETTINGS + ("seed_reduction", "alpha", "test", "control", "missing"))
        return self._cached(("compare", s), lambda: compare_over_datasets(
            self._across(s), test=s["test"], control=s["control"], alpha=s["alpha"], missing=s["missing"]))

    def mean_ranks(self, *, aggregation: str = "uniform", groups=None, weights=None, **overrides):
        """Mean ranks across datasets, uniform or weighted (:func:`mcda.mean_ranks`).

        ``aggregation="reliability"`` needs seeds: it reads the per-seed cube (after epoch
        selection); every other aggregation ranks the seed-reduced cube.
        """
        from mcda.stats._shared.ranks import mean_ranks

        s = self._resolve(overrides, _CUBE_SETTINGS + ("seed_reduction", "missing"))
        cube = self._selected(s) if aggregation == "reliability" else self._across(s)
        return self._cached(("mean_ranks", s, aggregation, groups, weights), lambda: mean_ranks(
            cube, aggregation=aggregation, groups=groups, weights=weights, missing=s["missing"]))

    def rank_table(self, **overrides) -> pd.DataFrame:
        """Ranks within each dataset, datasets × methods (:func:`mcda.rank_table`)."""
        from mcda.stats._shared.ranks import rank_table

        s = self._resolve(overrides, _CUBE_SETTINGS + ("seed_reduction", "missing"))
        return self._cached(("rank_table", s), lambda: rank_table(self._across(s), missing=s["missing"]))

    def rank_stability(self, *, aggregation: str = "uniform", groups=None, weights=None, **overrides):
        """Bootstrap and jackknife over datasets of the mean ranks (:func:`mcda.rank_stability`)."""
        from mcda.stats._shared.ranks import rank_stability

        s = self._resolve(overrides, _CUBE_SETTINGS + ("seed_reduction", "n_resamples", "confidence_level", "rng",
                                                       "missing"))
        cube = self._selected(s) if aggregation == "reliability" else self._across(s)
        # the bootstrap of mean ranks needs one pool per dataset: "available" falls back to dropping methods
        policy = "methods" if s["missing"] == "available" else s["missing"]
        return self._cached(("rank_stability", s, aggregation, groups, weights), lambda: rank_stability(
            cube, n_resamples=s["n_resamples"], aggregation=aggregation, groups=groups, weights=weights,
            confidence_level=s["confidence_level"], rng=self._rng(s["rng"]), missing=policy))

    def empty_datasets(self) -> list:
        """The datasets on which no method has a result: every view leaves them out (and names them)."""
        missing = self.cube.isnull()
        other = [d for d in missing.dims if d not in ("dataset",)]
        empty = missing.all(other).values
        return self.cube.coords["dataset"].values[empty].tolist()

    def rank_sets(self, *, estimate: str = "mean_rank", simultaneous: bool = True, **overrides):
        """Confidence sets for each method's rank across datasets and the set that may hold the best
        (:func:`mcda.rank_confidence_sets`) at the report's ``confidence_level`` and ``rng``, on the seed-reduced
        cube; ``missing="available"`` falls back to dropping the incomplete methods (the covariance of the
        estimates needs the same datasets for every method)."""
        from mcda.stats.rank_sets import rank_confidence_sets

        s = self._resolve(overrides, _CUBE_SETTINGS + ("seed_reduction", "confidence_level", "rng", "missing"))
        policy = "methods" if s["missing"] == "available" else s["missing"]
        return self._cached(("rank_sets", s, estimate, simultaneous), lambda: rank_confidence_sets(
            without_empty_datasets(self._across(s)), estimate=estimate, simultaneous=simultaneous,
            confidence_level=s["confidence_level"], rng=self._rng(s["rng"]), missing=policy))

    def rank_sets_not_applicable(self, **overrides) -> str:
        """Why :meth:`rank_sets` cannot run on these scores ("" when it can): it needs 2 methods with a result on
        2 common datasets, to estimate the covariance of their mean ranks."""
        s = self._resolve(overrides, _CUBE_SETTINGS + ("seed_reduction", "missing"))
        present = without_empty_datasets(self._across(s)).notnull().transpose("dataset", "method").values
        if s["missing"] == "datasets":
            n_datasets, n_methods = int(present.all(axis=1).sum()), present.shape[1]
        else:
            n_datasets, n_methods = present.shape[0], int(present.all(axis=0).sum())
        if n_datasets >= 2 and n_methods >= 2:
            return ""
        return (f"they estimate the covariance of the methods' mean ranks over the datasets, which needs 2 methods "
                f"with results on 2 common datasets; there are {n_methods} method(s) on {n_datasets} dataset(s) "
                f"({'missing=datasets' if s['missing'] == 'datasets' else 'incomplete methods dropped'})")

    def plot_rank_sets(self, **kwargs):
        """:func:`mcda.plots.plot_rank_sets` of :meth:`rank_sets` (keywords of both)."""
        return self._figure("plot_rank_sets", self.rank_sets, kwargs)

    def _rank_sets_text(self, max_pairs: int) -> list[str]:
        """The overview's lines on the rank confidence sets, from the result."""
        why_not = self.rank_sets_not_applicable()
        if why_not:
            return [f"do not apply: {why_not}"]
        from mcda.stats.rank_sets import ESTIMATE_WORDS

        result = self.rank_sets()
        level = f"{result.confidence_level * 100:g}%"
        frame = result.to_frame()
        lines = [f"{level} {'simultaneous' if result.simultaneous else 'marginal'} confidence sets for the ranks, "
                 f"from each method's {result.what} ({result.n_resamples} parametric-bootstrap draws, "
                 f"{'stepwise' if result.stepdown else 'single step'}; report.rank_sets(), report.plot_rank_sets())",
                 f"may be the best: {shown(result.best_set, max_pairs, fmt=str)} ({len(result.best_set)} of "
                 f"{result.n_methods}); places that are certain: {result.n_certain} of {result.n_methods}"]
        for row in frame.head(max_pairs).itertuples(index=False):
            places = f"{row.rank_low}-{row.rank_high}" if row.rank_low < row.rank_high else f"{row.rank_low}"
            lines.append(f"  {row.method}: rank {row.rank}, set {places} ({ESTIMATE_WORDS[result.estimate]} "
                         f"{row.estimate:.4g})")
        if len(frame) > max_pairs:
            lines.append(f"  … and {len(frame) - max_pairs} more")
        if result.excluded:
            lines.append(f"  left out (missing results): {shown(list(result.excluded), fmt=str)}")
        return lines

    def compare_not_applicable(self, **overrides) -> str:
        """Why :meth:`compare` cannot run on these scores ("" when it can).

        The across-dataset procedure ranks the methods with a result on every dataset; with
        fewer than 2 of them there is nothing to rank (the pairwise views still apply).
        """
        s = self._resolve(overrides, _CUBE_SETTINGS + ("seed_reduction", "missing"))
        cube = without_empty_datasets(self._across(s))  # one rule: datasets without any result are left out
        present = cube.notnull().transpose("dataset", "method").values
        if s["missing"] == "available":
            if (present.sum(axis=1) >= 2).any():
                return ""
            return "no dataset has results for 2 methods, so there is nothing to rank"
        if s["missing"] == "datasets":
            n_full = int(present[present.any(axis=1)].all(axis=1).sum())
            if n_full >= 1:
                return ""
            return ("it ranks the datasets on which every method has a result (missing='datasets'; on the command "
                    "line --missing datasets), and there are none; try missing='methods' or 'available' (--missing "
                    "methods or available). The pairwise views below use the datasets each pair shares.")
        complete = [str(m) for m, ok in zip(cube.coords["method"].values,
                                            (~cube.isnull().any("dataset")).values) if ok]
        if len(complete) >= 2:
            return ""
        incomplete = [m for m in self.methods if m not in complete]
        return (f"it ranks the methods with a result on every dataset, and only {len(complete)} "
                f"({', '.join(complete) or 'none'}) of {len(self.methods)} have one; the others lack results "
                f"({', '.join(incomplete)}). Drop the incomplete datasets instead (missing='datasets'; on the command "
                "line --missing datasets) or test the incomplete design as it is (missing='available'; --missing "
                "available). The pairwise views below use the datasets each pair shares.")

    def superiority(self, **overrides):
        """Probability of superiority with an exact sign test per pair (:func:`mcda.pairwise_superiority`)."""
        from mcda.stats.pairwise import pairwise_superiority

        s = self._resolve(overrides, _CUBE_SETTINGS + ("seed_reduction", "rope", "alpha", "adjust"))
        return self._cached(("superiority", s), lambda: pairwise_superiority(
            self._across(s), rope=s["rope"], alpha=s["alpha"], adjust=s["adjust"]))

    def transitivity(self, **overrides):
        """Is the pairwise-majority relation a single order? (:func:`mcda.pairwise_transitivity`)."""
        from mcda.stats.pairwise import pairwise_transitivity

        return pairwise_transitivity(self.superiority(**overrides))

    def bayesian(self, *, method: str = "exact", threshold: float = 0.95, n_samples: int = 50_000, **overrides):
        """The Bayesian sign test for every pair (:func:`mcda.bayesian_sign_comparison`).

        ``method="exact"`` (default) integrates the posterior; ``"sampling"`` draws from the
        report's ``rng``. No draws are kept: the text, the bars and the letters read the
        probabilities, and :meth:`plot_posterior` samples the one pair it draws.
        """
        from mcda.stats.bayesian.sign import bayesian_sign_comparison

        s = self._resolve(overrides, _CUBE_SETTINGS + ("seed_reduction", "rope", "rng"))
        return self._cached(("bayesian", s, method, threshold, n_samples), lambda: bayesian_sign_comparison(
            self._across(s), rope=s["rope"], threshold=threshold, method=method, n_samples=n_samples,
            rng=self._rng(s["rng"]) if method == "sampling" else None, keep_draws=False))

    def hierarchical(self, *, runs=None, rho=None, threshold: float = 0.95, n_samples: int = 10_000,
                     **overrides):
        """The hierarchical model on the folds (seeds) for every pair (:func:`mcda.hierarchical_comparison`).

        Needs per-fold scores along ``seed`` and the cross-validation design: ``runs`` (or
        ``rho``), or the cube's ``attrs["cv_runs"]``. Sampled from the report's ``rng``.
        """
        from mcda.stats.bayesian.hierarchical import hierarchical_comparison

        if "seed" not in self._selected().dims:
            raise McdaArgumentError("report.hierarchical() models the per-fold scores of cross-validation (a `seed` dim "
                             "of folds), and these scores have one score per (dataset, method): it does not "
                             "apply. report.bayesian() (the sign test) does.", argument=None)
        s = self._resolve(overrides, _CUBE_SETTINGS + ("rope", "confidence_level", "rng"))
        return self._cached(("hierarchical", s, runs, rho, threshold, n_samples), lambda: hierarchical_comparison(
            self._selected(s), rope=s["rope"], runs=runs, rho=rho, threshold=threshold,
            confidence_level=s["confidence_level"], n_samples=n_samples, rng=self._rng(s["rng"])))

    def plackett_luce(self, *, ties: str = "latent", n_samples: int | None = None, **overrides):
        """The Bayesian Plackett–Luce model of the per-dataset rankings (:func:`mcda.plackett_luce`).

        Seeds are reduced first (the report's ``seed_reduction``); sampled from its ``rng``.
        ``n_samples`` draws kept per chain (default: the report's ``plackett_luce_samples``),
        after ``max(500, n_samples // 4)`` discarded.
        """
        from mcda.stats.bayesian.plackett_luce import plackett_luce

        s = self._resolve(overrides, _CUBE_SETTINGS + ("seed_reduction", "confidence_level", "rng",
                                                       "plackett_luce_samples"))
        n_samples = s["plackett_luce_samples"] if n_samples is None else check_positive_int("n_samples", n_samples)

        def fit():
            cube = self._across(s)
            n = plackett_luce_draws(cube.sizes["method"]) if n_samples is None else n_samples
            return plackett_luce(cube, ties=ties, confidence_level=s["confidence_level"], n_samples=n,
                                 n_warmup=max(500, n // 4), rng=self._rng(s["rng"]))

        return self._cached(("plackett_luce", s, ties, n_samples), fit)

    def plackett_luce_skipped(self) -> str | None:
        """Why the overview, the write-up and ``mcda compare`` leave out the Plackett–Luce model (None: they include it).

        With the ``plackett_luce`` setting ``"auto"`` (default) the model is left out when its
        sampler's work, chains × sweeps × datasets × methods × (1 + methods / 2), exceeds
        :data:`PLACKETT_LUCE_BUDGET` (about seven seconds of one core): 50 methods on 60 datasets
        take about half a minute. :meth:`plackett_luce` computes it whenever called.
        """
        choice = self._settings["plackett_luce"]
        if choice == "always":
            return None
        if choice == "never":
            return "not computed: the report's `plackett_luce` setting is 'never'"
        k, n = len(self.methods), int(self._across().sizes["dataset"])
        draws = self._settings["plackett_luce_samples"] or plackett_luce_draws(k)
        sweeps = draws + max(500, draws // 4)
        work = _PLACKETT_LUCE_CHAINS * sweeps * n * k * (1 + k / 2)
        if work <= PLACKETT_LUCE_BUDGET:
            return None
        return (f"not computed: {_PLACKETT_LUCE_CHAINS} chains × {sweeps:,} sweeps over {n:,} datasets × {k} methods "
                f"is about {_duration(work * _PLACKETT_LUCE_SECONDS_PER_UNIT)} of one core, over the report's budget of {PLACKETT_LUCE_BUDGET:.0e} "
                "such steps (about seven seconds); the mean ranks and the rank stability cover the ranking. Compute it "
                "with report.plackett_luce() or Report(..., plackett_luce='always') (command line: "
                "--plackett-luce always)")

    def _design_power_not_applicable(self, overrides: dict) -> str:
        """Why :meth:`design_power` cannot simulate the report's across-dataset procedure ("" when it can)."""
        from mcda.stats.across.power import TESTS

        why = self.compare_not_applicable(**overrides)
        if why:
            return why
        s = self._resolve(overrides, ("test", "control"))
        if s["control"] is not None:
            return (f"the simulation covers the procedures over all pairs, and this report compares every method "
                    f"with the control {s['control']}")
        if s["test"] not in TESTS:
            ranked = [t for t in TESTS if PROCEDURES[t].family == "posthoc"]
            return (f"the simulation covers Friedman followed by {' or '.join(display_name(t) for t in ranked)}, "
                    f"not {display_name(s['test'])}")
        comparison = self.compare(**overrides)
        if comparison.design != "complete":
            return f"the simulation draws complete designs, and these scores form a {comparison.design} design"
        n = int(self._design_power_cube(overrides).sizes["dataset"])
        if n < 2:
            return f"the simulation estimates the noise from at least 2 datasets, and the test ranks {n}"
        return ""

    def _design_power_cube(self, overrides: dict) -> xr.DataArray:
        """The scores :meth:`compare` tested: its methods on the datasets where each of them has a result."""
        comparison = self.compare(**overrides)
        cube = self._across(overrides).mcda.sel(method=list(comparison.mean_ranks.index))
        return cube.isel(dataset=np.flatnonzero(cube.notnull().all("method").values))

    def design_power(self, **overrides):
        """What the report's across-dataset procedure could have detected on this design (:func:`mcda.design_power`).

        Simulated from the scores :meth:`compare` tested (its methods, on the datasets where all of
        them have a result; seeds reduced by the report's ``seed_reduction``), with the report's
        ``test``, ``alpha`` and rope, :data:`DESIGN_POWER_RESAMPLES` simulated benchmarks per
        evaluation and the report's ``rng``; the datasets a target power needs are not searched.

        Raises
        ------
        McdaArgumentError
            When the simulation does not apply (a control, a post-hoc it does not simulate, an
            incomplete design, fewer than 2 datasets): the message says which.
        """
        from mcda.stats.across.power import design_power

        s = self._resolve(overrides, _CUBE_SETTINGS + ("seed_reduction", "alpha", "test", "control", "missing",
                                                       "rope", "rng"))
        why = self._design_power_not_applicable(overrides)
        if why:
            raise McdaArgumentError(f"the design power does not apply to this report: {why}", argument="test",
                                    value=s["test"])
        return self._cached(("design_power", s), lambda: design_power(
            self._design_power_cube(overrides), tests=(s["test"],), alpha=s["alpha"], rope=self.rope_value(**overrides),
            n_resamples=DESIGN_POWER_RESAMPLES, max_datasets=None, rng=self._rng(s["rng"])))

    def design_power_skipped(self) -> str | None:
        """Why the overview, the write-up and ``mcda compare`` do not say what the design could detect (None: they do).

        It does not apply with a control, a post-hoc the simulation does not cover or an
        incomplete design; with the ``design_power`` setting ``"auto"`` (default) it is left out when
        the simulation's work, simulated benchmarks × datasets × methods, exceeds
        :data:`DESIGN_POWER_BUDGET` (about ten seconds of one core). :meth:`design_power` computes
        it whenever it applies.
        """
        why = self._design_power_not_applicable({})
        if why:
            return f"does not apply: {why}"
        choice = self._settings["design_power"]
        if choice == "always":
            return None
        if choice == "never":
            return "not computed: the report's `design_power` setting is 'never'"
        cube = self._design_power_cube({})
        n, k = int(cube.sizes["dataset"]), int(cube.sizes["method"])
        work = DESIGN_POWER_RESAMPLES * n * k
        if work <= DESIGN_POWER_BUDGET:
            return None
        return (f"not computed: {DESIGN_POWER_RESAMPLES} simulated benchmarks of {n:,} datasets × {k} methods per "
                f"evaluation is about {_duration(work * _DESIGN_POWER_SECONDS_PER_UNIT)} of one core, over the report's "
                f"budget of {DESIGN_POWER_BUDGET:.0e} such units. Compute it with report.design_power() or "
                "Report(..., design_power='always') (command line: --design-power always)")

    @property
    def has_criteria(self) -> bool:
        """Whether the scores hold several metrics (then :meth:`smaa` weighs them together)."""
        return self._criteria is not None

    @property
    def criteria(self) -> xr.DataArray | None:
        """The cube of every metric the scores hold (None with one metric)."""
        return self._criteria

    def smaa(self, *, n_draws: int = 10_000, weights=None, **overrides):
        """SMAA-2 over every metric of the scores (:func:`mcda.smaa`), the seeds reduced as the report
        reduces them (``seed_reduction``) and the datasets bootstrapped; the report's ``rng``."""
        from mcda.stats.smaa import smaa

        if self._criteria is None:
            raise McdaArgumentError("SMAA-2 weighs several metrics, and this report's scores hold one "
                                    f"({self.metric_name()}); give scores with a metric column or dim",
                                    argument="scores")
        s = self._resolve(overrides, ("seed_reduction", "rng"))

        def compute():
            cube = self._criteria
            if "seed" in cube.dims:
                cube = reduce_seeds(cube, how=s["seed_reduction"])
            return smaa(cube, weights=weights, n_draws=n_draws, rng=s["rng"])

        return self._cached(("smaa", n_draws, weights, s["seed_reduction"], s["rng"]), compute)

    def plot_rank_acceptability(self, **kwargs):
        """:func:`mcda.plots.plot_rank_acceptability` of :meth:`smaa` (keywords of both)."""
        return self._figure("plot_rank_acceptability", self.smaa, kwargs)

    def plot_central_weights(self, **kwargs):
        """:func:`mcda.plots.plot_central_weights` of :meth:`smaa` (keywords of both)."""
        return self._figure("plot_central_weights", self.smaa, kwargs)

    def gsd_front(self, *, ordinal=None, candidates=(), n_resamples: int = 200, contamination: float = 0.0,
                  **overrides):
        """The GSD-front over every metric of the scores (:func:`mcda.gsd_front`), the seeds reduced as the
        report reduces them (``seed_reduction``); the report's ``alpha`` and ``rng``. By default only the
        relation and the front (no method tested: each test solves ``n_resamples`` linear programs per
        competitor); ``candidates=None`` tests the front's members."""
        from mcda.stats.gsd import gsd_front

        if self._criteria is None:
            raise McdaArgumentError("the GSD-front compares methods on several metrics, and this report's scores "
                                    f"hold one ({self.metric_name()}); give scores with a metric column or dim",
                                    argument="scores")
        s = self._resolve(overrides, ("seed_reduction", "rng", "alpha"))
        ordinal_key = None if ordinal is None else tuple([ordinal] if isinstance(ordinal, str) else ordinal)
        candidates_key = None if candidates is None else tuple([candidates] if isinstance(candidates, str)
                                                               else candidates)

        def compute():
            cube = self._criteria
            if "seed" in cube.dims:
                cube = reduce_seeds(cube, how=s["seed_reduction"])
            return gsd_front(cube, ordinal=ordinal, candidates=None if candidates is None else list(candidates_key),
                             alpha=s["alpha"], n_resamples=n_resamples, contamination=contamination, rng=s["rng"])

        return self._cached(("gsd_front", ordinal_key, candidates_key, n_resamples, contamination,
                             s["seed_reduction"], s["rng"], s["alpha"]), compute)

    def gsd_front_skipped(self) -> str:
        """Why the overview and the write-up leave the GSD-front out ("" when they show it): one metric only,
        its relation estimated past :data:`GSD_REPORT_SECONDS` (each pair of methods is a linear program
        growing with the square of the datasets; :meth:`gsd_front` computes it anyway), or scores it does
        not apply to (the reason it gives)."""
        from mcda._core.options import format_seconds
        from mcda.stats.gsd import estimated_seconds

        if self._criteria is None:
            return "needs several metrics"
        k, n = self._criteria.sizes["method"], self._criteria.sizes["dataset"]
        seconds = estimated_seconds(k, n)
        if seconds > GSD_REPORT_SECONDS:
            return (f"not run by default: {k} methods on {n} datasets are {k * (k - 1):,} linear programs, about "
                    f"{format_seconds(seconds)} of one core (the report runs it up to {GSD_REPORT_SECONDS:g} s); "
                    "compute it with report.gsd_front()")
        try:
            self.gsd_front()
        except McdaArgumentError as exc:
            if exc.argument != "scores":
                raise
            return f"not run: {exc}"
        return ""

    def plot_gsd_front(self, **kwargs):
        """:func:`mcda.plots.plot_gsd_front` of :meth:`gsd_front` (keywords of both)."""
        return self._figure("plot_gsd_front", self.gsd_front, kwargs)

    def _gsd_text(self) -> str:
        """The GSD-front section of the overview: its summary, from the result, and how to test a method."""
        skipped = self.gsd_front_skipped()
        if skipped:
            return skipped
        result = self.gsd_front()
        text = result.summary()
        if not result.tested:
            text += ("\nwhether a method lies in the front of the population of datasets: "
                     "report.gsd_front(candidates=[...]) (the paper's permutation test, robustified with "
                     "contamination=)")
        return text

    def _smaa_text(self) -> str:
        """The SMAA-2 section of the overview: its summary, from the result."""
        return self.smaa().summary()

    def _plackett_luce_text(self) -> str:
        skipped = self.plackett_luce_skipped()
        if skipped:
            return skipped
        try:
            result = self.plackett_luce()
        except ComputeLimitError as exc:
            return _not_computed(exc, "fewer draws with the report's `plackett_luce_samples` setting",
                                 "--plackett-luce-samples N")
        except ValueError as exc:
            return f"not applicable: {exc}"
        frame = result.to_frame().set_index("method").loc[result.order]
        lines = [f"{result.n_rankings} rankings ({result.n_tied_rankings} with ties, order inside a tie sampled as "
                 "unknown); worth = P(ranked first on a new dataset)"]
        if result.reason:  # no rank probabilities to quote: say why first, then only the worths
            lines.append(f"note: P(best) and expected ranks not reported: {result.reason}")
        for m, r in frame.iterrows():
            lines.append(f"{m}: worth {r['worth']:.3f} [{r['worth_ci_low']:.3f}, {r['worth_ci_high']:.3f}]"
                         + ("" if result.reason else
                            f", P(best) {r['prob_best']:.3f}, expected rank {r['expected_rank']:.2f}"))
        return "\n".join(lines)

    def _hierarchical_text(self, max_pairs: int) -> str:
        try:
            result = self.hierarchical()
        except ComputeLimitError as exc:
            return _not_computed(exc, "fewer draws with report.hierarchical(n_samples=...) or a report on fewer "
                                      "methods", "a file with fewer methods")
        except ValueError as exc:
            return f"not applicable: {exc}"
        table = result.to_frame()
        lines = [f"rho {result.rho:g} ({result.runs} run(s) of cross-validation), rope {result.rope:g}, decision "
                 f"for the next dataset at P >= {result.threshold:g}"]
        for r in table.head(max_pairs).itertuples(index=False):
            verdict = {"a_better": f"{r.method_a} better", "b_better": f"{r.method_b} better",
                       "equivalent": "equivalent", "inconclusive": "inconclusive"}.get(r.label, "not labelled")
            lines.append(f"{r.method_a} vs {r.method_b}: P = {r.prob_a_better:.3f} / {r.prob_equivalent:.3f} / "
                         f"{r.prob_b_better:.3f} -> {verdict}; population a - b {r.population_diff:+.4f} "
                         f"[{r.population_ci_low:+.4f}, {r.population_ci_high:+.4f}]")
        if len(table) > max_pairs:
            lines.append(f"… and {len(table) - max_pairs} more pairs")
        lines += [f"note: {r.method_a} vs {r.method_b}: {r.reason}" for r in table.itertuples() if r.reason]
        return "\n".join(lines)

    def bayesian_signed_rank(self, *, threshold: float = 0.95, n_samples: int = 50_000, **overrides):
        """The Bayesian signed-rank test for every pair (:func:`mcda.bayesian_signed_rank_comparison`).

        Sampled from the report's ``rng`` (the test has no closed form), so its text and bars read
        the same probabilities. No draws are kept (the report draws no figure from them), so its
        memory does not grow with the number of pairs.
        """
        from mcda.stats.bayesian.signed_rank import bayesian_signed_rank_comparison

        s = self._resolve(overrides, _CUBE_SETTINGS + ("seed_reduction", "rope", "rng"))
        return self._cached(("bayesian_signed_rank", s, threshold, n_samples), lambda: bayesian_signed_rank_comparison(
            self._across(s), rope=s["rope"], threshold=threshold, n_samples=n_samples, rng=self._rng(s["rng"]),
            keep_draws=False))

    def signed_rank_skipped(self, n_samples: int = 50_000) -> str | None:
        """Why the overview, the write-up and ``mcda compare`` leave out the Bayesian signed-rank test (None: they include it).

        With the ``signed_rank`` setting ``"auto"`` (default) the test is left out when its sampler's
        work, pairs × ``n_samples`` draws × datasets, exceeds :data:`SIGNED_RANK_BUDGET` (about ten
        seconds of one core): each draw weighs every dataset of a pair, so 30 methods on
        20,000 datasets take hours. :meth:`bayesian_signed_rank` computes it whenever called.
        """
        choice = self._settings["signed_rank"]
        if choice == "always":
            return None
        if choice == "never":
            return "not computed: the report's `signed_rank` setting is 'never'"
        k, n = len(self.methods), int(self._across().sizes["dataset"])
        pairs = k * (k - 1) // 2
        work = pairs * int(n_samples) * n
        if work <= SIGNED_RANK_BUDGET:
            return None
        return (f"not computed: {pairs:,} pairs × {int(n_samples):,} posterior draws × {n:,} datasets is about "
                f"{_duration(work * _SIGNED_RANK_SECONDS_PER_UNIT)} of one core (each draw weighs every dataset of a pair), over the report's "
                f"budget of {SIGNED_RANK_BUDGET:.0e} such steps; the Bayesian sign test covers every pair. Compute it "
                "with report.bayesian_signed_rank() or Report(..., signed_rank='always') (command line: "
                "--signed-rank always)")

    # ------------------------------------------------------------------ figures

    def _split(self, kwargs: dict) -> tuple[dict, dict]:
        settings = {k: v for k, v in kwargs.items() if k in _DEFAULTS}
        rest = {k: v for k, v in kwargs.items() if k not in _DEFAULTS}
        return settings, rest

    def _plot(self, name: str, result, plot_kwargs):
        from mcda.present import plots

        return getattr(plots, name)(result, **plot_kwargs)

    def _figure(self, name: str, analysis, kwargs: dict):
        """``plots.<name>`` of ``analysis(**settings)``: the report settings in ``kwargs`` go to the analysis,
        the rest to the plot."""
        settings, rest = self._split(kwargs)
        return self._plot(name, analysis(**settings), rest)

    def plot_critical_difference(self, **kwargs):
        """Demšar's critical-difference diagram of :meth:`compare` (settings as keywords, the rest to the plot)."""
        return self._figure("plot_critical_difference", self.compare, kwargs)

    def plot_forest(self, **kwargs):
        """Means and intervals of :meth:`summary` per dataset and method."""
        return self._figure("plot_forest", self.summary, kwargs)

    def plot_pairwise(self, **kwargs):
        """The paired tests of :meth:`pairwise`."""
        return self._figure("plot_pairwise", self.pairwise, kwargs)

    def plot_superiority(self, **kwargs):
        """Probability of superiority of :meth:`superiority`."""
        return self._figure("plot_superiority", self.superiority, kwargs)

    def plot_relation(self, **kwargs):
        """The pairwise-majority relation of :meth:`transitivity`, circular triads highlighted."""
        return self._figure("plot_relation", self.transitivity, kwargs)

    def plot_posterior(self, pair, **kwargs):
        """The posterior of one pair on the simplex (sampled from the report's ``rng``).

        Only that pair is sampled, and only its draws are kept: the posterior of a pair depends
        on its two methods alone, so drawing one simplex costs the same at 5 or 200 methods.
        """
        settings, rest = self._split(kwargs)
        n_samples = rest.pop("n_samples", 50_000)
        result, pair = self._posterior_pair(pair, settings, n_samples)
        rest.setdefault("probabilities", self.bayesian(**settings))  # the corners quote the text's exact P
        from mcda.present import plots

        return plots.plot_posterior(result, pair, **rest)

    def _posterior_pair(self, pair, settings: dict, n_samples: int = 50_000):
        """(the sampled posterior of one pair, the pair as text): what :meth:`plot_posterior` draws, cached."""
        from mcda.stats.bayesian.sign import bayesian_sign_comparison

        s = self._resolve(settings, _CUBE_SETTINGS + ("seed_reduction", "rope", "rng"))
        cube = self._across(s)
        methods = [str(m) for m in cube.coords["method"].values]
        if isinstance(pair, (str, bytes)) or len(tuple(pair)) != 2 or any(str(m) not in methods for m in pair):
            raise McdaArgumentError(f"`pair` must name two methods of the report ({shown(methods)}); got {pair!r}",
                                    argument="pair", value=pair)
        pair = (str(pair[0]), str(pair[1]))
        positions = [methods.index(pair[0]), methods.index(pair[1])]
        result = self._cached(("posterior_pair", s, pair, n_samples), lambda: bayesian_sign_comparison(
            cube.isel(method=positions), rope=s["rope"], method="sampling", n_samples=n_samples,
            rng=self._rng(s["rng"]), keep_draws=[pair]))
        return result, pair

    def plot_signed_rank_bars(self, **kwargs):
        """The three posterior probabilities of every pair of :meth:`bayesian_signed_rank` as stacked bars."""
        settings, rest = self._split(kwargs)
        threshold = rest.pop("threshold", 0.95)
        return self._plot("plot_posterior_bars", self.bayesian_signed_rank(threshold=threshold, **settings), rest)

    def plot_posterior_bars(self, **kwargs):
        """The three posterior probabilities of every pair of :meth:`bayesian` as stacked bars."""
        settings, rest = self._split(kwargs)
        threshold = rest.pop("threshold", 0.95)
        return self._plot("plot_posterior_bars", self.bayesian(threshold=threshold, **settings), rest)

    def plot_shrinkage(self, pair, **kwargs):
        """Raw vs shrunk per-dataset differences of one pair under :meth:`hierarchical`."""
        settings, rest = self._split(kwargs)
        model = {k: rest.pop(k) for k in ("runs", "rho", "threshold", "n_samples") if k in rest}
        from mcda.present import plots

        return plots.plot_shrinkage(self.hierarchical(**model, **settings), pair, **rest)

    def plot_rank_distribution(self, **kwargs):
        """P(best) and the rank distribution per method of :meth:`plackett_luce`."""
        settings, rest = self._split(kwargs)
        model = {k: rest.pop(k) for k in ("ties", "n_samples") if k in rest}
        return self._plot("plot_rank_distribution", self.plackett_luce(**model, **settings), rest)

    def plot_rank_stability(self, **kwargs):
        """P(position = r) and mean-rank intervals of :meth:`rank_stability`."""
        return self._figure("plot_rank_stability", self.rank_stability, kwargs)

    def plot_learning_curves(self, **kwargs):
        """Learning curves of the raw cube (needs an ``epoch`` dim): the reported split, the report's level."""
        if "epoch" not in self._raw.dims:
            raise McdaArgumentError("plot_learning_curves needs scores with an `epoch` dim; these have none",
                                    argument=None)
        settings, rest = self._split(kwargs)
        if "split" in self._raw.dims:
            rest.setdefault("split", self._resolve(settings, ("split",))["split"])  # the reported split
        rest.setdefault("confidence_level", self._resolve(settings, ("confidence_level",))["confidence_level"])
        computed = {k: rest.pop(k) for k in ("confidence_level", "split", "metric") if k in rest}
        curves = self._cached(("learning_curves", computed), lambda: learning_curves(self._raw, **computed))
        return self._plot("plot_learning_curves", curves, rest)

    # ------------------------------------------------------------------ exports

    def to_latex(self, path=None, *, confidence_level: float | None = None, bold_best: bool = True, digits: int = 3,
                 caption: str | None = None, label: str | None = None, order=None, **overrides) -> str:
        """A booktabs table, datasets × methods, mean and interval per cell (:func:`mcda.export.scores_to_latex`).

        ``confidence_level`` defaults to the report's; the interval is the report's
        ``ci_method``; ``order`` orders the methods (default: the report's).
        """
        from mcda.present.latex import scores_to_latex

        if confidence_level is not None:
            overrides = overrides | {"confidence_level": confidence_level}
        source = (self.summary(**overrides) if self.has_seeds else
                  self._across(overrides) if self.has_items else self._selected(overrides))
        return scores_to_latex(source, path, bold_best=bold_best, digits=digits, caption=caption, label=label,
                               direction=self.direction, metric=self.metric_name(long=True),
                               scale=self._raw.attrs.get("scale") or None, order=order)

    def pairwise_to_latex(self, path=None, *, method: str | None = None, digits: int = 3, caption: str | None = None,
                          label: str | None = None, control: str | None = None, **overrides) -> str:
        """Paired tests within each dataset, Holm-adjusted, with markers (:func:`mcda.export.pairwise_to_latex`).

        ``method`` is the paired test ("t" or "wilcoxon"; default the report's ``pairwise_method``);
        ``control`` gives the "control vs each other method" table (Holm over the k − 1 per dataset).
        """
        from mcda.present.latex import pairwise_to_latex

        if method is not None:
            overrides = overrides | {"pairwise_method": method}
        return pairwise_to_latex(self.pairwise(control=control, **overrides), path, digits=digits, caption=caption,
                                 label=label)

    def comparison_to_latex(self, path=None, *, caption: str | None = None, label: str | None = None,
                            **overrides) -> str:
        """Mean ranks and the post-hoc decisions of :meth:`compare` (:func:`mcda.export.comparison_to_latex`)."""
        from mcda.present.latex import comparison_to_latex

        return comparison_to_latex(self.compare(**overrides), path, caption=caption, label=label)

    # ------------------------------------------------------------------ persistence

    def _bundle(self) -> dict:
        return {"format": REPORT_FORMAT, "version": REPORT_VERSION, "mcda_version": __version__,
                "settings": self.settings, "cube": json.loads(_cube_to_json(self._raw))}

    def to_json(self, path=None) -> str:
        """A readable, versioned JSON of the raw cube (per seed, per epoch) and the settings.

        Nothing computed is stored: :meth:`from_json` rebuilds the report, and every view
        of it equals this report's exactly (the cube's floats are written in their shortest
        round-trip form and the ``rng`` is stored). Returns the text, written to ``path`` if given.
        """
        text = json.dumps(self._bundle(), indent=1, allow_nan=False)
        if path is not None:
            Path(path).write_text(text, encoding="utf-8")
        return text

    @classmethod
    def from_json(cls, source) -> Report:
        """Read a report bundle written by :meth:`to_json` (a path or the JSON text)."""
        if isinstance(source, Path) or (isinstance(source, str) and not source.lstrip().startswith("{")):
            path = Path(source)
            if not path.is_file():
                raise FileNotFoundError(f"`source` {str(path)!r} is not a file")
            text = path.read_text(encoding="utf-8")
        else:
            text = source
        doc = json.loads(text)
        if doc.get("format") != REPORT_FORMAT:
            raise McdaArgumentError(f"not an mcda report bundle (format {doc.get('format')!r}, expected {REPORT_FORMAT!r})",
                                    argument="source")
        if doc.get("version", 0) > REPORT_VERSION:
            raise McdaArgumentError(f"this report bundle is version {doc['version']}; this mcda reads up to {REPORT_VERSION}",
                                    argument="source")
        cube = _cube_from_json(json.dumps(doc["cube"]))
        return cls._from_parts(cube, doc.get("settings", {}))

    @classmethod
    def _from_parts(cls, cube: xr.DataArray, settings: dict) -> Report:
        """A report from a stored cube and settings: the same checks as ``Report(...)``, and a
        bundle must carry its ``rng`` (a new one would silently give other draws) and no
        setting this mcda does not know (it would be dropped)."""
        if not isinstance(settings, dict):
            raise McdaArgumentTypeError(f"the report bundle's settings must be a mapping; got {settings!r}",
                                        argument="settings")
        unknown = [k for k in settings if k not in _DEFAULTS]
        if unknown:
            raise McdaArgumentError(f"the report bundle has settings this mcda does not know: {shown(unknown)}; "
                                    f"the settings are {shown(list(_DEFAULTS), 20)}", argument="settings")
        if settings.get("rng") is None:
            raise McdaArgumentError("the report bundle stores no `rng`, so its bootstrap and sampled views could "
                                    "not be reproduced; write it with Report.to_json (which stores the rng), or "
                                    "build Report(cube, rng=...) yourself", argument="rng")
        rope = settings.get("rope")
        report = cls(cube, **{k: v for k, v in settings.items() if k != "rope"})
        if rope is not None:  # stored in the cube's units: set as an attribute, which reads it so
            report.rope = rope
        return report

    def to_netcdf(self, path) -> None:
        """Write the raw cube to netCDF with the settings in the attribute ``mcda_report`` (JSON)."""
        cube = self._raw.copy()
        cube.attrs = dict(cube.attrs) | {"mcda_report": json.dumps(
            {"format": REPORT_FORMAT, "version": REPORT_VERSION, "settings": self.settings})}
        _cube_to_netcdf(cube, path)

    @classmethod
    def from_netcdf(cls, path) -> Report:
        """Read a report written by :meth:`to_netcdf`."""
        cube = _cube_from_netcdf(path)
        meta = json.loads(cube.attrs.pop("mcda_report", "{}") or "{}")
        if meta.get("format") != REPORT_FORMAT:
            raise McdaArgumentError(f"{str(path)!r} holds a cube but no mcda report settings (attribute `mcda_report`)",
                                    argument="path", value=path)
        for key in ("noise_floor",):
            if key in cube.attrs and isinstance(cube.attrs[key], float) and math.isnan(cube.attrs[key]):
                cube.attrs[key] = math.nan
        return cls._from_parts(cube, meta.get("settings", {}))

    # ------------------------------------------------------------------ for people

    def _once(self, compute):
        """``compute()`` with each warning it raises re-issued once (views share results, and so warnings);
        only this thread's warnings (another thread's are shown as they come, never re-issued here)."""
        with _VIEW_LOCK, _this_threads_warnings() as caught:
            out = compute()
        seen = set()
        for message, category in caught:
            key = (str(message), category)
            if key not in seen:
                seen.add(key)
                warnings.warn(message, category, stacklevel=user_stacklevel())
        return out

    def overview(self, *, max_pairs: int = 12) -> str:
        """The whole analysis as text for people (what ``mcda compare`` prints); each warning is issued once."""
        return self._once(lambda: self._one_line_labels(self._overview(max_pairs)))

    def _one_line_labels(self, text: str) -> str:
        """``text`` with every method and dataset label that holds a control character (a newline, a
        terminal escape) written as its escapes, so a label cannot forge a line of the overview."""
        from mcda.present.writeup import text_escape

        labels = {str(v) for cube in (self.raw, self.cube) if hasattr(cube, "coords")
                  for dim in ("method", "dataset") if dim in cube.coords for v in cube.coords[dim].values}
        unsafe = sorted((lab for lab in labels if text_escape(lab) != lab), key=len, reverse=True)
        if not unsafe:
            return text
        return re.sub("|".join(map(re.escape, unsafe)), lambda m: text_escape(m.group(0)), text)

    def _overview(self, max_pairs: int) -> str:
        """The whole analysis as text for people (what ``mcda compare`` prints).

        The Friedman verdict and the critical-difference groups, pairwise superiority and
        transitivity, the Bayesian decisions, the within-dataset views when there are seeds
        (or why they do not apply), and the excluded methods. Numbers are rounded here, for
        reading only.
        """
        card = self.card
        better = better_phrase(self.direction)
        rope = self.rope_value()
        name = self.metric_name()
        long = (f" ({card.long_name})" if card is not None and card.long_name
                and card.long_name.lower() != name.lower() else "")
        cube = self.cube
        n_missing = len(self.missing_cells())
        if "seed" in cube.dims:
            used = self._across().coords["n_seeds"].values
            full = int(used.max()) if used.size else 0
            short = (used > 0) & (used < full)
            fewest = int(used[short].min()) if short.any() else full
            n_short = int(short.sum())
            lost = (f"; {n_short} cell{'s' if n_short != 1 else ''} lost seeds and {'are' if n_short != 1 else 'is'} "
                    f"reduced over the {fewest}{'+' if n_short > 1 and fewest < full - 1 else ''} "
                    f"{'it has' if n_short == 1 else 'they have'} (a lost seed is skipped, never filled; counted in "
                    "n_seeds)" if n_short else "")
            seeds = (f"{full} seeds per cell (reduced by their {self._settings['seed_reduction']} across datasets"
                     f"{lost})")
        elif "item" in cube.dims:
            seeds = self._items_header()
        else:
            seeds = "one score per dataset and method (no seeds)"
        scale = self._raw.attrs.get("scale")
        empty = self.empty_datasets()
        lines = [f"mcda report: {name}{long}, {better}; rope {self.rope_words()}"
                 + (f"; scores converted {scale}" if scale else ""),
                 f"{cube.sizes['dataset']} datasets x {cube.sizes['method']} methods; {seeds}; "
                 f"{n_missing} missing cell{'s' if n_missing != 1 else ''}"
                 + (f"; {len(empty)} dataset(s) with no result at all, left out of every view: "
                    f"{shown(empty, fmt=str)}" if empty else ""),
                 f"settings: alpha {self.alpha:g}; across datasets {self.test}"
                 + (f" against {self.control}" if self.control else "")
                 + f"; superiority adjustment {self.adjust}; interval {self.ci_method} "
                 f"{self.confidence_level * 100:g}%; {'paired' if self.paired else 'unpaired'} test {self.pairwise_method}; "
                 f"missing cells: {self.missing}; rng {self.rng}"]
        if self.has_epochs:
            rules = self.selected_epochs()["rule"].value_counts()
            runs = ", ".join(f"{n} runs {r}" for r, n in rules.items())
            lines.append(f"epochs: {self.epoch_selection} ({runs})")
        if self.has_items:  # the level the scores are at comes first; the across-dataset views read its means
            lines += self._items_text(max_pairs)
            if len(self.datasets) < 2:
                return "\n".join(lines)

        why_not = self.compare_not_applicable()
        comparison = None if why_not else self.compare()
        if why_not:  # say why, and go on to the pairwise views, which use the datasets each pair shares
            lines += ["", f"== Across datasets: Friedman, then {display_name(self.test)} only if it rejects",
                      f"  does not apply: {why_not}"]
        else:
            lines += ["", f"== Across datasets: {comparison.procedure} only if it rejects"]
            lines += ["  " + line for line in comparison.summary().split("\n")]
            lines.append(f"  design tested: {comparison.design} ({_missing_words(comparison)}); datasets per "
                         "method: " + ", ".join(f"{m} {int(n)}" for m, n in comparison.datasets_per_method.items()))
            lines.append("  critical-difference groups (methods not separated from each other):")
            ranks = comparison.mean_ranks
            for i, group in enumerate(comparison.groups, 1):
                lines.append(f"    {i}. " + ", ".join(f"{m} ({ranks[m]:.2f})" for m in group))
            from mcda.present.writeup import all_separated

            if not all_separated(comparison):
                skipped = self.design_power_skipped()
                lines.append("  what the design could detect: "
                             + (skipped if skipped else self.design_power().sentence(self.test)))

        lines += ["", "== Confidence sets for the ranks (Mogstad, Romano, Shaikh & Wilhelm 2024)"]
        lines += ["  " + line for line in self._rank_sets_text(max_pairs)]

        superiority = self.superiority()
        lines += ["", "== Pairwise superiority (exact sign test on the datasets each pair shares)"]
        lines += ["  " + line for line in superiority.summary().split("\n")]
        lines += ["", "== Transitivity of the pairwise-majority relation"]
        lines += ["  " + line for line in self.transitivity().summary().split("\n")]

        bayes = self.bayesian()
        lines += ["", f"== Bayesian sign test (rope {bayes.rope:g}, decision at P >= {bayes.threshold:g})"]
        lines += ["  " + line for line in _bayes_lines(bayes, max_pairs)]
        lines.append("  standing (mean P(at least as good)): "
                     + ", ".join(f"{m} {bayes.standing[m]:.2f}" for m in bayes.order))
        lines += ["", f"== Bayesian signed-rank test (rope {bayes.rope:g}, decision at P >= {bayes.threshold:g}; "
                      "uses the size of the differences, not only their sign)"]
        skipped = self.signed_rank_skipped()
        if skipped:
            lines.append("  " + skipped)
        else:
            lines += ["  " + line for line in _bayes_lines(self.bayesian_signed_rank(), max_pairs)]
        if len(self.methods) >= 3:
            lines += ["", "== Bayesian Plackett-Luce ranking (Calvo et al. 2018)"]
            lines += ["  " + line for line in self._plackett_luce_text().split("\n")]
        if self.has_seeds and self._raw.attrs.get("cv_runs") is not None:
            lines += ["", "== Hierarchical model on the cross-validation folds (Corani et al. 2017)"]
            lines += ["  " + line for line in self._hierarchical_text(max_pairs).split("\n")]

        if self.has_criteria or self._criteria_note:
            lines += ["", "== Several criteria under uncertainty: SMAA-2 (Lahdelma & Salminen 2001)"]
            lines += ["  " + line for line in (self._smaa_text() if self.has_criteria
                                               else self._criteria_note).split("\n")]
        if self.has_criteria:
            lines += ["", "== Statistical dominance across criteria: the GSD-front (Jansen et al. 2024)"]
            lines += ["  " + line for line in self._gsd_text().split("\n")]

        from mcda.present.writeup import BayesDecisions, reading_paragraph

        lines += ["", "== Reading the procedures together"]
        lines += ["  " + reading_paragraph(self, comparison, BayesDecisions(bayes), self.alpha)]

        lines += ["", "== Within datasets (over seeds)"]
        lines += ["  " + line for line in self._within_text(max_pairs).split("\n")]

        lines += ["", "== Across datasets from the seeds: replicability and meta-analysis"]
        lines += ["  " + line for line in self._replication_text(max_pairs)]

        lines += ["", "== Excluded methods"]
        if comparison is not None and comparison.excluded_datasets:
            lines += [f"  none (missing='datasets'): {len(comparison.excluded_datasets)} incomplete dataset(s) were "
                      "left out of the across-dataset ranks instead: "
                      + "; ".join(f"{d} lacks {', '.join(map(str, ms))}" for d, ms in
                                  comparison.excluded_datasets.items())]
        if comparison is not None:
            excluded = comparison.excluded
        else:  # the procedure did not run: name every method with a missing result
            cells = self.missing_cells()
            excluded = {m: tuple(cells.loc[cells["method"] == m, "dataset"].drop_duplicates())
                        for m in self.methods if (cells["method"] == m).any()}
        if excluded:
            lines += [f"  {m}: lacks {', '.join(map(str, lacks))} (excluded from the across-dataset ranks; "
                      "the pairwise and Bayesian views use the datasets each pair shares)"
                      for m, lacks in excluded.items()]
        elif comparison is not None and comparison.missing == "available" and comparison.design != "complete":
            lines.append("  none: the incomplete design was tested as it is (missing='available')")
        elif comparison is None or not comparison.excluded_datasets:
            lines.append("  none: every method has a result on every dataset")
        return "\n".join(lines)

    def text(self, *, max_pairs: int = 12, references: bool = True) -> str:
        """A Methods and a Results paragraph to paste into a paper, with their references as BibTeX (Markdown).

        Written from the same results the overview, the figures and the exports read: the
        procedures that ran (the omnibus test and its post-hoc, or the incomplete-design test
        with ``missing="available"``), α, the adjustments, the rope and where it came from (the
        card's noise floor, with its justification), the excluded methods or datasets, the seeds
        and how they were reduced. A third paragraph says, in one or two sentences, what each
        procedure supports when they disagree (a Bayesian decision the rank-based post-hoc does
        not make, or the reverse) and which claim the data license. ``mcda compare`` writes it
        to ``report.md``.

        Parameters
        ----------
        max_pairs : int
            Pairs listed per procedure before "and N more".
        references : bool
            Append the BibTeX entries of every work cited (``[@key]`` in the text).
        """
        from mcda.present.writeup import BIBTEX, markdown_escape, methods_and_results

        methods, results, reading, cites = self._once(lambda: methods_and_results(self, max_pairs=max_pairs))
        name = markdown_escape(self.metric_name())
        parts = [f"# mcda report: {name}", "", "## Methods", "", methods, "", "## Results", "", results, "",
                 "## Reading the procedures together", "", reading]
        if references and cites:
            parts += ["", "## References", "", "```bibtex", "\n\n".join(BIBTEX[k] for k in cites), "```"]
        return "\n".join(parts) + "\n"

    def _within_text(self, max_pairs: int) -> str:
        if not self.has_seeds:
            return ("do not apply: these scores have one score per (dataset, method), no seeds. Intervals, paired "
                    "tests, equivalence and power need several runs (seeds) per cell; the across-dataset views "
                    "above do not.")
        lines = []
        summary = self.summary()
        table = summary.to_frame()
        n = table.loc[table["n_seeds"] > 0, "n_seeds"]
        seeds = f"{int(n.min())}" if n.min() == n.max() else f"{int(n.min())}-{int(n.max())}"
        lines.append(f"intervals: {summary.ci_method} {summary.confidence_level * 100:g}% over {seeds} seeds per "
                     "cell (report.summary(); the forest plot and scores.tex show them)")
        for note in summary.notes:
            lines.append(f"  note: {note}")
        paired = self.pairwise()
        tests = paired.to_frame()
        significant = tests[tests["significant"].astype(bool)]
        kind = (f"paired {self.pairwise_method}" if self.paired else
                ("unpaired Welch t" if self.pairwise_method == "t" else "unpaired Mann-Whitney U"))
        over_folds = self.pairwise_method in names("seeds-cv")
        if over_folds:
            kind = display_name(self.pairwise_method)
        untested = int(tests["p_raw"].isna().sum())  # e.g. a pair that shares fewer than two seeds
        lines.append(f"{kind} tests, Holm within each dataset: {len(significant)} of "
                     f"{len(tests) - untested} tested (dataset, pair) differences significant at alpha {self.alpha:g}"
                     + (f"; {untested} not tested (see the reason column of report.pairwise())" if untested else ""))
        if over_folds:   # the design the test read, in the result's own words
            lines.append(f"  {paired.assumes()}")
        for note in paired.notes:
            lines.append(f"  note: {note}")
        higher = higher_is_better(self.direction)
        for r in significant.head(max_pairs).itertuples(index=False):
            a_better = (r.mean_diff > 0) == higher
            better, worse = (r.method_a, r.method_b) if a_better else (r.method_b, r.method_a)
            lines.append(f"  {r.dataset}: {better} better than {worse} by {abs(r.mean_diff):.4g} "
                         f"(p_holm {r.p_holm:.3g})")
        if len(significant) > max_pairs:
            lines.append(f"  … and {len(significant) - max_pairs} more")
        if self.control is not None and self.control in self.methods:
            against = self.pairwise(control=self.control).to_frame()
            sig = against["significant"].astype(bool)
            wins = int((sig & ((against["mean_diff"] > 0) == higher)).sum())
            lines.append(f"against the control {self.control} (report.pairwise(control={self.control!r}), "
                         f"pairwise_control.tex from mcda compare): {int(sig.sum())} of {len(against)} (dataset, other method) "
                         f"differences significant, Holm over the {len(self.methods) - 1} comparisons within each "
                         f"dataset; {self.control} better in {wins}, worse in {int(sig.sum()) - wins}")
        if self.rope_value() > 0:
            equivalent = self.equivalence().to_frame()
            n_eq = int(equivalent["equivalent"].astype(bool).sum())
            p_col = next((c for c in ("p_tost", "p_raw") if c in equivalent.columns), None)
            eq_untested = int(equivalent[p_col].isna().sum()) if p_col else 0
            lines.append(f"equivalence (TOST, margin = rope {self.rope_value():g}): {n_eq} of "
                         f"{len(equivalent) - eq_untested} tested (dataset, pair) differences shown equivalent"
                         + (f"; {eq_untested} not tested" if eq_untested else ""))
        else:
            lines.append("equivalence: does not apply with a rope of 0 (no margin to be equivalent within)")
        lines += self._seed_distribution_lines(max_pairs)
        power = self.power()
        mde = power.to_frame()["mde"].dropna()
        if len(mde):
            lines.append(f"power: at these seeds the paired t test detects (with {power.target_power:.0%} power) "
                         f"differences of {mde.median():.3g} (median over pairs; {mde.min():.3g} to {mde.max():.3g}) "
                         f"in the metric's units; the rope is {self.rope_value():g}")
        return "\n".join(lines)


    # ------------------------------------------------------------------ over items

    @property
    def has_items(self) -> bool:
        """Whether the scores are per item (an ``item`` dim): then the items section (:meth:`item_leaderboard`,
        :meth:`item_pairs`, :meth:`item_omnibus`) leads, and the across-dataset views read :func:`mcda.reduce_items`."""
        return "item" in self._raw.dims

    def _require_items(self, view: str):
        if not self.has_items:
            raise McdaArgumentError(f"report.{view}() compares methods over the items of a test set, and these scores "
                                    "have no `item` dim (one score per run); give per-item scores (a tidy file with an "
                                    "item column, or a cube with an `item` dim)", argument="scores")

    def _item_settings(self, overrides: dict) -> dict:
        return self._resolve(overrides, _CUBE_SETTINGS + ("alpha", "confidence_level", "adjust", "item_test"))

    def item_means(self, **overrides):
        """Each method's mean item score per dataset with its CLT and cluster-robust standard errors and intervals
        (:func:`mcda.item_means`) at the report's ``confidence_level``."""
        from mcda.stats.items import item_means

        self._require_items("item_means")
        s = self._item_settings(overrides)
        return self._cached(("item_means", s), lambda: item_means(self._selected(s),
                                                                  confidence_level=s["confidence_level"]))

    def item_pairs(self, *, control: str | None = None, power: float = 0.8, **overrides):
        """Every pair of methods (or every method against ``control``) on the items both have (:func:`mcda.paired_items`):
        the report's ``item_test``, ``alpha``, ``confidence_level`` and ``adjust`` (Holm by default) over the pairs of
        each dataset."""
        from mcda.stats.items import paired_items

        self._require_items("item_pairs")
        s = self._item_settings(overrides)
        if control is not None:
            control = check_control(control, self.methods)
        return self._cached(("item_pairs", s, control, power), lambda: paired_items(
            self._selected(s), test=s["item_test"], adjust=s["adjust"], control=control, alpha=s["alpha"],
            confidence_level=s["confidence_level"], power=power))

    def item_omnibus(self, *, test: str | None = None, **overrides):
        """Cochran's Q (0/1 scores) or the Friedman test over items per dataset (:func:`mcda.item_omnibus`)."""
        from mcda.stats.items import item_omnibus

        self._require_items("item_omnibus")
        s = self._item_settings(overrides)
        return self._cached(("item_omnibus", s, test), lambda: item_omnibus(self._selected(s), test=test,
                                                                            alpha=s["alpha"]))

    def item_leaderboard(self, **overrides):
        """The methods of each dataset sorted by mean item score with intervals and tie groups
        (:func:`mcda.item_leaderboard`), the report's ``item_test``, ``alpha``, ``confidence_level`` and ``adjust``."""
        from mcda.stats.items import item_leaderboard

        self._require_items("item_leaderboard")
        s = self._item_settings(overrides)
        return self._cached(("item_leaderboard", s), lambda: item_leaderboard(
            self._selected(s), test=s["item_test"], adjust=s["adjust"], alpha=s["alpha"],
            confidence_level=s["confidence_level"]))

    def item_control(self) -> str:
        """The method the paired forest compares with: the report's ``control``, else the best of the first
        dataset's leaderboard."""
        if self.control is not None:
            return self.control
        board = self.item_leaderboard().to_frame()
        return str(board["method"].iloc[0])

    def _board_order(self, settings: dict) -> dict:
        """dataset -> the methods in the leaderboard's order (best first): every per-model figure's rows."""
        board = self.item_leaderboard(**settings).to_frame()
        return {d: list(block["method"]) for d, block in board.groupby("dataset", sort=False)}

    def plot_item_intervals(self, **kwargs):
        """:func:`mcda.plots.plot_item_intervals` of :meth:`item_means`, the models in the leaderboard's order."""
        settings, rest = self._split(kwargs)
        rest.setdefault("order", self._board_order(settings))
        return self._plot("plot_item_intervals", self.item_means(**settings), rest)

    def plot_item_forest(self, *, control: str | None = None, **kwargs):
        """:func:`mcda.plots.plot_item_forest` of :meth:`item_pairs` against ``control`` (default :meth:`item_control`),
        the models in the leaderboard's order."""
        control = control if control is not None else self.item_control()
        settings, rest = self._split(kwargs)
        rest.setdefault("order", self._board_order(settings))
        return self._plot("plot_item_forest", self.item_pairs(control=control, **settings), rest)

    def plot_item_matrix(self, **kwargs):
        """:func:`mcda.plots.plot_item_matrix` of :meth:`item_leaderboard` (every pair; keywords of both)."""
        return self._figure("plot_item_matrix", self.item_leaderboard, kwargs)

    def _items_reduced(self, cube: xr.DataArray, key) -> xr.DataArray:
        """:func:`mcda.reduce_items` of ``cube`` (cached): the cube every across-dataset view of an item report reads."""
        from mcda.stats.items import reduce_items

        full = ("_items_reduced",) + tuple(key)
        if full not in self._cache:
            self._cache[full] = reduce_items(cube)
        return self._cache[full]

    def _items_header(self) -> str:
        """The overview's first-line words on per-item scores: items per dataset and their clusters."""
        cube = self.cube
        n_items = cube.sizes["item"]
        words = f"per-item scores ({n_items:,} item labels"
        if "cluster" in cube.coords:
            words += f" in {len(pd.unique(np.asarray(cube.coords['cluster'].values))):,} clusters"
        if "sample" in cube.dims:
            words += f", {cube.sizes['sample']} samples per item"
        return words + ")"

    def _items_text(self, max_pairs: int) -> list[str]:
        """The overview's section over items, from the result objects."""
        from mcda.present.writeup import items_overview_lines

        return items_overview_lines(self, max_pairs=max_pairs)

    def __repr__(self) -> str:
        dims = " × ".join(f"{self._raw.sizes[d]} {d}s" for d in self._raw.dims)
        shown = ", ".join(f"{k}={v!r}" for k, v in self._settings.items() if k != "rng")
        return f"Report({self.metric_name()!r}, {self.direction}, {dims}; {shown}; rng={self._settings['rng']})"
