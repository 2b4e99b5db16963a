"""Across datasets, the whole procedure: ranks, the omnibus and a post-hoc only if it rejects.

:func:`compare_over_datasets` composes the Friedman omnibus (:mod:`mcda.stats.across.friedman`)
and the post-hoc procedures (:mod:`mcda.stats.across.posthoc`) on a complete design, and the
incomplete-design tests (:mod:`mcda.stats.across.incomplete`: Durbin with Conover's post-hoc,
Skillings–Mack with its pairwise comparisons) on an incomplete one, then groups the methods the
post-hoc did not separate.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from mcda._core.validation import McdaArgumentError
from mcda.stats._shared.cliques import (groups_from_decisions, maximal_cliques as _maximal_cliques)  # noqa: F401 (tests use it)
from mcda._core.numeric import TIE_TOLERANCE
from mcda.stats._shared.posthoc import PosthocResult, pair_matrix
from mcda._core.results import OmnibusResult, Result, pair_decisions_table, states_scale
from mcda._core.validation import check_alpha, check_control
from mcda.stats._shared.multitest import adjust_finite, check_bergmann_hommel
# re-exported from their home for code written against mcda.stats.across.compare
from mcda.stats._shared.multitest import PVALUE_ADJUSTMENTS, adjust_pvalues  # noqa: F401
from mcda.data.design import missing_policy
from mcda.stats._shared.ranks import MeanRanks
from mcda.stats.procedures import PROCEDURES, canonical, display_name, names
from mcda.stats.across.friedman import _friedman, _rank_statistics
from mcda.stats.across.posthoc import _ALL_PAIRS_TESTS, _CONTROL_TESTS, _check_exact, _posthoc

__all__ = [
    "ComparisonResult",
    "compare_over_datasets",
]

_COMPARISON_TESTS = names("posthoc")
#: The post-hoc tests :func:`compare_over_datasets` runs (its ``test=``).
COMPARISON_TESTS = _COMPARISON_TESTS
_SHOWN = 8


def _listed(items, limit: int = _SHOWN) -> str:
    items = [str(i) for i in items]
    text = ", ".join(items[:limit])
    return "[" + text + (f", … ({len(items) - limit} more)" if len(items) > limit else "") + "]"


# --------------------------------------------------------------------------- the whole procedure


@dataclass(frozen=True, repr=False)
class ComparisonResult(Result):
    """Ranks, omnibus and (only if it rejects) the post-hoc procedure, with the cliques.

    Attributes
    ----------
    mean_ranks : pandas.Series
        Mean rank per method (1 = best), over the complete design.
    friedman : OmnibusResult
        The omnibus: a FriedmanResult, or under ``missing="available"`` on an incomplete design a
        SkillingsMackResult or DurbinResult (read ``kind``, ``test`` and ``decision_pvalue`` for any).
    posthoc : PosthocResult or None
        None when the omnibus does not reject: then no difference may be claimed.
    critical_difference : float or None
        The CD of Nemenyi or Bonferroni–Dunn when the post-hoc ran; None otherwise (and for
        the step procedures, which have no single CD).
    groups : list of tuple of str
        Maximal cliques of methods not separated from each other, computed from the pairwise
        decisions (a group never contains a pair the test separated), each ordered by mean
        rank and the list ordered by the mean rank of their members. A method separated from
        every other forms a group of its own. Against a control only the pairs with the
        control are tested: the one group is the control with the methods not separated from
        it. When the omnibus does not reject, one group holds every method.
    excluded : dict
        Method -> datasets it lacks (excluded, never imputed).
    n_datasets, n_methods : int
    alpha : float
    test : str
    control : str or None
    missing : str
        The policy applied: "complete" (incomplete methods dropped), "datasets" (incomplete
        datasets dropped) or "available" (the incomplete design tested as it is).
    design : str
        The design tested: "complete", "balanced incomplete" (Durbin's test, Conover's
        post-hoc) or "unbalanced incomplete" (Skillings–Mack, then the pairwise Skillings–Mack
        comparisons of :func:`mcda.skillings_mack_posthoc`).
    datasets_per_method : pandas.Series or None
        Datasets on which each method has a result (in the design tested).
    excluded_datasets : dict
        Dataset -> methods it lacks (dropped under ``missing="datasets"``).
    note : str
        What the procedure could not do or did instead, in words (e.g. the adjustment used on an
        incomplete design).
    posthoc_test : str
        The registered name of the post-hoc run (or that would run) after the omnibus, when it is
        not ``test`` itself: "durbin-conover" or "skillings-mack-pairwise" on an incomplete
        design; "" otherwise.
    adjust : str or None
        The p-value adjustment of ``posthoc_test`` (None when ``test`` names the procedure).
    """

    mean_ranks: pd.Series
    friedman: OmnibusResult
    posthoc: PosthocResult | None
    critical_difference: float | None
    groups: list
    excluded: dict
    n_datasets: int
    n_methods: int
    alpha: float
    test: str
    control: str | None
    missing: str = "complete"
    design: str = "complete"
    datasets_per_method: pd.Series | None = None
    excluded_datasets: dict = field(default_factory=dict)
    note: str = ""
    posthoc_test: str = ""
    adjust: str | None = None

    @property
    def posthoc_label(self) -> str:
        """The post-hoc's printed name, from the registry: "Nemenyi", "pairwise Skillings–Mack (Holm)"."""
        if self.posthoc_test:
            return display_name(self.posthoc_test) + (f" ({display_name(self.adjust)})" if self.adjust else "")
        return display_name(self.test)

    @property
    def procedure(self) -> str:
        """The procedure in words, from the registry's display names: "Friedman, then Nemenyi",
        "Skillings–Mack, then pairwise Skillings–Mack (Holm)", "… against control X"."""
        against = f" against control {self.control}" if self.control else ""
        return f"{display_name(self.friedman.test)}, then {self.posthoc_label}{against}"

    def _separated_counts(self) -> pd.Series:
        methods = list(self.mean_ranks.index)
        counts = pd.Series(0, index=pd.Index(methods, name="method"), name="n_separated")
        if self.posthoc is None:
            return counts
        sig = self.posthoc.significant
        if self.control is None:
            return counts + sig.sum(axis=1).reindex(methods).astype(int)
        counts.loc[self.control] = int(sig.sum())
        counts.loc[list(sig.index)] = sig.astype(int).to_numpy()
        return counts

    def pair_decisions(self) -> pd.DataFrame:
        """The pairs and what the post-hoc decided (the pair-decisions protocol of
        :func:`mcda._core.results.pair_decisions_table`), with the omnibus in ``attrs["omnibus"]``; without a
        post-hoc every pair is undecided (``attrs["tested"]`` False) and the note says why."""
        if self.posthoc is not None:
            table = self.posthoc.pair_decisions(test=self.test, mean_ranks=self.mean_ranks)
            table.attrs["omnibus"] = self.friedman
            return table
        methods = list(self.mean_ranks.index)
        a, b = np.triu_indices(len(methods), 1)
        ranks = self.mean_ranks.to_numpy(dtype=float)
        pairs = pd.DataFrame({"method_a": [methods[i] for i in a], "method_b": [methods[j] for j in b],
                              "rank_a": ranks[a], "rank_b": ranks[b], "significant": np.zeros(a.size, dtype=bool),
                              "p_adjusted": np.full(a.size, np.nan)})
        verdict = "rejects, but no post-hoc applies to this design" if self.friedman.rejected else "does not reject"
        table = pair_decisions_table(pairs, ranks[a] < ranks[b], test=self.test, alpha=self.alpha, methods=methods,
                                     control=self.control, note=f"the omnibus test {verdict}: no pair was tested")
        table.attrs["tested"] = False
        table.attrs["omnibus"] = self.friedman
        return table

    def letters(self) -> dict:
        """Method -> the letters of a results table (methods sharing a letter are not separated).

        All pairs: :func:`mcda.compact_letters`. Against a control only its pairs were tested: one
        group holds the control and the methods it is not separated from (letter ``a``), every
        method separated from it gets a letter of its own.
        """
        from mcda.stats.across.letters import compact_letters, control_letters

        if self.control is None:
            return compact_letters(self).letters.to_dict()
        return control_letters(list(self.groups), list(self.mean_ranks.sort_values(kind="stable").index))

    def to_frame(self) -> pd.DataFrame:
        """One row per method: ``method, mean_rank, n_separated, excluded``.

        ``n_separated`` counts the comparisons in which the method was separated (0 without a
        post-hoc); methods excluded as incomplete come last, with NaN mean rank.
        """
        frame = self.mean_ranks.rename("mean_rank").rename_axis("method").reset_index()
        frame["n_separated"] = self._separated_counts().to_numpy()
        frame["excluded"] = False
        if self.excluded:
            extra = pd.DataFrame({"method": list(self.excluded), "mean_rank": np.nan, "n_separated": 0,
                                  "excluded": True})
            frame = pd.concat([frame, extra], ignore_index=True)
        return frame

    def summary(self) -> str:
        """A block in the words of a methods section (see the user guide, "Across datasets")."""
        f = self.friedman
        order = self.mean_ranks.sort_values(kind="stable")
        best, best_rank = str(order.index[0]), float(order.iloc[0])
        # every method sharing the lowest mean rank is named: picking one of a tie would be arbitrary
        tied = [str(m) for m, r in order.items() if r - best_rank <= TIE_TOLERANCE]
        at = f"{', '.join(tied)} (tied at rank {best_rank:.2f})" if len(tied) > 1 else f"{best} (rank {best_rank:.2f})"
        lines = [f"{self.n_methods} methods over {self.n_datasets} datasets"
                 + (f" ({self.design} design tested as it is)" if self.design != "complete" else "")]
        if hasattr(f, "_statistics_text"):
            statistics = f._statistics_text()
        else:  # the incomplete-design tests: Durbin (without its pairs, the post-hoc below lists them) or Skillings-Mack
            statistics = f.summary(pairs=False) if hasattr(f, "pairwise") else f.summary()
        lines += ["  " + line for line in statistics.split("\n")]
        if self.posthoc is None and f.rejected:
            lines.append(f"  omnibus rejects at alpha = {self.alpha:g}; {self.note}")
            lines.append(f"  lowest mean rank: {at}, descriptive only")
        elif self.posthoc is None:
            lines.append(f"  omnibus does not reject at alpha = {self.alpha:g}: no difference may be claimed")
            lines.append(f"  lowest mean rank: {at}, descriptive only")
        else:
            spread = float(order.iloc[-1] - order.iloc[0])
            what = (f"{self.test} CD = {self.critical_difference:.3f} over a rank range of {spread:.2f}"
                    if self.critical_difference is not None else
                    f"{self.posthoc_label if self.posthoc_test else self.test}"
                    f"{' against control ' + self.control if self.control else ' over all pairs'}")
            lines.append(f"  omnibus rejects at alpha = {self.alpha:g}; {what}")
            lines.append(f"  best: {at}")
            sig = self.posthoc.significant
            if self.control is None:
                separated = [m for m in order.index if bool(sig.at[best, m])]
                lines.append(f"  separated from best: {len(separated)}/{self.n_methods - 1} -> {_listed(separated)}")
                n_pairs = self.n_methods * (self.n_methods - 1) // 2
                lines.append(f"  separated pairs: {int(sig.to_numpy().sum()) // 2}/{n_pairs}")
            else:
                separated = [m for m in order.index if m in sig.index and bool(sig[m])]
                # "separated" alone hides the direction: say how many rank better or worse than the control
                better = sum(self.mean_ranks[m] < self.mean_ranks[self.control] for m in separated)
                lines.append(f"  separated from control {self.control}: {len(separated)}/{self.n_methods - 1} -> "
                             f"{_listed(separated)} ({better} ranked better, {len(separated) - better} worse)")
        for method, lacks in self.excluded.items():
            lines.append(f"  excluded (incomplete): {method} lacks {_listed(lacks)}")
        if self.excluded_datasets:
            lines.append(f"  excluded datasets (missing='datasets'): {len(self.excluded_datasets)} -> "
                         f"{_listed(self.excluded_datasets)}")
        if self.note and self.posthoc is not None:
            lines.append(f"  note: {self.note}")
        return "\n".join(lines)


def _groups(mean_ranks: pd.Series, posthoc: PosthocResult | None) -> list[tuple[str, ...]]:
    methods = list(mean_ranks.index)
    position = {m: i for i, m in enumerate(mean_ranks.sort_values(kind="stable").index)}
    by_rank = lambda names: tuple(sorted(names, key=position.__getitem__))  # noqa: E731
    if posthoc is None:
        return [by_rank(methods)]
    if posthoc.control is not None:
        kept = [posthoc.control] + [m for m in posthoc.significant.index if not posthoc.significant[m]]
        return [by_rank(kept)]
    return groups_from_decisions(mean_ranks, posthoc.significant.to_numpy(dtype=bool))


@states_scale
def compare_over_datasets(scores, direction=None, *, test: str = "nemenyi", control: str | None = None,
                          alpha: float = 0.05, exact: bool = False, method_names=None,
                          missing: str = "methods") -> ComparisonResult:
    """Does a method win in general? Ranks, the Friedman omnibus, and a post-hoc only if it rejects.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube`, or a uniform, complete MeanRanks
        One score per (dataset, method). Methods with a missing cell are excluded and named
        (``excluded``), never imputed; reduce a ``seed`` dim first (:func:`mcda.reduce_seeds`).
    direction : {"higher_is_better", "lower_is_better"}, optional
        As in :func:`mcda.data.cube.as_cube`.
    test : {"nemenyi", "bonferroni-dunn", "holm", "hochberg", "hommel", "holland", "finner", "li", "rom", "shaffer", "bergmann-hommel"}
        Without ``control``: "nemenyi", "holm", "shaffer", "bergmann-hommel", "holland" or
        "finner" over all pairs. With ``control``: "bonferroni-dunn", "holm", "hochberg",
        "hommel", "holland", "finner", "li" or "rom" against it.
    control : str, optional
        A method chosen before looking at the results.
    alpha : float
        Level of the omnibus and of the post-hoc family.
    exact : bool
        Exact p-values of the rank-sum differences in the post-hoc (Eisinga et al. 2017; see
        :func:`nemenyi`); Nemenyi and Bonferroni–Dunn become Bonferroni on them, with the
        exact critical difference.
    method_names : sequence of str, optional
        As in :func:`mcda.data.cube.as_cube`.
    missing : {"methods", "datasets", "available"}
        What a missing cell does; nothing is ever imputed. "methods" (default; also spelt
        "complete"): drop every method lacking a dataset (named in ``excluded``).
        "datasets": drop every dataset lacking a method (``excluded_datasets``).
        "available": test the incomplete design as it is — Durbin's test with Conover's
        post-hoc when the design is balanced incomplete, the Skillings–Mack test with the
        pairwise Skillings–Mack comparisons (:func:`mcda.skillings_mack_posthoc`) otherwise;
        ``test`` chooses the post-hoc's adjustment (its own for every test, Holm for "nemenyi"),
        all pairs or against ``control`` (see :mod:`mcda.stats.across.incomplete`). ``design``,
        ``datasets_per_method``, ``posthoc_test`` and ``adjust`` say what was tested.

    Returns
    -------
    ComparisonResult
        ``mean_ranks``, ``friedman``, ``posthoc`` (None when the omnibus does not reject),
        ``critical_difference``, ``groups``, ``excluded``, ``n_datasets``, ``n_methods``,
        ``alpha``, ``test``, ``control``; ``summary()`` and ``to_frame()``.

    Raises
    ------
    ValueError
        A test that does not fit ``control`` (e.g. "bonferroni-dunn" without one, "nemenyi"
        with one), an unknown or excluded ``control``, a weighted MeanRanks, a ``seed`` dim.

    Examples
    --------
    >>> import mcda
    >>> res = mcda.compare_over_datasets(mcda.datasets.load("garcia_herrera2008"))
    >>> print(res.summary())  # doctest: +NORMALIZE_WHITESPACE
    5 methods over 30 datasets
      Friedman chi2(4) = 39.647, p = 5.12e-08 (untied, as Demsar 2006 defines it and the post-hoc standard
      error assumes; with the ties here the tie-corrected chi2 of scipy/R is 39.913, p = 4.51e-08)
      Iman-Davenport F(4, 116) = 14.309, p = 1.59e-09
      omnibus rejects at alpha = 0.05; nemenyi CD = 1.114 over a rank range of 2.23
      best: C4.5 (rank 2.10)
      separated from best: 2/4 -> [k-NN(k=1), Kernel]
      separated pairs: 4/10
    >>> res.groups
    [('C4.5', 'NaiveBayes', 'CN2'), ('NaiveBayes', 'CN2', 'k-NN(k=1)'), ('k-NN(k=1)', 'Kernel')]
    """
    alpha = check_alpha(alpha)
    _check_exact(exact)
    test = canonical("test", test, allowed=_COMPARISON_TESTS)
    if control is None and test not in _ALL_PAIRS_TESTS:
        raise McdaArgumentError(f"`test` {test!r} compares methods with a control; pass `control=` (a method chosen "
                         f"beforehand), or use an all-pairs test {{{', '.join(map(repr, _ALL_PAIRS_TESTS))}}}.",
                                argument="test", value=test)
    if control is not None and test not in _CONTROL_TESTS:
        raise McdaArgumentError(f"`test` {test!r} compares all pairs and takes no `control`; against a control use one of "
                         f"{{{', '.join(map(repr, _CONTROL_TESTS))}}}; got control={control!r}.",
                                argument="test", value=test)
    policy = missing_policy(missing)
    if policy == "available" and not isinstance(scores, MeanRanks):
        incomplete = _compare_incomplete(scores, direction, test=test, control=control, alpha=alpha,
                                         method_names=method_names)
        if incomplete is not None:
            return incomplete
        policy = "complete"  # every cell present: the incomplete design is the complete one
    stats = _rank_statistics(scores, direction, method_names, what="the comparison over datasets", missing=policy,
                             ways_out="missing")
    if control is not None:
        control = check_control(control, stats.methods, stats.excluded)
    if test == "bergmann-hommel":
        check_bergmann_hommel(stats.n_methods, argument="test")
    friedman = _friedman(stats, alpha)
    posthoc = _posthoc(stats, test, control, alpha, exact=bool(exact)) if friedman.rejected else None
    per_method = pd.Series(stats.n_datasets, index=pd.Index(stats.methods, name="method"), name="n_datasets")
    return ComparisonResult(mean_ranks=friedman.mean_ranks, friedman=friedman, posthoc=posthoc,
                            critical_difference=posthoc.critical_difference if posthoc is not None else None,
                            groups=_groups(friedman.mean_ranks, posthoc), excluded=stats.excluded,
                            n_datasets=stats.n_datasets, n_methods=stats.n_methods, alpha=alpha, test=test,
                            control=control, missing="available" if missing_policy(missing) == "available" else policy,
                            design="complete", datasets_per_method=per_method,
                            excluded_datasets=stats.excluded_datasets)


def _compare_incomplete(scores, direction, *, test, control, alpha, method_names):
    """compare_over_datasets(missing="available") on an incomplete design (None when no cell is missing)."""
    from mcda.stats.across.incomplete import (_design_of, durbin_test, prepared_incomplete, skillings_mack_posthoc,
                                              skillings_mack_test)

    values, present, methods, datasets, _ = prepared_incomplete(scores, direction, method_names, "the comparison over datasets")
    if present.all():
        return None
    design = _design_of(present, methods, datasets)
    if control is not None:
        check_control(control, methods)
    # every registered post-hoc's own adjustment; Nemenyi's studentized range needs a complete design: Holm
    adjust = PROCEDURES[test].adjustment or "holm"
    nemenyi = " (Nemenyi's studentized range needs a complete design)" if test == "nemenyi" else ""
    if design.kind == "unbalanced incomplete":
        omnibus = skillings_mack_test(scores, direction, alpha=alpha, method_names=method_names)
        posthoc = (skillings_mack_posthoc(scores, direction, control=control, adjust=adjust, alpha=alpha,
                                          method_names=method_names) if omnibus.rejected else None)
        name = "skillings-mack-pairwise"
        note = (f"the {display_name(omnibus.test)} test on the unbalanced incomplete design; post-hoc: "
                f"{display_name(name)} z "
                f"on the method effects estimated from the shared datasets, {display_name(adjust)}-adjusted{nemenyi}")
        return ComparisonResult(mean_ranks=omnibus.mean_ranks, friedman=omnibus, posthoc=posthoc,
                                critical_difference=None, groups=_groups(omnibus.mean_ranks, posthoc), excluded={},
                                n_datasets=omnibus.n_datasets, n_methods=omnibus.n_methods, alpha=alpha,
                                test=f"{name} ({adjust})", control=control, missing="available", design=design.kind,
                                datasets_per_method=design.n_datasets_per_method, note=note, posthoc_test=name,
                                adjust=adjust)
    omnibus = durbin_test(scores, direction, alpha=alpha, adjust=None, method_names=method_names)
    note = ("Durbin's test on the balanced incomplete design; post-hoc: Conover's t on rank sums, "
            f"{display_name(adjust)}-adjusted{nemenyi}")
    posthoc = _durbin_posthoc(omnibus, adjust, control, alpha) if omnibus.rejected else None
    return ComparisonResult(mean_ranks=omnibus.mean_ranks, friedman=omnibus, posthoc=posthoc, critical_difference=None,
                            groups=_groups(omnibus.mean_ranks, posthoc), excluded={}, n_datasets=omnibus.n_datasets,
                            n_methods=omnibus.n_methods, alpha=alpha, test=f"durbin-conover ({adjust})",
                            control=control, missing="available", design=design.kind,
                            datasets_per_method=design.n_datasets_per_method, note=note, posthoc_test="durbin-conover",
                            adjust=adjust)


def _durbin_posthoc(omnibus, adjust: str, control, alpha: float) -> PosthocResult:
    """Conover's pairwise t on Durbin rank sums as a PosthocResult (``z`` holds the t statistics: ``kind`` "t")."""
    methods = list(omnibus.mean_ranks.index)
    k = len(methods)
    frame = omnibus.pairwise
    b, kk, r = omnibus.n_datasets, omnibus.methods_per_dataset, omnibus.datasets_per_method
    t_stat = np.zeros((k, k))
    p_raw = np.full((k, k), np.nan)
    for row in frame.itertuples(index=False):
        i, j = methods.index(row.method_a), methods.index(row.method_b)
        signed = row.statistic * np.sign(row.rank_sum_diff)
        t_stat[i, j], t_stat[j, i] = signed, -signed
        p_raw[i, j] = p_raw[j, i] = row.p_raw
    del b, kk, r
    index = pd.Index(methods, name="method")
    if control is not None:
        c = methods.index(control)
        others = [j for j in range(k) if j != c]
        raw = p_raw[c, others]
        adjusted = adjust_finite(raw, adjust, alpha=alpha)
        oi = pd.Index([methods[j] for j in others], name="method")
        return PosthocResult(test=f"durbin-conover ({adjust})", control=control, alpha=alpha,
                             mean_ranks=omnibus.mean_ranks, z=pd.Series(t_stat[c, others], index=oi, name="z"),
                             pvalues=pd.Series(raw, index=oi, name="p_raw"),
                             pvalues_adjusted=pd.Series(adjusted, index=oi, name="p_adjusted"),
                             significant=pd.Series(adjusted <= alpha, index=oi, name="significant"),
                             critical_difference=None, n_datasets=omnibus.n_datasets, n_methods=k,
                             standard_error=math.nan, distribution="t", df=omnibus.f_df[1], adjust=adjust)
    a, bb = np.triu_indices(k, 1)
    adjusted_pairs = adjust_finite(p_raw[a, bb], adjust, k, alpha=alpha)
    columns = index.rename("versus")
    frame_of = lambda values: pd.DataFrame(values, index=index, columns=columns)  # noqa: E731
    return PosthocResult(test=f"durbin-conover ({adjust})", control=None, alpha=alpha, mean_ranks=omnibus.mean_ranks,
                         z=frame_of(t_stat), pvalues=frame_of(p_raw),
                         pvalues_adjusted=pair_matrix(adjusted_pairs, methods, np.nan),
                         significant=pair_matrix(adjusted_pairs <= alpha, methods, False), critical_difference=None,
                         n_datasets=omnibus.n_datasets, n_methods=k, standard_error=math.nan,
                         distribution="t", df=omnibus.f_df[1], adjust=adjust)
