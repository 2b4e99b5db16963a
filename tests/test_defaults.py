"""Defaults that must not quietly weaken a claim (issue 37), and notes generated from the data.

Every reference number here comes from an independent computation in the test: a simulation with
a known mean, scipy.stats, scikit-posthocs, or an exact permutation enumeration written below.
"""

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import mcda
from mcda.app.cli import main


def _cube(values, metric="accuracy"):
    values = np.asarray(values, dtype=float)
    return mcda.score_cube(values, metric=metric, method_names=[f"m{j}" for j in range(values.shape[1])],
                           dataset_names=[f"d{i}" for i in range(values.shape[0])])


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


# --------------------------------------------------------------------------- the interval over seeds

def test_the_interval_defaults_to_student_t_in_the_library_the_report_and_the_cli():
    cube = mcda.datasets.synthetic(n_datasets=3, n_methods=2, n_seeds=5, rng=0)
    report = mcda.Report(cube, rng=0)
    assert report.ci_method == "t" and report.summary().ci_method == "t"
    assert mcda.summary(cube).ci_method == "t"
    pd.testing.assert_frame_equal(report.summary().to_frame(), mcda.summary(cube).to_frame())
    assert mcda.Report(cube, ci_method=None, rng=0).ci_method == "t"  # the former "card's interval" reads as t
    # the interval is the t formula: mean ± t_{0.975, n-1} · s / √n (scipy.stats.t)
    row = report.summary().to_frame().iloc[0]
    seeds = cube.isel(dataset=0, method=0).values
    low, high = stats.t.interval(0.95, len(seeds) - 1, loc=seeds.mean(), scale=stats.sem(seeds))
    assert (row["ci_low"], row["ci_high"]) == (pytest.approx(low, rel=1e-12), pytest.approx(high, rel=1e-12))


def test_at_five_seeds_the_percentile_bootstrap_undercovers_and_t_does_not():
    # 2,000 cells of 5 normal seeds with true mean 0 (a fixed simulation: the same numbers every run)
    values = np.random.default_rng(2024).normal(0.0, 1.0, (1000, 2, 5))  # 1,000 datasets x 2 methods
    cube = mcda.score_cube(values, direction="higher_is_better", method_names=["m1", "m2"])
    t = mcda.summary(cube).to_frame()
    boot = mcda.summary(cube, ci_method="bootstrap", n_resamples=999, rng=1)
    covered = lambda table: float(((table["ci_low"] <= 0) & (table["ci_high"] >= 0)).mean())  # noqa: E731
    # binomial standard error at 2,000 cells is 0.005: t is at its nominal 95 %, the bootstrap far below
    assert covered(t) == pytest.approx(0.95, abs=0.015)
    assert covered(boot.to_frame()) < 0.88
    assert len(boot.too_narrow) == 2000 and len(mcda.summary(cube).too_narrow) == 0
    assert any("have 5 seeds (fewer than 10): the percentile bootstrap is too narrow" in n for n in boot.notes)


def _write(path, rows, columns=("dataset", "method", "seed", "score")):
    pd.DataFrame(rows, columns=list(columns)).to_csv(path, index=False)
    return path


def _seeded_rows(n_datasets=6, methods="abc", seeds=range(5), drop=(), label=lambda m, s: s):
    rng = np.random.default_rng(3)
    return [(f"d{d}", m, label(m, s), 0.7 + 0.02 * j + rng.normal(0, 0.01))
            for d in range(n_datasets) for j, m in enumerate(methods) for s in seeds if (d, m, s) not in drop]


def _run(tmp_path, csv, *options, name="out"):
    out = tmp_path / name
    assert main(["compare", str(csv), "--metric", "accuracy", "--no-figures", "--rng", "0", "--out", str(out),
                 *options]) == 0
    return (out / "report.txt").read_text(), (out / "report.md").read_text()


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
def test_the_bootstrap_is_chosen_explicitly_and_its_small_sample_note_reaches_console_and_report_md(tmp_path, capsys):
    csv = _write(tmp_path / "s.csv", _seeded_rows())
    text, md = _run(tmp_path, csv, name="t")
    assert "interval t 95%" in text and "Intervals over seeds are 95% Student t intervals" in md
    assert "too narrow" not in text and "too narrow" not in md
    text, md = _run(tmp_path, csv, "--ci-method", "bootstrap", name="boot")
    printed = capsys.readouterr().out
    assert "18 cell(s) of 'accuracy' have 5 seeds (fewer than 10): the percentile bootstrap is too narrow" in printed
    assert "too narrow" in text
    assert "18 of 18 cells have only 5 seeds, where the percentile bootstrap is too narrow" in md


# --------------------------------------------------------------------------- a library function and its Report view

def test_pairwise_superiority_and_the_report_agree_by_default():
    cube = mcda.datasets.synthetic(n_datasets=8, n_methods=4, n_seeds=3, effects=[0, 0.01, 0.02, 0.03], rng=5)
    report = mcda.Report(cube, rng=0)
    library = _quiet(mcda.pairwise_superiority, report.across_cube)
    view = _quiet(report.superiority)
    assert library.adjust == view.adjust == "holm"
    pd.testing.assert_frame_equal(library.to_frame(), view.to_frame())
    table = library.to_frame()
    p = table["p_raw"].to_numpy()
    order = np.argsort(p)
    m = len(p)
    stepped = np.maximum.accumulate(np.minimum(1.0, (m - np.arange(m)) * p[order]))
    expected = np.empty(m)
    expected[order] = stepped
    np.testing.assert_allclose(table["p_adjusted"].to_numpy(), expected, rtol=1e-12)
    raw = _quiet(mcda.pairwise_superiority, report.across_cube, adjust=None)
    np.testing.assert_array_equal(raw.to_frame()["p_adjusted"], raw.to_frame()["p_raw"])
    assert "p (unadjusted)" in raw.summary() or raw.superior_pairs == []
    assert "p_adj" not in raw.summary()


# --------------------------------------------------------------------------- Nemenyi's p-values by name

def test_nemenyi_pvalues_are_named_so_the_raw_z_p_is_not_read_as_the_nemenyi_p():
    sp = pytest.importorskip("scikit_posthocs")
    scores = np.random.default_rng(0).uniform(0.6, 0.9, (9, 4))
    res = mcda.nemenyi(scores, "higher_is_better", method_names=list("abcd"))
    ranks = pd.DataFrame(scores).rank(axis=1, ascending=False).to_numpy()
    reference = sp.posthoc_nemenyi_friedman(ranks)  # scikit-posthocs: the Nemenyi p from the ranks
    np.testing.assert_allclose(res.pvalues_adjusted.to_numpy()[~np.eye(4, dtype=bool)],
                               reference.to_numpy()[~np.eye(4, dtype=bool)], rtol=1e-6)
    # the unadjusted z-test p: 2Φ(−|z|) with z = ΔR̄ / √(k(k+1)/(6N))
    z = (ranks[:, 0].mean() - ranks[:, 1].mean()) / np.sqrt(4 * 5 / (6 * 9))
    assert res.pvalues_raw.loc["a", "b"] == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-12)
    assert res.pvalues is res.pvalues_raw or res.pvalues.equals(res.pvalues_raw)  # the former name still works
    text = mcda.nemenyi(scores * np.array([1, 1, 1, 0.5]), "higher_is_better", method_names=list("abcd")).summary()
    assert "unadjusted p =" in text and "nemenyi p =" in text


def _permutation_pvalues(scores):
    """The exact conditional null of the Friedman test: every dataset's own (average) ranks permuted
    over its k! orders, independently; the two-sided p of each pair's rank-sum difference."""
    scores = np.asarray(scores, dtype=float)
    ranks = np.array([stats.rankdata(-row) for row in scores])  # higher is better: rank 1 = best
    k = scores.shape[1]
    orders = list(itertools.permutations(range(k)))
    out = {}
    for a, b in itertools.combinations(range(k), 2):
        law = {0.0: 1}
        for row in ranks:
            steps = [row[o[a]] - row[o[b]] for o in orders]
            new = {}
            for total, count in law.items():
                for step in steps:
                    new[total + step] = new.get(total + step, 0) + count
            law = new
        observed = abs(ranks[:, a].sum() - ranks[:, b].sum())
        out[(a, b)] = sum(c for d, c in law.items() if abs(d) >= observed - 1e-9) / sum(law.values())
    return out


def _exact(scores):
    k = len(scores[0])
    res = mcda.nemenyi(np.asarray(scores, dtype=float), "higher_is_better", exact=True,
                       method_names=[f"m{j}" for j in range(k)])
    return {(a, b): float(res.pvalues_raw.iloc[a, b]) for a, b in itertools.combinations(range(k), 2)}


def test_nemenyi_exact_p_is_the_permutation_p_without_ties_and_neither_bound_with_ties():
    rng = np.random.default_rng(7)
    for _ in range(6):  # untied designs: exact, equal to the enumeration
        k, n = int(rng.integers(3, 5)), int(rng.integers(2, 4))
        scores = rng.permuted(np.tile(np.arange(k, dtype=float), (n, 1)), axis=1)
        reference, ours = _permutation_pvalues(scores), _exact(scores)
        for pair in reference:
            assert ours[pair] == pytest.approx(reference[pair], rel=1e-12)
    # the documented tied examples (nemenyi's Notes): smaller than the permutation p in the tail, larger elsewhere
    assert _exact([[2, 1, 0], [1, 1, 0]])[(0, 2)] == pytest.approx(2 / 36)
    assert _permutation_pvalues([[2, 1, 0], [1, 1, 0]])[(0, 2)] == pytest.approx(1 / 9)
    assert _exact([[2, 2, 0], [0, 2, 1]])[(0, 2)] == pytest.approx(26 / 36)
    assert _permutation_pvalues([[2, 2, 0], [0, 2, 1]])[(0, 2)] == pytest.approx(1.0)
    # over random small tied designs both directions occur, also where the permutation p is below 0.2
    smaller = larger = 0
    for _ in range(40):
        k, n = int(rng.integers(3, 5)), int(rng.integers(2, 4))
        scores = rng.integers(0, 3, (n, k))
        reference, ours = _permutation_pvalues(scores), _exact(scores)
        smaller += sum(ours[p] < reference[p] - 1e-12 and reference[p] < 0.2 for p in reference)
        larger += sum(ours[p] > reference[p] + 1e-12 for p in reference)
    assert smaller > 0 and larger > 0
    assert "not a bound either way" in mcda.nemenyi.__doc__ and "conservative side" not in mcda.nemenyi.__doc__


# --------------------------------------------------------------------------- seeds lost here and there

def test_paired_tests_pair_on_the_shared_seeds_when_each_method_lost_a_different_run():
    rows = _seeded_rows(n_datasets=2, methods="ab", drop={(0, "a", 1), (0, "b", 3)})
    frame = pd.DataFrame(rows, columns=["dataset", "method", "seed", "score"])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = mcda.paired_tests(frame, metric="accuracy")
    kinds = {type(w.message) for w in caught}
    assert mcda.UnpairedSeedsWarning not in kinds and mcda.MissingDataWarning in kinds
    note = " ".join(result.notes)
    assert "on d0 a lacks seed 1 and b lacks seed 3" in note and "paired=False" not in note
    assert "relabel" not in note
    row = result.to_frame().iloc[0]
    a = frame[(frame.dataset == "d0") & (frame.method == "a") & frame.seed.isin([0, 2, 4])]["score"]
    b = frame[(frame.dataset == "d0") & (frame.method == "b") & frame.seed.isin([0, 2, 4])]["score"]
    assert row["n_seeds"] == 3 and row["p_raw"] == pytest.approx(stats.ttest_rel(a, b).pvalue, rel=1e-12)


def test_labels_that_really_differ_keep_the_unpaired_advice():
    rows = _seeded_rows(n_datasets=2, methods="ab", label=lambda m, s: s + (100 if m == "b" else 0))
    frame = pd.DataFrame(rows, columns=["dataset", "method", "seed", "score"])
    with pytest.warns(mcda.UnpairedSeedsWarning, match="b has seeds 100, 101"):
        result = mcda.paired_tests(frame, metric="accuracy")
    assert any("paired=False" in n for n in result.notes)


# --------------------------------------------------------------------------- notes that name the right flag

@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
def test_a_lost_seed_is_named_with_its_label_and_no_wrong_flag(tmp_path, capsys):
    csv = _write(tmp_path / "lost.csv", _seeded_rows(drop={(3, "b", 2)}))
    text, md = _run(tmp_path, csv)
    printed = capsys.readouterr().out
    assert "1 cell lost seeds: d3/b lacks seed 2 (4 of 5)" in printed
    assert "--missing available" not in printed and "--missing" not in text.split("== Notes")[1]
    assert "1 cell lost seeds: d3/b lacks seed 2" in md


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
def test_an_unpaired_run_is_not_told_to_give_unpaired(tmp_path, capsys):
    csv = _write(tmp_path / "u.csv", _seeded_rows(label=lambda m, s: s + (100 if m == "c" else 0)))
    _run(tmp_path, csv, name="paired")
    assert "give --unpaired" in capsys.readouterr().out  # a paired run on labels that differ: the way on
    text, md = _run(tmp_path, csv, "--unpaired", name="unpaired")
    printed = capsys.readouterr().out
    assert "--unpaired" not in printed.split("== Notes")[1] and "paired=False" not in printed
    assert "the unpaired tests compare each method's seeds as two samples" in printed
    assert "cells lost seeds" not in printed  # other labels are not lost seeds


# --------------------------------------------------------------------------- the rope's units under a conversion

@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
def test_a_rope_with_scale_percent_is_read_in_the_files_units_and_stated_in_both(tmp_path, capsys):
    rows = [(d, m, s, 100 * v) for d, m, s, v in _seeded_rows()]
    csv = _write(tmp_path / "percent.csv", rows)
    text, md = _run(tmp_path, csv, "--scale", "percent", "--rope", "1", name="p")
    bundle = mcda.Report.from_json(tmp_path / "p" / "report.json")
    assert bundle.rope == pytest.approx(0.01) and bundle.scale_factor == 100.0
    assert "rope 0.01 (set by the analyst; 1 in the units of the scores as given (percent))" in text
    assert "±0.01, set by the analyst (±1 in the units of the scores as given)" in md
    # the same analysis as the fractions with a rope of 0.01 (not 1, which would make every pair equivalent)
    fractions = mcda.Report(pd.DataFrame(_seeded_rows(), columns=["dataset", "method", "seed", "score"]),
                            metric="accuracy", rope=0.01, rng=0)
    pd.testing.assert_frame_equal(_quiet(bundle.bayesian).to_frame(), _quiet(fractions.bayesian).to_frame())
    assert (_quiet(bundle.bayesian).to_frame()["label"] != "equivalent").any()


def test_a_rope_for_scores_converted_before_the_report_is_refused_as_ambiguous():
    values = np.random.default_rng(1).uniform(70, 90, (6, 3, 4))
    converted = mcda.score_cube(values, metric="accuracy", method_names=list("abc"), scale="percent")
    with pytest.raises(ValueError, match="`rope`=1.0 is ambiguous") as caught:
        mcda.Report(converted, rope=1, rng=0)
    assert caught.value.argument == "rope"
    report = mcda.Report(values, metric="accuracy", method_names=list("abc"), scale="percent", rope=0.5, rng=0)
    assert report.rope == pytest.approx(0.005) and report.rope_value() == pytest.approx(0.005)
    report.rope = 0.02  # the attribute is in the converted units, as documented
    assert report.rope_value() == 0.02 and mcda.Report.from_json(report.to_json()).rope == 0.02


# --------------------------------------------------------------------------- effect sizes on few units

def test_effect_sizes_on_five_seeds_give_no_interval_and_say_why():
    cube = mcda.datasets.synthetic(n_datasets=3, n_methods=3, n_seeds=5, rng=1)
    res = _quiet(mcda.effect_sizes, cube, rng=0, n_resamples=999)
    table = res.to_frame()
    assert table["effect_size"].notna().all() and table[["ci_low", "ci_high"]].isna().all().all()
    assert (table["reason"] == "no interval: only 5 paired seeds (a percentile-bootstrap interval needs at least "
            "10)").all()
    assert "6 of 6 pairs rest on only 5 paired seeds" in res.summary() and "(no interval)" in res.summary()
    # d_z itself is the paired t over √n (scipy.stats.ttest_rel), whatever the interval
    row = table.iloc[0]
    a = cube.sel({"dataset": row["dataset"], "method": row["method_a"]}).values
    b = cube.sel({"dataset": row["dataset"], "method": row["method_b"]}).values
    assert row["effect_size"] == pytest.approx(stats.ttest_rel(a, b).statistic / np.sqrt(5), rel=1e-12)
    many = mcda.datasets.synthetic(n_datasets=1, n_methods=2, n_seeds=12, rng=1)
    assert _quiet(mcda.effect_sizes, many, rng=0, n_resamples=999).to_frame()[["ci_low", "ci_high"]].notna().all().all()


def test_the_bootstrap_interval_of_cohens_dz_undercovers_at_five_units():
    # why the interval is refused: 1,000 pairs of 5 normal differences with true d_z = 0.5 (fixed draws)
    from mcda.stats.effects import _compute

    rng = np.random.default_rng(0)
    x = rng.normal(0.5, 1.0, (1000, 5))
    _, low, high, _ = _compute(list(x), list(np.zeros_like(x)), "cohen_d", 0.95, 999, np.random.default_rng(1))
    assert float(((low <= 0.5) & (high >= 0.5)).mean()) < 0.87  # nominal 0.95; the standard error is 0.007


# --------------------------------------------------------------------------- ways out that name the right argument

def _two_incomplete():
    scores = np.random.default_rng(0).uniform(0.6, 0.9, (6, 3))
    scores[0, 1] = scores[1, 2] = np.nan  # b and c each lack a dataset: one method is complete
    return _cube(scores)


def test_too_few_complete_methods_point_to_missing_datasets_where_the_function_takes_it():
    for function in (mcda.compare_over_datasets, mcda.friedman_test, mcda.mean_ranks, mcda.rank_stability):
        with pytest.raises(ValueError, match="leaves 1 method") as caught:
            _quiet(function, _two_incomplete())
        assert "`missing='datasets'`" in str(caught.value), function.__name__
        assert "mcda.complete_cases" not in str(caught.value)
    # and that way out works: with the incomplete datasets dropped, 4 datasets x 3 methods remain
    assert _quiet(mcda.compare_over_datasets, _two_incomplete(), missing="datasets").n_datasets == 4


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
def test_the_cli_names_missing_datasets_for_a_figure_that_needs_complete_methods(tmp_path, capsys):
    rows = [(d, m, 0.6 + 0.05 * j + 0.01 * int(d[1:])) for d in (f"d{i}" for i in range(6))
            for j, m in enumerate("abc") if (d, m) not in {("d0", "b"), ("d1", "c")}]
    csv = _write(tmp_path / "inc.csv", rows, columns=("dataset", "method", "score"))
    assert main(["compare", str(csv), "--metric", "accuracy", "--figures", "rank_stability", "--rng", "0",
                 "--out", str(tmp_path / "o")]) == 0
    printed = capsys.readouterr().out
    line = next(x for x in printed.splitlines() if "figure rank_stability: not drawn" in x)
    assert "--missing datasets" in line and "missing='datasets'" not in line and "complete_cases" not in line


def test_duplicate_rows_told_apart_by_a_run_column_name_it(tmp_path, capsys):
    rows = [(d, m, run, 0.7 + 0.01 * run) for d in ("d0", "d1") for m in "ab" for run in range(3)]
    csv = _write(tmp_path / "runs.csv", rows, columns=("dataset", "method", "run", "score"))
    assert main(["compare", str(csv), "--metric", "accuracy", "--no-figures", "--out", str(tmp_path / "o")]) == 1
    err = capsys.readouterr().err
    assert "the column 'run' tells them apart: if it numbers the runs, give --seed-column run" in err
    assert "add a seed column" not in err
    assert main(["compare", str(csv), "--metric", "accuracy", "--no-figures", "--seed-column", "run",
                 "--out", str(tmp_path / "o2")]) == 0  # the way on works
    plain = [(d, m, 0.7) for d in ("d0", "d1") for m in "ab" for _ in range(2)]
    csv = _write(tmp_path / "plain.csv", plain, columns=("dataset", "method", "score"))
    assert main(["compare", str(csv), "--metric", "accuracy", "--no-figures", "--out", str(tmp_path / "o3")]) == 1
    assert "add a seed column, or aggregate first" in capsys.readouterr().err


def test_every_report_view_uses_its_library_functions_defaults():
    # a library function and the Report view of the same name agree by default (issue 37)
    import inspect

    from mcda.app.report import _DEFAULTS

    pairs = {"summary": {"ci_method": "ci_method", "confidence_level": "confidence_level"},
             "pairwise_superiority": {"alpha": "alpha", "adjust": "adjust", "rope": "rope"},
             "compare_over_datasets": {"test": "test", "alpha": "alpha", "missing": "missing", "control": "control"},
             "paired_tests": {"method": "pairwise_method", "alpha": "alpha", "paired": "paired"},
             "rank_stability": {"n_resamples": "n_resamples", "confidence_level": "confidence_level"}}
    for name, settings in pairs.items():
        parameters = inspect.signature(getattr(mcda, name)).parameters
        for argument, setting in settings.items():
            assert parameters[argument].default == _DEFAULTS[setting], (name, argument)
    # summary's n_resamples defaults to None (given with the t interval it is refused): the bootstrap's count agrees
    cube = mcda.datasets.synthetic(n_datasets=2, n_methods=2, n_seeds=5, rng=0)
    assert inspect.signature(mcda.summary).parameters["n_resamples"].default is None
    assert mcda.summary(cube, ci_method="bootstrap", rng=0).n_resamples == _DEFAULTS["n_resamples"]


def test_the_latex_caption_says_when_the_bootstrap_is_too_narrow():
    cube = mcda.datasets.synthetic(n_datasets=2, n_methods=2, n_seeds=5, rng=0)
    boot = mcda.export.scores_to_latex(mcda.summary(cube, ci_method="bootstrap", n_resamples=999, rng=0))
    assert "With 5 seeds the percentile bootstrap is too narrow" in boot
    assert "too narrow" not in mcda.export.scores_to_latex(mcda.summary(cube))


def test_the_forest_plot_says_when_the_bootstrap_is_too_narrow():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cube = mcda.datasets.synthetic(n_datasets=2, n_methods=2, n_seeds=5, rng=0)
    fig, _ = mcda.plots.plot_forest(mcda.summary(cube, ci_method="bootstrap", n_resamples=999, rng=0))
    labels = " ".join(ax.get_xlabel() for ax in fig.axes).replace("\n", " ")
    assert "percentile bootstrap (too narrow at 5 seeds) interval" in labels
    plt.close(fig)
    fig, _ = mcda.plots.plot_forest(mcda.summary(cube))
    assert "too narrow" not in " ".join(ax.get_xlabel() for ax in fig.axes)
    plt.close(fig)
