"""Groups of methods not separated by a pairwise test: the exact maximal cliques of the
"not separated" graph, and their order by mean rank. One home for every procedure that
draws bars on a critical-difference diagram (mean-rank post-hocs, pairwise tests over
datasets)."""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["maximal_cliques", "groups_from_decisions"]


def maximal_cliques(adjacent: np.ndarray) -> list[tuple[int, ...]]:
    """Every maximal clique of an undirected graph (Bron–Kerbosch with Tomita pivoting, bitsets)."""
    k = adjacent.shape[0]
    # Python integers as bitsets (any k): a numpy int64 index would overflow `1 << j` from j = 63 on
    neighbours = [sum(1 << int(j) for j in np.nonzero(adjacent[i])[0] if j != i) for i in range(k)]
    cliques: list[tuple[int, ...]] = []

    def members(bits: int) -> list[int]:
        return [i for i in range(k) if bits >> i & 1]

    def expand(chosen: int, candidates: int, excluded: int) -> None:
        if not candidates and not excluded:
            cliques.append(tuple(members(chosen)))
            return
        pool = candidates | excluded
        pivot = max(members(pool), key=lambda u: (candidates & neighbours[u]).bit_count())
        for v in members(candidates & ~neighbours[pivot]):
            expand(chosen | 1 << v, candidates & neighbours[v], excluded & neighbours[v])
            candidates &= ~(1 << v)
            excluded |= 1 << v

    expand(0, (1 << k) - 1, 0)
    return cliques


def groups_from_decisions(mean_ranks: pd.Series, separated: np.ndarray) -> list[tuple[str, ...]]:
    """Maximal cliques of methods no pair of which is separated, each and all ordered by mean rank.

    ``separated`` is the k × k boolean matrix of rejections, rows and columns in the order of
    ``mean_ranks.index``.
    """
    methods = list(mean_ranks.index)
    position = {m: i for i, m in enumerate(mean_ranks.sort_values(kind="stable").index)}
    together = ~np.asarray(separated, dtype=bool)
    groups = [tuple(sorted((methods[i] for i in clique), key=position.__getitem__))
              for clique in maximal_cliques(together)]
    return sorted(groups, key=lambda g: (position[g[0]], position[g[-1]]))
