"""Contract cases for the across-dataset procedure (Friedman, critical differences, post-hoc tests).

The control of the control tests is chosen from the cube itself (the method with the largest
true effect of the synthetic benchmark), so relabelling and reordering carry it along.
Functions that take numbers rather than a cube (q_alpha, critical_difference,
iman_davenport, attainable_significance, adjust_pvalues) read k and N (or the raw p-values)
from the cube and are wrapped to give a one-row or per-pair frame.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

import mcda
from tests.contract.harness import Case, Framed

PAIRS = {"pair_columns": ("method_a", "method_b"), "method_columns": ("method_a", "method_b"),
         "swap_columns": {"mean_rank_a": "mean_rank_b"}, "negate_columns": ("rank_diff", "z"),
         "pvalue_columns": ("p_raw", "p_adjusted")}
POSTHOC_FIELDS = ("test", "control", "alpha", "mean_ranks", "z", "pvalues", "pvalues_adjusted", "significant",
                  "critical_difference", "n_datasets", "n_methods", "standard_error")
FRIEDMAN_FIELDS = ("statistic", "statistic_untied", "statistic_tied", "pvalue", "df", "f_statistic", "f_pvalue",
                   "f_df", "rejected", "alpha", "n_datasets", "n_methods", "mean_ranks", "excluded")
COMPARISON_FIELDS = ("mean_ranks", "friedman", "posthoc", "critical_difference", "groups", "excluded", "n_datasets",
                     "n_methods", "alpha", "test", "control")


def _control(cube) -> str:
    """The method with the largest true effect: a label that travels with relabelling and reordering."""
    effects = cube.coords["true_effect"].values
    return str(cube.coords["method"].values[int(np.argmax(effects))])


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mcda.MissingDataWarning)  # incomplete methods are named in the result
        return function(*args, **kwargs)


def _friedman_frame(r) -> pd.DataFrame:
    """FriedmanResult with a frame per method (mean rank beside the statistics it leads to)."""
    frame = r.mean_ranks.rename("mean_rank").rename_axis("method").reset_index()
    for name in ("statistic", "statistic_tied", "pvalue", "f_statistic", "f_pvalue"):
        frame[name] = getattr(r, name)
    return frame


def _groups_frame(r) -> pd.DataFrame:
    """ComparisonResult whose frame is its groups: one row per (member, group), the group told by the
    lowest and highest mean rank in it and its size (labels that survive relabelling)."""
    ranks = r.mean_ranks
    rows = [(m, ranks[g[0]], ranks[g[-1]], len(g)) for g in r.groups for m in g]
    frame = pd.DataFrame(rows, columns=["method", "group_low", "group_high", "group_size"])
    return frame.sort_values(["group_low", "group_high", "method"]).reset_index(drop=True)


@dataclass(frozen=True)
class _Number:
    """A function of (k, N) wrapped as a one-row frame."""

    value: float
    n_methods: int
    n_datasets: int

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame({"n_methods": [self.n_methods], "n_datasets": [self.n_datasets], "value": [self.value]})


@dataclass(frozen=True)
class _Adjusted:
    """adjust_pvalues on the raw all-pairs p-values of the cube, one row per pair."""

    pairs: pd.DataFrame

    def to_frame(self) -> pd.DataFrame:
        return self.pairs


def _friedman(cube, **kwargs):
    return Framed(_quiet(mcda.friedman_test, cube, **kwargs), _friedman_frame)


def _posthoc(function, **fixed):
    def call(cube, **kwargs):
        extra = {"control": _control(cube)} if function in (mcda.bonferroni_dunn, mcda.control_test) else {}
        return _quiet(function, cube, **(extra | fixed | kwargs))
    return call


def _compare(cube, **kwargs):
    return _quiet(mcda.compare_over_datasets, cube, **kwargs)


def _compare_control(cube, **kwargs):
    return _quiet(mcda.compare_over_datasets, cube, **({"test": "holm", "control": _control(cube)} | kwargs))


def _groups(cube, **kwargs):
    return Framed(_quiet(mcda.compare_over_datasets, cube, **({"test": "shaffer"} | kwargs)), _groups_frame)


def _sizes(cube):
    return int(cube.sizes["method"]), int(cube.sizes["dataset"])


def _q_alpha(cube, **kwargs):
    k, n = _sizes(cube)
    return _Number(mcda.q_alpha(k, **kwargs), k, n)


def _critical_difference(cube, **kwargs):
    k, n = _sizes(cube)
    return _Number(mcda.critical_difference(k, n, **kwargs), k, n)


def _iman_davenport(cube, **kwargs):
    k, n = _sizes(cube)
    chi2 = mcda.friedman_test(cube).statistic
    return _Number(mcda.iman_davenport(kwargs.pop("chi2", chi2), k, n, **kwargs), k, n)


def _attainable(cube, **kwargs):
    k, n = _sizes(cube)
    return mcda.attainable_significance(n, k, **kwargs)


def _adjust(cube, **kwargs):
    frame = mcda.all_pairs_test(cube, test="holm").to_frame()[["method_a", "method_b", "p_raw"]]
    frame["p_adjusted"] = mcda.adjust_pvalues(frame["p_raw"].to_numpy(), **({"method": "shaffer"} | kwargs))
    return _Adjusted(frame)


CASES = [
    Case(name="friedman_test", call=_friedman, fields=FRIEDMAN_FIELDS, pvalue_columns=("pvalue", "f_pvalue"),
         bad_inputs=[({"alpha": 1.5}, ValueError, "`alpha` must lie in"),
                     ({"direction": "up"}, ValueError, "`direction` must be one of")]),
    Case(name="nemenyi", call=_posthoc(mcda.nemenyi), fields=POSTHOC_FIELDS, n_methods=5, **PAIRS,
         bad_inputs=[({"alpha": 0.0}, ValueError, "`alpha` must lie in")]),
    Case(name="bonferroni_dunn", call=_posthoc(mcda.bonferroni_dunn), fields=POSTHOC_FIELDS, **PAIRS,
         bad_inputs=[({"control": "nobody"}, ValueError, "`control` must be one of the methods compared")]),
] + [
    Case(name=f"control_test[{test}]", call=_posthoc(mcda.control_test, test=test), fields=POSTHOC_FIELDS, **PAIRS,
         bad_inputs=[({"test": "shaffer"}, ValueError, "`test` must be one of"),
                     ({"control": 1}, TypeError, "`control` must be the name of a method")])
    for test in ("holm", "hochberg", "hommel", "bonferroni-dunn")
] + [
    Case(name=f"all_pairs_test[{test}]", call=_posthoc(mcda.all_pairs_test, test=test), fields=POSTHOC_FIELDS,
         n_methods=5, **PAIRS, bad_inputs=[({"test": "tukey"}, ValueError, "`test` must be one of")])
    for test in ("nemenyi", "holm", "shaffer", "bergmann-hommel")
] + [
    Case(name="compare_over_datasets", call=_compare, fields=COMPARISON_FIELDS, n_methods=6,
         bad_inputs=[({"test": "bonferroni-dunn"}, ValueError, "pass `control=`"),
                     ({"control": "nobody", "test": "holm"}, ValueError, "`control` must be one of")]),
    Case(name="compare_over_datasets[missing]", call=_compare, fields=COMPARISON_FIELDS, n_methods=6,
         n_datasets=20, missing=0.03),  # excludes 2 of the 6 methods
    Case(name="compare_over_datasets[control]", call=_compare_control, fields=COMPARISON_FIELDS,
         bad_inputs=[({"test": "nemenyi"}, ValueError, "takes no `control`")]),
    Case(name="compare_over_datasets[groups]", call=_groups, fields=COMPARISON_FIELDS, n_methods=6,
         bad_inputs=[({"alpha": 2}, ValueError, "`alpha` must lie in")]),
    Case(name="q_alpha", call=_q_alpha, method_columns=(),
         bad_inputs=[({"test": "tukey"}, ValueError, "`test` must be one of")]),
    Case(name="critical_difference", call=_critical_difference, method_columns=(),
         bad_inputs=[({"alpha": -0.1}, ValueError, "`alpha` must lie in")]),
    Case(name="iman_davenport", call=_iman_davenport, method_columns=(),
         bad_inputs=[({"chi2": -1.0}, ValueError, "`chi2` must lie in")]),
    Case(name="attainable_significance", call=_attainable, method_columns=(),
         fields=("min_pvalue", "strictest_threshold", "attainable", "min_datasets"),
         bad_inputs=[({"adjust": "hochberg"}, ValueError, "`adjust` must be None or one of")]),
    Case(name="adjust_pvalues", call=_adjust, pair_columns=("method_a", "method_b"),
         method_columns=("method_a", "method_b"), pvalue_columns=("p_raw", "p_adjusted"),
         bad_inputs=[({"method": "holmes"}, ValueError, "`method` must be one of")]),
]
