"""Pool-independent pairwise evidence: per pair of methods, on the datasets both have, how often
one outperforms the other by more than the rope.

:func:`pairwise_counts` is the one place these counts are computed; superiority,
transitivity, the Bayesian sign comparison and the multi-criteria dominance all read them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .cube import as_cube, orient, resolve_rope

__all__ = ["PairwiseCounts", "pairwise_counts", "count_regions"]

# Equivalence boundary: |a - b| <= rope + _ULPS * eps * max(|a|, |b|, rope). A difference that
# is the rope up to the rounding of the subtraction itself (0.77 - 0.76 = 0.010000000000000009)
# counts as equivalent; anything larger (1e-14 beyond, say) does not, as in baycomp.
_ULPS = 8
_EPS = np.finfo(np.float64).eps
_BLOCK_ELEMENTS = 4_000_000  # datasets × k × k per block: memory stays bounded for large N


def count_regions(values: np.ndarray, rope: float):
    """Win / equivalence counts for every ordered pair from an oriented datasets × methods matrix.

    Returns ``(wins, equivalent, shared)``, each (k, k) int64: ``wins[i, j]`` counts the
    datasets where i − j > rope (beyond rounding), ``equivalent[i, j]`` where |i − j| ≤ rope,
    ``shared[i, j]`` where both have a result. The counts add up over blocks of datasets, so
    this is the chunk-wise kernel too.
    """
    values = np.asarray(values, dtype=np.float64)
    n, k = values.shape
    wins = np.zeros((k, k), dtype=np.int64)
    equivalent = np.zeros((k, k), dtype=np.int64)
    shared = np.zeros((k, k), dtype=np.int64)
    block = max(1, _BLOCK_ELEMENTS // max(1, k * k))
    for start in range(0, n, block):
        x = values[start:start + block]
        a = x[:, :, None]
        b = x[:, None, :]
        diff = a - b
        valid = ~np.isnan(diff)
        tol = _ULPS * _EPS * np.maximum(np.maximum(np.abs(a), np.abs(b)), rope)
        within = valid & (np.abs(diff) <= rope + tol)
        beyond = valid & ~within & (diff > 0)
        wins += beyond.sum(axis=0)
        equivalent += within.sum(axis=0)
        shared += valid.sum(axis=0)
    return wins, equivalent, shared


@dataclass(frozen=True)
class PairwiseCounts:
    """Per ordered pair (row, column): the datasets the row wins, the equivalences, the shared datasets.

    Attributes
    ----------
    methods : list of str
    wins : pandas.DataFrame
        ``wins.loc[a, b]``: datasets where a outperforms b by more than the rope.
    equivalent : pandas.DataFrame
        Datasets where |a − b| ≤ rope (symmetric).
    n_shared : pandas.DataFrame
        Datasets where both have a result (symmetric; NaN cells are dropped pairwise).
    rope : float
        The rope used, in the metric's units.
    direction : str
        The metric's direction (the counts are on the oriented scores).
    """

    methods: list
    wins: pd.DataFrame
    equivalent: pd.DataFrame
    n_shared: pd.DataFrame
    rope: float
    direction: str

    @property
    def losses(self) -> pd.DataFrame:
        return self.wins.T

    def to_frame(self) -> pd.DataFrame:
        """One row per unordered pair: ``method_a, method_b, n_datasets, wins_a, equivalent, wins_b``."""
        rows = []
        k = len(self.methods)
        w, e, s = self.wins.to_numpy(), self.equivalent.to_numpy(), self.n_shared.to_numpy()
        for i in range(k):
            for j in range(i + 1, k):
                rows.append((self.methods[i], self.methods[j], int(s[i, j]), int(w[i, j]), int(e[i, j]),
                             int(w[j, i])))
        return pd.DataFrame(rows, columns=["method_a", "method_b", "n_datasets", "wins_a", "equivalent", "wins_b"])


def pairwise_counts(scores, direction=None, *, rope=None, method_names=None) -> PairwiseCounts:
    """Wins, equivalences and shared datasets for every pair of methods.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube` (one score per dataset and method)
    direction : {"higher_is_better", "lower_is_better"}, optional
        Needed when ``scores`` carries no card.
    rope : float, optional
        Half-width of the region of practical equivalence; None uses the card's noise floor.
    method_names : sequence, optional
        Labels for array input.

    Notes
    -----
    Per pair, a dataset counts when both methods have a result there (NaN cells are dropped
    pairwise and the count is reported). With d the oriented difference (row − column), the
    dataset is a win for the row when d > rope, a loss when d < −rope, and an equivalence when
    |d| ≤ rope. The boundary counts as equivalent, as in baycomp; floating-point noise of the
    subtraction itself is forgiven (tolerance 8 ulp of the larger operand), so
    0.77 − 0.76 against a rope of 0.01 is an equivalence.

    Examples
    --------
    >>> from mcda import pairwise_counts
    >>> c = pairwise_counts({"d1": {"a": 0.77, "b": 0.76}, "d2": {"a": 0.9, "b": 0.7}},
    ...                     "higher_is_better", rope=0.01)
    >>> c.to_frame().to_dict("records")
    [{'method_a': 'a', 'method_b': 'b', 'n_datasets': 2, 'wins_a': 1, 'equivalent': 1, 'wins_b': 0}]
    """
    cube = as_cube(scores, direction, method_names=method_names)
    extra = [d for d in cube.dims if d not in ("dataset", "method")]
    if extra:
        raise ValueError(f"pairwise counts need one score per (dataset, method); the scores have extra dims {extra}. "
                         "Reduce seeds with mcda.reduce_seeds(cube, how=...) or select a metric first.")
    rope = resolve_rope(cube, rope)
    values = orient(cube).values
    wins, equivalent, shared = count_regions(values, rope)
    methods = [str(m) for m in cube.coords["method"].values]
    idx = pd.Index(methods, name="method")
    frame = lambda a: pd.DataFrame(a, index=idx, columns=idx.rename("versus"))  # noqa: E731
    return PairwiseCounts(methods=methods, wins=frame(wins), equivalent=frame(equivalent),
                          n_shared=frame(shared), rope=rope, direction=str(cube.attrs["direction"]))
