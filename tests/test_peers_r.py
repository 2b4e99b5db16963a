"""mcda against scmamp and base R, run live: one Rscript call computes every oracle number.

The oracle is scmamp's own R code (github b0rxa/scmamp, sourced from tests/oracles/scmamp/, see
its PROVENANCE.md) and R's ``stats`` (``friedman.test``, ``quade.test``, ``p.adjust``, ``wilcox.test``), run by
``tests/oracles/run_scmamp.R`` on eleven fresh designs (k = 3–10, N = 8–60, continuous and tied) and on
three published data sets (Demšar 2006 table 6, García & Herrera 2008 table 2 = scmamp's
``data.gh.2008``, García et al. 2010). Equal to 1e-12: Friedman, Iman–Davenport, the pairwise
z, Holm, Hochberg, Hommel, Bonferroni, BH, BY, Holland, Finner, Li, Shaffer, Quade (R). The
documented differences (docs/peers.md) are tested as differences, each with the one line that
gives the peer's number.

R is installed by ``.ci/run`` (Debian ``r-base-core``); under CI a missing Rscript fails the
module instead of skipping it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import mcda
from mcda.stats._shared.multitest import rom_critical_values

HERE = Path(__file__).parent
DATA = HERE / "data"
SCRIPT = HERE / "oracles" / "run_scmamp.R"
SCMAMP = HERE / "oracles" / "scmamp"  # GPL-2, in the repository only: the sdist leaves it out (see its PROVENANCE.md)
H = "higher_is_better"
# (k, N, tied): tied designs are small integers (ties within a dataset and among the ranges, all exact in binary)
FRESH = [(3, 8, False), (4, 15, True), (5, 24, False), (6, 30, True), (7, 15, False), (7, 15, True),
         (8, 40, True), (9, 60, False), (10, 20, True), (4, 12, False), (3, 56, True)]
PUBLISHED = ("demsar2006", "garcia_herrera2008", "garcia2010")


def _fresh(k: int, n: int, tied: bool, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(20261206 + seed)
    effect = rng.normal(size=k) * 0.6
    values = rng.normal(size=(n, k)) + effect
    if tied:
        values = np.round(values * 1.5)
    else:
        values = values + rng.normal(size=(n, 1)) * 3  # dataset effects (the aligned ranks remove them)
    return pd.DataFrame(values, columns=[f"m{j}" for j in range(k)])


def _published(name: str) -> pd.DataFrame:
    """Datasets × methods in file order; 3-decimal scores, which R is given as exact integers (× 1000)."""
    path = {"demsar2006": DATA / "demsar2006" / "demsar2006_table6_auc.csv",
            "garcia_herrera2008": DATA / "garcia_herrera2008" / "garcia_herrera2008_table2_accuracy.csv",
            "garcia2010": DATA / "garcia2010" / "garcia2010_accuracy.csv"}[name]
    tidy = pd.read_csv(path).rename(columns={"accuracy": "score"})
    wide = tidy.pivot(index="dataset", columns="method", values="score")
    wide = wide.loc[tidy["dataset"].unique(), tidy["method"].unique()]
    wide.columns = [f"m{j}" for j in range(wide.shape[1])]
    return wide.reset_index(drop=True)


DESIGNS = {f"k{k}_n{n}_{'tied' if tied else 'cont'}": _fresh(k, n, tied, i) for i, (k, n, tied) in enumerate(FRESH)}
DESIGNS.update({name: _published(name) for name in PUBLISHED})
TIED = {name for name in DESIGNS if name.endswith("_tied") or name in PUBLISHED}


def need_rscript() -> str:
    path = shutil.which("Rscript")
    if path is None:
        if os.environ.get("CI"):  # .ci/run installs r-base-core: under CI a missing R is a failure
            pytest.fail("Rscript is not installed; .ci/run installs Debian's r-base-core")
        pytest.skip("no R installation (CI installs it)")
    return path


@pytest.fixture(scope="module")
def oracle(tmp_path_factory) -> dict:
    """(design, quantity) -> {(i, j): value} from one Rscript run over every design."""
    rscript = need_rscript()
    if not (SCMAMP / "tests.R").is_file():
        message = (f"scmamp's R code is not in {SCMAMP} (it is GPL-2 and left out of the sdist): run these tests from "
                   "a checkout of the repository")
        if os.environ.get("CI"):  # CI runs from the checkout: a missing oracle there is a failure
            pytest.fail(message)
        pytest.skip(message)
    folder = tmp_path_factory.mktemp("scmamp")
    for name, frame in DESIGNS.items():
        values = frame.to_numpy()
        if name in PUBLISHED:  # exact integers for R, so that no tie depends on a subtraction's last bits
            values = np.round(values * 1000).astype(int)
        pd.DataFrame(values, columns=frame.columns).to_csv(folder / f"design_{name}.csv", index=False)
    run = subprocess.run([rscript, "--vanilla", str(SCRIPT), str(folder)], capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    table = pd.read_csv(folder / "oracle.csv")
    out: dict = {}
    for (design, quantity), rows in table.groupby(["design", "quantity"]):
        out[design, quantity] = {(int(i), int(j)): float(v) for i, j, v in zip(rows["i"], rows["j"], rows["value"])}
    return out


def _scalar(oracle, design, quantity) -> float:
    return oracle[design, quantity][0, 0]


def _pairs(oracle, design, quantity, frame) -> np.ndarray:
    """R's values of the pairs (a < b) in R's order, as a vector."""
    cell = oracle[design, quantity]
    k = frame.shape[1]
    return np.array([cell[a + 1, b + 1] for a in range(k - 1) for b in range(a + 1, k)])


def _upper(matrix: pd.DataFrame) -> np.ndarray:
    values = matrix.to_numpy(dtype=float)
    k = values.shape[0]
    return np.array([values[a, b] for a in range(k - 1) for b in range(a + 1, k)])


def _control(oracle, design, quantity, frame) -> np.ndarray:
    cell = oracle[design, quantity]
    return np.array([cell[1, b + 1] for b in range(1, frame.shape[1])])


NAMES = sorted(DESIGNS)


def OTHERS(frame) -> list:  # noqa: N802 - the methods against the control m0, in R's order
    return list(frame.columns[1:])


@pytest.mark.parametrize("design", NAMES)
def test_friedman_and_iman_davenport_equal_scmamp_and_r(oracle, design):
    frame = DESIGNS[design]
    n, k = frame.shape
    res = mcda.friedman_test(frame, H)
    # scmamp's friedmanTest is Demšar's formula without the tie correction; R's friedman.test corrects for ties
    np.testing.assert_allclose(res.statistic_untied, _scalar(oracle, design, "scmamp_friedman_chi2"), rtol=1e-12)
    np.testing.assert_allclose(res.statistic_tied, _scalar(oracle, design, "r_friedman_chi2"), rtol=1e-12)
    np.testing.assert_allclose(res.statistic, res.statistic_untied, rtol=0)  # the reported statistic is scmamp's
    np.testing.assert_allclose(res.pvalue, _scalar(oracle, design, "scmamp_friedman_p"), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(res.f_statistic, _scalar(oracle, design, "scmamp_iman_davenport_F"), rtol=1e-12)
    np.testing.assert_allclose(res.f_pvalue, _scalar(oracle, design, "scmamp_iman_davenport_p"), rtol=1e-9,
                               atol=1e-12)
    np.testing.assert_allclose(mcda.iman_davenport(res.statistic, k, n), res.f_statistic, rtol=1e-12)


@pytest.mark.parametrize("design", NAMES)
def test_pairwise_z_and_all_pairs_adjustments_equal_scmamp_and_p_adjust(oracle, design):
    frame = DESIGNS[design]
    raw_r = _pairs(oracle, design, "scmamp_friedman_post_p", frame)
    holm = mcda.all_pairs_test(frame, H, test="holm")
    # rtol 1e-9 on tiny p: scmamp computes (1 - pnorm(z)) * 2, whose cancellation loses digits mcda keeps
    np.testing.assert_allclose(_upper(holm.pvalues), raw_r, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(_upper(holm.pvalues_adjusted), _pairs(oracle, design, "r_p_adjust_holm", frame),
                               rtol=1e-9, atol=1e-12)
    for test, quantity in (("shaffer", "scmamp_adjustShaffer"), ("holland", "scmamp_adjustHolland"),
                           ("finner", "scmamp_adjustFinner")):
        ours = _upper(mcda.all_pairs_test(frame, H, test=test).pvalues_adjusted)
        np.testing.assert_allclose(ours, _pairs(oracle, design, quantity, frame), rtol=1e-9, atol=1e-12,
                                   err_msg=test)
    # the Friedman z under any adjustment: test="siegel", adjust=...
    for adjust, quantity in (("hochberg", "r_p_adjust_hochberg"), ("hommel", "r_p_adjust_hommel"),
                             ("bonferroni", "r_p_adjust_bonferroni"), ("fdr-bh", "r_p_adjust_BH"),
                             ("fdr-by", "r_p_adjust_BY"), ("li", "scmamp_adjustLi")):
        ours = _upper(mcda.all_pairs_test(frame, H, test="siegel", adjust=adjust).pvalues_adjusted)
        np.testing.assert_allclose(ours, _pairs(oracle, design, quantity, frame), rtol=1e-9, atol=1e-12,
                                   err_msg=adjust)


@pytest.mark.parametrize("design", NAMES)
def test_control_procedures_equal_scmamp_and_p_adjust(oracle, design):
    frame = DESIGNS[design]
    raw_r = _control(oracle, design, "scmamp_friedman_post_control_p", frame)
    for test, quantity in (("holm", "r_p_adjust_control_holm"), ("hochberg", "r_p_adjust_control_hochberg"),
                           ("hommel", "r_p_adjust_control_hommel"), ("holland", "scmamp_control_adjustHolland"),
                           ("finner", "scmamp_control_adjustFinner"), ("li", "scmamp_control_adjustLi")):
        res = mcda.control_test(frame, H, control="m0", test=test)
        np.testing.assert_allclose(res.pvalues.loc[OTHERS(frame)].to_numpy(float), raw_r, rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(res.pvalues_adjusted.loc[OTHERS(frame)].to_numpy(float),
                                   _control(oracle, design, quantity, frame), rtol=1e-9, atol=1e-12, err_msg=test)
    res = mcda.bonferroni_dunn(frame, H, control="m0")
    np.testing.assert_allclose(res.pvalues_adjusted.loc[OTHERS(frame)].to_numpy(float),
                               _control(oracle, design, "r_p_adjust_control_bonferroni", frame), rtol=1e-9, atol=1e-12)


def peer_bergmann_hommel(result) -> np.ndarray:
    """scmamp's adjustBergmannHommel from mcda's: the running maximum of the APVs in raw-p order (docs/peers.md)."""
    raw, apv = _upper(result.pvalues), _upper(result.pvalues_adjusted)
    order = np.argsort(raw, kind="stable")
    out = np.empty_like(apv)
    out[order] = np.maximum.accumulate(apv[order])
    return out


def test_bergmann_hommel_is_garcia_herrera_apv_and_scmamp_its_running_maximum(oracle):
    widest = 0.0
    for design, frame in DESIGNS.items():
        if frame.shape[1] > 8:  # scmamp's exhaustive sets stop at 9 and k = 9 takes minutes in R
            continue
        res = mcda.all_pairs_test(frame, H, test="bergmann-hommel")
        apv = _pairs(oracle, design, "scmamp_bergmann_hommel_apv", frame)  # scmamp's inner step, no running max
        np.testing.assert_allclose(_upper(res.pvalues_adjusted), apv, rtol=1e-9, atol=1e-12, err_msg=design)
        if design in TIED:  # equal raw p: the running maximum then depends on which tied pair R visits first
            continue
        scmamp = _pairs(oracle, design, "scmamp_adjustBergmannHommel", frame)
        np.testing.assert_allclose(peer_bergmann_hommel(res), scmamp, rtol=1e-9, atol=1e-12, err_msg=design)
        widest = max(widest, float(np.max(scmamp - _upper(res.pvalues_adjusted))))
    assert widest > 0.01  # the difference docs/peers.md states is there on these designs


def peer_rom(p: np.ndarray, alpha: float = 0.05) -> np.ndarray:
    """scmamp's adjustRom (m ≥ 3) from Rom's constants: a step-down (running maximum) of min(1, r_i p_(i))."""
    order = np.argsort(p, kind="stable")
    r = alpha / rom_critical_values(len(p), alpha)  # alpha_1 <= ... <= alpha_m = alpha, smallest p first
    out = np.empty_like(p)
    out[order] = np.maximum.accumulate(np.minimum(1.0, r * p[order]))
    return out


def test_rom_differs_from_scmamp_as_documented(oracle):
    for design, frame in DESIGNS.items():
        k = frame.shape[1]
        raw = _control(oracle, design, "scmamp_friedman_post_control_p", frame)
        scmamp = _control(oracle, design, "scmamp_control_adjustRom", frame)
        ours = mcda.control_test(frame, H, control="m0", test="rom").pvalues_adjusted.loc[OTHERS(frame)].to_numpy(float)
        if k == 3:  # two hypotheses: scmamp's loop `for (i in 3:(k - 1))` runs backwards, r_1 = -40
            assert np.min(scmamp) < 0
            continue
        np.testing.assert_allclose(peer_rom(raw), scmamp, rtol=1e-9, atol=1e-12, err_msg=design)
        assert np.all(ours <= scmamp + 1e-12)  # step-up rejects at least what the step-down rejects


def peer_quade(result) -> float:
    """scmamp's quadeTest F from mcda's Quade mean ranks: A taken as if nothing tied (docs/peers.md)."""
    n, k = result.n_datasets, result.n_methods
    b = (n * (n + 1) / 2) ** 2 * float(((result.mean_ranks - (k + 1) / 2) ** 2).sum()) / n
    a0 = n * (n + 1) * (2 * n + 1) * k * (k + 1) * (k - 1) / 72
    return (n - 1) * b / (a0 - b)


@pytest.mark.parametrize("design", NAMES)
def test_quade_equals_r_quade_test_and_scmamp_without_ties(oracle, design):
    frame = DESIGNS[design]
    res = mcda.quade_test(frame, H)
    np.testing.assert_allclose(res.statistic, _scalar(oracle, design, "r_quade_F"), rtol=1e-12)
    np.testing.assert_allclose(res.pvalue, _scalar(oracle, design, "r_quade_p"), rtol=1e-9, atol=1e-12)
    scmamp = _scalar(oracle, design, "scmamp_quade_F")
    np.testing.assert_allclose(peer_quade(res), scmamp, rtol=1e-12)
    if design not in TIED:
        np.testing.assert_allclose(res.statistic, scmamp, rtol=1e-12)
    elif design == "k6_n30_tied":
        assert abs(res.statistic - scmamp) > 0.1 * scmamp  # ties within datasets: scmamp's A ignores them


@pytest.mark.parametrize("design", [name for name in NAMES if name not in TIED])
def test_aligned_ranks_equal_scmamp_without_ties(oracle, design):
    # with ties scmamp ranks x - mean by its last bits (docs/peers.md; tests/test_omnibus.py has the tied case)
    res = mcda.friedman_aligned_ranks_test(DESIGNS[design], H)
    np.testing.assert_allclose(res.statistic, _scalar(oracle, design, "scmamp_aligned_T"), rtol=1e-12)
    np.testing.assert_allclose(res.pvalue, _scalar(oracle, design, "scmamp_aligned_p"), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("design", [name for name in NAMES if DESIGNS[name].shape[0] > 50])
def test_wilcoxon_over_datasets_equals_r_wilcox_test_in_its_normal_range(oracle, design):
    # above 50 datasets scipy's (and mcda's) "auto" is the normal approximation with the tie correction, zeros
    # dropped, as R's wilcox.test(exact = FALSE, correct = FALSE); below it mcda is exact, as scipy
    frame = DESIGNS[design]
    res = mcda.pairwise_over_datasets(frame[["m0", "m1"]], H, test="wilcoxon", adjust="holm").to_frame()
    np.testing.assert_allclose(res["p_raw"].iloc[0], oracle[design, "r_wilcox_p"][1, 2], rtol=1e-9, atol=1e-12)
