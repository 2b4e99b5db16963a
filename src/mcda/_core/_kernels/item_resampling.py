"""Resampling over items: sign flips and cluster bootstrap draws, and what the pairs read off them (numba).

The units resampled are the clusters of a test set (each item its own cluster when there are
none). Their per-method sums ``U`` (units × methods) are all a paired statistic over items
needs: a row of draws ``r`` (a sign per unit, or a count per unit) gives every method's
resampled sum at once as ``r @ U``, so one matrix product serves every pair of methods, and a
pair's resampled difference is the difference of two columns.

Random draws come from the caller: one 64-bit ``key`` (drawn from the caller's ``rng`` and
mixed with what the draws depend on) starts a SplitMix64 stream (Steele, Lea & Flood 2014),
output w = 0, 1, … being ``mix(key + (w + 1) · GOLDEN)``:

- **signs**: resample b, unit c reads bit ``c % 64`` (low bit first) of output
  ``b · ceil(C / 64) + c // 64``; a set bit is +1, a clear one −1;
- **counts**: resample b takes C draws; draw j reads output ``b · C + j``, whose top 53 bits as
  a uniform u in [0, 1) give the unit ``floor(u · C)`` (a bias below C · 2**-53).

A resample's draws depend only on its index and the key, so the draws are the same whatever
the blocks of resamples they are made in. The stream is simple on purpose: the tests rebuild
it in plain Python integers.

References
----------
Steele, G. L., Lea, D. and Flood, C. H. (2014). Fast splittable pseudorandom number
generators. OOPSLA 2014. https://doi.org/10.1145/2660193.2660195
"""

from __future__ import annotations

import numpy as np

from mcda._core._kernels._jit import jit
from mcda._core._kernels.bootstrap import GOLDEN, _lerp, _mix, _order_pair
from mcda._core.numeric import EPS, SCORE_ULPS

__all__ = ["sign_rows", "exact_sign_rows", "count_rows", "pair_spreads", "jackknife_acceleration", "exceedances",
           "below_counts", "pair_quantiles"]

_S11 = np.uint64(11)
_UNIT = 1.0 / 9007199254740992.0  # 2**-53


@jit(nogil=True)
def sign_rows(key, first, last, n_units, out):
    """Rows ``first:last`` of the random sign draws (±1.0) into ``out[0:last - first, 0:n_units]``."""
    words = (n_units + 63) // 64
    for b in range(first, last):
        row = b - first
        start = np.uint64(b) * np.uint64(words)
        for w in range(words):
            bits = _mix(key + (start + np.uint64(w) + np.uint64(1)) * GOLDEN)
            stop = min(64, n_units - 64 * w)
            for t in range(stop):
                out[row, 64 * w + t] = 1.0 if (bits >> np.uint64(t)) & np.uint64(1) else -1.0


@jit(nogil=True)
def exact_sign_rows(first, last, n_units, out):
    """Rows ``first:last`` of every sign vector: row b flips unit c when bit c of b is set (b < 2**n_units)."""
    for b in range(first, last):
        row = b - first
        for c in range(n_units):
            out[row, c] = -1.0 if (b >> c) & 1 else 1.0


@jit(nogil=True)
def count_rows(key, first, last, n_units, out):
    """Rows ``first:last`` of the bootstrap counts (how often each unit is drawn, as float64) into ``out``."""
    n64 = np.uint64(n_units)
    for b in range(first, last):
        row = b - first
        for c in range(n_units):
            out[row, c] = 0.0
        start = np.uint64(b) * n64
        for j in range(n_units):
            w = _mix(key + (start + np.uint64(j) + np.uint64(1)) * GOLDEN)
            unit = int(float(w >> _S11) * _UNIT * n_units)
            out[row, min(unit, n_units - 1)] += 1.0


@jit(nogil=True)
def exceedances(sums, pair_a, pair_b, observed, tolerance, alternative, counts):
    """Add to ``counts[p]`` the rows of ``sums`` whose difference of columns a − b is at least as extreme
    as ``observed[p]``: |d| ≥ |observed| − tolerance (alternative 0), d ≥ observed − tolerance (1) or
    d ≤ observed + tolerance (−1)."""
    n_rows = sums.shape[0]
    for p in range(pair_a.shape[0]):
        a = pair_a[p]
        b = pair_b[p]
        t = observed[p]
        tol = tolerance[p]
        hits = 0
        if alternative == 0:
            bound = abs(t) - tol
            for r in range(n_rows):
                hits += abs(sums[r, a] - sums[r, b]) >= bound
        elif alternative == 1:
            for r in range(n_rows):
                hits += sums[r, a] - sums[r, b] >= t - tol
        else:
            for r in range(n_rows):
                hits += sums[r, a] - sums[r, b] <= t + tol
        counts[p] += hits


@jit(nogil=True)
def below_counts(sums, sizes, pair_a, pair_b, observed, counts):
    """``counts[p]``: the resamples whose mean difference (column a − b of ``sums``, over ``sizes``) is below
    ``observed[p]`` plus those at or below it (twice the share below, ties counted half: the bias correction
    of a BCa interval, as scipy's)."""
    for p in range(pair_a.shape[0]):
        a = pair_a[p]
        b = pair_b[p]
        hits = 0
        for r in range(sums.shape[0]):
            d = (sums[r, a] - sums[r, b]) / sizes[r]
            hits += (d < observed[p]) + (d <= observed[p])
        counts[p] = hits


@jit(nogil=True)
def pair_quantiles(sums, sizes, pair_a, pair_b, probs, out):
    """``out[p, q]``: quantile ``probs[p, q]`` (numpy's "linear") of the resampled mean differences of pair p,
    (``sums[:, a] − sums[:, b]) / sizes``."""
    n = sums.shape[0]
    diffs = np.empty(n)
    sample = np.empty(min(256, n))
    buf = np.empty(n)
    for p in range(pair_a.shape[0]):
        a = pair_a[p]
        b = pair_b[p]
        for r in range(n):
            diffs[r] = (sums[r, a] - sums[r, b]) / sizes[r]
        for q in range(probs.shape[1]):
            h = (n - 1) * probs[p, q]
            lo = min(int(np.floor(h)), n - 1)
            gamma = h - lo
            hi = lo + 1 if (gamma > 0.0 and lo + 1 < n) else lo
            x_lo, x_hi = _order_pair(diffs, lo, hi, sample, buf)
            out[p, q] = _lerp(x_lo, x_hi, gamma) if hi > lo else x_lo


@jit(nogil=True)
def pair_spreads(sums, pair_a, pair_b, absolute, identical):
    """Per pair p: ``absolute[p]`` = Σ_c |sums[c, a] − sums[c, b]| and ``identical[p]``: every unit's difference
    is within the rounding of its subtraction (the tie rule of :mod:`mcda._core.numeric`)."""
    for p in range(pair_a.shape[0]):
        a = pair_a[p]
        b = pair_b[p]
        total = 0.0
        same = True
        for c in range(sums.shape[0]):
            x = sums[c, a]
            y = sums[c, b]
            d = abs(x - y)
            total += d
            if d > SCORE_ULPS * EPS * max(abs(x), abs(y)):
                same = False
        absolute[p] = total
        identical[p] = same


@jit(nogil=True)
def jackknife_acceleration(sums, sizes, pair_a, pair_b, out):
    """The BCa acceleration of each pair's mean difference from its leave-one-unit-out means
    θ_(c) = (S − D_c) / (N − n_c): Σ u³ / (6 (Σ u²)^1.5), u = mean(θ_(·)) − θ_(c) (NaN when Σ u² is 0)."""
    n_units = sums.shape[0]
    total_size = 0.0
    for c in range(n_units):
        total_size += sizes[c]
    for p in range(pair_a.shape[0]):
        a = pair_a[p]
        b = pair_b[p]
        total = 0.0
        for c in range(n_units):
            total += sums[c, a] - sums[c, b]
        mean = 0.0
        for c in range(n_units):
            mean += (total - (sums[c, a] - sums[c, b])) / (total_size - sizes[c])
        mean /= n_units
        num = 0.0
        den = 0.0
        for c in range(n_units):
            u = mean - (total - (sums[c, a] - sums[c, b])) / (total_size - sizes[c])
            num += u * u * u
            den += u * u
        out[p] = num / (6.0 * den ** 1.5) if den > 0.0 else np.nan
