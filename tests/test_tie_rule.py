"""One tie rule everywhere: method a scores 0.1 + 0.2, method b 0.3, on 12 datasets.

In exact arithmetic the two are equal; in float64 they differ by one ulp, the rounding of one
addition. Every public procedure that compares or ranks scores must call all 12 a tie (the
reference is arithmetic itself: 0.1 + 0.2 = 0.3), never a 12-0 win for a.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from scipy import stats

import mcda
from mcda._core.numeric import rank, snap_differences, score_tolerance, tied

N = 12
A, B = 0.1 + 0.2, 0.3
DATASETS = [f"d{i}" for i in range(N)]
TWO = pd.DataFrame({"a": np.full(N, A), "b": np.full(N, B)}, index=DATASETS)
# a third method clearly better, so that omnibus tests have something to find
THREE = TWO.assign(c=np.linspace(0.5, 0.9, N))
HB = "higher_is_better"


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def test_the_probe_is_one_ulp_apart():
    assert A != B and abs(A - B) <= score_tolerance(max(A, B))
    assert tied(A, B) and not tied(0.3, 0.3 + 1e-12)


def test_ranker_ties_the_probe_and_agrees_with_scipy_on_separated_values():
    assert rank(np.array([A, B]), descending=True).tolist() == [1.5, 1.5]
    rng = np.random.default_rng(1)
    values = np.round(rng.random((40, 7)), 2)  # ties by equality only; otherwise far apart
    values[rng.random(values.shape) < 0.1] = np.nan
    # reference: scipy.stats.rankdata
    np.testing.assert_array_equal(rank(values), stats.rankdata(values, axis=1, nan_policy="omit"))
    np.testing.assert_array_equal(rank(-values, descending=True), stats.rankdata(values, axis=1, nan_policy="omit"))


def test_numba_path_of_the_ranker_equals_the_numpy_path():
    from mcda._core._kernels.rank_positions import rank_rows_average
    from mcda._core.numeric import EPS, SCORE_ULPS

    rng = np.random.default_rng(2)
    values = np.round(rng.random((300, 9)), 1)
    values[:, 3] = values[:, 2] + values[:, 2] * 2e-16  # near ties the rule joins
    values[rng.random(values.shape) < 0.1] = np.nan
    out = np.empty_like(values)
    rank_rows_average(values, out, SCORE_ULPS * EPS)
    np.testing.assert_array_equal(out, rank(values, descending=True))


def test_snap_differences_zeroes_the_probe():
    a, b = np.full((1, N), A), np.full((1, N), B)
    assert (snap_differences(a - b, score_tolerance(np.array([A]))) == 0).all()


def _pair(frame):
    return frame.iloc[0]


def test_pool_independent_views_call_every_dataset_a_tie():
    for test in ("sign", "wilcoxon"):
        row = _pair(mcda.pairwise_over_datasets(TWO, direction=HB, test=test).to_frame())
        assert (row.wins_a, row.wins_b, row.n_ties) == (0, 0, N), test
        assert np.isnan(row.p_raw) and not row.significant
        assert row.mean_rank_a == row.mean_rank_b
    row = _pair(mcda.pairwise_superiority(TWO, direction=HB, rope=0.0).to_frame())
    assert (row.wins_a, row.wins_b, row.n_equivalent) == (0, 0, N)
    row = _pair(mcda.pairwise_counts(TWO, direction=HB, rope=0.0).to_frame())
    assert (row.wins_a, row.wins_b, row.n_equivalent) == (0, 0, N)


def test_the_probe_and_exact_equality_give_the_same_omnibus():
    exact = THREE.assign(b=THREE["a"])
    for test in (mcda.friedman_test, mcda.friedman_aligned_ranks_test, mcda.quade_test):
        assert test(THREE, direction=HB).statistic == test(exact, direction=HB).statistic, test.__name__


def test_rank_procedures_give_a_and_b_the_same_rank():
    assert mcda.rank_table(TWO, direction=HB).to_numpy().tolist() == [[1.5, 1.5]] * N
    for result in (mcda.mean_ranks(THREE, direction=HB), mcda.average_ranks(THREE, direction=HB)):
        assert result.mean_ranks["a"] == result.mean_ranks["b"] == 2.5
    for test in (mcda.friedman_test, mcda.friedman_aligned_ranks_test, mcda.quade_test):
        ranks = test(THREE, direction=HB).mean_ranks
        assert ranks["a"] == ranks["b"], test.__name__


def test_incomplete_designs_tie_the_probe():
    incomplete = THREE.copy()
    incomplete.iloc[0, 2] = np.nan
    sm = mcda.skillings_mack_test(incomplete, direction=HB)
    # Skillings-Mack with a and b tied everywhere equals the test on the same data with b set to a exactly
    exact = incomplete.assign(b=incomplete["a"])
    assert sm.statistic == mcda.skillings_mack_test(exact, direction=HB).statistic
    ranks_sm = mcda.rank_table(incomplete, direction=HB, missing="available")
    assert (ranks_sm["a"] == ranks_sm["b"]).all()


def test_bayesian_and_plackett_luce_see_no_difference():
    row = _pair(mcda.bayesian_sign_comparison(TWO, direction=HB, rope=0.0).to_frame())
    assert row.prob_a_better == row.prob_b_better
    pl = mcda.plackett_luce(THREE, direction=HB, rng=0)
    worth = pl.to_frame().set_index("method")["worth"] if "method" in pl.to_frame() else pl.to_frame()["worth"]
    assert abs(worth["a"] - worth["b"]) < 0.05  # symmetric up to Monte Carlo noise; untied, a would dominate b


def test_within_dataset_paired_tests_tie_the_probe():
    cube = xr.DataArray(np.stack([np.full((1, 5), A), np.full((1, 5), B)], axis=1),
                        dims=("dataset", "method", "seed"),
                        coords={"dataset": ["d0"], "method": ["a", "b"], "seed": np.arange(5)},
                        attrs={"direction": HB})
    for method in ("wilcoxon", "t"):
        row = _pair(mcda.paired_tests(cube, method=method).to_frame())
        assert row.mean_diff == 0.0 and np.isnan(row.p_raw) and "exactly 0" in row.reason


def test_the_compiled_tie_zeroed_differences_equal_the_rule_written_in_numpy():
    # the paired tests over all pairs zero tied differences in one compiled pass; it must say what
    # np.where(tied(a, b), 0, a - b) says, cell by cell: ulp-close scores, equal infinities,
    # an infinity against a finite score, NaN, signed zeros and ordinary values
    from mcda._core.numeric import tie_zeroed_differences, tied

    rng = np.random.default_rng(7)
    a = rng.normal(0.0, 1.0, (40, 25))
    b = a.copy()
    b[::3] = a[::3] + rng.normal(0.0, 1.0, a[::3].shape)      # ordinary differences
    b[1::3] = np.nextafter(a[1::3], np.inf)                     # one ulp apart: tied
    b[2::6] = a[2::6] * (1 + 1e-12)                              # far beyond the rule: not tied
    a[0, :4], b[0, :4] = [np.inf, -np.inf, np.inf, 1.0], [np.inf, -np.inf, 5.0, np.nan]
    a[1, 0], b[1, 0] = 0.1 + 0.2, 0.3
    a[1, 1], b[1, 1] = -0.0, 0.0
    expected = np.where(tied(a, b), 0.0, a - b)
    got = tie_zeroed_differences(a, b)
    np.testing.assert_array_equal(got, expected)
    assert got[1, 0] == 0.0 and np.isnan(got[0, 3]) and got[0, 2] == np.inf
