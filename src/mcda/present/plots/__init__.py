"""Figures for papers, drawn from mcda's result objects.

Every ``plot_*`` function takes a result object (or a score cube, for learning curves), draws it
in mcda's style (:mod:`mcda.present.plots._style`: Okabe–Ito colours, paper-column sizes, embedded
TrueType fonts) and returns ``(fig, ax)``; pass ``ax=`` to draw into an existing axes. Plots
compute no statistics: the numbers come from the result, and the geometry (positions, cliques,
label placement) lives in pure functions tested without drawing.

The figures
-----------
========================================  ================================================
``plot_critical_difference(result)``      Demšar's diagram (ComparisonResult, PairwiseOverDatasets or MeanRanks)
``plot_mcm(result)``                      Multi-Comparison Matrix, aeon's (PairwiseOverDatasets)
``plot_rank_intervals(result)``           mean ranks or effect sizes with intervals (RankStability, EffectSizes)
``plot_posterior_histogram(result, pair)``  baycomp's posterior histogram of one pair (Bayesian results with draws)
``plot_forest(summary)``                  per-dataset intervals over seeds (IntervalSummary)
``plot_pairwise(result, layout=...)``     paired tests per dataset (PairedTests)
``plot_superiority(report)``              probability-of-superiority matrix (SuperiorityReport)
``plot_relation(result)``                 pairwise-majority graph, cycles highlighted (TransitivityResult)
``plot_posterior(result, pair)``          posterior simplex of one pair (BayesianComparison)
``plot_posterior_bars(result)``           the three posterior probabilities of every pair
``plot_shrinkage(result, pair)``          raw vs shrunk per-dataset differences (HierarchicalComparison)
``plot_rank_distribution(result)``        P(best) and the rank distribution (PlackettLuceResult)
``plot_rank_stability(result)``           P(position = r) and mean-rank intervals (RankStability)
``plot_learning_curves(result)``          mean and t band over seeds per epoch (``mcda.learning_curves``)
``plot_tradeoffs``, ``plot_weight_stability``  several criteria (see :mod:`mcda.stats.criteria`)
``plot_rank_acceptability(result)``       SMAA-2 stacked rank acceptabilities per method (SmaaResult)
``plot_central_weights(result)``          SMAA-2 central weights and confidence factors (SmaaResult)
``plot_gsd_front(result)``                the GSD relation in layers, the front shaded (GsdFrontResult)
``plot_meta_forest(result, pair)``        per-dataset differences, pooled mean, prediction interval (MetaAnalysisResult)
``plot_replicability(result)``            on how many datasets each method beats each other (ReplicabilityResult)
``plot_rank_sets(result)``                one rank confidence set per method, the best set marked (RankConfidenceSets)
``plot_item_intervals(means)``            mean item score per model, clustered and naive intervals (ItemMeans)
``plot_item_forest(pairs)``               paired differences from a control over items (PairedItems with control)
``plot_item_matrix(board)``               which pairs the paired tests over items separate (ItemLeaderboard)
========================================  ================================================

Every rank axis has rank 1 (best) at the left. Save with :func:`savefig` to keep the vector
settings (embedded TrueType fonts) in PDF and SVG output.

Importing ``mcda.plots`` imports matplotlib; ``import mcda`` does not.
"""

from __future__ import annotations

import importlib

from mcda.present.plots._style import WIDTHS, savefig, style

# public name -> module inside mcda.plots (imported on first use)
_PLOTS: dict[str, str] = {
    "plot_critical_difference": "critical_difference",
    "plot_rank_stability": "rank_stability",
    "plot_learning_curves": "learning_curves",
    "plot_superiority": "superiority",
    "plot_relation": "superiority",
    "plot_posterior": "posterior",
    "plot_posterior_bars": "posterior",
    "plot_shrinkage": "bayesian_models",
    "plot_rank_distribution": "bayesian_models",
    "plot_forest": "forest",
    "plot_pairwise": "pairwise",
    # the peers' figures: aeon's MCM, autorank's interval plot, baycomp's histogram
    "plot_mcm": "mcm",
    "plot_rank_intervals": "intervals",
    "plot_posterior_histogram": "histogram",
    # several criteria
    "plot_tradeoffs": "tradeoffs",
    "plot_weight_stability": "tradeoffs",
    # several criteria under uncertainty (SMAA-2)
    "plot_rank_acceptability": "acceptability",
    "plot_central_weights": "acceptability",
    # statistical dominance across criteria (the GSD-front)
    "plot_gsd_front": "gsd",
    # across datasets: a random-effects meta-analysis
    "plot_meta_forest": "meta_forest",
    # across datasets: on how many datasets a claim replicates
    "plot_replicability": "replicability",
    # confidence sets for ranks
    "plot_rank_sets": "rank_sets",
    # over items: one test set
    "plot_item_intervals": "items",
    "plot_item_forest": "items",
    "plot_item_matrix": "items",
}

__all__ = ["style", "savefig", "WIDTHS", *sorted(_PLOTS)]


def __getattr__(name: str):
    if name in _PLOTS:
        value = getattr(importlib.import_module(f".{_PLOTS[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'mcda.plots' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_PLOTS))
