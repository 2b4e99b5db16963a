"""The Report and the command line at the sizes users have: nothing sampled that is not drawn.

The memory guard of the Bayesian views (``keep_draws``) once stopped ``Report.overview()`` from 64
methods up with advice the Report does not take. A small memory limit reproduces the same guard at
a dozen methods, so the test stays fast.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import mcda


def _cube(n_methods: int, n_datasets: int = 12):
    return mcda.score_cube(np.random.default_rng(0).uniform(0.5, 0.9, (n_datasets, n_methods)), metric="accuracy")


def test_the_guard_of_kept_draws_is_real_at_this_limit():
    # 66 pairs x 50,000 draws x 3 probabilities x 8 bytes = 79 MB > 10 MiB: the guard fires when draws are kept
    with mcda.set_options(memory_limit="10MiB"), pytest.raises(ValueError, match="keep_draws"):
        mcda.bayesian_signed_rank_comparison(_cube(12), rng=0, n_samples=50_000)


def test_report_views_keep_no_draws_they_do_not_draw():
    report = mcda.Report(_cube(12), rng=0)
    with mcda.set_options(memory_limit="10MiB"):
        signed = report.bayesian_signed_rank()
        sign = report.bayesian(method="sampling")
        text = report.overview()
    assert signed.to_frame().shape[0] == 66 and sign.to_frame().shape[0] == 66
    assert "keep_draws" not in text


def test_report_probabilities_do_not_depend_on_keeping_draws():
    cube = _cube(5)
    kept = mcda.bayesian_signed_rank_comparison(cube, rng=3, n_samples=20_000, keep_draws=True).to_frame()
    report = mcda.Report(cube, rng=3).bayesian_signed_rank(n_samples=20_000).to_frame()
    columns = ["method_a", "method_b", "prob_a_better", "prob_equivalent", "prob_b_better"]
    np.testing.assert_array_equal(kept[columns].to_numpy(), report[columns].to_numpy())


# --------------------------------------------------------------------------- the signed-rank test's cost

def _skips(n_methods: int, n_datasets: int) -> bool:
    from mcda.app.report import SIGNED_RANK_BUDGET

    pairs = n_methods * (n_methods - 1) // 2
    return pairs * 50_000 * n_datasets > SIGNED_RANK_BUDGET


@pytest.mark.parametrize("n_methods,n_datasets", [(12, 3100), (4, 40), (30, 20_000)])
def test_the_signed_rank_test_is_left_out_by_its_cost_and_the_text_says_so(n_methods, n_datasets):
    from mcda.app.report import Report

    cube = _cube(n_methods, n_datasets)
    report = Report(cube, rng=0)
    reason = report.signed_rank_skipped()
    assert (reason is not None) == _skips(n_methods, n_datasets)
    if reason is None:
        return
    pairs = n_methods * (n_methods - 1) // 2
    assert f"{pairs:,} pairs × 50,000 posterior draws × {n_datasets:,} datasets" in reason
    assert Report(cube, rng=0, signed_rank="always").signed_rank_skipped() is None
    if n_datasets <= 5000:  # the write-up names only the tests it ran (at 20,000 datasets: the reason alone)
        from mcda.present.writeup import methods_and_results

        methods, results, *_ = methods_and_results(report)
        assert "signed-rank" not in methods and "signed-rank" not in results
        assert "== Bayesian signed-rank test" in report.overview() and reason in report.overview()


def test_never_leaves_it_out_and_bad_values_are_named():
    from mcda.app.report import Report

    report = Report(_cube(4, 20), rng=0, signed_rank="never")
    assert "'never'" in report.signed_rank_skipped()
    with pytest.raises(ValueError, match="`signed_rank` must be one of"):
        Report(_cube(4, 20), signed_rank="sometimes")


# --------------------------------------------------------------------------- the Plackett-Luce model's cost

@pytest.mark.parametrize("n_methods,n_datasets", [(5, 30), (20, 30), (50, 60)])
def test_the_plackett_luce_model_is_left_out_by_its_cost_and_the_overview_says_so(n_methods, n_datasets):
    from mcda.app.report import PLACKETT_LUCE_BUDGET, Report, plackett_luce_draws

    # the work as the budget's docstring defines it: 4 chains x (draws + warm-up) sweeps x datasets x
    # methods x (1 + methods / 2), with the Report's default draws and warm-up max(500, draws // 4)
    draws = plackett_luce_draws(n_methods)
    sweeps = draws + max(500, draws // 4)
    work = 4 * sweeps * n_datasets * n_methods * (1 + n_methods / 2)
    report = Report(_cube(n_methods, n_datasets), rng=0)
    reason = report.plackett_luce_skipped()
    assert (reason is not None) == (work > PLACKETT_LUCE_BUDGET)
    assert (n_methods, n_datasets) != (50, 60) or reason is not None  # the 50-method benchmark run is over it
    if reason is None:
        return
    assert f"4 chains × {sweeps:,} sweeps over {n_datasets:,} datasets × {n_methods} methods" in reason
    assert reason in report.overview()
    assert Report(_cube(n_methods, n_datasets), rng=0, plackett_luce="always").plackett_luce_skipped() is None


def test_plackett_luce_never_leaves_it_out_and_bad_values_are_named():
    from mcda.app.report import Report

    assert "'never'" in Report(_cube(4, 20), rng=0, plackett_luce="never").plackett_luce_skipped()
    with pytest.raises(ValueError, match="`plackett_luce` must be one of"):
        Report(_cube(4, 20), plackett_luce="sometimes")


# --------------------------------------------------------------------------- the per-pair views, many rows at once

def _t_test_power(effect: float, n: float, alpha: float) -> float:
    """Power of the two-sided one-sample t test, integrated over the chi-square of the variance.

    P(|Z + d√n| > c·√(V/df)), Z normal, V chi-square on df = n − 1, c the t quantile: by
    quadrature, without the noncentral t (statsmodels' TTestPower returns NaN far in its tail).
    """
    from scipy import integrate, stats

    df, shift = n - 1.0, effect * math.sqrt(n)
    c = stats.t.isf(alpha / 2.0, df)
    log_norm = (df / 2.0) * math.log(2.0) + math.lgamma(df / 2.0)

    def density(v):   # plain floats: the integrand is called thousands of times
        edge = c * math.sqrt(v / df)
        beyond = 0.5 * math.erfc((edge - shift) / math.sqrt(2.0)) + 0.5 * math.erfc((edge + shift) / math.sqrt(2.0))
        return beyond * math.exp((df / 2.0 - 1.0) * math.log(v) - v / 2.0 - log_norm)

    low, high = stats.chi2.ppf(1e-16, df), stats.chi2.isf(1e-16, df)   # the variance's mass, bar 2e-16
    return integrate.quad(density, low, high, points=[df], epsabs=1e-13, epsrel=1e-11, limit=200)[0]


@pytest.mark.parametrize("alpha,target", [(0.05, 0.8), (0.01, 0.99), (0.2, 0.3), (0.05, 0.06)])
def test_seeds_needed_is_where_the_power_crosses_the_target(alpha, target):
    # the search starts near Guenther's approximation: whatever its start, the answer is the
    # smallest n >= 2 whose power (by quadrature, not the noncentral t) reaches the target
    from mcda.stats.within.seeds import _seeds_needed

    effects = np.concatenate([np.geomspace(0.05, 20.0, 10), [-0.5, 3.0]])
    needed = _seeds_needed(effects, alpha, target)
    for effect, n in zip(np.abs(effects), needed):
        assert n >= 2 and n == int(n)
        assert _t_test_power(effect, n, alpha) >= target
        if n > 2:
            assert _t_test_power(effect, n - 1, alpha) < target
    assert np.isnan(_seeds_needed(np.array([0.0, 1e-300]), alpha, target)).all()   # 0, or beyond 2**40 seeds


@pytest.mark.parametrize("rope", [0.0, 0.01])
def test_every_correlated_t_row_is_baycomp_on_its_own_pair(rope):
    # all (dataset, pair) rows are computed together; each must be baycomp's CorrelatedTTest on that pair
    baycomp = pytest.importorskip("baycomp")
    rng = np.random.default_rng(2)
    values = 0.8 + rng.normal(0, 0.01, (3, 5, 10)).round(3)
    values[0, 0] = values[0, 1]              # every difference 0
    values[1, 2] = values[1, 3] + 0.02       # one constant difference
    values[2, 4, 3] = np.nan                 # a missing fold
    folds = {f"d{d}": {f"m{m}": values[d, m] for m in range(5)} for d in range(3)}
    table = mcda.correlated_t_test(folds, "higher_is_better", rope=rope, runs=2).to_frame()
    assert len(table) == 3 * 10
    for row in table.itertuples():
        x, y = values[int(row.dataset[1:]), int(row.method_a[1:])], values[int(row.dataset[1:]), int(row.method_b[1:])]
        got = np.array([row.prob_a_better, row.prob_equivalent, row.prob_b_better])
        if np.isnan(x).any() or np.isnan(y).any():
            assert np.isnan(got).all() and row.reason == "1 of 10 fold scores missing"
            continue
        expected = baycomp.CorrelatedTTest.probs(x, y, rope=rope, runs=2)
        np.testing.assert_allclose(got[[0, 2]] if rope == 0 else got, expected, rtol=0, atol=1e-14)
        assert row.mean_diff == pytest.approx(np.mean(x - y), abs=1e-15)


# --------------------------------------------------------------------------- samplers refused by their cost

def _folds(n_methods: int):
    return mcda.datasets.synthetic(n_datasets=6, n_methods=n_methods, n_seeds=5, rng=1)


def test_the_samplers_state_their_cost_and_refuse_past_the_compute_limit():
    from mcda._core.validation import McdaArgumentError
    from mcda.stats.bayesian import hierarchical, plackett_luce

    cube = _folds(5)
    with mcda.set_options(compute_limit=1.0):
        with pytest.raises(McdaArgumentError) as caught:
            mcda.hierarchical_comparison(cube, rope=0.01, runs=1, rng=0)
    # 10 pairs × 4 chains × 11,000 draws × 6 datasets × the measured cost of a step
    seconds = 10 * 4 * 11_000 * 6 * hierarchical.SECONDS_PER_STEP
    assert caught.value.argument == "n_samples" and caught.value.value == 10_000
    message = str(caught.value)
    assert "10 pairs of 5 methods" in message and f"about {seconds:.0f} s of one core" in message
    assert "compute_limit" in message and "scores.mcda.sel(method=" in message

    flat = mcda.reduce_seeds(cube, how="mean")
    with mcda.set_options(compute_limit=1e-3):
        with pytest.raises(McdaArgumentError, match="6 rankings of 5 methods") as caught:
            mcda.plackett_luce(flat, rng=0, n_samples=1000, n_warmup=100)
    assert caught.value.argument == "n_samples" and caught.value.value == 1000
    seconds = 4 * 1100 * 6 * 25 * plackett_luce.SECONDS_PER_STEP
    assert f"about {seconds:.0f} s of one core" in str(caught.value)
    with mcda.set_options(compute_limit=None):   # no limit: it runs
        assert mcda.plackett_luce(flat, rng=0, n_samples=200, n_warmup=100).n_rankings == 6
    with pytest.raises(ValueError, match="`compute_limit` must be more than 0"):
        mcda.set_options(compute_limit=0)


def test_the_report_says_which_sampler_it_left_out_and_why():
    report = mcda.Report(_folds(5), rng=0)
    report.raw.attrs["cv_runs"] = 1
    with mcda.set_options(compute_limit=1e-3), pytest.warns(mcda.SmallSampleWarning), \
            pytest.warns(mcda.OverlappingFoldsWarning):   # 6 datasets; the report's default paired t over folds
        text = report.overview()
    assert "== Bayesian Plackett-Luce ranking" in text and "== Hierarchical model" in text
    lines = [line.strip() for line in text.splitlines()]
    assert any(line.startswith("not computed: the Plackett-Luce sampler runs") for line in lines)
    assert any(line.startswith("not computed: the hierarchical model runs") for line in lines)


# --------------------------------------------------------------------------- the LaTeX table of paired tests

def test_pairwise_latex_past_its_rows_is_refused_naming_control(monkeypatch, tmp_path):
    from mcda._core.validation import McdaArgumentError
    from mcda.present import latex

    monkeypatch.setattr(latex, "PAIRWISE_MAX_ROWS", 30)   # 6 datasets × 10 pairs = 60 rows; 6 × 4 against a control
    result = mcda.paired_tests(_folds(5))
    with pytest.raises(McdaArgumentError) as caught:
        latex.pairwise_to_latex(result, tmp_path / "pairwise.tex")
    assert caught.value.argument == "result" and not (tmp_path / "pairwise.tex").exists()
    message = str(caught.value)
    assert "60 (dataset, pair) comparisons (6 datasets × up to 10 pairs)" in message and "control=" in message
    text = latex.pairwise_to_latex(result, control="method_0")   # 6 × 4 rows: set
    assert "% mcda: paired t test, alpha 0.05, control method_0" in text and sum(" & " in line for line in text.splitlines()) == 1 + 6 * 4


def test_mcda_compare_says_which_table_it_did_not_write(monkeypatch, tmp_path):
    import io

    from mcda.app.cli import main
    from mcda.present import latex

    monkeypatch.setattr(latex, "PAIRWISE_MAX_ROWS", 30)
    frame = _folds(5).to_dataframe(name="score").reset_index()
    frame.to_csv(tmp_path / "scores.csv", index=False)
    out = io.StringIO()
    with warnings.catch_warnings():   # the command line reports warnings in its text
        warnings.simplefilter("ignore")
        status = main(["compare", str(tmp_path / "scores.csv"), "--metric", "accuracy", "--out",
                       str(tmp_path / "out"), "--no-figures", "--rng", "0"], stdout=out)
    assert status == 0
    assert not (tmp_path / "out" / "pairwise.tex").exists() and (tmp_path / "out" / "scores.tex").exists()
    assert "not written: pairwise.tex (`result` holds 60 (dataset, pair) comparisons" in out.getvalue()
    assert "--control NAME writes pairwise_control.tex" in out.getvalue()


def test_a_view_refused_by_its_cost_offers_the_reports_and_the_command_lines_ways_on():
    # the library's refusal says "Pass fewer n_samples", which neither Report.overview() nor
    # mcda compare takes: the report words it with its own setting and the command line's flag
    import pickle

    from mcda._core.options import ComputeLimitError

    report = mcda.Report(mcda.score_cube(np.random.default_rng(0).random((12, 6)), metric="accuracy"), rng=0)
    with mcda.set_options(compute_limit=1e-9):
        with pytest.raises(ComputeLimitError) as caught:
            report.plackett_luce()
        line = report._plackett_luce_text()
    exc = caught.value
    assert exc.argument == "n_samples" and exc.seconds > exc.limit == 1e-9 and "Plackett-Luce" in exc.work
    again = pickle.loads(pickle.dumps(exc))
    assert (type(again), again.work, again.seconds, again.limit, str(again)) == (
        ComputeLimitError, exc.work, exc.seconds, exc.limit, str(exc))
    assert line.startswith("not computed: " + exc.cost())
    assert "`plackett_luce_samples`" in line and "--plackett-luce-samples" in line
    assert "Pass fewer n_samples" not in line
