"""Contract cases for mcda.stats.bayesian.

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


# The hierarchical model and Plackett-Luce sample, but their draws depend only on the data they
# see: every pair of the hierarchical model uses the same seed, its differences in the orientation
# with a positive total and its datasets in label order; Plackett-Luce sees the methods in an
# order fixed by the data and the datasets in label order. So relabelling, reordering and the
# direction flip change nothing, bit for bit.
_HIER_FLIP = ("population_diff", "population_ci_low", "population_ci_high")


def _hierarchical(cube, **kwargs):
    return mcda.hierarchical_comparison(cube, **({"runs": 1, "rng": 0, "n_samples": 400, "n_warmup": 100,
                                                  "progress": False} | kwargs))


def _plackett_luce(cube, **kwargs):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mcda.TiesWarning)  # the harness's rounded scores tie
        return mcda.plackett_luce(cube, **({"rng": 0, "n_samples": 300, "n_warmup": 50, "progress": False}
                                           | kwargs))


CASES += [
    Case(name="hierarchical_comparison", call=_hierarchical, seeds=10, n_methods=5, n_datasets=8,
         fields=("methods", "table", "shrinkage", "diagnostics", "rope", "rho", "runs", "n_chains", "n_samples",
                 "n_warmup", "confidence_level", "threshold", "rhat_max", "ess_floor", "direction", "draws",
                 "population_draws"),
         method_columns=("method_a", "method_b"), pair_columns=("method_a", "method_b"),
         swap_columns={"prob_a_better": "prob_b_better", "mean_a_better": "mean_b_better",
                       "population_ci_low": "population_ci_high"},
         negate_columns=_HIER_FLIP, flip_columns=_HIER_FLIP, flip_swap={"population_ci_low": "population_ci_high"},
         pvalue_columns=("prob_a_better", "prob_equivalent", "prob_b_better"), ignore_columns=("label", "reason"),
         rtol=1e-7,
         bad_inputs=[({"runs": 3}, ValueError, "`runs` must divide"),
                     ({"rope": -1.0}, ValueError, "`rope` must be a finite number >= 0"),
                     ({"threshold": 1.5}, ValueError, "`threshold` must lie in"),
                     ({"n_chains": 1}, ValueError, "`n_chains`"),
                     ({"rho": 0.1}, ValueError, "`runs` or `rho`")]),
    Case(name="plackett_luce", call=_plackett_luce, n_methods=5, missing=0.05,
         fields=("methods", "table", "rank_probabilities", "pairs", "diagnostics", "order", "n_rankings",
                 "n_tied_rankings", "ties", "prior_strength", "n_chains", "n_samples", "n_warmup",
                 "confidence_level", "direction", "reason", "draws"),
         method_columns=("method",), pvalue_columns=("prob_best",), rtol=1e-7,
         bad_inputs=[({"ties": "split"}, ValueError, "`ties` must be one of"),
                     ({"prior_strength": 0.0}, ValueError, "`prior_strength` must be a finite number > 0"),
                     ({"n_samples": 2}, ValueError, "`n_samples`")]),
]
