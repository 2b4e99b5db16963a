"""Contract cases for the pairwise views (superiority, transitivity, Bradley–Terry, marginal means)."""

from __future__ import annotations

import warnings

import mcda
from tests.contract.harness import Case


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mcda.SmallSampleWarning)  # 12 datasets: some pairs cannot reach alpha
        return function(*args, **kwargs)


def _superiority(cube, **kwargs):
    return _quiet(mcda.pairwise_superiority, cube, **({"adjust": "holm"} | kwargs))


def _transitivity(cube, report=None):
    return mcda.pairwise_transitivity(_superiority(cube) if report is None else report)


def _bradley_terry(cube, **kwargs):
    return mcda.bradley_terry(_superiority(cube), **kwargs)


def _counts(cube, **kwargs):
    return mcda.pairwise_counts(cube, **kwargs)


CASES = [
    Case(name="pairwise_counts", call=_counts, fields=("methods", "wins", "n_equivalent", "n_shared", "rope",
                                                       "direction", "n_datasets"),
         pair_columns=("method_a", "method_b"), method_columns=("method_a", "method_b"),
         swap_columns={"wins_a": "wins_b"}, missing=0.05, n_methods=5,
         bad_inputs=[({"rope": -0.01}, ValueError, "`rope`")]),
    Case(name="pairwise_superiority", call=_superiority,
         fields=("methods", "counts", "probability_superior", "probability_equivalent", "pvalues", "pvalues_adjusted",
                 "superior_pairs", "equivalent_pairs", "incomparable_pairs", "standing", "order", "alpha", "adjust",
                 "rope", "direction", "reasons"),
         pair_columns=("method_a", "method_b"), method_columns=("method_a", "method_b", "superior"),
         swap_columns={"wins_a": "wins_b", "probability_a_superior": "probability_b_superior"},
         pvalue_columns=("p_raw", "p_adjusted"), missing=0.05, n_methods=5,
         bad_inputs=[({"adjust": "fdr"}, ValueError, "`adjust` must be None or one of"),
                     ({"alpha": 1.5}, ValueError, "`alpha` must lie in"),
                     ({"rope": -0.01}, ValueError, "`rope`")]),
    Case(name="pairwise_transitivity", call=_transitivity,
         fields=("methods", "relation", "tied_pairs", "is_complete", "is_transitive", "circular_triads",
                 "n_circular_triads", "max_circular_triads", "coefficient_of_consistence", "condorcet_choice",
                 "order", "scores", "reason"),
         pair_columns=("method_a", "method_b"), method_columns=("method_a", "method_b", "preferred"), n_methods=5,
         bad_inputs=[({"report": "scores"}, TypeError, "`report` must be")]),
    Case(name="bradley_terry", call=_bradley_terry,
         fields=("methods", "strengths", "standard_errors", "confidence_interval", "confidence_level", "worth",
                 "win_probability", "order", "ties", "log_likelihood", "n_iterations", "converged", "reason"),
         rtol=1e-7, n_datasets=20, n_methods=5,
         bad_inputs=[({"ties": "davidson"}, ValueError, "`ties` must be one of"),
                     ({"confidence_level": 95}, ValueError, "`confidence_level` must lie in")]),
    Case(name="marginal_means", call=mcda.marginal_means,
         fields=("methods", "means", "n_datasets", "pairwise_means", "n_shared", "mean_differences",
                 "mean_advantage", "order", "direction"),
         flip_columns=("mean",), missing=0.05, n_methods=5,
         bad_inputs=[({"direction": "up"}, ValueError, "`direction` must be one of")]),
]
