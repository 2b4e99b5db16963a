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
    "MetricCard": "data.cards",
    "get_card": "data.cards",
    "properties_for": "data.cards",
    "list_cards": "data.cards",
    "register_card": "data.cards",
    # the cube
    "score_cube": "data.cube",
    "orient": "data.cube",
    "complete_cases": "data.design",
    "reduce_seeds": "data.design",
    "missing_cells": "data.design",
    "select": "data.cube",
    "method_summary": "stats.describe",
    # options
    "set_options": "_core.options",
    "get_options": "_core.options",
    # warnings
    "McdaArgumentError": "_core.validation",
    "McdaArgumentTypeError": "_core.validation",
    "McdaWarning": "_core.validation",
    "SmallSampleWarning": "_core.validation",
    "TiesWarning": "_core.validation",
    "DescriptiveOnlyWarning": "_core.validation",
    "MissingDataWarning": "_core.validation",
    "UnpairedSeedsWarning": "_core.validation",
    # ranks
    "rank_table": "stats._shared.ranks",
    "average_ranks": "stats._shared.ranks",
    "mean_ranks": "stats._shared.ranks",
    "rank_stability": "stats._shared.ranks",
    # across datasets
    "friedman_test": "stats.across.friedman",
    "iman_davenport": "stats.across.friedman",
    "q_alpha": "stats.across.posthoc",
    "critical_difference": "stats.across.posthoc",
    "nemenyi": "stats.across.posthoc",
    "bonferroni_dunn": "stats.across.posthoc",
    "control_test": "stats.across.posthoc",
    "all_pairs_test": "stats.across.posthoc",
    "compare_over_datasets": "stats.across.compare",
    "adjust_pvalues": "stats._shared.multitest",
    "pairwise_over_datasets": "stats.across.pool_independent",
    "compact_letters": "stats.across.letters",
    "attainable_significance": "stats.across.planning",
    "design_adequacy": "stats.across.planning",
    "friedman_aligned_ranks_test": "stats.across.rank_tests",
    "quade_test": "stats.across.rank_tests",
    # effect sizes and choosing the procedure
    "effect_sizes": "stats.effects",
    "recommend_procedure": "stats.assumptions",
    # across datasets, the incomplete design as it is
    "skillings_mack_test": "stats.across.incomplete",
    "skillings_mack_posthoc": "stats.across.incomplete",
    "durbin_test": "stats.across.incomplete",
    # within a dataset
    "summary": "stats.within.seeds",
    "paired_tests": "stats.within.seeds",
    "equivalence": "stats.within.seeds",
    "power": "stats.within.seeds",
        "wilcoxon_signed_ranks": "stats.within.seeds",
    # pairwise
    "pairwise_counts": "stats.pairwise",
    "pairwise_superiority": "stats.pairwise",
    "pairwise_transitivity": "stats.pairwise",
    "bradley_terry": "stats.pairwise",
    "marginal_means": "stats.pairwise",
    # bayesian
    "bayesian_sign_comparison": "stats.bayesian.sign",
    "bayesian_signed_rank_comparison": "stats.bayesian.signed_rank",
    "correlated_t_test": "stats.bayesian.correlated_t",
    "two_on_multiple": "stats.bayesian.signed_rank",
    "hierarchical_comparison": "stats.bayesian.hierarchical",
    "plackett_luce": "stats.bayesian.plackett_luce",
    # several criteria
    "compare_criteria": "stats.criteria",
    "practical_dominance": "stats.criteria",
    "promethee": "stats.criteria",
    "weight_stability": "stats.criteria",
    # several criteria under uncertainty
    "smaa": "stats.smaa",
    # several criteria of mixed scale: statistical dominance over datasets
    "gsd_front": "stats.gsd",
    # the report object and epoch selection
    "Report": "app.report",
    "select_epoch": "stats.within.epochs",
    "selected_epochs": "stats.within.epochs",
    "epoch_selection_support": "stats.within.epochs",
    "learning_curves": "stats.within.epochs",
    # within a dataset: almost stochastic order of the seed distributions
    "almost_stochastic_order": "stats.within.aso",
    # replicability and meta-analysis across datasets
    "replicability": "stats.replicability",
    "meta_analysis": "stats.meta_analysis",
    # over items, resampling
    "paired_permutation_test": "stats.items.resampling",
    "paired_bootstrap": "stats.items.resampling",
    # tests over cross-validation folds
    "OverlappingFoldsWarning": "_core.validation",
    # how much a benchmark of N datasets could detect
    "design_power": "stats.across.power",
    # confidence sets for ranks
    "rank_confidence_sets": "stats.rank_sets",
    "rank_confidence_sets_from_estimates": "stats.rank_sets",
    "rank_confidence_sets_over_items": "stats.rank_sets",
    "RankConfidenceSets": "stats.rank_sets",
    # over items
    "item_means": "stats.items",
    "reduce_items": "stats.items",
    "paired_items": "stats.items",
    "item_omnibus": "stats.items",
    "item_leaderboard": "stats.items",
    "items_needed": "stats.items",
}

# the public namespaces that are modules of their own (figures, LaTeX, large cubes, example data)
_SUBMODULES = ("datasets", "plots", "export", "store", "ingest")

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
