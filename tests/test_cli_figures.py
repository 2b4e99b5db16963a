"""``mcda compare --figures``: which figures are written, the size rule, and its errors."""

from __future__ import annotations

import io
from types import SimpleNamespace

import pytest

from mcda.app.cli import FIGURES, PAIRWISE_PANELS_MAX, POSTERIOR_BARS_MAX, _figure_plan, main


def run(argv):
    out, err = io.StringIO(), io.StringIO()
    status = main(argv, stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def fake_report(k, *, seeds=True, epochs=False, cv_runs=None, signed_rank_skipped=None, plackett_luce_skipped=None,
                rank_sets_not_applicable=""):
    return SimpleNamespace(methods=[f"m{i}" for i in range(k)], has_seeds=seeds, has_epochs=epochs,
                           raw=SimpleNamespace(attrs={"cv_runs": cv_runs}),
                           signed_rank_skipped=lambda: signed_rank_skipped,
                           plackett_luce_skipped=lambda: plackett_luce_skipped,
                           rank_sets_not_applicable=lambda: rank_sets_not_applicable)


def test_a_signed_rank_test_left_out_for_its_cost_draws_no_bars():
    plan = _figure_plan(fake_report(8, signed_rank_skipped="not computed: 28 pairs × ..."))
    assert plan["signed_rank_bars"] == "needs the Bayesian signed-rank test, not computed: 28 pairs × ..."
    assert _figure_plan(fake_report(8))["signed_rank_bars"] is None


def test_a_plackett_luce_model_left_out_for_its_cost_draws_no_rank_distribution():
    plan = _figure_plan(fake_report(8, plackett_luce_skipped="not computed: 4 chains × ..."))
    assert plan["rank_distribution"] == "needs the Plackett-Luce model, not computed: 4 chains × ..."
    assert _figure_plan(fake_report(8))["rank_distribution"] is None


@pytest.mark.parametrize("pages", [1, 4, 5, 30])
def test_the_per_dataset_forest_beyond_its_pages_is_left_for_the_user_to_name(pages):
    from mcda.app.cli import FOREST_PAGES_MAX
    from mcda.present.plots._layout import check_page

    report = fake_report(50)
    report.raw.sizes = {"dataset": 2 * pages}

    def plot_forest(page):  # the real figure's own page check: PageOutOfRange with its page count
        check_page(page, pages, "the datasets' pages")

    report.plot_forest = plot_forest
    plan = _figure_plan(report)
    if pages <= FOREST_PAGES_MAX:
        assert plan["forest"] is None
    else:  # not a "needs" reason: --figures forest or all still draws it
        assert plan["forest"] == f"{pages} pages for {2 * pages} datasets of 50 methods: more than {FOREST_PAGES_MAX}"


def test_unknown_figure_names_the_flag_and_lists_every_choice_in_order(capsys):
    status, _, _ = run(["compare", "--example", "demsar2006", "--figures", "superiorty"])
    err = capsys.readouterr().err  # argparse prints usage errors itself
    assert status == 2
    assert "argument --figures: unknown figure 'superiorty' (did you mean superiority?)" in err
    assert "choose from " + ", ".join(("auto", "all", "none") + FIGURES) in err


def test_keywords_stand_alone(capsys):
    status, _, _ = run(["compare", "--example", "demsar2006", "--figures", "none,forest"])
    err = capsys.readouterr().err
    assert status == 2 and "argument --figures: none stands alone" in err


def test_no_figures_contradicting_a_list_is_refused(tmp_path):
    status, _, err = run(["compare", "--example", "demsar2006", "--out", str(tmp_path / "o"), "--no-figures",
                          "--figures", "relation"])
    assert status == 1 and "--no-figures contradicts --figures relation" in err


@pytest.mark.parametrize("flags", [["--figures", "none"], ["--no-figures"]])
def test_none_and_its_alias_write_no_figure(tmp_path, flags):
    out = tmp_path / "o"
    status, _, _ = run(["compare", "--example", "demsar2006", "--out", str(out), *flags])
    assert status == 0
    assert not list(out.glob("*.png")) and not list(out.glob("*.pdf"))


def test_a_list_writes_exactly_those_figures_and_says_why_one_does_not_apply(tmp_path):
    out = tmp_path / "o"
    status, text, _ = run(["compare", "--example", "demsar2006", "--out", str(out),
                           "--figures", "relation,forest,critical_difference"])
    assert status == 0
    assert sorted(p.name for p in out.glob("*.png")) == ["critical_difference.png", "relation.png"]
    assert sorted(p.name for p in out.glob("*.pdf")) == ["critical_difference.pdf", "relation.pdf"]
    assert "figure forest: not drawn (needs seeds (several runs per cell))" in text


def test_the_size_rule_at_8_20_and_50_methods():
    at8, at20, at50 = (_figure_plan(fake_report(k)) for k in (8, 20, 50))
    assert all(v is None for n, v in at8.items() if n in ("pairwise", "posterior_bars", "signed_rank_bars", "forest"))
    assert at20["pairwise"].startswith("20 methods") and at20["posterior_bars"] is None
    assert at50["pairwise"] == f"50 methods: more than {PAIRWISE_PANELS_MAX} for the per-dataset pair panels"
    assert at50["posterior_bars"] == f"50 methods: more than {POSTERIOR_BARS_MAX} for the bars of every pair"
    assert at50["signed_rank_bars"] is not None
    for plan in (at8, at20, at50):  # the single-figure views always apply
        assert plan["critical_difference"] is plan["superiority"] is plan["relation"] is None
        assert plan["rank_stability"] is plan["posterior_top_pair"] is None


def test_what_does_not_apply_to_the_data_is_never_written():
    plan = _figure_plan(fake_report(5, seeds=False))
    assert plan["forest"].startswith("needs seeds") and plan["pairwise"].startswith("needs seeds")
    assert plan["learning_curves"] == "needs an epoch column"
    assert plan["hierarchical_top_pair"].startswith("needs seeds that are folds")
    assert _figure_plan(fake_report(2))["rank_distribution"] == "needs 3 or more methods"
    assert _figure_plan(fake_report(4, epochs=True, cv_runs=2))["learning_curves"] is None


def test_figures_of_several_pages_write_one_file_per_page(tmp_path):
    import mcda

    # 17 datasets of 3 methods: 16 pair panels fill a page (mcda.present.plots._layout.pairwise_grid), so 2 pages
    cube = mcda.datasets.synthetic(n_datasets=17, n_methods=3, n_seeds=3, rng=1)
    frame = cube.to_dataframe(name="score").reset_index()[["dataset", "method", "seed", "score"]]
    csv = tmp_path / "scores.csv"
    frame.to_csv(csv, index=False)
    from mcda.present.plots._layout import pairwise_grid

    assert len(pairwise_grid(17, 3, width=7.0)["pages"]) == 2
    out = tmp_path / "o"
    status, _, err = run(["compare", str(csv), "--metric", "accuracy", "--figures", "pairwise", "--out", str(out)])
    assert status == 0, err
    assert sorted(p.name for p in out.glob("*.png")) == ["pairwise.png", "pairwise_page2.png"]


def test_plackett_luce_samples_sets_the_chains_and_an_unconverged_figure_names_the_flag(tmp_path):
    """20 draws per chain cannot reach the ESS floor (400: more than the 80 draws of 4 chains), so the
    rank-distribution figure is not drawn, and its line names the flag that lengthens the chains."""
    import json

    out = tmp_path / "o"
    status, text, err = run(["compare", "--example", "demsar2006", "--out", str(out), "--rng", "0",
                             "--plackett-luce-samples", "20", "--figures", "rank_distribution,relation"])
    assert status == 0, err
    assert "figure rank_distribution: not drawn (the chains have not converged" in text
    assert "give a larger --plackett-luce-samples (now 20)" in text
    assert not list(out.glob("rank_distribution*")) and list(out.glob("relation*.png"))
    assert json.loads((out / "report.json").read_text())["settings"]["plackett_luce_samples"] == 20
    assert "P(best) and expected ranks not reported" in (out / "report.txt").read_text()


def test_plackett_luce_samples_must_be_positive(tmp_path):
    status, _, err = run(["compare", "--example", "demsar2006", "--out", str(tmp_path / "o"),
                          "--plackett-luce-samples", "0"])
    assert status == 1 and "--plackett-luce-samples" in err and "0" in err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_diagram_of_more_methods_than_a_page_labels_is_written_page_by_page(tmp_path, jobs):
    # 50 methods with 38-character names (three lines a label): the CD diagram's labels take two
    # pages (mcda.present.plots.critical_difference.cd_pages); the command writes both, as its files say
    import mcda
    from mcda.present.plots._layout import PageOutOfRange

    cube = mcda.datasets.synthetic(n_datasets=6, n_methods=50, n_seeds=1, rng=2)
    frame = cube.to_dataframe(name="accuracy").reset_index()[["dataset", "method", "accuracy"]]
    frame["method"] = frame["method"].str.replace("method_", "LongMethodName_variant_") + "_with_tuning"
    csv = tmp_path / "scores.csv"
    frame.to_csv(csv, index=False)
    report = mcda.Report(mcda.score_cube(frame, metric="accuracy", columns={"score": "accuracy"}), rng=0)
    with pytest.raises(PageOutOfRange) as pages:
        report.plot_critical_difference(page=10**9)
    n_pages = pages.value.n_pages
    assert n_pages >= 2
    out = tmp_path / "o"
    # in a column (--cd-width column; auto draws these across the page, on one page)
    status, _, err = run(["compare", str(csv), "--metric", "accuracy", "--figures", "critical_difference",
                          "--jobs", jobs, "--rng", "0", "--out", str(out), "--cd-width", "column"])
    assert status == 0, err
    expected = ["critical_difference.png"] + [f"critical_difference_page{i}.png" for i in range(2, n_pages + 1)]
    assert sorted(p.name for p in out.glob("*.png")) == sorted(expected)
    assert sorted(p.name for p in out.glob("*.pdf")) == sorted(e.replace(".png", ".pdf") for e in expected)


def test_shrinkage_of_more_datasets_than_a_page_is_written_page_by_page(tmp_path):
    # 70 datasets: the shrinkage plot's rows take two pages (about 60 a page, mcda.plots.plot_shrinkage)
    import mcda

    cube = mcda.datasets.synthetic(n_datasets=70, n_methods=2, n_seeds=10, rng=3)
    frame = cube.to_dataframe(name="accuracy").reset_index()[["dataset", "method", "seed", "accuracy"]]
    csv = tmp_path / "scores.csv"
    frame.to_csv(csv, index=False)
    out = tmp_path / "o"
    status, _, err = run(["compare", str(csv), "--metric", "accuracy", "--cv-runs", "2", "--figures",
                          "shrinkage_top_pair", "--jobs", "2", "--rng", "0", "--out", str(out)])
    assert status == 0, err
    assert sorted(p.name for p in out.glob("*.png")) == ["shrinkage_top_pair.png", "shrinkage_top_pair_page2.png"]


def test_rank_sets_and_the_meta_analysis_forest_apply_by_their_own_rules():
    assert _figure_plan(fake_report(8))["rank_sets"] is None
    assert _figure_plan(fake_report(8))["meta_forest"] is None
    assert _figure_plan(fake_report(8, seeds=False))["meta_forest"] == "needs seeds (several runs per cell)"
    plan = _figure_plan(fake_report(8, rank_sets_not_applicable="they estimate the covariance ..."))
    assert plan["rank_sets"] == "needs 2 methods with results on 2 common datasets"


@pytest.mark.parametrize("pages", [2, 9])
def test_the_meta_analysis_forest_beyond_its_pages_is_left_for_the_user_to_name(pages):
    from mcda.app.cli import FOREST_PAGES_MAX
    from mcda.present.plots._layout import check_page

    report = fake_report(8)
    report.raw.sizes = {"dataset": 30 * pages}
    report.compare_not_applicable = lambda: "no ranking here"  # run_order: the file's order

    def plot_meta_forest(pair, page):  # the real figure's own page check
        assert pair == ("m0", "m1")    # the two first methods of the run's order
        check_page(page, pages, "the datasets' pages")

    report.plot_meta_forest = plot_meta_forest
    report.plot_forest = lambda page: check_page(page, 1, "the datasets' pages")
    plan = _figure_plan(report)
    assert plan["meta_forest"] == (None if pages <= FOREST_PAGES_MAX else
                                   f"{pages} pages for {30 * pages} datasets: more than {FOREST_PAGES_MAX}")


def test_rank_sets_and_the_meta_analysis_forest_are_written(tmp_path):
    import mcda

    cube = mcda.datasets.synthetic(n_datasets=6, n_methods=4, n_seeds=3, rng=2)
    csv = tmp_path / "scores.csv"
    cube.to_dataframe(name="score").reset_index()[["dataset", "method", "seed", "score"]].to_csv(csv, index=False)
    out = tmp_path / "o"
    status, text, err = run(["compare", str(csv), "--metric", "accuracy", "--rng", "0", "--figures",
                             "rank_sets,meta_forest", "--out", str(out)])
    assert status == 0, err
    assert sorted(p.name for p in out.glob("*.png")) == ["meta_forest.png", "rank_sets.png"]
