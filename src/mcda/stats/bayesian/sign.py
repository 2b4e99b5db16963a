"""The Bayesian sign test over datasets (:func:`bayesian_sign_comparison`) and its result,
:class:`BayesianComparison`, which the signed-rank test returns too.

Per pair of methods: the probability that A is practically better than B, that they are
practically equivalent, and that B is better (baycomp's sense: the probability that each
region has the largest share of the population of datasets), from the per-pair region counts
of :func:`mcda.stats.pairwise.pairwise_counts`, exact (one-dimensional integrals over gamma
variables, no sampling) or sampled. ``reproduce="baycomp"`` draws exactly baycomp's samples.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import special

from mcda._core.results import Result, states_scale
from mcda._core.validation import McdaArgumentError, check_choice
from mcda.data.checks import resolve_rope
from mcda.data.cube import single_score_cube
from mcda.data.design import without_empty_datasets
from mcda.stats.bayesian._shared import (_check_positive_float, _check_sampling, _check_threshold, _kept_pairs,
                                         _pair_rows, _probabilities_from_counts, _Progress, _region_columns,
                                         _standing, _two_regions)
from mcda.stats._shared.counts import counts_from_cube, region_counts

__all__ = ["BayesianComparison", "bayesian_sign_comparison"]

PRIORS = ("rope", "uniform", "neutral")
METHODS = ("exact", "sampling")

# baycomp adds 0.0001 to every Dirichlet parameter of the sign test "for numerical
# stability"; mcda keeps it so both define the same posterior.
_STABILISER = 1e-4
# exact mode: Gauss-Legendre nodes on log(x) over the bulk of G_j, tails cut at _TAIL
_N_NODES = 64
_TAIL = 1e-14
_NEGLIGIBLE = 1e-13
# rope = 0, sampled sign test: the ratio P(a) / (P(a) + P(b)) needs this many draws won by a
# directional region (its Monte Carlo sd is then at most sqrt(0.25 / 100) = 0.05)
_MIN_DIRECTIONAL_DRAWS = 100

_COLUMNS = ["method_a", "method_b", "n_datasets", "prob_a_better", "prob_equivalent", "prob_b_better", "label",
            "mean_a_better", "mean_equivalent", "mean_b_better", "reason"]


# --------------------------------------------------------------------------- result

@dataclass(frozen=True, repr=False)
class BayesianComparison(Result):
    """Posterior probabilities of A better / equivalent / B better, for every pair of methods.

    Attributes
    ----------
    test : {"sign", "signed_rank"}
        Which Bayesian test.
    methods : list of str
        The methods, in the input's order.
    table : pandas.DataFrame
        One row per unordered pair (see :meth:`to_frame` for the columns).
    standing : pandas.Series
        Per method: the mean over the other methods of the probability that it scores at
        least as high (P(better) + P(equivalent)); NaN pairs are left out of the mean.
    order : list of str
        The methods by decreasing standing.
    rope : float
        Half-width of the region of practical equivalence, in the metric's units.
    prior : str
        Sign test: where the prior mass sits (``"rope"``, ``"uniform"``, ``"neutral"``);
        signed-rank: ``"pseudo_observation"`` (a prior observation at 0).
    prior_strength : float
    threshold : float
        A region is the pair's ``label`` when its probability reaches this.
    method : {"exact", "sampling"}
    n_samples : int or None
        Posterior draws per pair (None for the exact method).
    direction : str
        The metric's direction.
    draws : dict or None
        ``(method_a, method_b) -> ndarray (n_samples, 3)``: the shares of the three regions
        (a better, equivalent, b better) in every posterior draw, for plotting. None for the
        exact method (and when ``keep_draws=False``).
    reproduce : str or None
        ``"baycomp"`` when the draws are baycomp's own.
    """

    test: str
    methods: list
    table: pd.DataFrame
    standing: pd.Series
    order: list
    rope: float
    prior: str
    prior_strength: float
    threshold: float
    method: str
    n_samples: int | None
    direction: str
    draws: dict | None = None
    reproduce: str | None = None

    def to_frame(self) -> pd.DataFrame:
        """One row per pair.

        Columns: ``method_a, method_b, n_datasets`` (shared datasets), ``prob_a_better,
        prob_equivalent, prob_b_better`` (the probability that each region has the largest share;
        they sum to 1), ``label`` (``"a_better"``, ``"equivalent"``, ``"b_better"`` when
        that probability reaches ``threshold``, else ``"inconclusive"``; ``"not_applicable"``
        for a NaN row), ``mean_a_better, mean_equivalent, mean_b_better`` (posterior mean
        share of each region) and ``reason`` (why a row is NaN, else empty).
        """
        return self.table.copy()

    def _title(self) -> str:
        name = {"sign": "Bayesian sign test", "signed_rank": "Bayesian signed-rank test"}[self.test]
        how = "exact" if self.method == "exact" else f"{self.n_samples} posterior draws per pair"
        if self.reproduce:
            how += f", {self.reproduce}'s draws"
        prior = (f"prior {self.prior_strength:g} on {self.prior!r}" if self.test == "sign"
                 else f"prior pseudo-observation at 0 with weight {self.prior_strength:g}")
        rope = f"rope {self.rope:g}" if self.rope > 0 else "rope 0 (two regions)"
        return f"{name} ({how}); {rope}, {prior}, threshold {self.threshold:g}; {self.direction}"

    def summary(self) -> str:
        """The pairs, their labels and the standing, rounded for reading."""
        shown = self.table[["method_a", "method_b", "n_datasets", "prob_a_better", "prob_equivalent", "prob_b_better",
                            "label"]].copy()
        for col in ("prob_a_better", "prob_equivalent", "prob_b_better"):
            shown[col] = shown[col].round(4)
        lines = [self._title(), shown.to_string(index=False), "", "standing (mean P(at least as high)):"]
        lines += [f"  {m}: {self.standing[m]:.4f}" for m in self.order]
        notes = self.table.loc[self.table["reason"] != "", ["method_a", "method_b", "reason"]]
        lines += [f"note: {r.method_a} vs {r.method_b}: {r.reason}" for r in notes.itertuples()]
        return "\n".join(lines)


# --------------------------------------------------------------------------- exact sign test

@functools.lru_cache(maxsize=None)
def _gauss_legendre():
    """The quadrature nodes and weights on [0, 1] (computed once: an eigenvalue problem each time)."""
    nodes, weights = np.polynomial.legendre.leggauss(_N_NODES)
    nodes, weights = (nodes + 1.0) / 2.0, weights / 2.0
    nodes.setflags(write=False)
    weights.setflags(write=False)
    return nodes, weights


def _argmax_probabilities(alpha) -> np.ndarray:
    """P(region j has the largest share) under Dirichlet(α), for every row of ``alpha`` (m, 3).

    A Dirichlet vector is (G_0, G_1, G_2) / ΣG with independent G_i ~ Gamma(α_i, 1), so its
    largest share is the largest G and

        P(j largest) = ∫ f_j(x) Π_{i≠j} F_i(x) dx

    (gamma densities f, distribution functions F). The integral is taken in t = log x by
    64-point Gauss-Legendre over the bulk of G_j: below max(the 1e-14 quantiles of every G,
    the point where Π F_i < 1e-14) and above the 1 − 1e-14 quantile of G_j the integrand
    has less than 1e-14 of mass. A region whose probability is provably below 1e-13
    (P(j largest) ≤ min_i P(G_j > G_i) = min_i I_½(α_i, α_j)) is set to 0 and the other two
    then follow from one regularised beta function. Accurate to about 1e-12 (checked
    against adaptive quadrature in the tests).
    """
    alpha = np.asarray(alpha, dtype=np.float64).reshape(-1, 3)
    out = np.zeros_like(alpha)
    if alpha.shape[0] == 0:
        return out
    unique, inverse = np.unique(alpha, axis=0, return_inverse=True)
    inverse = np.asarray(inverse).reshape(-1)
    m = unique.shape[0]
    # beats[:, j, i] = P(G_j > G_i) = I_{1/2}(alpha_i, alpha_j)
    a_i = unique[:, None, :]
    a_j = unique[:, :, None]
    beats = special.betainc(a_i, a_j, 0.5)
    idx = np.arange(3)
    beats[:, idx, idx] = 1.0
    bound = beats.min(axis=2)
    negligible = bound <= _NEGLIGIBLE
    n_negligible = negligible.sum(axis=1)
    prob = np.zeros((m, 3))
    # two negligible regions: the third has everything
    two = n_negligible >= 2
    prob[two] = (~negligible[two]).astype(float)
    # one negligible region l: P(j) = P(G_j > G_k) up to P(l largest) <= 1e-13
    one = np.nonzero(n_negligible == 1)[0]
    for r in one:
        j, k = [c for c in range(3) if not negligible[r, c]]
        prob[r, j] = beats[r, j, k]
        prob[r, k] = beats[r, k, j]
    full = np.nonzero(n_negligible == 0)[0]
    if full.size:
        prob[full] = _argmax_quadrature(unique[full])
    totals = prob.sum(axis=1, keepdims=True)
    prob = prob / totals
    out[:] = prob[inverse]
    return out


def _argmax_quadrature(alpha: np.ndarray) -> np.ndarray:
    x01, w01 = _gauss_legendre()
    with np.errstate(divide="ignore"):
        low_q = np.log(special.gammaincinv(alpha, _TAIL))
    high_q = np.log(special.gammainccinv(alpha, _TAIL))
    # Π_i F_i(x) <= x^{Σα} / Π Γ(α_i + 1): below this t all regions together hold < _TAIL
    t_product = (math.log(_TAIL) + special.gammaln(alpha + 1.0).sum(axis=1)) / alpha.sum(axis=1)
    t_low_all = np.maximum(low_q.max(axis=1), t_product)
    out = np.zeros_like(alpha)
    for j in range(3):
        low = t_low_all
        high = high_q[:, j]
        ok = high > low
        if not ok.any():
            continue
        a = alpha[ok]
        width = (high - low)[ok]
        t = low[ok, None] + width[:, None] * x01[None, :]
        x = np.exp(t)
        a_j = a[:, j:j + 1]
        integrand = np.exp(a_j * t - x - special.gammaln(a_j))
        for i in range(3):
            if i != j:
                integrand *= special.gammainc(a[:, i:i + 1], x)
        out[ok, j] = width * (integrand @ w01)
    return out


def _sign_alpha(wins_a, equivalent, wins_b, prior: str, prior_strength: float) -> np.ndarray:
    """Dirichlet parameters (m, 3) of (a better, equivalent, b better), as baycomp builds them."""
    alpha = np.stack([wins_a, equivalent, wins_b], axis=1).astype(np.float64)
    alpha += _STABILISER
    if prior == "rope":
        alpha[:, 1] += prior_strength
    elif prior == "uniform":
        alpha += prior_strength / 3.0
    else:  # neutral
        alpha[:, [0, 2]] += prior_strength / 2.0
    return alpha


def _assemble(test, methods, pairs, n_shared, prob, means, reasons, *, rope, prior, prior_strength, threshold,
              method, n_samples, direction, draws, reproduce) -> BayesianComparison:
    nan_rows = np.array([bool(r) for r in reasons], dtype=bool)
    prob = np.where(nan_rows[:, None], np.nan, prob)
    means = np.where(nan_rows[:, None], np.nan, means)
    table = pd.DataFrame({
        "method_a": [methods[i] for i, _ in pairs],
        "method_b": [methods[j] for _, j in pairs],
        "n_datasets": np.asarray(n_shared, dtype=np.int64),
        **_region_columns(prob, threshold, nan_rows, means),
        "reason": np.asarray(reasons, dtype=object),
    }, columns=_COLUMNS)
    standing, order = _standing(methods, pairs, prob)
    return BayesianComparison(test=test, methods=list(methods), table=table, standing=standing, order=order,
                              rope=rope, prior=prior, prior_strength=prior_strength, threshold=threshold,
                              method=method, n_samples=n_samples, direction=direction, draws=draws,
                              reproduce=reproduce)


def _few_directional(k: int, n_samples: int) -> str:
    return (f"with rope = 0 only {k} of {n_samples} posterior draws have a directional region largest (the tie cell "
            "wins the rest): too few for P(a better) / (P(a better) + P(b better)), whose Monte Carlo error would "
            f"exceed 0.05 (it needs {_MIN_DIRECTIONAL_DRAWS}); use method='exact' or more n_samples")


# --------------------------------------------------------------------------- sign test

@states_scale
def bayesian_sign_comparison(scores, direction=None, *, rope=None, prior: str = "rope", prior_strength: float = 1.0,
                             threshold: float = 0.95, method: str = "exact", n_samples: int = 50_000, rng=None,
                             reproduce: str | None = None, keep_draws: bool = True, progress=None,
                             method_names=None) -> BayesianComparison:
    r"""Bayesian sign test for every pair of methods: P(A better), P(equivalent), P(B better).

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube`
        One score per (dataset, method); NaN cells are dropped pairwise.
    direction : {"higher_is_better", "lower_is_better"}, optional
        As in :func:`mcda.data.cube.as_cube`.
    rope : float, optional
        Half-width of the region of practical equivalence in the metric's units; None uses
        the card's noise floor. 0 leaves two regions (see Notes).
    prior : {"rope", "uniform", "neutral"}
        Where the prior mass goes: all on the equivalence region (baycomp's default), spread
        evenly over the three regions, or evenly over the two directional regions.
    prior_strength : float
        The prior's total weight, in datasets (> 0; baycomp's default 1).
    threshold : float
        In (0.5, 1): a pair is labelled with the region whose probability reaches it.
    method : {"exact", "sampling"}
        ``"exact"`` integrates the posterior (no randomness, accurate to ~1e-12);
        ``"sampling"`` draws ``n_samples`` posterior samples per pair (and keeps them in
        ``draws`` for plotting).
    n_samples : int
        Posterior draws per pair for ``method="sampling"`` (>= 1); with ``method="exact"`` any
        other value than the default raises (it would not be used), and so does an ``rng``.
    rng : numpy.random.Generator or seed, optional
        Source of the draws. With ``reproduce="baycomp"`` an int seed: every pair draws from
        a fresh ``numpy.random.RandomState(rng)``, exactly as baycomp's ``random_state``.
    reproduce : {None, "baycomp"}
        ``"baycomp"`` (with ``method="sampling"``): baycomp's own samples and its exact float
        comparison with the rope (see Notes), so the results are baycomp's bit for bit.
    keep_draws : bool or list of (method_a, method_b)
        Keep the per-pair draws (``n_samples × 3`` floats per pair) in the result: every
        pair's (True), none (False), or only the pairs listed (what a plot needs). Refused
        before sampling when they would exceed ``mcda.get_options()["memory_limit"]``.
    progress : bool, optional
        Report progress on stderr: None (default) when a sampled run will take more than
        about 2 seconds, True always, False never.
    method_names : sequence of str, optional
        As in :func:`mcda.data.cube.as_cube`.

    Returns
    -------
    BayesianComparison
        ``test="sign"``; per pair (``to_frame()``): ``method_a, method_b, n_datasets,
        prob_a_better, prob_equivalent, prob_b_better, label, mean_a_better, mean_equivalent,
        mean_b_better, reason``; per method ``standing`` and ``order``; ``draws`` when
        sampled.

    Raises
    ------
    ValueError
        ``n_samples < 1``, a negative rope, ``threshold`` outside (0.5, 1),
        ``prior_strength <= 0``, an unknown ``prior`` / ``method`` / ``reproduce``,
        ``reproduce="baycomp"`` with ``method="exact"``, or scores with a seed dim.
    TypeError
        A non-integer ``n_samples``, or ``reproduce="baycomp"`` without an int seed.

    Notes
    -----
    Per pair (a, b), each shared dataset falls in one region by its oriented difference
    d = a − b: a better (d > rope), equivalent (|d| ≤ rope) or b better (d < −rope); the
    counts are :func:`mcda.stats.pairwise.pairwise_counts`'s. The region shares θ get the
    posterior Dirichlet(α) with α = counts + 0.0001 (baycomp's stabiliser) + the prior
    (``prior_strength`` on the rope cell, or split evenly as ``prior`` says). Following
    baycomp, the reported probability of a region is the posterior probability that it
    has the **largest** share, P(θ_j = max θ); ``mean_*`` are the posterior means
    α_j / Σα. Exactly, with θ = G / ΣG for independent G_i ~ Gamma(α_i),

    .. math:: P(\theta_j \text{ largest}) = \int_0^\infty f_j(x) \prod_{i \ne j} F_i(x)\,dx,

    a one-dimensional integral evaluated by Gauss–Legendre quadrature in log x (no
    sampling). With ``method="sampling"`` the same probability is the share of draws a
    region wins (Monte Carlo error about ``sqrt(p (1 − p) / n_samples)``; baycomp's
    default of 50,000 draws gives ±0.005 at most at two standard errors).

    With rope = 0 there are two regions. As baycomp, the equivalence cell still holds the
    exact ties and (with ``prior="rope"``) the prior, and the two probabilities are
    P(a) / (P(a) + P(b)) and P(b) / (P(a) + P(b)); ``prob_equivalent`` is then 0 (not NaN: the
    three probabilities still sum to 1) and the means are α_a / (α_a + α_b) and
    α_b / (α_a + α_b). When the tie cell wins (almost) every draw the ratio is undefined
    and the row is NaN with a reason; with ``method="sampling"`` that includes fewer than 100
    draws won by a directional region (the ratio's Monte Carlo error would exceed 0.05:
    ``method="exact"`` computes it from the posterior instead).

    A difference that equals the rope up to the rounding of the subtraction (0.77 − 0.76 =
    0.010000000000000009 against 0.01) is an equivalence, as everywhere in mcda
    (:func:`mcda.stats.pairwise.pairwise_counts`); baycomp compares the computed difference exactly
    and counts it as a win. Scores with few decimals hit this often, and one dataset moving
    region can change the probabilities by more than their Monte Carlo error.
    ``reproduce="baycomp"`` counts as baycomp does.

    The test treats datasets as exchangeable draws from a population and counts only
    which region each falls in; magnitudes matter only through the rope (use
    :func:`bayesian_signed_rank_comparison` to weigh them).

    References
    ----------
    .. [1] Benavoli, A., Corani, G., Mangili, F., Zaffalon, M. and Ruggeri, F. (2014). A
       Bayesian Wilcoxon signed-rank test based on the Dirichlet process. ICML, PMLR
       32(2):1026-1034. https://proceedings.mlr.press/v32/benavoli14.html
    .. [2] Benavoli, A., Corani, G., Demšar, J. and Zaffalon, M. (2017). Time for a change:
       a tutorial for comparing multiple classifiers through Bayesian analysis. JMLR
       18(77):1-36. https://jmlr.org/papers/v18/16-305.html (arXiv:1606.04316)

    Examples
    --------
    >>> from mcda import bayesian_sign_comparison, datasets
    >>> cube = datasets.load("benavoli2017_uci54").sel({"method": ["nbc", "aode"]})
    >>> result = bayesian_sign_comparison(cube, rope=0.01)
    >>> row = result.to_frame().iloc[0]
    >>> row["method_a"], row["method_b"], int(row["n_datasets"])
    ('nbc', 'aode', 54)
    >>> [float(round(row[c], 4)) for c in ("prob_a_better", "prob_equivalent", "prob_b_better")]
    [0.0, 0.7121, 0.2879]
    >>> row["label"]
    'inconclusive'
    """
    check_choice("prior", prior, PRIORS)
    prior_strength = _check_positive_float("prior_strength", prior_strength)
    threshold = _check_threshold(threshold)
    check_choice("method", method, METHODS)
    n_samples, reproduce, source, progress, keep_draws = _check_sampling(n_samples, reproduce, rng, progress,
                                                                         keep_draws,
                                                             method)
    if method == "exact":  # the exact posterior draws nothing: a sample size or a seed would be silently unused
        for name, given, default in (("n_samples", n_samples, 50_000), ("rng", rng, None)):
            if given is not default and given != default:
                raise McdaArgumentError(f"`{name}` is used only with method='sampling'; method='exact' integrates the "
                                        f"posterior and draws nothing. Leave `{name}` out, or pass method='sampling'.",
                                        argument=name, value=given)
    cube = single_score_cube(scores, direction, method_names=method_names, what="a comparison over datasets")
    rope = resolve_rope(cube, rope)
    counts = counts_from_cube(without_empty_datasets(cube), rope)
    methods = counts.methods
    wins = counts.wins.to_numpy()
    eq = counts.n_equivalent.to_numpy()
    shared = counts.n_shared.to_numpy()
    if reproduce:
        # baycomp compares the computed differences with the rope exactly (0.77 - 0.76 =
        # 0.010000000000000009 is a win there); the same counting kernel without the tolerance
        wins, eq, shared = region_counts(cube, rope, 0.0)
    pairs, ii, jj, n_shared, reasons = _pair_rows(shared)
    alpha = _sign_alpha(wins[ii, jj], eq[ii, jj], wins[jj, ii], prior, prior_strength)
    usable = n_shared > 0

    draws = None
    if method == "exact":
        prob = np.full((len(pairs), 3), np.nan)
        prob[usable] = _argmax_probabilities(alpha[usable])
    else:
        from mcda._core._kernels.dirichlet import count_winners, normalise_and_count

        prob = np.full((len(pairs), 3), np.nan)
        kept = _kept_pairs(keep_draws, methods, pairs, usable, n_samples, working=3 * 3 * 8)
        draws = {} if keep_draws is not False else None
        bar = _Progress(int(usable.sum()), f"Bayesian sign test ({int(usable.sum())} pairs)", progress)
        done = 0
        for p in np.nonzero(usable)[0]:
            if reproduce:
                shares = np.random.RandomState(source).dirichlet(alpha[p], n_samples)
                wins_count = count_winners(shares)
            else:
                shares = source.standard_gamma(alpha[p], size=(n_samples, 3))
                wins_count = normalise_and_count(shares)
            prob[p] = _probabilities_from_counts(wins_count, n_samples)
            directional = int(wins_count[0] + wins_count[2])
            if rope == 0 and not reproduce and 0 < directional < _MIN_DIRECTIONAL_DRAWS:
                reasons[p] = _few_directional(directional, n_samples)
            if kept[p]:
                draws[(methods[ii[p]], methods[jj[p]])] = shares
            done += 1
            bar.update(done)
        bar.close()

    with np.errstate(invalid="ignore", divide="ignore"):
        means = alpha / alpha.sum(axis=1, keepdims=True)
    if rope == 0:
        prob, reasons = _two_regions(prob, reasons, usable)
        with np.errstate(invalid="ignore", divide="ignore"):
            directional = alpha[:, 0] + alpha[:, 2]
            means = np.stack([alpha[:, 0] / directional, np.zeros(len(pairs)), alpha[:, 2] / directional], axis=1)
    return _assemble("sign", methods, pairs, n_shared, prob, means, reasons, rope=rope, prior=prior,
                     prior_strength=prior_strength, threshold=threshold, method=method,
                     n_samples=n_samples if method == "sampling" else None, direction=counts.direction,
                     draws=draws, reproduce=reproduce)
