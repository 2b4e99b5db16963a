"""Over items in the Report, its text, ``mcda compare`` and the figures (issue 33).

Every number the Results sentences and the overview print over items is read back against an
independent computation: the paired tests from scipy's ``ttest_rel`` (items independent) or
statsmodels' OLS of the item differences on a constant with ``cov_type="cluster"`` (clustered),
Holm's adjustment from statsmodels' ``multipletests``, Cochran's Q from statsmodels'
``cochrans_q``, the Friedman test over items from scipy's ``friedmanchisquare``, the means and
their intervals from pandas and statsmodels, the minimum detectable difference from the
z formula (z_{1−α/2} + z_{0.8}) · SE written out here.
"""

from __future__ import annotations

import io
import re
import warnings

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm
from scipy import stats
from statsmodels.stats.contingency_tables import cochrans_q
from statsmodels.stats.multitest import multipletests

import mcda

pytestmark = pytest.mark.filterwarnings("ignore::mcda.McdaWarning")


def _tidy(*, k=4, n_items=60, n_clusters=15, effect="strong", binary=True, clustered=True, datasets=("qa",),
          missing=False, rng=0):
    """Per-item scores of k models: a shared item difficulty per cluster, the models' skills apart (strong) or
    equal (null); ``missing`` drops three items of model m1 on the first dataset."""
    gen = np.random.default_rng(rng)
    skills = np.linspace(0.0, 1.6, k) if effect == "strong" else np.zeros(k)
    rows = []
    for dataset in datasets:
        cluster = np.repeat(np.arange(n_clusters), n_items // n_clusters)
        difficulty = gen.normal(0.0, 1.0, n_clusters)[cluster] + gen.normal(0.0, 0.5, n_items)
        for j in range(k):
            latent = skills[j] - difficulty + gen.normal(0.0, 1.0, n_items)
            score = (latent > 0).astype(float) if binary else np.clip(np.round(5.5 + 1.5 * latent), 1, 10)
            for i in range(n_items):
                if missing and dataset == datasets[0] and j == 1 and i in (2, 5, 11):
                    continue
                row = {"dataset": dataset, "method": f"m{j}", "item": f"{dataset}-q{i}", "score": float(score[i])}
                if clustered:
                    row["cluster"] = f"{dataset}-p{cluster[i]}"
                rows.append(row)
    return pd.DataFrame(rows)


def _pair_pvalues(frame: pd.DataFrame, dataset: str, clustered: bool) -> dict:
    """(a, b) -> (raw p, mean difference a − b, its standard error) on the items both have, independently:
    scipy's paired t test, or statsmodels' OLS on a constant with cluster-robust covariance (t with G − 1 df)."""
    part = frame[frame["dataset"] == dataset]
    wide = part.pivot(index="item", columns="method", values="score")
    clusters = part.drop_duplicates("item").set_index("item")["cluster"] if clustered else None
    methods = sorted(wide.columns)
    out = {}
    for i, a in enumerate(methods):
        for b in methods[i + 1:]:
            both = wide[[a, b]].dropna()
            d = (both[a] - both[b]).to_numpy()
            if clustered:
                groups = pd.factorize(clusters.loc[both.index])[0]
                fit = sm.OLS(d, np.ones((len(d), 1))).fit(cov_type="cluster", cov_kwds={"groups": groups},
                                                          use_t=True)
                out[(a, b)] = (float(fit.pvalues[0]), float(d.mean()), float(fit.bse[0]))
            else:
                out[(a, b)] = (float(stats.ttest_rel(both[a], both[b]).pvalue), float(d.mean()),
                               float(d.std(ddof=1) / np.sqrt(len(d))))
    return out


def _holm(pvalues: dict, alpha=0.05) -> dict:
    keys = list(pvalues)
    reject = multipletests([pvalues[key][0] for key in keys], alpha=alpha, method="holm")[0]
    return dict(zip(keys, reject))


def _results(text: str) -> str:
    return text.split("## Results")[1].split("## Reading")[0]


# (id, effect, binary, clustered, missing, datasets)
DESIGNS = [
    ("strong-binary-clustered", "strong", True, True, False, ("qa",)),
    ("null-binary-clustered", "null", True, True, False, ("qa",)),
    ("strong-binary-plain-missing", "strong", True, False, True, ("qa",)),
    ("strong-judge-clustered", "strong", False, True, False, ("qa",)),
    ("null-judge-plain", "null", False, False, False, ("qa",)),
    ("strong-binary-clustered-missing-2sets", "strong", True, True, True, ("qa", "code")),
    ("null-judge-clustered-control-3sets", "null", False, True, False, ("qa", "code", "math")),
]


@pytest.fixture(scope="module", params=DESIGNS, ids=[d[0] for d in DESIGNS])
def design(request):
    name, effect, binary, clustered, missing, datasets = request.param
    frame = _tidy(effect=effect, binary=binary, clustered=clustered, missing=missing, datasets=datasets, rng=3)
    control = {"control": "m0", "test": "holm"} if "control" in name else {}
    report = mcda.Report(frame, metric="exact_match" if binary else "judge_score", rng=1, **control)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        text, overview = report.text(), report.overview()
    return request.param, frame, report, text, overview


def test_the_results_count_the_pairs_the_independent_tests_separate(design):
    (_, effect, binary, clustered, missing, datasets), frame, report, text, overview = design
    results = _results(text)
    z = stats.norm.ppf(0.975) + stats.norm.ppf(0.8)   # the minimum detectable difference's z formula
    for dataset in datasets:
        pairs = _pair_pvalues(frame, dataset, clustered)
        separated = _holm(pairs)
        n_sep = sum(separated.values())
        assert f"The paired tests separated {n_sep} of {len(pairs)} pairs" in results.split(f"On {dataset},")[1]
        open_mde = [z * se for key, (_, _, se) in pairs.items() if not separated[key]]
        if open_mde:
            assert (f"could have detected differences of {min(open_mde):.3g} to {max(open_mde):.3g}"
                    in results.split(f"On {dataset},")[1])
        # the leader: the highest mean over the items it has (pandas), its interval from statsmodels
        part = frame[frame["dataset"] == dataset]
        means = part.groupby("method")["score"].mean()
        best = means.idxmax()
        scores = part[part["method"] == best]
        if clustered:
            fit = sm.OLS(scores["score"].to_numpy(), np.ones((len(scores), 1))).fit(
                cov_type="cluster", cov_kwds={"groups": pd.factorize(scores["cluster"])[0]}, use_t=True)
        else:
            fit = sm.OLS(scores["score"].to_numpy(), np.ones((len(scores), 1))).fit(use_t=True)
        low, high = fit.conf_int(0.05)[0]
        assert (f"On {dataset}, {best} ranks first (mean {means[best]:.4g}, 95% CI [{low:.4g}, {high:.4g}])"
                in results)
        # its tie group: the best and every model no Holm-adjusted test separates from it
        tied = 1 + sum(1 for (a, b), sep in separated.items() if best in (a, b) and not sep)
        assert f"{tied} of 4 methods are in its tie group" in results
        # the omnibus over the items every model has
        wide = part.pivot(index="item", columns="method", values="score").dropna()
        if binary:
            q = cochrans_q(wide.to_numpy())
            statistic, pvalue = q.statistic, q.pvalue
        else:
            statistic, pvalue = stats.friedmanchisquare(*[-wide[c] for c in wide.columns])
        verb = "rejected" if pvalue <= 0.05 else "did not reject"
        assert f"{verb} equal {'rates' if binary else 'mean ranks'} (statistic {statistic:.3g}, df = 3" in results
        assert f"{len(wide):,} items every method has" in results
    if effect == "null":
        assert "The paired tests separated 0 of 6 pairs" in results
    if missing:   # counted and named, never filled
        assert "Missing per-item results: m1 lacks 3 items of qa (qa-q11, qa-q2, qa-q5)" in results \
            or "Missing per-item results: m1 lacks 3 items of qa (qa-q2, qa-q5, qa-q11)" in results
        assert "m1 lacks 3 items of qa" in overview
    else:
        assert "missing per-item results: none" in overview


def test_the_methods_say_what_was_done_and_cite_it(design):
    (_, _, binary, clustered, missing, datasets), _, report, text, overview = design
    methods = text.split("## Methods")[1].split("## Results")[0]
    assert "Holm-adjusted over the 6 pairs of each test set [@holm1979]" in methods
    assert "@miller2024" in methods
    assert ("cluster-robust standard error [@liang1986; @miller2024]" in methods) == clustered
    assert ("@article{liang1986" in text) == clustered
    assert ("Cochran's Q test [@cochran1950]" in methods) == binary
    assert ("the Friedman test over items (ranks within items) [@friedman1937]" in methods) == (not binary)
    assert ("cell lacks items other methods have; nothing was imputed" in methods) == missing
    across = len(datasets) >= 2
    assert ("mean item score (mcda.reduce_items)" in methods) == across
    assert ("the views below read reduce_items(cube)" in overview) == across
    assert ("across datasets: do not apply (one dataset)" in overview) == (not across)
    assert "== Over items" in overview
    if clustered:
        assert "cluster-robust standard error (items grouped by the `cluster` coordinate" in overview


def test_the_overview_prints_the_leaderboard_with_its_tie_groups(design):
    _, _, report, _, overview = design
    board = report.item_leaderboard().to_frame()
    for dataset, block in board.groupby("dataset", sort=False):
        shared = block.groupby("rank")["rank"].transform("size")
        for r, size in zip(block.itertuples(index=False), shared):
            mark = f"{r.rank}{'=' if size > 1 else ''}"
            assert re.search(rf"^\s+{re.escape(mark)}\s+{r.method}\s+{r.mean:.4g}\s", overview, re.M), (mark, r.method)


def test_across_datasets_the_report_reads_the_mean_item_scores():
    frame = _tidy(datasets=("qa", "code", "math"), rng=5)
    report = mcda.Report(frame, metric="exact_match", rng=0)
    expected = frame.groupby(["dataset", "method"])["score"].mean()   # pandas: one mean per cell
    across = report.across_cube
    assert across.dims == ("dataset", "method")
    for (d, m), value in expected.items():
        assert float(across.sel({"dataset": d, "method": m})) == pytest.approx(value, rel=1e-12)
    ranks = stats.rankdata(-across.transpose("dataset", "method").values, axis=1).mean(axis=0)
    np.testing.assert_allclose(report.compare().mean_ranks.loc[report.methods].to_numpy(dtype=float), ranks)


def test_a_control_gives_the_paired_forest_its_reference():
    frame = _tidy(rng=7)
    report = mcda.Report(frame, metric="exact_match", control="m0", rng=0)
    pairs = report.item_pairs(control="m0")
    assert len(pairs.table) == 3 and set(pairs.table["method_a"]) | set(pairs.table["method_b"]) == {f"m{j}" for j in
                                                                                                   range(4)}
    independent = _pair_pvalues(frame, "qa", True)
    raw = [independent[("m0", f"m{j}")][0] for j in (1, 2, 3)]
    holm = multipletests(raw, method="holm")[1]
    np.testing.assert_allclose(pairs.table.sort_values("method_b")["p_adjusted"].to_numpy(), holm, rtol=1e-8)
    assert report.item_control() == "m0"
    assert mcda.Report(frame, metric="exact_match", rng=0).item_control() == "m3"   # the leader without a control
    with pytest.raises(mcda.McdaArgumentError, match="`control`"):
        report.item_pairs(control="nope")


def test_item_views_on_scores_without_items_are_refused_by_name():
    report = mcda.Report(mcda.datasets.load("demsar2006"), rng=0)
    assert not report.has_items
    with pytest.raises(mcda.McdaArgumentError, match="no `item` dim"):
        report.item_leaderboard()
    items = mcda.Report(_tidy(), metric="exact_match", rng=0)
    with pytest.raises(mcda.McdaArgumentError, match="item_means"):   # runs, not items: the way on is named
        items.final_metrics()
    with pytest.raises(mcda.McdaArgumentError, match="over seeds"):
        items.summary()


def test_an_item_report_goes_through_netcdf_unchanged(tmp_path):
    report = mcda.Report(_tidy(datasets=("qa", "code"), missing=True), metric="exact_match", rng=0)
    report.to_netcdf(tmp_path / "r.nc")
    back = mcda.Report.from_netcdf(tmp_path / "r.nc")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert back.overview() == report.overview()
    assert list(back.raw.coords["cluster"].values) == list(report.raw.coords["cluster"].values)


# --------------------------------------------------------------------------- figures at 8, 50 and 200 models

def _many(k, rng=0):
    gen = np.random.default_rng(rng)
    n_items = 120
    skill = np.linspace(-1.0, 1.0, k)
    cluster = np.arange(n_items) // 4
    p = 1.0 / (1.0 + np.exp(-(skill[:, None] - gen.normal(0, 1, n_items)[None, :])))
    scores = (gen.random((k, n_items)) < p).astype(float)
    return pd.DataFrame({"dataset": "qa", "method": np.repeat([f"model_{j:03d}" for j in range(k)], n_items),
                         "item": np.tile(np.arange(n_items), k), "cluster": np.tile(cluster, k),
                         "score": scores.ravel()})


@pytest.mark.parametrize("k", [8, 50, 200])
def test_the_figures_draw_every_models_label_at_every_size(k):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from mcda.present.plots.items import item_pages, matrix_pages

    report = mcda.Report(_many(k), metric="exact_match", rng=0)
    names = {f"model_{j:03d}" for j in range(k)}
    for name, draw, pages in (("intervals", report.plot_item_intervals, item_pages({"qa": k})),
                              ("forest", report.plot_item_forest, item_pages({"qa": k - 1})),
                              ("matrix", report.plot_item_matrix, matrix_pages({"qa": k}))):
        seen = set()
        for page in range(1, len(pages) + 1):
            fig, ax = draw(page=page)
            labels = [t.get_text() for t in ax.get_yticklabels()]
            seen |= {label.split()[0] for label in labels}
            assert fig.get_size_inches()[1] <= 9.0 + 1e-9, name    # no figure taller than a page
            plt.close(fig)
        expected = names - ({report.item_control()} if name == "forest" else set())
        assert seen == expected, (name, k, len(seen))
    assert len(item_pages({"qa": k})) == (1 if k <= 50 else 4)


def test_the_interval_figure_draws_the_naive_interval_only_where_it_differs():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    clustered = mcda.Report(_tidy(rng=2), metric="exact_match", rng=0)
    fig, ax = clustered.plot_item_intervals()
    assert any(c.get_gid() == "naive_interval" for c in ax.collections)
    plt.close(fig)
    plain = mcda.Report(_tidy(rng=2, clustered=False), metric="exact_match", rng=0)
    fig, ax = plain.plot_item_intervals()
    assert not any(c.get_gid() == "naive_interval" for c in ax.collections)
    # the naive interval is the t interval of the items (scipy), the same numbers the figure reads
    table = plain.item_means().to_frame()
    row = table.iloc[0]
    scores = _tidy(rng=2, clustered=False).query("method == @row.method")["score"]
    low, high = stats.t.interval(0.95, len(scores) - 1, loc=scores.mean(), scale=stats.sem(scores))
    assert (row["naive_ci_low"], row["naive_ci_high"]) == pytest.approx((low, high), rel=1e-10)
    plt.close(fig)


# --------------------------------------------------------------------------- mcda compare on an item file

def test_mcda_compare_reads_an_item_file_and_writes_the_items_section(tmp_path):
    from mcda.app.cli import main

    frame = _tidy(datasets=("qa", "code"), missing=True, rng=4).rename(columns={"item": "question"})
    path = tmp_path / "items.csv"
    frame.to_csv(path, index=False)
    out, err = io.StringIO(), io.StringIO()
    status = main(["compare", str(path), "--metric", "exact_match", "--out", str(tmp_path / "out"), "--rng", "1",
                   "--control", "m0", "--figures", "item_intervals,item_forest,item_matrix"], stdout=out, stderr=err)
    assert status == 0, err.getvalue()
    text = out.getvalue()
    report = mcda.Report(frame, metric="exact_match", rng=1)
    board = report.item_leaderboard().to_frame()
    assert "== Over items" in text and "m1 lacks 3 items of qa" in text
    best = board[board["dataset"] == "qa"].iloc[0]
    assert re.search(rf"^\s+1=?\s+{best['method']}\s+{best['mean']:.4g}\s", text, re.M)
    written = {p.name for p in (tmp_path / "out").iterdir()}
    assert {"report.md", "items_leaderboard.tex", "items_pairs.tex", "item_intervals.png", "item_forest.png",
            "item_matrix.png"} <= written, written
    assert "[@miller2024" in (tmp_path / "out" / "report.md").read_text()
    leaderboard = (tmp_path / "out" / "items_leaderboard.tex").read_text()
    assert all(m in leaderboard for m in ("m0", "m1", "m2", "m3"))


def test_mcda_compare_names_a_bad_item_column(tmp_path):
    from mcda.app.cli import main

    path = tmp_path / "items.csv"
    _tidy().to_csv(path, index=False)
    err = io.StringIO()
    assert main(["compare", str(path), "--metric", "exact_match", "--item-column", "qid", "--no-figures",
                 "--out", str(tmp_path / "o")], stdout=io.StringIO(), stderr=err) == 1
    assert "qid" in err.getvalue()
    renamed = _tidy().rename(columns={"item": "qid"})
    renamed.to_csv(path, index=False)
    out = io.StringIO()
    assert main(["compare", str(path), "--metric", "exact_match", "--item-column", "qid", "--no-figures",
                 "--out", str(tmp_path / "o2")], stdout=out, stderr=io.StringIO()) == 0
    assert "== Over items" in out.getvalue()


def test_the_item_test_setting_chooses_mcnemar_and_the_text_cites_it(tmp_path):
    from statsmodels.stats.contingency_tables import mcnemar

    from mcda.app.cli import _item_tests, main
    from mcda.stats.items.paired import PAIR_TESTS

    assert _item_tests() == PAIR_TESTS
    frame = _tidy(clustered=False, rng=8)
    report = mcda.Report(frame, metric="exact_match", item_test="mcnemar", rng=0)
    pairs = report.item_pairs()
    assert pairs.test == "mcnemar-exact"
    wide = frame.pivot(index="item", columns="method", values="score")
    # statsmodels' exact McNemar test of m0 vs m3, Holm over the 6 pairs as multipletests gives
    raw = {}
    for a, b in [(f"m{i}", f"m{j}") for i in range(4) for j in range(i + 1, 4)]:
        table = pd.crosstab(wide[a], wide[b]).reindex(index=[0.0, 1.0], columns=[0.0, 1.0], fill_value=0)
        raw[(a, b)] = mcnemar(table.to_numpy(), exact=True).pvalue
    holm = dict(zip(raw, multipletests(list(raw.values()), method="holm")[1]))
    got = {(r.method_a, r.method_b): r.p_adjusted for r in pairs.table.itertuples(index=False)}
    for key, value in holm.items():
        assert got[key] == pytest.approx(value, rel=1e-9)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        text = report.text()
    assert "McNemar's exact (binomial) test [@mcnemar1947]" in text and "@article{mcnemar1947" in text
    plain = mcda.Report(frame, metric="exact_match", rng=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert "asymptotically McNemar's test of the discordant items [@mcnemar1947]" in plain.text()
    # refused where it cannot apply, naming the setting
    with pytest.raises(mcda.McdaArgumentError, match="`item_test"):
        mcda.Report(mcda.datasets.load("demsar2006"), item_test="mcnemar", rng=0)
    with pytest.raises(mcda.McdaArgumentError, match="`item_test`"):
        mcda.Report(frame, metric="exact_match", item_test="welch", rng=0)
    path = tmp_path / "items.csv"
    frame.to_csv(path, index=False)
    out, err = io.StringIO(), io.StringIO()
    assert main(["compare", str(path), "--metric", "exact_match", "--item-test", "mcnemar-mid-p", "--no-figures",
                 "--out", str(tmp_path / "o")], stdout=out, stderr=err) == 0, err.getvalue()
    assert "McNemar (mid-p), Holm over the pairs of each dataset" in out.getvalue()


def test_one_test_set_on_the_command_line_and_back_from_the_bundle(tmp_path):
    from mcda.app.cli import main

    frame = _tidy(rng=6).rename(columns={"item": "prompt"})
    path = tmp_path / "one.parquet"
    frame.to_parquet(path, index=False)
    out, err = io.StringIO(), io.StringIO()
    assert main(["compare", str(path), "--metric", "exact_match", "--rng", "2", "--out", str(tmp_path / "o")],
                stdout=out, stderr=err) == 0, err.getvalue()
    text = out.getvalue()
    assert "across datasets: do not apply (one dataset)" in text and "== Across datasets" not in text
    written = {p.name for p in (tmp_path / "o").iterdir()}
    assert {"item_intervals.png", "item_forest.png", "item_matrix.png", "items_leaderboard.tex"} <= written
    assert not written & {"comparison.tex", "critical_difference.png", "superiority.png"}, written
    # the bundle keeps the items and their clusters: the same overview read back
    back = mcda.Report.from_json(tmp_path / "o" / "report.json")
    report = mcda.Report(frame.rename(columns={"prompt": "item"}), metric="exact_match", rng=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert back.overview() == report.overview()
    assert back.item_means().clustered


def test_a_parquet_file_reads_as_its_csv_does(tmp_path):
    """The Parquet path keeps text columns as categoricals (a label once, not a string per row): the table,
    the cube and the errors are those of the same table written as CSV."""
    from mcda.app.cli import main
    from mcda.data.readers import CliError, read_scores

    frame = _tidy(datasets=("qa", "code"), missing=True, rng=9)
    frame = frame.sample(frac=1.0, random_state=0).reset_index(drop=True)   # rows in any order
    frame.to_csv(tmp_path / "s.csv", index=False)
    frame.to_parquet(tmp_path / "s.parquet", index=False)
    from_csv = mcda.score_cube(read_scores(tmp_path / "s.csv"), metric="exact_match")
    from_parquet = mcda.score_cube(read_scores(tmp_path / "s.parquet"), metric="exact_match")
    for dim in ("dataset", "method", "item"):
        assert list(from_csv.coords[dim].values) == list(from_parquet.coords[dim].values), dim
    assert list(from_csv.coords["cluster"].values) == list(from_parquet.coords["cluster"].values)
    np.testing.assert_array_equal(from_csv.values, from_parquet.values)
    # a label padded with spaces is the same label; an empty key and a repeated row are named by line
    padded = frame.astype({"method": object})
    padded.loc[0, "method"] = f" {padded.loc[0, 'method']} "
    padded.to_parquet(tmp_path / "p.parquet", index=False)
    assert set(read_scores(tmp_path / "p.parquet")["method"].astype(str)) == {f"m{j}" for j in range(4)}
    broken = frame.astype({"method": object})
    broken.loc[3, "method"] = None
    broken.to_parquet(tmp_path / "b.parquet", index=False)
    with pytest.raises(CliError, match="empty method at line 5"):
        read_scores(tmp_path / "b.parquet")
    twice = pd.concat([frame, frame.iloc[[7]]], ignore_index=True)
    twice.to_parquet(tmp_path / "t.parquet", index=False)
    with pytest.raises(CliError, match="duplicate rows at lines 9 and"):
        read_scores(tmp_path / "t.parquet")
    clash = frame.copy()
    clash.loc[clash.index[0], "cluster"] = "elsewhere"
    clash.to_parquet(tmp_path / "c.parquet", index=False)
    err = io.StringIO()
    assert main(["compare", str(tmp_path / "c.parquet"), "--metric", "exact_match", "--no-figures", "--out",
                 str(tmp_path / "o")], stdout=io.StringIO(), stderr=err) == 1
    assert "must each belong to one cluster" in err.getvalue() and str(frame.loc[0, "item"]) in err.getvalue()


def test_a_long_csv_read_in_pieces_gives_the_table_read_at_once(tmp_path, monkeypatch):
    """Past CSV_CHUNK_ROWS rows the CSV is read in pieces, its repetitive text columns as categoricals: the
    cube, the labels' order, the clusters and the errors by line are those of reading it at once."""
    import mcda.data.readers as readers
    from mcda.data.readers import CliError, read_scores

    frame = _tidy(datasets=("qa", "code"), missing=True, binary=False, rng=10)
    frame = frame.sample(frac=1.0, random_state=1).reset_index(drop=True)
    frame.to_csv(tmp_path / "s.csv", index=False)
    whole = mcda.score_cube(read_scores(tmp_path / "s.csv"), metric="judge_score")
    monkeypatch.setattr(readers, "CSV_CHUNK_ROWS", 100)
    table = read_scores(tmp_path / "s.csv")
    assert isinstance(table["method"].dtype, pd.CategoricalDtype)   # the pieces were read as categoricals
    pieces = mcda.score_cube(table, metric="judge_score")
    for dim in ("dataset", "method", "item"):
        assert list(whole.coords[dim].values) == list(pieces.coords[dim].values), dim
    assert list(whole.coords["cluster"].values) == list(pieces.coords["cluster"].values)
    np.testing.assert_array_equal(whole.values, pieces.values)
    broken = frame.astype({"score": object})
    broken.loc[250, "score"] = "n/a?"
    broken.to_csv(tmp_path / "b.csv", index=False)
    with pytest.raises(CliError, match=r"not a number at line 252 \('n/a\?'\)"):
        read_scores(tmp_path / "b.csv")
    lines = (tmp_path / "s.csv").read_text().splitlines()
    lines[300] += ",extra"
    (tmp_path / "f.csv").write_text("\n".join(lines) + "\n")
    with pytest.raises((CliError, mcda.McdaArgumentError)):
        read_scores(tmp_path / "f.csv")
