"""Issue 21 (hardening): sizes that used to break the library, outputs and environments.

Each test names the failure it guards against; reference values come from plain re-computations
written here (independent of the code under test) or from the definitions they cite.
"""

from __future__ import annotations

import functools
import sys

import numpy as np
import pandas as pd
import pytest

import mcda
from mcda.stats._shared.cliques import maximal_cliques as _maximal_cliques
from mcda.stats._shared.multitest import _shaffer_counts, _true_hypothesis_counts


# --------------------------------------------------------------------------- sizes: cliques and Shaffer


@functools.lru_cache(maxsize=None)
def _shaffer_sets_by_definition(k: int) -> frozenset:
    # Shaffer (1986), the recursion as printed: S(k) = ∪_j {C(j, 2) + s : s ∈ S(k − j)}
    if k <= 1:
        return frozenset({0})
    return frozenset(j * (j - 1) // 2 + s for j in range(1, k + 1) for s in _shaffer_sets_by_definition(k - j))


def test_shaffer_sets_equal_the_recursion_and_scale_to_200_methods():
    for k in range(0, 41):
        assert _true_hypothesis_counts(k) == _shaffer_sets_by_definition(k), k
    # 200 methods used to hang (a 64-entry cache on a recursion that needs k entries)
    t = _shaffer_counts(200)
    m = 200 * 199 // 2
    assert t.size == m and t[0] == m and t[-1] == 1
    # Shaffer (1986): once one pair is false, at most C(k − 1, 2) = m − (k − 1) can be true
    assert t[1] == m - 199
    assert np.all(np.diff(t) <= 0)


def _interval_cliques(order_ranks: np.ndarray, cd: float) -> set:
    """Maximal cliques of |r_i − r_j| < CD on sorted ranks: the maximal runs of the sorted order."""
    k = order_ranks.size
    runs = []
    for i in range(k):
        j = i
        while j + 1 < k and order_ranks[j + 1] - order_ranks[i] < cd:
            j += 1
        runs.append((i, j))
    maximal = {r for r in runs if not any(o != r and o[0] <= r[0] and r[1] <= o[1] for o in runs)}
    return {frozenset(range(a, b + 1)) for a, b in maximal}


@pytest.mark.parametrize("k", [63, 64, 65, 120, 200])
def test_maximal_cliques_beyond_63_methods(k):
    # `1 << numpy.int64(63)` overflowed: OverflowError at 64+ methods whenever Friedman rejected
    rng = np.random.default_rng(k)
    ranks = np.sort(rng.uniform(1, k, size=k))
    cd = 5.0
    adjacent = np.abs(ranks[:, None] - ranks[None, :]) < cd
    found = {frozenset(c) for c in _maximal_cliques(adjacent)}
    assert found == _interval_cliques(ranks, cd)


def test_compare_over_datasets_and_shaffer_at_200_methods():
    rng = np.random.default_rng(21)
    k, n = 200, 30
    scores = rng.normal(size=(n, k)) + np.linspace(0.0, 6.0, k)
    names = [f"method-{i:03d}" for i in range(k)]
    result = mcda.compare_over_datasets(scores, "higher_is_better", method_names=names)
    assert result.posthoc is not None
    # groups: every member of a group within CD of every other, and maximal (the definition)
    cd = result.posthoc.critical_difference
    mean_ranks = result.mean_ranks
    for group in result.groups:
        r = mean_ranks.loc[list(group)].to_numpy()
        assert r.max() - r.min() < cd
    covered = {m for g in result.groups for m in g}
    assert covered == set(names)
    shaffer = mcda.all_pairs_test(scores, "higher_is_better", test="shaffer", method_names=names)
    holm = mcda.all_pairs_test(scores, "higher_is_better", test="holm", method_names=names)
    # Shaffer's multipliers are at most Holm's: it rejects at least what Holm rejects
    assert (shaffer.significant.to_numpy() >= holm.significant.to_numpy()).all()


# --------------------------------------------------------------------------- environment: numba's cache

_KERNEL_RUN = (
    "import os, tempfile, warnings, numpy as np\n"
    # a machine whose temporary directory cannot be written either (gettempdir() itself would
    # fall back to /tmp, which root can always write here)
    "tempfile.tempdir = os.environ.get('TEST_TEMPDIR') or None\n"
    "warnings.simplefilter('always')\n"
    "with warnings.catch_warnings(record=True) as caught:\n"
    "    from mcda._core._kernels.counts import region_counts\n"
    "    from mcda._core._kernels._jit import cache_directory\n"
    "    region_counts(np.arange(6.0).reshape(3, 2), 0.0, 8.0)\n"
    "print('CACHE', repr(cache_directory()))\n"
    "print('WARNINGS', [str(w.message) for w in caught if 'mcda' in str(w.message)])\n"
)


def _run_kernel(env_changes: dict, tmp_path) -> str:
    import os
    import subprocess

    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME")}
    env.update(env_changes)
    env["PYTHONPATH"] = os.pathsep.join([str(p) for p in sys.path if p])
    done = subprocess.run([sys.executable, "-c", _KERNEL_RUN], env=env, capture_output=True, text=True,
                          cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_kernels_run_with_no_writable_cache_anywhere(tmp_path):
    # HOME and TMPDIR under a file: nothing can be created there, even by root (who ignores
    # permission bits); numba itself raised "cannot cache function" for every kernel
    out = _run_kernel({"HOME": "/dev/null/home", "TEST_TEMPDIR": "/dev/null/tmp"}, tmp_path)
    assert "CACHE None" in out
    assert "no writable cache directory" in out  # the one note


def test_kernels_cache_in_the_user_cache_directory_not_the_package(tmp_path):
    out = _run_kernel({"XDG_CACHE_HOME": str(tmp_path / "xdg")}, tmp_path)
    assert f"CACHE '{tmp_path / 'xdg' / 'mcda' / 'numba'}'" in out and "WARNINGS []" in out
    written = list((tmp_path / "xdg" / "mcda" / "numba").rglob("*.nbi"))
    assert written, "no numba index file in the user cache directory"


def test_every_kernel_compiles_through_the_one_jit_helper():
    from pathlib import Path

    root = Path(mcda.__file__).parent
    offenders = [str(p.relative_to(root)) for p in root.rglob("*.py")
                 if p.name != "_jit.py" and ("numba.njit" in p.read_text() or "@njit" in p.read_text())]
    assert not offenders, f"use mcda._core._kernels._jit.jit (a writable cache directory) instead of numba.njit: {offenders}"


# --------------------------------------------------------------------------- outputs: no live LaTeX from a label

_PAYLOAD = "evil\n\\input{payload}\r\\def\\x{1}\u2028\\end{document}\x07"


def _live_lines(text: str) -> list[str]:
    """Lines that are not comments and start a TeX control sequence other than the table's own."""
    own = ("\\begin", "\\end{tabular}", "\\end{table}", "\\centering", "\\caption", "\\label", "\\toprule",
           "\\midrule", "\\bottomrule", "\\resizebox", "\\addlinespace", "\\multicolumn", "\\end{tabular}}",
           # the layout rule's font sizes and longtable structure (mcda.export)
           "\\small", "\\footnotesize", "\\scriptsize", "\\begingroup", "\\endgroup", "\\endfirsthead",
           "\\endhead", "\\endfoot", "\\endlastfoot", "\\end{longtable}")
    return [line for line in text.splitlines()
            if line.strip().startswith("\\") and not line.strip().startswith(own)]


def test_a_line_break_in_a_label_or_metric_cannot_become_live_latex():
    from mcda.export import comparison_to_latex, latex_escape, pairwise_to_latex, scores_to_latex

    rng = np.random.default_rng(3)
    names = ["plain", _PAYLOAD, "other"]
    datasets = [f"d{i}" for i in range(12)]
    values = rng.normal(size=(12, 3, 4)) * 0.01 + np.array([0.5, 0.6, 0.7])[None, :, None]
    frame = pd.DataFrame([{"dataset": d if i else _PAYLOAD, "method": m, "seed": s, "score": values[i, j, s]}
                          for i, d in enumerate(datasets) for j, m in enumerate(names) for s in range(4)])
    cube = mcda.score_cube(frame, direction="higher_is_better")
    outputs = [scores_to_latex(mcda.summary(cube)), pairwise_to_latex(mcda.paired_tests(cube)),
               comparison_to_latex(mcda.compare_over_datasets(mcda.reduce_seeds(cube, how="mean")))]
    for text in outputs:
        assert "\\input{payload}" not in text  # only its escaped form \textbackslash{}input\{payload\}
        assert "\x07" not in text and "\u2028" not in text and "\r" not in text
        assert not _live_lines(text), _live_lines(text)
        for line in text.splitlines():  # a comment line stays one comment
            if "payload" in line:
                unguarded = line.replace("\\nobreak{}", "")  # a caption's name: no hyphenation inside it
                assert line.startswith("%") or "\\textbackslash{}input\\{payload\\}" in unguarded
    assert latex_escape("a\tb\nc\x07") == "a b c<U+0007>"


# --------------------------------------------------------------------------- environment: netCDF round trips

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
import xarray as xr  # noqa: E402

_LABEL_INTS = st.integers(min_value=-(2**62), max_value=2**62)
_ATTR_VALUES = st.one_of(
    st.text(max_size=8), st.integers(min_value=-(2**62), max_value=2**62), st.booleans(), st.none(),
    st.floats(allow_nan=True, allow_infinity=False, width=64),
    st.lists(st.text(max_size=5), max_size=3), st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
)


@pytest.mark.parametrize("engine", ["scipy", "h5netcdf"])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seeds=st.lists(_LABEL_INTS, min_size=1, max_size=3, unique=True),
       datasets=st.lists(st.text(min_size=1, max_size=6), min_size=1, max_size=3, unique=True),
       attrs=st.dictionaries(st.text(alphabet="abcdefgh_", min_size=1, max_size=6), _ATTR_VALUES, max_size=4))
def test_netcdf_round_trip_is_exact_for_any_labels_and_attrs(engine, seeds, datasets, attrs, tmp_path):
    if engine == "h5netcdf":
        pytest.importorskip("h5netcdf")
    from mcda.data.io import from_netcdf, to_netcdf

    values = np.arange(len(datasets) * 2 * len(seeds), dtype=np.float64).reshape(len(datasets), 2, len(seeds))
    values[0, 0, 0] = np.nan
    cube = mcda.score_cube(xr.DataArray(values, dims=("dataset", "method", "seed"),
                                        coords={"dataset": datasets, "method": ["a", "b"],
                                                "seed": np.array(seeds, dtype=np.int64)}),
                           direction="higher_is_better")
    cube.attrs.update({f"x_{k}": v for k, v in attrs.items()})
    path = tmp_path / f"c-{engine}.nc"
    to_netcdf(cube, path, engine=engine)
    back = from_netcdf(path)
    assert back.coords["seed"].dtype == np.int64
    assert back.coords["seed"].values.tolist() == seeds
    # (compared with the cube's labels: numpy's '<U' arrays themselves drop trailing NULs)
    assert back.coords["dataset"].values.tolist() == cube.coords["dataset"].values.tolist()
    assert back.coords["dataset"].dtype == object
    np.testing.assert_array_equal(back.values, cube.values)
    assert set(back.attrs) == set(cube.attrs)
    for key, value in cube.attrs.items():
        got = back.attrs[key]
        if isinstance(value, float) and np.isnan(value):
            assert isinstance(got, float) and np.isnan(got)
        else:
            assert got == value and type(got) is type(value), (key, value, got)


# --------------------------------------------------------------------------- the CLI's --out folder


def _cli(argv):
    import io

    from mcda.app.cli import main

    out, err = io.StringIO(), io.StringIO()
    status = main(argv, stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
def test_out_folder_is_replaced_whole_foreign_folders_refused(tmp_path):
    out = tmp_path / "results"
    status, _, err = _cli(["compare", "--example", "demsar2006", "--out", str(out), "--no-figures", "--rng", "1"])
    assert status == 0, err
    first = {p.name for p in out.iterdir()}
    assert "report.json" in first and ".mcda-output" in first
    (out / "stale_from_an_old_run.png").write_bytes(b"old")
    status, _, err = _cli(["compare", "--example", "demsar2006", "--out", str(out), "--no-figures", "--rng", "2"])
    assert status == 0, err
    assert {p.name for p in out.iterdir()} == first  # the stale file is gone, nothing else changed
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".") and p.name != ".results.lock"]  # no leftovers

    foreign = tmp_path / "thesis"
    foreign.mkdir()
    (foreign / "chapter1.tex").write_text("mine")
    status, _, err = _cli(["compare", "--example", "demsar2006", "--out", str(foreign), "--no-figures"])
    assert status == 1 and "--out" in err and "--force" in err and "did not write" in err
    assert {p.name for p in foreign.iterdir()} == {"chapter1.tex"}
    status, _, err = _cli(["compare", "--example", "demsar2006", "--out", str(foreign), "--no-figures", "--force"])
    assert status == 0, err
    names = {p.name for p in foreign.iterdir()}
    assert "chapter1.tex" in names and "report.json" in names and ".mcda-output" not in names
    assert (foreign / "chapter1.tex").read_text() == "mine"

    status, _, err = _cli(["compare", "--example", "demsar2006", "--out", "", "--no-figures"])
    assert status == 1 and "--out must name a folder" in err


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
def test_a_force_failure_names_the_users_out_not_the_hidden_staging_folder(tmp_path):
    foreign = tmp_path / "thesis"
    foreign.mkdir()
    (foreign / "chapter1.tex").write_text("mine")
    (foreign / "report.md").mkdir()  # a folder where mcda writes a file
    status, _, err = _cli(["compare", "--example", "demsar2006", "--out", str(foreign), "--no-figures", "--force"])
    assert status == 1 and f"--out {str(foreign)!r} holds the folder(s) 'report.md'" in err, err
    assert ".partial" not in err and "Is a directory" not in err
    assert {p.name for p in foreign.iterdir()} == {"chapter1.tex", "report.md"}  # nothing half-written into it
    assert [p.name for p in tmp_path.iterdir()] == ["thesis"]  # no staging folder left behind


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
def test_two_concurrent_runs_leave_one_complete_output(tmp_path):
    import threading

    out = tmp_path / "shared"
    results = []

    def one(rng):
        results.append(_cli(["compare", "--example", "duo2018", "--out", str(out), "--no-figures", "--rng", str(rng)]))

    threads = [threading.Thread(target=one, args=(r,)) for r in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [r[0] for r in results] == [0, 0], [r[2] for r in results]
    import json

    bundle = json.loads((out / "report.json").read_text())
    assert bundle  # a whole, parseable bundle: not a half-written mix
    assert {p.name for p in out.iterdir()} >= {"report.json", "report.txt", "scores.tex", ".mcda-output"}
    assert not list(tmp_path.glob(".shared.*.partial")) and not list(tmp_path.glob(".shared.*.old"))


# --------------------------------------------------------------------------- exporters given the wrong object


@pytest.mark.parametrize("bad", [42, "text", None, pd.DataFrame({"a": [1]})])
def test_exporters_name_the_argument_for_a_wrong_object(bad):
    from mcda.export import comparison_to_latex, pairwise_to_latex

    with pytest.raises(TypeError, match=r"`result` must be a PairedTests .* got "):
        pairwise_to_latex(bad)
    with pytest.raises(TypeError, match=r"`result` must be a ComparisonResult .* got "):
        comparison_to_latex(bad)
    with pytest.raises(TypeError, match=r"`result` must be a ComparisonResult"):
        comparison_to_latex(mcda.datasets.load("demsar2006"))


# --------------------------------------------------------------------------- a Report shared by threads


@pytest.mark.filterwarnings("ignore:noise from another thread")
def test_a_report_shared_by_threads_keeps_each_views_own_warnings():
    import threading
    import warnings

    report = mcda.Report(mcda.datasets.load("duo2018"), rng=0)  # two incomplete methods: compare() warns
    stop = threading.Event()

    def noise():  # (a thread that also changed the global filters would be beyond any library's reach
        # before Python 3.14's context-local warnings: filters are process-wide)
        while not stop.is_set():
            warnings.warn("noise from another thread", UserWarning)

    other = threading.Thread(target=noise)
    with warnings.catch_warnings(record=True) as first:
        warnings.simplefilter("always")
        other.start()
        try:
            report.compare()
            report.superiority()
        finally:
            stop.set()
            other.join()
    with warnings.catch_warnings(record=True) as again:
        warnings.simplefilter("always")
        report.compare()
        report.superiority()
    messages = [str(w.message) for w in again]
    assert messages, "the cached views re-issue their own warnings"
    assert not any("noise from another thread" in m for m in messages), messages
    assert any("SAFE" in str(w.message) for w in first + again)


@pytest.mark.filterwarnings("ignore:noise from another thread")
@pytest.mark.parametrize("view", ["overview", "text"])
def test_the_texts_of_a_report_shared_by_threads_reissue_only_their_own_warnings(view):
    import threading
    import warnings

    report = mcda.Report(mcda.datasets.load("duo2018"), rng=0)
    started, stop = threading.Event(), threading.Event()

    def noise():
        while not stop.is_set():
            warnings.warn("noise from another thread", UserWarning)
            started.set()

    other = threading.Thread(target=noise)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        other.start()
        started.wait(60)
        try:
            getattr(report, view)()  # (the texts' warning capture recorded every thread's warnings)
        finally:
            stop.set()
            other.join()
    reissued = [w for w in caught if w.filename == __file__ and "noise from another thread" in str(w.message)
                and w.lineno != noise.__code__.co_firstlineno + 2]
    assert not reissued, [(w.filename, w.lineno) for w in reissued]
    with warnings.catch_warnings(record=True) as again:
        warnings.simplefilter("always")
        getattr(report, view)()
    assert not any("noise from another thread" in str(w.message) for w in again)
    assert any("SAFE" in str(w.message) for w in caught + again)


# --------------------------------------------------------------------------- memory: keep only what is asked for


@pytest.mark.parametrize("test", ["sign", "signed_rank"])
def test_keep_draws_for_listed_pairs_changes_no_probability(test):
    scores = mcda.datasets.synthetic(n_datasets=15, n_methods=5, n_seeds=1, rng=4).isel(seed=0, drop=True)
    scores = mcda.score_cube(scores, metric="accuracy")
    run = (mcda.bayesian_sign_comparison if test == "sign" else mcda.bayesian_signed_rank_comparison)
    extra = {"method": "sampling"} if test == "sign" else {}
    methods = [str(m) for m in scores.coords["method"].values]
    pair = (methods[3], methods[1])
    every = run(scores, rng=5, n_samples=4000, keep_draws=True, **extra)
    none = run(scores, rng=5, n_samples=4000, keep_draws=False, **extra)
    one = run(scores, rng=5, n_samples=4000, keep_draws=[pair], **extra)
    pd.testing.assert_frame_equal(one.table, every.table)
    pd.testing.assert_frame_equal(none.table, every.table)
    assert len(one.draws) == 1 and len(every.draws) == 10
    key = next(iter(one.draws))
    assert set(key) == set(pair)
    np.testing.assert_array_equal(one.draws[key], every.draws[key])
    with pytest.raises(ValueError, match="`keep_draws` names pairs"):
        run(scores, rng=5, n_samples=100, keep_draws=[(methods[0], "nope")], **extra)


def test_kept_draws_over_the_memory_limit_are_refused_before_sampling():
    rng = np.random.default_rng(0)
    scores = rng.normal(size=(30, 200))
    names = [f"m{i}" for i in range(200)]
    # 19,900 pairs x 50,000 draws x 3 x 8 bytes = 23.9 GB: refused at once with the way on
    with pytest.raises(ValueError, match=r"`n_samples`=50,000 posterior draws per pair, of which `keep_draws` keeps 19900 pairs.*keep_draws=False.*about 22\.2 GiB"):
        mcda.bayesian_sign_comparison(scores, "higher_is_better", rope=0.01, method="sampling", method_names=names)
    with mcda.set_options(memory_limit="100MB"):
        with pytest.raises(ValueError, match="over the memory limit of 95.4 MiB"):
            mcda.bayesian_signed_rank_comparison(scores[:, :60], "higher_is_better", rope=0.01,
                                                 method_names=names[:60], n_samples=5000)  # 212 MB
    # what a plot needs is allowed: one pair
    one = mcda.bayesian_sign_comparison(scores, "higher_is_better", rope=0.01, method="sampling", n_samples=2000,
                                        method_names=names, keep_draws=[("m0", "m1")], rng=1)
    assert len(one.draws) == 1


def test_options_are_validated():
    with pytest.raises(ValueError, match="unknown option"):
        mcda.set_options(memroy_limit=1)
    with pytest.raises(ValueError, match="`memory_limit` must be"):
        mcda.set_options(memory_limit="lots")
    before = mcda.get_options()
    with mcda.set_options(memory_limit=10**9):
        assert mcda.get_options()["memory_limit"] == 10**9
    assert mcda.get_options() == before


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
def test_report_plot_posterior_samples_only_its_pair():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    rng = np.random.default_rng(2)
    k = 120  # all 7,140 pairs x 50,000 draws would be 8 GiB of kept draws
    frame = pd.DataFrame(rng.normal(size=(12, k)) * 0.01 + np.linspace(0.5, 0.9, k),
                         columns=[f"method-{i}" for i in range(k)], index=[f"d{i}" for i in range(12)])
    report = mcda.Report(mcda.score_cube(frame, metric="accuracy"), rng=0)
    drawn = report.plot_posterior(("method-0", "method-119"))
    import matplotlib.pyplot as plt

    fig = drawn[0] if isinstance(drawn, tuple) else drawn
    plt.close(getattr(fig, "figure", fig))
    with pytest.raises(ValueError, match="`pair` must name two methods"):
        report.plot_posterior(("method-0", "nope"))


def test_to_zarr_refuses_to_replace_a_store_silently(tmp_path):
    pytest.importorskip("zarr")
    from mcda import store

    cube = mcda.datasets.load("demsar2006")
    path = tmp_path / "c.zarr"
    store.to_zarr(cube, path, chunk_datasets=5)
    with pytest.raises(FileExistsError, match="`path` .* already exists; pass overwrite=True"):
        store.to_zarr(cube, path, chunk_datasets=5)
    store.to_zarr(cube, path, chunk_datasets=4, overwrite=True)
    assert store.open_cube(path).chunks[0][0] == 4


def test_resample_counts_beyond_memory_are_refused_before_allocating():
    cube = mcda.datasets.load("demsar2006")
    # rank_stability(n_resamples=10**12) grew until the kernel killed it
    with pytest.raises(ValueError, match=r"`n_resamples`=1,000,000,000,000 keeps .* over the memory limit.*Pass n_resamples=[\d,]+ or fewer"):
        mcda.rank_stability(cube, n_resamples=10**12, rng=0)
    # the bootstrap summary died inside numba with SystemError
    seeds = mcda.datasets.synthetic(n_datasets=2, n_methods=2, n_seeds=5, rng=0)
    with pytest.raises(ValueError, match=r"`n_resamples`=1,000,000,000,000 needs two buffers.*memory limit"):
        mcda.summary(seeds, ci_method="bootstrap", n_resamples=10**12, rng=0)


def test_a_csv_with_more_fields_than_its_header_is_named(tmp_path):
    path = tmp_path / "scores.csv"
    path.write_text("dataset,method,seed,score\na,x,0,0.5,extra\na,y,0,0.6,extra\nb,x,0,0.7,extra\nb,y,0,0.4,extra\n")
    with pytest.raises(ValueError, match="more fields than the header"):
        mcda.score_cube(path, metric="accuracy")
    status, _, err = _cli(["compare", str(path), "--metric", "accuracy", "--out", str(tmp_path / "o"), "--no-figures"])
    assert status == 1 and "more fields than the header" in err and "invalid literal" not in err


# --------------------------------------------------------------------------- sizes a caller chooses: refused before allocating

_HUGE_CALLS = """
import resource, re, sys, warnings
import numpy as np
import mcda
warnings.simplefilter("ignore")
rng = np.random.default_rng(0)
scores = mcda.score_cube(rng.uniform(0.5, 0.9, (6, 3)), metric="accuracy")
folds = mcda.score_cube(rng.uniform(0.5, 0.9, (4, 2, 10)), metric="accuracy")
calls = {
    "plackett_luce": lambda: mcda.plackett_luce(scores, n_samples=10**9),
    "hierarchical_comparison": lambda: mcda.hierarchical_comparison(folds, runs=1, n_samples=10**9),
    "effect_sizes": lambda: mcda.effect_sizes(scores, n_resamples=10**12),
    "rank_stability": lambda: mcda.rank_stability(scores, n_resamples=10**12),
    "summary": lambda: mcda.summary(folds, ci_method="bootstrap", n_resamples=10**12),
    "bayesian_sign_comparison": lambda: mcda.bayesian_sign_comparison(scores, method="sampling", n_samples=10**10,
                                                                      keep_draws=False),
}
soft, hard = resource.getrlimit(resource.RLIMIT_AS)
with open("/proc/self/status") as status:
    size = int(re.search(r"VmSize:\\s+(\\d+) kB", status.read()).group(1)) * 1024
# the address space this process has now, and 3 GiB more (enough for the 2 GiB memory_limit, not for 10**9 draws)
resource.setrlimit(resource.RLIMIT_AS, (size + 3 * 2**30, hard))
for name, call in calls.items():
    try:
        call()
        print(name, "ran")
    except mcda.McdaArgumentError as exc:
        print(name, "refused", exc.argument, str(exc).replace("\\n", " "))
    except MemoryError:
        print(name, "MemoryError")
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc are Linux's")
def test_huge_draw_and_resample_counts_are_refused_before_allocating():
    import os
    import subprocess
    from pathlib import Path

    env = dict(os.environ, PYTHONPATH=str(Path(mcda.__file__).parents[1]))
    done = subprocess.run([sys.executable, "-c", _HUGE_CALLS], capture_output=True, text=True, env=env, timeout=600)
    lines = dict(line.split(" ", 1) for line in done.stdout.splitlines())
    assert set(lines) == {"plackett_luce", "hierarchical_comparison", "effect_sizes", "rank_stability", "summary",
                          "bayesian_sign_comparison"}, done.stdout + done.stderr
    for name, line in lines.items():
        assert line.startswith("refused n_"), (name, line)  # not "ran", not MemoryError
        assert "over the memory limit of 2.0 GiB" in line and "or fewer" in line, (name, line)


@pytest.mark.filterwarnings("ignore::mcda.McdaWarning")
def test_the_count_a_refusal_offers_is_accepted():
    import re

    scores = mcda.score_cube(np.random.default_rng(0).uniform(0.5, 0.9, (6, 3)), metric="accuracy")
    with mcda.set_options(memory_limit="64KiB"):
        with pytest.raises(mcda.McdaArgumentError, match=r"`n_resamples`=9,999 .*over the memory limit of 64\.0 KiB") as caught:
            mcda.effect_sizes(scores, n_resamples=9999, rng=0)
        assert caught.value.argument == "n_resamples"
        offered = int(re.search(r"Pass n_resamples=([\d,]+) or fewer", str(caught.value)).group(1).replace(",", ""))
        assert offered == 64 * 1024 // 16  # two float64 buffers per resample
        assert mcda.effect_sizes(scores, n_resamples=offered, rng=0).n_resamples == offered
        with pytest.raises(mcda.McdaArgumentError, match="n_resamples"):
            mcda.effect_sizes(scores, n_resamples=offered + 1, rng=0)
