"""Bayesian comparisons: the posterior view of the same pairwise evidence, one module per model.

- :mod:`~mcda.stats.bayesian.sign`: the Bayesian sign test over datasets and
  :class:`~mcda.stats.bayesian.sign.BayesianComparison`, the result of both tests over datasets;
- :mod:`~mcda.stats.bayesian.signed_rank`: the Bayesian signed-rank test and ``two_on_multiple``;
- :mod:`~mcda.stats.bayesian.correlated_t`: the correlated Bayesian t test per dataset;
- :mod:`~mcda.stats.bayesian.hierarchical`: the hierarchical model of per-fold scores;
- :mod:`~mcda.stats.bayesian.plackett_luce`: the Plackett–Luce model of the rankings.

baycomp (Benavoli et al.'s reference implementation) is matched in every convention, and
``reproduce="baycomp"`` draws exactly its samples, so results can be cross-checked bit for bit.
"""
