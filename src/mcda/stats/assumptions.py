"""Choosing the procedure: check the assumptions the way autorank does, and recommend (never switch).

:func:`recommend_procedure` is opt-in and descriptive. It tests normality of each method's
scores (Shapiro–Wilk at α/k, Bonferroni over the k methods) and homoscedasticity (Bartlett's
test when every method looks normal, Levene's otherwise), exactly as autorank decides between
its parametric and rank-based branches, adds the checks autorank leaves out (normality of the
two-way residuals, the sphericity ε of the repeated measures), and says which procedure the
findings point to, with the mcda call that runs it. It runs nothing on the user's behalf
except the repeated-measures ANOVA it reports as a finding, and a pre-test decides nothing:
the choice of test belongs in the analysis plan, and testing assumptions on the same data and
then testing hypotheses conditions the second on the first (Zimmerman 2004; Rochon, Gondan &
Kieser 2012). Read it as a diagnosis of the benchmark, not as a switch.

**Where autorank is wrong, done right here.** After a repeated-measures ANOVA autorank runs
Tukey's HSD from ``statsmodels.stats.multicomp.MultiComparison``, an *independent-samples*
procedure: it ignores that every method was run on the same datasets, so its error term holds
the between-dataset variance the ANOVA removed. mcda recommends (and, when the parametric
branch is chosen, reports) paired t tests with Holm's step-down, a repeated-measures post-hoc
whose per-pair error is the variance of that pair's differences (valid without sphericity).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import special, stats

from mcda._core.validation import McdaArgumentError
from mcda._core.results import Result, states_scale
from mcda._core.validation import MissingDataWarning, check_alpha, shown, warn

__all__ = ["ProcedureRecommendation", "recommend_procedure", "repeated_measures_anova"]


@dataclass(frozen=True, repr=False)
class RepeatedMeasuresAnova(Result):
    """One-way repeated-measures ANOVA (datasets as subjects, methods as the within factor).

    Attributes
    ----------
    statistic : float
        F = MS_methods / MS_error.
    pvalue : float
        P(F(k − 1, (k − 1)(N − 1)) ≥ statistic), assuming sphericity.
    df : tuple
        (k − 1, (k − 1)(N − 1)).
    epsilon : float
        Greenhouse–Geisser ε of the methods' covariance (1 under sphericity, ≥ 1/(k − 1)).
    pvalue_corrected : float
        The p-value with both df multiplied by ε (Greenhouse–Geisser).
    """

    statistic: float
    pvalue: float
    df: tuple
    epsilon: float
    pvalue_corrected: float

    def to_frame(self) -> pd.DataFrame:
        """One row: ``statistic, df1, df2, p_raw, epsilon, pvalue_corrected``."""
        return pd.DataFrame([{"statistic": self.statistic, "df1": self.df[0], "df2": self.df[1], "p_raw": self.pvalue,
                              "epsilon": self.epsilon, "pvalue_corrected": self.pvalue_corrected}])

    def summary(self) -> str:
        return (f"Repeated-measures ANOVA: F({self.df[0]}, {self.df[1]}) = {self.statistic:.3f}, p = {self.pvalue:.3g}; "
                f"Greenhouse-Geisser epsilon {self.epsilon:.3f}, corrected p = {self.pvalue_corrected:.3g}")


def _anova(values: np.ndarray) -> RepeatedMeasuresAnova:
    n, k = values.shape
    grand = values.mean()
    ss_methods = n * float(((values.mean(axis=0) - grand) ** 2).sum())
    ss_datasets = k * float(((values.mean(axis=1) - grand) ** 2).sum())
    ss_error = float(((values - grand) ** 2).sum()) - ss_methods - ss_datasets
    # sums of squares at the rounding of the scores themselves are 0 (constant scores gave F = inf, p = 0)
    rounding = 1e-24 * float((values ** 2).sum())
    ss_methods = 0.0 if ss_methods <= rounding else ss_methods
    df1, df2 = k - 1, (k - 1) * (n - 1)
    if ss_error <= rounding:
        statistic, pvalue = (math.inf, 0.0) if ss_methods > 0 else (math.nan, math.nan)
    else:
        statistic = (ss_methods / df1) / (ss_error / df2)
        pvalue = float(special.fdtrc(df1, df2, statistic))
    # Greenhouse–Geisser: ε = (tr S)² / ((k − 1) tr S²), S the covariance of k − 1 orthonormal contrasts
    contrasts = np.linalg.qr(np.eye(k) - 1.0 / k)[0][:, : k - 1]
    covariance = np.atleast_2d(np.cov(values @ contrasts, rowvar=False))
    trace, trace_sq = float(np.trace(covariance)), float(np.trace(covariance @ covariance))
    epsilon = min(1.0, trace * trace / ((k - 1) * trace_sq)) if trace_sq > 0 else math.nan
    corrected = float(special.fdtrc(epsilon * df1, epsilon * df2, statistic)) \
        if np.isfinite(statistic) and np.isfinite(epsilon) else pvalue
    return RepeatedMeasuresAnova(statistic=float(statistic), pvalue=pvalue, df=(df1, df2), epsilon=epsilon,
                                 pvalue_corrected=corrected)


def repeated_measures_anova(scores, direction=None, *, method_names=None) -> RepeatedMeasuresAnova:
    """The one-way repeated-measures ANOVA of a complete datasets × methods design.

    Equal to ``statsmodels.stats.anova.AnovaRM(..., within=["method"])``; the
    Greenhouse–Geisser ε and corrected p-value are added. Methods missing a dataset are
    excluded and named (a warning). See :func:`recommend_procedure` for when it applies.

    >>> import mcda
    >>> from mcda.stats.assumptions import repeated_measures_anova
    >>> res = repeated_measures_anova(mcda.datasets.load("garcia_herrera2008"))
    >>> round(res.statistic, 3), res.df
    (12.045, (4, 116))
    """
    return _anova(_values(scores, direction, method_names).values)


@dataclass(frozen=True)
class _Prepared:
    values: np.ndarray  # in the metric's own direction
    methods: list
    excluded: dict


def _values(scores, direction, method_names) -> _Prepared:
    from mcda.stats._shared.ranks import prepare_across

    prep = prepare_across(scores, direction, method_names=method_names, missing="complete")
    if prep.excluded:
        lacks = shown([f"{m} lacks [{shown(ds, 4, fmt=str)}]" for m, ds in prep.excluded.items()], fmt=str, sep="; ")
        warn(f"{len(prep.excluded)} method(s) lack results on some datasets and are excluded from the assumption "
             f"checks (nothing is imputed): {lacks}.", MissingDataWarning)
    if prep.n_methods < 2 or prep.n_datasets < 3:
        raise McdaArgumentError(f"checking assumptions needs at least 2 complete methods and 3 datasets (Shapiro-Wilk "
                         f"needs 3 values); got {prep.n_methods} methods over {prep.n_datasets} datasets.",
                                argument=None)
    from mcda.data.cards import direction_sign

    # back to the metric's own direction: the checks do not depend on it, the paired differences do
    sign = float(direction_sign(prep.cube.attrs["direction"]))
    return _Prepared(values=sign * np.asarray(prep.values, dtype=np.float64), methods=list(prep.methods),
                     excluded=dict(prep.excluded))


@dataclass(frozen=True, repr=False)
class ProcedureRecommendation(Result):
    """What the assumption checks found, and the procedure they point to.

    Attributes
    ----------
    normality : pandas.DataFrame
        One row per method: ``method, statistic`` (Shapiro–Wilk W), ``p_raw``, ``normal``
        (``p_raw >= alpha_normality``).
    alpha_normality : float
        α/k, the Bonferroni level of the k normality tests (autorank's).
    all_normal : bool
    residuals_normal : bool
        Shapiro–Wilk on the residuals of the additive model x_ij = μ + a_i + b_j (what a
        repeated-measures ANOVA actually assumes), at ``alpha``.
    residuals_pvalue : float
    homoscedasticity_test : str
        "bartlett" (all normal) or "levene" (otherwise), as autorank.
    homoscedasticity_pvalue : float
    equal_variances : bool
        ``homoscedasticity_pvalue >= alpha``.
    anova : RepeatedMeasuresAnova
        The repeated-measures ANOVA of the design (a finding, reported whatever is
        recommended); its ``epsilon`` is the Greenhouse–Geisser sphericity estimate.
    recommendation : str
        "paired-t" or "wilcoxon" (two methods); "repeated-measures-anova" or "friedman"
        (more than two).
    procedure : str
        The recommended procedure and post-hoc, in words.
    call : str
        The mcda (or scipy) call that runs it.
    autorank_choice : str
        What autorank would run on the same data.
    posthoc : pandas.DataFrame or None
        For "repeated-measures-anova": paired t tests with Holm, one row per pair
        (``method_a, method_b, mean_diff, statistic, p_raw, p_adjusted, significant``);
        None otherwise.
    notes : list of str
    alpha : float
    n_datasets, n_methods : int
    excluded : dict
    """

    normality: pd.DataFrame
    alpha_normality: float
    all_normal: bool
    residuals_normal: bool
    residuals_pvalue: float
    homoscedasticity_test: str
    homoscedasticity_pvalue: float
    equal_variances: bool
    anova: RepeatedMeasuresAnova
    recommendation: str
    procedure: str
    call: str
    autorank_choice: str
    posthoc: pd.DataFrame | None
    notes: list
    alpha: float
    n_datasets: int
    n_methods: int
    excluded: dict = field(default_factory=dict)

    def to_frame(self) -> pd.DataFrame:
        """The per-method normality table (``method, statistic, p_raw, normal``)."""
        return self.normality.copy()

    def summary(self) -> str:
        """What was checked, what was found, and the recommendation."""
        tested = self.normality["p_raw"].notna()
        failing = self.normality.loc[~self.normality["normal"] & tested, "method"].tolist()
        constant = self.normality.loc[~tested, "method"].tolist()  # p NaN: constant over the datasets
        normality = ("all normal" if self.all_normal else "; ".join(
            ([f"rejected for {shown(failing, fmt=str)}"] if failing else [])
            + ([f"not testable for {shown(constant, fmt=str)} (constant over the datasets)"] if constant else [])))
        residuals = (f"p = {self.residuals_pvalue:.3g} ({'normal' if self.residuals_normal else 'not normal'} at "
                     f"alpha = {self.alpha:g})" if np.isfinite(self.residuals_pvalue)
                     else "not testable (the residuals are constant)")
        variances = (f"p = {self.homoscedasticity_pvalue:.3g} -> "
                     + ("not rejected" if self.equal_variances else "rejected")
                     if np.isfinite(self.homoscedasticity_pvalue) else "p = nan -> not testable (no variance)")
        lines = [f"{self.n_methods} methods over {self.n_datasets} datasets (opt-in check; nothing was switched)",
                 f"  normality (Shapiro-Wilk per method at alpha/k = {self.alpha_normality:.3g}): {normality}",
                 f"  residuals of the additive model: {residuals}",
                 f"  equal variances ({self.homoscedasticity_test}): {variances}",
                 f"  repeated-measures ANOVA: F{self.anova.df} = {self.anova.statistic:.3f}, p = "
                 f"{self.anova.pvalue:.3g}; Greenhouse-Geisser epsilon = {self.anova.epsilon:.3f} "
                 f"(corrected p = {self.anova.pvalue_corrected:.3g})",
                 f"  recommended: {self.procedure}",
                 f"    {self.call}",
                 f"  autorank would run: {self.autorank_choice}"]
        lines += [f"  note: {note}" for note in self.notes]
        return "\n".join(lines)


def _paired_t_holm(values: np.ndarray, methods: list, alpha: float) -> pd.DataFrame:
    from mcda.stats._shared.multitest import adjust_pvalues

    rows = []
    for i in range(len(methods)):
        for j in range(i + 1, len(methods)):
            diff = values[:, i] - values[:, j]
            res = stats.ttest_rel(values[:, i], values[:, j])
            rows.append({"method_a": methods[i], "method_b": methods[j], "mean_diff": float(diff.mean()),
                         "statistic": float(res.statistic), "p_raw": float(res.pvalue)})
    frame = pd.DataFrame(rows)
    frame["p_adjusted"] = adjust_pvalues(frame["p_raw"].to_numpy(), method="holm")
    frame["significant"] = frame["p_adjusted"] <= alpha
    return frame


@states_scale
def recommend_procedure(scores, direction=None, *, alpha: float = 0.05, method_names=None) -> ProcedureRecommendation:
    """Check the assumptions of the parametric procedures as autorank does, and recommend one.

    Opt-in and descriptive: it reports what it found and which procedure that points to,
    and never runs a different analysis in place of the one asked for.

    Parameters
    ----------
    scores : any input of :func:`mcda.score_cube`
        One score per (dataset, method) (reduce a ``seed`` dim first with
        :func:`mcda.reduce_seeds`); methods missing a dataset are excluded and named.
    direction : {"higher_is_better", "lower_is_better"}, optional
        As in :func:`mcda.data.cube.as_cube`.
    alpha : float
        Level of the checks (normality at α/k) and of the recommended procedure.
    method_names : sequence of str, optional
        As in :func:`mcda.data.cube.as_cube`.

    Returns
    -------
    ProcedureRecommendation
        ``normality``, ``all_normal``, ``residuals_normal``, ``homoscedasticity_test``,
        ``homoscedasticity_pvalue``, ``equal_variances``, ``anova``, ``recommendation``,
        ``procedure``, ``call``, ``autorank_choice``, ``posthoc``, ``notes``.

    Notes
    -----
    The decision rule is autorank's (Herbold 2020): with two methods, a paired t test if both
    look normal, else Wilcoxon's signed-rank test; with more, the repeated-measures ANOVA if
    every method looks normal and the variances look equal, else the Friedman test. The
    post-hoc recommended after the ANOVA is paired t tests with Holm's step-down (not
    autorank's independent-samples Tukey HSD, see the module docstring); after Friedman, the
    mean-rank post-hocs of :func:`mcda.compare_over_datasets` (Nemenyi for all pairs, Holm
    against a control).

    Normality per method of scores across datasets mostly measures how different the
    datasets are, not whether the ANOVA's errors are normal; the residuals of the additive
    model are what the ANOVA assumes, and a sphericity ε well below 1 (Greenhouse–Geisser;
    below 0.75 is the usual warning sign) says the uncorrected F is liberal. Both are
    reported beside autorank's checks. With few datasets the checks have little power: a
    non-rejection is not evidence of normality.

    References
    ----------
    Herbold, S. (2020). Autorank: a Python package for automated ranking of classifiers.
    JOSS 5(48):2173. doi:10.21105/joss.02173
    Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets. JMLR 7:1–30.
    Greenhouse, S. W., Geisser, S. (1959). On methods in the analysis of profile data.
    Psychometrika 24:95–112. doi:10.1007/BF02289823
    Zimmerman, D. W. (2004). A note on preliminary tests of equality of variances. Br. J.
    Math. Stat. Psychol. 57:173–181. doi:10.1348/000711004849222
    Rochon, J., Gondan, M., Kieser, M. (2012). To test or not to test: preliminary assessment
    of normality when comparing two independent samples. BMC Med. Res. Methodol. 12:81.
    doi:10.1186/1471-2288-12-81

    Examples
    --------
    >>> import mcda
    >>> rec = mcda.recommend_procedure(mcda.datasets.load("garcia_herrera2008"))
    >>> rec.all_normal, rec.recommendation
    (False, 'friedman')
    """
    alpha = check_alpha(alpha)
    prep = _values(scores, direction, method_names)
    values, methods = prep.values, prep.methods
    n, k = values.shape
    alpha_normality = alpha / k
    rows = []
    for j, method in enumerate(methods):
        column = values[:, j]
        if np.ptp(column) == 0:
            rows.append({"method": method, "statistic": math.nan, "p_raw": math.nan, "normal": False})
            continue
        w, p = stats.shapiro(column)
        rows.append({"method": method, "statistic": float(w), "p_raw": float(p), "normal": bool(p >= alpha_normality)})
    normality = pd.DataFrame(rows)
    all_normal = bool(normality["normal"].all())
    residuals = values - values.mean(axis=1, keepdims=True) - values.mean(axis=0, keepdims=True) + values.mean()
    residuals_pvalue = float(stats.shapiro(residuals.ravel()).pvalue) if np.ptp(residuals) > 0 else math.nan
    residuals_normal = bool(residuals_pvalue >= alpha)
    columns = [values[:, j] for j in range(k)]
    homoscedasticity_test = "bartlett" if all_normal else "levene"
    if all(np.ptp(column) == 0 for column in columns):  # no variance to compare: NaN (scipy: 0/0)
        homoscedasticity_pvalue = math.nan
    elif all_normal:
        homoscedasticity_pvalue = float(stats.bartlett(*columns).pvalue)
    else:
        homoscedasticity_pvalue = float(stats.levene(*columns).pvalue)
    equal_variances = bool(homoscedasticity_pvalue >= alpha)
    anova = _anova(values)
    notes: list[str] = []
    posthoc = None
    if k == 2:
        if all_normal:
            recommendation = "paired-t"
            procedure = "the paired t test over datasets"
            call = "scipy.stats.ttest_rel(scores_a, scores_b)"
            autorank_choice = "paired t test"
        else:
            recommendation = "wilcoxon"
            procedure = "Wilcoxon's signed-rank test over datasets"
            call = "mcda.wilcoxon_signed_ranks(scores_a - scores_b)  # or scipy.stats.wilcoxon"
            autorank_choice = "Wilcoxon signed-rank test"
    elif all_normal and equal_variances:
        recommendation = "repeated-measures-anova"
        procedure = ("the repeated-measures ANOVA, then paired t tests with Holm's step-down (a repeated-measures "
                     "post-hoc); read the Greenhouse-Geisser corrected p when epsilon < 0.75")
        call = "mcda.recommend_procedure(scores).anova and .posthoc  (statsmodels AnovaRM gives the same F)"
        autorank_choice = ("repeated-measures ANOVA, then Tukey HSD on independent samples (ignores the pairing: "
                           "mcda recommends paired t tests with Holm instead)")
        posthoc = _paired_t_holm(values, methods, alpha)
        if not residuals_normal:
            notes.append("every method looks normal but the residuals of the additive model do not: the ANOVA's "
                         "own assumption fails; the Friedman procedure is the safer choice")
        if np.isfinite(anova.epsilon) and anova.epsilon < 0.75:
            notes.append(f"sphericity epsilon = {anova.epsilon:.2f} < 0.75: use the corrected p-value "
                         f"({anova.pvalue_corrected:.3g}); the paired post-hoc does not assume sphericity")
    else:
        recommendation = "friedman"
        why = "not every method looks normal" if not all_normal else "the variances differ"
        procedure = (f"the Friedman test, then a mean-rank post-hoc only if it rejects ({why}); pairwise Wilcoxon "
                     "tests with Holm do not depend on the pool of methods")
        call = ("mcda.compare_over_datasets(scores)  # Nemenyi over all pairs; "
                "test='holm', control=... against a control")
        autorank_choice = "Friedman test, then Nemenyi"
    if n < 10:
        notes.append(f"only {n} datasets: the normality and variance checks have little power, and a "
                     "non-rejection is no evidence that the assumptions hold")
    return ProcedureRecommendation(normality=normality, alpha_normality=alpha_normality, all_normal=all_normal,
                                   residuals_normal=residuals_normal, residuals_pvalue=residuals_pvalue,
                                   homoscedasticity_test=homoscedasticity_test,
                                   homoscedasticity_pvalue=homoscedasticity_pvalue, equal_variances=equal_variances,
                                   anova=anova, recommendation=recommendation, procedure=procedure, call=call,
                                   autorank_choice=autorank_choice, posthoc=posthoc, notes=notes, alpha=alpha,
                                   n_datasets=n, n_methods=k, excluded=prep.excluded)
