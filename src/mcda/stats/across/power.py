"""Across datasets, before (or after) running: how much could a benchmark of N datasets detect?

:func:`design_power` simulates the procedures across datasets — Friedman then Nemenyi, Friedman
then Holm, Wilcoxon–Holm, sign–Holm and the Bayesian sign test — on benchmarks drawn from a
pilot (or from effects given by hand), and reports their power, the smallest difference each
detects with the target power, and the datasets each needs.
"""

from __future__ import annotations

import functools
import math
import numbers
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import special, stats

from mcda._core.numeric import SCORE_ULPS
from mcda.data.cards import DIRECTIONS, direction_sign
from mcda._core.results import Result, states_scale
from mcda._core.validation import (McdaArgumentError, McdaArgumentTypeError, as_rng, check_alpha, check_positive_int,
                                   check_probability, check_rope)
from mcda.stats._shared.ranks import prepare_across
from mcda.stats.procedures import PROCEDURES, canonical

__composes__ = ("bayesian",)

__all__ = ["DesignPower", "design_power", "TESTS"]

#: The procedures :func:`design_power` simulates (its ``tests=``), in the order of its tables and of
#: the kernel's rows (:mod:`mcda._core._kernels.design_power`).
TESTS = PROCEDURES["design-power"].simulates
#: The rank procedures (Friedman first, then the post-hoc on the mean ranks).
_RANK_TESTS = tuple(t for t in TESTS if PROCEDURES[t].family == "posthoc")
_EXACT_MAX = 50     # pairwise_over_datasets: the exact null of R+ up to 50 datasets without ties or zeros
_SIGNFLIP_MAX = 13  # pairwise_over_datasets: the exact sign-flip p up to 13 datasets with ties or zeros
_BAYES_THRESHOLD = 0.95
_LARGEST_SHIFT = 64.0   # in noise standard deviations: a shift no benchmark could miss if it can detect any
_SHIFT_TOLERANCE = 0.01  # relative width at which the bisection of the detectable shift stops
_MEMORY_CELLS = 4_000_000  # simulated cells held at once (32 MB)


# --------------------------------------------------------------------------- result


@dataclass(frozen=True, repr=False)
class DesignPower(Result):
    """Power, minimum detectable difference and datasets needed of the procedures across datasets.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per procedure (see :meth:`to_frame`).
    pairs : pandas.DataFrame
        One row per (procedure, pair): ``test, method_a, method_b, mean_diff, power, mdd``.
        ``mean_diff`` is the pilot's (or given) mean of a − b in the metric's units; ``power``
        the probability the procedure separates the pair at ``n_datasets`` under the model;
        ``mdd`` the pair's minimum detectable difference: the procedure's standardised
        minimum detectable shift times the pair's own noise (the standard deviation of its
        differences over √2), in the metric's units.
    n_datasets, n_methods : int
        The simulated design (N datasets, k methods).
    pilot_datasets : int or None
        The datasets of the pilot (None: effects given by hand).
    alpha, target_power : float
    rope : float
        The rope of the sign and Bayesian sign tests, in the metric's units.
    sd : float
        The pooled noise σ̂ of a cell (the root mean over pairs of var(a − b)/2), the unit of
        the standardised shifts.
    n_resamples : int
        Simulated benchmarks per evaluation.
    max_datasets : int or None
        The largest N the search for ``datasets_needed`` tried (None: no search).
    direction : str or None
    metric : str or None
    notes : tuple of str
    """

    table: pd.DataFrame
    pairs: pd.DataFrame
    n_datasets: int
    n_methods: int
    pilot_datasets: int | None
    alpha: float
    target_power: float
    rope: float
    sd: float
    n_resamples: int
    max_datasets: int | None
    direction: str | None
    metric: str | None
    notes: tuple = field(default_factory=tuple)

    def to_frame(self) -> pd.DataFrame:
        """One row per procedure: ``test, procedure, n_datasets, n_methods, power, omnibus_power, mdd,
        mdd_std, mdd_rank, datasets_needed, reason``.

        ``procedure``: its name in a sentence ("Friedman–Nemenyi", "Wilcoxon–Holm"); ``power``:
        the probability that the procedure separates at least one pair at ``n_datasets`` under
        the model (the pilot's effects); ``omnibus_power``: the probability the Iman–Davenport F rejects (rank procedures; NaN otherwise); ``mdd``: the
        smallest lead of one method over all others (in the metric's units) that the procedure
        detects against a given other method with ``target_power``; ``mdd_std``: the same in
        noise standard deviations; ``mdd_rank``: the expected mean-rank gap that lead makes
        (rank procedures); ``datasets_needed``: the fewest datasets (up to the search's limit)
        at which ``power`` reaches ``target_power``; ``reason``: why a value is NaN.
        """
        return self.table.copy()

    def row(self, test: str) -> pd.Series:
        """The row of one procedure (canonical name or alias)."""
        name = canonical("test", test, allowed=tuple(self.table["test"]))
        return self.table.loc[self.table["test"] == name].iloc[0]

    def summary(self) -> str:
        source = (f"a pilot of {self.pilot_datasets} datasets" if self.pilot_datasets is not None
                  else "effects given by hand")
        lines = [f"Design power: {self.n_methods} methods on {self.n_datasets} datasets, simulated from {source} "
                 f"({self.n_resamples} benchmarks; alpha = {self.alpha:g}, target power = {self.target_power:g}, "
                 f"rope = {self.rope:g}, noise sd = {self.sd:.3g})"]
        for r in self.table.itertuples(index=False):
            name = r.procedure
            mdd = (f"detects a lead of {r.mdd:.3g} ({r.mdd_std:.2f} sd"
                   + (f", mean-rank gap {r.mdd_rank:.2f}" if np.isfinite(r.mdd_rank) else "") + ")"
                   if np.isfinite(r.mdd) else "detects no lead however large")
            needed = (f"{int(r.datasets_needed)} datasets for power {self.target_power:g}"
                      if np.isfinite(r.datasets_needed) else "datasets needed: not searched"
                      if self.max_datasets is None else f"more than {self.max_datasets} datasets needed")
            lines.append(f"  {name}: power {r.power:.2f}; {mdd}; {needed}" + (f" ({r.reason})" if r.reason else ""))
        lines += [f"  note: {n}" for n in self.notes]
        return "\n".join(lines)

    def sentence(self, test: str) -> str:
        """What the design could have detected with one procedure, in one sentence for a report."""
        r = self.row(test)
        name = r["procedure"]
        design = f"With {self.n_methods} methods on {self.n_datasets} datasets"
        if not np.isfinite(r["mdd"]):
            return (f"{design}, {name} could not have detected a lead of any size with power {self.target_power:g} "
                    f"({r['reason']}).")
        rank = f", a mean-rank gap of {r['mdd_rank']:.2f}" if np.isfinite(r["mdd_rank"]) else ""
        against = "the pilot's differences" if self.pilot_datasets is not None else "the differences given"
        needed = (f"; {int(r['datasets_needed'])} datasets would give power {self.target_power:g} against {against}"
                  if np.isfinite(r["datasets_needed"]) else "")
        return (f"{design}, {name} detects, with power {self.target_power:g}, one method ahead of all others by "
                f"{r['mdd']:.3g} ({r['mdd_std']:.2f} noise sd{rank}); smaller differences could have gone "
                f"unseen{needed}.")


def _procedure_name(test: str) -> str:
    """The name a sentence gives a simulated procedure: "Friedman–Nemenyi", "Wilcoxon–Holm", "the Bayesian sign test"."""
    entry = PROCEDURES[test]
    if test in _RANK_TESTS:
        return f"{PROCEDURES['friedman'].display}–{entry.display}"
    if entry.family == "pool-independent":
        return f"{entry.display}–{PROCEDURES['holm'].display}"
    return entry.words


# --------------------------------------------------------------------------- the model


def _is_effects(scores) -> bool:
    """Effects given by hand: a flat mapping, a Series or a 1-D sequence of numbers."""
    if isinstance(scores, pd.Series):
        return True
    if isinstance(scores, dict):
        return bool(scores) and all(isinstance(v, numbers.Real) for v in scores.values())
    if isinstance(scores, (list, tuple, np.ndarray)):
        array = np.asarray(scores, dtype=object)
        return array.ndim == 1 and all(isinstance(v, numbers.Real) for v in array)
    return False


@dataclass(frozen=True)
class _Model:
    """Simulated oriented scores of a dataset: means + (standard normals) @ noise (rows of the noise basis)."""

    methods: list
    means: np.ndarray          # (k,) oriented
    noise: np.ndarray          # (L, k): a draw is z @ noise, z ~ N(0, I_L)
    sd: float                  # pooled σ̂
    pair_sd: np.ndarray        # (m,) σ̂ of each pair (triu order)
    pilot_datasets: int | None
    sign: float                # +1 / −1: back from oriented scores to the metric's units


def _pilot_model(scores, direction, method_names) -> tuple[_Model, object]:
    prep = prepare_across(scores, direction, method_names=method_names, missing="complete")
    if prep.excluded:
        prep.warn_excluded("the design-power simulation")
    values = prep.values
    n0, k = values.shape
    if k < 2:
        raise McdaArgumentError(f"`scores` must hold at least 2 methods with a result on every dataset; got {k}.",
                                argument="scores", value=k)
    if n0 < 2:
        raise McdaArgumentError(f"`scores` must hold at least 2 datasets to estimate the noise; got {n0}.",
                                argument="scores", value=n0)
    centred = values - values.mean(axis=1, keepdims=True)  # the dataset effect: no procedure here sees it
    means = centred.mean(axis=0)
    order = np.argsort(-means, kind="stable")  # a canonical order: labels and input order change nothing
    means = means[order]
    residual = centred[:, order] - means
    rows = np.lexsort(residual.T[::-1])  # datasets in a canonical order too
    noise = np.ascontiguousarray(residual[rows] / math.sqrt(n0 - 1.0))
    covariance = noise.T @ noise
    a, b = np.triu_indices(k, 1)
    pair_var = np.maximum(covariance[a, a] + covariance[b, b] - 2.0 * covariance[a, b], 0.0) / 2.0
    direction_value = prep.cube.attrs.get("direction")
    sign = 1.0 if direction_value is None else float(direction_sign(direction_value))
    methods = [prep.methods[j] for j in order]
    return (_Model(methods=methods, means=means, noise=noise, sd=float(math.sqrt(pair_var.mean())),
                   pair_sd=np.sqrt(pair_var), pilot_datasets=n0, sign=sign), prep.cube)


def _effects_model(scores, direction, sd) -> _Model:
    if isinstance(scores, pd.Series):
        labels, values = [str(i) for i in scores.index], scores.to_numpy(dtype=float)
    elif isinstance(scores, dict):
        labels, values = [str(i) for i in scores], np.array(list(scores.values()), dtype=float)
    else:
        values = np.asarray(scores, dtype=float)
        labels = [f"method_{j}" for j in range(values.size)]
    if values.size < 2 or not np.all(np.isfinite(values)):
        raise McdaArgumentError(f"`scores` given as effects must be at least 2 finite numbers; got {values.tolist()}.",
                                argument="scores", value=values.tolist())
    if direction is not None and direction not in DIRECTIONS:
        raise McdaArgumentError(f"`direction` must be one of {{{', '.join(map(repr, DIRECTIONS))}}}; got "
                                f"{direction!r}.", argument="direction", value=direction, allowed=DIRECTIONS)
    sign = 1.0 if direction is None else float(direction_sign(direction))
    oriented = sign * values
    order = np.argsort(-oriented, kind="stable")
    k = values.size
    m = k * (k - 1) // 2
    return _Model(methods=[labels[j] for j in order], means=oriented[order] - oriented.mean(),
                  noise=sd * np.eye(k), sd=float(sd), pair_sd=np.full(m, float(sd)), pilot_datasets=None, sign=sign)


# --------------------------------------------------------------------------- the procedures' constants


@functools.lru_cache(maxsize=64)
def _constants(n: int, k: int, alpha: float, no_rope: bool) -> dict:
    """The critical values, null tables and Bayesian decisions of the procedures at N = n, k methods
    (cached: the bisections ask for the same N many times; the arrays are read, never written)."""
    from mcda._core._kernels.paired_ranks import signed_rank_null_counts
    from mcda.stats.across.posthoc import critical_difference
    from mcda.stats.bayesian._shared import LABELS, _labels, _two_regions
    from mcda.stats.bayesian.sign import _argmax_probabilities, _sign_alpha

    df1, df2 = k - 1, (k - 1) * (n - 1)
    f_critical = float(stats.f.isf(alpha, df1, df2)) if n >= 2 else math.inf
    concordance = bool(n >= 2 and math.exp((1 - n) * math.lgamma(k + 1)) <= alpha)
    cd = float(critical_difference(k, n, alpha=alpha, test="nemenyi"))
    if n <= _EXACT_MAX:  # as pool_independent._wilcoxon_p
        pmf = signed_rank_null_counts(n) / 2.0 ** n
        cdf, sf = np.cumsum(pmf), np.cumsum(pmf[::-1])[::-1]
    else:
        cdf = sf = np.zeros(1)
    sign_p = np.full((n + 1, n + 1), np.nan)  # as pool_independent._sign_p: [decided, min(wins, losses)]
    for t in range(1, n + 1):
        low = np.arange(t + 1)
        sign_p[t, :t + 1] = np.where(2 * low == t, 1.0, np.minimum(1.0, 2.0 * special.bdtr(low, t, 0.5)))
    wins_a, wins_b = (x.ravel() for x in np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij"))
    possible = wins_a + wins_b <= n
    wins_a, wins_b = wins_a[possible], wins_b[possible]
    alpha_dirichlet = _sign_alpha(wins_a, n - wins_a - wins_b, wins_b, "rope", 1.0)
    prob = _argmax_probabilities(alpha_dirichlet)
    reasons = np.full(len(prob), "", dtype=object)
    if no_rope:
        prob, reasons = _two_regions(prob, reasons, np.ones(len(prob), dtype=bool))
    labels = _labels(prob, _BAYES_THRESHOLD, np.isnan(prob).any(axis=1))
    decision = np.zeros((n + 1, n + 1), dtype=np.int64)
    decision[wins_a, wins_b] = np.where(labels == LABELS[0], 1, np.where(labels == LABELS[2], -1, 0))
    return dict(f_critical=f_critical, concordance_rejects=concordance, critical_difference=cd,
                exact_cdf=np.ascontiguousarray(cdf), exact_sf=np.ascontiguousarray(sf), sign_p=sign_p,
                bayes_decision=decision)


def _simulate(values_blocks, n, k, alpha, rope_units, enabled):
    """(pair counts (5, m), any counts (5,), omnibus count) over blocks of simulated benchmarks."""
    from mcda._core._kernels.design_power import N_PROCEDURES, simulate_separations

    c = _constants(int(n), int(k), float(alpha), float(rope_units) == 0.0)
    m = k * (k - 1) // 2
    pair_counts = np.zeros((N_PROCEDURES, m), dtype=np.int64)
    any_counts = np.zeros(N_PROCEDURES, dtype=np.int64)
    omnibus = np.zeros(1, dtype=np.int64)
    for values in values_blocks:
        simulate_separations(values, enabled, float(SCORE_ULPS), c["f_critical"], c["concordance_rejects"],
                             c["critical_difference"], alpha, c["exact_cdf"], c["exact_sf"], _EXACT_MAX,
                             _SIGNFLIP_MAX, c["sign_p"], float(rope_units), c["bayes_decision"], pair_counts,
                             any_counts, omnibus)
    return pair_counts, any_counts, int(omnibus[0])


def _normals(rng, n_resamples: int, n: int, width: int) -> list:
    """Standard normal draws (n_resamples, n, width) in blocks of bounded memory, from ``rng``."""
    per = max(1, _MEMORY_CELLS // max(1, n * width))
    return [rng.standard_normal((min(per, n_resamples - s), n, width)) for s in range(0, n_resamples, per)]


def _enabled(tests) -> np.ndarray:
    from mcda._core._kernels.design_power import N_PROCEDURES

    rows = {t: row for row, t in enumerate(TESTS)}  # the kernel's rows are the registry's order
    out = np.zeros(N_PROCEDURES, dtype=np.int64)
    for t in tests:
        out[rows[t]] = 1
    return out, rows


def _power_at(model: _Model, n: int, tests, alpha, rope, n_resamples, rng):
    enabled, rows = _enabled(tests)
    k = model.means.size
    blocks = (np.ascontiguousarray(model.means + z @ model.noise) for z in _normals(rng, n_resamples, n,
                                                                                    model.noise.shape[0]))
    return _simulate(blocks, n, k, alpha, rope, enabled), rows


def _detectable_shift(test, n, k, alpha, rope_std, target, normals, rows):
    """The smallest lead δ (noise sd) of method 0 over the others that ``test`` detects against a given
    other method with probability ``target`` (bisection on common draws), and NaN; or NaN and the power
    the largest lead reaches when even that misses the target."""
    enabled = np.zeros(len(rows), dtype=np.int64)
    enabled[rows[test]] = 1
    row = rows[test]
    ahead = np.zeros(k)

    def power(delta):
        ahead[0] = delta
        pair_counts, _, _ = _simulate((np.ascontiguousarray(z + ahead) for z in normals), n, k, alpha, rope_std,
                                      enabled)
        total = sum(z.shape[0] for z in normals)
        return pair_counts[row, :k - 1].sum() / (total * (k - 1.0))  # pairs (0, j) come first in triu order

    hi = 1.0
    while (reached := power(hi)) < target:
        if hi >= _LARGEST_SHIFT:
            return math.nan, reached
        hi *= 2.0
    lo = 0.0
    while hi - lo > _SHIFT_TOLERANCE * hi:
        mid = 0.5 * (lo + hi)
        if power(mid) >= target:
            hi = mid
        else:
            lo = mid
    return hi, math.nan


def _never_reason(test, n, k, alpha, reached) -> str:
    """Why no lead however large reaches the target power."""
    m = k * (k - 1) // 2
    if test in ("wilcoxon", "sign") and 2.0 ** (1 - n) > alpha / m:
        return (f"its smallest attainable p, 2/2^{n} = {2.0 ** (1 - n):.2g}, exceeds Holm's first threshold "
                f"alpha/m = {alpha / m:.2g}")
    if test == "nemenyi":
        from mcda.stats.across.posthoc import critical_difference

        cd = critical_difference(k, n, alpha=alpha, test="nemenyi")
        if cd > k - 1:
            return f"its critical difference {cd:.2f} exceeds the largest possible mean-rank gap {k - 1}"
    return (f"even a lead of {_LARGEST_SHIFT:g} noise sd, first on every dataset, is separated from a given other "
            f"method with probability {reached:.2f} only")


# --------------------------------------------------------------------------- the function


@states_scale
def design_power(scores, direction=None, *, n_datasets=None, tests=TESTS, alpha: float = 0.05,
                 target_power: float = 0.8, rope=None, sd=None, n_resamples: int = 400, max_datasets: int | None = 200,
                 rng=None, method_names=None) -> DesignPower:
    """How much could a benchmark of N datasets detect? Power of the procedures across datasets, by simulation.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube`, or effects given by hand
        A pilot: one score per (dataset, method) (reduce a ``seed`` dim first with
        :func:`mcda.reduce_seeds`; methods lacking a result are left out and named). Or the
        methods' expected scores given by hand — a mapping method → score, a Series or a 1-D
        sequence — with their noise ``sd``.
    direction : {"higher_is_better", "lower_is_better"}, optional
        As in :func:`mcda.data.cube.as_cube`.
    n_datasets : int, optional
        N, the datasets of the benchmark to simulate; default the pilot's (required with effects).
    tests : sequence of str
        Any of "nemenyi" (Friedman then Nemenyi), "holm" (Friedman then Holm on the Friedman
        z), "wilcoxon" (Wilcoxon–Holm), "sign" (sign tests, Holm) and "bayesian-sign".
    alpha : float
        Level of the omnibus and family-wise level of each post-hoc.
    target_power : float
        The power asked of ``mdd`` and ``datasets_needed``, in (alpha, 1).
    rope : float, optional
        The sign tests' rope (a difference within it is a tie for the sign test, an
        equivalence for the Bayesian sign test, as in :func:`mcda.pairwise_superiority` and
        :func:`mcda.bayesian_sign_comparison`). None: the metric card's noise floor (0 with
        effects given by hand).
    sd : float, optional
        With effects given by hand: the noise standard deviation of one cell (the spread of a
        method's score around its expected value, after the dataset's own level). Refused
        with a pilot, whose noise is estimated.
    n_resamples : int
        Simulated benchmarks per evaluation (Monte Carlo error of a power about
        √(p(1 − p)/n_resamples)).
    max_datasets : int or None
        The largest N searched for ``datasets_needed``; None: no search (NaN).
    rng : numpy.random.Generator, int or None
        The source of every draw (the results are reproducible from it).
    method_names : sequence of str, optional
        As in :func:`mcda.data.cube.as_cube`.

    Returns
    -------
    DesignPower
        ``table`` (see :meth:`DesignPower.to_frame`), ``pairs``, ``n_datasets``,
        ``n_methods``, ``pilot_datasets``, ``alpha``, ``target_power``, ``rope``, ``sd``,
        ``n_resamples``, ``max_datasets``, ``direction``, ``metric``, ``notes``.

    Raises
    ------
    McdaArgumentError
        An unknown test, ``target_power`` ≤ ``alpha``, ``sd`` with a pilot or effects without
        ``sd`` and ``n_datasets``, fewer than 2 datasets or methods.

    Notes
    -----
    **The model.** The procedures here compare methods within each dataset (ranks, paired
    differences), so a dataset's own level cancels: the pilot's scores are centred per dataset,
    each method's mean μ_j over the pilot is its effect, and the residuals r_ij give the noise
    covariance S = RᵀR/(N₀ − 1). A simulated dataset is x = μ + Σ_i z_i r_i/√(N₀ − 1) with z
    standard normal (N₀ draws per dataset): exactly normal with mean μ and covariance S, the
    pilot's mean differences and their correlations, without factorising S. Effects given by
    hand are x = μ + sd · z. Each simulated benchmark of N datasets is handed to the
    procedures' own decision rules (the omnibus at the Iman–Davenport F, Nemenyi's critical
    difference, Holm on the Friedman z's normal p, the Wilcoxon signed-rank p as
    :func:`mcda.pairwise_over_datasets` computes it, the exact sign test and the Bayesian sign
    test's decision at P ≥ 0.95 with its rope prior, all-pairs); ``power`` is the share of
    benchmarks with at least one pair separated. Where the model's methods do not differ, a
    separation is a false claim: the frequentist procedures keep that rate at α family-wise;
    the Bayesian sign test decides each pair on its own, so over many pairs its "power" includes
    decisions on pairs that do not differ (see ``pairs``).

    **Minimum detectable difference.** One method leads all others by δ, the others are
    equal, and every cell has independent noise of standard deviation σ̂ (the pooled noise of
    the pilot). ``mdd_std`` is the smallest δ/σ̂ at which the procedure separates the leader
    from a given other method with probability ``target_power`` (averaged over the k − 1
    others, bisection on common random numbers); ``mdd`` = ``mdd_std`` · σ̂ in the metric's
    units; a pair's ``mdd`` in ``pairs`` uses its own σ̂_ab instead (the tests are unchanged by
    the scale, so this is the shift the procedure would detect were that pair's noise the
    noise of every cell). Under this model a method ahead by δ has expected rank
    1 + (k − 1)(1 − Φ(δ/(σ√2))) and the others 1 + Φ(δ/(σ√2)) + (k − 2)/2, so the mean-rank gap
    is ``mdd_rank`` = k (Φ(mdd_std/√2) − ½). A non-significant result read beside ``mdd`` says
    what was ruled out: a lead at least ``mdd`` would probably have been seen; a smaller one
    could have gone unseen. Power at the observed effect adds nothing to a p-value
    (Hoenig & Heisey 2001), which is why ``mdd`` is the number to print beside "not separated".

    **Datasets needed.** The fewest N ≤ ``max_datasets`` at which ``power`` (the pilot's
    effects) reaches ``target_power``: a doubling search, then bisection, each evaluation on
    fresh draws (so within Monte Carlo error, about √(p(1 − p)/n_resamples)).

    The simulation loop is one numba kernel (:mod:`mcda._core._kernels.design_power`); a plain
    simulation running mcda's procedures on the same draws gives the same decisions
    (``tests/test_design_power.py``).

    References
    ----------
    Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets. JMLR 7:1–30.

    Hoenig, J. M. and Heisey, D. M. (2001). The abuse of power: the pervasive fallacy of power
    calculations for data analysis. The American Statistician 55(1):19–24.
    https://doi.org/10.1198/000313001300339897

    Lehmann, E. L. (1975). Nonparametrics: Statistical Methods Based on Ranks. Holden-Day.

    Examples
    --------
    >>> import mcda
    >>> result = mcda.design_power([0.0, 0.0, 0.5], sd=1.0, n_datasets=20, tests=("sign",), rng=1,
    ...                            n_resamples=200, max_datasets=None)
    >>> row = result.to_frame().iloc[0]
    >>> row["test"], bool(0 < row["power"] < 1), bool(row["mdd"] > 0.5)
    ('sign', True, True)
    """
    alpha = check_alpha(alpha)
    target_power = check_probability("target_power", target_power)
    if target_power <= alpha:
        raise McdaArgumentError(f"`target_power` must exceed `alpha` ({alpha!r}); got {target_power!r}",
                                argument="target_power", value=target_power)
    if isinstance(tests, str):
        tests = (tests,)
    if not isinstance(tests, (list, tuple)) or not tests:
        raise McdaArgumentTypeError(f"`tests` must be a non-empty sequence of test names; got {tests!r}",
                                    argument="tests", value=tests)
    chosen = {canonical("tests", t, allowed=TESTS) for t in tests}
    tests = tuple(t for t in TESTS if t in chosen)
    n_resamples = check_positive_int("n_resamples", n_resamples, minimum=10)
    if max_datasets is not None:
        max_datasets = check_positive_int("max_datasets", max_datasets, minimum=2)
    if n_datasets is not None:
        n_datasets = check_positive_int("n_datasets", n_datasets, minimum=2)
    rng = as_rng(rng)
    if _is_effects(scores):
        if sd is None:
            raise McdaArgumentError("`sd` is needed with effects given by hand (the noise of one cell); got None",
                                    argument="sd", value=sd)
        if not isinstance(sd, numbers.Real) or isinstance(sd, bool) or not (math.isfinite(sd) and sd > 0):
            raise McdaArgumentError(f"`sd` must be a finite number > 0; got {sd!r}", argument="sd", value=sd)
        if n_datasets is None:
            raise McdaArgumentError("`n_datasets` is needed with effects given by hand; got None",
                                    argument="n_datasets", value=None)
        model = _effects_model(scores, direction, float(sd))
        rope = 0.0 if rope is None else check_rope(rope)
        metric_name = None
        direction_name = direction or DIRECTIONS[0]
    else:
        if sd is not None:
            raise McdaArgumentError(f"`sd` is estimated from a pilot; pass it only with effects given by hand; got "
                                    f"{sd!r}", argument="sd", value=sd)
        from mcda.data.checks import resolve_rope
        from mcda.data.cube import single_score_cube

        cube = single_score_cube(scores, direction, method_names=method_names,
                                 what="the design-power simulation")
        model, oriented = _pilot_model(cube, None, None)
        rope = resolve_rope(cube, rope)
        metric_name = cube.attrs.get("metric")
        direction_name = cube.attrs.get("direction")
    n = model.pilot_datasets if n_datasets is None else n_datasets
    k = model.means.size
    m = k * (k - 1) // 2

    # power at the model's effects
    (pair_counts, any_counts, omnibus), rows = _power_at(model, n, tests, alpha, rope, n_resamples, rng)
    # the minimum detectable lead, on standardised draws shared by every procedure
    normals = _normals(rng, n_resamples, n, k)
    rope_std = rope / model.sd if model.sd > 0 else 0.0
    shift = {t: _detectable_shift(t, n, k, alpha, rope_std, target_power, normals, rows) for t in tests}
    # the datasets needed at the model's effects
    needed = {t: math.nan for t in tests}
    if max_datasets is not None:
        needed = _datasets_needed(model, tests, alpha, rope, target_power, n_resamples, max_datasets, rng)

    table_rows, pair_frames = [], []
    first, second = np.triu_indices(k, 1)
    names = np.array(model.methods, dtype=object)
    for t in tests:
        row = rows[t]
        delta, reached = shift[t]
        reason = _never_reason(t, n, k, alpha, reached) if not np.isfinite(delta) else ""
        rank_gap = k * (special.ndtr(delta / math.sqrt(2.0)) - 0.5) if t in _RANK_TESTS else math.nan
        table_rows.append({"test": t, "procedure": _procedure_name(t), "n_datasets": n, "n_methods": k, "power": any_counts[row] / n_resamples,
                           "omnibus_power": omnibus / n_resamples if t in _RANK_TESTS else math.nan,
                           "mdd": delta * model.sd, "mdd_std": delta, "mdd_rank": rank_gap,
                           "datasets_needed": needed[t], "reason": reason})
        pair_frames.append(pd.DataFrame({
            "test": t, "method_a": names[first], "method_b": names[second],
            "mean_diff": model.sign * (model.means[first] - model.means[second]),
            "power": pair_counts[row] / n_resamples, "mdd": delta * model.pair_sd}))
    notes = [f"power: at the {'pilot' if model.pilot_datasets else 'given'} effects (where two methods do not differ, "
             "a separation is a false claim); mdd: one method ahead of equal others, independent noise of the pooled "
             f"sd; Monte Carlo error of a power about {math.sqrt(0.25 / n_resamples):.2g} at most"]
    if model.pilot_datasets is not None and model.pilot_datasets <= k:
        notes.append(f"the pilot's {model.pilot_datasets} datasets estimate a {k} x {k} noise covariance of rank "
                     f"at most {model.pilot_datasets - 1}: the simulated noise has no spread outside that span")
    return DesignPower(table=pd.DataFrame(table_rows), pairs=pd.concat(pair_frames, ignore_index=True),
                       n_datasets=n, n_methods=k, pilot_datasets=model.pilot_datasets, alpha=alpha,
                       target_power=target_power, rope=float(rope), sd=model.sd, n_resamples=n_resamples,
                       max_datasets=max_datasets,
                       direction=direction_name, metric=metric_name, notes=tuple(notes))


def _datasets_needed(model, tests, alpha, rope, target, n_resamples, max_datasets, rng) -> dict:
    """Per test: the fewest N in [2, max_datasets] whose power reaches ``target`` (NaN beyond)."""
    cache: dict = {}

    def power(n):
        if n not in cache:
            (_, any_counts, _), rows = _power_at(model, n, tests, alpha, rope, n_resamples, rng)
            cache[n] = {t: any_counts[rows[t]] / n_resamples for t in tests}
        return cache[n]

    out = {}
    for t in tests:
        lo, hi = 1, 2
        while power(hi)[t] < target:
            if hi >= max_datasets:
                hi = None
                break
            lo, hi = hi, min(2 * hi, max_datasets)
        if hi is None:
            out[t] = math.nan
            continue
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if power(mid)[t] >= target:
                hi = mid
            else:
                lo = mid
        out[t] = float(hi)
    return out
