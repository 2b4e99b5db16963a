"""LaTeX tables for papers: the public namespace ``mcda.export`` (written by :mod:`mcda.present.latex`)."""

from mcda.present.latex import (comparison_to_latex, item_leaderboard_to_latex, item_pairs_to_latex, latex_escape,
                                pairwise_to_latex, scores_to_latex, significance_marker)

__all__ = ["scores_to_latex", "pairwise_to_latex", "comparison_to_latex", "item_leaderboard_to_latex",
           "item_pairs_to_latex", "latex_escape", "significance_marker"]
