"""The sufficient statistics of every statistic over items, block by block.

A block of items (``dataset × method × items[× sample]``, the metric's own units) is reduced to
sums that add across blocks: per (dataset, method) the count, sum and sum of squares of the
item scores; per cluster the squares and cross-products of the cluster sums (the clustered
variance); per (dataset, pair) the cross-products of two methods' scores on the items both
have, the same per cluster, and the discordant counts of binary scores; per dataset the rank
sums and row totals of the items every method has (Friedman, Cochran's Q). :func:`item_sums`
runs them through :func:`mcda.data.blocks.reduce_over_items`: one block in memory, one task
per chunk along ``item`` on a lazy cube, with no cluster split between two blocks.

Scores are shifted by a value per (dataset, method) before they are summed (the mean of the
first items), so the sums of squares do not cancel for scores far from zero.
"""

from __future__ import annotations

import numpy as np

from mcda._core.numeric import rank
from mcda.data import blocks

__all__ = ["item_sums", "two_valued", "FIRST_MISSING"]

#: item positions kept per (dataset, method) to name its missing items
FIRST_MISSING = 5
_PEEK = 256  # items read to choose the shift


def _shift(cube) -> np.ndarray:
    """Per (dataset, method): the mean score of the first items (0 where there is none)."""
    head = np.asarray(cube.isel(item=slice(0, _PEEK)).values, dtype=np.float64)
    head = head.reshape(head.shape[0], head.shape[1], -1)
    present = ~np.isnan(head)
    count = present.sum(axis=2)
    total = np.where(present, head, 0.0).sum(axis=2)
    return np.where(count > 0, total / np.maximum(count, 1), 0.0)


def _item_scores(values: np.ndarray, part: dict) -> np.ndarray:
    """The score of each item: the mean over its samples (and the within-item variance into ``part``)."""
    if values.ndim == 3:
        return values
    present = ~np.isnan(values)
    per_item = present.sum(axis=3)
    filled = np.where(present, values, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        score = np.where(per_item > 0, filled.sum(axis=3) / np.maximum(per_item, 1), np.nan)
        deviation = np.where(present, values - score[..., None], 0.0)
        within = (deviation * deviation).sum(axis=3) / np.maximum(per_item - 1, 1)
    several = per_item >= 2
    part["within_sum"] = np.where(several, within, 0.0).sum(axis=2)
    part["within_count"] = several.sum(axis=2).astype(np.int64)
    part["n_samples"] = per_item.sum(axis=2).astype(np.int64)
    return score


def _first_missing(absent: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """(datasets, methods, FIRST_MISSING) positions of the first absent items (−1 to fill)."""
    d, k, _ = absent.shape
    out = np.full((d, k, FIRST_MISSING), -1, dtype=np.int64)
    for i, j in zip(*np.nonzero(absent.any(axis=2))):
        found = positions[absent[i, j]]
        found = np.sort(found)[:FIRST_MISSING]
        out[i, j, :found.size] = found
    return out


def _cluster_matrix(groups: np.ndarray):
    """(local codes, the items × clusters indicator as a sparse matrix)."""
    from scipy import sparse

    uniques, local = np.unique(groups, return_inverse=True)
    n = groups.size
    return local, sparse.csr_matrix((np.ones(n), (np.arange(n), local)), shape=(n, uniques.size))


def _pair_cluster_sums(e: np.ndarray, m: np.ndarray, local: np.ndarray, indicator) -> tuple:
    """Σ_c T_c², Σ_c m_c T_c, Σ_c m_c², #clusters for every pair of one dataset (K × K each).

    ``T_c[a, b]`` is the sum over the cluster's items both have of ``e_a − e_b``, ``m_c[a, b]``
    their number. Clusters every method has in full are done at once from the per-method
    cluster sums (``T_c = t_a − t_b``); the others one by one.
    """
    k = e.shape[1]
    complete_item = m.all(axis=1)
    whole = np.bincount(local, weights=complete_item.astype(np.float64), minlength=indicator.shape[1]) == \
        np.bincount(local, minlength=indicator.shape[1])
    sums = np.asarray(indicator.T @ e)  # clusters × methods
    sizes = np.bincount(local, minlength=indicator.shape[1]).astype(np.float64)
    t, n_c = sums[whole], sizes[whole]
    cross = t.T @ t
    diag = np.diag(cross)
    q1 = diag[:, None] + diag[None, :] - 2.0 * cross
    u = n_c @ t
    q2 = u[:, None] - u[None, :]
    q3 = np.full((k, k), float(n_c @ n_c))
    g = np.full((k, k), float(np.count_nonzero(n_c)))
    for c in np.flatnonzero(~whole):
        rows = local == c
        ec, mc = e[rows], m[rows].astype(np.float64)
        p = ec.T @ mc
        tc = p - p.T
        mm = mc.T @ mc
        q1 += tc * tc
        q2 += mm * tc
        q3 += mm * mm
        g += mm > 0
    return q1, q2, q3, g


def _block(values, positions, groups, shift, pairs, ranks, sign):
    part: dict = {}
    scores = _item_scores(values, part)
    n_d, k, n_b = scores.shape
    present = ~np.isnan(scores)
    e = np.where(present, scores - shift[:, :, None], 0.0)
    any_present = present.any(axis=1)
    part["n"] = present.sum(axis=2).astype(np.int64)
    part["s1"] = e.sum(axis=2)
    part["s2"] = np.einsum("dki,dki->dk", e, e)
    part["n_items"] = any_present.sum(axis=1).astype(np.int64)
    with np.errstate(invalid="ignore"):
        flat = scores.reshape(n_d, -1)
        fraction = flat - np.floor(flat)
        part["low"], part["high"] = np.fmin.reduce(flat, axis=1), np.fmax.reduce(flat, axis=1)
        part["fraction_low"], part["fraction_high"] = np.fmin.reduce(fraction, axis=1), np.fmax.reduce(fraction, axis=1)
    absent = any_present[:, None, :] & ~present
    part["first_missing"] = _first_missing(absent, positions)
    if groups is None:
        part.update(q1=part["s2"].copy(), q2=part["s1"].copy(), q3=part["n"].astype(np.float64),
                    g=part["n"].astype(np.float64))
    else:
        local, indicator = _cluster_matrix(groups)
        flat_e = e.reshape(n_d * k, n_b)
        flat_m = present.reshape(n_d * k, n_b).astype(np.float64)
        t = np.asarray((indicator.T @ flat_e.T).T)
        c = np.asarray((indicator.T @ flat_m.T).T)
        part.update(q1=(t * t).sum(axis=1).reshape(n_d, k), q2=(c * t).sum(axis=1).reshape(n_d, k),
                    q3=(c * c).sum(axis=1).reshape(n_d, k), g=(c > 0).sum(axis=1).reshape(n_d, k).astype(float))
    if pairs:
        shape = (n_d, k, k)
        out = {name: np.zeros(shape) for name in ("p", "r", "x", "m", "pq1", "pq2", "pq3", "pg")}
        for d in range(n_d):
            ed, md = e[d].T, present[d].T.astype(np.float64)
            x = ed.T @ ed
            if present[d].all():   # every method has every item: the pair sums are the methods' own
                p = np.repeat(part["s1"][d][:, None], k, axis=1)
                r = np.repeat(part["s2"][d][:, None], k, axis=1)
                mm = np.full((k, k), float(n_b))
            else:
                p = ed.T @ md
                r = (ed * ed).T @ md
                mm = md.T @ md
            out["p"][d], out["r"][d], out["x"][d], out["m"][d] = p, r, x, mm
            if groups is None:
                out["pq1"][d] = r + r.T - 2.0 * x
                out["pq2"][d] = p - p.T
                out["pq3"][d] = mm
                out["pg"][d] = mm
            else:
                q1, q2, q3, g = _pair_cluster_sums(ed, present[d].T, local, indicator)
                out["pq1"][d], out["pq2"][d], out["pq3"][d], out["pg"][d] = q1, q2, q3, g
        part.update(out)
    if ranks:
        part["rank_sums"] = np.zeros((n_d, k))
        part["rank_squares"] = np.zeros(n_d)
        part["column_totals"] = np.zeros((n_d, k))
        part["row_totals"] = np.zeros(n_d)
        part["row_squares"] = np.zeros(n_d)
        part["n_complete"] = np.zeros(n_d, dtype=np.int64)
        for d in range(n_d):
            whole = present[d].all(axis=0)
            rows = scores[d][:, whole].T  # complete items × methods
            if rows.shape[0] == 0:
                continue
            ranked = rank(sign * rows, descending=True)  # 1 = best on the item
            part["rank_sums"][d] = ranked.sum(axis=0)
            part["rank_squares"][d] = float(np.einsum("ij,ij->", ranked, ranked))
            totals = rows.sum(axis=1)
            part["column_totals"][d] = rows.sum(axis=0)
            part["row_totals"][d] = totals.sum()
            part["row_squares"][d] = float(totals @ totals)
            part["n_complete"][d] = rows.shape[0]
    return part


_LOWEST = ("low", "fraction_low")
_HIGHEST = ("high", "fraction_high")


def _combine(a: dict, b: dict) -> dict:
    out = {}
    for key, value in a.items():
        if key in _LOWEST:
            out[key] = np.fmin(value, b[key])
        elif key in _HIGHEST:
            out[key] = np.fmax(value, b[key])
        elif key == "first_missing":
            both = np.concatenate([value, b[key]], axis=2)
            both = np.where(both < 0, np.iinfo(np.int64).max, both)
            both = np.sort(both, axis=2)[:, :, :FIRST_MISSING]
            out[key] = np.where(both == np.iinfo(np.int64).max, -1, both)
        else:
            out[key] = value + b[key]
    return out


def item_sums(design, *, pairs: bool = False, ranks: bool = False) -> dict:
    """The combined sufficient statistics of ``design`` (an :class:`~mcda.stats.items.design.ItemDesign`).

    Keys (arrays over datasets × methods unless said): ``shift``; ``n``, ``s1``, ``s2`` (count,
    Σe, Σe² of the shifted item scores e); ``q1``, ``q2``, ``q3``, ``g`` (Σ_c T_c², Σ_c n_c T_c,
    Σ_c n_c², clusters with a score; T_c the cluster's sum of e, n_c its count); ``n_items``
    (per dataset: items any method has); ``low``, ``high``, ``fraction_low``, ``fraction_high``
    (per dataset: the extremes of the item scores and of their fractional parts, read by
    :func:`two_valued`); ``first_missing`` (positions of the first items a method lacks); with samples
    ``within_sum``, ``within_count``, ``n_samples``. With ``pairs`` (datasets × K × K, row a,
    column b, on the items both have): ``p`` (Σ e_a), ``r`` (Σ e_a²), ``x`` (Σ e_a e_b), ``m``
    (count), ``pq1``, ``pq2``, ``pq3``, ``pg`` (the
    cluster sums of the differences e_a − e_b). With ``ranks`` (per dataset, over the items
    every method has): ``rank_sums`` (1 = best), ``rank_squares``, ``column_totals``,
    ``row_totals``, ``row_squares``, ``n_complete``.
    """
    shift = _shift(design.cube)
    part = blocks.reduce_over_items(design.cube, _block, _combine, shift, pairs, ranks, design.sign,
                                    groups=design.clusters)
    part["shift"] = shift
    return part


def two_valued(sums: dict) -> tuple[np.ndarray, np.ndarray]:
    """Per dataset: whether every item score is one of two values a unit apart, ``lo`` or ``lo + 1``
    (0/1 outcomes, in either direction), and ``lo`` (0 when one value 0 or 1 is all there is)."""
    low, high = sums["low"], sums["high"]
    with np.errstate(invalid="ignore"):
        binary = (high - low <= 1.0) & (sums["fraction_low"] == sums["fraction_high"])
    single = binary & (low == high)
    lo = np.where(single & ((low == 0.0) | (low == 1.0)), 0.0, low)
    return binary & np.isfinite(low), np.where(np.isfinite(lo), lo, 0.0)
