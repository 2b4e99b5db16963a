"""Contract cases for mcda.stats.within.seeds: intervals, paired tests, equivalence and power over seeds."""

from __future__ import annotations

import mcda
from tests.contract.harness import Case

_SEEDS = 8  # rounded synthetic scores with 8 seeds: ties and zero differences do happen


def _summary(ci_method):
    def call(cube, **kwargs):
        # the resampling arguments only with the bootstrap (with t they are refused, not ignored)
        drawing = {"n_resamples": 999, "rng": 5} if ci_method == "bootstrap" else {}
        options = {"ci_method": ci_method} | drawing | kwargs
        return mcda.summary(cube, **options)
    return call


def _paired(method):
    def call(cube, **kwargs):
        return mcda.paired_tests(cube, **({"method": method} | kwargs))
    return call


def _equivalence(cube, **kwargs):
    return mcda.equivalence(cube, **kwargs)


def _power(cube, **kwargs):
    return mcda.power(cube, **kwargs)


def _design(cube, **kwargs):
    return mcda.design_adequacy(cube.sizes["method"], cube.sizes["dataset"], **kwargs)


# Five methods: the harness's method permutation then reverses some pairs but not all (with four it
# reverses every pair, and the harness's column swap reads the columns it is overwriting).
_PAIR = dict(method_columns=("method_a", "method_b"), pair_columns=("method_a", "method_b"), seeds=_SEEDS,
             ignore_columns=("reason",), n_methods=5)

CASES = [
    Case(name=f"within.summary[{how}]", call=_summary(how), seeds=_SEEDS, missing=0.05,
         fields=("table", "ci_method", "confidence_level", "n_resamples", "metric", "direction", "notes"),
         flip_columns=("mean", "ci_low", "ci_high"), flip_swap={"ci_low": "ci_high"},
         bad_inputs=[({"ci_method": "bca"}, ValueError, "`ci_method` must be one of"),
                     ({"confidence_level": 1.5}, ValueError, "`confidence_level` must lie in"),
                     *([({"n_resamples": 0}, ValueError, "`n_resamples` must be an integer"),
                        ({"rng": "seven"}, TypeError, "`rng` must be")] if how == "bootstrap" else
                       [({"n_resamples": 999}, ValueError, "`n_resamples` is used only with"),
                        ({"rng": 5}, ValueError, "`rng` is used only with")])])
    for how in ("t", "bootstrap")
] + [
    Case(name="within.paired_tests[t]", call=_paired("t"), missing=0.05,
         fields=("table", "method", "alpha", "direction", "metric"),
         swap_columns={"ci_low": "ci_high"}, negate_columns=("mean_diff", "ci_low", "ci_high", "statistic"),
         flip_columns=("mean_diff", "ci_low", "ci_high", "statistic"), flip_swap={"ci_low": "ci_high"},
         pvalue_columns=("p_raw", "p_holm"),
         bad_inputs=[({"method": "ttest"}, ValueError, "`method` must be one of"),
                     ({"alpha": 0.0}, ValueError, "`alpha` must lie in")], **_PAIR),
    Case(name="within.paired_tests[wilcoxon]", call=_paired("wilcoxon"), missing=0.05,
         fields=("table", "method", "alpha", "direction", "metric"),
         swap_columns={"ci_low": "ci_high", "r_plus": "r_minus"}, negate_columns=("mean_diff", "ci_low", "ci_high"),
         flip_columns=("mean_diff", "ci_low", "ci_high"), flip_swap={"ci_low": "ci_high", "r_plus": "r_minus"},
         pvalue_columns=("p_raw", "p_holm"),
         bad_inputs=[({"zero_method": "drop"}, ValueError, "`zero_method` must be one of")], **_PAIR),
    Case(name="within.equivalence", call=_equivalence,
         fields=("table", "margin", "alpha", "direction", "metric"),
         swap_columns={"ci_low": "ci_high", "p_lower": "p_upper"}, negate_columns=("mean_diff", "ci_low", "ci_high"),
         flip_columns=("mean_diff", "ci_low", "ci_high"), flip_swap={"ci_low": "ci_high", "p_lower": "p_upper"},
         pvalue_columns=("p_lower", "p_upper", "p_tost"),
         bad_inputs=[({"margin": 0.0}, ValueError, "`margin` must be a finite number > 0"),
                     ({"margin": "small"}, TypeError, "`margin` must be a positive number"),
                     ({"alpha": 2}, ValueError, "`alpha` must lie in")], **_PAIR),
    Case(name="within.power", call=_power,
         fields=("table", "alpha", "target_power", "direction", "metric"),
         negate_columns=("mean_diff", "effect_size"), flip_columns=("mean_diff", "effect_size"),
         pvalue_columns=("observed_power",),
         bad_inputs=[({"target_power": 0.01}, ValueError, "`target_power` must exceed `alpha`"),
                     ({"target_power": 1.0}, ValueError, "`target_power` must lie in")], **_PAIR),
    Case(name="design_adequacy", call=_design, method_columns=(),
         fields=("critical_difference", "min_pvalue", "strictest_threshold", "verdict", "sentence"),
         pvalue_columns=("min_pvalue", "strictest_threshold"),
         bad_inputs=[({"alpha": -0.1}, ValueError, "`alpha` must lie in")]),
]


def _replicability(cube, **kwargs):
    return mcda.replicability(cube, **kwargs)


def _meta_analysis(cube, **kwargs):
    return mcda.meta_analysis(cube, **kwargs)


CASES += [
    # claims are ordered ("method_a beats method_b"): both orders are rows, so they are keyed, never reoriented
    Case(name="replicability", call=_replicability, seeds=_SEEDS, n_methods=5, method_columns=("method_a", "method_b"),
         fields=("table", "conjunction", "per_dataset", "method", "test", "adjust", "alpha", "n_comparisons"),
         bad_inputs=[({"method": "simes"}, ValueError, "`method` must be one of"),
                     ({"adjust": "fdr-bh"}, ValueError, "`adjust` must be one of"),
                     ({"alpha": 0.0}, ValueError, "`alpha` must lie in")]),
    Case(name="meta_analysis", call=_meta_analysis, seeds=_SEEDS, n_methods=5,
         method_columns=("method_a", "method_b"), pair_columns=("method_a", "method_b"), ignore_columns=("reason",),
         fields=("table", "per_dataset", "method", "confidence_level", "direction", "metric"),
         swap_columns={"ci_low": "ci_high", "prediction_low": "prediction_high"},
         negate_columns=("mean_diff", "ci_low", "ci_high", "prediction_low", "prediction_high", "fixed_diff",
                         "z_stouffer"),
         flip_columns=("mean_diff", "ci_low", "ci_high", "prediction_low", "prediction_high", "fixed_diff",
                       "z_stouffer"),
         flip_swap={"ci_low": "ci_high", "prediction_low": "prediction_high"},
         pvalue_columns=("p_raw", "p_heterogeneity", "p_stouffer", "p_fisher"), rtol=1e-7,
         bad_inputs=[({"method": "hunter-schmidt"}, ValueError, "`method` must be one of"),
                     ({"confidence_level": 1.5}, ValueError, "`confidence_level` must lie in")]),
]
