"""mcda: which differences between methods are real.

Across datasets (ranks, Friedman, critical differences, step-down post-hoc tests), within a
dataset over seeds (paired tests with Holm, equivalence, power), pairwise superiority and
transitivity, Bayesian comparisons, and several criteria at once.

The public API is re-exported here by name and imported on first use, so ``import mcda``
stays light (numba and matplotlib load only when a kernel or a plot is needed).

>>> import mcda
>>> cube = mcda.datasets.load("demsar2006")
>>> cube.attrs["metric"]
'auroc'
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0.dev0"

# public name -> module that defines it (the one place a public name is registered)
_EXPORTS: dict[str, str] = {
    # cards
    "MetricCard": "cards",
    "get_card": "cards",
    "properties_for": "cards",
    "list_cards": "cards",
    "register_card": "cards",
    # the cube
    "score_cube": "cube",
    "orient": "cube",
    "complete_cases": "cube",
    "reduce_seeds": "cube",
    "missing_cells": "cube",
    "select": "cube",
    "method_summary": "describe",
    # options
    "set_options": "options",
    "get_options": "options",
    # warnings
    "McdaArgumentError": "_validation",
    "McdaArgumentTypeError": "_validation",
    "McdaWarning": "_validation",
    "SmallSampleWarning": "_validation",
    "TiesWarning": "_validation",
    "DescriptiveOnlyWarning": "_validation",
    "MissingDataWarning": "_validation",
    "UnpairedSeedsWarning": "_validation",
    # ranks
    "rank_table": "ranks",
    "average_ranks": "ranks",
    "mean_ranks": "ranks",
    "rank_stability": "ranks",
    # across datasets
    "friedman_test": "frequentist",
    "iman_davenport": "frequentist",
    "q_alpha": "frequentist",
    "critical_difference": "frequentist",
    "nemenyi": "frequentist",
    "bonferroni_dunn": "frequentist",
    "control_test": "frequentist",
    "all_pairs_test": "frequentist",
    "compare_over_datasets": "frequentist",
    "adjust_pvalues": "multitest",
    "pairwise_over_datasets": "pool_independent",
    "compact_letters": "letters",
    "attainable_significance": "frequentist",
    "design_adequacy": "frequentist",
    "friedman_aligned_ranks_test": "omnibus",
    "quade_test": "omnibus",
    # effect sizes and choosing the procedure
    "effect_sizes": "effects",
    "recommend_procedure": "assumptions",
    # across datasets, the incomplete design as it is
    "skillings_mack_test": "incomplete",
    "durbin_test": "incomplete",
    # within a dataset
    "summary": "within",
    "paired_tests": "within",
    "equivalence": "within",
    "power": "within",
        "wilcoxon_signed_ranks": "within",
    # pairwise
    "pairwise_counts": "pairwise",
    "pairwise_superiority": "pairwise",
    "pairwise_transitivity": "pairwise",
    "bradley_terry": "pairwise",
    "marginal_means": "pairwise",
    # bayesian
    "bayesian_sign_comparison": "bayesian",
    "bayesian_signed_rank_comparison": "bayesian",
    "correlated_t_test": "bayesian",
    "two_on_multiple": "bayesian",
    "hierarchical_comparison": "bayesian",
    "plackett_luce": "bayesian",
    # several criteria
    "compare_criteria": "criteria",
    "practical_dominance": "criteria",
    "promethee": "criteria",
    "weight_stability": "criteria",
    # the report object and epoch selection
    "Report": "report",
    "select_epoch": "epochs",
    "selected_epochs": "epochs",
    "epoch_selection_support": "epochs",
    "learning_curves": "epochs",
}

_SUBMODULES = ("cards", "cube", "datasets", "ranks", "multitest", "frequentist", "pool_independent", "omnibus",
               "effects", "assumptions", "within", "pairwise", "bayesian", "incomplete",
               "criteria", "report", "export", "plots", "cli", "letters")

__all__ = sorted(_EXPORTS) + ["datasets", "__version__"]


def __getattr__(name: str):
    if name in _EXPORTS:
        module = importlib.import_module(f".{_EXPORTS[name]}", __name__)
        value = getattr(module, name)
        globals()[name] = value
        return value
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'mcda' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS) | set(_SUBMODULES))
