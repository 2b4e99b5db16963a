"""Percentile bootstrap of paired effect sizes, many pairs at once (numba).

The pairs are stored compactly: ``x[offsets[p]:offsets[p + 1]]`` and ``y[...]`` are the
paired observations (datasets, or seeds) of pair ``p``. A resample draws n units with
replacement and keeps their pairing. The random stream is the one of
:mod:`mcda._core._kernels.bootstrap`: a pair's key (``cell_keys`` of its values) drives SplitMix64,
output k = ``mix(key + k · GOLDEN)`` (k = 1, 2, …) split into two 32-bit uniforms (low half
first), and a uniform u becomes an index ``(u · n) >> 32`` (Lemire). Unit j of resample b is
uniform b · n + j.

Statistics (``kind``): 0 Cohen's d_z = mean(d) / sd(d), d = x − y; 1 Cohen's d with the
pooled sd of x and y (autorank's); 2 Cliff's δ = P(x > y) − P(x < y) over all n² pairs of
observations (a two-sample statistic); 3 Akinshin's γ as autorank computes it,
(median x − median y) / pooled MAD (MAD scaled by 1.4826). 0/0 is 0 (no effect); c/0 is ±inf.
"""

from __future__ import annotations

import numpy as np

from mcda._core._kernels.bootstrap import GOLDEN, _mix

from mcda._core._kernels._jit import jit

__all__ = ["effect_statistic", "bootstrap_effect_quantiles", "resampled_effects", "KINDS"]

KINDS = {"cohen_d": 0, "cohen_d_pooled": 1, "cliff_delta": 2, "akinshin_gamma": 3}
_S32 = np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)
_MAD_SCALE = 1.4826


@jit()
def _ratio(num, den):
    if den > 0.0:
        return num / den
    if num == 0.0:
        return 0.0
    return np.inf if num > 0 else -np.inf


@jit()
def _median(a):
    s = np.sort(a)
    n = s.shape[0]
    h = n // 2
    if n % 2 == 1:
        return s[h]
    return 0.5 * (s[h - 1] + s[h])


@jit()
def _variance(a):
    n = a.shape[0]
    if n < 2:
        return 0.0
    m = 0.0
    for v in a:
        m += v
    m /= n
    s = 0.0
    for v in a:
        s += (v - m) * (v - m)
    return s / (n - 1)


@jit()
def _cliff(x, y):
    """δ = (2 U_x − n m) / (n m) with U_x the Mann–Whitney count (ties count half), by one sort."""
    n = x.shape[0]
    m = y.shape[0]
    both = np.empty(n + m)
    both[:n] = x
    both[n:] = y
    order = np.argsort(both, kind="mergesort")
    rank_sum_x = 0.0
    i = 0
    total = n + m
    while i < total:
        j = i
        while j + 1 < total and both[order[j + 1]] == both[order[i]]:
            j += 1
        average = 0.5 * (i + j) + 1.0
        for t in range(i, j + 1):
            if order[t] < n:
                rank_sum_x += average
        i = j + 1
    u = rank_sum_x - n * (n + 1) / 2.0
    return (2.0 * u - n * m) / (n * m)


@jit()
def effect_statistic(x, y, kind):
    """The effect size of paired samples ``x``, ``y`` (see the module docstring for ``kind``)."""
    n = x.shape[0]
    if kind == 0:
        d = x - y
        mean = d.sum() / n
        return _ratio(mean, np.sqrt(_variance(d)))
    if kind == 1:
        mean = (x.sum() - y.sum()) / n
        return _ratio(mean, np.sqrt(0.5 * (_variance(x) + _variance(y))))
    if kind == 2:
        return _cliff(x, y)
    mx = _median(x)
    my = _median(y)
    mad_x = _median(np.abs(x - mx)) * _MAD_SCALE
    mad_y = _median(np.abs(y - my)) * _MAD_SCALE
    pooled = np.sqrt(((n - 1) * mad_x * mad_x + (n - 1) * mad_y * mad_y) / (2 * n - 2)) if n > 1 else 0.0
    return _ratio(mx - my, pooled)


@jit()
def _fill(x, y, kind, key, n_resamples, out):
    n = x.shape[0]
    n64 = np.uint64(n)
    xs = np.empty(n)
    ys = np.empty(n)
    j = 0  # index of the next uniform
    word = np.uint64(0)
    for b in range(n_resamples):
        for t in range(n):
            if j % 2 == 0:
                word = _mix(key + np.uint64(j // 2 + 1) * GOLDEN)
                u = word & _LOW32
            else:
                u = word >> _S32
            j += 1
            idx = (u * n64) >> _S32
            xs[t] = x[idx]
            ys[t] = y[idx]
        out[b] = effect_statistic(xs, ys, kind)


@jit()
def _quantile_sorted(a, p):
    """numpy's default ('linear') quantile of a sorted array; equal neighbours (±inf) stay exact."""
    h = (a.shape[0] - 1) * p
    lo = int(np.floor(h))
    hi = min(lo + 1, a.shape[0] - 1)
    if a[lo] == a[hi] or h == lo:
        return a[lo]
    return a[lo] + (h - lo) * (a[hi] - a[lo])


@jit()
def bootstrap_effect_quantiles(x, y, offsets, keys, kind, n_resamples, probs):
    """Percentile-bootstrap quantiles ``probs`` of the effect size of every pair: (pairs, len(probs))."""
    n_pairs = offsets.shape[0] - 1
    out = np.full((n_pairs, probs.shape[0]), np.nan)
    draws = np.empty(n_resamples)
    for p in range(n_pairs):
        lo = offsets[p]
        hi = offsets[p + 1]
        if hi - lo < 2:
            continue
        _fill(x[lo:hi], y[lo:hi], kind, keys[p], n_resamples, draws)
        ordered = np.sort(draws)
        for q in range(probs.shape[0]):
            out[p, q] = _quantile_sorted(ordered, probs[q])
    return out


@jit()
def resampled_effects(x, y, kind, key, n_resamples):
    """The resampled effect sizes of one pair, in draw order (for tests and diagnostics)."""
    out = np.empty(n_resamples)
    _fill(x, y, kind, key, n_resamples, out)
    return out
