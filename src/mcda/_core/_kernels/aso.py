"""Almost stochastic order (numba): violation ratios of quantile functions and their bootstrap.

The empirical quantile function of sorted scores x_(1) <= ... <= x_(n) is
F⁻¹(t) = x_(⌈n t⌉) for t in (0, 1] (x_(1) at t = 0), the convention of del Barrio et al.,
Dror et al.'s code and deepsig. Two such step functions are compared through their
*segments*: pieces of (0, 1) on which both are constant, each given as the index of the
score of either sample and its weight. The violation ratio of A against B is

    ε_W = Σ_s w'_s (b[j_s] − a[i_s])₊² / Σ_s w_s (b[j_s] − a[i_s])²,

the share of the squared Wasserstein distance on which A's quantile function lies below B's
(A worse, scores oriented so that higher is better). On the exact segments (the common
refinement of the two step functions) both weights are the segments' lengths and the sums
are the integrals themselves; a grid quadrature gives other weights. Differences within
``tol`` of zero (the tie rule's rounding of one subtraction) count as 0.

Resamples are drawn by the caller: each row of ``uniforms`` (values in [0, 1), from the
caller's ``rng``) draws one bootstrap sample through the quantile function, x_(⌈n u⌉)
(x_(1) for u = 0), which is how Dror et al.'s code and deepsig resample.
"""

from __future__ import annotations

import numpy as np

from mcda._core._kernels._jit import jit

__all__ = ["resample_sorted", "violation_ratios"]


@jit()
def resample_sorted(values, uniforms):
    """The sorted bootstrap samples drawn by the rows of ``uniforms``: (resamples, n).

    ``values``: the n sorted scores; ``uniforms``: (resamples, n) floats in [0, 1). The sample
    is sorted by counting how often each order statistic was drawn.
    """
    n_draws, n = uniforms.shape
    out = np.empty((n_draws, n))
    counts = np.zeros(n, dtype=np.int64)
    for b in range(n_draws):
        counts[:] = 0
        for i in range(n):
            k = np.int64(np.ceil(n * uniforms[b, i])) - 1
            if k < 0:
                k = 0
            elif k > n - 1:
                k = n - 1
            counts[k] += 1
        position = 0
        for k in range(n):
            for _ in range(counts[k]):
                out[b, position] = values[k]
                position += 1
    return out


@jit()
def violation_ratios(samples, method_a, method_b, index_a, index_b, weight, weight_violation, tol, out):
    """Violation ratio of every pair on every row of ``samples``.

    ``samples``: (methods, rows, n_max) sorted samples per method and row (row 0 the observed
    scores, the others resamples; only the first n of a method's row are read, n being fixed by
    the segments); pair p compares ``method_a[p]`` (A) with ``method_b[p]`` (B). ``index_a``,
    ``index_b``, ``weight``, ``weight_violation``: the segments; ``tol[p]``: the tie tolerance of
    the pair. ``out[p, r]`` gets ε_W of row r, NaN where every difference is 0 (no distance).
    """
    n_pairs = method_a.shape[0]
    n_rows = samples.shape[1]
    n_segments = index_a.shape[0]
    for p in range(n_pairs):
        a = method_a[p]
        b = method_b[p]
        for r in range(n_rows):
            total = 0.0
            violation = 0.0
            for s in range(n_segments):
                d = samples[b, r, index_b[s]] - samples[a, r, index_a[s]]
                if abs(d) <= tol[p]:
                    continue
                total += weight[s] * d * d
                if d > 0.0:
                    violation += weight_violation[s] * d * d
            out[p, r] = violation / total if total > 0.0 else np.nan
