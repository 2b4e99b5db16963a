"""Per model over the items of a test set: the mean score with its standard errors and intervals.

:func:`item_means` gives, per (dataset, method), the mean item score with the CLT standard
error, the cluster-robust standard error when the items carry clusters (Miller 2024), the t
interval, the Wilson and Clopper–Pearson intervals of a rate (binary scores) and the
within-item variance when each item was answered several times. :func:`reduce_items` is the
one explicit step from an item cube to a dataset cube: the mean per cell, its standard error
kept beside it as a coordinate.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import xarray as xr
from scipy import stats

from mcda._core.results import states_scale
from mcda._core.validation import check_probability
from mcda.stats.items.design import ItemDesign, prepare_items
from mcda.stats.items.sums import item_sums, two_valued
from mcda.stats.items.tables import ItemTable

__all__ = ["ItemMeans", "item_means", "reduce_items", "cluster_variance", "wilson_interval", "exact_interval"]


def cluster_variance(n, mean_shifted, q1, q2, q3, g):
    """The cluster-robust (CR1) variance of a mean from the cluster sums (any array shape).

    ``G/(G − 1) · Σ_c (T_c − n_c ē)² / n²`` with ``Σ_c (T_c − n_c ē)² = q1 − 2ē q2 + ē² q3``:
    statsmodels' OLS on a constant with ``cov_type="cluster"`` (its default small-sample
    factor G/(G − 1)·(N − 1)/(N − K), K = 1). NaN where there are fewer than 2 clusters.
    """
    with np.errstate(invalid="ignore", divide="ignore"):
        spread = np.maximum(q1 - 2.0 * mean_shifted * q2 + mean_shifted ** 2 * q3, 0.0)
        out = g / (g - 1.0) * spread / (n * n)
    return np.where(g >= 2, out, np.nan)


def wilson_interval(successes, n, confidence_level: float):
    """Wilson's score interval of a rate (arrays), as statsmodels ``proportion_confint(method="wilson")``."""
    z = stats.norm.ppf(0.5 + confidence_level / 2.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = successes / n
        denominator = 1.0 + z * z / n
        centre = (p + z * z / (2.0 * n)) / denominator
        half = z / denominator * np.sqrt(p * (1.0 - p) / n + z * z / (4.0 * n * n))
    return centre - half, centre + half


def exact_interval(successes, n, confidence_level: float):
    """The Clopper–Pearson interval of a rate (arrays), as statsmodels ``proportion_confint(method="beta")``."""
    tail = (1.0 - confidence_level) / 2.0
    with np.errstate(invalid="ignore", divide="ignore"):
        low = np.where(successes > 0, stats.beta.ppf(tail, successes, n - successes + 1), 0.0)
        high = np.where(successes < n, stats.beta.ppf(1.0 - tail, successes + 1, n - successes), 1.0)
    bad = ~(n > 0)
    return np.where(bad, np.nan, low), np.where(bad, np.nan, high)


@dataclass(frozen=True, repr=False)
class ItemMeans(ItemTable):
    """The mean item score per (dataset, method), with its standard errors and intervals.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per (dataset, method): ``dataset, method, n_items`` (items it has a score on),
        ``n_missing`` (items of the dataset another method has and it lacks), ``n_clusters``,
        ``mean``, ``standard_error`` (CLT: sd / √n, sd with ddof 1), ``standard_error_clustered``
        (cluster-robust; NaN without clusters), ``design_effect`` (their squared ratio),
        ``df`` (of the t interval: clusters − 1 with clusters, else items − 1), ``ci_low``,
        ``ci_high`` (t interval on the clustered standard error when there are clusters, else on
        the CLT one), ``naive_ci_low``, ``naive_ci_high`` (the t interval on the CLT standard
        error, items - 1 df: what ignoring the clusters would report; ``ci_low``/``ci_high`` without
        clusters), ``wilson_low``, ``wilson_high``, ``exact_low``, ``exact_high`` (Wilson and
        Clopper–Pearson intervals of the rate; NaN unless every item score of the dataset is
        0 or 1 — or, in general, one of two values a unit apart), ``samples_per_item`` and ``within_item_variance`` (with a ``sample`` dim: answers per
        item, and the mean over items of the variance of an item's answers; NaN otherwise),
        ``reason`` (why a value is NaN, else empty). In the metric's own units.
    confidence_level : float
    clustered : bool
        Whether the items carry clusters.
    binary : dict
        dataset -> whether its item scores are all 0 or 1.
    metric : str or None
    missing_items : pandas.DataFrame
        One row per (dataset, method) that lacks items: ``dataset, method, n_missing,
        first_missing`` (the labels of the first few).
    notes : tuple of str
    """

    table: pd.DataFrame
    confidence_level: float
    clustered: bool
    binary: dict
    metric: str | None
    missing_items: pd.DataFrame
    notes: tuple = ()

    def summary(self) -> str:
        level = f"{self.confidence_level:.0%}"
        head = (f"Mean over items per model ({level} interval on the "
                f"{'cluster-robust' if self.clustered else 'CLT'} standard error)")
        columns = ["dataset", "method", "n_items", "n_missing", "mean", "standard_error"]
        columns += ["standard_error_clustered", "n_clusters"] if self.clustered else []
        columns += ["ci_low", "ci_high"]
        columns += ["wilson_low", "wilson_high"] if any(self.binary.values()) else []
        columns += ["within_item_variance"] if self.table["within_item_variance"].notna().any() else []
        return self._text(head, columns + ["reason"])


def _missing_table(design: ItemDesign, sums: dict, n_missing: np.ndarray) -> pd.DataFrame:
    rows = []
    for i, j in zip(*np.nonzero(n_missing > 0)):
        first = [str(design.items[p]) for p in sums["first_missing"][i, j] if p >= 0]
        rows.append({"dataset": design.datasets[i], "method": design.methods[j], "n_missing": int(n_missing[i, j]),
                     "first_missing": ", ".join(first) + (", …" if n_missing[i, j] > len(first) else "")})
    return pd.DataFrame(rows, columns=["dataset", "method", "n_missing", "first_missing"])


def _means(design: ItemDesign, sums: dict, confidence_level: float) -> ItemMeans:
    n = sums["n"].astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        e_bar = sums["s1"] / n
        mean = sums["shift"] + e_bar
        variance = np.maximum(sums["s2"] - sums["s1"] * e_bar, 0.0) / (n - 1.0)
        se = np.where(n >= 2, np.sqrt(variance / n), np.nan)
    if design.clustered:
        se_cluster = np.sqrt(cluster_variance(n, e_bar, sums["q1"], sums["q2"], sums["q3"], sums["g"]))
        df = sums["g"] - 1.0
        used = se_cluster
    else:
        se_cluster = np.full(n.shape, np.nan)
        df = n - 1.0
        used = se
    with np.errstate(invalid="ignore", divide="ignore"):
        half = np.where(df >= 1, stats.t.ppf(0.5 + confidence_level / 2.0, np.maximum(df, 1.0)), np.nan) * used
        design_effect = (se_cluster / se) ** 2
        naive_half = np.where(n >= 2, stats.t.ppf(0.5 + confidence_level / 2.0, np.maximum(n - 1.0, 1.0)), np.nan) * se
    binary, lo = two_valued(sums)
    successes = np.round(n * (mean - lo[:, None]))  # items scoring lo + 1
    wilson = [lo[:, None] + end for end in wilson_interval(successes, n, confidence_level)]
    exact = [lo[:, None] + end for end in exact_interval(successes, n, confidence_level)]
    rate = binary[:, None] & (n > 0)
    if design.has_samples:
        with np.errstate(invalid="ignore", divide="ignore"):
            within = np.where(sums["within_count"] > 0, sums["within_sum"] / sums["within_count"], np.nan)
            per_item = sums["n_samples"] / n
    else:
        within = per_item = np.full(n.shape, np.nan)
    n_missing = sums["n_items"][:, None] - sums["n"]
    reason = np.where(n == 0, "no item scored", np.where(n == 1, "one item: no standard error", ""))
    if design.clustered:
        reason = np.where((reason == "") & (sums["g"] < 2), "one cluster: no clustered standard error", reason)
    d, k = n.shape
    table = pd.DataFrame({
        "dataset": np.repeat(np.array(design.datasets, dtype=object), k),
        "method": np.tile(np.array(design.methods, dtype=object), d),
        "n_items": sums["n"].ravel(), "n_missing": n_missing.ravel(),
        "n_clusters": (sums["g"] if design.clustered else sums["n"]).astype(np.int64).ravel(),
        "mean": np.where(n > 0, mean, np.nan).ravel(), "standard_error": se.ravel(),
        "standard_error_clustered": se_cluster.ravel(), "design_effect": design_effect.ravel(),
        "df": df.ravel(), "ci_low": (mean - half).ravel(), "ci_high": (mean + half).ravel(),
        "naive_ci_low": (mean - naive_half).ravel(), "naive_ci_high": (mean + naive_half).ravel(),
        "wilson_low": np.where(rate, wilson[0], np.nan).ravel(), "wilson_high": np.where(rate, wilson[1], np.nan).ravel(),
        "exact_low": np.where(rate, exact[0], np.nan).ravel(), "exact_high": np.where(rate, exact[1], np.nan).ravel(),
        "samples_per_item": per_item.ravel(), "within_item_variance": within.ravel(), "reason": reason.ravel(),
    })
    missing = _missing_table(design, sums, n_missing)
    notes = []
    if len(missing):
        notes.append(f"{len(missing)} (dataset, method) cells lack items other methods have; their means are over "
                     "the items they have (see .missing_items)")
    return ItemMeans(table=table, confidence_level=float(confidence_level), clustered=design.clustered,
                     binary=dict(zip(design.datasets, binary.tolist())), metric=design.metric,
                     missing_items=missing, notes=tuple(notes))


@states_scale
def item_means(scores, direction=None, *, confidence_level: float = 0.95, metric=None,
               method_names=None) -> ItemMeans:
    """How good is each model on this test set? The mean item score with honest error bars.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube`
        Per-item scores: a cube with dims ``dataset × method × item`` (and ``sample`` for
        several answers per item), optionally a ``cluster`` coordinate on ``item``; or a tidy
        table with columns ``dataset, method, item, score[, cluster, sample]``. May be lazy
        (dask-backed, chunked along ``item``).
    direction, metric, method_names
        As in :func:`mcda.data.cube.as_cube`.
    confidence_level : float
        Level of every interval.

    Returns
    -------
    ItemMeans
        ``table`` (see ``to_frame()``), ``confidence_level``, ``clustered``, ``binary``,
        ``metric``, ``missing_items``, ``notes``.

    Raises
    ------
    McdaArgumentError
        Scores without an ``item`` dim, other dims beside it (``seed``, several metrics), a
        ``confidence_level`` outside (0, 1).

    Notes
    -----
    With a ``sample`` dim an item's score is the mean of its answers. Over the n items a
    method has, ``mean`` = x̄ and the CLT standard error is s / √n (s with ddof 1: statsmodels'
    OLS on a constant). With clusters (items sharing a passage, a repository, a task) the
    cluster-robust standard error is

        SE² = G / (G − 1) · Σ_c (Σ_{i∈c} (x_i − x̄))² / n²

    over the G clusters: Miller (2024, eq. 4), which has no factor G / (G − 1), times the
    small-sample factor statsmodels applies by default (``cov_type="cluster"``,
    ``use_correction=True``); with every item its own cluster it equals the CLT standard error.
    The interval is x̄ ± t_{G−1} · SE (statsmodels' ``conf_int`` with ``use_t=True``), or
    x̄ ± t_{n−1} · s / √n without clusters. For 0/1 scores the Wilson and the exact
    Clopper–Pearson intervals of the rate are given too (statsmodels ``proportion_confint``,
    ``"wilson"`` and ``"beta"``); they assume independent items. ``within_item_variance`` is the
    mean over items of the variance (ddof 1) of an item's answers: averaging K answers per
    item removes up to within_item_variance / (K n) from SE² (Miller 2024, §4).

    References
    ----------
    Miller, E. (2024). Adding error bars to evals: a statistical approach to language model
    evaluations. arXiv:2411.00640. doi:10.48550/arXiv.2411.00640
    Cameron, A. C., Miller, D. L. (2015). A practitioner's guide to cluster-robust inference.
    Journal of Human Resources 50(2):317–372. doi:10.3368/jhr.50.2.317
    Wilson, E. B. (1927). Probable inference, the law of succession, and statistical inference.
    JASA 22(158):209–212. doi:10.1080/01621459.1927.10502953
    Clopper, C. J., Pearson, E. S. (1934). The use of confidence or fiducial limits illustrated
    in the case of the binomial. Biometrika 26(4):404–413. doi:10.1093/biomet/26.4.404

    Examples
    --------
    >>> import pandas as pd, mcda
    >>> rows = [{"dataset": "qa", "method": m, "item": i, "cluster": f"p{i // 2}", "score": float(s)}
    ...         for m, line in (("a", "11011110"), ("b", "10010100")) for i, s in enumerate(line)]
    >>> res = mcda.item_means(pd.DataFrame(rows), metric="exact_match")
    >>> res.to_frame()[["method", "n_items", "mean", "n_clusters"]].to_string(index=False)
    'method  n_items  mean  n_clusters\\n     a        8 0.750           4\\n     b        8 0.375           4'
    """
    confidence_level = check_probability("confidence_level", confidence_level)
    design = prepare_items(scores, direction, metric=metric, method_names=method_names, what="item_means")
    return _means(design, item_sums(design), confidence_level)


def reduce_items(scores, direction=None, *, metric=None, method_names=None) -> xr.DataArray:
    """The one explicit step from an item cube to a dataset cube: the mean score per (dataset, method).

    Parameters
    ----------
    scores : any input of :func:`item_means`
    direction, metric, method_names
        As in :func:`mcda.data.cube.as_cube`.

    Returns
    -------
    xarray.DataArray
        Dims ``dataset × method``: the mean item score of each cell (NaN where a method has no
        item), the card of the item cube in the attrs, and the coordinates
        ``standard_error`` (dataset, method: the cluster-robust standard error when the items
        carry clusters, else the CLT one, as in :func:`item_means`) and ``n_items`` (items
        each cell was reduced over). ``attrs["items_reduced"]`` records the step. Every
        across-dataset statistic (Friedman, the Bayesian tests, superiority) reads it.

    Notes
    -----
    A method that lacks items of a dataset is reduced over the items it has (its ``n_items``
    says how many; :func:`item_means` names the missing ones). Compare its mean with the
    others' only when the missing items are few.

    Examples
    --------
    >>> import pandas as pd, mcda
    >>> rows = [{"dataset": d, "method": m, "item": i, "score": float((i + j + len(d)) % 3 > 0)}
    ...         for d in ("qa", "code") for j, m in enumerate("ab") for i in range(6)]
    >>> cube = mcda.reduce_items(pd.DataFrame(rows), metric="exact_match")
    >>> cube.dims, [round(float(v), 3) for v in cube.values.ravel()]
    (('dataset', 'method'), [0.667, 0.667, 0.667, 0.667])
    """
    design = prepare_items(scores, direction, metric=metric, method_names=method_names, what="reduce_items")
    frame = _means(design, item_sums(design), 0.95).table
    shape = (len(design.datasets), len(design.methods))
    se = frame["standard_error_clustered" if design.clustered else "standard_error"].to_numpy()
    cube = design.cube
    out = xr.DataArray(frame["mean"].to_numpy().reshape(shape), dims=("dataset", "method"),
                       coords={"dataset": cube.coords["dataset"].values, "method": cube.coords["method"].values},
                       name="score")
    out = out.assign_coords(standard_error=(("dataset", "method"), np.asarray(se, dtype=np.float64).reshape(shape)),
                            n_items=(("dataset", "method"), frame["n_items"].to_numpy().reshape(shape)))
    out.attrs = {k: v for k, v in cube.attrs.items() if k != "oriented"}
    out.attrs["items_reduced"] = "mean" + (" (cluster-robust standard error)" if design.clustered else "")
    return out
