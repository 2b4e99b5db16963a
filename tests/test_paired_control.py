"""``control=`` on ``paired_tests``, the pairwise LaTeX export and the CLI: "my method vs each baseline".

Reference numbers come from scipy (ttest_rel, wilcoxon, ttest_ind) and statsmodels
(multipletests, Holm) run here on the same seeds, with the family of k − 1 comparisons per
dataset; never from mcda itself.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import mcda
from mcda.app.cli import main
from mcda.export import pairwise_to_latex

statsmodels = pytest.importorskip("statsmodels")
from statsmodels.stats.multitest import multipletests  # noqa: E402

METHODS = ["m0", "m1", "m2", "m3"]


def _values(seed=11, n_datasets=3, n_seeds=9):
    rng = np.random.default_rng(seed)
    values = 0.8 + rng.normal(0, 0.01, size=(n_datasets, len(METHODS), n_seeds))
    values += np.array([0.0, 0.006, 0.012, -0.004])[None, :, None]
    values[1, 3, [0, 4]] = np.nan  # missing seeds: a pair uses the seeds both have
    return values


def _cube(values):
    return mcda.score_cube(values, metric="accuracy", method_names=METHODS,
                           dataset_names=[f"d{i}" for i in range(values.shape[0])])


def _reference(values, control, test):
    """Per dataset: (other, mean diff, p_raw, p_holm) with scipy + statsmodels Holm over the k - 1."""
    c = METHODS.index(control)
    out = []
    for i in range(values.shape[0]):
        rows = []
        for j, other in enumerate(METHODS):
            if j == c:
                continue
            a, b = values[i, c], values[i, j]
            both = ~np.isnan(a) & ~np.isnan(b)
            res = test(a[both], b[both])
            rows.append((f"d{i}", other, float(np.mean(a[both] - b[both])), float(res.pvalue)))
        _, holm, _, _ = multipletests([r[3] for r in rows], method="holm")
        out += [r + (float(h),) for r, h in zip(rows, holm)]
    return out


@pytest.mark.parametrize("control", ["m0", "m2"])
def test_paired_t_against_a_control_equals_scipy_and_statsmodels_holm_over_k_minus_1(control):
    values = _values()
    res = mcda.paired_tests(_cube(values), control=control)
    table = res.to_frame()
    assert res.control == control
    assert len(table) == values.shape[0] * (len(METHODS) - 1)
    assert (table["method_a"] == control).all()
    ref = _reference(values, control, stats.ttest_rel)
    for row, (dataset, other, diff, p, holm) in zip(table.itertuples(), ref):
        assert (row.dataset, row.method_b) == (dataset, other)
        assert row.mean_diff == pytest.approx(diff, rel=1e-12)
        assert row.p_raw == pytest.approx(p, rel=1e-10)
        assert row.p_holm == pytest.approx(holm, rel=1e-10)
        assert row.significant == (holm <= 0.05)


def test_the_control_family_is_smaller_than_all_pairs():
    # with 4 methods, all pairs adjust over 6 per dataset and the control table over 3: Holm's
    # multiplier for the smallest p is 6 vs 3 (statsmodels on both families)
    values = _values(seed=5)
    every = mcda.paired_tests(_cube(values)).to_frame()
    against = mcda.paired_tests(_cube(values), control="m1").to_frame()
    d0 = every[every["dataset"] == "d0"]
    _, holm_all, _, _ = multipletests(d0["p_raw"], method="holm")
    np.testing.assert_allclose(d0["p_holm"], holm_all, rtol=1e-12)
    mine = d0[(d0["method_a"] == "m1") | (d0["method_b"] == "m1")]
    _, holm_control, _, _ = multipletests(mine["p_raw"], method="holm")
    np.testing.assert_allclose(np.sort(against.loc[against["dataset"] == "d0", "p_holm"]), np.sort(holm_control),
                               rtol=1e-12)
    assert not np.allclose(np.sort(holm_control), np.sort(mine["p_holm"]))


def test_wilcoxon_against_a_control_equals_scipy():
    values = _values(seed=3)
    table = mcda.paired_tests(_cube(values), method="wilcoxon", control="m3").to_frame()
    ref = _reference(values, "m3", stats.wilcoxon)
    for row, (dataset, other, diff, p, holm) in zip(table.itertuples(), ref):
        assert (row.dataset, row.method_a, row.method_b) == (dataset, "m3", other)
        assert row.p_raw == pytest.approx(p, rel=1e-12)
        assert row.p_holm == pytest.approx(holm, rel=1e-12)


def test_unpaired_against_a_control_equals_scipy_welch():
    values = _values(seed=8)
    res = mcda.paired_tests(_cube(values), paired=False, control="m1")
    table = res.to_frame()
    assert (table["method_a"] == "m1").all() and len(table) == 9
    for i in range(values.shape[0]):
        got = table[table["dataset"] == f"d{i}"]
        ps = []
        for row in got.itertuples():
            a = values[i, 1][~np.isnan(values[i, 1])]
            b = values[i, METHODS.index(row.method_b)]
            b = b[~np.isnan(b)]
            ref = stats.ttest_ind(a, b, equal_var=False)
            assert row.p_raw == pytest.approx(ref.pvalue, rel=1e-12)
            assert row.mean_diff == pytest.approx(a.mean() - b.mean(), rel=1e-12)
            ps.append(ref.pvalue)
        _, holm, _, _ = multipletests(ps, method="holm")
        np.testing.assert_allclose(got["p_holm"], holm, rtol=1e-12)


def test_summary_names_the_control_and_the_family():
    text = mcda.paired_tests(_cube(_values()), control="m2").summary()
    assert "control m2 against each of the 3 other methods" in text
    assert "Holm over those 3 comparisons within each dataset" in text


def test_a_control_that_is_not_a_method_is_refused_naming_the_argument():
    with pytest.raises(ValueError, match=r"`control` must be one of the methods compared \[m0, m1, m2, m3\]; "
                                         r"got 'm9'"):
        mcda.paired_tests(_cube(_values()), control="m9")
    with pytest.raises(TypeError, match="`control` must be the name of a method"):
        mcda.paired_tests(_cube(_values()), control=1)


def _body(text):
    return [line for line in text.splitlines() if line.endswith(r"\\") and "&" in line
            and not line.startswith(("Dataset", r"\multicolumn"))]


def test_export_of_an_all_pairs_result_with_control_equals_the_control_result():
    values = _values(seed=21)
    every = mcda.paired_tests(_cube(values))
    against = mcda.paired_tests(_cube(values), control="m2")
    derived = pairwise_to_latex(every, control="m2")
    direct = pairwise_to_latex(against)
    assert _body(derived) == _body(direct)
    assert len(_body(direct)) == 9
    assert "m2 against each of the 3 other methods" in direct and "Versus" in direct
    # the p_holm column shown is statsmodels' Holm over the k - 1 (3 decimals)
    ref = _reference(values, "m2", stats.ttest_rel)
    shown_holm = [line.split("&")[4].strip() for line in _body(direct)]
    assert shown_holm == [f"{h:.3f}" if h >= 0.001 else "$<$0.001" for *_, h in ref]


def test_export_refuses_a_control_the_result_does_not_hold():
    against = mcda.paired_tests(_cube(_values()), control="m2")
    with pytest.raises(ValueError, match="`control` 'm1' differs from the control of `result`"):
        pairwise_to_latex(against, control="m1")


def test_cli_control_writes_the_within_dataset_control_table(tmp_path):
    values = _values(seed=2)
    rows = [{"dataset": f"d{i}", "method": m, "seed": s, "score": values[i, j, s]}
            for i in range(values.shape[0]) for j, m in enumerate(METHODS) for s in range(values.shape[2])
            if not np.isnan(values[i, j, s])]
    path = tmp_path / "scores.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    out = tmp_path / "out"
    import io

    stdout = io.StringIO()
    assert main(["compare", str(path), "--metric", "accuracy", "--control", "m1", "--figures", "none",
                 "--out", str(out)], stdout=stdout) == 0
    text = (out / "pairwise_control.tex").read_text()
    expected = pairwise_to_latex(mcda.paired_tests(_cube(values), control="m1"))
    assert _body(text) == _body(expected)
    assert "against the control m1" in stdout.getvalue()
    assert "pairwise.tex" in stdout.getvalue()


def test_control_table_keys_only_the_other_methods_from_m1():
    # long names: the control is named in full in the caption, the k - 1 others are keyed M1..M(k-1)
    long = [f"a_rather_long_method_name_number_{i}" for i in range(len(METHODS))]
    cube = _cube(_values(seed=5)).assign_coords(method=long)
    text = pairwise_to_latex(mcda.paired_tests(cube, control=long[2]))
    versus = [line.split("&")[1].strip() for line in _body(text)]
    assert versus == ["M1", "M2", "M3"] * 3                      # from M1, the control not among them
    caption = next(line for line in text.splitlines() if line.startswith(r"\caption"))
    assert r"a\_\allowbreak{}rather" in caption and "number\\_\\allowbreak{}2 against each of the 3" in caption
    others = [m for m in long if m != long[2]]
    for i, name in enumerate(others):                           # the key names each other method once
        assert f"M{i + 1}~= " + name.replace("_", r"\_\allowbreak{}") in caption
    assert "M4" not in text and "Other methods: M1" in caption
    # names that fit: no key at all, the other methods by name
    plain = pairwise_to_latex(mcda.paired_tests(_cube(_values(seed=5)), control="m2"))
    assert [line.split("&")[1].strip() for line in _body(plain)] == ["m0", "m1", "m3"] * 3
    assert "M1" not in plain
    # some names long, some short: only the long ones take keys, the short keep their names
    mixed = ["m0", "a_rather_long_method_name_number_1", "m2", "a_rather_long_method_name_number_3"]
    text = pairwise_to_latex(mcda.paired_tests(_cube(_values(seed=5)).assign_coords(method=mixed), control="m2"))
    assert [line.split("&")[1].strip() for line in _body(text)] == ["m0", "M1", "M2"] * 3
    caption = next(line for line in text.splitlines() if line.startswith(r"\caption"))
    assert "M1~= a\\_\\allowbreak{}rather" in caption and "= m0" not in caption
    # a short name that reads as a key (a method called "m1" beside key M1): every other method keyed
    clash = ["m1", "a_rather_long_method_name_number_1", "m2", "a_rather_long_method_name_number_3"]
    text = pairwise_to_latex(mcda.paired_tests(_cube(_values(seed=5)).assign_coords(method=clash), control="m2"))
    assert [line.split("&")[1].strip() for line in _body(text)] == ["M1", "M2", "M3"] * 3
    caption = next(line for line in text.splitlines() if line.startswith(r"\caption"))
    assert "M1~= m1;" in caption and "M2~= a\\_\\allowbreak{}rather" in caption
