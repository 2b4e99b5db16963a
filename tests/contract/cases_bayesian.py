"""Contract cases for mcda.bayesian.

The sampled sign comparison is not a case: each pair draws its own gammas from the stream in
pair order, so reordering or relabelling methods changes its Monte Carlo noise (its
agreement with the exact method is tested in tests/test_bayesian.py). The signed-rank
comparison is a case: its draws are shared by all pairs with the same number of datasets and
given to the datasets in label order, so it is invariant to these changes.

The cases use 5 methods: with 4, the harness's method permutation reverses every pair, and
its column swap (``out.loc[flip, [x, y]] = out.loc[flip, [y, x]].to_numpy()``) then copies
one column onto both under pandas 3.1 when ``flip`` is all True (a harness issue, reported).
"""

from __future__ import annotations

import mcda
from tests.contract.harness import Case

_FIELDS = ("test", "methods", "table", "standing", "order", "rope", "prior", "prior_strength", "threshold", "method",
           "n_samples", "direction", "draws")
_PAIR = dict(n_methods=5, method_columns=("method_a", "method_b"), pair_columns=("method_a", "method_b"),
             swap_columns={"prob_a_better": "prob_b_better", "mean_a_better": "mean_b_better"},
             pvalue_columns=("prob_a_better", "prob_equivalent", "prob_b_better"), ignore_columns=("label", "reason"))
_BAD = [
    ({"n_samples": 0}, ValueError, "`n_samples` must be an integer >= 1"),
    ({"rope": -0.01}, ValueError, "`rope` must be a finite number >= 0"),
    ({"threshold": 0.4}, ValueError, "`threshold` must lie in"),
    ({"prior_strength": 0.0}, ValueError, "`prior_strength` must be a finite number > 0"),
]


def _sign(cube, **kwargs):
    return mcda.bayesian_sign_comparison(cube, **kwargs)


def _signed_rank(cube, **kwargs):
    return mcda.bayesian_signed_rank_comparison(cube, **({"rng": 0, "n_samples": 2000} | kwargs))


def _correlated_t(cube, **kwargs):
    return mcda.correlated_t_test(cube, **kwargs)


CASES = [
    Case(name="bayesian_sign_comparison[exact]", call=_sign, fields=_FIELDS, missing=0.05, **_PAIR,
         bad_inputs=_BAD + [({"prior": "left"}, ValueError, "`prior` must be one of"),
                            ({"method": "mc"}, ValueError, "`method` must be one of")]),
    Case(name="bayesian_sign_comparison[rope0]", call=lambda c, **kw: _sign(c, **({"rope": 0.0} | kw)),
         fields=_FIELDS, **_PAIR),
    Case(name="bayesian_signed_rank_comparison", call=_signed_rank, fields=_FIELDS, missing=0.05, **_PAIR,
         bad_inputs=_BAD),
    Case(name="correlated_t_test", call=_correlated_t, seeds=10, n_methods=5,
         fields=("methods", "datasets", "table", "rope", "runs", "n_folds", "threshold", "direction"),
         method_columns=("method_a", "method_b"), pair_columns=("method_a", "method_b"),
         swap_columns={"prob_a_better": "prob_b_better"}, negate_columns=("mean_diff",),
         flip_columns=("mean_diff",), pvalue_columns=("prob_a_better", "prob_equivalent", "prob_b_better"),
         ignore_columns=("label", "reason"),
         bad_inputs=[({"runs": 3}, ValueError, "`runs` must divide"),
                     ({"rope": -1.0}, ValueError, "`rope` must be a finite number >= 0"),
                     ({"threshold": 1.5}, ValueError, "`threshold` must lie in")]),
]
