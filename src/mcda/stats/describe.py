"""Descriptive statistics of each method's scores across datasets (count, mean, std, min, max).

One block → combine → finalize statistic (:mod:`mcda.data.blocks` runs it in memory or chunk-wise
on a dask-backed cube): the statistics of two blocks of datasets combine exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from mcda.data import blocks as _chunks
from mcda._core.results import Result, states_scale
from mcda.data.checks import cube_direction, cube_metric
from mcda.data.cube import single_score_cube

__all__ = ["MethodSummary", "method_summary"]


def _summary_block(v: np.ndarray, offset: int):
    """Block: per method the count, mean, M2 = Σ (x − mean)², minimum and maximum, and the datasets."""
    present = ~np.isnan(v)
    n = present.sum(axis=0).astype(np.int64)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(present, v, 0.0).sum(axis=0) / n
    deviations = np.where(present, v - mean, 0.0)
    m2 = np.einsum("ij,ij->j", deviations, deviations)
    return n, np.where(n > 0, mean, 0.0), m2, np.fmin.reduce(v, axis=0), np.fmax.reduce(v, axis=0), \
        np.int64(v.shape[0])


def _combine_summary(a, b):
    """Chan, Golub & LeVeque's update of (n, mean, M2) for the union of two blocks; min / max / rows."""
    na, ma, sa, lo_a, hi_a, ra = a
    nb, mb, sb, lo_b, hi_b, rb = b
    n = na + nb
    with np.errstate(invalid="ignore", divide="ignore"):
        delta = mb - ma
        mean = np.where(n > 0, ma + delta * np.where(n > 0, nb / n, 0.0), 0.0)
        m2 = sa + sb + np.where(n > 0, delta * delta * na * nb / np.where(n > 0, n, 1), 0.0)
    return n, mean, m2, np.fmin(lo_a, lo_b), np.fmax(hi_a, hi_b), ra + rb


@dataclass(frozen=True, repr=False)
class MethodSummary(Result):
    """Summary statistics of each method's scores across datasets, in the metric's own units.

    Attributes
    ----------
    methods : list of str
    n_results : pandas.Series
        Datasets with a result, per method.
    n_missing : pandas.Series
        Datasets without one (NaN cells), per method.
    mean, std, min, max : pandas.Series
        Over the datasets with a result (``std`` with ddof = 1; NaN with fewer than 2 results;
        all NaN for a method without results).
    n_datasets : int
        Datasets in the cube.
    metric : str
    direction : str
    lazy : bool
        Whether it was computed chunk-wise from a dask-backed cube.
    """

    methods: list
    n_results: pd.Series
    n_missing: pd.Series
    mean: pd.Series
    std: pd.Series
    min: pd.Series
    max: pd.Series
    n_datasets: int
    metric: str
    direction: str
    lazy: bool = False

    def to_frame(self) -> pd.DataFrame:
        """One row per method, in the cube's order: ``method, n_results, n_missing, mean, std, min, max``."""
        return pd.DataFrame({"method": self.methods, "n_results": self.n_results.to_numpy(),
                             "n_missing": self.n_missing.to_numpy(), "mean": self.mean.to_numpy(),
                             "std": self.std.to_numpy(), "min": self.min.to_numpy(), "max": self.max.to_numpy()})

    def summary(self) -> str:
        what = f"{self.metric} ({self.direction})" if self.metric else self.direction
        lines = [f"Method summary of {what} over {self.n_datasets} datasets"
                 + (", computed chunk-wise" if self.lazy else "")]
        frame = self.to_frame()
        width = max(len("method"), *(len(m) for m in frame["method"]))
        lines.append(f"  {'method':<{width}}  {'n':>9}  {'missing':>7}  {'mean':>10}  {'std':>10}  "
                     f"{'min':>10}  {'max':>10}")
        for row in frame.itertuples(index=False):
            lines.append(f"  {row.method:<{width}}  {row.n_results:>9}  {row.n_missing:>7}  {row.mean:10.4g}  "
                         f"{row.std:10.4g}  {row.min:10.4g}  {row.max:10.4g}")
        return "\n".join(lines)


@states_scale
def method_summary(scores, direction=None, *, method_names=None) -> MethodSummary:
    """Count, mean, standard deviation, minimum and maximum of each method's scores across datasets.

    The same reduction runs in memory and, block by block, on a dask-backed cube (chunked
    along ``dataset``) without loading it: the statistics of two blocks combine exactly.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube` (one score per dataset and method)
        A lazy cube (:func:`mcda.store.open_cube`) is reduced chunk-wise.
    direction : {"higher_is_better", "lower_is_better"}, optional
        As in :func:`mcda.data.cube.as_cube`.
    method_names : sequence of str, optional
        As in :func:`mcda.data.cube.as_cube`.

    Returns
    -------
    MethodSummary
        ``methods``, ``n_results``, ``n_missing``, ``mean``, ``std``, ``min``, ``max``
        (Series by method, in the metric's own units), ``n_datasets``, ``metric``,
        ``direction``, ``lazy``; ``to_frame()`` gives one row per method.

    Raises
    ------
    ValueError
        Scores with a ``seed`` or other extra dim (reduce or select first), infinite scores.

    Notes
    -----
    Missing cells (NaN) are left out of each method's statistics and counted in ``n_missing``;
    nothing is imputed. Per block B the reduction keeps n_B, the mean x̄_B, M2_B = Σ (x − x̄_B)²,
    the minimum and the maximum; two blocks combine as n = n_A + n_B,
    x̄ = x̄_A + δ n_B / n and M2 = M2_A + M2_B + δ² n_A n_B / n with δ = x̄_B − x̄_A
    (Chan, Golub & LeVeque 1983), which is numerically stable and exact up to rounding, so
    the chunk-wise and in-memory results agree to floating-point tolerance.
    ``std`` = √(M2 / (n − 1)). Medians and other quantiles are not combinable this way and
    are not reported. These are descriptive statistics of scores on different datasets,
    which are not on a common scale: compare methods with the ranks or the pairwise counts.

    References
    ----------
    Chan, T. F., Golub, G. H. & LeVeque, R. J. (1983). Algorithms for computing the sample
    variance: analysis and recommendations. The American Statistician 37(3):242–247.
    https://doi.org/10.1080/00031305.1983.10483115

    Examples
    --------
    >>> import mcda
    >>> s = mcda.method_summary(mcda.datasets.load("demsar2006"))
    >>> s.to_frame().round(4).to_dict("records")[0]
    {'method': 'C4.5', 'n_results': 14, 'n_missing': 0, 'mean': 0.8049, 'std': 0.1602, 'min': 0.583, 'max': 1.0}
    """
    cube = single_score_cube(scores, direction, method_names=method_names, what="method_summary")
    methods = [str(m) for m in cube.coords["method"].values]
    n, mean, m2, lo, hi, rows = _chunks.reduce(cube, _summary_block, _combine_summary, whole=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        std = np.where(n > 1, np.sqrt(m2 / np.maximum(n - 1, 1)), np.nan)
    mean = np.where(n > 0, mean, np.nan)
    index = pd.Index(methods, name="method")
    series = lambda values, name: pd.Series(values, index=index, name=name)  # noqa: E731
    return MethodSummary(methods=methods, n_results=series(n, "n_results"), n_missing=series(rows - n, "n_missing"),
                         mean=series(mean, "mean"), std=series(std, "std"), min=series(lo, "min"),
                         max=series(hi, "max"), n_datasets=int(rows), metric=cube_metric(cube),
                         direction=str(cube_direction(cube)), lazy=_chunks.is_lazy(cube))
