"""Random-effects meta-analysis across datasets: how large is A − B in general, and on the next dataset?

Each dataset gives one effect, the mean difference a − b over its seeds, with its standard
error. A random-effects model takes the datasets' true differences as draws around a mean μ
with spread τ: :func:`meta_analysis` estimates μ (with its confidence interval), τ² (by
DerSimonian–Laird, REML or Paule–Mandel), I², Cochran's Q, and the prediction interval for the
difference on a *new* dataset, with Stouffer's and Fisher's combinations of the per-dataset
p-values beside it.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import optimize, stats

from mcda._core.results import Result, p_text, states_scale
from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError, check_control, check_probability, shown
from mcda.stats.procedures import canonical, display_name, names

__composes__ = ("within",)

__all__ = ["meta_analysis", "MetaAnalysisResult", "tau_squared", "random_effects"]

_PAIR_COLUMNS = ["method_a", "method_b", "n_datasets", "mean_diff", "standard_error", "ci_low", "ci_high", "p_raw",
                 "tau2", "i2", "q_statistic", "p_heterogeneity", "prediction_low", "prediction_high", "fixed_diff",
                 "z_stouffer", "p_stouffer", "p_fisher", "reason"]


def _fixed(y: np.ndarray, v: np.ndarray):
    w = 1.0 / v
    mu = float(np.sum(w * y) / np.sum(w))
    q = float(np.sum(w * (y - mu) ** 2))
    return w, mu, q


def _generalised_q(tau2: float, y: np.ndarray, v: np.ndarray) -> float:
    w = 1.0 / (v + tau2)
    mu = np.sum(w * y) / np.sum(w)
    return float(np.sum(w * (y - mu) ** 2))


def _reml_score(tau2: float, y: np.ndarray, v: np.ndarray) -> float:
    """d/dτ² of the restricted log-likelihood (times 2)."""
    w = 1.0 / (v + tau2)
    mu = np.sum(w * y) / np.sum(w)
    return float(-np.sum(w) + np.sum(w ** 2 * (y - mu) ** 2) + np.sum(w ** 2) / np.sum(w))


def _upper(y: np.ndarray, v: np.ndarray) -> float:
    return float(10.0 * (np.var(y) + np.max(v)) + 1e-300)


def _root(function, upper: float) -> float:
    """The root of a function positive at 0 and negative far out, by Brent's method."""
    while function(upper) > 0:
        upper *= 10.0
    return float(optimize.brentq(function, 0.0, upper, xtol=1e-15 * upper + 1e-300, rtol=4 * np.finfo(float).eps,
                                 maxiter=500))


def tau_squared(effects, variances, *, method: str = "reml") -> float:
    """The between-dataset variance τ² of a random-effects model, truncated at 0.

    ``method``: "dersimonian-laird" (moments: (Q − (k − 1)) / (Σw − Σw²/Σw)), "paule-mandel"
    (the τ² at which the generalised Q, Σ (y_i − μ̂)²/(v_i + τ²), equals k − 1) or "reml" (the
    root of the restricted likelihood's score, Σw_i²((y_i − μ̂)² − v_i − τ²)… in the form
    −Σw + Σw²(y − μ̂)² + Σw²/Σw = 0). 0 when the equation has no positive root.
    """
    y = np.asarray(effects, dtype=np.float64)
    v = np.asarray(variances, dtype=np.float64)
    k = y.size
    if k < 2:
        return 0.0
    w, _, q = _fixed(y, v)
    if method == "dersimonian-laird":
        c = np.sum(w) - np.sum(w ** 2) / np.sum(w)
        return max(0.0, (q - (k - 1)) / c)
    if method == "paule-mandel":
        if q <= k - 1:
            return 0.0
        return _root(lambda t: _generalised_q(t, y, v) - (k - 1), _upper(y, v))
    if _reml_score(0.0, y, v) <= 0:
        return 0.0
    return _root(lambda t: _reml_score(t, y, v), _upper(y, v))


def random_effects(effects, standard_errors, *, method: str = "reml", confidence_level: float = 0.95) -> dict:
    """The random-effects summary of one set of per-dataset effects (the columns of a pair's row)."""
    y = np.asarray(effects, dtype=np.float64)
    v = np.asarray(standard_errors, dtype=np.float64) ** 2
    k = y.size
    out = dict.fromkeys(_PAIR_COLUMNS[3:], math.nan)
    out["n_datasets"] = int(k)
    out["reason"] = ""
    if k < 2:
        out["reason"] = f"only {k} dataset(s) with an effect and a standard error: a meta-analysis needs at least 2"
        if k == 1:
            out["mean_diff"] = out["fixed_diff"] = float(y[0])
        return out
    w, mu_fixed, q = _fixed(y, v)
    tau2 = tau_squared(y, v, method=method)
    w_re = 1.0 / (v + tau2)
    mu = float(np.sum(w_re * y) / np.sum(w_re))
    se = float(1.0 / math.sqrt(np.sum(w_re)))
    z = stats.norm.isf((1.0 - confidence_level) / 2.0)
    out.update(mean_diff=mu, standard_error=se, ci_low=mu - z * se, ci_high=mu + z * se,
               p_raw=float(2.0 * stats.norm.sf(abs(mu) / se)), tau2=tau2,
               i2=max(0.0, (q - (k - 1)) / q) if q > 0 else 0.0, q_statistic=q,
               p_heterogeneity=float(stats.chi2.sf(q, k - 1)), fixed_diff=mu_fixed)
    if k >= 3:
        half = stats.t.isf((1.0 - confidence_level) / 2.0, k - 2) * math.sqrt(tau2 + se ** 2)
        out["prediction_low"], out["prediction_high"] = mu - half, mu + half
    else:
        out["reason"] = "2 datasets: the prediction interval needs at least 3 (t with k − 2 degrees of freedom)"
    return out


def _combinations(p_greater: np.ndarray, p_two: np.ndarray) -> dict:
    """Stouffer's z of the one-sided p-values of a − b > 0, and Fisher's χ² of the two-sided ones."""
    k = p_greater.size
    if k == 0:
        return {"z_stouffer": math.nan, "p_stouffer": math.nan, "p_fisher": math.nan}
    z = float(np.sum(stats.norm.isf(p_greater)) / math.sqrt(k))
    with np.errstate(divide="ignore"):
        chi = float(-2.0 * np.sum(np.log(p_two)))
    return {"z_stouffer": z, "p_stouffer": float(2.0 * stats.norm.sf(abs(z))), "p_fisher": float(stats.chi2.sf(chi, 2 * k))}


@dataclass(frozen=True, repr=False)
class MetaAnalysisResult(Result):
    """Random-effects meta-analysis of the difference a − b over datasets, per pair.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per pair: ``method_a, method_b, n_datasets, mean_diff, standard_error, ci_low,
        ci_high, p_raw, tau2, i2, q_statistic, p_heterogeneity, prediction_low,
        prediction_high, fixed_diff, z_stouffer, p_stouffer, p_fisher, reason``. ``mean_diff``
        is the random-effects estimate μ̂ of a − b (metric units), ``standard_error`` its
        standard error, ``ci_low, ci_high`` its normal interval and ``p_raw`` the two-sided
        z test of μ = 0; ``tau2`` the between-dataset variance, ``i2`` the share of the
        spread that is not sampling error, ``q_statistic`` Cochran's Q with its χ²_{k−1}
        ``p_heterogeneity``; ``prediction_low, prediction_high`` the interval for the
        difference on a new dataset; ``fixed_diff`` the fixed-effect (inverse-variance) mean;
        ``z_stouffer, p_stouffer`` Stouffer's combined z of the per-dataset one-sided p-values
        (positive: a − b > 0) and its two-sided p; ``p_fisher`` Fisher's combination of the
        per-dataset two-sided p-values (the null: no difference on any dataset).
    per_dataset : pandas.DataFrame
        ``dataset, method_a, method_b, n_seeds, mean_diff, standard_error, ci_low, ci_high, p_raw,
        weight``: the per-dataset effects, their intervals at ``confidence_level`` (t on
        n_seeds − 1 degrees of freedom with 2 or more seeds, else normal), their two-sided
        p-values and random-effects weights (summing to 1 per pair).
    method : str
        The registered τ² estimator: "reml", "dersimonian-laird" or "paule-mandel".
    confidence_level : float
    direction : str or None
    metric : str or None
    notes : tuple of str
    """

    table: pd.DataFrame
    per_dataset: pd.DataFrame
    method: str
    confidence_level: float
    direction: str | None
    metric: str | None
    notes: tuple = ()

    def summary(self) -> str:
        head = (f"Random-effects meta-analysis over datasets ({display_name(self.method)} τ², "
                f"{self.confidence_level:.0%} intervals; mean_diff = a − b)")
        lines = []
        for row in self.table.head(20).itertuples(index=False):
            if not math.isfinite(row.standard_error):
                lines.append(f"{row.method_a} vs {row.method_b}: {row.reason}")
                continue
            lines.append(f"{row.method_a} vs {row.method_b}: μ = {row.mean_diff:.4g} [{row.ci_low:.4g}, {row.ci_high:.4g}]"
                         f" ({p_text(row.p_raw)}), τ² = {row.tau2:.3g}, I² = {row.i2:.0%}, new dataset "
                         f"[{row.prediction_low:.4g}, {row.prediction_high:.4g}] over {row.n_datasets} datasets")
        if len(self.table) > 20:
            lines.append(f"… ({len(self.table) - 20} more pairs; see .to_frame())")
        return "\n".join([head, *lines, *(f"note: {n}" for n in self.notes)])


def _from_seeds(scores, direction, metric, method_names, paired=True):
    """Per (dataset, pair) effects over seeds: mean difference, its standard error and the t test's p-values."""
    from mcda.stats._shared.folds import fold_design
    from mcda.stats._shared.intervals import spread
    from mcda.stats.within.seeds import _blocks, _pair_reasons, _pairing_notes, _pairs

    cube, blocks = _blocks(scores, direction, metric, method_names)
    if len(blocks) > 1:
        raise McdaArgumentError(f"`scores` has several metrics {[b.metric for b in blocks]}; meta_analysis reads "
                                "one: pass `metric=` or select one first.", argument="metric")
    block = blocks[0]
    if not paired:
        if fold_design(cube) is not None:
            raise McdaArgumentError("`paired` is False, but the seeds are cross-validation folds, which every method "
                                    "shares (the cube states their design): leave `paired` True.",
                                    argument="paired", value=paired)
        return _from_unpaired_seeds(cube, blocks, _pairing_notes)
    pairs = _pairs(block)
    mean, sd = spread(pairs.diff, pairs.n)
    reason, _ = _pair_reasons(pairs, sd, t_based=True)
    ok = reason == ""
    design = fold_design(cube)
    # folds of cross-validation share training data: the variance of their mean is s²(1/n + ρ/(1 − ρ))
    overlap = 0.0 if design is None else design.rho / (1.0 - design.rho)
    with np.errstate(invalid="ignore", divide="ignore"):
        se = np.where(ok, sd * np.sqrt(1.0 / pairs.n + overlap), np.nan)
        t = np.where(ok, mean / se, np.nan)
    df = np.where(ok, pairs.n - 1, 1)
    frame = pd.DataFrame({"dataset": pairs.dataset.astype(str), "method_a": pairs.method_a.astype(str),
                          "method_b": pairs.method_b.astype(str), "n_seeds": pairs.n.astype(np.int64),
                          "mean_diff": np.where(pairs.n > 0, mean, np.nan), "standard_error": se,
                          "p_raw": np.where(ok, 2.0 * stats.t.sf(np.abs(t), df), np.nan),
                          "_p_greater": np.where(ok, stats.t.sf(t, df), np.nan)})
    notes = list(_pairing_notes(cube, blocks, view="meta_analysis"))
    if design is not None:
        notes.append(f"the seeds are cross-validation folds ({design.words()}, read from {design.source}): each "
                     f"dataset's standard error is the corrected s·√(1/n + ρ/(1 − ρ)) with ρ = {design.rho:g} (Nadeau & "
                     "Bengio 2003), not s/√n, and its p-value the corrected t on n − 1 degrees of freedom")
    if (~ok).any():
        notes.append(f"{int((~ok).sum())} (dataset, pair) effect(s) have no standard error (fewer than 2 shared "
                     "seeds, or no spread of the differences) and are left out")
    return frame, block.direction, block.metric or None, notes


def _from_unpaired_seeds(cube, blocks, pairing_notes):
    """Per (dataset, pair) effects of each method's seeds as two samples: the difference of the means, Welch's
    standard error √(s_a²/n_a + s_b²/n_b) and Welch's t on the Welch–Satterthwaite degrees of freedom."""
    block = blocks[0]
    values = block.values  # (datasets, methods, seeds)
    count = (~np.isnan(values)).sum(axis=2)
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a method without seeds on a dataset: its mean is NaN
        mean = np.nanmean(values, axis=2)
        var = np.nanvar(values, axis=2, ddof=1)
    ia, ib = np.triu_indices(values.shape[1], 1)
    n_a, n_b = count[:, ia], count[:, ib]
    va, vb = var[:, ia] / n_a, var[:, ib] / n_b
    ok = (n_a >= 2) & (n_b >= 2) & (va + vb > 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        diff = mean[:, ia] - mean[:, ib]
        se = np.where(ok, np.sqrt(va + vb), np.nan)
        t = np.where(ok, diff / se, np.nan)
        df = np.where(ok, (va + vb) ** 2 / (va ** 2 / (n_a - 1) + vb ** 2 / (n_b - 1)), 1.0)
    d, p = diff.shape
    methods = np.array(block.methods, dtype=object)
    frame = pd.DataFrame({"dataset": np.repeat(np.array(block.datasets, dtype=object), p).astype(str),
                          "method_a": np.tile(methods[ia], d).astype(str),
                          "method_b": np.tile(methods[ib], d).astype(str),
                          "n_seeds": np.minimum(n_a, n_b).ravel().astype(np.int64),
                          "mean_diff": np.where((n_a > 0) & (n_b > 0), diff, np.nan).ravel(),
                          "standard_error": se.ravel(),
                          "p_raw": np.where(ok, 2.0 * stats.t.sf(np.abs(t), df), np.nan).ravel(),
                          "_p_greater": np.where(ok, stats.t.sf(t, df), np.nan).ravel()})
    notes = list(pairing_notes(cube, blocks, paired=False, view="meta_analysis"))
    notes.append("the seeds are not paired: each dataset's effect is the difference of the two methods' means over "
                 "their own seeds, with Welch's standard error √(s_a²/n_a + s_b²/n_b)")
    if (~ok).any():
        notes.append(f"{int((~ok).sum())} (dataset, pair) effect(s) have no standard error (a method with fewer than "
                     "2 seeds, or no spread) and are left out")
    return frame, block.direction, block.metric or None, notes


def _from_table(frame: pd.DataFrame):
    needed = ("dataset", "mean_diff", "standard_error")
    absent = [c for c in needed if c not in frame.columns]
    if absent:
        raise McdaArgumentError(
            f"`scores` as a table of effects needs the columns {list(needed)} (and optionally `method_a`, `method_b`, "
            f"`n_seeds`); it lacks {absent} (its columns are {shown(list(map(str, frame.columns)), 10)})",
            argument="scores")
    out = pd.DataFrame({"dataset": frame["dataset"].astype(str).to_numpy()})
    for column in ("method_a", "method_b"):
        out[column] = frame[column].astype(str).to_numpy() if column in frame.columns else column[-1]
    out["n_seeds"] = (pd.to_numeric(frame["n_seeds"]).to_numpy() if "n_seeds" in frame.columns
                      else np.zeros(len(frame), dtype=np.int64))
    y = pd.to_numeric(frame["mean_diff"], errors="coerce").to_numpy(dtype=float)
    se = pd.to_numeric(frame["standard_error"], errors="coerce").to_numpy(dtype=float)
    bad = ~np.isnan(se) & ~(se > 0)
    if bad.any():
        raise McdaArgumentError(f"`scores`: `standard_error` must be > 0; got {shown(se[bad].tolist(), 5)}",
                                argument="scores")
    if out.duplicated(["dataset", "method_a", "method_b"]).any():
        raise McdaArgumentError("`scores`: each (dataset, method_a, method_b) must appear once in the table of "
                                "effects", argument="scores")
    out["mean_diff"] = y
    out["standard_error"] = se
    with np.errstate(invalid="ignore", divide="ignore"):
        z = y / se
    t_based = out["n_seeds"].to_numpy() >= 2
    df = np.where(t_based, out["n_seeds"].to_numpy() - 1, 1)
    out["p_raw"] = np.where(t_based, 2.0 * stats.t.sf(np.abs(z), df), 2.0 * stats.norm.sf(np.abs(z)))
    out["_p_greater"] = np.where(t_based, stats.t.sf(z, df), stats.norm.sf(z))
    return out


@states_scale
def meta_analysis(scores, direction=None, *, method: str = "reml", confidence_level: float = 0.95,
                  control: str | None = None, paired: bool = True, metric=None,
                  method_names=None) -> MetaAnalysisResult:
    """How large is a − b across datasets, and on a new one? A random-effects meta-analysis per pair.

    Parameters
    ----------
    scores : a cube with a ``seed`` dim, or a table of per-dataset effects
        With seeds (any input of :func:`mcda.score_cube`), each dataset's effect is the mean of
        the seed-paired differences a − b and its standard error s_d/√n; when the cube says its
        seeds are cross-validation folds (``run`` / ``fold`` coordinates, ``attrs["cv_runs"]`` or
        ``attrs["rho"]``) the corrected s_d·√(1/n + ρ/(1 − ρ)) of Nadeau & Bengio (2003). A
        :class:`pandas.DataFrame` with the columns ``dataset, mean_diff, standard_error`` (and
        optionally ``method_a, method_b`` for several pairs and ``n_seeds``, which makes the
        per-dataset p-values t tests on n − 1 degrees of freedom instead of z tests) gives the
        effects directly (from items, or from any other analysis).
    direction : str, optional
        The metric's direction, when ``scores`` does not carry it (the effects stay a − b in
        the metric's units).
    method : {"reml", "dersimonian-laird", "paule-mandel"}
        The estimator of τ² (aliases "dl", "pm").
    confidence_level : float
        Level of the confidence interval of μ and of the prediction interval.
    control : str, optional
        Only the pairs (control, other), with ``method_a`` the control.
    paired : bool
        With seeds: True (default) pairs the seeds by label; False treats each method's seeds as
        a sample of its own (seeds that are not paired runs): the effect is the difference of
        the two means and its standard error Welch's √(s_a²/n_a + s_b²/n_b), the per-dataset
        p-value Welch's t.
    metric, method_names : optional
        As in :func:`mcda.data.cube.as_cube`.

    Returns
    -------
    MetaAnalysisResult
        ``table`` (one row per pair), ``per_dataset``, ``method``, ``confidence_level``,
        ``direction``, ``metric``, ``notes``.

    Raises
    ------
    McdaArgumentError
        An unknown ``method``; ``confidence_level`` outside (0, 1); a cube without seeds; a
        table without its columns or with a standard error ≤ 0.

    Notes
    -----
    With effects y_i, variances v_i = se_i² and weights w_i = 1/v_i over the k datasets of a
    pair: the fixed-effect mean ȳ_F = Σw_i y_i / Σw_i and Cochran's Q = Σw_i (y_i − ȳ_F)²,
    χ²_{k−1} under homogeneity. τ² is estimated by DerSimonian–Laird,
    max(0, (Q − (k − 1)) / (Σw − Σw²/Σw)); by Paule–Mandel, the τ² ≥ 0 at which
    Σ (y_i − μ̂)²/(v_i + τ²) = k − 1; or by REML, the τ² ≥ 0 maximising the restricted
    likelihood. Then w*_i = 1/(v_i + τ²), μ̂ = Σw*_i y_i / Σw*_i, SE(μ̂) = (Σw*_i)^{−1/2}, the
    interval μ̂ ± z·SE and the z test of μ = 0. I² = max(0, (Q − (k − 1))/Q) (Higgins &
    Thompson 2002). The prediction interval for a new dataset is μ̂ ± t_{k−2}·√(τ² + SE²)
    (Higgins, Thompson & Spiegelhalter 2009); it needs k ≥ 3. The intervals treat the
    standard errors as known, which with few seeds per dataset makes them too narrow.

    Beside the model: Stouffer's Z = Σ Φ⁻¹(1 − p_i)/√k of the per-dataset one-sided p-values of
    a − b > 0 (two-sided p), and Fisher's −2 Σ log p_i of the two-sided ones on 2k degrees of
    freedom, which tests "no difference on any dataset", not "no difference on average".

    The effects are one row per (dataset, pair), kept in memory: a lazy cube is refused by
    the tests over seeds that compute them. The estimators of τ² other than DerSimonian–Laird
    iterate over every dataset's effect at once, so there is no chunk-wise path.

    References
    ----------
    DerSimonian, R. and Laird, N. (1986). Meta-analysis in clinical trials. Controlled Clinical
    Trials 7(3):177–188. https://doi.org/10.1016/0197-2456(86)90046-2

    Paule, R. C. and Mandel, J. (1982). Consensus values and weighting factors. Journal of
    Research of the National Bureau of Standards 87(5):377–385. https://doi.org/10.6028/jres.087.022

    Viechtbauer, W. (2005). Bias and efficiency of meta-analytic variance estimators in the
    random-effects model. Journal of Educational and Behavioral Statistics 30(3):261–293.
    https://doi.org/10.3102/10769986030003261

    Higgins, J. P. T., Thompson, S. G. and Spiegelhalter, D. J. (2009). A re-evaluation of
    random-effects meta-analysis. JRSS A 172(1):137–159. https://doi.org/10.1111/j.1467-985X.2008.00552.x

    Examples
    --------
    >>> import pandas as pd
    >>> import mcda
    >>> effects = pd.DataFrame({"dataset": ["a", "b", "c", "d"], "mean_diff": [0.02, 0.01, 0.03, -0.005],
    ...                         "standard_error": [0.005, 0.004, 0.01, 0.006]})
    >>> row = mcda.meta_analysis(effects, method="dl").to_frame().iloc[0]
    >>> round(float(row["mean_diff"]), 4), round(float(row["tau2"]), 6), round(float(row["i2"]), 2)
    (0.0125, 0.000116, 0.79)
    """
    method = canonical("method", method, allowed=names("meta-analysis"))
    confidence_level = check_probability("confidence_level", confidence_level)
    if not isinstance(paired, bool):
        raise McdaArgumentTypeError(f"`paired` must be True or False; got {paired!r}", argument="paired", value=paired)
    notes: list[str] = []
    if isinstance(scores, pd.DataFrame) and "standard_error" in scores.columns:
        per = _from_table(scores)
        metric_name = None if metric is None else str(metric)
    else:
        per, direction, metric_name, notes = _from_seeds(scores, direction, metric, method_names, paired)
    if control is not None:
        methods = list(dict.fromkeys(per["method_a"].tolist() + per["method_b"].tolist()))
        control = check_control(control, methods)
        per = per[(per["method_a"] == control) | (per["method_b"] == control)].copy()
        turn = (per["method_b"] == control).to_numpy()
        per.loc[turn, ["method_a", "method_b"]] = per.loc[turn, ["method_b", "method_a"]].to_numpy()
        per.loc[turn, "mean_diff"] = -per.loc[turn, "mean_diff"]
        per.loc[turn, "_p_greater"] = 1.0 - per.loc[turn, "_p_greater"]
    per = per.reset_index(drop=True)
    p_greater = per.pop("_p_greater").to_numpy(dtype=float)
    y_all = per["mean_diff"].to_numpy(dtype=float)
    se_all = per["standard_error"].to_numpy(dtype=float)
    p_all = per["p_raw"].to_numpy(dtype=float)
    weight = np.full(len(per), np.nan)
    rows = []
    for (a, b), idx in per.groupby(["method_a", "method_b"], sort=False).indices.items():
        use = idx[np.isfinite(y_all[idx]) & np.isfinite(se_all[idx])]
        row = {"method_a": a, "method_b": b} | random_effects(y_all[use], se_all[use], method=method,
                                                              confidence_level=confidence_level)
        if use.size >= 2:
            w = 1.0 / (se_all[use] ** 2 + row["tau2"])
            weight[use] = w / w.sum()
        row |= _combinations(p_greater[use], p_all[use])
        rows.append(row)
    per["weight"] = weight
    seeds = per["n_seeds"].to_numpy()
    quantile = np.where(seeds >= 2, stats.t.isf((1.0 - confidence_level) / 2.0, np.maximum(seeds - 1, 1)),
                        stats.norm.isf((1.0 - confidence_level) / 2.0))
    per.insert(per.columns.get_loc("standard_error") + 1, "ci_low", y_all - quantile * se_all)
    per.insert(per.columns.get_loc("ci_low") + 1, "ci_high", y_all + quantile * se_all)
    table = pd.DataFrame(rows, columns=_PAIR_COLUMNS)
    return MetaAnalysisResult(table=table, per_dataset=per, method=method, confidence_level=confidence_level,
                              direction=direction, metric=metric_name, notes=tuple(dict.fromkeys(notes)))
