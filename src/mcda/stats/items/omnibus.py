"""k models over the items of a test set: one test of all at once, and the leaderboard with its tie groups.

:func:`item_omnibus` tests whether the k models score alike on the items every one of them has:
Cochran's Q for 0/1 scores, the Friedman test over items (ranks within each item) otherwise.
:func:`item_leaderboard` sorts the models by mean score with their intervals and puts in one
*tie group* the models no paired test separates from the group's best.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from mcda._core.results import states_scale
from mcda._core.validation import check_alpha, check_probability
from mcda.stats.items.design import prepare_items
from mcda.stats.items.means import _means
from mcda.stats.items.paired import PAIR_TESTS, _pairs, check_adjust
from mcda.stats.items.sums import item_sums, two_valued
from mcda.stats.items.tables import ItemTable
from mcda.stats.procedures import PROCEDURES, canonical, display_name, names

__all__ = ["ItemOmnibus", "item_omnibus", "ItemLeaderboard", "item_leaderboard", "OMNIBUS_TESTS"]

#: The registered tests of k models over items (``item_omnibus(test=)``): Cochran's Q, then Friedman's.
OMNIBUS_TESTS = tuple(n for n in names("items") if PROCEDURES[n].function.endswith(":item_omnibus"))


@dataclass(frozen=True, repr=False)
class ItemOmnibus(ItemTable):
    """One test of k models per dataset, over the items every model has.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per dataset: ``dataset, test, n_items`` (items every model has: the ones
        tested), ``n_excluded`` (items some model lacks, left out), ``n_methods``,
        ``statistic``, ``df``, ``p_raw``, ``rejected``, ``reason``.
    mean_ranks : pandas.DataFrame
        datasets × methods: the mean rank of each model over the tested items (1 = best).
    alpha : float
    clustered : bool
    notes : tuple of str
    """

    table: pd.DataFrame
    mean_ranks: pd.DataFrame
    alpha: float
    clustered: bool
    notes: tuple = ()

    def summary(self) -> str:
        return self._text(f"Do the models differ over items? (alpha = {self.alpha:g})",
                          ["dataset", "test", "n_items", "n_excluded", "statistic", "df", "p_raw", "rejected", "reason"])


def _omnibus(design, sums, *, test, alpha) -> ItemOmnibus:
    k = len(design.methods)
    binary, lo = two_valued(sums)
    n = sums["n_complete"].astype(np.float64)
    rows = []
    for d, dataset in enumerate(design.datasets):
        chosen = test or (OMNIBUS_TESTS[0] if binary[d] else OMNIBUS_TESTS[1])
        reason, statistic = "", np.nan
        with np.errstate(invalid="ignore", divide="ignore"):
            if chosen == OMNIBUS_TESTS[0]:
                if not binary[d]:
                    reason = "scores are not all 0 or 1: Cochran's Q needs one 0/1 outcome per item"
                columns = sums["column_totals"][d] - n[d] * lo[d]
                total = sums["row_totals"][d] - n[d] * k * lo[d]
                squares = sums["row_squares"][d] - 2.0 * k * lo[d] * sums["row_totals"][d] + n[d] * k * k * lo[d] ** 2
                denominator = k * total - squares
                statistic = (k - 1) * (k * columns @ columns - total ** 2) / denominator
                if not reason and not denominator > 0:
                    reason = "every tested item is solved by all models or by none"
            else:
                r = sums["rank_sums"][d]
                chi2 = 12.0 / (n[d] * k * (k + 1)) * (r @ r) - 3.0 * n[d] * (k + 1)
                ties = 12.0 * (n[d] * k * (k + 1) * (2 * k + 1) / 6.0 - sums["rank_squares"][d])
                correction = 1.0 - ties / (n[d] * (k ** 3 - k))
                statistic = chi2 / correction
                if not correction > 1e-12:
                    reason = "every tested item ties every model"
        if n[d] < 2:
            reason = "fewer than 2 items every model has"
        p = stats.chi2.sf(statistic, k - 1) if not reason else np.nan
        rows.append({"dataset": dataset, "test": chosen, "n_items": int(n[d]),
                     "n_excluded": int(sums["n_items"][d] - n[d]), "n_methods": k,
                     "statistic": statistic if not reason else np.nan, "df": k - 1, "p_raw": p,
                     "rejected": bool(p <= alpha) if not reason else False, "reason": reason})
    with np.errstate(invalid="ignore", divide="ignore"):
        ranks = sums["rank_sums"] / n[:, None]
    mean_ranks = pd.DataFrame(ranks, index=pd.Index(design.datasets, name="dataset"),
                              columns=pd.Index(design.methods, name="method"))
    notes = []
    if design.clustered:
        notes.append("Cochran's Q and the Friedman test treat items as independent; with clustered items their "
                     "p-values are too small (the paired tests of paired_items are cluster-robust)")
    table = pd.DataFrame(rows)
    if (table["n_excluded"] > 0).any():
        notes.append("items some model lacks are left out of the test of their dataset (n_excluded)")
    return ItemOmnibus(table=table, mean_ranks=mean_ranks, alpha=alpha, clustered=design.clustered, notes=tuple(notes))


@states_scale
def item_omnibus(scores, direction=None, *, test: str | None = None, alpha: float = 0.05, metric=None,
                 method_names=None) -> ItemOmnibus:
    """Do the k models differ at all on this test set? Cochran's Q or the Friedman test over items.

    Parameters
    ----------
    scores : any input of :func:`mcda.item_means`
    direction, metric, method_names
        As in :func:`mcda.data.cube.as_cube`.
    test : {None, "cochran-q", "friedman-items"}
        None: per dataset, Cochran's Q when the item scores are 0/1, else the Friedman test.
    alpha : float
        Level of ``rejected``.

    Returns
    -------
    ItemOmnibus
        ``table`` (see ``to_frame()``), ``mean_ranks``, ``alpha``, ``clustered``, ``notes``.

    Raises
    ------
    McdaArgumentError
        Scores without an ``item`` dim, an unknown ``test``, ``alpha`` outside (0, 1).

    Notes
    -----
    Both tests read the items every model has (the others are counted in ``n_excluded``).
    **Cochran's Q** (Cochran 1950), for 0/1 scores x_ij of item i and model j, with column
    totals C_j, row totals R_i and T = Σ C_j: Q = (k − 1)(k Σ C_j² − T²) / (k T − Σ R_i²),
    χ² with k − 1 df (statsmodels ``cochrans_q``). **Friedman over items**: the models are
    ranked within each item (1 = best, ties averaged), R_j the rank sums over n items,
    χ² = [12 / (n k (k + 1)) Σ R_j² − 3 n (k + 1)] / [1 − Σ (t³ − t) / (n (k³ − k))] with the
    tie correction, χ² with k − 1 df (``scipy.stats.friedmanchisquare``). Both assume
    independent items.

    References
    ----------
    Cochran, W. G. (1950). The comparison of percentages in matched samples. Biometrika
    37(3/4):256–266. doi:10.1093/biomet/37.3-4.256
    Friedman, M. (1937). The use of ranks to avoid the assumption of normality implicit in the
    analysis of variance. JASA 32(200):675–701. doi:10.1080/01621459.1937.10503522

    Examples
    --------
    >>> import pandas as pd, mcda
    >>> rows = [{"dataset": "qa", "method": m, "item": i, "score": float(s)}
    ...         for m, line in (("a", "11011110"), ("b", "10010100"), ("c", "00010000")) for i, s in enumerate(line)]
    >>> row = mcda.item_omnibus(pd.DataFrame(rows), metric="exact_match").to_frame().iloc[0]
    >>> row["test"], round(float(row["statistic"]), 3), int(row["df"])
    ('cochran-q', 7.6, 2)
    """
    test = None if test is None else canonical("test", test, allowed=OMNIBUS_TESTS)
    alpha = check_alpha(alpha)
    design = prepare_items(scores, direction, metric=metric, method_names=method_names, what="item_omnibus")
    return _omnibus(design, item_sums(design, ranks=True), test=test, alpha=alpha)


@dataclass(frozen=True, repr=False)
class ItemLeaderboard(ItemTable):
    """The models of each dataset sorted by mean score, with intervals and tie groups.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per (dataset, method), best first: ``dataset, position`` (1, 2, … in sorted
        order), ``rank`` (the position of the best model of its tie group: tied models share
        it), ``tie_group`` (1 = the best model's group), ``tied_with_best`` (no test separates
        it from the best model), ``method, mean, standard_error`` (the one its interval uses:
        cluster-robust when the items carry clusters), ``ci_low, ci_high, n_items``.
    pairs : PairedItems
        The paired comparisons the tie groups read.
    confidence_level, alpha : float
    notes : tuple of str
    """

    table: pd.DataFrame
    pairs: object
    confidence_level: float
    alpha: float
    notes: tuple = ()

    def summary(self) -> str:
        shown = self.table.copy()
        shown["rank"] = [f"{r}=" if n > 1 else f"{r}" for r, n in
                         zip(shown["rank"], shown.groupby(["dataset", "rank"])["rank"].transform("size"))]
        head = (f"Leaderboard over items ({self.confidence_level:.0%} intervals; '=' marks models no "
                f"{display_name(self.pairs.test)} test ({display_name(self.pairs.adjust) if self.pairs.adjust else 'unadjusted'}, "
                f"alpha = {self.alpha:g}) separates from their group's best)")
        from mcda.stats.items.tables import show_table

        return head + "\n" + show_table(shown, ["dataset", "rank", "method", "mean", "ci_low", "ci_high", "n_items"]) \
            + "".join(f"\nnote: {n}" for n in self.notes)


def _tie_groups(order: list, separated: dict) -> list:
    """Group numbers along ``order`` (best first): each group is the best remaining model and every
    remaining model no test separates from it."""
    group, out, left = 0, {}, list(order)
    while left:
        group += 1
        head = left[0]
        members = [m for m in left if m == head or not separated.get(frozenset((head, m)), False)]
        for m in members:
            out[m] = group
        left = [m for m in left if m not in members]
    return [out[m] for m in order]


@states_scale
def item_leaderboard(scores, direction=None, *, test: str = PAIR_TESTS[0], adjust: str | None = "holm",
                     alpha: float = 0.05, confidence_level: float = 0.95, metric=None,
                     method_names=None) -> ItemLeaderboard:
    """The leaderboard of a test set: models sorted by mean score, with intervals, and the tied ones said so.

    Parameters
    ----------
    scores : any input of :func:`mcda.item_means`
    direction, metric, method_names
        As in :func:`mcda.data.cube.as_cube`.
    test, adjust, alpha
        The paired test over items that separates two models, its adjustment over all pairs of
        a dataset and its level (as in :func:`mcda.paired_items`).
    confidence_level : float
        Level of each model's interval (as in :func:`mcda.item_means`).

    Returns
    -------
    ItemLeaderboard
        ``table`` (see ``to_frame()``), ``pairs`` (the :class:`PairedItems` read),
        ``confidence_level``, ``alpha``, ``notes``.

    Raises
    ------
    McdaArgumentError
        As :func:`mcda.paired_items`.

    Notes
    -----
    Tie groups are built down the sorted board: the best model and every model its paired
    test does not separate from it form group 1 and share rank 1; the best of the rest opens
    group 2, and so on. A model in a group is only known not to be separated from the group's
    best; two models of different groups may still be inseparable from each other. The
    summary prints a shared rank with "=" (``1=``).

    Examples
    --------
    >>> import pandas as pd, mcda
    >>> rows = [{"dataset": "qa", "method": m, "item": i, "score": float(s)} for m, line in
    ...         (("a", "1101111011" * 3), ("b", "1101101011" * 3), ("c", "0001000010" * 3)) for i, s in enumerate(line)]
    >>> board = mcda.item_leaderboard(pd.DataFrame(rows), metric="exact_match").to_frame()
    >>> board[["method", "rank", "tie_group"]].values.tolist()
    [['a', 1, 1], ['b', 1, 1], ['c', 3, 2]]
    """
    test = canonical("test", test, allowed=PAIR_TESTS)
    adjust = check_adjust(adjust)
    alpha = check_alpha(alpha)
    confidence_level = check_probability("confidence_level", confidence_level)
    design = prepare_items(scores, direction, metric=metric, method_names=method_names, what="item_leaderboard")
    sums = item_sums(design, pairs=True)
    means = _means(design, sums, confidence_level).table
    pairs = _pairs(design, sums, test=test, adjust=adjust, alpha=alpha, confidence_level=confidence_level,
                   power=0.8, control=None)
    parts = []
    for dataset, block in means.groupby("dataset", sort=False):
        block = block.assign(_key=design.sign * block["mean"]).sort_values("_key", ascending=False, kind="stable",
                                                                          na_position="last")
        rows = pairs.table[pairs.table["dataset"] == dataset]
        separated = {frozenset((a, b)): bool(s) for a, b, s in
                     zip(rows["method_a"], rows["method_b"], rows["significant"])}
        order = block["method"].tolist()
        groups = _tie_groups(order, separated)
        positions = np.arange(1, len(order) + 1)
        first = {g: positions[groups.index(g)] for g in set(groups)}
        se = block["standard_error_clustered"] if design.clustered else block["standard_error"]
        parts.append(pd.DataFrame({
            "dataset": dataset, "position": positions, "rank": [int(first[g]) for g in groups],
            "tie_group": groups, "tied_with_best": [g == 1 for g in groups], "method": order,
            "mean": block["mean"].to_numpy(), "standard_error": se.to_numpy(), "ci_low": block["ci_low"].to_numpy(),
            "ci_high": block["ci_high"].to_numpy(), "n_items": block["n_items"].to_numpy()}))
    return ItemLeaderboard(table=pd.concat(parts, ignore_index=True), pairs=pairs,
                           confidence_level=confidence_level, alpha=alpha, notes=pairs.notes)
