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

Tail moves: when the data order some methods below others in every ranking (complete
separation, common at the bottom of 50 methods), the posterior of their log-worth gaps is wide and
the Gibbs step moves through it in steps of about 1/√(rankings): R-hat 1.17 on 20 datasets of 50
methods. So each sweep also makes n_items // 2 Metropolis moves on the scale of the items c … n − 1
(in the data's order, best first) against the others: log w_j += ε for j ≥ c, c uniform and ε normal
with a standard deviation log-uniform on [0.1, 3] (a symmetric proposal in log w).

Ties: a tie is an unobserved order of the tied items. Each sweep first updates, per tie group,
that order by Metropolis steps (a Plackett–Luce draw of the group alone, then swaps of
neighbours; ``_update_tied_orders``), so the chain targets the posterior given the tied
(coarsened) rankings: their likelihood is the sum over the orders the tie allows.

MM (Hunter 2004): the mode of the posterior of θ under Dirichlet(α) (α = 1: the maximum
likelihood) is the fixed point of w_k ← (d_k + α − 1) / Σ_{(r,j): k unranked at j} 1/R_rj.
"""

from __future__ import annotations

import math

from mcda._core._kernels._jit import jit
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


@jit(inline="always")
def _standard_normal():
    """A N(0, 1) draw by Box-Muller (numba's np.random.normal adds a second of compilation)."""
    return math.sqrt(-2.0 * math.log(1.0 - np.random.random())) * math.cos(2.0 * math.pi * np.random.random())


@jit()
def _gamma(shape, scale):
    """A Gamma(shape, scale) draw by Marsaglia & Tsang (2000), with Box-Muller normals (numba's
    np.random.gamma adds a second of compilation to every kernel that calls it); shape < 1 by
    Gamma(shape + 1) · U^(1/shape)."""
    boost = 1.0
    if shape < 1.0:
        boost = (1.0 - np.random.random()) ** (1.0 / shape)
        shape += 1.0
    d = shape - 1.0 / 3.0
    c = 1.0 / math.sqrt(9.0 * d)
    while True:
        x = _standard_normal()
        v = 1.0 + c * x
        if v <= 0.0:
            continue
        v = v * v * v
        if math.log(1.0 - np.random.random()) < 0.5 * x * x + d - d * v + d * math.log(v):
            return d * v * scale * boost


@jit()
def _chosen_counts(order, offsets, n_items):
    counts = np.zeros(n_items)
    for r in range(offsets.shape[0] - 1):
        for p in range(offsets[r], offsets[r + 1] - 1):
            counts[order[p]] += 1.0
    return counts


@jit()
def _group_terms(order, a, b, below, w):
    """Σ log(S_p − below) − Σ log(S_p) over the group's places p = a … b − 1 (S_p = ``below`` + the
    group's worth from p on): the log-likelihood of the order inside the group, up to the Π w that
    no order changes, minus its log-probability under a Plackett–Luce draw of the group alone."""
    total = 0.0
    acc = 0.0
    for p in range(b - 1, a - 1, -1):
        acc += w[order[p]]
        total += math.log(acc) - math.log(below + acc)
    return total


@jit()
def _update_tied_orders(order, offsets, tie_start, tie_stop, tie_ranking, w, suffix, scratch, keys, draw,
                        swaps_per_item):
    """Metropolis steps on the order inside every tie group (a latent variable with p(σ | w) ∝ PL(σ | w)).

    Per group of g items, at places a … b − 1 with the worth S_below ranked below it:

    - with ``draw``, a Plackett–Luce draw of the group alone (by sorting log w + Gumbel noise,
      largest first) as an independence proposal: exact when nothing is ranked below the group,
      accepted often when little is;
    - then ``swaps_per_item`` · g swaps of two neighbours chosen uniformly. Swapping x (at p) and
      y (at p + 1) changes only the term at p + 1: with S the worth ranked below p + 1, the
      log-likelihood changes by log(S + w_y) − log(S + w_x) (also at the ranking's end, S = 0).

    Each move leaves p(σ | w) invariant (the tests check each alone). A uniform shuffle of the whole
    group, the first version, is almost never accepted in the middle of a long ranking (found on 20
    datasets of 50 methods: R-hat 1.4); added to these two moves it did not help.
    """
    for g in range(tie_start.shape[0]):
        hi = offsets[tie_ranking[g] + 1]
        a, b = tie_start[g], tie_stop[g]
        below = 0.0
        for p in range(b, hi):
            below += w[order[p]]
        if draw:
            old = _group_terms(order, a, b, below, w)
            for p in range(a, b):
                scratch[p - a] = order[p]
                keys[p - a] = math.log(w[order[p]]) - math.log(-math.log(1.0 - np.random.random()))
            for p in range(a + 1, b):
                key = keys[p - a]
                item = order[p]
                q = p
                while q > a and keys[q - 1 - a] < key:
                    keys[q - a] = keys[q - 1 - a]
                    order[q] = order[q - 1]
                    q -= 1
                keys[q - a] = key
                order[q] = item
            if math.log(1.0 - np.random.random()) > _group_terms(order, a, b, below, w) - old:
                for p in range(a, b):
                    order[p] = scratch[p - a]
        acc = below
        for p in range(b - 1, a - 1, -1):
            acc += w[order[p]]
            suffix[p] = acc
        for _ in range(swaps_per_item * (b - a)):
            p = a + int(np.random.random() * (b - a - 1))
            under = suffix[p + 2] if p + 2 < b else below
            first = order[p]
            second = order[p + 1]
            if math.log(1.0 - np.random.random()) < math.log(under + w[second]) - math.log(under + w[first]):
                order[p] = second
                order[p + 1] = first
                suffix[p + 1] = under + w[first]


@jit()
def _tail_scale_move(w, order, offsets, chosen, alpha):
    """Metropolis move on the scale of the items c … n−1 (the data's order, best first) against the
    others: log w_j += ε for j ≥ c, ε ~ N(0, s²), c uniform and s log-uniform on [0.1, 3] (symmetric
    in log w, so the acceptance ratio is the posterior ratio times the Jacobian e^{ε·|tail|})."""
    n_items = w.shape[0]
    c = 1 + int(np.random.random() * (n_items - 1))
    eps = _standard_normal() * 0.1 * math.exp(3.4 * np.random.random())  # s log-uniform on [0.1, 3]
    grow = math.exp(eps)
    delta = 0.0
    for j in range(c, n_items):
        delta += (alpha + chosen[j]) * eps - w[j] * (grow - 1.0)
    for r in range(offsets.shape[0] - 1):
        lo = offsets[r]
        hi = offsets[r + 1]
        a = 0.0
        b = 0.0
        for p in range(hi - 1, lo - 1, -1):
            if order[p] >= c:
                b += w[order[p]]
            else:
                a += w[order[p]]
            if p < hi - 1:
                delta -= math.log(a + grow * b) - math.log(a + b)
    if math.log(1.0 - np.random.random()) < delta:
        for j in range(c, n_items):
            w[j] *= grow


@jit(nogil=True)
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
    keys = np.empty(order.shape[0])
    chosen = _chosen_counts(order, offsets, n_items)
    n_tail_moves = n_items // 2 if n_items > 2 else 0
    for it in range(n_warmup + n_draws):
        if tie_start.shape[0]:
            _update_tied_orders(order, offsets, tie_start, tie_stop, tie_ranking, w, suffix, scratch, keys, True, 8)
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
                    prefix -= math.log(1.0 - np.random.random()) / suffix[p]  # Exp(rate suffix[p])
                rate[order[p]] += prefix
        for k in range(n_items):
            w[k] = _gamma(alpha + chosen[k], 1.0 / rate[k])
        for _ in range(n_tail_moves):
            _tail_scale_move(w, order, offsets, chosen, alpha)
        total = 0.0
        for k in range(n_items):
            total += w[k]
        # the scale move: Σw | θ ~ Gamma(n_items · α, 1)
        new_total = _gamma(n_items * alpha, 1.0)
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
