"""The hierarchical model (and Plackett-Luce) on the Benavoli et al. (2017) folds: how long it takes.

- one pair (nbc vs j48) of the 54 datasets x 100 folds (10 runs of 10-fold CV), warm (numba's
  cache loaded, best of 3), at the defaults (4 chains x 10,000 draws after 1,000 warm-up, as
  baycomp's HierarchicalTest), with its convergence diagnostics;
- all 10 pairs of the 5 classifiers;
- baycomp's ``HierarchicalTest`` on the same pair when PyStan 3 can run here (it cannot on this
  machine: the script says why); with ``--numpyro``, NUTS in NumPyro on the same model and pair
  (the reference sampler of the tests; JAX compilation included, 2 chains x 2,000 draws) for a
  PPL timing;
- the Bayesian Plackett-Luce model on the 54 datasets x 5 classifiers, and on 60 x 50 methods.

Run: ``python benchmarks/bench_hierarchical.py [--numpyro]``
"""

from __future__ import annotations

import argparse
import os
import platform
import time
import warnings

import numpy as np

import mcda
from _timing import best_of


def cpu_and_wall(fn, repeats=3):
    """(fastest wall seconds, CPU seconds of that run, result): the CPU time is what the run costs on an idle
    core (the sampler is single-threaded), the wall time what it took on this shared machine."""
    best = None
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        out = fn()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        if best is None or wall < best[0]:
            best = (wall, cpu, out)
    return best


def _baycomp_hierarchical(folds):
    import baycomp

    x = folds.sel({"method": "nbc"}).values
    y = folds.sel({"method": "j48"}).values
    start = time.perf_counter()
    probs = baycomp.HierarchicalTest.probs(x, y, rope=0.01, runs=10, random_state=1)
    return time.perf_counter() - start, probs


def _numpyro(folds, rope=0.01, rho=0.1):
    import jax
    import jax.numpy as jnp
    import numpyro
    import numpyro.distributions as dist
    from numpyro.infer import MCMC, NUTS
    from scipy import stats

    jax.config.update("jax_enable_x64", True)
    z = (folds.sel({"method": "j48"}) - folds.sel({"method": "nbc"})).values
    scale = z.std(axis=1).mean()
    z, rope_z = z / scale, rope / scale
    rng = np.random.default_rng(0)
    for row in z:  # baycomp's (and mcda's) treatment of a dataset with constant differences: noise in the rope
        if row.var() == 0:
            half = row.size // 2
            row[:half] = rng.uniform(-rope_z, rope_z, half)
            row[row.size - half:] = -row[:half]
    q, n = z.shape
    within, among, bound = z.std(axis=1).mean(), z.mean(axis=1).std(), np.abs(z).max()
    means, ssq = jnp.asarray(z.mean(axis=1)), jnp.asarray(((z - z.mean(axis=1, keepdims=True)) ** 2).sum(axis=1))

    def model():  # the likelihood through each dataset's mean and sum of squares (exact for this M)
        delta0 = numpyro.sample("delta0", dist.Uniform(-bound, bound))
        std0 = numpyro.sample("std0", dist.Uniform(0.0, 1000.0 * among))
        sigma = numpyro.sample("sigma", dist.Uniform(0.0, 1000.0 * within).expand([q]))
        alpha = numpyro.sample("alpha", dist.Uniform(1.0, 2.0))
        beta = numpyro.sample("beta", dist.Uniform(0.01, 0.1))
        nu1 = numpyro.sample("nu1", dist.Gamma(alpha, beta))
        eta = numpyro.sample("eta", dist.StudentT(nu1 + 1.0, 0.0, 1.0).expand([q]))
        delta = delta0 + std0 * eta
        quad = ssq / (1 - rho) + n * (means - delta) ** 2 / (1 + (n - 1) * rho)
        numpyro.factor("folds", jnp.sum(-n * jnp.log(sigma) - 0.5 * quad / sigma ** 2))

    start = time.perf_counter()
    mcmc = MCMC(NUTS(model), num_warmup=1000, num_samples=2000, num_chains=2, chain_method="sequential",
                progress_bar=False)
    mcmc.run(jax.random.PRNGKey(0))
    elapsed = time.perf_counter() - start
    s = mcmc.get_samples()
    mu, sd0, nu = (np.asarray(s[k]) for k in ("delta0", "std0", "nu1"))
    left, right = stats.t.cdf(-rope_z, nu + 1, mu, sd0), stats.t.sf(rope_z, nu + 1, mu, sd0)
    shares = np.stack([left, 1 - left - right, right], axis=1)
    return elapsed, np.bincount(shares.argmax(axis=1), minlength=3) / len(shares)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--numpyro", action="store_true", help="also time NUTS in NumPyro on the same pair (slow)")
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.1f} (a busy machine inflates every time below)")
    folds = mcda.datasets.load("benavoli2017_uci54_folds")
    pair = folds.sel({"method": ["nbc", "j48"]})
    start = time.perf_counter()
    mcda.hierarchical_comparison(pair, rng=0, n_samples=100, n_warmup=10, progress=False)
    print(f"first call in this process (numba cache load or compile): {time.perf_counter() - start:.2f} s")

    one, one_cpu, result = cpu_and_wall(lambda: mcda.hierarchical_comparison(pair, rng=0, progress=False))
    row = result.to_frame().iloc[0]
    print(f"\none pair (nbc vs j48; 54 datasets x 100 folds; 4 chains x 10,000 draws): {one:.2f} s warm wall, "
          f"{one_cpu:.2f} s CPU (target <= 2 s)")
    print(f"  P(nbc better, equivalent, j48 better) = ({row['prob_a_better']:.4f}, {row['prob_equivalent']:.4f}, "
          f"{row['prob_b_better']:.4f}); max R-hat {row['max_rhat']:.4f}, min ESS {row['min_ess']:.0f}")

    every, every_cpu, full = cpu_and_wall(lambda: mcda.hierarchical_comparison(folds, rng=0, progress=False),
                                          repeats=1)
    labelled = int((full.to_frame()["reason"] == "").sum())
    print(f"all 10 pairs of the 5 classifiers: {every:.2f} s wall, {every_cpu:.2f} s CPU (target < 30 s); "
          f"{labelled} of 10 pairs converged and labelled")

    try:
        import stan  # noqa: F401  (PyStan 3, which baycomp's HierarchicalTest imports)
    except ImportError as exc:
        print(f"\nbaycomp's HierarchicalTest cannot run here: it needs PyStan 3 ({exc}); PyStan builds the model "
              "with a C++ toolchain on first use (77 s in a fresh process where it was measured). "
              "Not timed.")
    else:
        seconds, probs = _baycomp_hierarchical(folds)
        print(f"\nbaycomp HierarchicalTest, same pair: {seconds:.2f} s -> {tuple(round(p, 4) for p in probs)}; "
              f"ratio baycomp / mcda = {seconds / one:.1f}")
    if args.numpyro:
        seconds, probs = _numpyro(folds)
        print(f"NumPyro NUTS, same model and pair (2 chains x 2,000 draws, compilation included): {seconds:.2f} s -> "
              f"{tuple(round(float(p), 4) for p in probs)}; ratio NumPyro / mcda = {seconds / one:.1f}")

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        means = mcda.datasets.load("benavoli2017_uci54")
        pl_time, pl = best_of(lambda: mcda.plackett_luce(means, rng=0, progress=False), repeats=3)
        many = mcda.datasets.synthetic(n_datasets=60, n_methods=50, n_seeds=0, effects=np.linspace(0, 0.05, 50),
                                       dataset_sd=0.05, noise_sd=0.02, rng=1)
        many_time, pl_many = best_of(lambda: mcda.plackett_luce(many, rng=0, progress=False), repeats=1)
    print(f"\nPlackett-Luce, 54 datasets x 5 classifiers (4 chains x 2,000 draws): {pl_time:.2f} s; order {pl.order}")
    print(f"Plackett-Luce, 60 datasets x 50 methods: {many_time:.2f} s; {pl_many.reason or 'converged'}")
    print("(no Python peer: scmamp's bPlackettLuce is R-only and off CRAN)")


if __name__ == "__main__":
    main()
