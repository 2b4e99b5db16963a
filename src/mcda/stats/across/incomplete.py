"""Across datasets when some cells are missing: test the incomplete design as it is.

Dropping every method that lacks one dataset (the complete-case default of
:func:`mcda.friedman_test`) can lose the method a paper is about; dropping every dataset with
a hole can lose most datasets. The tests here use every result there is, ranking the methods
within each dataset among those present:

- :func:`skillings_mack_test` — any missing pattern (Skillings & Mack 1981); on a complete
  design it is Friedman's χ² (the untied one, which mcda reports by default).
- :func:`skillings_mack_posthoc` — the pairwise comparisons after a rejecting Skillings–Mack test:
  each pair's contrast of the Skillings–Mack rank sums, adjusted for the competitors each method
  met, against its null covariance (normal, or the conditional permutation distribution).
- :func:`durbin_test` — a balanced incomplete block design (every dataset has the same
  number k of methods, every method the same number r of datasets, every pair of methods
  meets on the same number λ of datasets; Durbin 1951), with Conover's F form and his
  post-hoc comparisons of rank sums (Conover 1999, §5.9).

Nothing is imputed. Ranks are 1 = best on the oriented scores (the statistics do not depend
on the direction; the mean ranks reported do).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import special, stats

from mcda._core.validation import McdaArgumentError
from mcda._core.validation import as_rng, check_alpha, check_control, check_positive_int, shown
from mcda.stats._shared.multitest import adjust_pvalues, canonical_adjustment
from mcda.stats._shared.ranks import prepare_across
from mcda._core.numeric import rank
from mcda._core.results import OmnibusResult, states_scale
from mcda.stats._shared.posthoc import PosthocResult, pair_matrix

__all__ = ["skillings_mack_test", "skillings_mack_posthoc", "durbin_test", "SkillingsMackResult", "DurbinResult",
           "Design"]

_TOL = 1e-9


@dataclass(frozen=True)
class Design:
    """The missing pattern of a datasets × methods cube (what is present where).

    Attributes
    ----------
    kind : {"complete", "balanced incomplete", "unbalanced incomplete"}
    n_datasets_per_method : pandas.Series
        Datasets on which each method has a result.
    n_methods_per_dataset : pandas.Series
        Methods with a result on each dataset.
    pair_counts : pandas.DataFrame
        Datasets shared by each pair of methods (λ for a balanced design; diagonal = r).
    """

    kind: str
    n_datasets_per_method: pd.Series
    n_methods_per_dataset: pd.Series
    pair_counts: pd.DataFrame

    def summary(self) -> str:
        counts = self.n_datasets_per_method
        per = ", ".join(f"{m} {int(n)}" for m, n in counts.items())
        return f"{self.kind} design; datasets per method: {per}"


def _design_of(present: np.ndarray, methods, datasets) -> Design:
    """The :class:`Design` of a presence mask (datasets × methods, True where a result exists)."""
    p = present.astype(np.int64)
    pairs = p.T @ p
    per_method = pd.Series(p.sum(axis=0), index=pd.Index(methods, name="method"), name="n_datasets")
    per_dataset = pd.Series(p.sum(axis=1), index=pd.Index(datasets, name="dataset"), name="n_methods")
    if present.all():
        kind = "complete"
    else:
        off = pairs[~np.eye(len(methods), dtype=bool)]
        balanced = (per_dataset.nunique() == 1 and per_method.nunique() == 1 and len(set(off.tolist())) == 1
                    and off[0] > 0)
        kind = "balanced incomplete" if balanced else "unbalanced incomplete"
    return Design(kind=kind, n_datasets_per_method=per_method, n_methods_per_dataset=per_dataset,
                  pair_counts=pd.DataFrame(pairs, index=pd.Index(methods, name="method"),
                                           columns=pd.Index(methods, name="versus")))


def prepared_incomplete(scores, direction, method_names, what: str):
    """Oriented values with NaN kept; datasets with fewer than 2 results are dropped and named."""
    prep = prepare_across(scores, direction, method_names=method_names, missing="available")
    values = prep.values
    present = ~np.isnan(values)
    few = present.sum(axis=1) < 2
    dropped = tuple(np.asarray(prep.datasets, dtype=object)[few].tolist()) + tuple(prep.empty_datasets)
    values, present = values[~few], present[~few]
    datasets = [d for d, f in zip(prep.datasets, few) if not f]
    if values.shape[0] == 0:
        raise McdaArgumentError(f"{what} needs datasets with results for at least 2 methods; none has "
                         f"(datasets {shown(prep.datasets)})", argument=None)
    lonely = [m for m, n in zip(prep.methods, present.sum(axis=0)) if n == 0]
    if lonely:
        raise McdaArgumentError(f"{what}: methods {shown(lonely)} share no dataset with another method, so nothing "
                         "compares them; drop them or add results", argument=None)
    return values, present, list(prep.methods), datasets, dropped


def _ranks_present(values: np.ndarray, present: np.ndarray) -> np.ndarray:
    """Rank 1 = best among the methods present on each dataset (ties averaged); NaN where absent."""
    return rank(np.where(present, values, np.nan), descending=True)


@dataclass(frozen=True, repr=False)
class SkillingsMackResult(OmnibusResult):
    """The Skillings–Mack test on an incomplete (or complete) design (an :class:`~mcda._core.results.OmnibusResult`).

    Attributes
    ----------
    statistic : float
        SM = A' Σ⁻ A (see Notes of :func:`skillings_mack_test`).
    pvalue : float
        P(χ²_df ≥ SM).
    df : int
        The rank of Σ (k − 1 when the methods are connected through shared datasets).
    rejected : bool
        ``pvalue <= alpha``.
    alpha : float
    n_datasets, n_methods : int
    mean_ranks : pandas.Series
        Mean within-dataset rank (1 = best) over the datasets each method has: ranked among
        different pools where cells are missing, so descriptive only.
    adjusted_rank_sums : pandas.Series
        A_j, the weighted sums of centred ranks the statistic is built from (positive = ranks
        better than average).
    design : Design
        The missing pattern tested (its ``kind``, datasets per method, pair counts).
    excluded : dict
        Always empty: no method is dropped (kept for the shape of a Friedman result).
    dropped_datasets : tuple
        Datasets with fewer than 2 results (they carry no rank information).
    reason : str
        Why a value is NaN ("" when all apply), or a note on the approximation.
    """

    statistic: float
    pvalue: float
    df: int
    rejected: bool
    alpha: float
    n_datasets: int
    n_methods: int
    mean_ranks: pd.Series
    adjusted_rank_sums: pd.Series
    design: Design
    excluded: dict = field(default_factory=dict)
    dropped_datasets: tuple = ()
    reason: str = ""
    test: str = "skillings-mack"

    def to_frame(self) -> pd.DataFrame:
        """One row: ``test, statistic, df, pvalue, design``."""
        return pd.DataFrame({"test": [self.test], "statistic": [self.statistic], "df": [self.df],
                             "pvalue": [self.pvalue], "design": [self.design.kind]})

    def summary(self) -> str:
        lines = [f"Skillings-Mack chi2({self.df}) = {self.statistic:.3f}, p = {self.pvalue:.3g} "
                 f"({self.design.kind} design, {self.n_datasets} datasets; each method ranked among the methods "
                 "present on each dataset)",
                 "  datasets per method: " + ", ".join(f"{m} {int(n)}" for m, n in
                                                       self.design.n_datasets_per_method.items())]
        if self.dropped_datasets:
            lines.append(f"  datasets with fewer than 2 results (no rank information): {list(self.dropped_datasets)}")
        lines.append(f"  {'rejects' if self.rejected else 'does not reject'} at alpha = {self.alpha:g}")
        if self.reason:
            lines.append(f"  note: {self.reason}")
        return "\n".join(lines)


def _skillings_mack(values: np.ndarray, present: np.ndarray):
    ranks = _ranks_present(values, present)
    size = present.sum(axis=1, keepdims=True).astype(float)
    # Skillings & Mack (1981) eq. (2.1): sqrt(12/(k_i+1)) (r_ij - (k_i+1)/2), 0 where j is absent on dataset i.
    # Centred so that a better rank (a smaller number) counts positive.
    weighted = np.where(present, np.sqrt(12.0 / (size + 1.0)) * ((size + 1.0) / 2.0 - np.nan_to_num(ranks)), 0.0)
    adjusted = weighted.sum(axis=0)
    p = present.astype(float)
    together = p.T @ p
    np.fill_diagonal(together, 0.0)
    sigma = np.diag(together.sum(axis=1)) - together  # Σ: -λ_jl off the diagonal, Σ_l λ_jl on it
    df = int(np.linalg.matrix_rank(sigma))
    statistic = float(adjusted @ np.linalg.pinv(sigma) @ adjusted)
    return statistic, df, adjusted, ranks


@states_scale
def skillings_mack_test(scores, direction=None, *, alpha: float = 0.05, method_names=None) -> SkillingsMackResult:
    """Skillings & Mack's Friedman-type test for any pattern of missing cells.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube`
        One score per (dataset, method), NaN where a method has no result (reduce a ``seed``
        dim first, :func:`mcda.reduce_seeds`).
    direction : {"higher_is_better", "lower_is_better"}, optional
        As in :func:`mcda.data.cube.as_cube`.
    alpha : float
        Level of ``rejected``.
    method_names : sequence of str, optional
        As in :func:`mcda.data.cube.as_cube`.

    Returns
    -------
    SkillingsMackResult
        ``statistic``, ``pvalue``, ``df``, ``rejected``, ``mean_ranks`` (descriptive),
        ``adjusted_rank_sums``, ``design`` (with the datasets per method), ``dropped_datasets``.

    Raises
    ------
    ValueError
        No dataset with 2 results; a method that shares no dataset with any other; a ``seed`` dim.

    Notes
    -----
    On dataset i with k_i methods present, method j's rank r_ij (among the present ones)
    becomes √(12/(k_i + 1)) ((k_i + 1)/2 − r_ij), and 0 where j is absent; A_j sums these over
    the datasets. Under the null (no method effect, cells missing independently of the scores)
    A has covariance Σ with Σ_jl = −λ_jl (j ≠ l) and Σ_jj = Σ_l λ_jl, λ_jl the number of
    datasets j and l share. SM = A' Σ⁻ A (Σ⁻ a generalised inverse) is approximately χ² with
    rank(Σ) degrees of freedom (Skillings & Mack 1981; Chatfield & Mander 2009).

    On a complete design SM equals Friedman's χ²_F without the tie correction, the statistic
    :func:`mcda.friedman_test` reports; on a balanced incomplete design it equals Durbin's
    statistic without ties. The covariance assumes no ties (Chatfield & Mander's "no-ties"
    covariance): with many tied scores the χ² p-value is conservative. The χ² approximation
    wants a fair number of datasets per method; with few, treat p as indicative.

    References
    ----------
    Skillings, J. H., Mack, G. A. (1981). On the use of a Friedman-type statistic in balanced
    and unbalanced block designs. Technometrics 23(2):171–177. doi:10.1080/00401706.1981.10486261

    Chatfield, M., Mander, A. (2009). The Skillings–Mack test (Friedman test when there are
    missing data). Stata Journal 9(2):299–305. doi:10.1177/1536867X0900900208

    Examples
    --------
    Skillings & Mack (1981), Table 1 (four methods of assembling a product, nine blocks,
    lower time is better):

    >>> import numpy as np, mcda
    >>> y = np.array([[3.2, 4.1, 3.8, 4.2], [3.1, 3.9, 3.4, 4.0], [4.3, 3.5, 4.6, 4.8],
    ...               [3.5, 3.6, 3.9, 4.0], [3.6, 4.2, 3.7, 3.9], [4.5, 4.7, 3.7, np.nan],
    ...               [np.nan, 4.2, 3.4, np.nan], [4.3, 4.6, 4.4, 4.9], [3.5, np.nan, 3.7, 3.9]])
    >>> res = mcda.skillings_mack_test(y, "lower_is_better", method_names=list("ABCD"))
    >>> round(res.statistic, 3), res.df, round(res.pvalue, 4)
    (15.493, 3, 0.0014)
    """
    alpha = check_alpha(alpha)
    values, present, methods, datasets, dropped = prepared_incomplete(scores, direction, method_names,
                                                          "the Skillings-Mack test")
    statistic, df, adjusted, ranks = _skillings_mack(values, present)
    pvalue = float(special.chdtrc(df, statistic)) if df > 0 else math.nan
    reason = "" if df > 0 else "the methods share no dataset pairwise: Σ is 0 and the test does not apply"
    if df > 0 and df < len(methods) - 1:
        reason = (f"the methods fall into groups that share no dataset: df = {df} < k - 1 = {len(methods) - 1}, "
                  "and methods in different groups are not compared")
    design = _design_of(present, methods, datasets)
    mean = pd.Series(np.nanmean(ranks, axis=0), index=pd.Index(methods, name="method"), name="mean_rank")
    return SkillingsMackResult(statistic=statistic, pvalue=pvalue, df=df, rejected=bool(pvalue <= alpha),
                               alpha=alpha, n_datasets=len(datasets), n_methods=len(methods), mean_ranks=mean,
                               adjusted_rank_sums=pd.Series(adjusted, index=mean.index, name="adjusted_rank_sum"),
                               design=design, dropped_datasets=dropped, reason=reason)


# --------------------------------------------------------------------------- pairwise Skillings-Mack


def _centred_scores(values: np.ndarray, present: np.ndarray):
    """Per-cell √(12/(k_i + 1)) ((k_i + 1)/2 − r_ij) (0 where absent) and the per-dataset weights √(12/(k_i + 1))."""
    ranks = _ranks_present(values, present)
    size = present.sum(axis=1, keepdims=True).astype(float)
    weight = np.sqrt(12.0 / (size + 1.0))
    return np.where(present, weight * ((size + 1.0) / 2.0 - np.nan_to_num(ranks)), 0.0), weight[:, 0]


def _laplacian(present: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """Σ_i weight_i × (the complete graph's Laplacian on the methods present on dataset i)."""
    p = present.astype(float)
    together = p.T @ (weight[:, None] * p)
    np.fill_diagonal(together, 0.0)
    return np.diag(together.sum(axis=1)) - together


def _contrast_parts(values: np.ndarray, present: np.ndarray):
    """The pieces of the pairwise statistic: centred scores, L⁺ (the weighted Laplacian's pseudo-inverse),
    the estimated effects θ = L⁺ A, their null covariance V = L⁺ Σ L⁺, and the connected components."""
    from scipy.sparse.csgraph import connected_components

    scores, weight = _centred_scores(values, present)
    laplacian_plus = np.linalg.pinv(_laplacian(present, weight))
    sigma = _laplacian(present, np.ones(present.shape[0]))  # Skillings & Mack's Σ: every dataset weighs 1
    effects = laplacian_plus @ scores.sum(axis=0)
    covariance = laplacian_plus @ sigma @ laplacian_plus
    _, component = connected_components(sigma != 0, directed=False)
    return scores, laplacian_plus, effects, covariance, component


def _permutation_pvalues(scores, present, laplacian_plus, observed, pairs, n_resamples, rng, methods,
                         datasets) -> np.ndarray:
    """Two-sided p of each pair's contrast under within-dataset permutation of the present cells' scores.

    The draws do not depend on the order of the methods or the datasets, nor on the methods' names:
    the datasets are visited in label order, and the methods in an order fixed by their data (their
    columns of centred scores, compared dataset by dataset), so reordering or renaming changes only
    the labels. Only methods whose columns are equal everywhere are put in label order.
    """
    n, k = present.shape
    a, b = pairs
    by_dataset = np.argsort(np.array(datasets, dtype=object), kind="stable")
    scores, present = scores[by_dataset], present[by_dataset]
    by_label = np.argsort(np.array(methods, dtype=object), kind="stable")
    # lexsort: the last key first (the first dataset's column), label order last of all
    canon = by_label[np.lexsort(np.vstack([scores[:, by_label], present[:, by_label]])[::-1])]
    # on each dataset the present methods in that order, then the absent ones: order[i, p] is the method
    # in place p, position[i, j] the place of method j
    order = np.tile(canon, (n, 1))
    order = np.take_along_axis(order, np.argsort(~np.take_along_axis(present, order, axis=1), axis=1,
                                                 kind="stable"), axis=1)
    position = np.argsort(order, axis=1)
    # the present cells' scores packed to the left of each row in that order: a permutation of a row is
    # then a permutation of its first k_i slots
    packed = np.where(np.take_along_axis(present, order, axis=1), np.take_along_axis(scores, order, axis=1), 0.0)
    slots_present = np.take_along_axis(present, order, axis=1)
    threshold = np.abs(observed) * (1.0 - 1e-10)  # equal statistics count as "at least as extreme"
    exceed = np.zeros(observed.shape, dtype=np.int64)
    done = 0
    chunk = max(1, min(n_resamples, 2_000_000 // max(1, n * k)))
    while done < n_resamples:
        m = min(chunk, n_resamples - done)
        keys = rng.random((m, n, k))
        keys[:, ~slots_present] = np.inf  # the absent slots sort last: the present ones get a random order
        slot = np.argsort(np.argsort(keys, axis=2), axis=2)  # the slot of the score each place draws
        placed = np.take_along_axis(np.broadcast_to(packed, (m, n, k)), slot, axis=2)
        drawn = np.where(present, np.take_along_axis(placed, np.broadcast_to(position, (m, n, k)), axis=2), 0.0)
        effects = drawn.sum(axis=1) @ laplacian_plus
        exceed += (np.abs(effects[:, a] - effects[:, b]) >= threshold).sum(axis=0)
        done += m
    return (1.0 + exceed) / (1.0 + n_resamples)


@states_scale
def skillings_mack_posthoc(scores, direction=None, *, control: str | None = None, adjust: str | None = "holm",
                           alpha: float = 0.05, n_resamples: int | None = None, rng=None,
                           method_names=None) -> PosthocResult:
    """Pairwise comparisons after the Skillings–Mack test, for any pattern of missing cells.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube`
        One score per (dataset, method), NaN where a method has no result.
    direction : {"higher_is_better", "lower_is_better"}, optional
        As in :func:`mcda.data.cube.as_cube`.
    control : str, optional
        A method chosen beforehand: compare every other method with it only (k − 1 comparisons).
    adjust : str or None, default "holm"
        Multiplicity adjustment of the pairwise p-values: any name of :func:`mcda.adjust_pvalues`
        ("shaffer" and "bergmann-hommel" over all pairs only); None leaves them raw.
    alpha : float
        Family-wise level of ``significant``.
    n_resamples : int, optional
        None (default): normal p-values. An int: conditional permutation p-values from that many
        within-dataset permutations of the present methods' ranks, (1 + #{|D*| ≥ |D|}) / (1 + B).
    rng : numpy.random.Generator or seed, optional
        The draws of the permutations (used only with ``n_resamples``). A given seed gives the same
        p-values whatever the order of the methods and datasets and whatever the methods are called.
    method_names : sequence of str, optional
        As in :func:`mcda.data.cube.as_cube`.

    Returns
    -------
    PosthocResult
        ``test`` "skillings-mack-pairwise"; ``z`` (positive when the second method ranks better),
        ``pvalues``, ``pvalues_adjusted``, ``significant``, ``adjust``; ``mean_ranks`` are the
        descriptive mean ranks of :func:`skillings_mack_test` (each method ranked among those
        present); ``standard_error`` is NaN (it differs from pair to pair).

    Raises
    ------
    McdaArgumentError
        An unknown ``adjust``, a pair-structured one against a control or on a design whose
        methods fall into unconnected groups; an unknown ``control``; as
        :func:`skillings_mack_test`.

    Notes
    -----
    With the centred ranks of :func:`skillings_mack_test` (s_ij = √(12/(k_i + 1)) ((k_i + 1)/2 −
    r_ij), 0 where j is absent), A_j = Σ_i s_ij and Σ its null covariance (Σ_jl = −λ_jl,
    Σ_jj = Σ_l λ_jl). On dataset i, (k_i + 1)/2 − r_ij counts the present methods j beats minus
    half of them, so under a shift of method effects θ, E[A] ≈ c L θ with L = Σ_i √(12/(k_i + 1))
    L_i, L_i the Laplacian of the complete graph on the methods present on dataset i. The
    effects are estimated as θ̂ = L⁺ A, with null covariance V = L⁺ Σ L⁺, and each pair is tested
    with

    z_ab = (θ̂_b − θ̂_a) / √(V_aa + V_bb − 2 V_ab),

    two-sided under the normal distribution, then adjusted. Estimating θ first (as the
    intra-block analysis of an incomplete block design does, Yates 1936) compares a and b net of
    the competitors each met: the raw contrast A_a − A_b would favour a method run only against
    weak methods, and could separate two equal methods when others differ. On a complete design
    and on a balanced incomplete one L ∝ Σ, θ̂ ∝ A and z_ab = (A_b − A_a)/√(Σ_aa + Σ_bb − 2Σ_ab);
    on a complete design this is exactly the Friedman z = (R̄_a − R̄_b)/√(k(k + 1)/(6N)) of
    :func:`mcda.all_pairs_test` (Demšar 2006).

    The covariance assumes no ties (as the Skillings–Mack statistic does): with many tied
    scores the normal p-values are conservative. The permutation p-values (``n_resamples``)
    condition on the design and the ties, and are exact in the limit of many draws under the
    hypothesis that every dataset's results are exchangeable among its methods. Pairs of
    methods that are not connected through shared datasets are not compared (NaN).

    References
    ----------
    Skillings, J. H., Mack, G. A. (1981). On the use of a Friedman-type statistic in balanced
    and unbalanced block designs. Technometrics 23(2):171–177. doi:10.1080/00401706.1981.10486261

    Yates, F. (1936). Incomplete randomized blocks. Annals of Eugenics 7(2):121–140.
    doi:10.1111/j.1469-1809.1936.tb02134.x

    Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets. Journal of
    Machine Learning Research 7:1–30.

    Examples
    --------
    Skillings & Mack (1981), Table 1 (lower assembly time is better):

    >>> import numpy as np, mcda
    >>> y = np.array([[3.2, 4.1, 3.8, 4.2], [3.1, 3.9, 3.4, 4.0], [4.3, 3.5, 4.6, 4.8],
    ...               [3.5, 3.6, 3.9, 4.0], [3.6, 4.2, 3.7, 3.9], [4.5, 4.7, 3.7, np.nan],
    ...               [np.nan, 4.2, 3.4, np.nan], [4.3, 4.6, 4.4, 4.9], [3.5, np.nan, 3.7, 3.9]])
    >>> res = mcda.skillings_mack_posthoc(y, "lower_is_better", method_names=list("ABCD"))
    >>> res.to_frame()[["method_a", "method_b", "significant"]].query("significant")
      method_a method_b  significant
    2        A        D         True
    """
    from mcda.stats._shared.multitest import PAIR_STRUCTURED

    alpha = check_alpha(alpha)
    adjust_name = None if adjust is None else canonical_adjustment(adjust, "adjust", optional=True)
    if n_resamples is not None:
        n_resamples = check_positive_int("n_resamples", n_resamples)
    values, present, methods, datasets, dropped = prepared_incomplete(scores, direction, method_names,
                                                                      "the pairwise Skillings-Mack comparisons")
    if control is not None:
        control = check_control(control, methods)
        if adjust_name in PAIR_STRUCTURED:
            raise McdaArgumentError(f"`adjust` {adjust_name!r} needs the k(k-1)/2 pairs of all methods; against a "
                                    f"control use 'holm', 'hochberg', 'hommel', ...; got adjust={adjust!r} with "
                                    f"control={control!r}.", argument="adjust", value=adjust)
    scores_, laplacian_plus, effects, covariance, component = _contrast_parts(values, present)
    k = len(methods)
    if control is not None:
        c = methods.index(control)
        second = np.array([j for j in range(k) if j != c])
        first = np.full(second.shape, c)
    else:
        first, second = np.triu_indices(k, 1)
    connected = component[first] == component[second]
    if adjust_name in PAIR_STRUCTURED and not connected.all():
        raise McdaArgumentError(f"`adjust` {adjust_name!r} needs every pair compared, but the methods fall into groups "
                                "that share no dataset (their pairs are not compared); use 'holm' or another "
                                "adjustment that takes any family.", argument="adjust", value=adjust)
    contrast = effects[second] - effects[first]  # positive when the second method ranks better
    spread = covariance[first, first] + covariance[second, second] - 2.0 * covariance[first, second]
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(connected & (spread > _TOL), contrast / np.sqrt(np.where(spread > _TOL, spread, 1.0)), np.nan)
    if n_resamples is None:
        raw = np.minimum(2.0 * special.ndtr(-np.abs(z)), 1.0)
    else:
        raw = np.full(z.shape, np.nan)
        tested = np.isfinite(z)
        raw[tested] = _permutation_pvalues(scores_, present, laplacian_plus, contrast[tested],
                                           (first[tested], second[tested]), n_resamples, as_rng(rng), methods,
                                           datasets)
    if adjust_name is None:
        adjusted = raw.copy()
    else:
        adjusted = np.asarray(adjust_pvalues(raw, method=adjust_name), dtype=float)
    significant = np.isfinite(adjusted) & (adjusted <= alpha)
    mean = pd.Series(np.nanmean(_ranks_present(values, present), axis=0), index=pd.Index(methods, name="method"),
                     name="mean_rank")
    common = dict(test="skillings-mack-pairwise", alpha=alpha, mean_ranks=mean, critical_difference=None,
                  n_datasets=len(datasets), n_methods=k, standard_error=math.nan, adjust=adjust_name)
    if control is not None:
        index = pd.Index([methods[j] for j in second], name="method")
        series = lambda values, name: pd.Series(values, index=index, name=name)  # noqa: E731
        return PosthocResult(control=control, z=series(z, "z"), pvalues=series(raw, "p_raw"),
                             pvalues_adjusted=series(adjusted, "p_adjusted"),
                             significant=series(significant, "significant"), **common)
    return PosthocResult(control=None, z=pair_matrix(z, methods, 0.0, antisymmetric=True),
                         pvalues=pair_matrix(raw, methods, np.nan), pvalues_adjusted=pair_matrix(adjusted, methods, np.nan),
                         significant=pair_matrix(significant, methods, False), **common)


# --------------------------------------------------------------------------- Durbin


@dataclass(frozen=True, repr=False)
class DurbinResult(OmnibusResult):
    """Durbin's test for a balanced incomplete block design, with Conover's F form and post-hoc (an
    :class:`~mcda._core.results.OmnibusResult`).

    Attributes
    ----------
    statistic : float
        Durbin's T1 (Conover 1999, eq. 5.9.?): χ²_{t−1} under the null.
    pvalue : float
        P(χ²_{t−1} ≥ T1).
    df : int
        t − 1.
    f_statistic, f_pvalue : float
        Conover's T2 = (T1/(t − 1)) / ((b(k − 1) − T1)/(bk − b − t + 1)) and its p-value under
        F(t − 1, bk − b − t + 1); ``rejected`` uses it (Conover: more accurate than χ²).
    f_df : tuple of int
    rejected : bool
    alpha : float
    n_datasets, n_methods : int
        b and t.
    methods_per_dataset, datasets_per_method, pair_count : int
        k, r and λ.
    rank_sums, mean_ranks : pandas.Series
        R_j (1 = best) and R_j / r.
    pairwise : pandas.DataFrame
        One row per pair: ``method_a, method_b, rank_sum_diff`` (R_a − R_b), ``statistic`` (t),
        ``p_raw``, ``p_adjusted`` (``adjust``), ``significant``. Empty when the omnibus does not
        reject: no pair may then be claimed different.
    adjust : str or None
    design : Design
    excluded : dict
        Always empty (no method dropped).
    reason : str
    """

    statistic: float
    pvalue: float
    df: int
    f_statistic: float
    f_pvalue: float
    f_df: tuple
    rejected: bool
    alpha: float
    n_datasets: int
    n_methods: int
    methods_per_dataset: int
    datasets_per_method: int
    pair_count: int
    rank_sums: pd.Series
    mean_ranks: pd.Series
    pairwise: pd.DataFrame
    adjust: str | None
    design: Design
    excluded: dict = field(default_factory=dict)
    dropped_datasets: tuple = ()
    reason: str = ""
    test: str = "durbin"

    @property
    def decision_pvalue(self) -> float:
        """``f_pvalue``: Conover's F form decides ``rejected`` (``pvalue`` where the F form does not apply)."""
        return self.pvalue if math.isnan(self.f_pvalue) else self.f_pvalue

    def to_frame(self) -> pd.DataFrame:
        """One row per statistic: ``test, statistic, df1, df2, pvalue`` (T1, then T2)."""
        return pd.DataFrame({"test": ["durbin_chi2", "durbin_f"], "statistic": [self.statistic, self.f_statistic],
                             "df1": [self.df, self.f_df[0]], "df2": [np.nan, self.f_df[1]],
                             "pvalue": [self.pvalue, self.f_pvalue]})

    def summary(self, *, pairs: bool = True) -> str:
        """The statistics, the design and (``pairs=True``) the separated pairs."""
        t, b, k, r, lam = (self.n_methods, self.n_datasets, self.methods_per_dataset, self.datasets_per_method,
                           self.pair_count)
        lines = [f"Durbin T1 = {self.statistic:.3f} (chi2({self.df}), p = {self.pvalue:.3g}); "
                 f"F({self.f_df[0]}, {self.f_df[1]}) = {self.f_statistic:.3f}, p = {self.f_pvalue:.3g}",
                 f"  balanced incomplete design: {t} methods, {b} datasets, {k} methods per dataset, "
                 f"{r} datasets per method, every pair shares {lam}"]
        if not pairs:
            pass
        elif not self.rejected:
            lines.append(f"  does not reject at alpha = {self.alpha:g}: no pair may be claimed different")
        else:
            sig = self.pairwise[self.pairwise["significant"]]
            lines.append(f"  rejects at alpha = {self.alpha:g}; Conover's pairwise t on rank sums, "
                         f"{self.adjust or 'unadjusted'}: {len(sig)} of {len(self.pairwise)} pairs separated")
            for row in sig.itertuples(index=False):
                better, worse = (row.method_a, row.method_b) if row.rank_sum_diff < 0 else (row.method_b, row.method_a)
                lines.append(f"    {better} ranks better than {worse} (rank sums differ by "
                             f"{abs(row.rank_sum_diff):g}, p_adjusted = {row.p_adjusted:.3g})")
        if self.reason:
            lines.append(f"  note: {self.reason}")
        return "\n".join(lines)


@states_scale
def durbin_test(scores, direction=None, *, alpha: float = 0.05, adjust: str | None = "holm",
                method_names=None) -> DurbinResult:
    """Durbin's rank test for a balanced incomplete block design, and Conover's post-hoc comparisons.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube`
        One score per (dataset, method), NaN where a method was not run; the present cells must
        form a balanced incomplete block design (see Raises).
    direction : {"higher_is_better", "lower_is_better"}, optional
        As in :func:`mcda.data.cube.as_cube`.
    alpha : float
        Level of the omnibus (decided by Conover's F) and of the pairwise family.
    adjust : str or None, default "holm"
        Multiplicity adjustment of the pairwise p-values (any name of
        :func:`mcda.adjust_pvalues`); None leaves them raw (Conover's protected LSD).
    method_names : sequence of str, optional
        As in :func:`mcda.data.cube.as_cube`.

    Returns
    -------
    DurbinResult

    Raises
    ------
    ValueError
        When the design is not balanced (the message gives the datasets per method and methods
        per dataset, and points to :func:`skillings_mack_test`, which takes any pattern); an
        ``adjust`` that names no adjustment.

    Notes
    -----
    With t methods, b datasets, k methods per dataset, r datasets per method, rank sums R_j
    (ranks within each dataset among the k present, ties averaged), A = Σ r_ij² and
    C = b k (k + 1)² / 4 (Conover 1999, §5.9):

    T1 = (t − 1) Σ_j (R_j − r(k + 1)/2)² / (A − C),
    T2 = (T1/(t − 1)) / ((b(k − 1) − T1)/(bk − b − t + 1)).

    Methods a and b differ when |R_a − R_b| > t_{1−α/2, bk−b−t+1} √((A − C) 2r/(bk − b − t + 1)
    · (1 − T1/(b(k − 1)))): the pairwise p-values are two-sided under that t distribution.
    Without ties A − C = b k (k + 1)(k − 1)/12 and T1 is Durbin's (1951) statistic.

    References
    ----------
    Durbin, J. (1951). Incomplete blocks in ranking experiments. British Journal of Statistical
    Psychology 4(2):85–90. doi:10.1111/j.2044-8317.1951.tb00310.x

    Conover, W. J. (1999). Practical Nonparametric Statistics, 3rd ed., §5.9. Wiley.

    Examples
    --------
    Conover (1999), the ice-cream example (7 varieties, 7 judges, 3 varieties each; higher
    rank = preferred):

    >>> import numpy as np, mcda
    >>> n = np.nan
    >>> y = np.array([[2, 3, n, 1, n, n, n], [n, 3, 1, n, 2, n, n], [n, n, 2, 1, n, 3, n],
    ...               [n, n, n, 1, 2, n, 3], [3, n, n, n, 1, 2, n], [n, 3, n, n, n, 1, 2],
    ...               [3, n, 1, n, n, n, 2]])
    >>> res = mcda.durbin_test(y, "higher_is_better", method_names=list("ABCDEFG"))
    >>> res.statistic, res.df, round(res.pvalue, 4)
    (12.0, 6, 0.062)
    """
    alpha = check_alpha(alpha)
    adjust = None if adjust is None else canonical_adjustment(adjust, "adjust", optional=True)
    values, present, methods, datasets, dropped = prepared_incomplete(scores, direction, method_names, "the Durbin test")
    design = _design_of(present, methods, datasets)
    if design.kind == "unbalanced incomplete":
        raise McdaArgumentError("the Durbin test needs a balanced incomplete block design (the same number of methods on "
                         "every dataset, of datasets per method, and of shared datasets per pair); these scores "
                         f"have datasets per method {shown(design.n_datasets_per_method.to_dict())} and methods per "
                         f"dataset {shown(sorted(set(design.n_methods_per_dataset.tolist())))}. Use "
                         "mcda.skillings_mack_test, which takes any missing pattern.", argument=None)
    b, t = present.shape
    k = int(design.n_methods_per_dataset.iloc[0])
    r = int(design.n_datasets_per_method.iloc[0])
    lam = int(design.pair_counts.to_numpy()[0, 1]) if t > 1 else 0
    ranks = _ranks_present(values, present)
    sums = np.nansum(ranks, axis=0)
    a_total = float(np.nansum(ranks ** 2))
    c_total = b * k * (k + 1) ** 2 / 4.0
    spread = a_total - c_total
    df = t - 1
    df2 = b * k - b - t + 1
    reasons = []
    if spread <= _TOL:
        t1 = f_stat = p = f_p = math.nan
        reasons.append("every dataset ties all its methods: the ranks carry no information")
    else:
        t1 = float(df * np.sum((sums - r * (k + 1) / 2.0) ** 2) / spread)
        p = float(special.chdtrc(df, t1))
        denominator = b * (k - 1) - t1
        if df2 <= 0:
            f_stat = f_p = math.nan
            reasons.append(f"the F form needs bk - b - t + 1 > 0; here it is {df2}")
        elif denominator <= _TOL:
            f_stat, f_p = math.inf, math.nan
            reasons.append("every dataset orders its methods the same way: T2 is infinite and its F approximation "
                           "does not apply")
        else:
            f_stat = float((t1 / df) / (denominator / df2))
            f_p = float(special.fdtrc(df, df2, f_stat))
    decided = f_p if not math.isnan(f_p) else p
    rejected = bool(decided <= alpha) if not math.isnan(decided) else False
    a_idx, b_idx = np.triu_indices(t, 1)
    diff = sums[a_idx] - sums[b_idx]
    rows = {"method_a": [methods[i] for i in a_idx], "method_b": [methods[j] for j in b_idx], "rank_sum_diff": diff}
    if rejected and df2 > 0 and np.isfinite(t1):
        scale = math.sqrt(spread * 2.0 * r / df2 * (1.0 - t1 / (b * (k - 1))))
        tstat = np.abs(diff) / scale if scale > 0 else np.full(diff.shape, np.inf)
        p_raw = 2.0 * stats.t.sf(tstat, df2)
        if adjust is None:
            p_adj = p_raw
        else:
            p_adj = np.asarray(adjust_pvalues(p_raw, method=adjust), dtype=float)
        pairwise = pd.DataFrame(rows | {"statistic": tstat, "p_raw": p_raw, "p_adjusted": p_adj,
                                        "significant": p_adj <= alpha})
    else:
        pairwise = pd.DataFrame({c: pd.Series(dtype=object if c.startswith("method") else float)
                                 for c in ("method_a", "method_b", "rank_sum_diff", "statistic", "p_raw",
                                           "p_adjusted", "significant")})
    index = pd.Index(methods, name="method")
    return DurbinResult(statistic=t1, pvalue=p, df=df, f_statistic=f_stat, f_pvalue=f_p, f_df=(df, df2),
                        rejected=rejected, alpha=alpha, n_datasets=b, n_methods=t, methods_per_dataset=k,
                        datasets_per_method=r, pair_count=lam, rank_sums=pd.Series(sums, index=index, name="rank_sum"),
                        mean_ranks=pd.Series(sums / r, index=index, name="mean_rank"), pairwise=pairwise,
                        adjust=adjust, design=design, dropped_datasets=dropped, reason="; ".join(reasons))
