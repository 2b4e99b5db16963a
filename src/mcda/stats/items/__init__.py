"""Over items: is A better than B on *this* test set?

Several methods scored on the same items of a test set (questions of a benchmark, test
examples, prompts rated by a judge), the items a sample from a larger population, optionally
clustered (a ``cluster`` coordinate on ``item``: questions sharing a passage) and repeated (a
``sample`` dim: several answers per item). Each module answers one question:

- :mod:`~mcda.stats.items.means`: per model, the mean with its CLT and cluster-robust
  standard errors and the rate intervals; ``reduce_items``, the step to a dataset cube;
- :mod:`~mcda.stats.items.paired`: per pair, the paired difference, its interval and test
  (paired t on the item differences, clustered; McNemar's exact, mid-p and asymptotic tests),
  the correlation of the two models' scores and the minimum detectable difference;
- :mod:`~mcda.stats.items.resampling`: the paired permutation test (signs flipped per item or
  per cluster) and the paired bootstrap of the mean difference (whole clusters drawn);
- :mod:`~mcda.stats.items.omnibus`: k models at once (Cochran's Q, Friedman over items) and
  the leaderboard with its tie groups;
- :mod:`~mcda.stats.items.planning`: items needed to detect a difference.

Every statistic but the resampling is written from sufficient statistics
(:mod:`~mcda.stats.items.sums`), block by block along ``item``, so a dask-backed cube chunked
along ``item`` runs unchanged.
"""

from mcda.stats.items.means import ItemMeans, item_means, reduce_items
from mcda.stats.items.omnibus import ItemLeaderboard, ItemOmnibus, item_leaderboard, item_omnibus
from mcda.stats.items.paired import PairedItems, paired_items
from mcda.stats.items.resampling import (ItemBootstrapIntervals, ItemPermutationTests, paired_bootstrap,
                                         paired_permutation_test)
from mcda.stats.items.planning import ItemsNeeded, items_needed

__all__ = [
    "ItemMeans",
    "item_means",
    "reduce_items",
    "PairedItems",
    "paired_items",
    "ItemPermutationTests",
    "ItemBootstrapIntervals",
    "paired_permutation_test",
    "paired_bootstrap",
    "ItemOmnibus",
    "item_omnibus",
    "ItemLeaderboard",
    "item_leaderboard",
    "ItemsNeeded",
    "items_needed",
]
