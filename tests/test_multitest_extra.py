"""Finner, Holland, Li and Rom in mcda.adjust_pvalues and in the control / all-pairs procedures.

Oracles: scmamp's adjustHolland / adjustFinner / adjustLi and Rom's constants
(tests/data/multitest_scmamp, made by the R script there), statsmodels' multipletests
('holm-sidak' is Holland's procedure; Rom with m = 2 is Hochberg).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import mcda
from mcda.stats._shared.multitest import rom_critical_values

DATA = Path(__file__).parent / "data" / "multitest_scmamp"
multitest = pytest.importorskip("statsmodels.stats.multitest")
REFERENCE = pd.read_csv(DATA / "r_reference.csv")


@pytest.mark.parametrize("method", ["holland", "finner", "li"])
def test_equal_to_scmamp(method):
    for _, family in REFERENCE.groupby("family"):
        ours = mcda.adjust_pvalues(family["p"].to_numpy(), method=method)
        # rtol 1e-9: scmamp computes 1 - (1 - p)^x, which loses digits for tiny p; mcda uses
        # -expm1(x log1p(-p)) (the digits scmamp loses are the only difference)
        np.testing.assert_allclose(ours, family[method], rtol=1e-9, err_msg=f"m = {len(family)}")


def test_rom_constants_equal_scmamp():
    for m, family in REFERENCE[REFERENCE["m"] >= 3].groupby("m"):
        r = family.drop_duplicates("position").sort_values("position")["rom_r"].to_numpy()
        np.testing.assert_allclose(0.05 / rom_critical_values(int(m), 0.05), r, rtol=1e-12)


def test_holland_is_holm_sidak_in_statsmodels():
    rng = np.random.default_rng(1)
    for m in (2, 5, 9):
        p = rng.uniform(size=m) ** 3
        np.testing.assert_allclose(mcda.adjust_pvalues(p, method="holland"),
                                   multitest.multipletests(p, method="holm-sidak")[1], rtol=1e-12)


def test_rom_is_hochberg_for_two_and_at_least_as_powerful_beyond():
    rng = np.random.default_rng(2)
    for _ in range(200):
        m = int(rng.integers(2, 10))
        p = rng.uniform(size=m) ** 4
        rom = mcda.adjust_pvalues(p, method="rom")
        hochberg = multitest.multipletests(p, method="simes-hochberg")[1]
        if m == 2:
            np.testing.assert_allclose(rom, hochberg, rtol=1e-12)
        assert np.all(rom <= hochberg + 1e-12)
        # the step-up decision at alpha: reject H_(1..j) for the largest j with p_(j) <= alpha_j
        order = np.sort(p)
        passing = np.nonzero(order <= rom_critical_values(m, 0.05))[0]
        n_reject = passing[-1] + 1 if passing.size else 0
        assert int(np.sum(rom <= 0.05)) == n_reject


def test_li_two_step_decision():
    # Li (2008): reject all if p_(m) <= alpha, else those with p_(i) <= alpha (1 - p_(m)) / (1 - alpha)
    rng = np.random.default_rng(3)
    for _ in range(200):
        m = int(rng.integers(2, 8))
        p = rng.uniform(size=m) ** 3
        li = mcda.adjust_pvalues(p, method="li")
        big = p.max()
        expected = np.ones(m, dtype=bool) if big <= 0.05 else p <= 0.05 * (1 - big) / 0.95
        np.testing.assert_array_equal(li <= 0.05, expected)


def test_finner_is_between_holm_and_fdr():
    rng = np.random.default_rng(4)
    for _ in range(100):
        p = rng.uniform(size=6) ** 3
        finner = mcda.adjust_pvalues(p, method="finner")
        # Finner's step-down is uniformly more powerful than Holm's (an invariant; Holm itself is
        # checked against statsmodels in tests/test_pool_independent.py)
        assert np.all(finner <= mcda.adjust_pvalues(p, method="holm") + 1e-12)


def test_a_raw_p_of_one_stays_one_without_a_warning():
    # 1 - (1 - p)^(m/j) at p = 1 is exactly 1 (log1p(-1) = -inf inside); the suite runs with
    # warnings as errors, so a divide-by-zero warning here would be an error for every caller.
    # The reference is the formula's value, and for Holland statsmodels' holm-sidak.
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    for p in ([1.0], [0.01, 1.0], [1.0, 1.0, 0.2]):
        for method in ("finner", "holland", "li", "rom", "sidak"):
            adjusted = mcda.adjust_pvalues(p, method=method)
            assert adjusted[np.argmax(p)] == 1.0 and np.all(adjusted >= np.asarray(p) - 1e-15), method
        with np.errstate(divide="ignore"):  # statsmodels itself warns at p = 1
            reference = multitest.multipletests(p, method="holm-sidak")[1]
        np.testing.assert_allclose(mcda.adjust_pvalues(p, method="holland"), reference, rtol=1e-12)


def test_control_and_all_pairs_procedures_use_them():
    cube = mcda.datasets.load("garcia_herrera2008")
    for test in ("holland", "finner", "li", "rom"):
        res = mcda.control_test(cube, control="C4.5", test=test)
        expected = mcda.adjust_pvalues(res.pvalues.to_numpy(), method=test)
        np.testing.assert_allclose(res.pvalues_adjusted, expected, rtol=1e-12)
        comp = mcda.compare_over_datasets(cube, test=test, control="C4.5")
        assert comp.posthoc.test == test
    for test in ("holland", "finner"):
        res = mcda.all_pairs_test(cube, test=test).to_frame()
        np.testing.assert_allclose(res["p_adjusted"], mcda.adjust_pvalues(res["p_raw"].to_numpy(), method=test))
    with pytest.raises(ValueError, match="`test`"):
        mcda.all_pairs_test(cube, test="rom")  # Rom and Li: comparisons with a control (García et al. 2010)
    res = mcda.pairwise_over_datasets(cube, adjust="finner")
    assert res.adjust == "finner" and res.procedure == "Wilcoxon–Finner"


def test_rom_alpha_is_checked():
    with pytest.raises(ValueError, match="alpha"):
        mcda.adjust_pvalues([0.01, 0.02, 0.5], method="rom", alpha=2.0)


@pytest.mark.parametrize("design, control", [("garcia2010", "PDFC"), ("garcia_herrera2008", "C4.5")])
def test_control_posthoc_of_the_garcia_examples_equals_scmamp(design, control):
    # R/scmamp on the two worked examples of García et al. (2010) and García & Herrera (2008):
    # Friedman z against the control, adjusted by scmamp's adjustHolland / adjustFinner / adjustLi
    # / adjustRom (tests/data/rank_omnibus_r/make_adjusted.R). Rom: scmamp's running maximum makes
    # its values step-down (see tests/data/multitest_scmamp/PROVENANCE.md), so only its decisions
    # at alpha = 0.05 are compared.
    root = Path(__file__).parent / "data"
    ref = pd.read_csv(root / "rank_omnibus_r" / "r_adjusted.csv")
    ref = ref[(ref["design"] == design) & (ref["posthoc"] == "friedman")].set_index("method")
    if design == "garcia2010":
        tidy = pd.read_csv(root / "garcia2010" / "garcia2010_accuracy.csv")
        cube = tidy.pivot(index="dataset", columns="method", values="accuracy")
    else:
        cube = mcda.datasets.load("garcia_herrera2008")
    for test in ("holland", "finner", "li", "rom"):
        res = mcda.control_test(cube, "higher_is_better", control=control, test=test)
        # raw p: scmamp's 1 - pnorm loses digits at small p (rtol 1e-6); the adjustment itself is
        # compared on scmamp's own raw p-values
        np.testing.assert_allclose(res.pvalues.loc[ref.index].to_numpy(), ref["p_raw"], rtol=1e-6)
        ours = mcda.adjust_pvalues(ref["p_raw"].to_numpy(), method=test)
        if test == "rom":
            np.testing.assert_array_equal(ours <= 0.05, ref[test].to_numpy() <= 0.05)
            np.testing.assert_array_equal(res.significant.loc[ref.index].to_numpy(), ref[test].to_numpy() <= 0.05)
        else:
            np.testing.assert_allclose(ours, ref[test], rtol=1e-9)
            np.testing.assert_allclose(res.pvalues_adjusted.loc[ref.index].to_numpy(), ref[test], rtol=1e-6)
