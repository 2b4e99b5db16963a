"""Loops of SMAA-2 (stochastic multicriteria acceptability analysis) over a block of draws.

- :func:`rank_counts`: per draw, the value of every method under its weight vector (a linear
  additive value function of normalised criteria), each method's rank, the rank counts and the
  sums of the weights (and their squares) of the draws in which a method ranks first.
- :func:`first_counts`: per draw, whether each method ranks first under its own central weight
  vector (the confidence factors).
- :func:`seed_means`: measurement draws over seeds: per draw and dataset one seed position, the
  same for every method, and the mean over datasets of the scores of the seeds drawn.

The rank of method i is 1 + the number of methods whose value exceeds its own by more than
``tol`` (Lahdelma & Salminen 2001, ranks from 0 here): tied methods share the better rank, as in
the R package smaa. Every random number comes from the caller (measurement and weight draws,
uniforms); the kernels are deterministic given their inputs. A plain numpy reference of each is
in ``tests/test_smaa.py``.
"""

from __future__ import annotations

import numpy as np

from mcda._core._kernels._jit import jit

__all__ = ["rank_counts", "first_counts", "seed_means"]

_DIRECT_RANKS = 32  # up to this many methods, count the better ones directly (no sort)


@jit()
def _ranks(values, tol, ranks):
    """``ranks[i]`` = the number of j with ``values[j] > values[i] + tol``."""
    k = values.shape[0]
    if k <= _DIRECT_RANKS:
        for i in range(k):
            r = 0
            for j in range(k):
                if values[j] - values[i] > tol:
                    r += 1
            ranks[i] = r
        return
    order = np.argsort(-values)
    for p in range(k):
        i = order[p]
        q = p
        while q > 0 and values[order[q - 1]] - values[i] <= tol:
            q -= 1
        ranks[i] = q


@jit()
def rank_counts(meas, weights, tol, counts, weight_sums, weight_squares):
    """Add a block of draws to the rank counts and the first-rank weight sums, in place.

    Parameters
    ----------
    meas : float64 (n_draws, n_methods, n_criteria)
        Normalised criterion values (higher is better) of each draw.
    weights : float64 (n_draws, n_criteria) or (1, n_criteria)
        The weight vector of each draw (one row: the same weights for every draw).
    tol : float
        Values within ``tol`` are tied.
    counts : int64 (n_methods, n_methods)
        ``counts[i, r]`` += the draws in which method i has rank r (0 = first).
    weight_sums, weight_squares : float64 (n_methods, n_criteria)
        += the weights (their squares) of the draws in which method i ranks first.
    """
    n, k, m = meas.shape
    single = weights.shape[0] == 1
    values = np.empty(k)
    ranks = np.empty(k, dtype=np.int64)
    for b in range(n):
        row = 0 if single else b
        for i in range(k):
            total = 0.0
            for c in range(m):
                total += meas[b, i, c] * weights[row, c]
            values[i] = total
        _ranks(values, tol, ranks)
        for i in range(k):
            r = ranks[i]
            counts[i, r] += 1
            if r == 0:
                for c in range(m):
                    w = weights[row, c]
                    weight_sums[i, c] += w
                    weight_squares[i, c] += w * w


@jit()
def first_counts(meas, central, active, tol, counts):
    """Add a block of draws to the confidence-factor counts, in place.

    ``counts[a]`` += the draws in which method ``active[a]`` ranks first (no method's value
    exceeds its own by more than ``tol``) when every method is valued with ``central[active[a]]``,
    that method's central weight vector (float64 (n_methods, n_criteria)).
    """
    n, k, m = meas.shape
    for b in range(n):
        for a in range(active.shape[0]):
            i = active[a]
            own = 0.0
            for c in range(m):
                own += meas[b, i, c] * central[i, c]
            first = True
            for j in range(k):
                if j == i:
                    continue
                other = 0.0
                for c in range(m):
                    other += meas[b, j, c] * central[i, c]
                if other - own > tol:
                    first = False
                    break
            if first:
                counts[a] += 1


@jit()
def seed_means(values, positions, n_seeds, uniforms, out):
    """Measurement draws over seeds: ``out[b, j, c]`` = mean over datasets d of
    ``values[d, j, positions[d, j, s], c]`` with s = floor(``uniforms[b, d]`` × ``n_seeds[d, j]``).

    ``values`` float64 (n_datasets, n_methods, n_seed_labels, n_criteria); ``positions`` int64
    (n_datasets, n_methods, n_seed_labels): the seed labels of each cell with a result on every
    criterion, first; ``n_seeds`` int64 (n_datasets, n_methods), at least 1; ``uniforms`` float64
    (n_draws, n_datasets) in [0, 1); ``out`` float64 (n_draws, n_methods, n_criteria).
    """
    n_draws = uniforms.shape[0]
    n_datasets, k, _, m = values.shape
    for b in range(n_draws):
        for j in range(k):
            for c in range(m):
                out[b, j, c] = 0.0
        for d in range(n_datasets):
            u = uniforms[b, d]
            for j in range(k):
                s = positions[d, j, min(int(u * n_seeds[d, j]), n_seeds[d, j] - 1)]
                for c in range(m):
                    out[b, j, c] += values[d, j, s, c]
        for j in range(k):
            for c in range(m):
                out[b, j, c] /= n_datasets
