"""Effect sizes (mcda.effect_sizes): autorank run in the tests, scipy for d_z, the kernel's stream in plain Python."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import mcda
from mcda.stats.effects import EFFECT_SIZE_THRESHOLDS, magnitude

autorank = pytest.importorskip("autorank")
from autorank import _util as autorank_util  # noqa: E402


def _wide(seed, n=20, k=4, decimals=3):
    rng = np.random.default_rng(seed)
    values = 0.7 + 0.1 * rng.normal(size=(n, 1)) + 0.03 * rng.normal(size=(n, k)) + np.linspace(0, 0.04, k)
    return pd.DataFrame(np.round(values, decimals), index=[f"d{i}" for i in range(n)],
                        columns=[f"m{j}" for j in range(k)])


@pytest.mark.parametrize("kind,autorank_kind", [("cohen_d_pooled", "cohen_d"), ("cliff_delta", "cliff_delta"),
                                                ("akinshin_gamma", "akinshin_gamma")])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_against_best_equals_autorank(kind, autorank_kind, seed, capsys):
    # lower is better here: autorank 1.3.0's order="descending" lists the *worst* method first (its rankdf is
    # sorted by mean rank in descending order), so its "best" is only the best with order="ascending"
    wide = _wide(seed)
    res = mcda.effect_sizes(wide, direction="lower_is_better", kind=kind, rng=0, n_resamples=99)
    ranked = autorank.autorank(wide.reset_index(drop=True), alpha=0.05, verbose=False, order="ascending",
                               effect_size=autorank_kind)
    capsys.readouterr()  # autorank prints its table
    best = ranked.rankdf.index[0]
    frame = res.to_frame()
    assert set(frame["method_a"]) == {best}
    for row in frame.itertuples():
        # autorank's effect is in the scores' own direction (best - other); mcda's is oriented (positive = better)
        assert row.effect_size == pytest.approx(-float(ranked.rankdf.at[row.method_b, "effect_size"]), rel=1e-12,
                                                abs=1e-15)
        assert row.magnitude == ranked.rankdf.at[row.method_b, "magnitude"]


@pytest.mark.parametrize("kind,function", [("cohen_d_pooled", "_cohen_d"), ("cliff_delta", "_cliffs_delta"),
                                           ("akinshin_gamma", "_akinshin_gamma")])
def test_all_pairs_and_within_datasets_equal_autorank_formulas(kind, function):
    wide = _wide(3, n=15, k=5)
    frame = mcda.effect_sizes(wide, direction="higher_is_better", kind=kind, against="all", n_resamples=9,
                              rng=1).to_frame()
    assert len(frame) == 10
    for row in frame.itertuples():
        expected = getattr(autorank_util, function)(wide[row.method_a], wide[row.method_b])
        assert row.effect_size == pytest.approx(expected, rel=1e-12, abs=1e-15)
    seeds = mcda.datasets.synthetic(n_datasets=3, n_methods=3, n_seeds=8, rng=4)
    within = mcda.effect_sizes(seeds, direction="higher_is_better", kind=kind, against="all", n_resamples=9,
                               rng=1).to_frame()
    for row in within.itertuples():
        a = seeds.sel({"dataset": row.dataset, "method": row.method_a}).to_numpy()
        b = seeds.sel({"dataset": row.dataset, "method": row.method_b}).to_numpy()
        assert row.effect_size == pytest.approx(getattr(autorank_util, function)(a, b), rel=1e-12, abs=1e-15)


def test_cohen_dz_is_the_paired_t_over_root_n():
    wide = _wide(5, n=25, k=3)
    frame = mcda.effect_sizes(wide, direction="higher_is_better", against="m0", n_resamples=9, rng=0).to_frame()
    for row in frame.itertuples():
        t = stats.ttest_rel(wide[row.method_a], wide[row.method_b]).statistic  # scipy
        assert row.effect_size == pytest.approx(t / np.sqrt(len(wide)), rel=1e-12)
    # d_z differs from autorank's pooled d when the scores are correlated across datasets (here strongly)
    pooled = autorank_util._cohen_d(wide["m0"], wide["m2"])
    dz = frame.set_index("method_b").at["m2", "effect_size"]
    assert abs(dz) > 2 * abs(pooled)


def test_magnitude_labels_equal_autorank():
    grid = np.linspace(-1.2, 1.2, 241)
    for kind, autorank_kind in [("cohen_d", "cohen_d"), ("cliff_delta", "cliff_delta"),
                                ("akinshin_gamma", "akinshin_gamma")]:
        ours = magnitude(grid, kind)
        theirs = [autorank_util._effect_level(v, autorank_kind) for v in grid]
        assert list(ours) == theirs
    assert EFFECT_SIZE_THRESHOLDS["cliff_delta"][0] == (0.147, 0.33, 0.474)


def _python_stream(key: int, count: int):
    """The SplitMix64 uniforms of mcda._core._kernels (low half first), in plain Python integers."""
    mask = (1 << 64) - 1
    out = []
    k = 1
    while len(out) < count:
        z = (key + k * 0x9E3779B97F4A7C15) & mask
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        z ^= z >> 31
        out += [z & 0xFFFFFFFF, z >> 32]
        k += 1
    return out[:count]


@pytest.mark.parametrize("kind", ["cohen_d", "cohen_d_pooled", "cliff_delta", "akinshin_gamma"])
def test_kernel_resamples_equal_a_plain_python_reference(kind):
    from mcda._core._kernels.effect_sizes import KINDS, resampled_effects

    rng = np.random.default_rng(9)
    x, y = np.round(rng.normal(size=7), 2), np.round(rng.normal(size=7), 2)
    key, n_resamples, n = 0x1234_5678_9ABC_DEF0, 50, 7
    got = resampled_effects(x, y, KINDS[kind], np.uint64(key), n_resamples)
    uniforms = _python_stream(key, n_resamples * n)
    for b in range(n_resamples):
        idx = [(u * n) >> 32 for u in uniforms[b * n:(b + 1) * n]]
        xs, ys = x[idx], y[idx]
        if kind == "cohen_d":
            d = xs - ys
            sd = d.std(ddof=1)
            expected = 0.0 if (sd == 0 and d.mean() == 0) else d.mean() / sd if sd > 0 else np.sign(d.mean()) * np.inf
        elif kind == "cohen_d_pooled":
            expected = autorank_util._cohen_d(xs, ys)
        elif kind == "cliff_delta":
            expected = autorank_util._cliffs_delta(xs, ys)
        else:
            with np.errstate(divide="ignore", invalid="ignore"):
                expected = autorank_util._akinshin_gamma(xs, ys)
            if np.isnan(expected):
                expected = 0.0
        assert got[b] == pytest.approx(expected, rel=1e-12, abs=1e-14), b


def test_interval_is_the_percentile_of_the_resamples_and_covers_the_estimate():
    wide = _wide(6, n=30, k=2)
    res = mcda.effect_sizes(wide, direction="higher_is_better", against="all", n_resamples=4999, rng=3,
                            confidence_level=0.9)
    row = res.to_frame().iloc[0]
    assert row.ci_low < row.effect_size < row.ci_high
    again = mcda.effect_sizes(wide, direction="higher_is_better", against="all", n_resamples=4999, rng=3,
                              confidence_level=0.9)
    pd.testing.assert_frame_equal(res.to_frame(), again.to_frame())


def test_orientation_and_order_do_not_change_the_interval():
    wide = _wide(7, n=18, k=3)
    one = mcda.effect_sizes(wide, direction="higher_is_better", against="all", rng=5, n_resamples=999).to_frame()
    swapped = wide[["m2", "m1", "m0"]].iloc[::-1]
    two = mcda.effect_sizes(swapped, direction="higher_is_better", against="all", rng=5, n_resamples=999).to_frame()
    two = two.set_index(["method_b", "method_a"])  # pairs come reversed
    for row in one.itertuples():
        other = two.loc[(row.method_a, row.method_b)]
        assert other.effect_size == pytest.approx(-row.effect_size, rel=1e-12)
        assert other.ci_low == pytest.approx(-row.ci_high, rel=1e-12)
        assert other.ci_high == pytest.approx(-row.ci_low, rel=1e-12)


def test_lower_is_better_is_oriented():
    wide = _wide(8, n=12, k=3)
    up = mcda.effect_sizes(wide, direction="higher_is_better", rng=0, n_resamples=99).to_frame()
    down = mcda.effect_sizes(-wide, direction="lower_is_better", rng=0, n_resamples=99).to_frame()
    pd.testing.assert_frame_equal(up, down)


def test_bad_inputs_name_the_argument():
    wide = _wide(9)
    with pytest.raises(ValueError, match="`kind`"):
        mcda.effect_sizes(wide, direction="higher_is_better", kind="hedges_g")
    with pytest.raises(ValueError, match="`against`"):
        mcda.effect_sizes(wide, direction="higher_is_better", against="m9")
    with pytest.raises(ValueError, match="`confidence_level`"):
        mcda.effect_sizes(wide, direction="higher_is_better", confidence_level=1.5)


def test_a_lazy_cube_is_refused_by_name():
    pytest.importorskip("dask")
    cube = mcda.datasets.synthetic(n_datasets=4, n_methods=3, n_seeds=5, rng=0).chunk({"dataset": 2})
    with pytest.raises(ValueError, match="effect_sizes cannot run chunk-wise"):
        mcda.effect_sizes(cube, direction="higher_is_better")
