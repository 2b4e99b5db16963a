"""The result of a post-hoc procedure on mean ranks, shared by :mod:`mcda.stats.across.posthoc` (Nemenyi,
Bonferroni–Dunn, the step-down procedures) and :mod:`mcda.stats.across.rank_tests` (Conover, Siegel, Miller, the
aligned-ranks and Quade post-hocs). Public as ``mcda.stats.across.posthoc.PosthocResult``; it lives here so
that neither module imports the other's internals (and there is no import cycle between them).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from mcda._core.results import Result, pair_decisions_table
from mcda._core.validation import Reason

__all__ = ["PosthocResult", "pair_matrix"]


def pair_matrix(values, methods, diagonal, *, antisymmetric: bool = False) -> pd.DataFrame:
    """The methods × methods table (index ``method``, columns ``versus``) of one value per pair.

    ``values`` are in ``np.triu_indices(k, 1)`` order, (0, 1), (0, 2), …; the lower triangle
    mirrors them (negated when ``antisymmetric``); a bool ``diagonal`` makes a bool table.
    """
    k = len(methods)
    a, b = np.triu_indices(k, 1)
    values = np.asarray(values)
    out = np.full((k, k), diagonal, dtype=bool if isinstance(diagonal, bool) else np.float64)
    out[a, b] = values
    out[b, a] = -values if antisymmetric else values
    index = pd.Index(methods, name="method")
    return pd.DataFrame(out, index=index, columns=index.rename("versus"))


@dataclass(frozen=True, repr=False)
class PosthocResult(Result):
    """A post-hoc procedure on mean ranks: all pairs, or every method against a control.

    Attributes
    ----------
    test : str
        "nemenyi", "holm", "shaffer", "bergmann-hommel" (all pairs) or "bonferroni-dunn",
        "holm", "hochberg", "hommel" (against ``control``).
    control : str or None
        The control method, or None for all pairs.
    alpha : float
        Family-wise level of ``significant``.
    mean_ranks : pandas.Series
        Mean rank per method (1 = best).
    z : pandas.DataFrame or pandas.Series
        z = (R̄_a − R̄_b) / SE with SE = √(k(k+1)/(6N)): positive when b ranks better than a.
        All pairs: k × k, ``z.loc[a, b]`` (antisymmetric, zero diagonal). Against a control:
        a Series over the other methods, ``z[b] = (R̄_control − R̄_b) / SE``.
    pvalues : pandas.DataFrame or pandas.Series
        The unadjusted per-comparison p-values (two-sided normal 2Φ(−|z|), or the t or exact
        p), same shape as ``z`` (symmetric, NaN diagonal); the same table as
        :attr:`pvalues_raw`, the clearer name. Not the procedure's own p-values: for Nemenyi
        ``pvalues`` is the plain z-test p, and the Nemenyi p is ``pvalues_adjusted``.
    pvalues_adjusted : pandas.DataFrame or pandas.Series
        The procedure's p-values, the ones ``significant`` is decided by (Nemenyi: the
        studentized-range p-value P(range of k normals ≥ √2 |z|), which is
        ``scikit_posthocs.posthoc_nemenyi_friedman``; Holm & co.: the adjusted p-values).
    significant : pandas.DataFrame or pandas.Series of bool
        ``pvalues_adjusted <= alpha`` (diagonal False). For Nemenyi and Bonferroni–Dunn this is
        |R̄_a − R̄_b| ≥ ``critical_difference``.
    critical_difference : float or None
        CD for "nemenyi" and "bonferroni-dunn"; None for the step procedures.
    n_datasets, n_methods : int
    standard_error : float
        √(k(k+1)/(6N)) for the Friedman z; the standard error of the statistic's numerator for
        the other post-hocs (aligned ranks, Quade, Conover).
    distribution : str
        The reference distribution of ``z``: "normal" (a z statistic) or "t" (a t statistic,
        with ``df`` degrees of freedom: Conover, Quade). ``to_frame()`` names the column
        "z" or "t" accordingly.
    df : float or None
        Degrees of freedom of a t statistic (None for z).
    adjust : str or None
        The canonical name of the p-value adjustment applied, when ``test`` does not name it
        itself (the Conover, Siegel, aligned-ranks and Quade post-hocs take ``adjust=``);
        None for raw or simultaneous p-values and for the procedures named by ``test``.
    exact : bool
        Whether ``pvalues`` are the exact p-values of the rank-sum differences (Eisinga et al.
        2017) rather than the normal approximation 2Φ(−|z|); see :func:`mcda.nemenyi`.
    reason : str
        Why the p-values are NaN ("" when they are not), e.g. every dataset ties all methods.
    reason_code : Reason
        The same as a code (``Reason.ALL_TIED``; ``Reason.NONE`` when there is none).
    """

    test: str
    control: str | None
    alpha: float
    mean_ranks: pd.Series
    z: pd.DataFrame | pd.Series
    pvalues: pd.DataFrame | pd.Series
    pvalues_adjusted: pd.DataFrame | pd.Series
    significant: pd.DataFrame | pd.Series
    critical_difference: float | None
    n_datasets: int
    n_methods: int
    standard_error: float
    distribution: str = "normal"
    df: float | None = None
    adjust: str | None = None
    exact: bool = False
    reason: str = ""
    reason_code: Reason = Reason.NONE

    def _pairs(self) -> tuple[list, list]:
        methods = list(self.mean_ranks.index)
        if self.control is not None:
            others = list(self.z.index)
            return [self.control] * len(others), others
        a, b = np.triu_indices(len(methods), 1)
        return [methods[i] for i in a], [methods[j] for j in b]

    def to_frame(self) -> pd.DataFrame:
        """One row per comparison: ``method_a, method_b, mean_rank_a, mean_rank_b, rank_diff, z, p_raw,
        p_adjusted, significant`` (rank_diff = mean_rank_a − mean_rank_b; against a control,
        method_a is the control). The statistic's column is "t" instead of "z" when
        ``distribution`` is "t"."""
        first, second = self._pairs()
        if self.control is not None:
            pick = lambda frame: frame.loc[second].to_numpy()  # noqa: E731
        else:
            rows, cols = np.triu_indices(len(self.mean_ranks), 1)
            # the upper triangle in _pairs' order, read from the matrix in the mean ranks' order at once
            pick = lambda frame: frame.loc[self.mean_ranks.index, self.mean_ranks.index].to_numpy()[rows, cols]  # noqa: E731
        rank_a = self.mean_ranks.loc[first].to_numpy()
        rank_b = self.mean_ranks.loc[second].to_numpy()
        return pd.DataFrame({
            "method_a": first, "method_b": second, "mean_rank_a": rank_a, "mean_rank_b": rank_b,
            "rank_diff": rank_a - rank_b, self.kind: pick(self.z).astype(float),
            "p_raw": pick(self.pvalues).astype(float),
            "p_adjusted": pick(self.pvalues_adjusted).astype(float),
            "significant": pick(self.significant).astype(bool),
        })

    @property
    def pvalues_raw(self) -> pd.DataFrame | pd.Series:
        """The unadjusted per-comparison p-values (``to_frame()``'s ``p_raw``): the field ``pvalues``
        under a name nobody reads as the procedure's own p-values, which are :attr:`pvalues_adjusted`."""
        return self.pvalues

    @property
    def kind(self) -> str:
        """The kind of statistic in ``z``: ``"z"`` (normal) or ``"t"`` (Student's t with ``df``; Conover,
        Quade, Durbin–Conover). The field keeps its name ``z`` whatever the kind."""
        return "t" if self.distribution == "t" else "z"

    @property
    def statistic(self) -> pd.DataFrame | pd.Series:
        """The pairs' statistics (``z``), under a name that holds for either ``kind``."""
        return self.z

    def pair_decisions(self, *, test: str | None = None, mean_ranks: pd.Series | None = None) -> pd.DataFrame:
        """The pairs compared and what the procedure decided (the pair-decisions protocol of
        :func:`mcda._core.results.pair_decisions_table`): the better side is the one the statistic
        favours (``z`` < 0: method_a), which is the lower mean rank wherever the statistic is a
        difference of mean ranks; where the statistic is 0 or NaN, the lower mean rank."""
        ranks = self.mean_ranks if mean_ranks is None else mean_ranks
        frame = self.to_frame()
        rank_a = ranks.loc[frame["method_a"]].to_numpy(dtype=float)
        rank_b = ranks.loc[frame["method_b"]].to_numpy(dtype=float)
        statistic = frame[self.kind].to_numpy(dtype=float)
        # the incomplete-design contrasts (pairwise Skillings-Mack) are not differences of the
        # descriptive mean ranks: their sign, not the ranks, says which side was found better
        signed = np.isfinite(statistic) & (statistic != 0)
        a_better = np.where(signed, statistic < 0, rank_a < rank_b)
        pairs = pd.DataFrame({"method_a": frame["method_a"], "method_b": frame["method_b"], "rank_a": rank_a,
                              "rank_b": rank_b, "significant": frame["significant"], "p_adjusted": frame["p_adjusted"]})
        return pair_decisions_table(pairs, a_better, test=self.test if test is None else test, alpha=self.alpha,
                                    methods=list(ranks.index), control=self.control)

    @property
    def n_significant(self) -> int:
        """The number of comparisons rejected."""
        return int(self.to_frame()["significant"].sum())

    def summary(self) -> str:
        """The procedure, its CD if any, and the separated pairs."""
        frame = self.to_frame()
        what = f"against control {self.control}" if self.control is not None else "all pairs"
        cd = f", CD = {self.critical_difference:.3f}" if self.critical_difference is not None else ""
        lines = [f"{self.test} ({what}) at alpha = {self.alpha:g}{cd}: "
                 f"{int(frame['significant'].sum())} of {len(frame)} comparisons significant"]
        for row in frame[frame["significant"]].itertuples(index=False):
            # rank 1 = best: the method with the lower mean rank is the better one
            better, worse = (row.method_b, row.method_a) if row.rank_diff > 0 else (row.method_a, row.method_b)
            lines.append(f"  {better} ranks better than {worse} (mean rank {self.mean_ranks[better]:.3f} vs "
                         f"{self.mean_ranks[worse]:.3f}, difference {abs(row.rank_diff):.3f}), "
                         f"unadjusted p = {row.p_raw:.3g}, {self.test} p = {row.p_adjusted:.3g}")
        if self.reason:
            lines.append(f"note: {self.reason}")
        return "\n".join(lines)
