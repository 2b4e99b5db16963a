"""Plackett–Luce worths: Caron & Doucet's (2012) Gibbs sampler and the MM algorithm for the mode.

Rankings are flattened: ``order`` holds the item indices of every ranking, best first, and
ranking r occupies ``order[offsets[r]:offsets[r + 1]]`` (a ranking may leave items out: a
partial ranking of the methods with a result). Under the Plackett–Luce model the
probability of a ranking o_1 ≻ … ≻ o_m is Π_{j<m} w_{o_j} / Σ_{l≥j} w_{o_l}.

Gibbs (Caron & Doucet 2012, §3): with independent Gamma(α, 1) priors on the worths (their
normalisation θ = w / Σw then has the Dirichlet(α, …, α) prior of Calvo et al. 2018, since
the likelihood does not depend on the scale), one latent Z_rj ~ Exp(rate Σ_{l≥j} w_{o_l})
per stage j < m of every ranking makes the worths conditionally independent:

    w_k | Z ~ Gamma(α + d_k, rate 1 + Σ_{(r,j): k still unranked at stage j} Z_rj),

d_k the number of stages at which k is chosen. Each sweep ends with Caron & Doucet's scale
move (Σw redrawn from its Gamma(kα, 1) conditional), which leaves θ unchanged but frees the
chain from the scale. Draws come from numba's generator seeded per chain by the caller.

Ties: a tie is an unobserved order of the tied items. Each sweep first proposes, per tie
group, a uniformly shuffled order and accepts it with the ratio of the Plackett–Luce
likelihoods (Metropolis within Gibbs), so the chain targets the posterior given the tied
(coarsened) rankings: their likelihood is the sum over the orders the tie allows.

MM (Hunter 2004): the mode of the posterior of θ under Dirichlet(α) (α = 1: the maximum
likelihood) is the fixed point of w_k ← (d_k + α − 1) / Σ_{(r,j): k unranked at j} 1/R_rj.
"""

from __future__ import annotations

import math

from ._jit import jit
import numpy as np

__all__ = ["sample_chain", "mode"]


@jit()
def _suffix_sums(w, order, lo, hi, suffix):
    """``suffix[p]`` = the worth of the items ranked at p … hi − 1 of one ranking (``order[lo:hi]``):
    the denominators of the Plackett–Luce choice probabilities."""
    acc = 0.0
    for p in range(hi - 1, lo - 1, -1):
        acc += w[order[p]]
        suffix[p] = acc

@jit()
def _chosen_counts(order, offsets, n_items):
    counts = np.zeros(n_items)
    for r in range(offsets.shape[0] - 1):
        for p in range(offsets[r], offsets[r + 1] - 1):
            counts[order[p]] += 1.0
    return counts


@jit()
def _group_loglik(order, lo, hi, g_lo, g_hi, w):
    """The terms of a ranking's log-likelihood at positions g_lo..g_hi-1 (the others do not change
    when the items inside that block are reordered)."""
    below = 0.0
    for p in range(g_hi, hi):
        below += w[order[p]]
    total = 0.0
    acc = below
    for p in range(g_hi - 1, g_lo - 1, -1):
        acc += w[order[p]]
        if p < hi - 1:
            total += math.log(w[order[p]]) - math.log(acc)
    return total


@jit()
def _update_tied_orders(order, offsets, tie_start, tie_stop, tie_ranking, w, scratch):
    """Metropolis step per tie group: a uniformly shuffled order of the group, accepted with the
    likelihood ratio (the order inside a tie is a latent variable with p(σ | w) ∝ PL(σ | w))."""
    for g in range(tie_start.shape[0]):
        r = tie_ranking[g]
        lo, hi = offsets[r], offsets[r + 1]
        a, b = tie_start[g], tie_stop[g]
        old = _group_loglik(order, lo, hi, a, b, w)
        for p in range(a, b):
            scratch[p - a] = order[p]
        for p in range(b - 1, a, -1):  # Fisher-Yates
            q = a + int(np.random.random() * (p - a + 1))
            tmp = order[p]
            order[p] = order[q]
            order[q] = tmp
        new = _group_loglik(order, lo, hi, a, b, w)
        if math.log(1.0 - np.random.random()) > new - old:
            for p in range(a, b):
                order[p] = scratch[p - a]


@jit()
def sample_chain(seed, n_warmup, n_draws, order, offsets, n_items, alpha, start, tie_start, tie_stop, tie_ranking,
                 out):
    """One chain of normalised worths: fills ``out`` (n_draws, n_items) with θ = w / Σw.

    ``tie_start``, ``tie_stop`` (positions in ``order``) and ``tie_ranking`` (its ranking)
    describe the tie groups whose inner order is latent (empty arrays: no ties); ``order`` is
    updated in place.
    """
    np.random.seed(seed)
    n_rank = offsets.shape[0] - 1
    w = start.copy()
    rate = np.empty(n_items)
    suffix = np.empty(order.shape[0])
    scratch = np.empty(order.shape[0], dtype=np.int64)
    chosen = _chosen_counts(order, offsets, n_items)
    for it in range(n_warmup + n_draws):
        if tie_start.shape[0]:
            _update_tied_orders(order, offsets, tie_start, tie_stop, tie_ranking, w, scratch)
            chosen = _chosen_counts(order, offsets, n_items)
        for k in range(n_items):
            rate[k] = 1.0
        for r in range(n_rank):
            lo = offsets[r]
            hi = offsets[r + 1]
            if hi - lo < 2:
                continue
            _suffix_sums(w, order, lo, hi, suffix)
            prefix = 0.0
            for p in range(lo, hi):
                if p < hi - 1:
                    prefix += np.random.exponential(1.0 / suffix[p])
                rate[order[p]] += prefix
        total = 0.0
        for k in range(n_items):
            w[k] = np.random.gamma(alpha + chosen[k], 1.0 / rate[k])
            total += w[k]
        # the scale move: Σw | θ ~ Gamma(n_items · α, 1)
        new_total = np.random.gamma(n_items * alpha, 1.0)
        for k in range(n_items):
            w[k] *= new_total / total
        if it >= n_warmup:
            row = it - n_warmup
            for k in range(n_items):
                out[row, k] = w[k] / new_total


@jit()
def mode(order, offsets, n_items, alpha, max_iter, tol):
    """The posterior mode of θ under Dirichlet(α) by MM; returns (θ, iterations, converged)."""
    n_rank = offsets.shape[0] - 1
    chosen = _chosen_counts(order, offsets, n_items)
    w = np.full(n_items, 1.0 / n_items)
    denom = np.empty(n_items)
    suffix = np.empty(order.shape[0])
    for it in range(max_iter):
        for k in range(n_items):
            denom[k] = 0.0
        for r in range(n_rank):
            lo = offsets[r]
            hi = offsets[r + 1]
            if hi - lo < 2:
                continue
            _suffix_sums(w, order, lo, hi, suffix)
            prefix = 0.0
            for p in range(lo, hi):
                if p < hi - 1:
                    prefix += 1.0 / suffix[p]
                denom[order[p]] += prefix
        change = 0.0
        total = 0.0
        new = np.empty(n_items)
        for k in range(n_items):
            new[k] = max(chosen[k] + alpha - 1.0, 0.0) / denom[k] if denom[k] > 0 else 0.0
            total += new[k]
        for k in range(n_items):
            new[k] /= total
            change = max(change, abs(new[k] - w[k]))
            w[k] = new[k]
        if change < tol:
            return w, it + 1, True
    return w, max_iter, False
