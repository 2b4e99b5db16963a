"""Contract cases for the pool-independent pairwise tests over datasets (pairwise_over_datasets).

The control is the method with the largest true effect of the synthetic benchmark, so that
relabelling and reordering carry it along (as in cases_frequentist).
"""

from __future__ import annotations

import warnings

import numpy as np

import mcda
from tests.contract.harness import Case

PAIRS = {"pair_columns": ("method_a", "method_b"), "method_columns": ("method_a", "method_b"),
         "swap_columns": {"mean_rank_a": "mean_rank_b", "wins_a": "wins_b", "r_plus": "r_minus"},
         "negate_columns": ("mean_diff",), "flip_columns": ("mean_diff",),
         "pvalue_columns": ("p_raw", "p_adjusted")}
FIELDS = ("test", "adjust", "control", "alpha", "zero_method", "mean_ranks", "table", "groups", "n_datasets",
          "n_methods", "excluded", "pvalues", "pvalues_adjusted", "significant")
BAD = [({"test": "t"}, ValueError, "`test`"), ({"zero_method": "drop"}, ValueError, "`zero_method`"),
       ({"adjust": "shaffer"}, ValueError, "`adjust`"), ({"alpha": 2.0}, ValueError, "`alpha`")]


def _control(cube) -> str:
    effects = cube.coords["true_effect"].values
    return str(cube.coords["method"].values[int(np.argmax(effects))])


def _pairwise(cube, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mcda.MissingDataWarning)
        return mcda.pairwise_over_datasets(cube, **kwargs)


POSTHOC = {"pair_columns": ("method_a", "method_b"), "method_columns": ("method_a", "method_b"),
           "swap_columns": {"mean_rank_a": "mean_rank_b"}, "negate_columns": ("rank_diff", "z"),
           "pvalue_columns": ("p_raw", "p_adjusted")}
POSTHOC_FIELDS = ("test", "control", "alpha", "mean_ranks", "z", "pvalues", "pvalues_adjusted", "significant",
                  "critical_difference", "n_datasets", "n_methods", "standard_error", "exact")

CASES = [
    # the exact p-values of rank-sum differences (Eisinga et al. 2017) on the mean-rank post-hocs
    Case(name="nemenyi_exact", call=lambda cube, **kw: mcda.nemenyi(cube, **({"exact": True} | kw)), fields=POSTHOC_FIELDS,
         n_methods=5, **POSTHOC, bad_inputs=[({"exact": "yes"}, TypeError, "`exact`")]),
    Case(name="all_pairs_test_exact_shaffer", fields=POSTHOC_FIELDS, n_methods=5, **POSTHOC,
         call=lambda cube, **kw: mcda.all_pairs_test(cube, **({"test": "shaffer", "exact": True} | kw))),
    *[Case(name=f"control_test[{test}]", fields=POSTHOC_FIELDS, n_methods=5, **POSTHOC,
           call=(lambda t: lambda cube, **kw: mcda.control_test(cube, **({"control": _control(cube), "test": t}
                                                                          | kw)))(test))
      for test in ("holland", "finner", "li", "rom")],
    *[Case(name=f"all_pairs_test[{test}]", fields=POSTHOC_FIELDS, n_methods=5, **POSTHOC,
           call=(lambda t: lambda cube, **kw: mcda.all_pairs_test(cube, **({"test": t} | kw)))(test))
      for test in ("holland", "finner")],
    Case(name="control_test_exact", fields=POSTHOC_FIELDS, n_methods=5, **POSTHOC,
         call=lambda cube, **kw: mcda.control_test(cube, **({"control": _control(cube), "exact": True} | kw)),
         bad_inputs=[({"exact": 1}, TypeError, "`exact`")]),
    Case(name="pairwise_over_datasets_wilcoxon_holm", call=_pairwise, fields=FIELDS, n_methods=5, **PAIRS,
         bad_inputs=BAD),
    Case(name="pairwise_over_datasets_wilcoxon_zsplit_small", n_datasets=8, n_methods=4, fields=FIELDS, **PAIRS,
         call=lambda cube, **kw: _pairwise(cube, zero_method="zsplit", **kw)),
    Case(name="pairwise_over_datasets_sign_hochberg", fields=FIELDS, n_methods=5, **PAIRS,
         call=lambda cube, **kw: _pairwise(cube, test="sign", adjust="hochberg", **kw),
         bad_inputs=[({"zero_method": "pratt"}, ValueError, "`zero_method`")]),
    Case(name="pairwise_over_datasets_control", fields=FIELDS, n_methods=5, **PAIRS,
         call=lambda cube, **kw: _pairwise(cube, control=_control(cube), **kw),
         bad_inputs=[({"adjust": "bergmann-hommel"}, ValueError, "`adjust`")]),
]
