"""Gibbs sampler of the hierarchical model of Corani, Benavoli, Demšar, Mangili & Zaffalon (2017).

The model (baycomp's ``hierarchical-t-test.stan``), for q datasets with per-fold differences
x_i1..x_in (standardised), fold correlation ρ:

    x_i ~ MVN(δ_i·1, σ_i² M),  M = (1 − ρ) I + ρ 11ᵀ
    δ_i ~ Student-t(ν, δ_0, s_0)
    δ_0 ~ U(−D, D),  s_0 ~ U(0, U_0),  σ_i ~ U(0, U)
    ν − 1 ~ Gamma(α, rate β),  α ~ U(1, 2),  β ~ U(0.01, 0.1)

With M's inverse in closed form the likelihood of dataset i depends on the data through
its mean x̄_i and S_i = Σ_j (x_ij − x̄_i)² only:

    (x_i − δ_i1)ᵀ M⁻¹ (x_i − δ_i1) = S_i / (1 − ρ) + n (x̄_i − δ_i)² / (1 + (n − 1) ρ),

so one sweep costs O(q). The Student t is a scale mixture, δ_i | λ_i ~ N(δ_0, s_0² / λ_i),
λ_i ~ Gamma(ν/2, rate ν/2); one sweep updates, in turn,

1. σ_i | δ_i: 1/σ_i² ~ Gamma((n − 1)/2, rate Q_i/2) truncated to σ_i < U (rejection);
2. λ_i | δ_i, δ_0, s_0, ν: Gamma((ν + 1)/2, rate (ν + ((δ_i − δ_0)/s_0)²)/2);
3. δ_i | σ_i, λ_i, δ_0, s_0: normal (the conjugate product);
4. δ_0 | δ, λ, s_0: normal truncated to (−D, D) (rejection, slice fallback);
5. 1/s_0² | δ, λ, δ_0: Gamma((q − 1)/2, rate Σλ_i(δ_i − δ_0)²/2) truncated to s_0 < U_0;
6. ν | δ, δ_0, s_0, α, β with λ integrated out (the Student-t likelihood; slice sampling on
   log(ν − 1)), then λ | ν afresh — a blocked step of (ν, λ), which mixes far better than
   ν | λ;
   5b. an interweaving step (Yu & Meng 2011): with η_i = (δ_i − δ_0)/s_0 held, s_0 and δ_0
   given the data are truncated normals (a weighted regression of the dataset means on η);
   this keeps s_0 mixing when the datasets barely differ (the funnel of the centred form);
   5c. s_0 | δ, δ_0, ν with λ integrated out (slice sampling on log s_0), because s_0 and λ
   are confounded (only s_0²/λ_i matters);
7. α | ν, β and β | ν, α, each by slice sampling on its bounded interval, repeated
   ``n_inner`` times (they are cheap and strongly dependent).

Random numbers come from numba's generator seeded with the caller's seed per chain, so a
run is deterministic given the seeds. The reference in the tests is the same model in
NumPyro (NUTS).
"""

from __future__ import annotations

import math

from mcda._core._kernels._jit import jit
import numpy as np

__all__ = ["sample_chain"]


@jit()
def _t_loglik(nu, delta, delta0, s0):
    """Σ_i log t_ν(δ_i; δ_0, s_0)."""
    q = delta.shape[0]
    half = 0.5 * (nu + 1.0)
    const = math.lgamma(half) - math.lgamma(0.5 * nu) - 0.5 * math.log(nu * math.pi) - math.log(s0)
    total = q * const
    for i in range(q):
        z = (delta[i] - delta0) / s0
        total -= half * math.log1p(z * z / nu)
    return total


@jit()
def _log_nu_target(u, alpha, beta, delta, delta0, s0):
    """log p(u = log(ν − 1) | ...): the Gamma(α, β) prior of ν − 1, the t likelihood, the Jacobian."""
    m = math.exp(u)
    nu = m + 1.0
    return (alpha * math.log(beta) - math.lgamma(alpha) + (alpha - 1.0) * u - beta * m + u
            + _t_loglik(nu, delta, delta0, s0))


@jit()
def _log_sd0_target(v, upper, nu, delta, delta0):
    """log p(v = log s_0 | δ, δ_0, ν) with the mixture integrated out: flat prior on (0, upper), Jacobian."""
    if v >= math.log(upper):
        return -math.inf
    return v + _t_loglik(nu, delta, delta0, math.exp(v))


@jit()
def _slice_sd0(v, width, upper, nu, delta, delta0):
    """One slice update (stepping out, shrinkage) of v = log s_0."""
    level = _log_sd0_target(v, upper, nu, delta, delta0) + math.log(1.0 - np.random.random())
    left = v - width * np.random.random()
    right = left + width
    steps = 0
    while steps < 50 and _log_sd0_target(left, upper, nu, delta, delta0) > level:
        left -= width
        steps += 1
    steps = 0
    while steps < 50 and _log_sd0_target(right, upper, nu, delta, delta0) > level:
        right += width
        steps += 1
    while True:
        new = left + (right - left) * np.random.random()
        if _log_sd0_target(new, upper, nu, delta, delta0) > level:
            return new
        if new < v:
            left = new
        else:
            right = new


@jit()
def _log_alpha_target(alpha, beta, m):
    return alpha * math.log(beta) + (alpha - 1.0) * math.log(m) - math.lgamma(alpha)


@jit()
def _log_beta_target(beta, alpha, m):
    return alpha * math.log(beta) - beta * m


@jit()
def _slice_nu(u, width, alpha, beta, delta, delta0, s0):
    """One slice-sampling update (stepping out, shrinkage; Neal 2003) of u = log(ν − 1)."""
    level = _log_nu_target(u, alpha, beta, delta, delta0, s0) + math.log(1.0 - np.random.random())
    left = u - width * np.random.random()
    right = left + width
    steps = 0
    while steps < 50 and _log_nu_target(left, alpha, beta, delta, delta0, s0) > level:
        left -= width
        steps += 1
    steps = 0
    while steps < 50 and _log_nu_target(right, alpha, beta, delta, delta0, s0) > level:
        right += width
        steps += 1
    while True:
        new = left + (right - left) * np.random.random()
        if _log_nu_target(new, alpha, beta, delta, delta0, s0) > level:
            return new
        if new < u:
            left = new
        else:
            right = new


@jit()
def _slice_bounded(x, low, high, which, other, m):
    """One slice update on [low, high] (the whole interval as the initial bracket, then shrinkage).

    ``which`` 0: α with β = ``other``; 1: β with α = ``other``; m = ν − 1.
    """
    if which == 0:
        level = _log_alpha_target(x, other, m)
    else:
        level = _log_beta_target(x, other, m)
    level += math.log(1.0 - np.random.random())
    left = low
    right = high
    while True:
        new = left + (right - left) * np.random.random()
        if which == 0:
            value = _log_alpha_target(new, other, m)
        else:
            value = _log_beta_target(new, other, m)
        if value > level:
            return new
        if new < x:
            left = new
        else:
            right = new


@jit()
def _truncated_gamma_precision(shape, rate, min_precision):
    """A Gamma(shape, rate) draw conditioned on exceeding ``min_precision`` (rejection)."""
    for _ in range(10000):
        t = np.random.gamma(shape, 1.0 / rate)
        if t > min_precision:
            return t
    return min_precision * (1.0 + 1e-12)


@jit()
def _truncated_normal(mean, sd, low, high):
    """N(mean, sd²) conditioned on (low, high): rejection, then inverse-free slice fallback."""
    for _ in range(1000):
        x = mean + sd * np.random.standard_normal()
        if low < x < high:
            return x
    # the mass inside is tiny: slice sampling on the truncated density from the nearest bound
    x = min(max(mean, low + 1e-12 * (high - low)), high - 1e-12 * (high - low))
    for _ in range(20):
        level = -0.5 * ((x - mean) / sd) ** 2 + math.log(1.0 - np.random.random())
        left, right = low, high
        while True:
            new = left + (right - left) * np.random.random()
            if -0.5 * ((new - mean) / sd) ** 2 > level:
                x = new
                break
            if new < x:
                left = new
            else:
                right = new
    return x


@jit()
def sample_chain(seed, n_warmup, n_draws, means, ssq, n_scores, rho, delta_bound, sd0_upper, sd_upper,
                 alpha_low, alpha_high, beta_low, beta_high, n_inner, out_global, out_delta):
    """Run one chain; fill ``out_global`` (n_draws, 5: δ_0, s_0, ν, α, β) and ``out_delta`` (n_draws, q).

    ``means``, ``ssq`` (q,) float64: per-dataset mean and sum of squared deviations of the
    standardised differences; ``n_scores`` (q,) float64: their counts.
    """
    np.random.seed(seed)
    q = means.shape[0]
    c = 1.0 + (n_scores - 1.0) * rho          # variance inflation of the fold mean
    # start: δ_i at the data, the population at their mean and spread, σ_i at the within sd
    delta = means.copy()
    sigma2 = np.empty(q)
    lam = np.ones(q)
    eta = np.zeros(q)
    for i in range(q):
        sigma2[i] = max(ssq[i] / max(n_scores[i] - 1.0, 1.0), 1e-12)
    delta0 = 0.0
    for i in range(q):
        delta0 += delta[i]
    delta0 /= q
    spread = 0.0
    for i in range(q):
        spread += (delta[i] - delta0) ** 2
    s0 = min(max(math.sqrt(spread / max(q - 1, 1)), 1e-3), 0.5 * sd0_upper)
    delta0 = min(max(delta0, -0.999 * delta_bound), 0.999 * delta_bound)
    u = math.log(10.0)
    alpha = 0.5 * (alpha_low + alpha_high)
    beta = 0.5 * (beta_low + beta_high)
    min_prec = 1.0 / (sd_upper * sd_upper)
    min_prec0 = 1.0 / (sd0_upper * sd0_upper)
    width = 2.0        # slice widths on log(ν − 1) and log s_0, tuned during warm-up only
    width_sd0 = 1.0
    moved_nu = 0.0
    moved_sd0 = 0.0
    total = n_warmup + n_draws
    for it in range(total):
        nu = math.exp(u) + 1.0
        # 1-3: per dataset
        for i in range(q):
            dev = means[i] - delta[i]
            quad = ssq[i] / (1.0 - rho) + n_scores[i] * dev * dev / c[i]
            sigma2[i] = 1.0 / _truncated_gamma_precision(0.5 * (n_scores[i] - 1.0), 0.5 * quad, min_prec)
            z = (delta[i] - delta0) / s0
            lam[i] = np.random.gamma(0.5 * (nu + 1.0), 2.0 / (nu + z * z))
            prec_data = n_scores[i] / (c[i] * sigma2[i])
            prec_prior = lam[i] / (s0 * s0)
            prec = prec_data + prec_prior
            mean = (prec_data * means[i] + prec_prior * delta0) / prec
            delta[i] = mean + np.random.standard_normal() / math.sqrt(prec)
        # 4: δ_0
        lam_sum = 0.0
        weighted = 0.0
        for i in range(q):
            lam_sum += lam[i]
            weighted += lam[i] * delta[i]
        delta0 = _truncated_normal(weighted / lam_sum, s0 / math.sqrt(lam_sum), -delta_bound, delta_bound)
        # 5: s_0
        rss = 0.0
        for i in range(q):
            rss += lam[i] * (delta[i] - delta0) ** 2
        s0 = 1.0 / math.sqrt(_truncated_gamma_precision(0.5 * (q - 1.0), 0.5 * max(rss, 1e-300), min_prec0))
        # 5b: interweaving (ASIS; Yu & Meng 2011): with η_i = (δ_i − δ_0)/s_0 fixed, the likelihood
        # of the dataset means is a weighted regression on (1, η): s_0, then δ_0, are truncated
        # normals; δ_i = δ_0 + s_0 η_i follows. This is what keeps s_0 mixing when it is small.
        prec_s = 0.0
        num_s = 0.0
        for i in range(q):
            eta[i] = (delta[i] - delta0) / s0
            inv_v = n_scores[i] / (c[i] * sigma2[i])
            prec_s += eta[i] * eta[i] * inv_v
            num_s += eta[i] * (means[i] - delta0) * inv_v
        if prec_s > 0.0:
            s0 = _truncated_normal(num_s / prec_s, 1.0 / math.sqrt(prec_s), 0.0, sd0_upper)
        prec_m = 0.0
        num_m = 0.0
        for i in range(q):
            inv_v = n_scores[i] / (c[i] * sigma2[i])
            prec_m += inv_v
            num_m += (means[i] - s0 * eta[i]) * inv_v
        delta0 = _truncated_normal(num_m / prec_m, 1.0 / math.sqrt(prec_m), -delta_bound, delta_bound)
        for i in range(q):
            delta[i] = delta0 + s0 * eta[i]
        # 5c: s_0 again with λ integrated out (the t likelihood; slice sampling on log s_0): s_0 and
        # the λ_i are confounded (only s_0²/λ_i matters), so s_0 | λ alone moves slowly
        v_old = math.log(s0)
        v_new = _slice_sd0(v_old, width_sd0, sd0_upper, nu, delta, delta0)
        s0 = math.exp(v_new)
        # 6: ν with λ integrated out (λ is redrawn from it at the next sweep's step 2)
        u_old = u
        u = _slice_nu(u, width, alpha, beta, delta, delta0, s0)
        if it < n_warmup:
            # during warm-up only (the kept draws use fixed widths, so the chain stays valid): widths
            # of about three times the mean move, which keeps stepping out and shrinking short
            moved_nu += abs(u - u_old)
            moved_sd0 += abs(v_new - v_old)
            if it >= 49 and (it + 1) % 50 == 0:
                width = min(max(3.0 * moved_nu / (it + 1), 0.05), 10.0)
                width_sd0 = min(max(3.0 * moved_sd0 / (it + 1), 0.02), 5.0)
        m = math.exp(u)
        # 7: the Gamma prior's parameters
        for _ in range(n_inner):
            alpha = _slice_bounded(alpha, alpha_low, alpha_high, 0, beta, m)
            beta = _slice_bounded(beta, beta_low, beta_high, 1, alpha, m)
        if it >= n_warmup:
            k = it - n_warmup
            out_global[k, 0] = delta0
            out_global[k, 1] = s0
            out_global[k, 2] = m + 1.0
            out_global[k, 3] = alpha
            out_global[k, 4] = beta
            for i in range(q):
                out_delta[k, i] = delta[i]

