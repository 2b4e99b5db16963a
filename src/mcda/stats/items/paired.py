"""Per pair of models over the items of a test set: is A better than B here?

:func:`paired_items` compares every pair (or every model with a control) on the items both
have: the paired difference with its CLT and cluster-robust standard errors and t interval, the
correlation of the two models' item scores (why pairing helps), a test — the paired t test
on the item differences (cluster-robust when the items are clustered) or McNemar's exact,
mid-p or asymptotic test of 0/1 scores — adjusted over the pairs of each dataset, and the
minimum detectable difference of each pair.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from mcda._core.results import pair_decisions_table, states_scale
from mcda._core.validation import check_alpha, check_control, check_probability
from mcda.data.cards import direction_sign
from mcda.stats._shared.multitest import PAIR_STRUCTURED, PVALUE_ADJUSTMENTS, adjust_by_family, canonical_adjustment
from mcda.stats.items.design import ItemDesign, prepare_items
from mcda.stats.items.means import cluster_variance
from mcda.stats.items.sums import item_sums, two_valued
from mcda.stats.items.tables import ItemTable
from mcda.stats.procedures import PROCEDURES, canonical, display_name, names

__all__ = ["PairedItems", "paired_items", "mcnemar_pvalues", "PAIR_TESTS", "detectable_difference"]

#: The registered tests of a pair over items that ``paired_items(test=)`` runs (the resampling
#: tests of the family have functions of their own).
PAIR_TESTS = tuple(name for name in names("items", comparisons="all-pairs")
                   if PROCEDURES[name].function.endswith(":paired_items"))
_T_TEST = PAIR_TESTS[0]


def check_adjust(adjust):
    """The canonical adjustment over the pairs of a dataset (None: none)."""
    if adjust is None:
        return None
    return canonical_adjustment(
        adjust, "adjust", optional=True, allowed=[m for m in PVALUE_ADJUSTMENTS if m not in PAIR_STRUCTURED],
        why_not="Shaffer and Bergmann-Hommel use the logical relations among hypotheses of equal mean ranks, "
                "which the paired tests over items do not have; use 'holm'.")


def detectable_difference(standard_error, *, alpha: float, power: float):
    """The difference a two-sided z test at ``alpha`` detects with probability ``power`` given its standard error:
    (z_{1−α/2} + z_{power}) · SE."""
    return (stats.norm.ppf(1.0 - alpha / 2.0) + stats.norm.ppf(power)) * np.asarray(standard_error, dtype=np.float64)


def mcnemar_pvalues(a_only, b_only, test: str) -> np.ndarray:
    """Two-sided p-values of McNemar's test from the discordant counts (arrays).

    "mcnemar-exact": min(1, 2 P(B ≤ min)) with B ~ Bin(n, ½), n = a_only + b_only;
    "mcnemar-mid-p": that minus P(B = min) (Fagerland et al. 2013); "mcnemar-asymptotic":
    (a_only − b_only)² / n against χ²₁, no continuity correction. NaN where n = 0.
    """
    a_only, b_only = np.asarray(a_only, dtype=np.float64), np.asarray(b_only, dtype=np.float64)
    n = a_only + b_only
    low = np.minimum(a_only, b_only)
    with np.errstate(invalid="ignore", divide="ignore"):
        if test == "mcnemar-asymptotic":
            p = stats.chi2.sf((a_only - b_only) ** 2 / n, 1)
        else:
            p = np.minimum(1.0, 2.0 * stats.binom.cdf(low, n, 0.5))
            if test == "mcnemar-mid-p":
                p = np.minimum(1.0, 2.0 * stats.binom.cdf(low, n, 0.5) - stats.binom.pmf(low, n, 0.5))
    return np.where(n > 0, p, np.nan)


@dataclass(frozen=True, repr=False)
class PairedItems(ItemTable):
    """Every pair of models (or every model against a control) compared on the items both have.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per (dataset, pair): ``dataset, method_a, method_b, n_items`` (items both
        have), ``n_unpaired`` (items one has and the other lacks: left out), ``n_clusters``,
        ``mean_a, mean_b`` (on the shared items), ``mean_diff`` (a − b, metric units),
        ``standard_error`` (CLT of the mean difference), ``standard_error_clustered``
        (cluster-robust; NaN without clusters), ``df``, ``ci_low, ci_high`` (t interval of the
        difference on the clustered standard error with clusters, else the CLT one),
        ``correlation`` (Pearson, of the two models' item scores), ``n_a_only, n_b_only``
        (0/1 scores: the discordant items only a, only b gets right — scores the better value;
        NaN when the scores are not two values a unit apart), ``statistic`` (t, or
        McNemar's: min of the discordant counts for the exact and mid-p tests, χ² for the
        asymptotic one), ``p_raw``, ``p_adjusted``, ``significant``, ``superior`` (the better
        model of a significant pair, else None), ``mde`` (the difference detectable at
        ``power``: (z_{1−α/2} + z_power) times the standard error), ``reason``.
    test : str
        The registered test.
    adjust : str or None
        The adjustment over the pairs of each dataset.
    alpha, confidence_level, power : float
    control : str or None
    clustered : bool
    binary : dict
        dataset -> whether its item scores are all 0 or 1.
    methods : list of str
    direction : str
    notes : tuple of str
    """

    table: pd.DataFrame
    test: str
    adjust: str | None
    alpha: float
    confidence_level: float
    power: float
    control: str | None
    clustered: bool
    binary: dict
    methods: list
    direction: str
    notes: tuple = ()

    @property
    def n_significant(self) -> int:
        """Pairs the test separates."""
        return int(self.table["significant"].sum())

    def summary(self) -> str:
        how = display_name(self.test) + (f", {display_name(self.adjust)} over the pairs of each dataset"
                                         if self.adjust else ", unadjusted")
        head = (f"Pairs over items ({how}; {self.n_significant} of {len(self.table)} significant at "
                f"alpha = {self.alpha:g}; mde at power {self.power:g})")
        columns = ["dataset", "method_a", "method_b", "n_items", "mean_diff", "ci_low", "ci_high", "correlation"]
        columns += ["n_a_only", "n_b_only"] if self.test != _T_TEST else []
        return self._text(head, columns + ["p_adjusted", "significant", "mde", "reason"])

    def pair_decisions(self) -> pd.DataFrame:
        """The pairs of each dataset and what the test decided (the pair-decisions protocol of
        :func:`mcda._core.results.pair_decisions_table`, keyed by ``dataset``); ``rank_a``, ``rank_b``
        order the methods of a dataset by their mean score, 1 the best."""
        sign = float(direction_sign(self.direction))
        parts = []
        for _, block in self.table.groupby("dataset", sort=False):
            means = pd.concat([pd.Series(block["mean_a"].to_numpy(), index=block["method_a"]),
                               pd.Series(block["mean_b"].to_numpy(), index=block["method_b"])])
            means = means[~means.index.duplicated()]
            ranking = (sign * means).rank(ascending=False, method="average")
            part = block[["dataset", "method_a", "method_b"]].copy()
            part["rank_a"] = block["method_a"].map(ranking).to_numpy()
            part["rank_b"] = block["method_b"].map(ranking).to_numpy()
            part["significant"] = block["significant"].to_numpy(dtype=bool)
            part["p_adjusted"] = block["p_adjusted"].to_numpy(dtype=float)
            parts.append(part)
        pairs = pd.concat(parts, ignore_index=True)
        a_better = sign * self.table["mean_diff"].to_numpy(dtype=float) > 0
        return pair_decisions_table(pairs, a_better, test=self.test, alpha=self.alpha, methods=self.methods,
                                    control=self.control, scope="within datasets")


def _pairs(design: ItemDesign, sums: dict, *, test, adjust, alpha, confidence_level, power, control) -> PairedItems:
    k = len(design.methods)
    if control is None:
        a_idx, b_idx = np.triu_indices(k, 1)
    else:
        c = design.methods.index(control)
        others = np.array([j for j in range(k) if j != c], dtype=np.int64)
        a_idx, b_idx = np.minimum(c, others), np.maximum(c, others)
    n_d, n_p = len(design.datasets), a_idx.size

    def take(name):
        return sums[name][:, a_idx, b_idx]

    m = take("m")
    sum_a, sum_b = take("p"), sums["p"][:, b_idx, a_idx]
    squares_a, squares_b = take("r"), sums["r"][:, b_idx, a_idx]
    cross = take("x")
    shift_a, shift_b = sums["shift"][:, a_idx], sums["shift"][:, b_idx]
    with np.errstate(invalid="ignore", divide="ignore"):
        d_bar = (sum_a - sum_b) / m
        mean_a, mean_b = shift_a + sum_a / m, shift_b + sum_b / m
        mean_diff = mean_a - mean_b
        ss_d = np.maximum((squares_a + squares_b - 2.0 * cross) - m * d_bar ** 2, 0.0)
        se = np.where(m >= 2, np.sqrt(ss_d / (m - 1.0) / m), np.nan)
        var_a = squares_a - sum_a ** 2 / m
        var_b = squares_b - sum_b ** 2 / m
        correlation = (cross - sum_a * sum_b / m) / np.sqrt(var_a * var_b)
    correlation = np.where((var_a > 0) & (var_b > 0) & (m >= 2), np.clip(correlation, -1.0, 1.0), np.nan)
    if design.clustered:
        se_cluster = np.sqrt(cluster_variance(m, d_bar, take("pq1"), take("pq2"), take("pq3"), take("pg")))
        df, used = take("pg") - 1.0, se_cluster
    else:
        se_cluster, df, used = np.full(m.shape, np.nan), m - 1.0, se
    quantile = np.where(df >= 1, stats.t.ppf(0.5 + confidence_level / 2.0, np.maximum(df, 1.0)), np.nan)
    binary, _ = two_valued(sums)
    with np.errstate(invalid="ignore"):  # 0/1 scores: |d| = d², so the items a wins number (Σd² + Σd) / 2
        delta = shift_a - shift_b
        sum_d = sum_a - sum_b + m * delta
        squares_d = squares_a + squares_b - 2.0 * cross + 2.0 * delta * (sum_a - sum_b) + m * delta ** 2
        a_only = np.where(binary[:, None], np.round((squares_d + design.sign * sum_d) / 2.0), np.nan)
        b_only = np.where(binary[:, None], np.round((squares_d - design.sign * sum_d) / 2.0), np.nan)
    reason = np.where(m == 0, "no shared item", np.where(m == 1, "one shared item", ""))
    with np.errstate(invalid="ignore", divide="ignore"):
        if test == _T_TEST:
            statistic = mean_diff / used
            pvalue = np.where(used > 0, 2.0 * stats.t.sf(np.abs(statistic), np.maximum(df, 1.0)), np.nan)
            pvalue = np.where(df >= 1, pvalue, np.nan)
            reason = np.where((reason == "") & (used == 0), "every item difference is 0", reason)
            if design.clustered:
                reason = np.where((reason == "") & (df < 1), "one cluster: no clustered standard error", reason)
        else:
            statistic = ((a_only - b_only) ** 2 / (a_only + b_only) if test == "mcnemar-asymptotic"
                         else np.minimum(a_only, b_only))
            pvalue = mcnemar_pvalues(a_only, b_only, test)
            reason = np.where((reason == "") & ~binary[:, None], "scores are not all 0 or 1: McNemar's test needs "
                              "one 0/1 outcome per item", reason)
            reason = np.where((reason == "") & (a_only + b_only == 0), "no discordant item", reason)
    pvalue = np.where(reason == "", pvalue, np.nan)
    family = np.repeat(np.arange(n_d), n_p)
    p_adjusted = (adjust_by_family(pvalue.ravel(), family, adjust) if adjust is not None
                  else pvalue.ravel().copy()).reshape(n_d, n_p)
    significant = np.nan_to_num(p_adjusted, nan=1.0) <= alpha
    methods = np.array(design.methods, dtype=object)
    a_better = design.sign * mean_diff > 0
    superior = np.where(significant, np.where(a_better, methods[a_idx][None, :], methods[b_idx][None, :]), None)
    table = pd.DataFrame({
        "dataset": np.repeat(np.array(design.datasets, dtype=object), n_p),
        "method_a": np.tile(methods[a_idx], n_d), "method_b": np.tile(methods[b_idx], n_d),
        "n_items": m.astype(np.int64).ravel(),
        "n_unpaired": (sums["n"][:, a_idx] + sums["n"][:, b_idx] - 2 * m.astype(np.int64)).ravel(),
        "n_clusters": (take("pg") if design.clustered else m).astype(np.int64).ravel(),
        "mean_a": mean_a.ravel(), "mean_b": mean_b.ravel(), "mean_diff": mean_diff.ravel(),
        "standard_error": se.ravel(), "standard_error_clustered": se_cluster.ravel(), "df": df.ravel(),
        "ci_low": (mean_diff - quantile * used).ravel(), "ci_high": (mean_diff + quantile * used).ravel(),
        "correlation": correlation.ravel(), "n_a_only": a_only.ravel(), "n_b_only": b_only.ravel(),
        "statistic": np.asarray(statistic, dtype=np.float64).ravel(), "p_raw": pvalue.ravel(),
        "p_adjusted": p_adjusted.ravel(), "significant": significant.ravel(), "superior": superior.ravel(),
        "mde": detectable_difference(used, alpha=alpha, power=power).ravel(), "reason": reason.ravel(),
    })
    notes = []
    unpaired = table[table["n_unpaired"] > 0]
    if len(unpaired):
        notes.append(f"{len(unpaired)} pair(s) are compared on fewer items than one of them has (n_unpaired "
                     "items left out: only items both models have are paired)")
    if design.clustered and test != _T_TEST:
        notes.append("McNemar's test treats items as independent; with clustered items its p-values are too "
                     f"small: prefer test={_T_TEST!r}, which uses the cluster-robust standard error")
    return PairedItems(table=table, test=test, adjust=adjust, alpha=alpha, confidence_level=confidence_level,
                       power=power, control=control, clustered=design.clustered,
                       binary=dict(zip(design.datasets, binary.tolist())), methods=list(design.methods),
                       direction=design.direction, notes=tuple(notes))


@states_scale
def paired_items(scores, direction=None, *, test: str = _T_TEST, adjust: str | None = "holm",
                 control: str | None = None, alpha: float = 0.05, confidence_level: float = 0.95,
                 power: float = 0.8, metric=None, method_names=None) -> PairedItems:
    """Is A better than B on this test set? Every pair compared on the items both have.

    Parameters
    ----------
    scores : any input of :func:`mcda.item_means`
        Per-item scores (``dataset × method × item[× sample]``, optional ``cluster`` coordinate).
    direction, metric, method_names
        As in :func:`mcda.data.cube.as_cube`.
    test : {"paired-items-t", "mcnemar-exact", "mcnemar-mid-p", "mcnemar-asymptotic"}
        The paired t test on the item differences (cluster-robust when the items are
        clustered), or McNemar's test of 0/1 scores: exact (binomial), mid-p, or asymptotic
        (χ², no continuity correction). Aliases of the registry are read ("mcnemar" is the
        exact test, as statsmodels' default).
    adjust : str or None
        Adjustment of the p-values over the pairs of each dataset (any of
        :func:`mcda.adjust_pvalues` but the pair-structured Shaffer and Bergmann–Hommel); None
        for none.
    control : str, optional
        Compare every model with this one only (k − 1 pairs per dataset).
    alpha : float
        Level of ``significant`` and of the minimum detectable difference.
    confidence_level : float
        Level of the interval of the difference.
    power : float
        Power of the minimum detectable difference ``mde``.

    Returns
    -------
    PairedItems
        ``table`` (see ``to_frame()``), ``test``, ``adjust``, ``alpha``, ``confidence_level``,
        ``power``, ``control``, ``clustered``, ``binary``, ``methods``, ``direction``,
        ``notes``; ``n_significant``; ``pair_decisions()``.

    Raises
    ------
    McdaArgumentError
        Scores without an ``item`` dim; an unknown ``test``, ``adjust`` or ``control``;
        ``alpha``, ``confidence_level`` or ``power`` outside (0, 1).

    Notes
    -----
    A pair is compared on the m items both models have (``n_unpaired`` counts the others;
    they are never compared on unequal sets). With d_i = a_i − b_i, the CLT standard error is
    s_d / √m and the t test is ``scipy.stats.ttest_rel`` (m − 1 df). With clusters the
    standard error of d̄ is cluster-robust,
    SE² = G/(G − 1) · Σ_c (Σ_{i∈c} (d_i − d̄))² / m² (Miller 2024, §3 and §4, with statsmodels'
    default small-sample factor; statsmodels OLS of d on a constant with ``cov_type="cluster"``
    and ``use_t=True``), and t = d̄ / SE has G − 1 df. Pairing removes the variance the two
    models share: Var(d) = Var(a) + Var(b) − 2 Cov(a, b), the reason ``correlation`` is given.
    McNemar's test reads the discordant items only: n_a_only (a right, b wrong) and n_b_only
    (statsmodels ``mcnemar``: ``exact=True``, and ``exact=False, correction=False``); the mid-p
    version halves the probability of the observed count (Fagerland, Lydersen & Laake 2013).
    McNemar's test assumes independent items. ``mde`` = (z_{1−α/2} + z_power) · SE, the
    smallest true difference the test (unadjusted, two-sided) would detect with probability
    ``power``: a non-significant pair with a large ``mde`` is unresolved, not equal.

    References
    ----------
    Miller, E. (2024). Adding error bars to evals: a statistical approach to language model
    evaluations. arXiv:2411.00640. doi:10.48550/arXiv.2411.00640
    McNemar, Q. (1947). Note on the sampling error of the difference between correlated
    proportions or percentages. Psychometrika 12(2):153–157. doi:10.1007/BF02295996
    Fagerland, M. W., Lydersen, S., Laake, P. (2013). The McNemar test for binary matched-pairs
    data: mid-p and asymptotic are better than exact conditional. BMC Medical Research
    Methodology 13:91. doi:10.1186/1471-2288-13-91

    Examples
    --------
    >>> import pandas as pd, mcda
    >>> rows = [{"dataset": "qa", "method": m, "item": i, "score": float(s)}
    ...         for m, line in (("a", "1101111011"), ("b", "1000100010")) for i, s in enumerate(line)]
    >>> row = mcda.paired_items(pd.DataFrame(rows), metric="exact_match", test="mcnemar-exact").to_frame().iloc[0]
    >>> int(row["n_a_only"]), int(row["n_b_only"]), round(float(row["p_raw"]), 4)
    (5, 0, 0.0625)
    """
    test = canonical("test", test, allowed=PAIR_TESTS)
    adjust = check_adjust(adjust)
    alpha = check_alpha(alpha)
    confidence_level = check_probability("confidence_level", confidence_level)
    power = check_probability("power", power)
    design = prepare_items(scores, direction, metric=metric, method_names=method_names, what="paired_items")
    if control is not None:
        control = check_control(control, design.methods)
    return _pairs(design, item_sums(design, pairs=True), test=test, adjust=adjust, alpha=alpha,
                  confidence_level=confidence_level, power=power, control=control)
