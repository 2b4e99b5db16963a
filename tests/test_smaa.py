"""SMAA-2 (mcda.smaa) against the R package smaa on the same draws, and against integrals done by hand.

The oracle is the R package smaa 0.3-2 (github gertvv/rsmaa, vendored in tests/oracles/smaa, see
its PROVENANCE.md), installed into a temporary library with ``R CMD INSTALL`` and run once by
tests/oracles/run_smaa.R on the measurement and weight draws mcda makes (the draws of a call are
read from ``mcda.stats.smaa._draws``, the one generator both passes of ``smaa`` use). Given
identical draws, the rank counts and the confidence-factor counts must be equal exactly and the
central weights to rounding. Small cases with two methods and two criteria have exact values
worked out by hand (the integrals are in the comments). Under CI a missing R fails instead of
skipping (tests/test_peers_r.py's rule).
"""

from __future__ import annotations

import math
import os
import shutil
import subprocess
import tracemalloc
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.stats

import mcda
from mcda.stats import smaa as smaa_module
from tests.test_peers_r import need_rscript

ORACLE = Path(__file__).parent / "oracles"
CARDS = {"accuracy": "accuracy", "runtime": "runtime", "memory": "memory_mb"}


def criteria_cube(n_datasets=8, n_methods=5, n_seeds=0, rng=0, missing=None):
    """accuracy (higher better), runtime and memory (lower better) with a trade-off between them."""
    gen = np.random.default_rng(rng)
    skill = np.linspace(0.70, 0.80, n_methods)
    rows = []
    for d in range(n_datasets):
        hard = gen.normal(0, 0.05)
        for j in range(n_methods):
            for s in range(max(n_seeds, 1)):
                acc = float(np.clip(skill[j] + hard + gen.normal(0, 0.02), 0, 1))
                row = {"dataset": f"d{d:02d}", "method": f"m{j}", "seed": s}
                rows += [row | {"metric": "accuracy", "score": acc},
                         row | {"metric": "runtime", "score": float(np.exp(j * 0.3 + gen.normal(0, 0.3)))},
                         row | {"metric": "memory", "score": float(100 + 40 * ((j * 7) % n_methods) + gen.normal(0, 5))}]
    frame = pd.DataFrame(rows)
    if not n_seeds:
        frame = frame.drop(columns="seed")
    if missing is not None:
        frame = frame[~((frame["dataset"] == missing[0]) & (frame["method"] == missing[1]))]
    return mcda.score_cube(frame, metric=CARDS)


def two_by_two(a1, a2, b1, b2):
    """Two methods, two criteria in [0, 1] (higher better), given as numbers or distributions."""
    cube = mcda.score_cube(pd.DataFrame({"dataset": "d", "method": ["A", "A", "B", "B"], "metric": ["c1", "c2"] * 2,
                                         "score": 0.5}), metric={"c1": "accuracy", "c2": "accuracy"})
    return cube, {"c1": {"A": a1, "B": b1}, "c2": {"A": a2, "B": b2}}


UNIT = {"c1": (0.0, 1.0), "c2": (0.0, 1.0)}


# --------------------------------------------------------------------------- exact values by hand

def test_two_methods_two_criteria_uniform_weights_match_the_integral():
    # A = (U, 0) with U ~ U(0, 1), B = (1/2, 1/2); uniform weights on 2 criteria: w = w1 ~ U(0, 1).
    # A first iff w U > 1/2:  P = ∫_{1/2}^1 (1 − 1/(2w)) dw = 1/2 − (ln 2)/2 = 0.15342640972...
    # A's central weight on c1: E[w ; wU > 1/2] / P = (∫_{1/2}^1 w dw − 1/4) / P = (1/8) / P = 0.81472...
    cube, given = two_by_two(scipy.stats.uniform(0, 1), 0.0, 0.5, 0.5)
    res = mcda.smaa(cube, uncertainty=given, ranges=UNIT, n_draws=100_000, rng=3)
    p = 0.5 - math.log(2) / 2
    b = res.rank_acceptability
    assert abs(b.loc["A", 1] - p) < 4 * res.rank_acceptability_se.loc["A", 1]
    assert res.rank_acceptability_se.loc["A", 1] == pytest.approx(math.sqrt(b.loc["A", 1] * (1 - b.loc["A", 1]) / 1e5))
    assert b.loc["A", 1] + b.loc["B", 1] == pytest.approx(1.0) and b.loc["A", 2] == pytest.approx(1 - b.loc["A", 1])
    cw = res.central_weights.loc["A", "c1"]
    assert abs(cw - 0.125 / p) < 4 * res.central_weights_se.loc["A", "c1"]
    # B's central weight: E[w ; wU < 1/2] / (1 − P) = (1/2 − 1/8) / (1 − P)
    assert abs(res.central_weights.loc["B", "c1"] - 0.375 / (1 - p)) < 4 * res.central_weights_se.loc["B", "c1"]


@pytest.mark.parametrize(("weights", "first_a", "central_a"), [
    (None, 0.5, 0.75),                  # A = (1, 0), B = (0, 1): A first iff w1 > 1/2; E[w1 | w1 > 1/2] = 3/4
    (["c1", "c2"], 1.0, 0.75),          # w1 ≥ w2: w1 ~ U(1/2, 1), A always first
    ({"c1": (0.2, 0.6)}, 0.25, 0.55),   # w1 ~ U(0.2, 0.6): P(w1 > 1/2) = 0.1 / 0.4; E[w1 | w1 > 1/2] = 0.55
    ({"c1": 0.3, "c2": 0.7}, 0.0, math.nan),  # exact weights: B's value 0.7 beats A's 0.3 in every draw
])
def test_weight_information_matches_the_simplex_by_hand(weights, first_a, central_a):
    cube, given = two_by_two(1.0, 0.0, 0.0, 1.0)
    res = mcda.smaa(cube, uncertainty=given, ranges=UNIT, weights=weights, n_draws=40_000, rng=5)
    se = max(float(res.rank_acceptability_se.loc["A", 1]), 1e-12)
    assert abs(res.rank_acceptability.loc["A", 1] - first_a) <= 4 * se
    if math.isnan(central_a):
        assert res.central_weights.isna().all().all() and res.confidence_factors.isna().all()
    else:
        assert abs(res.central_weights.loc["A", "c1"] - central_a) < 4 * res.central_weights_se.loc["A", "c1"]
        assert res.central_weights.loc["A"].sum() == pytest.approx(1.0)
        # fixed measurements: under its central weights A beats B in every draw
        assert res.confidence_factors["A"] == 1.0


# --------------------------------------------------------------------------- the kernels against plain numpy

def _reference_ranks(values, tol):
    return np.array([(values - v > tol).sum() for v in values])


@pytest.mark.parametrize("k", [4, 40])  # the direct count and the sorted path
def test_kernels_equal_a_plain_numpy_reference(k):
    from mcda._core._kernels.smaa import first_counts, rank_counts

    gen = np.random.default_rng(k)
    n, m = 300, 3
    meas = np.round(gen.random((n, k, m)) * 4) / 4  # quarter steps: exact ties in the values
    weights = np.round(gen.dirichlet(np.ones(m), size=n) * 8) / 8
    counts, sums, squares = np.zeros((k, k), np.int64), np.zeros((k, m)), np.zeros((k, m))
    rank_counts(meas, weights, 1e-9, counts, sums, squares)
    ref_counts, ref_sums = np.zeros((k, k), np.int64), np.zeros((k, m))
    for b in range(n):
        r = _reference_ranks(meas[b] @ weights[b], 1e-9)
        ref_counts[np.arange(k), r] += 1
        ref_sums[r == 0] += weights[b]
    np.testing.assert_array_equal(counts, ref_counts)
    np.testing.assert_allclose(sums, ref_sums, rtol=1e-13)
    central = gen.dirichlet(np.ones(m), size=k)
    active = np.array([0, k // 2, k - 1], dtype=np.int64)
    hits = np.zeros(3, np.int64)
    first_counts(meas, central, active, 1e-9, hits)
    expect = [sum(_reference_ranks(meas[b] @ central[i], 1e-9)[i] == 0 for b in range(n)) for i in active]
    np.testing.assert_array_equal(hits, expect)


def test_seed_means_kernel_equals_a_plain_numpy_reference():
    from mcda._core._kernels.smaa import seed_means

    gen = np.random.default_rng(1)
    n_datasets, k, seeds, m, n = 4, 3, 5, 2, 50
    values = gen.random((n_datasets, k, seeds, m))
    n_seeds = gen.integers(1, seeds + 1, size=(n_datasets, k))
    positions = np.stack([np.stack([gen.permutation(seeds) for _ in range(k)]) for _ in range(n_datasets)])
    uniforms = gen.random((n, n_datasets))
    out = np.empty((n, k, m))
    seed_means(values, positions, n_seeds, uniforms, out)
    for b in range(n):
        ref = np.mean([[values[d, j, positions[d, j, int(uniforms[b, d] * n_seeds[d, j])]] for j in range(k)]
                       for d in range(n_datasets)], axis=0)
        np.testing.assert_allclose(out[b], ref, rtol=1e-14)


# --------------------------------------------------------------------------- the R package on the same draws

def _collect(cube, n_draws, rng, **kwargs):
    setup = smaa_module._prepare(cube, metrics=kwargs.get("metrics"), weights=kwargs.get("weights"),
                                 uncertainty=kwargs.get("uncertainty", "bootstrap-datasets"),
                                 ranges=kwargs.get("ranges", "observed"))
    blocks = list(smaa_module._draws(setup, n_draws, smaa_module._streams(rng)))
    meas = np.concatenate([b[0] for b in blocks])
    weights = blocks[0][1] if setup.weight_information == "exact" else np.concatenate([b[1] for b in blocks])
    return setup, meas, weights


def _write(directory: Path, name: str, meas: np.ndarray, weights: np.ndarray) -> None:
    n, k, m = meas.shape
    single = weights.shape[0] == 1 and n > 1
    (directory / f"{name}.dims").write_text(f"{n} {k} {m} {int(single)}\n")
    np.ascontiguousarray(meas.transpose(2, 1, 0)).astype("<f8").tofile(directory / f"{name}.meas")
    (weights[0] if single else np.ascontiguousarray(weights.T)).astype("<f8").tofile(directory / f"{name}.pref")


def install_r_smaa(rscript: str, library: Path) -> None:
    """``R CMD INSTALL`` of the vendored smaa into ``library`` (needs r-base-dev: .ci/run installs it)."""
    library.mkdir(parents=True, exist_ok=True)
    r = Path(rscript).with_name("R")
    done = subprocess.run([str(r) if r.exists() else "R", "CMD", "INSTALL", "--no-docs", "--no-html",
                           f"--library={library}", str(ORACLE / "smaa")], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.fail("R CMD INSTALL of tests/oracles/smaa failed (a C compiler and BLAS to link are needed: Debian's "
                    "r-base-dev, which .ci/run installs):\n" + done.stdout[-2000:] + done.stderr[-2000:])


# name -> (cube builder, n_draws, rng, smaa keyword arguments)
SCENARIOS = {
    "bootstrap_uniform": (lambda: criteria_cube(10, 6), 3000, 11, {}),
    "bootstrap_order_missing": (lambda: criteria_cube(9, 5, missing=("d03", "m2")), 2500, 12,
                                {"weights": ["accuracy", "memory", "runtime"]}),
    "seeds_intervals": (lambda: criteria_cube(6, 5, n_seeds=3), 2000, 13,
                        {"uncertainty": "seeds", "weights": {"accuracy": (0.3, 0.7), "runtime": (0.1, 0.5)}}),
    "given_two_criteria": (lambda: criteria_cube(4, 4), 2000, 14,
                           {"metrics": ["accuracy", "runtime"], "ranges": {"runtime": (0, 5)},
                            "uncertainty": {"accuracy": {f"m{j}": scipy.stats.beta(70 + 3 * j, 25) for j in range(4)},
                                            "runtime": {f"m{j}": scipy.stats.gamma(2 + j, scale=0.6)
                                                        for j in range(4)}}}),
    "bootstrap_exact": (lambda: criteria_cube(8, 5), 1500, 15,
                        {"weights": {"accuracy": 0.5, "runtime": 0.3, "memory": 0.2}}),
}


@pytest.fixture(scope="module")
def r_smaa(tmp_path_factory):
    """Scenario -> (mcda result, R counts, R central weights, R confidence counts), one Rscript run."""
    rscript = need_rscript()
    work = tmp_path_factory.mktemp("rsmaa")
    install_r_smaa(rscript, work / "library")
    out = {}
    import warnings

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(smaa_module, "_BLOCK_VALUES", 4000)  # several blocks per call: the streaming is compared too
        for name, (build, n_draws, rng, kwargs) in SCENARIOS.items():
            cube = build()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", mcda.MissingDataWarning)
                setup, meas, weights = _collect(cube, n_draws, rng, **kwargs)
                result = mcda.smaa(cube, n_draws=n_draws, rng=rng, **kwargs)
            assert setup.block < n_draws
            _write(work, name, meas, weights)
            out[name] = result
    done = subprocess.run([rscript, str(ORACLE / "run_smaa.R"), str(work / "library"), str(work), *SCENARIOS],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    answers = {}
    for name, result in out.items():
        counts = np.loadtxt(work / f"{name}.counts", ndmin=2)
        cw = pd.read_csv(work / f"{name}.cw", sep=r"\s+", header=None).to_numpy(float) \
            if (work / f"{name}.cw").exists() else None
        cf = pd.read_csv(work / f"{name}.cf", header=None, na_values="NA")[0].to_numpy(float) if (work / f"{name}.cf").exists() else None
        answers[name] = (result, counts, cw, cf)
    return answers


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_rank_acceptability_equals_r_smaa_on_the_same_draws(r_smaa, name):
    result, counts, _, _ = r_smaa[name]
    np.testing.assert_array_equal(np.round(result.rank_acceptability.to_numpy() * result.n_draws), counts)


@pytest.mark.parametrize("name", [n for n in SCENARIOS if n != "bootstrap_exact"])
def test_central_weights_and_confidence_factors_equal_r_smaa(r_smaa, name):
    result, _, cw, cf = r_smaa[name]
    np.testing.assert_allclose(result.central_weights.to_numpy(), cw, rtol=1e-12, atol=1e-15, equal_nan=True)
    np.testing.assert_array_equal(np.round(result.confidence_factors.to_numpy() * result.n_draws), cf)
    assert np.isfinite(cf).sum() >= 2  # more than one method reaches the first rank: a real comparison


def test_r_smaa_gives_no_central_weights_under_exact_weights_as_mcda(r_smaa):
    result, _, cw, cf = r_smaa["bootstrap_exact"]
    assert cw is None and cf is None  # run_smaa.R writes none: smaa() gives none for one weight vector
    assert result.central_weights.isna().all().all()


# --------------------------------------------------------------------------- behaviour

def test_same_rng_same_result_and_methods_order_free():
    cube = criteria_cube(8, 5)
    a = mcda.smaa(cube, n_draws=3000, rng=4)
    b = mcda.smaa(cube, n_draws=3000, rng=np.random.default_rng(4))
    pd.testing.assert_frame_equal(a.rank_acceptability, b.rank_acceptability)
    reordered = mcda.smaa(cube.isel(method=[4, 2, 0, 1, 3]), n_draws=3000, rng=4)
    pd.testing.assert_frame_equal(a.rank_acceptability, reordered.rank_acceptability.loc[a.methods])
    pd.testing.assert_frame_equal(a.central_weights, reordered.central_weights.loc[a.methods], rtol=1e-12)


def test_memory_stays_bounded_as_the_draws_grow():
    # 200 methods x 5 criteria: the kept counts are 200 x 200; each block holds at most _BLOCK_VALUES numbers
    gen = np.random.default_rng(0)
    k, m, n_datasets = 200, 5, 30
    data = gen.normal(size=(n_datasets, k, m))
    cube = mcda.score_cube(pd.DataFrame({
        "dataset": np.repeat([f"d{i}" for i in range(n_datasets)], k * m),
        "method": np.tile(np.repeat([f"m{j:03d}" for j in range(k)], m), n_datasets),
        "metric": np.tile([f"c{c}" for c in range(m)], n_datasets * k), "score": data.ravel()}),
        direction={f"c{c}": "higher_is_better" for c in range(m)})
    peaks = []
    for n_draws in (2_000, 8_000):
        tracemalloc.start()
        mcda.smaa(cube, n_draws=n_draws, rng=1)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    assert peaks[1] < 1.25 * peaks[0] and peaks[1] < 64 * 2**20, peaks
    with mcda.set_options(memory_limit="1MiB"):
        with pytest.raises(mcda.McdaArgumentError, match="200 × 200 rank acceptabilities: about"):
            mcda.smaa(cube, n_draws=10, rng=1)
    with mcda.set_options(compute_limit=1.0):
        with pytest.raises(mcda.McdaArgumentError, match="10,000,000 draws") as err:
            mcda.smaa(cube, n_draws=10**7, rng=1)
    assert err.value.argument == "n_draws"


def test_missing_results_exclude_the_method_by_name():
    cube = criteria_cube(6, 4, missing=("d02", "m1"))
    with pytest.warns(mcda.MissingDataWarning, match="m1"):
        res = mcda.smaa(cube, n_draws=500, rng=1)
    assert "m1" not in res.methods and "d02" in res.excluded["m1"]


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"weights": ["accuracy", "runtime"]}, "must list every criterion"),
    ({"weights": {"accuracy": (0.9, 1.0), "runtime": (0.5, 1.0)}}, "leave no weight vector summing to 1"),
    ({"weights": {"accuracy": (0.0, 0.0005), "runtime": (0.0, 0.0005)}}, "keep about"),
    ({"weights": {"accuracy": 1.0}}, "name every criterion"),
    ({"weights": "equal"}, "`weights` must be None or 'uniform'"),
    ({"uncertainty": "seeds"}, "needs scores with a 'seed' dim"),
    ({"uncertainty": "folds"}, "`uncertainty` must be one of"),
    ({"ranges": "card"}, "unbounded range"),
    ({"ranges": {"runtime": (5, 1)}}, "low < high"),
    ({"n_draws": 0}, "`n_draws` must be an integer >= 1"),
])
def test_bad_arguments_are_refused_naming_them(kwargs, match):
    with pytest.raises(mcda.McdaArgumentError, match=match):
        mcda.smaa(criteria_cube(4, 3), **kwargs)


# --------------------------------------------------------------------------- figures (geometry without drawing, then drawn)

def test_rank_bins_cover_every_rank_once():
    from mcda.present.plots.acceptability import binned_shares, rank_bins

    for k in (2, 8, 9, 12, 50, 200, 1001):
        bins = rank_bins(k)
        covered = [r for a, b in bins for r in range(a, b + 1)]
        assert covered == list(range(1, k + 1)), k
        assert len(bins) <= 12
    table = np.random.default_rng(0).dirichlet(np.ones(50), size=50)
    np.testing.assert_allclose(binned_shares(table, rank_bins(50)).sum(axis=1), 1.0)


@pytest.mark.parametrize("k", [8, 50])
def test_figures_draw_every_method_and_criterion(k):
    import matplotlib.pyplot as plt

    from mcda.plots import plot_central_weights, plot_rank_acceptability

    res = mcda.smaa(criteria_cube(6, k), n_draws=400, rng=2)
    fig, ax = plot_rank_acceptability(res)
    segments = [p for p in ax.patches if (p.get_gid() or "").startswith("rank_segment_")]
    assert len(segments) == k * (k if k <= 8 else 7)   # 50 methods: ranks 1, 2, 3, 4-5, 6-10, 11-20, 21-50
    first = [p for p in segments if p.get_gid() == "rank_segment_1"]
    np.testing.assert_allclose(sorted(p.get_width() for p in first), sorted(res.rank_acceptability[1]))
    fig2, (weights, _) = plot_central_weights(res)
    shown = res.confidence_factors.notna().sum()
    assert len([p for p in weights.patches if (p.get_gid() or "").startswith("central_weight_")]) == shown * 3
    assert [t.get_text() for t in weights.get_legend().get_texts()] == res.metrics
    plt.close(fig)
    plt.close(fig2)


# --------------------------------------------------------------------------- the report and the command line

def test_report_of_several_metrics_writes_smaa_from_the_result(tmp_path):
    cube = mcda.datasets.synthetic_criteria(n_datasets=12, n_methods=5, rng=0)
    report = mcda.Report(cube, metric="accuracy", rng=5)
    res = report.smaa(n_draws=10_000)
    assert res is report.smaa() and res.metrics == ["accuracy", "runtime", "memory_mb"]
    overview = report.overview()
    assert "== Several criteria under uncertainty: SMAA-2" in overview
    top = res.order[0]
    assert f"{top}: first-rank acceptability {res.rank_acceptability.loc[top, 1]:.3f}" in overview
    text = report.text()
    assert "weighed together with SMAA-2 [@lahdelma2001; @tervonen2008]" in text
    assert f"{top.replace('_', chr(92) + '_')} {res.rank_acceptability.loc[top, 1]:.1%}" in text
    assert "@article{lahdelma2001" in text
    single = mcda.Report(cube.mcda.sel(metric="accuracy"), rng=5)
    assert not single.has_criteria and "SMAA-2" not in single.overview()


def test_compare_on_a_multi_metric_file_writes_the_smaa_figures(tmp_path):
    from mcda.app.cli import main

    cube = mcda.datasets.synthetic_criteria(n_datasets=10, n_methods=4, rng=1)
    path = tmp_path / "tradeoffs.csv"
    cube.to_dataframe(name="score").reset_index()[["dataset", "method", "metric", "score"]].to_csv(path, index=False)
    import io

    out = io.StringIO()
    code = main(["compare", str(path), "--metric", "accuracy", "--out", str(tmp_path / "out"), "--rng", "3",
                 "--figures", "rank_acceptability,central_weights", "--jobs", "1"], stdout=out)
    assert code == 0
    assert "== Several criteria under uncertainty: SMAA-2" in out.getvalue()
    for name in ("rank_acceptability.png", "central_weights.png", "report.md"):
        assert (tmp_path / "out" / name).exists(), name
    assert "SMAA-2" in (tmp_path / "out" / "report.md").read_text()


# The sentences are read back against the result's own fields (no reference numbers: the test
# checks that the text states what the result holds, over a grid of sizes, weights and exclusions).
_ENTRY = r"(?P<name>[\w\\]+) (?P<share>[\d.]+)% \(± (?P<se>[\d.e-]+)%\)(?:, confidence factor (?P<cf>[\d.]+), " \
         r"central weights (?P<cw>[^;.]+(?:\.\d+[^;.]*)*))?"


@pytest.mark.parametrize(("n_methods", "weights", "missing"), [
    (3, None, None),
    (6, ["runtime", "accuracy", "memory"], ("d01", "m2")),
    (15, None, None),                                   # more methods ranking first than the sentence lists
    (4, {"accuracy": 0.5, "runtime": 0.3, "memory": 0.2}, None),
])
def test_sentences_state_the_result_over_a_grid(n_methods, weights, missing):
    import re

    from mcda.present.writeup import smaa_methods, smaa_results

    cube = criteria_cube(n_datasets=6, n_methods=n_methods, missing=missing, rng=n_methods)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mcda.McdaWarning)  # the method with a missing result is excluded, named
        res = mcda.smaa(cube, weights=weights, n_draws=4_000, rng=2)
    methods = smaa_methods(res, "[@cite]")
    assert f"The 3 criteria ({', '.join(res.metrics)})" in methods and "4,000 Monte Carlo draws" in methods
    for metric, row in res.ranges.iterrows():
        stated = re.search(rf"{metric} from (\S+) \(0\) to (\S+) \(1\)", methods)
        assert float(stated.group(1)) == pytest.approx(row.worst, rel=1e-3)
        assert float(stated.group(2)) == pytest.approx(row.best, rel=1e-3)
    assert ("weights were fixed" in methods) == (weights is not None and isinstance(weights, dict))
    assert (f"({', '.join(res.excluded)}) was left out" in methods) == bool(res.excluded)

    limit = 5
    text = smaa_results(res, max_methods=limit)
    body = text.split(" was ", 1)[1].rstrip(".")
    first = res.rank_acceptability[1]
    ranked_first = [m for m in res.order if first[m] > 0]
    entries = [re.fullmatch(_ENTRY, part) for part in body.split("; ")[:min(limit, len(ranked_first))]]
    assert [e.group("name") for e in entries] == ranked_first[:limit]
    for e in entries:
        m = e.group("name")
        assert float(e.group("share")) / 100 == pytest.approx(first[m], rel=0.05)  # two or three significant digits
        assert float(e.group("se")) / 100 == pytest.approx(res.rank_acceptability_se.loc[m, 1], rel=0.05)
        if np.isnan(res.confidence_factors[m]):
            assert e.group("cf") is None
        else:
            assert float(e.group("cf")) == pytest.approx(res.confidence_factors[m], abs=0.00501)
            stated = dict(part.rsplit(" ", 1) for part in e.group("cw").split(", "))
            assert {k: float(v) for k, v in stated.items()} == pytest.approx(
                res.central_weights.loc[m].to_dict(), abs=0.00501)
    more = len(ranked_first) - limit
    assert (f"and {more} more" in text) == (more > 0)
    never = int((first == 0).sum())
    assert (f"{never} method{'s' if never != 1 else ''} never ranked first" in text) == (never > 0)

