"""Replicability across datasets: on how many datasets does A beat B?

A significant mean over datasets says that A beats B *on average*; it does not say on how
many datasets. Dror, Baumer, Bogomolov & Reichart (2017) answer that question from one p-value
per dataset (here the one-sided test over seeds that A is better than B on the dataset): the
partial conjunction p-value of Benjamini & Heller (2008) for "A beats B on at least u of the N
datasets", the count k̂ of datasets with a real effect (a lower bound: P(k̂ > true count) ≤ α)
and the datasets Holm's procedure names.

:func:`replicability` reads a cube with seeds (it runs :func:`mcda.paired_tests` per dataset) or
a table of per-dataset p-values (from the tests over seeds, over items, or anywhere else).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from mcda._core.results import Result, states_scale
from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError, check_alpha, check_control, shown
from mcda.data.cards import direction_sign
from mcda.stats.procedures import PROCEDURES, canonical, display_name, names, one_sided_over_seeds

__composes__ = ("within",)

__all__ = ["replicability", "ReplicabilityResult", "partial_conjunction_pvalues", "count_with_effect"]

#: The adjustments over the claims "a beats b" of a result (each claim's sequence of nested hypotheses).
PAIR_ADJUSTMENTS = ("holm", "bonferroni")
_TABLE_COLUMNS = ("dataset", "method_a", "method_b", "p_raw")


def partial_conjunction_pvalues(pvalues, *, method: str = "conjunction-bonferroni") -> np.ndarray:
    """The partial conjunction p-values of u = 1..N for N per-dataset p-values, made monotone in u.

    ``p[u - 1]`` tests H^{u/N}: "fewer than u of the N null hypotheses are false" (Benjamini &
    Heller 2008). With the p-values sorted, p_(1) ≤ … ≤ p_(N):

    - Bonferroni: p^{u/N} = min(1, (N − u + 1) · p_(u));
    - Fisher: p^{u/N} = P(χ²_{2(N−u+1)} ≥ −2 Σ_{i=u}^{N} log p_(i)), valid for independent p-values.

    Each is then replaced by the largest of p^{1/N}, …, p^{u/N} (Dror et al. 2017), so that the
    sequence rejects a prefix u = 1..k̂.
    """
    p = np.sort(np.asarray(pvalues, dtype=np.float64))
    n = p.size
    if n == 0:
        return p
    remaining = n - np.arange(n)  # N − u + 1 for u = 1..N
    if method == "conjunction-bonferroni":
        pc = np.minimum(1.0, remaining * p)
    else:
        with np.errstate(divide="ignore"):
            tail = np.cumsum(-2.0 * np.log(p)[::-1])[::-1]  # −2 Σ_{i ≥ u} log p_(i)
        pc = stats.chi2.sf(tail, 2 * remaining)
    return np.maximum.accumulate(pc)


def count_with_effect(pvalues, level: float, *, method: str = "conjunction-bonferroni") -> int:
    """k̂: the number of u whose monotone partial conjunction p-value is ≤ ``level``.

    Testing H^{1/N}, H^{2/N}, … in turn at ``level`` and stopping at the first acceptance
    overstates the number of datasets with an effect with probability at most ``level``: the
    hypotheses are nested, and k̂ > k needs the true H^{(k+1)/N} rejected (Dror et al. 2017 §4).
    """
    return int(np.count_nonzero(partial_conjunction_pvalues(pvalues, method=method) <= level))


@dataclass(frozen=True, repr=False)
class ReplicabilityResult(Result):
    """On how many datasets each method beats each other, with family-wise error control.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per claim "method_a beats method_b" (both orders of every pair; with a
        ``control`` the two orders of each (control, other) pair): ``method_a, method_b,
        n_datasets, n_replicated, n_identified, identified, level``. ``n_datasets`` counts the
        datasets with a p-value for the pair; ``n_replicated`` is k̂, the number of datasets on
        which method_a beats method_b that the data support (a lower bound: the chance that any
        claim's k̂ exceeds its true count is at most ``alpha``); ``identified`` names the
        ``n_identified`` datasets Holm's procedure within the claim picks (its k̂ under
        Bonferroni; at most k̂ under Fisher), best p-value first; ``level`` is the level each
        claim's sequence was tested at after the adjustment over claims.
    conjunction : pandas.DataFrame
        ``method_a, method_b, u, p_conjunction, significant``: the monotone partial
        conjunction p-value of "method_a beats method_b on at least u datasets", u = 1..N,
        and whether it is ≤ the claim's ``level``.
    per_dataset : pandas.DataFrame
        ``dataset, method_a, method_b, mean_diff, p_raw, identified``: the one-sided p-value of
        "method_a is better than method_b on this dataset" (``mean_diff`` a − b in the metric's
        units, NaN when the p-values were given without it).
    method : str
        The registered combination: "conjunction-bonferroni" or "conjunction-fisher".
    test : str or None
        The test over seeds that gave the p-values ("t", "wilcoxon", a corrected t over folds); None for a
        table of p-values.
    adjust : str
        The adjustment over claims: "holm" or "bonferroni".
    alpha : float
    n_comparisons : int
        Claims the adjustment runs over.
    direction : str or None
    metric : str or None
    notes : tuple of str
    """

    table: pd.DataFrame
    conjunction: pd.DataFrame
    per_dataset: pd.DataFrame
    method: str
    test: str | None
    adjust: str
    alpha: float
    n_comparisons: int
    direction: str | None
    metric: str | None
    notes: tuple = ()

    def summary(self) -> str:
        how = display_name(self.method)
        source = f"one-sided {display_name(self.test)} tests over seeds" if self.test else "the given p-values"
        head = (f"Replicability across datasets ({how}; {source}; {display_name(self.adjust)} over "
                f"{self.n_comparisons} claim{'s' if self.n_comparisons != 1 else ''}, alpha = {self.alpha:g}): on how many datasets method_a beats method_b")
        shown_rows = self.table[self.table["n_replicated"] > 0]
        if shown_rows.empty:
            body = "no claim is supported on any dataset"
        else:
            body = shown_rows.head(20).to_string(index=False, columns=["method_a", "method_b", "n_datasets",
                                                                        "n_replicated", "identified"])
            if len(shown_rows) > 20:
                body += f"\n… ({len(shown_rows) - 20} more claims; see .to_frame())"
        return head + "\n" + body + "".join(f"\nnote: {n}" for n in self.notes)


def _check_table(frame: pd.DataFrame) -> pd.DataFrame:
    absent = [c for c in _TABLE_COLUMNS if c not in frame.columns]
    if absent:
        raise McdaArgumentError(
            f"`scores` as a table of p-values needs the columns {list(_TABLE_COLUMNS)} (and optionally `mean_diff`); "
            f"it lacks {absent} (its columns are {shown(list(map(str, frame.columns)), 10)})", argument="scores")
    p = pd.to_numeric(frame["p_raw"], errors="coerce").to_numpy(dtype=float)
    bad = ~np.isnan(p) & ((p < 0) | (p > 1))
    if bad.any():
        raise McdaArgumentError(f"`scores`: `p_raw` must lie in [0, 1]; got {shown(p[bad].tolist(), 5)}",
                                argument="scores")
    if frame.duplicated(["dataset", "method_a", "method_b"]).any():
        raise McdaArgumentError("`scores`: each (dataset, method_a, method_b) must appear once in the table of "
                                "p-values", argument="scores")
    return frame


def _one_sided(table: pd.DataFrame, sign: float) -> pd.DataFrame:
    """Both orders of every row of a table of two-sided p-values with ``mean_diff``, one-sided.

    The side the oriented mean difference favours gets p/2, the other 1 − p/2 (exact for the t
    test; for the Wilcoxon test the favoured side is exact and the other at most P(R+ = r) low).
    """
    p = table["p_raw"].to_numpy(dtype=float)
    diff = table["mean_diff"].to_numpy(dtype=float)
    favours_a = sign * diff > 0
    half = p / 2.0
    p_a = np.where(favours_a, half, 1.0 - half)
    p_b = np.where(favours_a, 1.0 - half, half)
    zero = sign * diff == 0
    p_a[zero] = p_b[zero] = 1.0 - half[zero]  # no side favoured: the larger one-sided p for both
    forward = pd.DataFrame({"dataset": table["dataset"].to_numpy(), "method_a": table["method_a"].to_numpy(),
                            "method_b": table["method_b"].to_numpy(), "mean_diff": diff, "p_raw": p_a})
    backward = pd.DataFrame({"dataset": table["dataset"].to_numpy(), "method_a": table["method_b"].to_numpy(),
                             "method_b": table["method_a"].to_numpy(), "mean_diff": -diff, "p_raw": p_b})
    return pd.concat([forward, backward], ignore_index=True)


def _levels(pc: list[np.ndarray], alpha: float, adjust: str) -> np.ndarray:
    """The level each claim's sequence is tested at.

    Bonferroni: alpha / m for each of the m claims. Holm: the closed testing of the m nested
    sequences with Bonferroni tests of each intersection; a claim whose every hypothesis is
    rejected (k̂ = N) leaves the family, and the others are tested again at alpha / (claims left),
    until no claim leaves. It is Holm's step-down on the claims' last p-values p^{N/N}, and each
    remaining claim is tested at the level Holm stops at.
    """
    m = len(pc)
    levels = np.full(m, alpha / max(m, 1))
    if adjust == "bonferroni":
        return levels
    active = np.ones(m, dtype=bool)
    while active.any():
        level = alpha / int(active.sum())
        done = [j for j in np.nonzero(active)[0] if pc[j].size and pc[j][-1] <= level]
        levels[active] = level
        if not done or len(done) == int(active.sum()):
            break
        active[done] = False
    return levels


@states_scale
def replicability(scores, direction=None, *, alpha: float = 0.05, method: str = "bonferroni",
                  test: str | None = None, adjust: str = "holm", control: str | None = None, paired: bool = True,
                  metric=None, method_names=None) -> ReplicabilityResult:
    """On how many datasets does each method beat each other? Partial conjunction tests (Dror et al. 2017).

    Parameters
    ----------
    scores : a cube with a ``seed`` dim, or a table of per-dataset p-values
        With seeds (any input of :func:`mcda.score_cube`), every pair is tested on each dataset
        over its seeds by :func:`mcda.paired_tests` (``test``), and the two-sided p-values are
        turned one-sided for each order of the pair. A :class:`pandas.DataFrame` with the
        columns ``dataset, method_a, method_b, p_raw`` gives the p-values directly (from tests
        over items, say): with a ``mean_diff`` column (a − b in the metric's units; needs
        ``direction``) ``p_raw`` is two-sided and both orders are analysed; without it ``p_raw``
        is the one-sided p-value of "method_a is better than method_b on this dataset" and
        only those claims are analysed.
    direction : str, optional
        The metric's direction, when ``scores`` does not carry it.
    alpha : float
        Family-wise error rate over every claim: the chance that any k̂ exceeds its claim's
        true count.
    method : {"bonferroni", "fisher"}
        How the partial conjunction p-values combine the per-dataset p-values: Bonferroni's
        (valid under any dependence between datasets) or Fisher's (more powerful, needs
        independent datasets). Registered as "conjunction-bonferroni" and "conjunction-fisher".
    test : {"t", "wilcoxon", "corrected-resampled-t", "corrected-repeated-cv-t"}, optional
        The paired test over seeds on each dataset (default "t"); only with seeds. The corrected t
        tests are for seeds that are cross-validation folds (their design read from the cube, as
        :func:`mcda.paired_tests` reads it).
    adjust : {"holm", "bonferroni"}
        The family-wise adjustment over claims (see Notes).
    control : str, optional
        Only the claims of the control against each other method, in both orders.
    paired : bool
        With seeds: True (default) pairs the seeds by label; False tests each method's seeds as a
        sample of its own (:func:`mcda.paired_tests` with ``paired=False``: Welch's t for "t",
        Mann–Whitney U for "wilcoxon").
    metric, method_names : optional
        As in :func:`mcda.data.cube.as_cube`.

    Returns
    -------
    ReplicabilityResult
        ``table`` (one row per claim: ``method_a, method_b, n_datasets, n_replicated,
        n_identified, identified, level``), ``conjunction``, ``per_dataset``, ``method``,
        ``test``, ``adjust``, ``alpha``, ``n_comparisons``, ``direction``, ``metric``, ``notes``.

    Raises
    ------
    McdaArgumentError
        An unknown ``method``, ``test`` or ``adjust``; ``test`` with a table of p-values; a
        cube without seeds; a table without its columns or with p-values outside [0, 1].

    Notes
    -----
    For a claim "a beats b" with one-sided p-values p_1..p_N over the N datasets that have one,
    the partial conjunction p-value of "a beats b on at least u datasets" is (N − u + 1)·p_(u)
    (Bonferroni) or the χ²_{2(N−u+1)} tail of −2 Σ_{i≥u} log p_(i) (Fisher), made monotone in u.
    k̂ is the number of u whose p-value is ≤ the claim's level: testing u = 1, 2, … in turn and
    stopping at the first acceptance, k̂ exceeds the true count only if the first true
    hypothesis is rejected, with probability at most the level. The datasets named are Holm's
    rejections among the N at that level; under Bonferroni there are exactly k̂ of them
    (Holm's step-down and the Bonferroni partial conjunction reject alike).

    Over the m claims (both orders of each pair: a may beat b on some datasets and b beat a
    on others), ``adjust="bonferroni"`` tests each at alpha/m. ``adjust="holm"`` is the closed
    testing of the nested sequences with Bonferroni intersection tests: Holm's step-down on
    each claim's last p-value p^{N/N}; claims it rejects (k̂ = N) leave the family and the
    others are tested at alpha / (claims left). It is never less powerful than Bonferroni.

    A dataset on which the pair has no p-value (too few seeds, identical scores: NaN and a
    reason in :func:`mcda.paired_tests`) does not count in N.

    References
    ----------
    Dror, R., Baumer, G., Bogomolov, M. and Reichart, R. (2017). Replicability analysis for
    natural language processing: testing significance with multiple datasets. TACL 5:471–486.
    https://doi.org/10.1162/tacl_a_00074

    Benjamini, Y. and Heller, R. (2008). Screening for partial conjunction hypotheses.
    Biometrics 64(4):1215–1222. https://doi.org/10.1111/j.1541-0420.2007.00984.x

    Examples
    --------
    The p-values of the authors' example, as one claim:

    >>> import pandas as pd
    >>> import mcda
    >>> p = [0.168, 0.297, 0.357, 0.019, 0.218, 0.001]
    >>> table = pd.DataFrame({"dataset": [f"d{i}" for i in range(6)], "method_a": "A", "method_b": "B", "p_raw": p})
    >>> res = mcda.replicability(table, method="fisher")
    >>> res.to_frame()[["method_a", "method_b", "n_datasets", "n_replicated", "identified"]]
      method_a method_b  n_datasets  n_replicated identified
    0        A        B           6             2         d5
    """
    method = canonical("method", method, allowed=names("replicability"))
    adjust = canonical("adjust", adjust, allowed=PAIR_ADJUSTMENTS)
    if test is not None:
        test = canonical("test", test, allowed=one_sided_over_seeds())
    alpha = check_alpha(alpha)
    notes: list[str] = []
    if isinstance(scores, pd.DataFrame) and "p_raw" in scores.columns:
        if test is not None:
            raise McdaArgumentError(f"`test` {test!r} chooses the test over seeds; `scores` is a table of p-values "
                                    "already: leave `test` out.", argument="test", value=test)
        frame = _check_table(scores)
        if "mean_diff" in frame.columns:
            if direction is None:
                raise McdaArgumentError("`direction` is needed with a table of two-sided p-values and `mean_diff`: "
                                        "it says which sign of a − b means that a is better.", argument="direction")
            sign = direction_sign(direction)
            per = _one_sided(frame, sign)
        else:
            per = frame[list(_TABLE_COLUMNS)].copy()
            per.insert(3, "mean_diff", np.nan)
            if direction is not None:
                direction_sign(direction)
        metric_name = None if metric is None else str(metric)
        test_name = None
        per["p_raw"] = pd.to_numeric(per["p_raw"], errors="coerce").astype(float)
        for column in ("dataset", "method_a", "method_b"):
            per[column] = per[column].astype(str)
    else:
        from mcda.stats.within.seeds import paired_tests

        test_name = test or "t"
        tests = paired_tests(scores, direction, method=test_name, metric=metric, method_names=method_names,
                             paired=paired)
        if not isinstance(tests.metric, str):
            raise McdaArgumentError(f"`scores` has several metrics {list(tests.metric)}; replicability reads one: "
                                    "pass `metric=` or select one first.", argument="metric")
        direction = tests.direction
        metric_name = tests.metric or None
        per = _one_sided(tests.table, direction_sign(direction))
        notes.extend(tests.notes)
        if not paired:   # the result names the test that ran: Welch's t or Mann-Whitney U
            test_name = PROCEDURES[test_name].unpaired
    if control is not None:
        methods = list(dict.fromkeys(per["method_a"].tolist() + per["method_b"].tolist()))
        control = check_control(control, methods)
        per = per[(per["method_a"] == control) | (per["method_b"] == control)]
    per = per.reset_index(drop=True)
    claims = list(dict.fromkeys(zip(per["method_a"], per["method_b"])))
    groups = per.groupby(["method_a", "method_b"], sort=False).indices
    valid = {claim: groups[claim][~np.isnan(per["p_raw"].to_numpy()[groups[claim]])] for claim in claims}
    p_all = per["p_raw"].to_numpy(dtype=float)
    pcs = [partial_conjunction_pvalues(p_all[valid[c]], method=method) for c in claims]
    levels = _levels(pcs, alpha, adjust)
    identified = np.zeros(len(per), dtype=bool)
    rows, sequences = [], []
    datasets = per["dataset"].to_numpy()
    for (a, b), pc, level in zip(claims, pcs, levels):
        idx = valid[(a, b)]
        k_hat = int(np.count_nonzero(pc <= level))
        holm = count_with_effect(p_all[idx], level) if method != "conjunction-bonferroni" else k_hat
        order = idx[np.lexsort((datasets[idx], p_all[idx]))]
        named = order[:holm]
        identified[named] = True
        rows.append({"method_a": a, "method_b": b, "n_datasets": int(idx.size), "n_replicated": k_hat,
                     "n_identified": int(holm), "identified": ", ".join(str(d) for d in datasets[named]),
                     "level": float(level)})
        sequences.append(pd.DataFrame({"method_a": a, "method_b": b, "u": np.arange(1, idx.size + 1),
                                       "p_conjunction": pc, "significant": pc <= level}))
        untested = int(len(groups[(a, b)]) - idx.size)
        if untested:
            notes.append(f"{a} vs {b}: {untested} dataset(s) without a p-value (see paired_tests' reason) are "
                         "left out of N")
    per["identified"] = identified
    table = pd.DataFrame(rows, columns=["method_a", "method_b", "n_datasets", "n_replicated", "n_identified",
                                        "identified", "level"])
    conjunction = (pd.concat(sequences, ignore_index=True) if sequences else
                   pd.DataFrame(columns=["method_a", "method_b", "u", "p_conjunction", "significant"]))
    if method == "conjunction-fisher":
        notes.append("Fisher's combination assumes the datasets' p-values are independent; with datasets that "
                     "share data or methods' runs, Bonferroni's (method='bonferroni') is valid under any dependence.")
    return ReplicabilityResult(table=table, conjunction=conjunction, per_dataset=per, method=method,
                               test=test_name, adjust=adjust, alpha=alpha, n_comparisons=len(claims),
                               direction=direction, metric=metric_name, notes=tuple(dict.fromkeys(notes)))
