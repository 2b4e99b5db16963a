"""Contract cases for the aligned-ranks and Quade tests, the Conover / Siegel / Miller post-hocs and effect sizes."""

from __future__ import annotations

import pandas as pd

import mcda
from tests.contract.cases_frequentist import POSTHOC_FIELDS, _control, _quiet
from tests.contract.harness import Case, Framed

OMNIBUS_FIELDS = ("test", "statistic", "pvalue", "df", "rejected", "alpha", "n_datasets", "n_methods", "mean_ranks",
                  "posthoc", "control", "adjust", "excluded", "reason")
EFFECT_FIELDS = ("table", "kind", "against", "scope", "confidence_level", "n_resamples", "thresholds",
                 "threshold_source", "excluded")


def _pairs(statistic: str) -> dict:
    return {"pair_columns": ("method_a", "method_b"), "method_columns": ("method_a", "method_b"),
            "swap_columns": {"mean_rank_a": "mean_rank_b"}, "negate_columns": ("rank_diff", statistic),
            "pvalue_columns": ("p_raw", "p_adjusted")}


def _omnibus_frame(r) -> pd.DataFrame:
    """OmnibusResult with its statistic and p-value beside each method's mean rank."""
    frame = r.to_frame()
    frame["statistic"] = r.statistic
    frame["pvalue"] = r.pvalue
    return frame


def _omnibus(function, with_control=False):
    def call(cube, **kwargs):
        extra = {"control": _control(cube)} if with_control else {}
        return Framed(_quiet(function, cube, **(extra | kwargs)), _omnibus_frame)
    return call


def _omnibus_posthoc(function, with_control=False):
    def call(cube, **kwargs):
        extra = {"control": _control(cube)} if with_control else {}
        result = _quiet(function, cube, **(extra | kwargs))
        assert result.posthoc is not None, "the synthetic benchmark's differences should make the omnibus reject"
        return result.posthoc
    return call


def _friedman_posthoc(function, **fixed):
    def call(cube, **kwargs):
        extra = {"control": _control(cube)} if function is mcda.control_test else {}
        return _quiet(function, cube, **(extra | fixed | kwargs))
    return call


def _effects(**fixed):
    def call(cube, **kwargs):
        return _quiet(mcda.effect_sizes, cube, **({"rng": 0, "n_resamples": 199} | fixed | kwargs))
    return call


EFFECT_PAIRS = {"pair_columns": ("method_a", "method_b"), "method_columns": ("method_a", "method_b"),
                "swap_columns": {"ci_low": "ci_high"}, "negate_columns": ("effect_size", "ci_low", "ci_high")}

CASES = [
    Case(name="quade_test", call=_omnibus(mcda.quade_test), fields=OMNIBUS_FIELDS, pvalue_columns=("pvalue",),
         bad_inputs=[({"alpha": 1.5}, ValueError, "`alpha` must lie in"),
                     ({"adjust": "holmes"}, ValueError, "`adjust`"),
                     ({"control": "nobody"}, ValueError, "`control` must be one of")]),
    Case(name="quade_test[posthoc]", call=_omnibus_posthoc(mcda.quade_test), fields=POSTHOC_FIELDS,
         n_datasets=20, **_pairs("t")),
    Case(name="quade_test[control]", call=_omnibus_posthoc(mcda.quade_test, True), fields=POSTHOC_FIELDS,
         n_datasets=20, **_pairs("t"), bad_inputs=[({"adjust": "shaffer"}, ValueError, "`adjust` 'shaffer'")]),
    Case(name="friedman_aligned_ranks_test", call=_omnibus(mcda.friedman_aligned_ranks_test), fields=OMNIBUS_FIELDS,
         pvalue_columns=("pvalue",), missing=0.02, n_methods=5,
         bad_inputs=[({"direction": "up"}, ValueError, "`direction` must be one of")]),
    Case(name="friedman_aligned_ranks_test[posthoc]", call=_omnibus_posthoc(mcda.friedman_aligned_ranks_test),
         fields=POSTHOC_FIELDS, n_datasets=20, **_pairs("z")),
    Case(name="friedman_aligned_ranks_test[control]",
         call=_omnibus_posthoc(mcda.friedman_aligned_ranks_test, True), fields=POSTHOC_FIELDS, n_datasets=20,
         **_pairs("z")),
    Case(name="all_pairs_test[conover]", call=_friedman_posthoc(mcda.all_pairs_test, test="conover"),
         fields=POSTHOC_FIELDS, n_methods=5, **_pairs("t"),
         bad_inputs=[({"adjust": "holmes"}, ValueError, "`adjust`")]),
    Case(name="all_pairs_test[conover,single-step]",
         call=_friedman_posthoc(mcda.all_pairs_test, test="conover", adjust="single-step"), fields=POSTHOC_FIELDS,
         n_methods=5, **_pairs("t")),
    Case(name="all_pairs_test[siegel]", call=_friedman_posthoc(mcda.all_pairs_test, test="siegel", adjust="hommel"),
         fields=POSTHOC_FIELDS, n_methods=5, **_pairs("z")),
    Case(name="all_pairs_test[miller]", call=_friedman_posthoc(mcda.all_pairs_test, test="miller"),
         fields=POSTHOC_FIELDS, n_methods=5, **_pairs("z")),
    Case(name="control_test[conover]", call=_friedman_posthoc(mcda.control_test, test="conover"),
         fields=POSTHOC_FIELDS, **_pairs("t"),
         bad_inputs=[({"adjust": "single-step"}, ValueError, "single-step")]),
    Case(name="effect_sizes", call=_effects(), fields=EFFECT_FIELDS, method_columns=("method_a", "method_b"),
         bad_inputs=[({"kind": "hedges"}, ValueError, "`kind` must be one of"),
                     ({"against": "nobody"}, ValueError, "`against` must be")]),
] + [
    Case(name=f"effect_sizes[{kind},all]", call=_effects(kind=kind, against="all"), fields=EFFECT_FIELDS,
         **EFFECT_PAIRS, bad_inputs=[({"confidence_level": 0}, ValueError, "`confidence_level`")])
    for kind in ("cohen_d", "cohen_d_pooled", "cliff_delta", "akinshin_gamma")
] + [
    Case(name="recommend_procedure", call=lambda cube, **kw: _quiet(mcda.recommend_procedure, cube, **kw),
         fields=("normality", "alpha_normality", "all_normal", "residuals_normal", "homoscedasticity_test",
                 "homoscedasticity_pvalue", "equal_variances", "anova", "recommendation", "procedure", "call",
                 "autorank_choice", "posthoc", "notes"), pvalue_columns=("p_raw",), n_datasets=15,
         bad_inputs=[({"alpha": 0}, ValueError, "`alpha` must lie in")]),
    Case(name="effect_sizes[seeds]", call=_effects(against="all", kind="cliff_delta"), fields=EFFECT_FIELDS,
         seeds=6, **EFFECT_PAIRS),
]
