"""What the Bayesian comparisons share: argument checks, the progress line, the pair rows, the
region probabilities and labels, and the reading of per-fold scores."""

from __future__ import annotations

import math
import numbers
import sys
import time

import numpy as np
import pandas as pd

from mcda._core.validation import MAX_BAYCOMP_SEED
from mcda._core.validation import (as_rng, check_choice, check_positive_int, check_probability, McdaArgumentError,
                                   McdaArgumentTypeError, shown)
from mcda.data.blocks import require_in_memory
from mcda.data.cube import as_cube
from mcda.data.checks import resolve_rope
from mcda.stats._shared.folds import folds_per_run

__all__: list[str] = []  # a private module of the family; its names are imported by name

REPRODUCE = ("baycomp",)
LABELS = ("a_better", "equivalent", "b_better")
INCONCLUSIVE = "inconclusive"
NOT_APPLICABLE = "not_applicable"
# rope = 0: below this, P(a) + P(b) is too small for the two-region ratio to mean anything
_TWO_REGION_FLOOR = 1e-9
_PROGRESS_AFTER = 2.0


# --------------------------------------------------------------------------- input checks

def _check_positive_float(name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise McdaArgumentTypeError(f"`{name}` must be a finite number > 0; got {value!r}.", argument=name, value=value)
    v = float(value)
    if not math.isfinite(v) or v <= 0:
        raise McdaArgumentError(f"`{name}` must be a finite number > 0; got {value!r}.", argument=name, value=value)
    return v


def _check_threshold(threshold) -> float:
    return check_probability("threshold", threshold, low=0.5, high=1.0)


def _check_reproduce(reproduce, rng):
    """(reproduce, seed or Generator): baycomp's mode needs an int seed, like its ``random_state``."""
    if reproduce is None:
        return None, as_rng(rng)
    check_choice("reproduce", reproduce, REPRODUCE)
    if isinstance(rng, bool) or not isinstance(rng, numbers.Integral) or not 0 <= int(rng) <= MAX_BAYCOMP_SEED:
        raise McdaArgumentTypeError("with `reproduce='baycomp'`, `rng` must be an int seed in [0, 2**32 - 1] (baycomp's "
                        f"`random_state`; every pair starts a fresh numpy.random.RandomState(rng)); got {rng!r}.",
                                    argument="rng", value=rng)
    return reproduce, int(rng)


def _check_progress(progress):
    if progress is not None and not isinstance(progress, bool):
        raise McdaArgumentTypeError(f"`progress` must be None (automatic), True or False; got {progress!r}.",
                                    argument="progress", value=progress)
    return progress


def _check_sampling(n_samples, reproduce, rng, progress, keep_draws, method: str = "sampling"):
    """The posterior-sampling arguments, checked in this order: (n_samples, reproduce, seed or Generator, progress)."""
    n_samples = check_positive_int("n_samples", n_samples)
    reproduce, source = _check_reproduce(reproduce, rng)
    if reproduce is not None and method != "sampling":
        raise McdaArgumentError("`reproduce='baycomp'` reproduces baycomp's posterior draws, so it needs "
                         f"`method='sampling'`; got method={method!r}.", argument="reproduce")
    progress = _check_progress(progress)
    if not isinstance(keep_draws, bool):
        if isinstance(keep_draws, (str, bytes)) or not hasattr(keep_draws, "__iter__"):
            raise McdaArgumentTypeError(f"`keep_draws` must be True, False or a list of (method_a, method_b) pairs; got "
                            f"{keep_draws!r}.", argument="keep_draws", value=keep_draws)
        pairs = [tuple(p) if not isinstance(p, (str, bytes)) and hasattr(p, "__iter__") else p for p in keep_draws]
        bad = [p for p in pairs if not isinstance(p, tuple) or len(p) != 2]
        if bad:
            raise McdaArgumentTypeError(f"`keep_draws` must be True, False or a list of (method_a, method_b) pairs; got "
                            f"{shown(bad)} among them.", argument="keep_draws")
        keep_draws = pairs
    return n_samples, reproduce, source, progress, keep_draws


def _kept_pairs(keep_draws, methods, pairs, usable, n_samples: int, *, working: int = 0) -> np.ndarray:
    """Which pair rows keep their draws (bool per row), refused over the memory limit before sampling
    (with ``working`` bytes per draw of one pair's working buffers)."""
    from mcda._core.options import check_count_allocation

    if keep_draws is True:
        kept = usable.copy()
    elif keep_draws is False:
        kept = np.zeros(len(pairs), dtype=bool)
    else:
        position = {m: i for i, m in enumerate(methods)}
        unknown = [p for p in keep_draws if p[0] not in position or p[1] not in position or p[0] == p[1]]
        if unknown:
            raise McdaArgumentError(f"`keep_draws` names pairs that are not two different methods of the scores: "
                             f"{shown(unknown)}; the methods are {shown(methods)}", argument="keep_draws")
        wanted = {frozenset((position[a], position[b])) for a, b in keep_draws}
        kept = np.array([frozenset((int(i), int(j))) in wanted for i, j in pairs], dtype=bool) & usable
    check_count_allocation("n_samples", n_samples, int(kept.sum()) * 3 * 8 + working,
                           f"posterior draws per pair, of which `keep_draws` keeps {int(kept.sum())} pairs' "
                           "(keep_draws=False keeps none: the probabilities need no draws; keep_draws=[(a, b), ...] "
                           "keeps the pairs to plot)",
                           argument="keep_draws" if kept.any() else "n_samples")
    return kept


# --------------------------------------------------------------------------- progress

class _Progress:
    """A one-line stderr progress report, shown only when the run will take more than ~2 s."""

    def __init__(self, total: int, what: str, enabled):
        self.total = total
        self.what = what
        self.enabled = enabled
        self.start = time.perf_counter()
        self.last = 0.0
        self.shown = False

    def update(self, done: int) -> None:
        if self.enabled is False or self.total == 0:
            return
        now = time.perf_counter()
        elapsed = now - self.start
        if not self.shown and not self.enabled:
            projected = elapsed / max(done, 1) * self.total
            if done >= self.total or elapsed < 0.25 or projected < _PROGRESS_AFTER:
                return
        if self.shown and now - self.last < 0.2 and done < self.total:
            return
        left = elapsed / max(done, 1) * (self.total - done)
        sys.stderr.write(f"\r{self.what}: {100 * done / self.total:3.0f}%, about {left:.0f} s left ")
        sys.stderr.flush()
        self.shown = True
        self.last = now

    def close(self) -> None:
        if self.shown:
            sys.stderr.write(f"\r{self.what}: 100%, {time.perf_counter() - self.start:.1f} s{' ' * 16}\n")
            sys.stderr.flush()


# --------------------------------------------------------------------------- shared assembly

def _probabilities_from_counts(counts: np.ndarray, n_samples: int) -> np.ndarray:
    """baycomp's ``np.bincount(winners, minlength=3) / len(winners)``."""
    return counts / n_samples


def _two_regions(prob: np.ndarray, reasons: np.ndarray, usable: np.ndarray):
    """rope = 0: baycomp's (p_left / (p_left + p_right), p_right / (...)), and the reasons.

    Usable rows where that ratio is undefined (the tie cell wins every draw) become NaN with
    a reason (a row that already has one keeps it).
    """
    pl, pr = prob[:, 0], prob[:, 2]
    total = pl + pr
    undefined = ~(total > _TWO_REGION_FLOOR)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.stack([pl / total, np.zeros_like(pl), pr / total], axis=1)
    out[undefined] = np.nan
    no_reason_yet = np.array([not r for r in reasons], dtype=bool)
    return out, np.where(undefined & usable & no_reason_yet, _TIES_ONLY, reasons).astype(object)


def _region_columns(prob: np.ndarray, threshold: float, nan_rows: np.ndarray, means=None) -> dict:
    """The columns every Bayesian pair table shares: the three regions' probabilities, the label
    and (with ``means``) the posterior mean shares, in the glossary's order."""
    columns = {"prob_a_better": prob[:, 0], "prob_equivalent": prob[:, 1], "prob_b_better": prob[:, 2],
               "label": _labels(prob, threshold, nan_rows)}
    if means is not None:
        columns |= {"mean_a_better": means[:, 0], "mean_equivalent": means[:, 1], "mean_b_better": means[:, 2]}
    return columns


def _labels(prob: np.ndarray, threshold: float, nan_rows: np.ndarray) -> np.ndarray:
    labels = np.full(prob.shape[0], INCONCLUSIVE, dtype=object)
    for col, name in enumerate(LABELS):
        labels[prob[:, col] >= threshold] = name
    labels[nan_rows] = NOT_APPLICABLE
    return labels


def _standing(methods, pairs, prob) -> tuple[pd.Series, list]:
    k = len(methods)
    at_least = np.full((k, k), np.nan)
    for (i, j), p in zip(pairs, prob):
        at_least[i, j] = p[0] + p[1]
        at_least[j, i] = p[2] + p[1]
    valid = ~np.isnan(at_least)
    counts = valid.sum(axis=1)
    sums = np.where(valid, at_least, 0.0).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        standing = np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)
    series = pd.Series(standing, index=pd.Index(methods, name="method"), name="standing")
    key = np.where(np.isnan(standing), -np.inf, standing)
    order = [methods[i] for i in np.argsort(-key, kind="stable")]
    return series, order


def _pairs(k: int) -> list:
    return [(i, j) for i in range(k) for j in range(i + 1, k)]


def _pair_rows(shared: np.ndarray):
    """Every pair i < j of the methods of a k × k shared-dataset matrix, its index arrays, its
    shared-dataset counts and the reasons (a pair with no shared dataset has no posterior)."""
    pairs = _pairs(len(shared))
    ii = np.array([p[0] for p in pairs], dtype=np.int64)
    jj = np.array([p[1] for p in pairs], dtype=np.int64)
    n_shared = shared[ii, jj]
    reasons = np.where(n_shared == 0, _NO_SHARED, "").astype(object)
    return pairs, ii, jj, n_shared, reasons


_NO_SHARED = "no dataset where both methods have a result"
_TIES_ONLY = ("with rope = 0 the equivalence cell (exact ties and the prior placed there) has the largest share "
              "in (almost) every posterior draw, so P(a better) / (P(a better) + P(b better)) is undefined")


# --------------------------------------------------------------------------- correlated t

_folds_per_run = folds_per_run  # k of runs of k-fold cross-validation (one definition, in stats/_shared)


def _check_chains(n_chains, n_samples, n_warmup, rng, progress, keep_draws):
    """The Markov-chain settings of a sampled model: (n_chains, n_samples, n_warmup, generator, progress)."""
    n_chains = check_positive_int("n_chains", n_chains, minimum=2)
    n_samples = check_positive_int("n_samples", n_samples, minimum=4)
    n_warmup = check_positive_int("n_warmup", n_warmup, minimum=0)
    gen = as_rng(rng)
    progress = _check_progress(progress)
    if not isinstance(keep_draws, bool):
        raise McdaArgumentTypeError(f"`keep_draws` must be True or False; got {keep_draws!r}.",
                                    argument="keep_draws", value=keep_draws)
    return n_chains, n_samples, n_warmup, gen, progress


def _fold_cube(scores, direction, method_names, rope, who: str, *, reason: str, example: str, otherwise: str = ""):
    """The in-memory cube of per-fold scores (folds along ``seed``) and its rope, for ``who``."""
    cube = as_cube(scores, direction, method_names=method_names)
    require_in_memory(cube, f"mcda.{who}", reason=reason,
                      instead="select the datasets you need and load them (cube.isel(dataset=...).load())")
    if "seed" not in cube.dims:
        raise McdaArgumentError(f"{who} needs the per-fold scores along a 'seed' dim (e.g. {example}); the scores "
                                f"have dims {list(cube.dims)}.{otherwise}", argument="scores")
    extra = [d for d in cube.dims if d not in ("dataset", "method", "seed")]
    if extra:
        raise McdaArgumentError(f"the scores have extra dims {extra}; select one value along each first.",
                                argument="scores")
    return cube, resolve_rope(cube, rope)
