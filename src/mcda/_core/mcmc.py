"""Convergence diagnostics of Markov chains: rank-normalised split R-hat and bulk / tail ESS.

Vehtari, Gelman, Simpson, Carpenter & Bürkner (2021), "Rank-normalization, folding, and
localization: an improved R-hat for assessing convergence of MCMC", Bayesian Analysis 16(2),
https://doi.org/10.1214/20-BA1221. The same definitions as Stan and ArviZ (``arviz.rhat``
with ``method="rank"``, ``arviz.ess`` with ``method="bulk"`` / ``"tail"``), which the tests
use as the oracle. Input: ``(n_chains, n_draws)`` arrays.
"""

from __future__ import annotations

import numpy as np
from scipy import special

from mcda._core.numeric import rank

__all__ = ["split_rhat", "ess_bulk", "ess_tail", "RHAT_MAX", "ESS_FLOOR"]

#: a quantity is converged when its rank-normalised split R-hat is at most this (Vehtari et al. 2021)
RHAT_MAX = 1.01
#: ... and its bulk and tail effective sample sizes are at least this (100 per chain for 4 chains,
#: Vehtari et al.'s recommendation; the Monte Carlo sd of a probability near ½ is then ≤ 0.025)
ESS_FLOOR = 400


def _split(chains: np.ndarray) -> np.ndarray:
    chains = np.asarray(chains, dtype=np.float64)
    if chains.ndim == 1:
        chains = chains[None, :]
    half = chains.shape[1] // 2  # an odd draw count leaves the middle draw out, as Stan and ArviZ
    return np.concatenate([chains[:, :half], chains[:, chains.shape[1] - half:]], axis=0)


def _z_scale(x: np.ndarray) -> np.ndarray:
    ranks = rank(x.ravel(), exact=True).reshape(x.shape)  # draws, not scores: equal values only
    return special.ndtri((ranks - 0.375) / (x.size + 0.25))


def _rhat_basic(chains: np.ndarray) -> float:
    n = chains.shape[1]
    within = chains.var(axis=1, ddof=1).mean()
    between = n * chains.mean(axis=1).var(ddof=1)
    if within == 0:
        return np.nan
    return float(np.sqrt(((n - 1) / n * within + between / n) / within))


def split_rhat(chains) -> float:
    """Rank-normalised split R-hat: the larger of the bulk and the folded (tail) versions."""
    split = _split(chains)
    if not np.all(np.isfinite(split)) or np.ptp(split) == 0:
        return np.nan
    bulk = _rhat_basic(_z_scale(split))
    folded = np.abs(split - np.median(split))
    tail = _rhat_basic(_z_scale(folded)) if np.ptp(folded) > 0 else np.nan
    return float(np.nanmax([bulk, tail]))


def _autocovariance(x: np.ndarray) -> np.ndarray:
    """Autocovariance of every row (biased, as Stan), by FFT."""
    n = x.shape[1]
    centred = x - x.mean(axis=1, keepdims=True)
    size = 1 << int(np.ceil(np.log2(2 * n)))
    spectrum = np.fft.rfft(centred, n=size, axis=1)
    acov = np.fft.irfft(spectrum * np.conjugate(spectrum), n=size, axis=1)[:, :n]
    return acov / n


def _ess(chains: np.ndarray) -> float:
    m, n = chains.shape
    if n < 4 or not np.all(np.isfinite(chains)) or np.ptp(chains) == 0:
        return np.nan
    acov = _autocovariance(chains)
    chain_var = acov[:, 0] * n / (n - 1.0)
    mean_var = chain_var.mean()
    var_plus = mean_var * (n - 1.0) / n
    if m > 1:
        var_plus += chains.mean(axis=1).var(ddof=1)
    rho = np.zeros(n)
    rho[0] = 1.0
    # Geyer's initial positive sequence: autocorrelations in (even, odd) pairs while their sum is positive
    even, odd = 1.0, 1.0 - (mean_var - acov[:, 1].mean()) / var_plus
    rho[1] = odd
    t = 1
    while t < n - 3 and even + odd > 0:
        even = 1.0 - (mean_var - acov[:, t + 1].mean()) / var_plus
        odd = 1.0 - (mean_var - acov[:, t + 2].mean()) / var_plus
        if even + odd >= 0:
            rho[t + 1] = even
            rho[t + 2] = odd
        t += 2
    max_t = t - 2
    if even > 0:  # the last even lag still carries information (Stan's refinement)
        rho[max_t + 1] = even
    # ... made monotone (Geyer's initial monotone sequence)
    t = 1
    while t <= max_t - 2:
        if rho[t + 1] + rho[t + 2] > rho[t - 1] + rho[t]:
            rho[t + 1] = (rho[t - 1] + rho[t]) / 2.0
            rho[t + 2] = rho[t + 1]
        t += 2
    total = m * n
    tau = -1.0 + 2.0 * rho[:max_t + 1].sum() + rho[max_t + 1:max_t + 2].sum()
    tau = max(tau, 1.0 / np.log10(total))
    return float(total / tau)


def ess_bulk(chains) -> float:
    """Bulk effective sample size: the ESS of the rank-normalised split chains."""
    split = _split(chains)
    if not np.all(np.isfinite(split)) or np.ptp(split) == 0:
        return np.nan
    return _ess(_z_scale(split))


def ess_tail(chains) -> float:
    """Tail effective sample size: the smaller ESS of the indicators of the 5% and 95% quantiles."""
    full = np.asarray(chains, dtype=np.float64)
    full = full[None, :] if full.ndim == 1 else full
    if not np.all(np.isfinite(full)) or np.ptp(full) == 0:
        return np.nan
    low, high = np.quantile(full, [0.05, 0.95])
    values = [_ess(_split((full <= low).astype(float))), _ess(_split((full <= high).astype(float)))]
    return float(np.nanmin(values)) if not np.all(np.isnan(values)) else np.nan
