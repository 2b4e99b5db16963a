"""Speed of the multi-criteria views against pymcdm's PROMETHEE II and a plain dominance loop.

    python benchmarks/bench_criteria.py [--repeats R] [--datasets N] [--methods K]

1. PROMETHEE II net flows (usual criterion with indifference at the noise floors) on N
   datasets × K methods × 3 criteria, averaged over datasets: ``mcda.promethee`` against
   pymcdm's ``PROMETHEE_II('ushape', q=...)`` called once per dataset (pymcdm ranks one
   decision matrix at a time). They must agree to 1e-12 once pymcdm's floors are raised by
   1e-9 (mcda treats a difference equal to the floor up to rounding as a near-tie).
2. Weight stability over the 231-point grid of 3 criteria: ``mcda.weight_stability`` (flows
   computed once, linear in the weights) against pymcdm re-run for every weight vector on a
   fiftieth of the datasets (the time is scaled up ×50 and marked as such). The top choices
   (on that fiftieth) must agree.
3. Practical dominance counts: ``mcda.practical_dominance`` against a plain numpy loop over
   datasets and pairs (the definition), which must agree exactly.

Times are the best of ``--repeats`` runs. pymcdm is optional: without it, rows 1–2 show only mcda.
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np
import xarray as xr

import mcda
from _timing import best_of
from mcda.data.cards import MetricCard




def make_cube(n_datasets, n_methods, rng):
    """Accuracy (higher), runtime (lower) and memory (lower): correlated trade-offs, 3-decimal ties."""
    skill = np.linspace(0, 0.03, n_methods)
    accuracy = np.round(0.75 + 0.05 * rng.standard_normal((n_datasets, 1)) + skill
                        + 0.02 * rng.standard_normal((n_datasets, n_methods)), 3)
    runtime = np.round(np.exp(2 + 3 * skill[None, :] / 0.03 + rng.standard_normal((n_datasets, n_methods))), 1)
    memory = np.round(100 + 50 * rng.random((n_datasets, n_methods)), 0)
    values = np.stack([accuracy, runtime, memory], axis=-1)
    cards = {"accuracy": "accuracy", "runtime": "runtime",
             "memory": MetricCard(name="bench_memory_mb", direction="lower_is_better", noise_floor=5.0)}
    da = xr.DataArray(values, dims=("dataset", "method", "metric"),
                      coords={"dataset": [f"d{i}" for i in range(n_datasets)],
                              "method": [f"m{j:02d}" for j in range(n_methods)], "metric": list(cards)})
    return mcda.score_cube(da, metric=cards)


def dominance_loop(x, floors):
    """Practical dominance counts by the definition: per dataset, per ordered pair."""
    n, k, m = x.shape
    dom = np.zeros((k, k), dtype=np.int64)
    for d in range(n):
        diff = x[d][:, None, :] - x[d][None, :, :]
        tol = 8 * np.finfo(float).eps * np.maximum(np.maximum(np.abs(x[d][:, None, :]), np.abs(x[d][None, :, :])),
                                                   floors)
        better = diff > floors + tol
        worse = -diff > floors + tol
        dom += better.any(axis=2) & ~worse.any(axis=2)
    np.fill_diagonal(dom, 0)
    return dom


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--datasets", type=int, default=1_000)
    parser.add_argument("--methods", type=int, default=20)
    args = parser.parse_args()
    try:
        from pymcdm.methods import PROMETHEE_II
    except ImportError:  # pragma: no cover - optional peer
        PROMETHEE_II = None

    cube = make_cube(args.datasets, args.methods, np.random.default_rng(0))
    floors = np.array([0.01, 0.1, 5.0])
    # mcda forgives the rounding of the subtraction at the floor (0.77 - 0.76 = 0.010000000000000009 is
    # a near-tie, 8 ulp); pymcdm compares d > q exactly. On scores rounded to 3 decimals that boundary
    # is hit, so the peer gets floors raised by 1e-9 to apply the same rule.
    peer_floors = floors + 1e-9
    types = np.array([1, -1, -1])
    weights = np.full(3, 1 / 3)
    raw = cube.transpose("dataset", "method", "metric").values
    mcda.promethee(cube.isel(dataset=slice(0, 5)))  # first call: imports

    def pymcdm_flows(w, values):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return np.mean([PROMETHEE_II("ushape", q=list(peer_floors))(values[d], w, types)
                            for d in range(values.shape[0])], axis=0)

    rows = []
    t_mcda, res = best_of(lambda: mcda.promethee(cube), args.repeats)
    rows.append((f"PROMETHEE II, {args.datasets} datasets × {args.methods} methods × 3 criteria", "", "", ""))
    rows.append(("  mcda.promethee", f"{t_mcda * 1e3:9.1f} ms", "1.0", ""))
    if PROMETHEE_II is not None:
        t_peer, peer = best_of(lambda: pymcdm_flows(weights, raw), args.repeats)
        gap = float(np.abs(peer - res.net_flow.to_numpy()).max())
        rows.append(("  pymcdm PROMETHEE_II('ushape'), one call per dataset", f"{t_peer * 1e3:9.1f} ms",
                     f"{t_peer / t_mcda:.1f}", f"max |Δ flow| {gap:.1e}"))

    t_ws, ws = best_of(lambda: mcda.weight_stability(cube), args.repeats)
    rows.append(("weight stability, 231 grid weights of 3 criteria", "", "", ""))
    rows.append(("  mcda.weight_stability", f"{t_ws * 1e3:9.1f} ms", "1.0", ""))
    if PROMETHEE_II is not None:
        part = raw[: max(1, args.datasets // 50)]
        sub_ws = mcda.weight_stability(cube.isel(dataset=slice(0, part.shape[0])))

        def peer_grid():
            return [pymcdm_flows(w, part) for w in sub_ws.weights.to_numpy()]

        t_grid, peer_flows = best_of(peer_grid, 1)
        # the peer's top choice is one of mcda's (ties within 1e-10 are listed "A = B")
        methods = list(sub_ws.methods)
        ours = [set(top.split(" = ")) for top in sub_ws.top]
        agree = sum(methods[int(np.argmax(f))] in o for f, o in zip(peer_flows, ours))
        rows.append(("  pymcdm re-run per weight vector (1/50 of datasets, ×50)", f"{t_grid * 50 * 1e3:9.1f} ms",
                     f"{t_grid * 50 / t_ws:.0f}", f"top agrees {agree}/{len(ours)}"))

    t_dom, dom = best_of(lambda: mcda.practical_dominance(cube), args.repeats)
    oriented = raw * np.array([1.0, -1.0, -1.0])
    t_loop, counts = best_of(lambda: dominance_loop(oriented, floors), args.repeats)
    same = np.array_equal(np.where(np.eye(args.methods, dtype=bool), 0, dom.dominates.to_numpy()), counts)
    rows.append(("practical dominance counts and front", "", "", ""))
    rows.append(("  mcda.practical_dominance (with sign tests, medians)", f"{t_dom * 1e3:9.1f} ms", "1.0", ""))
    rows.append(("  numpy loop over datasets (counts only)", f"{t_loop * 1e3:9.1f} ms", f"{t_loop / t_dom:.2f}",
                 f"identical counts: {same}"))

    width = max(len(r[0]) for r in rows)
    print(f"{'':{width}}  {'time':>12}  {'ratio':>6}  agreement")
    for name, t, ratio, note in rows:
        print(f"{name:{width}}  {t:>12}  {ratio:>6}  {note}")


if __name__ == "__main__":
    main()
