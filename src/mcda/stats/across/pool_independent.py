"""Across datasets, pool-independent: pairwise Wilcoxon signed-rank and sign tests over datasets.

Mean-rank post-hoc tests (Nemenyi, Holm on mean ranks, …) compare two methods through ranks
that depend on every other method in the pool: adding or removing a third method can change
whether A and B differ (Benavoli, Corani & Mangili 2016). The tests here compare each pair on
its own paired scores only — the Wilcoxon signed-rank test (Demšar 2006 §3.1.3) or the sign
test (§3.1.4) over the datasets — and then correct for the number of comparisons (Holm by
default): the "Wilcoxon–Holm" procedure that the critical-difference diagrams of the
time-series-classification community use (hfawaz/cd-diagram; aeon's, which is one-sided).

The per-pair statistics come from one numba kernel (:mod:`mcda._core._kernels.paired_ranks`) and
equal ``scipy.stats.wilcoxon`` / ``scipy.stats.binomtest`` row by row.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import special

from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError
from mcda.data.blocks import require_in_memory
from mcda.data.cards import direction_sign
from mcda.stats._shared.cliques import groups_from_decisions
from mcda._core.validation import MissingDataWarning, check_alpha, check_choice, check_control, shown, warn
from mcda._core.numeric import tie_zeroed_differences
from mcda._core.results import Result, pair_decisions_table, states_scale
from mcda.stats._shared.multitest import (PAIR_STRUCTURED, PVALUE_ADJUSTMENTS, adjust_pvalues, canonical_adjustment)
from mcda.stats._shared.ranks import prepare_across, rank_rows
from mcda.stats.procedures import canonical, display_name, names, short_name

__all__ = ["PairwiseOverDatasets", "pairwise_over_datasets", "TESTS", "ZERO_METHODS"]

#: The tests of :func:`pairwise_over_datasets` (its ``test=``): the registry's pool-independent family.
TESTS = names("pool-independent")
ZERO_METHODS = ("wilcox", "pratt", "zsplit")
_EXACT_MAX = 50       # scipy: the exact null of R+ when N <= 50 and no |d| ties or is zero
_SIGNFLIP_MAX = 13    # scipy: the exact sign-flip distribution when ties or zeros and N <= 13
_BLOCK_CELLS = 2_000_000  # pairs × datasets of differences held at once


def _adjustment(adjust) -> str:
    return canonical_adjustment(
        adjust, "adjust", allowed=[m for m in PVALUE_ADJUSTMENTS if m not in PAIR_STRUCTURED],
        why_not="Shaffer and Bergmann-Hommel use the logical relations among hypotheses of equal mean ranks "
                "(if A = B and B = C then A = C), which the pairwise signed-rank and sign nulls (a - b symmetric "
                "about 0) do not have; use 'holm'.")


@dataclass(frozen=True, repr=False)
class PairwiseOverDatasets(Result):
    """Pairwise tests over datasets (Wilcoxon signed-rank or sign), adjusted for multiplicity.

    Attributes
    ----------
    test : {"wilcoxon", "sign"}
    adjust : str
        The multiplicity adjustment (canonical name, e.g. "holm").
    control : str or None
        The control method (then only the k − 1 pairs with it are tested), or None for all pairs.
    alpha : float
        Family-wise (or FDR, for "fdr-*") level of ``significant``.
    zero_method : str
        How zero differences (ties between the pair on a dataset) are treated.
    mean_ranks : pandas.Series
        Mean rank per method over the datasets (1 = best), for display: the tests do not use it.
    table : pandas.DataFrame
        One row per pair, see :meth:`to_frame`.
    groups : list of tuple of str
        All pairs: the exact maximal cliques of methods no pair of which was separated, each
        ordered by mean rank and the list by the mean ranks of their members. Against a
        control: one group, the control with the methods not separated from it.
    n_datasets, n_methods : int
    excluded : dict
        Method -> datasets it lacks (excluded, never imputed).
    direction : str or None
        The metric's direction (the sign of ``mean_diff``: for a lower-is-better metric a
        negative ``mean_diff`` means ``method_a`` is better).
    """

    test: str
    adjust: str
    control: str | None
    alpha: float
    zero_method: str
    mean_ranks: pd.Series
    table: pd.DataFrame
    groups: list
    n_datasets: int
    n_methods: int
    excluded: dict = field(default_factory=dict)
    direction: str | None = None

    #: no single critical difference: a CD diagram draws only the groups
    critical_difference = None

    def to_frame(self) -> pd.DataFrame:
        """One row per pair.

        Columns: ``method_a, method_b, mean_rank_a, mean_rank_b, mean_diff, wins_a, wins_b, n_ties,
        statistic, r_plus, r_minus, p_raw, p_adjusted, significant, null_distribution, reason``.
        ``mean_diff`` is the mean over the datasets of a − b in the metric's own units (what
        the Multi-Comparison Matrix shows, :func:`mcda.plots.plot_mcm`).
        ``wins_a`` counts the datasets where a scores better than b (``n_ties`` where equal);
        ``statistic`` is min(R+, R−) for the Wilcoxon test (scipy's) and min(wins) for the sign
        test (after the ``zsplit`` share of ties); ``r_plus`` (``r_minus``) is the rank sum of
        the datasets where a (b) is better (NaN for the sign test); ``null_distribution`` says which
        null distribution gave ``p_raw`` ("exact", "exact sign-flip", "normal" or
        "exact binomial"); ``reason`` why a p-value is NaN.
        """
        return self.table.copy()

    def _square(self, column: str, diagonal):
        methods = list(self.mean_ranks.index)
        if self.control is not None:
            return pd.Series(self.table[column].to_numpy(), index=pd.Index(self.table["method_b"], name="method"),
                             name=column)
        out = pd.DataFrame(diagonal, index=pd.Index(methods, name="method"), columns=pd.Index(methods, name="versus"))
        for a, b, v in zip(self.table["method_a"], self.table["method_b"], self.table[column]):
            out.at[a, b] = v
            out.at[b, a] = v
        return out

    @property
    def pvalues(self):
        """Raw p-values: k × k (NaN diagonal) for all pairs, a Series over the others against a control."""
        return self._square("p_raw", np.nan)

    @property
    def pvalues_adjusted(self):
        """Adjusted p-values, shaped like :attr:`pvalues`."""
        return self._square("p_adjusted", np.nan)

    @property
    def significant(self):
        """``p_adjusted <= alpha``, shaped like :attr:`pvalues` (diagonal False)."""
        out = self._square("significant", False)
        return out.astype(bool)

    @property
    def n_significant(self) -> int:
        return int(self.table["significant"].sum())

    def pair_decisions(self) -> pd.DataFrame:
        """The pairs and what the adjusted tests decided (the pair-decisions protocol of
        :func:`mcda._core.results.pair_decisions_table`): the better side has the larger rank sum
        (Wilcoxon) or more wins (sign test)."""
        t = self.table
        r_plus, r_minus = t["r_plus"].to_numpy(dtype=float), t["r_minus"].to_numpy(dtype=float)
        a_better = np.where(np.isnan(r_plus), t["wins_a"].to_numpy(dtype=float) > t["wins_b"].to_numpy(dtype=float),
                            r_plus > r_minus)
        pairs = pd.DataFrame({"method_a": t["method_a"], "method_b": t["method_b"],
                              "rank_a": self.mean_ranks.loc[t["method_a"]].to_numpy(dtype=float),
                              "rank_b": self.mean_ranks.loc[t["method_b"]].to_numpy(dtype=float),
                              "significant": t["significant"].to_numpy(dtype=bool), "p_adjusted": t["p_adjusted"]})
        untested = int((t["reason"] != "").sum())
        note = (f"{untested} pair(s) without a p-value (not tested: see the reason column) count as not separated"
                if untested else "")
        return pair_decisions_table(pairs, a_better, test=self.procedure, alpha=self.alpha,
                                    methods=list(self.mean_ranks.index), control=self.control, note=note)

    @property
    def procedure(self) -> str:
        """The procedure's name, e.g. "Wilcoxon–Holm"."""
        return f"{display_name(self.test)}–{short_name(self.adjust)}"

    def summary(self) -> str:
        what = f"against control {self.control}" if self.control is not None else "all pairs"
        lines = [f"{self.procedure} ({what}) over {self.n_datasets} datasets, alpha = {self.alpha:g}: "
                 f"{self.n_significant} of {len(self.table)} comparisons significant"]
        for row in self.table[self.table["significant"]].itertuples(index=False):
            better, worse = (row.method_a, row.method_b) if row.wins_a >= row.wins_b else (row.method_b, row.method_a)
            lines.append(f"  {better} > {worse}: wins {max(row.wins_a, row.wins_b)}/{row.wins_a + row.wins_b + row.n_ties}, "
                         f"p = {row.p_raw:.3g}, adjusted {row.p_adjusted:.3g}")
        nan = self.table[self.table["reason"] != ""]
        for row in nan.itertuples(index=False):
            lines.append(f"  {row.method_a} vs {row.method_b}: not tested ({row.reason})")
        for method, lacks in self.excluded.items():
            lines.append(f"  excluded (incomplete): {method} lacks {shown(lacks, 4, fmt=str)}")
        return "\n".join(lines)


def _wilcoxon_p(n, r_plus, n_zero, tie_term, has_ties, signflip_p, zero_method):
    """Two-sided p-values and the null each came from, as scipy.stats.wilcoxon's method="auto"."""
    m = r_plus.size
    p = np.full(m, np.nan)
    how = np.full(m, "normal", dtype=object)
    regular = ~has_ties & (n_zero == 0)
    exact = regular & (n <= _EXACT_MAX)
    if exact.any():
        from mcda._core._kernels.paired_ranks import signed_rank_null_counts

        pmf = signed_rank_null_counts(n) / 2.0 ** n
        cdf = np.cumsum(pmf)
        sf = np.cumsum(pmf[::-1])[::-1]
        r = r_plus[exact]
        p[exact] = np.clip(2.0 * np.minimum(sf[np.floor(r).astype(np.int64)], cdf[np.ceil(r).astype(np.int64)]), 0, 1)
        how[exact] = "exact"
    flip = ~regular & (n <= _SIGNFLIP_MAX)
    p[flip] = signflip_p[flip]
    how[flip] = "exact sign-flip"
    normal = ~exact & ~flip
    if normal.any():
        count = (n - n_zero[normal]).astype(np.float64) if zero_method == "wilcox" else np.full(normal.sum(), float(n))
        mean = count * (count + 1.0) / 4.0
        var = count * (count + 1.0) * (2.0 * count + 1.0)
        if zero_method == "pratt":
            z0 = n_zero[normal].astype(np.float64)
            mean = mean - z0 * (z0 + 1.0) / 4.0
            var = var - z0 * (z0 + 1.0) * (2.0 * z0 + 1.0)
        se = np.sqrt(np.maximum(var - tie_term[normal] / 2.0, 0.0) / 24.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            z = (r_plus[normal] - mean) / se
        p[normal] = np.where(se > 0, 2.0 * special.ndtr(-np.abs(z)), np.nan)
    return p, how


def _sign_p(wins, losses, ties, zero_method):
    """Exact two-sided binomial p-values (scipy.stats.binomtest with p = 1/2)."""
    if zero_method == "zsplit":  # Demšar (2006) §3.1.4: ties split evenly, an odd one left out
        half = ties // 2
        wins, losses = wins + half, losses + half
    n = wins + losses
    low = np.minimum(wins, losses)
    with np.errstate(invalid="ignore"):
        p = np.where(n > 0, np.minimum(1.0, 2.0 * special.bdtr(low, np.maximum(n, 1), 0.5)), np.nan)
    p = np.where(2 * low == n, np.where(n > 0, 1.0, np.nan), p)
    return p, low.astype(np.float64)


@states_scale
def pairwise_over_datasets(scores, direction=None, *, test: str = "wilcoxon", adjust: str = "holm",
                           control: str | None = None, alpha: float = 0.05, zero_method: str = "wilcox",
                           decimals: int | None = None, method_names=None) -> PairwiseOverDatasets:
    """Is A better than B in general, judged on the pair's own scores? Pairwise tests over datasets.

    Every pair of methods (or every method against ``control``) is compared by a paired test
    over the datasets — the Wilcoxon signed-rank test or the sign test, two-sided — and the
    p-values are adjusted for the number of comparisons (Holm by default). Unlike the
    mean-rank post-hoc tests, a pair's result does not depend on which other methods are in
    the pool.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube`
        One score per (dataset, method); a ``seed`` dim must be reduced first
        (:func:`mcda.reduce_seeds`). Methods lacking a result on some dataset are excluded and
        named (``excluded``), never imputed.
    direction : {"higher_is_better", "lower_is_better"}, optional
        As in :func:`mcda.data.cube.as_cube`.
    test : {"wilcoxon", "sign"}
        Wilcoxon signed-rank test of the differences a − b over datasets (as
        ``scipy.stats.wilcoxon``), or the sign test of wins against losses (as
        ``scipy.stats.binomtest(wins, wins + losses, 0.5)``).
    adjust : str
        Any adjustment of :func:`mcda.adjust_pvalues` (its names and aliases, statsmodels'
        included) except the pair-structured "shaffer" and "bergmann-hommel".
    control : str, optional
        A method chosen before looking at the results; then only the k − 1 pairs with it
        form the family.
    alpha : float
        Level of ``significant`` (family-wise, or the false-discovery rate for "fdr-*").
    zero_method : {"wilcox", "pratt", "zsplit"}
        Datasets where the two methods score the same (a zero difference). Wilcoxon test, as
        scipy: "wilcox" drops them before ranking (the default, scipy's too), "pratt" ranks
        them and drops their ranks (Pratt 1959), "zsplit" ranks them and splits their ranks
        evenly between R+ and R− (Demšar 2006 §3.1.3). Sign test: "wilcox" drops the ties,
        "zsplit" gives half of them to each method (an odd one is dropped; Demšar §3.1.4);
        "pratt" has no meaning there and is refused.
    decimals : int, optional
        Round the differences to this many decimals before testing. For scores printed with
        that many decimals: 0.768 − 0.763 and 0.936 − 0.931 differ in floating point, and
        only rounding makes them the tie (or the zero) they are on paper. By default a
        difference within the rounding of its own subtraction is zero (the tie rule of every
        mcda procedure) and the nonzero differences are ranked as computed, as scipy does.
    method_names : sequence of str, optional
        As in :func:`mcda.data.cube.as_cube`.

    Returns
    -------
    PairwiseOverDatasets
        ``test``, ``adjust``, ``control``, ``alpha``, ``zero_method``, ``mean_ranks``,
        ``table`` (see ``to_frame()``), ``groups``, ``n_datasets``, ``n_methods``,
        ``excluded``; properties ``pvalues``, ``pvalues_adjusted``, ``significant`` (k × k or
        a Series against the control) and ``procedure`` ("Wilcoxon–Holm").

    Raises
    ------
    ValueError
        Unknown ``test``, ``zero_method`` or ``adjust``; "shaffer" or "bergmann-hommel";
        "pratt" with the sign test; an unknown or excluded ``control``; fewer than 2 complete
        methods; a ``seed`` dim.

    Notes
    -----
    **Wilcoxon.** For a pair, d_i = a_i − b_i on dataset i (in the oriented scores, so that a
    positive d means a is better); rank |d_i| (average ranks for ties), R+ = Σ_{d_i>0} rank_i,
    R− = Σ_{d_i<0} rank_i, statistic min(R+, R−). The null distribution is scipy's
    ``method="auto"`` choice, pair by pair: the exact distribution of R+ when no |d_i| ties
    or is zero and N ≤ 50; the exact sign-flip distribution (all 2^N sign patterns, the
    ranks held fixed) when some do and N ≤ 13; otherwise the normal approximation
    z = (R+ − n(n+1)/4)/σ with σ² = [n(n+1)(2n+1) − Σ(t³ − t)/2]/24 (Pratt's zeros removed
    from mean and variance), without continuity correction (scipy's default). A difference
    within the rounding of its own subtraction is zero (a and b tied, the rule of every mcda
    procedure); the others are ranked as computed: round the scores first (``decimals``) when
    they come from printed decimals (0.768 − 0.763 and 0.936 − 0.931 may differ in floating point).

    **Sign test.** Under the null each non-tied dataset is a win for either method with
    probability ½: p = min(1, 2·P(Bin(n, ½) ≤ min(wins))).

    **One deviation from scipy:** a pair whose differences are all zero (the two methods
    score the same on every dataset) is not tested — its p-values are NaN with a reason and
    the pair is left out of the adjustment (scipy returns p = 1 or NaN depending on N and
    ``zero_method``). No omnibus test gates these comparisons: each is a test of its own,
    and the adjustment controls the family-wise error over them.

    **Groups** are the exact maximal cliques of the "not separated" graph (Bron–Kerbosch),
    so a group never holds a separated pair; the CD diagram draws one bar per group.

    References
    ----------
    Wilcoxon, F. (1945). Individual comparisons by ranking methods. Biometrics Bulletin
    1(6):80–83. doi:10.2307/3001968
    Pratt, J. W. (1959). Remarks on zeros and ties in the Wilcoxon signed rank procedures.
    JASA 54(287):655–667. doi:10.1080/01621459.1959.10501526
    Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets. JMLR 7:1–30.
    Holm, S. (1979). A simple sequentially rejective multiple test procedure. Scandinavian
    Journal of Statistics 6(2):65–70.
    Benavoli, A., Corani, G., Mangili, F. (2016). Should we really use post-hoc tests based on
    mean-ranks? JMLR 17(5):1–10.
    Ismail Fawaz, H., Forestier, G., Weber, J., Idoumghar, L., Muller, P.-A. (2019). Deep
    learning for time series classification: a review. Data Mining and Knowledge Discovery
    33:917–963. doi:10.1007/s10618-019-00619-1

    Examples
    --------
    >>> import mcda
    >>> res = mcda.pairwise_over_datasets(mcda.datasets.load("demsar2006"))
    >>> res.procedure, res.n_significant
    ('Wilcoxon–Holm', 0)
    >>> row = mcda.pairwise_over_datasets(mcda.datasets.load("demsar2006"), zero_method="zsplit",
    ...                                   decimals=3).to_frame().iloc[0]
    >>> row["method_a"], row["method_b"], float(row["r_plus"]), float(row["r_minus"])  # Demšar's Table 2
    ('C4.5', 'C4.5+m', 12.0, 93.0)
    """
    alpha = check_alpha(alpha)
    test = canonical("test", test, allowed=TESTS)
    zero_method = check_choice("zero_method", zero_method, ZERO_METHODS)
    if test == "sign" and zero_method == "pratt":
        raise McdaArgumentError("`zero_method` 'pratt' ranks the zero differences, which the sign test does not do; for "
                         "the sign test use 'wilcox' (ties dropped) or 'zsplit' (ties split evenly); got 'pratt'.",
                                argument="zero_method")
    adjust = _adjustment(adjust)
    if decimals is not None and (isinstance(decimals, bool) or not isinstance(decimals, (int, np.integer))):
        raise McdaArgumentTypeError(f"`decimals` must be an integer (decimals of the printed scores) or None; got {decimals!r}.",
                                    argument="decimals", value=decimals)
    require_in_memory(scores, "mcda.pairwise_over_datasets", reason="the signed-rank test ranks each pair's "
                      "differences across all datasets at once", instead="load the cube (cube.load())")
    prep = prepare_across(scores, direction, method_names=method_names, missing="complete")
    methods, values = list(prep.methods), prep.values
    if prep.excluded:
        listed = "; ".join(f"{m} lacks {shown(ds, 4, fmt=str)}" for m, ds in list(prep.excluded.items())[:8])
        warn(f"{len(prep.excluded)} method(s) lack results on some datasets and are excluded from the pairwise "
             f"tests over datasets (nothing is imputed): {listed}.", MissingDataWarning)
    n, k = values.shape
    if k < 2:
        raise McdaArgumentError(f"pairwise tests over datasets need at least 2 complete methods; got {k} ({methods}).",
                                argument=None)
    if control is not None:
        control = check_control(control, methods, prep.excluded)
        c = methods.index(control)
        first = np.full(k - 1, c, dtype=np.int64)
        second = np.array([j for j in range(k) if j != c], dtype=np.int64)
    else:
        first, second = (x.astype(np.int64) for x in np.triu_indices(k, 1))
    m = first.size
    from mcda._core._kernels.paired_ranks import ZERO_CODES, pair_signed_ranks

    r_plus, r_minus, tie_term, signflip = (np.empty(m) for _ in range(4))
    n_zero, wins, losses = (np.empty(m, dtype=np.int64) for _ in range(3))
    has_ties = np.empty(m, dtype=np.bool_)
    columns = np.ascontiguousarray(values.T)  # one row per method
    block = max(1, _BLOCK_CELLS // max(n, 1))
    for s in range(0, m, block):  # bounded memory: the differences of a block of pairs at a time
        part = slice(s, s + block)
        a, b = columns[first[part]], columns[second[part]]
        if decimals is not None:
            diff = np.round(a - b, decimals) + 0.0  # + 0.0: no negative zeros
        else:  # the tie rule: a and b tied on a dataset (within the rounding of a − b) is a zero difference
            diff = tie_zeroed_differences(a, b)
        order = np.argsort(np.abs(diff), axis=1)
        pair_signed_ranks(diff, order, ZERO_CODES[zero_method], _SIGNFLIP_MAX if test == "wilcoxon" else 0,
                          r_plus[part], r_minus[part], n_zero[part], tie_term[part], has_ties[part], wins[part],
                          losses[part], signflip[part])
    if test == "wilcoxon":
        p, how = _wilcoxon_p(n, r_plus, n_zero, tie_term, has_ties, signflip, zero_method)
        statistic = np.minimum(r_plus, r_minus)
    else:
        p, statistic = _sign_p(wins, losses, n_zero, zero_method)
        how = np.full(m, "exact binomial", dtype=object)
        r_plus = r_minus = np.full(m, np.nan)
    all_zero = n_zero == n
    reason = np.where(all_zero, f"the two methods score the same on all {n} datasets", "")
    p = np.where(all_zero, np.nan, p)
    how = np.where(np.isnan(p), "", how)
    adjusted = adjust_pvalues(p, method=adjust, alpha=alpha)
    ranks = rank_rows(values).mean(axis=0)
    mean_ranks = pd.Series(ranks, index=pd.Index(methods, name="method"), name="mean_rank")
    significant = np.where(np.isnan(adjusted), False, adjusted <= alpha)
    names = np.array(methods, dtype=object)
    direction = prep.cube.attrs.get("direction")
    sign = 1.0 if direction is None else direction_sign(direction)  # back from the oriented scores to the metric's units
    means = values.mean(axis=0)
    table = pd.DataFrame({
        "method_a": names[first], "method_b": names[second], "mean_rank_a": ranks[first],
        "mean_rank_b": ranks[second], "mean_diff": sign * (means[first] - means[second]),
        "wins_a": wins, "wins_b": losses, "n_ties": n_zero,
        "statistic": np.where(all_zero, np.nan, statistic), "r_plus": r_plus, "r_minus": r_minus,
        "p_raw": p, "p_adjusted": adjusted, "significant": significant.astype(bool),
        "null_distribution": how.astype(object), "reason": reason.astype(object),
    })
    if control is not None:
        kept = [control] + [methods[j] for j, s in zip(second, significant) if not s]
        position = {mm: i for i, mm in enumerate(mean_ranks.sort_values(kind="stable").index)}
        groups = [tuple(sorted(kept, key=position.__getitem__))]
    else:
        separated = np.zeros((k, k), dtype=bool)
        separated[first, second] = significant
        separated[second, first] = significant
        groups = groups_from_decisions(mean_ranks, separated)
    return PairwiseOverDatasets(test=test, adjust=adjust, control=control, alpha=alpha, zero_method=zero_method,
                                mean_ranks=mean_ranks, table=table, groups=groups, n_datasets=n, n_methods=k,
                                excluded=dict(prep.excluded), direction=direction if isinstance(direction, str) else None)
