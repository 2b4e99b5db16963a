"""Every across-dataset view gives the same result on a lazy (dask-backed) cube as in memory.

Each view runs on the very same scores in memory and lazily: chunked along ``dataset`` in blocks
of 7 and of 40 (the last one short), and in blocks of 7 on a ``distributed`` cluster
(``Client(processes=False)``). The reference is the in-memory result, itself checked against
published tables, scipy, scikit-posthocs, baycomp and choix in the other test files; here only
the parity is asserted, field by field of the result and warning by warning.

The results are identical (exact equality): ranks are half-integers and counts integers, so
their sums do not depend on the blocks. Two views are compared to 1e-12 instead, because their
arithmetic is a floating-point sum whose order follows the blocks: ``marginal_means`` (sums of
scores over shared datasets, added block by block) and ``method_summary`` (Chan, Golub &
LeVeque's pairwise update of mean and M2 across blocks). ``rank_stability`` with random draws is
exact for a lazy cube of one chunk (drawn as in memory); over several chunks its draws are
other draws by design (documented), so there the parity is asserted with fixed resamples
(``_stability_from_indices``) and, for random draws, on everything that does not depend on the
draws (mean ranks, jackknife).
"""

from __future__ import annotations

import dataclasses
import math
import warnings

import numpy as np
import pandas as pd
import pytest
import xarray as xr

dask = pytest.importorskip("dask")

import mcda  # noqa: E402
from mcda import store  # noqa: E402
from mcda.stats._shared import ranks

N_DATASETS, N_METHODS = 120, 5
SETUPS = ("chunks7", "chunks40", "distributed7")


def _scores(missing: bool) -> xr.DataArray:
    rng = np.random.default_rng(4)
    effects = np.linspace(0.0, 0.06, N_METHODS)
    values = np.round(0.7 + rng.normal(0, 0.05, (N_DATASETS, 1)) + effects + rng.normal(0, 0.03, (N_DATASETS,
                                                                                                  N_METHODS)), 2)
    names = [f"m{j}" for j in range(N_METHODS)]
    datasets = [f"d{i:03d}" for i in range(N_DATASETS)][::-1]  # stored out of label order
    if not missing:
        return mcda.score_cube(values, metric="accuracy", method_names=names, dataset_names=datasets)
    values = 1.0 - values  # an error rate: lower is better
    values[3, 1] = np.nan  # m1 lacks a dataset of the first block
    values[50, :] = np.nan  # no method has this dataset
    values[N_DATASETS - 1, 4] = np.nan  # m4 lacks the last dataset (last, short block)
    values[80, 2] = np.nan
    return mcda.score_cube(values, metric="brier", method_names=names, dataset_names=datasets)


@pytest.fixture(scope="module", params=["complete", "missing"])
def data(request):
    return _scores(request.param == "missing")


@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("distributed")
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=":0") as c:
        yield c


def _fixed_stability(cube, **_):
    agg = ranks._prepare_aggregation(cube, aggregation="uniform", groups=None, weights=None, direction=None,
                                     method_names=None).sorted_by_dataset()
    n = agg.prep.n_datasets
    # the same datasets in every run: drawn by label order, as positions in the aggregation's order
    # (label order in memory; the store's order for a lazy cube of several chunks)
    by_label = np.argsort(np.array(agg.datasets, dtype=object), kind="stable")
    indices = by_label[np.random.default_rng(9).integers(n, size=(300, n))]
    return ranks._stability_from_indices(agg, [indices[:120], indices[120:]], confidence_level=0.9)


def _design(cube):
    prep = ranks.prepare_across(cube)
    return {"methods": prep.methods, "columns": prep.columns, "kept": prep.kept, "excluded": prep.excluded,
            "empty_datasets": prep.empty_datasets, "datasets": prep.datasets}


def _design_available(cube):
    prep = ranks.prepare_across(cube, missing="available")
    return {"methods": prep.methods, "kept": prep.kept, "empty_datasets": prep.empty_datasets}


def _friedman_and_iman_davenport(cube):
    f = mcda.friedman_test(cube)
    return f, mcda.iman_davenport(f.statistic, f.n_methods, f.n_datasets)


def _superiority_views(cube):
    report = mcda.pairwise_superiority(cube, adjust="holm")
    return report, mcda.pairwise_transitivity(report), mcda.bradley_terry(report)


def _sampling(cube, **kwargs):
    return mcda.bayesian_sign_comparison(cube, rope=0.01, method="sampling", n_samples=3000, rng=5, progress=False,
                                         **kwargs)


# name -> (view, exact): every view that reads all datasets of a cube
VIEWS = {
    "design[complete-case flags]": (_design, True),
    "design[available]": (_design_available, True),
    "rank_table": (lambda c: mcda.rank_table(c), True),
    "rank_table[available]": (lambda c: mcda.rank_table(c, missing="available"), True),
    "average_ranks": (lambda c: mcda.average_ranks(c), True),
    "average_ranks[available]": (lambda c: mcda.average_ranks(c, missing="available"), True),
    "mean_ranks[uniform]": (lambda c: mcda.mean_ranks(c), True),
    "mean_ranks[uniform, available]": (lambda c: mcda.mean_ranks(c, missing="available"), True),
    "friedman_test+iman_davenport": (_friedman_and_iman_davenport, True),
    "friedman_test[from lazy MeanRanks]": (lambda c: mcda.friedman_test(mcda.average_ranks(c)), True),
    "nemenyi": (lambda c: mcda.nemenyi(c), True),
    "bonferroni_dunn": (lambda c: mcda.bonferroni_dunn(c, control="m0"), True),
    **{f"control_test[{t}]": ((lambda t: lambda c: mcda.control_test(c, control="m0", test=t))(t), True)
       for t in ("bonferroni-dunn", "holm", "hochberg", "hommel", "conover", "siegel")},
    **{f"all_pairs_test[{t}]": ((lambda t: lambda c: mcda.all_pairs_test(c, test=t))(t), True)
       for t in ("nemenyi", "holm", "shaffer", "bergmann-hommel", "conover", "siegel", "miller")},
    "all_pairs_test[conover, single-step]": (lambda c: mcda.all_pairs_test(c, test="conover", adjust="single-step"),
                                             True),
    **{f"control_test[{t}, adjust]": ((lambda t: lambda c: mcda.control_test(c, control="m0", test=t,
                                                                             adjust="hochberg"))(t), True)
       for t in ("conover", "siegel")},
    **{f"compare_over_datasets[{t}]": ((lambda t: lambda c: mcda.compare_over_datasets(c, test=t))(t), True)
       for t in ("nemenyi", "holm", "shaffer", "bergmann-hommel")},
    **{f"compare_over_datasets[{t}, control]": (
        (lambda t: lambda c: mcda.compare_over_datasets(c, test=t, control="m0"))(t), True)
       for t in ("bonferroni-dunn", "holm", "hochberg", "hommel")},
    "pairwise_counts": (lambda c: mcda.pairwise_counts(c), True),
    "pairwise_counts[rope]": (lambda c: mcda.pairwise_counts(c, rope=0.02), True),
    "pairwise_superiority+transitivity+bradley_terry": (_superiority_views, True),
    "bayesian_sign_comparison[exact]": (lambda c: mcda.bayesian_sign_comparison(c, rope=0.01), True),
    "bayesian_sign_comparison[sampling]": (_sampling, True),
    "bayesian_sign_comparison[baycomp]": (lambda c: _sampling(c, reproduce="baycomp"), True),
    "rank_stability[fixed indices]": (_fixed_stability, True),
    "rank_stability[jackknife, mean ranks]": (
        lambda c: (lambda r: (r.mean_ranks, r.jackknife, r.n_datasets, r.excluded))(
            mcda.rank_stability(c, n_resamples=200, rng=3)), True),
    "marginal_means": (lambda c: mcda.marginal_means(c), False),
    "method_summary": (lambda c: mcda.method_summary(c), False),
}


def _record(view, cube):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = view(cube)
    return result, [(w.category, str(w.message)) for w in caught]


def _assert_same(here, there, exact: bool, where: str = "result"):
    if isinstance(there, xr.DataArray) and isinstance(here, pd.DataFrame):  # a lazy table
        assert store.is_lazy(there), where
        np.testing.assert_array_equal(there.values, here.to_numpy(), err_msg=where)
        assert [str(d) for d in there.coords["dataset"].values] == list(here.index), where
        assert [str(m) for m in there.coords["method"].values] == list(here.columns), where
        assert there.attrs.get("excluded") == here.attrs.get("excluded"), where
    elif isinstance(here, pd.DataFrame):
        pd.testing.assert_frame_equal(here, there, check_exact=exact, rtol=1e-12, obj=where)
    elif isinstance(here, pd.Series):
        pd.testing.assert_series_equal(here, there, check_exact=exact, rtol=1e-12, obj=where)
    elif isinstance(here, np.ndarray):
        if exact or here.dtype.kind not in "fc":
            np.testing.assert_array_equal(here, there, err_msg=where)
        else:
            np.testing.assert_allclose(here, there, rtol=1e-12, atol=1e-15, equal_nan=True, err_msg=where)
    elif dataclasses.is_dataclass(here) and not isinstance(here, type):
        assert type(here) is type(there), where
        for f in dataclasses.fields(here):
            if f.name == "lazy":  # MethodSummary says how it was computed
                assert getattr(there, f.name) is True
                continue
            _assert_same(getattr(here, f.name), getattr(there, f.name), exact, f"{where}.{f.name}")
    elif isinstance(here, dict):
        assert list(here) == list(there), where
        for key in here:
            _assert_same(here[key], there[key], exact, f"{where}[{key!r}]")
    elif isinstance(here, (list, tuple)):
        assert len(here) == len(there), where
        for i, (a, b) in enumerate(zip(here, there)):
            _assert_same(a, b, exact, f"{where}[{i}]")
    elif isinstance(here, float) and math.isnan(here):
        assert isinstance(there, float) and math.isnan(there), where
    elif isinstance(here, float) and not exact:
        assert there == pytest.approx(here, rel=1e-12, abs=1e-15), where
    else:
        assert here == there, where


@pytest.mark.parametrize("setup", SETUPS)
@pytest.mark.parametrize("name", list(VIEWS))
def test_lazy_equals_in_memory(name, setup, data, request):
    view, exact = VIEWS[name]
    here, here_warnings = _record(view, data)
    lazy = data.chunk({"dataset": 40 if setup == "chunks40" else 7})
    assert store.is_lazy(lazy)
    if setup.startswith("distributed"):
        request.getfixturevalue("client")  # the default scheduler from here to the end of the module
        there, there_warnings = _record(view, lazy)
    else:
        with dask.config.set(scheduler="threads"):
            there, there_warnings = _record(view, lazy)
    _assert_same(here, there, exact)
    assert there_warnings == here_warnings  # the same warnings, word for word


def test_a_lazy_cube_of_one_chunk_draws_the_in_memory_bootstrap(data):
    here, here_warnings = _record(lambda c: mcda.rank_stability(c, n_resamples=400, rng=11), data)
    there, there_warnings = _record(lambda c: mcda.rank_stability(c, n_resamples=400, rng=11),
                                    data.chunk({"dataset": -1}))
    _assert_same(here, there, exact=True)
    assert there_warnings == here_warnings


def test_several_chunks_draw_other_resamples_of_the_same_distribution(data):
    # documented: per resample the multinomial split of the N draws over the chunks, then draws
    # within each chunk. The bootstrap mean of a mean is the observed mean (Efron & Tibshirani
    # 1993, ch. 6), so both runs centre on the same mean ranks within Monte Carlo error.
    here, _ = _record(lambda c: mcda.rank_stability(c, n_resamples=2000, rng=11), data)
    there, _ = _record(lambda c: mcda.rank_stability(c, n_resamples=2000, rng=11), data.chunk({"dataset": 7}))
    assert not np.array_equal(here.mean_rank_draws, there.mean_rank_draws)
    pd.testing.assert_series_equal(here.mean_ranks, there.mean_ranks, check_exact=True)
    for result in (here, there):
        draws = result.mean_rank_draws
        se = draws.std(axis=0) / math.sqrt(draws.shape[0])
        assert np.all(np.abs(draws.mean(axis=0) - result.mean_ranks.to_numpy()) <= 5 * se + 1e-12)


def test_the_complete_case_flags_agree_with_complete_cases(data):
    # the chunk-wise design is the one mcda.complete_cases gives in memory
    cc = mcda.complete_cases(data, policy="methods")
    for scores in (data, data.chunk({"dataset": 7})):
        with warnings.catch_warnings():  # the datasets without any result are named (and compared below)
            warnings.simplefilter("ignore", mcda.MissingDataWarning)
            prep = ranks.prepare_across(scores)
        assert prep.methods == [str(m) for m in cc.cube.coords["method"].values]
        assert prep.datasets == [str(d) for d in cc.cube.coords["dataset"].values]
        assert prep.excluded == cc.excluded and prep.empty_datasets == cc.empty_datasets


@pytest.mark.parametrize("call,name", [
    (lambda c: mcda.mean_ranks(c, aggregation="hierarchical", groups={}), "mcda.mean_ranks"),
    (lambda c: mcda.rank_stability(c, aggregation="custom", weights={}), "mcda.rank_stability"),
    (lambda c: mcda.bayesian_signed_rank_comparison(c, rope=0.01), "mcda.bayesian_signed_rank_comparison"),
    (lambda c: mcda.pairwise_over_datasets(c), "mcda.pairwise_over_datasets"),
    (lambda c: mcda.quade_test(c), "the Quade test"),
    (lambda c: mcda.friedman_aligned_ranks_test(c), "the Friedman aligned ranks test"),
    (lambda c: ranks.prepare_across(c).values, "this across-dataset view"),
])
def test_views_that_need_every_dataset_refuse_a_lazy_cube_by_name(data, call, name):
    with pytest.raises(ValueError, match=rf"lazy \(dask-backed\) cube.*{name}.*does not load"), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore", mcda.MissingDataWarning)
        call(data.chunk({"dataset": 7}))
