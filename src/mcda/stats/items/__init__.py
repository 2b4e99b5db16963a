"""Over items: several methods scored on the same items of a test set (a cube with an ``item`` dim).

One module per question: :mod:`~mcda.stats.items.resampling` holds the paired permutation test
and the paired bootstrap of the mean difference, resampling clusters when the items have a
``cluster`` coordinate.
"""
