"""The counting core of pairwise evidence: per ordered pair of methods, on the datasets both have,
the wins beyond the rope, the equivalences and the shared datasets.

:func:`region_counts` counts a cube block by block (chunk-wise for a lazy cube),
:func:`counts_from_cube` wraps the counts as :class:`PairwiseCounts`. The pairwise views
(:mod:`mcda.stats.pairwise`), the Bayesian comparisons and the multi-criteria dominance all count here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from mcda._core.numeric import SCORE_ULPS
from mcda._core.results import Result
from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError, check_choice, check_rope
from mcda.data import blocks as _chunks
from mcda.data.cards import DIRECTIONS
from mcda.data.cube import orient
from mcda.data.checks import resolve_rope

__all__ = ["PairwiseCounts", "count_regions", "beyond_rope", "region_counts", "counts_from_cube", "add_partials"]

#: pairs shown in a summary before "… (n more pairs)"
SHOWN_PAIRS = 6

# The equivalence boundary forgives the rounding of the subtraction itself (mcda._core.numeric).


def count_regions(values: np.ndarray, rope: float):
    """Win / equivalence counts for every ordered pair from an oriented datasets × methods matrix.

    Returns ``(wins, equivalent, shared)``, each (k, k) int64: ``wins[i, j]`` counts the
    datasets where i − j > rope (beyond rounding), ``equivalent[i, j]`` where |i − j| ≤ rope,
    ``shared[i, j]`` where both have a result. The counts add up over blocks of datasets, so
    this is the chunk-wise kernel too. One pass over the rows in a numba kernel
    (:mod:`mcda._core._kernels.counts`); the tests hold a plain numpy reference.
    """
    from mcda._core._kernels.counts import region_counts

    values = np.ascontiguousarray(values, dtype=np.float64)
    if values.ndim != 2:
        raise McdaArgumentError(f"`values` must be a datasets × methods matrix; got shape {values.shape}",
                                argument="values")
    return region_counts(values, float(rope), float(SCORE_ULPS))


def beyond_rope(values: np.ndarray, rope: float) -> np.ndarray:
    """(n, k, k) bool from an oriented datasets × methods matrix: ``out[d, i, j]`` where i − j > rope
    on dataset d, by :func:`count_regions`' rule (one dataset's ``wins > 0``), False where either is NaN."""
    from mcda._core._kernels.counts import beyond_rows

    values = np.ascontiguousarray(values, dtype=np.float64)
    if values.ndim != 2:
        raise McdaArgumentError(f"`values` must be a datasets × methods matrix; got shape {values.shape}",
                                argument="values")
    return beyond_rows(values, float(rope), float(SCORE_ULPS))


def _regions_block(values: np.ndarray, offset: int, rope: float, ulps: float):
    """Block: the win / equivalence / shared counts of a slab of datasets (oriented scores)."""
    from mcda._core._kernels.counts import region_counts as kernel

    return kernel(values, rope, ulps)


def add_partials(a: tuple, b: tuple) -> tuple:
    """Combine: counts and sums add up over blocks of datasets."""
    return tuple(x + y for x, y in zip(a, b))


def region_counts(cube, rope: float, ulps: float = SCORE_ULPS):
    """:func:`count_regions` of a cube, block by block (lazy cubes chunk-wise); ``ulps=0`` compares exactly."""
    return _chunks.reduce(orient(cube), _regions_block, add_partials, float(rope), float(ulps))



@dataclass(frozen=True, repr=False)
class PairwiseCounts(Result):
    """Per ordered pair (row, column): the datasets the row wins, the equivalences, the shared datasets.

    Attributes
    ----------
    methods : list of str
    wins : pandas.DataFrame
        ``wins.loc[a, b]``: datasets where a outperforms b by more than the rope.
    n_equivalent : pandas.DataFrame
        Datasets where |a − b| ≤ rope (symmetric).
    n_shared : pandas.DataFrame
        Datasets where both have a result (symmetric; NaN cells are dropped pairwise).
    rope : float
        The rope used, in the metric's units.
    direction : str
        The metric's direction (the counts are on the oriented scores).
    n_datasets : int or None
        Datasets in the input (a method's missing results are ``n_datasets − n_shared.loc[m, m]``);
        None for counts built with :meth:`from_matrix`.
    """

    methods: list
    wins: pd.DataFrame
    n_equivalent: pd.DataFrame
    n_shared: pd.DataFrame
    rope: float
    direction: str
    n_datasets: int | None = None

    @property
    def losses(self) -> pd.DataFrame:
        return self.wins.T

    @classmethod
    def from_matrix(cls, wins, *, n_equivalent=None, n_shared=None, methods=None, rope: float = math.nan,
                    direction: str = "higher_is_better") -> PairwiseCounts:
        """Counts from a preference (win / loss) table rather than from scores.

        Use it for paired-comparison data (judges, tournaments) or for counts computed
        elsewhere; every pairwise view (:func:`pairwise_superiority`,
        :func:`pairwise_transitivity`, :func:`bradley_terry`) accepts the result.

        Parameters
        ----------
        wins : square pandas.DataFrame or array-like
            ``wins[a, b]``: how often a was preferred to (outperformed) b. Non-negative
            integers; the diagonal is ignored. A DataFrame's index gives the labels (its
            columns must hold the same labels, in any order).
        n_equivalent : square array-like, optional
            Symmetric counts of ties / equivalences per pair; by default
            ``n_shared − wins − wins.T``, or 0 when ``n_shared`` is not given either.
        n_shared : square array-like or int, optional
            Comparisons per pair (an int for a balanced design, e.g. the number of judges);
            by default ``wins + wins.T + n_equivalent``.
        methods : sequence of str, optional
            Labels for array input (default ``"0", "1", …``).
        rope : float
            Recorded as is (NaN: the comparisons were not scores with a rope).
        direction : {"higher_is_better", "lower_is_better"}
            Recorded as is; the table is read as "row preferred to column" either way.

        Returns
        -------
        PairwiseCounts
            With zeros on the diagonals and ``n_datasets=None``.

        Raises
        ------
        ValueError
            When a table is not square, holds negative or non-integer counts, or the three
            tables disagree (``wins[a, b] + wins[b, a] + n_equivalent[a, b] != n_shared[a, b]``).

        Examples
        --------
        >>> from mcda.stats.pairwise import PairwiseCounts
        >>> c = PairwiseCounts.from_matrix([[0, 3], [1, 0]], methods=["a", "b"])
        >>> c.to_frame().to_dict("records")
        [{'method_a': 'a', 'method_b': 'b', 'n_datasets': 4, 'wins_a': 3, 'n_equivalent': 0, 'wins_b': 1}]
        """
        check_choice("direction", direction, DIRECTIONS)
        if not (isinstance(rope, float) and math.isnan(rope)):
            rope = check_rope(rope)
        if isinstance(wins, pd.DataFrame):
            labels = [str(m) for m in wins.index]
            if sorted(labels) != sorted(str(c) for c in wins.columns) or len(set(labels)) != len(labels):
                raise McdaArgumentError("`wins` must be a square table with the same unique labels on its index and "
                                 f"columns; got index {labels} and columns {[str(c) for c in wins.columns]}",
                                        argument="wins")
            wins = wins.set_axis(labels, axis=0).set_axis([str(c) for c in wins.columns], axis=1)
            wins = wins.loc[labels, labels]
            if methods is not None and [str(m) for m in methods] != labels:
                raise McdaArgumentError(f"`methods` {list(methods)} disagrees with the labels of `wins` {labels}",
                                        argument="methods")
            methods = labels
        w = _count_table("wins", wins)
        k = w.shape[0]
        if methods is None:
            methods = [str(i) for i in range(k)]
        methods = [str(m) for m in methods]
        if len(methods) != k or len(set(methods)) != k:
            raise McdaArgumentError(f"`methods` must hold {k} unique labels (one per row of `wins`); got {methods}",
                                    argument="methods", value=methods)
        if k < 2:
            raise McdaArgumentError(f"a comparison needs at least 2 methods; got {k}", argument="wins")
        np.fill_diagonal(w, 0)
        decisive = w + w.T
        eq = None if n_equivalent is None else _count_table("n_equivalent", _aligned(n_equivalent, methods, "n_equivalent"), k)
        if n_shared is None:
            shared = decisive + (eq if eq is not None else 0)
        elif np.ndim(n_shared) == 0:
            shared = np.full((k, k), _count_table("n_shared", [[n_shared]])[0, 0], dtype=np.int64)
        else:
            shared = _count_table("n_shared", _aligned(n_shared, methods, "n_shared"), k)
        if eq is None:
            eq = shared - decisive
        np.fill_diagonal(eq, 0)
        np.fill_diagonal(shared, 0)
        bad = np.argwhere((eq < 0) | (decisive + eq != shared) | (eq != eq.T))
        if len(bad):
            i, j = bad[0]
            raise McdaArgumentError("the counts disagree: wins[a, b] + wins[b, a] + n_equivalent[a, b] must equal "
                             f"n_shared[a, b] (and `n_equivalent` be symmetric); for ({methods[i]!r}, {methods[j]!r}) "
                             f"got {w[i, j]} + {w[j, i]} + {eq[i, j]} != {shared[i, j]}", argument=None)
        idx = pd.Index(methods, name="method")
        frame = lambda a: pd.DataFrame(a, index=idx, columns=idx.rename("versus"))  # noqa: E731
        return cls(methods=methods, wins=frame(w), n_equivalent=frame(eq), n_shared=frame(shared),
                   rope=rope, direction=direction, n_datasets=None)

    def to_frame(self) -> pd.DataFrame:
        """One row per unordered pair: ``method_a, method_b, n_datasets, wins_a, n_equivalent, wins_b``."""
        rows = []
        k = len(self.methods)
        w, e, s = self.wins.to_numpy(), self.n_equivalent.to_numpy(), self.n_shared.to_numpy()
        for i in range(k):
            for j in range(i + 1, k):
                rows.append((self.methods[i], self.methods[j], int(s[i, j]), int(w[i, j]), int(e[i, j]),
                             int(w[j, i])))
        return pd.DataFrame(rows, columns=["method_a", "method_b", "n_datasets", "wins_a", "n_equivalent", "wins_b"])

    def summary(self) -> str:
        """Wins, equivalences and shared datasets of every pair, a line each (the first few)."""
        frame = self.to_frame()
        rope = "" if math.isnan(self.rope) else f", rope {self.rope:g}"
        lines = [f"Pairwise counts of {len(self.methods)} methods ({self.direction}{rope}): "
                 "wins of a / within the rope / wins of b, on the shared datasets"]
        for r in frame.head(SHOWN_PAIRS).itertuples():
            lines.append(f"  {r.method_a} vs {r.method_b}: {r.wins_a} / {r.n_equivalent} / {r.wins_b} "
                         f"of {r.n_datasets}")
        if len(frame) > SHOWN_PAIRS:
            lines.append(f"  … ({len(frame) - SHOWN_PAIRS} more pairs)")
        return "\n".join(lines)


def _count_table(name: str, table, k: int | None = None) -> np.ndarray:
    """A square table of non-negative whole counts as int64 (a copy)."""
    arr = np.asarray(table.to_numpy() if isinstance(table, pd.DataFrame) else table)
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1]:
        raise McdaArgumentError(f"`{name}` must be a square table of counts; got shape {arr.shape}", argument=name)
    if k is not None and arr.shape[0] != k:
        raise McdaArgumentError(f"`{name}` must be {k} × {k} like `wins`; got shape {arr.shape}", argument=name)
    if arr.dtype.kind not in "iuf":
        raise McdaArgumentTypeError(f"`{name}` must hold numbers (counts); got dtype {arr.dtype}", argument=name)
    values = arr.astype(np.float64)
    bad = ~np.isfinite(values) | (values < 0) | (values != np.round(values))
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise McdaArgumentError(f"`{name}` must hold non-negative whole counts; got {arr[i, j]!r} at [{i}, {j}]",
                                argument=name, value=arr[i, j])
    return values.astype(np.int64)


def _aligned(table, methods, name: str):
    """A labelled square table reordered to ``methods``; arrays pass through."""
    if not isinstance(table, pd.DataFrame):
        return table
    table = table.set_axis([str(m) for m in table.index], axis=0).set_axis([str(c) for c in table.columns], axis=1)
    missing = sorted(set(methods) - set(table.index) | set(methods) - set(table.columns))
    if missing:
        raise McdaArgumentError(f"a table passed with `wins` lacks the labels {missing}", argument=name)
    return table.loc[methods, methods]


def counts_from_cube(cube, rope) -> PairwiseCounts:
    """:func:`pairwise_counts` of a cube that a public function has just validated (the validate-once
    rule: callers inside mcda hand their checked cube on instead of validating it a second time)."""
    rope = resolve_rope(cube, rope)
    wins, equivalent, shared = region_counts(cube, rope)
    methods = [str(m) for m in cube.coords["method"].values]
    idx = pd.Index(methods, name="method")
    frame = lambda a: pd.DataFrame(a, index=idx, columns=idx.rename("versus"))  # noqa: E731
    return PairwiseCounts(methods=methods, wins=frame(wins), n_equivalent=frame(equivalent),
                          n_shared=frame(shared), rope=rope, direction=str(cube.attrs["direction"]),
                          n_datasets=int(cube.sizes["dataset"]))
