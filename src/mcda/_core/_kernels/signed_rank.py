"""Loops of the Bayesian signed-rank comparison, linear in the number of datasets per draw.

The posterior share of "b better by more than the rope" in one draw of Dirichlet-process
weights w over the differences z (the pseudo-observation z₀ = 0 included) is

    θ_right = Σ_i Σ_j w_i w_j H(z_i + z_j − 2·rope),  H(s) = 1 if s > 0, ½ if s = 0, 0 otherwise,

and θ_left the same with H(−(z_i + z_j) − 2·rope). The indicator matrix does not depend on
the draw. With z sorted, the j for which z_i + z_j > t form a suffix, those with
z_i + z_j = t a block just before it, and those with z_i + z_j < −t a prefix (floating-point
addition is monotone, so this holds for the computed sums that baycomp compares too). Found
once by two pointers (:func:`sum_boundaries`), they turn each draw's double sum into one
pass of prefix sums of the weights (:func:`signed_rank_shares`): O(n) per draw instead of
baycomp's O(n²). The kernel works on blocks of draws (vectorised across the draws of a
block) and runs every pair that shares the draws over a block while it is in cache.

Each kernel has a plain numpy reference (the full indicator matrix) in
``tests/test_bayesian.py``.
"""

from __future__ import annotations

import numba
import numpy as np

from mcda._core._kernels.dirichlet import _winner

from mcda._core._kernels._jit import jit, run_in_runs

__all__ = ["sum_boundaries", "signed_rank_shares"]


@jit()
def sum_boundaries(z_sorted, low, high):
    """For sorted ``z`` and each k: the first j with z_k + z_j >= low and the first with z_k + z_j > high.

    Returns ``(first_ge, first_gt)``, int64 arrays of length n: positions ``j < first_ge[k]``
    have sums below ``low``, ``first_ge[k] <= j < first_gt[k]`` sums in [low, high] (counted
    as "at the threshold"), the rest above ``high``. ``low == high == t`` is baycomp's exact
    comparison; ``t ∓ tol`` forgives the rounding of the differences.
    """
    n = z_sorted.shape[0]
    first_ge = np.empty(n, dtype=np.int64)
    first_gt = np.empty(n, dtype=np.int64)
    j_ge = n
    j_gt = n
    for k in range(n):
        zk = z_sorted[k]
        while j_ge > 0 and zk + z_sorted[j_ge - 1] >= low:
            j_ge -= 1
        while j_gt > 0 and zk + z_sorted[j_gt - 1] > high:
            j_gt -= 1
        first_ge[k] = j_ge
        first_gt[k] = j_gt
    return first_ge, first_gt


@jit(nogil=True)
def _pair_shares(weights_t, orders, right_ge, right_gt, left_ge, left_gt, with_rope, out, counts, block,
                 first, last):
    """:func:`signed_rank_shares` of the pairs ``first`` … ``last − 1`` (one thread's run; the GIL released)."""
    n, n_draws = weights_t.shape
    keep = out.shape[0] > 0
    prefix = np.empty((n + 1, block))
    right = np.empty(block)
    left = np.empty(block)
    for b0 in range(0, n_draws, block):
        m = min(block, n_draws - b0)
        for p in range(first, last):
            # prefix[k + 1, s]: weight of the k + 1 smallest differences in draw s
            for s in range(m):
                prefix[0, s] = 0.0
            for k in range(n):
                row = orders[p, k]
                for s in range(m):
                    prefix[k + 1, s] = prefix[k, s] + weights_t[row, b0 + s]
            for s in range(m):
                right[s] = 0.0
                left[s] = 0.0
            for k in range(n):
                row = orders[p, k]
                gt = right_gt[p, k]
                ge = right_ge[p, k]
                if gt == ge:
                    for s in range(m):
                        right[s] += weights_t[row, b0 + s] * (prefix[n, s] - prefix[gt, s])
                else:
                    for s in range(m):
                        right[s] += weights_t[row, b0 + s] * ((prefix[n, s] - prefix[gt, s])
                                                              + 0.5 * (prefix[gt, s] - prefix[ge, s]))
                if with_rope:
                    lo = left_ge[p, k]
                    hi = left_gt[p, k]
                    if lo == hi:
                        for s in range(m):
                            left[s] += weights_t[row, b0 + s] * prefix[lo, s]
                    else:
                        for s in range(m):
                            left[s] += weights_t[row, b0 + s] * (prefix[lo, s]
                                                                 + 0.5 * (prefix[hi, s] - prefix[lo, s]))
            for s in range(m):
                if with_rope:
                    a = left[s]
                    c = right[s]
                    b = -a - c + 1.0
                else:
                    c = right[s]
                    a = -c + 1.0
                    b = 0.0
                if keep:
                    out[p, b0 + s, 0] = a
                    out[p, b0 + s, 1] = b
                    out[p, b0 + s, 2] = c
                counts[p, _winner(a, b, c)] += 1


_PAIRS_PER_THREAD = 4  # fewer pairs than this per thread: one thread does them all


def signed_rank_shares(weights_t, orders, right_ge, right_gt, left_ge, left_gt, with_rope, out, counts, block,
                       threads=None):
    """Region shares of every posterior draw, for several pairs sharing the same draws.

    Parameters
    ----------
    weights_t : float64 (n, n_draws)
        Dirichlet weights, one column per draw; row c belongs to observation c (transposed
        so that a block of draws is contiguous for every observation).
    orders : int64 (n_pairs, n)
        ``orders[p, k]``: the observation (row of ``weights_t``) holding pair p's k-th
        smallest difference.
    right_ge, right_gt : int64 (n_pairs, n)
        :func:`sum_boundaries` of each pair's sorted differences at ``+2·rope``.
    left_ge, left_gt : int64 (n_pairs, n)
        :func:`sum_boundaries` at ``−2·rope`` (unused when ``with_rope`` is False).
    with_rope : bool
        False for rope = 0: then θ_left = 1 − θ_right and the rope share is 0 (as baycomp).
    out : float64 (n_pairs, n_draws, 3)
        Filled with (θ_left, θ_rope, θ_right) per pair and draw; pass shape (0, 0, 3) to
        keep only the counts.
    counts : int64 (n_pairs, 3)
        Incremented by the number of draws in which each region has the largest share
        (first among equals, as ``numpy.argmax``).
    block : int
        Draws processed together (their weights stay in cache across the pairs).
    threads : int, optional
        Threads to spread the pairs over (default ``numba.get_num_threads()``).

    Notes
    -----
    The pairs run in contiguous runs on ``threads`` threads (the compiled loop releases the
    GIL), as :func:`mcda._core._kernels.bootstrap.bootstrap_mean_quantiles` does: no
    ``parallel=True`` kernel to compile. Each run walks the same blocks of draws with its own
    buffers, so every pair's shares and counts come from exactly the serial arithmetic: the
    same numbers for any number of threads.
    """
    n_pairs = orders.shape[0]
    threads = numba.get_num_threads() if threads is None else int(threads)
    threads = max(1, min(threads, n_pairs // _PAIRS_PER_THREAD))
    arguments = (weights_t, orders, right_ge, right_gt, left_ge, left_gt, with_rope, out, counts, block)
    run_in_runs(_pair_shares, arguments, n_pairs, threads)
