"""Contract cases for the tests over cross-validation folds of mcda.paired_tests (family "seeds-cv")."""

from __future__ import annotations

import mcda
from tests.contract.harness import Case

_SEEDS = 8  # 8 fold scores: 2 runs of 4-fold, 4 runs of 2-fold, or 8 random splits

# Five methods: the harness's method permutation then reverses some pairs but not all.
_PAIR = dict(method_columns=("method_a", "method_b"), pair_columns=("method_a", "method_b"), seeds=_SEEDS,
             ignore_columns=("reason",), n_methods=5, missing=0.05, pvalue_columns=("p_raw", "p_holm"),
             fields=("table", "method", "alpha", "direction", "metric", "runs", "rho"))


def _over_folds(method, **design):
    def call(cube, **kwargs):
        return mcda.paired_tests(cube, **({"method": method} | design | kwargs))
    return call


_T_COLUMNS = dict(swap_columns={"ci_low": "ci_high"}, negate_columns=("mean_diff", "ci_low", "ci_high", "statistic"),
                  flip_columns=("mean_diff", "ci_low", "ci_high", "statistic"), flip_swap={"ci_low": "ci_high"})

CASES = [
    Case(name="within.paired_tests[corrected-resampled-t]", call=_over_folds("corrected-resampled-t", rho=0.2),
         bad_inputs=[({"runs": 2, "rho": 0.2}, ValueError, "give either `runs` or `rho`"),
                     ({"rho": 1.0}, ValueError, "`rho` must lie in"),
                     ({"paired": False}, ValueError, "`paired` is False")], **_T_COLUMNS, **_PAIR),
    Case(name="within.paired_tests[corrected-repeated-cv-t]", call=_over_folds("corrected-repeated-cv-t", runs=2),
         bad_inputs=[({"runs": 3}, ValueError, "`runs` must divide"),
                     ({"runs": None}, ValueError, "needs the design of the folds")], **_T_COLUMNS, **_PAIR),
    Case(name="within.paired_tests[5x2cv-t]", call=_over_folds("5x2cv-t", runs=4),
         bad_inputs=[({"runs": 2}, ValueError, "needs runs of 2-fold cross-validation")], **_T_COLUMNS, **_PAIR),
    Case(name="within.paired_tests[5x2cv-f]", call=_over_folds("5x2cv-f", runs=4),
         swap_columns={"ci_low": "ci_high"}, negate_columns=("mean_diff", "ci_low", "ci_high"),
         flip_columns=("mean_diff", "ci_low", "ci_high"), flip_swap={"ci_low": "ci_high"},
         bad_inputs=[({"runs": 5}, ValueError, "`runs` must divide"),
                     ({"method": "5x2cv-g"}, ValueError, "`method` must be one of")], **_PAIR),
]
