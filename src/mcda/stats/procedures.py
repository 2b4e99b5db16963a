"""The registry of procedures: each named once, with what the rest of mcda needs to know of it.

A procedure's entry holds its canonical name, the aliases it also answers to, its family, the
name the write-up and the figures print, the words of the write-up's methods sentence, its
BibTeX keys (entries of :data:`mcda.present.writeup.BIBTEX`), the p-value adjustment it applies
(a name of :data:`mcda.stats._shared.multitest.PVALUE_ADJUSTMENTS`, or None), which comparisons
it makes ("control", "all-pairs") and its function as a lazy ``"module:attribute"`` reference,
so that importing the registry imports no family.

``test=`` dispatch and validation, the CLI's choices and help, the write-up's sentence and
citations and the figures' labels read this table; adding a procedure is one module and one
entry here.

>>> from mcda.stats.procedures import PROCEDURES, canonical
>>> PROCEDURES["finner"].display, PROCEDURES["finner"].references
('Finner', ('finner1993', 'garcia2010'))
>>> canonical("test", "Bonferroni_Dunn", family="posthoc")
'bonferroni-dunn'
"""

from __future__ import annotations

import difflib
import importlib
from dataclasses import dataclass

from mcda._core.validation import McdaArgumentError

__all__ = ["Procedure", "PROCEDURES", "canonical", "names", "paired_over_seeds", "paired_test_methods", "one_sided_over_seeds",
           "display_name",
           "short_name", "references", "load", "adjustment_aliases"]


@dataclass(frozen=True)
class Procedure:
    """One registered procedure.

    Attributes
    ----------
    name : str
        The canonical name (what ``test=`` / ``adjust=`` take and results report).
    family : str
        "omnibus" (one test of equal ranks over datasets), "posthoc" (after an omnibus across
        datasets, on the Friedman z of mean ranks), "rank-posthoc" (another post-hoc statistic of
        the Friedman ranks, adjusted by ``adjust=``), "incomplete-posthoc" (after an omnibus on an
        incomplete design, adjusted by ``adjust=``), "adjustment" (a p-value adjustment only),
        "pool-independent" (each pair on its own scores over datasets), "seeds" (two methods over
        the seeds of one dataset), "bayesian" (posterior probabilities over datasets),
        "bayesian-cv" (posterior probabilities from cross-validation folds), "criteria-uncertainty"
        (several criteria under the uncertainty of the scores and of the weights: rank acceptabilities),
        "criteria-dominance" (several criteria of mixed scale, cardinal and ordinal: generalized
        stochastic dominance of the methods' distributions over datasets, its front and test),
        "seeds-distribution" (the distributions of two methods' scores over the seeds of one dataset,
        compared whole), "replicability" (on how many datasets a method beats another: partial
        conjunction tests of per-dataset p-values), "meta-analysis" (a random-effects model of the
        per-dataset differences, by its estimator of the between-dataset variance),
        "p-combination" (a combination of per-dataset p-values), "items" (over the items of one
        test set: per-model standard errors and intervals, paired tests and intervals of two models,
        tests of k models, planning), "seeds-cv" (two methods over the cross-validation folds of
        one dataset, knowing that the folds overlap), "planning" (before a benchmark is run: how much
        the procedures across datasets could detect) or "rank-sets" (confidence sets for each
        method's rank).
    display : str
        The name as the write-up, the figures and LaTeX print it.
    words : str
        The phrase of the write-up's methods sentence ("Finner's step-down procedure").
    references : tuple of str
        BibTeX keys of :data:`mcda.present.writeup.BIBTEX`.
    adjustment : str or None
        The p-value adjustment the procedure applies (None: its own critical value).
    comparisons : tuple of str
        "control" (k − 1 comparisons with a control) and/or "all-pairs".
    function : str
        ``"module:attribute"`` of the function that runs it, imported on :func:`load`.
    aliases : tuple of str
        Other spellings accepted for ``name``.
    single_step : bool
        Whether the procedure has one critical difference for every comparison (Nemenyi,
        Bonferroni–Dunn).
    bonferroni_first : bool
        Whether the adjustment's first (strictest) threshold is α/m, as Bonferroni's.
    abbreviation : str
        A short label ("BH"); ``display`` when empty.
    also : tuple of str
        Other families the procedure belongs to (the Wilcoxon signed-rank test runs over
        datasets and over seeds).
    unpaired : str
        For a paired test over seeds: the registered test run instead when the seeds are not
        paired (the paired t test's is Welch's).
    noun : str
        The name as the subject of a sentence ("Nemenyi's test separates …"); ``display`` when empty.
    simulates : tuple of str
        For a planning procedure: the registered procedures it simulates, in the order of its tables.
    """

    name: str
    family: str
    display: str
    words: str
    references: tuple
    adjustment: str | None
    comparisons: tuple
    function: str
    aliases: tuple = ()
    noun: str = ""
    single_step: bool = False
    bonferroni_first: bool = False
    abbreviation: str = ""
    also: tuple = ()
    unpaired: str = ""
    simulates: tuple = ()

    @property
    def subject(self) -> str:
        """The name as the subject of a sentence."""
        return self.noun or self.display


_POSTHOC = "mcda.stats.across.posthoc"
_MULTITEST = "mcda.stats._shared.multitest:adjust_pvalues"
_BOTH = ("control", "all-pairs")
_RANK_TESTS = "mcda.stats.across.rank_tests"
_INCOMPLETE = "mcda.stats.across.incomplete"
_POOL_INDEPENDENT = "mcda.stats.across.pool_independent:pairwise_over_datasets"
_SEEDS = "mcda.stats.within.seeds"
_BAYESIAN = "mcda.stats.bayesian"
_ITEMS = "mcda.stats.items"

_ENTRIES = (
    Procedure("friedman", "omnibus", "Friedman", "the Friedman test", ("friedman1937", "demsar2006"), None, (),
              "mcda.stats.across.friedman:friedman_test"),
    Procedure("iman-davenport", "omnibus", "Iman–Davenport", "the Iman–Davenport F", ("iman1980",), None, (),
              "mcda.stats.across.friedman:iman_davenport", aliases=("iman",)),
    Procedure("friedman-aligned-ranks", "omnibus", "Friedman aligned ranks", "the Friedman aligned-ranks test",
              ("hodges1962", "garcia2010"), None, (), f"{_RANK_TESTS}:friedman_aligned_ranks_test",
              aliases=("aligned-ranks",)),
    Procedure("quade", "omnibus", "Quade", "Quade's test", ("quade1979", "conover1999"), None, (),
              f"{_RANK_TESTS}:quade_test"),
    Procedure("durbin", "omnibus", "Durbin", "Durbin's test", ("durbin1951", "conover1999"), None, (),
              "mcda.stats.across.incomplete:durbin_test", noun="Durbin's test"),
    Procedure("skillings-mack", "omnibus", "Skillings–Mack", "the Skillings–Mack test",
              ("skillings1981", "chatfield2009"), None, (), "mcda.stats.across.incomplete:skillings_mack_test"),
    Procedure("nemenyi", "posthoc", "Nemenyi", "Nemenyi's test for all pairs", ("nemenyi1963", "demsar2006"),
              None, ("all-pairs",), f"{_POSTHOC}:nemenyi", noun="Nemenyi's test", single_step=True),
    Procedure("bonferroni-dunn", "posthoc", "Bonferroni–Dunn", "the Bonferroni–Dunn test", ("dunn1961", "demsar2006"),
              "bonferroni", ("control",), f"{_POSTHOC}:bonferroni_dunn", ("dunn",),
              noun="the Bonferroni–Dunn test", single_step=True),
    Procedure("holm", "posthoc", "Holm", "Holm's step-down procedure", ("holm1979", "garcia2008"), "holm", _BOTH,
              f"{_POSTHOC}:all_pairs_test",
              aliases=("h", "holm-bonferroni"), bonferroni_first=True),
    Procedure("hochberg", "posthoc", "Hochberg", "Hochberg's step-up procedure", ("hochberg1988", "garcia2008"),
              "hochberg", ("control",), f"{_POSTHOC}:control_test",
              aliases=("sh", "simes-hochberg")),
    Procedure("hommel", "posthoc", "Hommel", "Hommel's procedure", ("hommel1988", "garcia2008"), "hommel",
              ("control",), f"{_POSTHOC}:control_test",
              aliases=("ho",)),
    Procedure("shaffer", "posthoc", "Shaffer", "Shaffer's static procedure for all pairs",
              ("shaffer1986", "garcia2008"), "shaffer", ("all-pairs",), f"{_POSTHOC}:all_pairs_test",
              aliases=("shaffer-static",), bonferroni_first=True),
    Procedure("bergmann-hommel", "posthoc", "Bergmann–Hommel", "the Bergmann–Hommel procedure for all pairs",
              ("bergmann1988", "garcia2008"), "bergmann-hommel", ("all-pairs",), f"{_POSTHOC}:all_pairs_test",
              aliases=("bergmann", "bergmann-hommel-exhaustive"), bonferroni_first=True),
    Procedure("holland", "posthoc", "Holland", "Holland and Copenhaver's step-down Šidák procedure",
              ("holland1987", "garcia2010"), "holm-sidak", _BOTH, f"{_POSTHOC}:control_test"),
    Procedure("finner", "posthoc", "Finner", "Finner's step-down procedure", ("finner1993", "garcia2010"), "finner",
              _BOTH, f"{_POSTHOC}:control_test",
              aliases=("f",)),
    Procedure("li", "posthoc", "Li", "Li's two-step procedure", ("li2008", "garcia2010"), "li", ("control",),
              f"{_POSTHOC}:control_test",
              aliases=("li-2008",)),
    Procedure("rom", "posthoc", "Rom", "Rom's step-up procedure", ("rom1990", "garcia2010"), "rom", ("control",),
              f"{_POSTHOC}:control_test",
              aliases=("r",)),
    Procedure("conover", "rank-posthoc", "Conover", "Conover's t test on rank sums", ("conover1999",), None, _BOTH,
              f"{_RANK_TESTS}:conover_posthoc"),
    Procedure("siegel", "rank-posthoc", "Siegel", "Siegel and Castellan's z test on mean ranks",
              ("siegel1988", "demsar2006"), None, _BOTH, f"{_RANK_TESTS}:siegel_posthoc"),
    Procedure("miller", "rank-posthoc", "Miller", "Miller's simultaneous chi-squared test", ("miller1966",), None,
              ("all-pairs",), f"{_RANK_TESTS}:miller_posthoc", noun="Miller's test"),
    Procedure("skillings-mack-pairwise", "incomplete-posthoc", "pairwise Skillings–Mack",
              "pairwise z tests of the method effects estimated from the Skillings–Mack rank sums",
              ("skillings1981", "yates1936"), None, _BOTH, f"{_INCOMPLETE}:skillings_mack_posthoc",
              aliases=("pairwise-skillings-mack", "sm-pairwise"), noun="the pairwise Skillings–Mack comparison"),
    Procedure("durbin-conover", "incomplete-posthoc", "Durbin–Conover", "Conover's t test on Durbin rank sums",
              ("durbin1951", "conover1999"), None, _BOTH, f"{_INCOMPLETE}:durbin_test",
              aliases=("conover-durbin",), noun="the Durbin–Conover test"),
    Procedure("bonferroni", "adjustment", "Bonferroni", "Bonferroni's adjustment", ("dunn1961",), "bonferroni", _BOTH,
              _MULTITEST,
              aliases=("b", "bonf"), bonferroni_first=True),
    Procedure("sidak", "adjustment", "Šidák", "Šidák's adjustment", ("sidak1967",), "sidak", _BOTH, _MULTITEST,
              aliases=("s",)),
    Procedure("holm-sidak", "adjustment", "Holm–Šidák", "the step-down Šidák (Holland–Copenhaver) procedure",
              ("holland1987",), "holm-sidak", _BOTH, _MULTITEST,
              aliases=("hs", "holland", "holland-copenhaver")),
    Procedure("fdr-bh", "adjustment", "Benjamini–Hochberg", "the Benjamini–Hochberg false discovery rate",
              ("benjamini1995",), "fdr-bh", _BOTH, _MULTITEST,
              aliases=("bh", "benjamini-hochberg", "fdr-i", "fdr-p", "fdri", "fdrp"), abbreviation="BH"),
    Procedure("fdr-by", "adjustment", "Benjamini–Yekutieli", "the Benjamini–Yekutieli false discovery rate",
              ("benjamini2001",), "fdr-by", _BOTH, _MULTITEST,
              aliases=("by", "benjamini-yekutieli", "fdr-n", "fdr-c", "fdrn", "fdrcorr"), abbreviation="BY"),
    Procedure("single-step", "adjustment", "single-step", "the single-step studentized-range adjustment",
              ("hochberg1987",), None, ("all-pairs",), f"{_RANK_TESTS}:conover_posthoc"),
    Procedure("t", "seeds", "paired t", "paired t tests", ("student1908",), None, _BOTH, f"{_SEEDS}:paired_tests",
              aliases=("paired-t", "t-test"), unpaired="welch"),
    Procedure("wilcoxon", "pool-independent", "Wilcoxon", "Wilcoxon signed-rank tests", ("wilcoxon1945", "demsar2006"),
              None, _BOTH, _POOL_INDEPENDENT, aliases=("wilcoxon-signed-rank", "signed-rank-test"), also=("seeds",),
              unpaired="mann-whitney"),
    Procedure("sign", "pool-independent", "Sign", "an exact two-sided sign test", ("dixon1946", "demsar2006"), None,
              _BOTH, _POOL_INDEPENDENT, aliases=("sign-test",)),
    Procedure("welch", "seeds", "Welch t", "Welch's unpaired t tests", ("welch1947",), None, _BOTH,
              f"{_SEEDS}:paired_tests", aliases=("welch-t",)),
    Procedure("mann-whitney", "seeds", "Mann–Whitney U", "Mann–Whitney U tests", ("mann1947",), None, _BOTH,
              f"{_SEEDS}:paired_tests", aliases=("mann-whitney-u", "mannwhitneyu")),
    Procedure("tost", "seeds", "TOST", "TOST", ("schuirmann1987",), None, _BOTH, f"{_SEEDS}:equivalence"),
    Procedure("bayesian-signed-rank", "bayesian", "Bayesian signed-rank", "the Bayesian signed-rank test",
              ("benavoli2014", "benavoli2017"), None, ("all-pairs",),
              f"{_BAYESIAN}.signed_rank:bayesian_signed_rank_comparison", aliases=("signed-rank",)),
    Procedure("bayesian-sign", "bayesian", "Bayesian sign", "the Bayesian sign test", ("benavoli2014", "benavoli2017"),
              None, ("all-pairs",), f"{_BAYESIAN}.sign:bayesian_sign_comparison", aliases=("sign",)),
    Procedure("plackett-luce", "bayesian", "Plackett–Luce", "the Bayesian Plackett–Luce model of rankings",
              ("calvo2018",), None, ("ranking",), f"{_BAYESIAN}.plackett_luce:plackett_luce"),
    Procedure("correlated-t", "bayesian-cv", "correlated t", "the Bayesian correlated t test",
              ("corani2015", "nadeau2003"), None, ("all-pairs",), f"{_BAYESIAN}.correlated_t:correlated_t_test"),
    Procedure("hierarchical", "bayesian-cv", "hierarchical", "the Bayesian hierarchical model",
              ("corani2017",), None, ("all-pairs",), f"{_BAYESIAN}.hierarchical:hierarchical_comparison"),
    # several criteria under uncertainty
    Procedure("smaa-2", "criteria-uncertainty", "SMAA-2",
              "stochastic multicriteria acceptability analysis (SMAA-2) with a linear additive value function",
              ("lahdelma2001", "tervonen2008"), None, ("ranking",), "mcda.stats.smaa:smaa", aliases=("smaa",)),
    # statistical dominance across criteria of mixed scale
    Procedure("gsd-front", "criteria-dominance", "GSD-front",
              "the generalized stochastic dominance (GSD) front with its permutation test",
              ("jansen2024gsd", "jansen2023robust"), None, ("all-pairs",), "mcda.stats.gsd:gsd_front",
              aliases=("gsd", "generalized-stochastic-dominance"), noun="the GSD-front"),
    Procedure("aso", "seeds-distribution", "almost stochastic order", "the almost stochastic order test (ε_min)",
              ("delbarrio2018", "dror2019", "ulmer2022"), "bonferroni", ("all-pairs",),
              "mcda.stats.within.aso:almost_stochastic_order", aliases=("almost-stochastic-order",),
              noun="the almost stochastic order test"),
    Procedure("conjunction-bonferroni", "replicability", "partial conjunction (Bonferroni)",
              "Bonferroni partial conjunction tests of the per-dataset p-values", ("benjamini2008", "dror2017"),
              None, _BOTH, "mcda.stats.replicability:replicability", aliases=("bonferroni", "partial-conjunction")),
    Procedure("conjunction-fisher", "replicability", "partial conjunction (Fisher)",
              "Fisher partial conjunction tests of the per-dataset p-values",
              ("benjamini2008", "dror2017", "fisher1932"), None, _BOTH, "mcda.stats.replicability:replicability",
              aliases=("fisher",)),
    Procedure("reml", "meta-analysis", "REML", "a random-effects model with the REML estimate of the between-dataset "
              "variance", ("viechtbauer2005", "higgins2009"), None, _BOTH, "mcda.stats.meta_analysis:meta_analysis",
              aliases=("restricted-maximum-likelihood",)),
    Procedure("dersimonian-laird", "meta-analysis", "DerSimonian–Laird", "a random-effects model with the "
              "DerSimonian–Laird estimate of the between-dataset variance", ("dersimonian1986", "higgins2009"), None,
              _BOTH, "mcda.stats.meta_analysis:meta_analysis", aliases=("dl", "chi2")),
    Procedure("paule-mandel", "meta-analysis", "Paule–Mandel", "a random-effects model with the Paule–Mandel "
              "estimate of the between-dataset variance", ("paule1982", "higgins2009"), None, _BOTH,
              "mcda.stats.meta_analysis:meta_analysis", aliases=("pm", "iterated")),
    Procedure("stouffer", "p-combination", "Stouffer", "Stouffer's combination of the per-dataset p-values",
              ("stouffer1949",), None, _BOTH, "mcda.stats.meta_analysis:meta_analysis", aliases=("stouffer-z",)),
    Procedure("fisher-combination", "p-combination", "Fisher's combination",
              "Fisher's combination of the per-dataset p-values", ("fisher1932",), None, _BOTH,
              "mcda.stats.meta_analysis:meta_analysis", aliases=("fisher-method",)),
    # over items, resampling
    Procedure("item-permutation", "items", "paired permutation", "paired permutation tests over items (the signs "
              "of the paired differences flipped per item, or per cluster)", ("good2005", "phipson2010"), None, _BOTH,
              "mcda.stats.items.resampling:paired_permutation_test", aliases=("paired-permutation",),
              noun="the paired permutation test"),
    Procedure("item-bootstrap", "items", "paired bootstrap", "paired bootstrap intervals of the mean difference "
              "over items (whole clusters resampled)", ("efron1987", "field2007"), None, _BOTH,
              "mcda.stats.items.resampling:paired_bootstrap", aliases=("paired-bootstrap", "cluster-bootstrap"),
              noun="the paired bootstrap"),
    Procedure("corrected-resampled-t", "seeds-cv", "corrected resampled t",
              "Nadeau and Bengio's corrected resampled t tests", ("nadeau2003",), None, _BOTH,
              f"{_SEEDS}:paired_tests", aliases=("nadeau-bengio", "corrected-t"),
              noun="the corrected resampled t test"),
    Procedure("corrected-repeated-cv-t", "seeds-cv", "corrected repeated k-fold CV t",
              "Bouckaert and Frank's corrected repeated k-fold cross-validation t tests",
              ("bouckaert2004", "nadeau2003"), None, _BOTH, f"{_SEEDS}:paired_tests",
              aliases=("bouckaert-frank", "corrected-repeated-kfold-t", "corrected-kfold-t"),
              noun="the corrected repeated k-fold cross-validation t test"),
    Procedure("5x2cv-t", "seeds-cv", "5×2cv paired t", "Dietterich's 5×2cv paired t tests", ("dietterich1998",),
              None, _BOTH, f"{_SEEDS}:paired_tests", aliases=("dietterich", "5x2cv-paired-t", "paired-5x2cv-t"),
              noun="Dietterich's 5×2cv paired t test"),
    Procedure("5x2cv-f", "seeds-cv", "5×2cv combined F", "Alpaydın's 5×2cv combined F tests", ("alpaydin1999",),
              None, _BOTH, f"{_SEEDS}:paired_tests", aliases=("alpaydin", "combined-5x2cv-f", "5x2cv-combined-f"),
              noun="Alpaydın's 5×2cv combined F test"),
    Procedure("design-power", "planning", "design power",
              "a simulation of the power of the procedures across datasets", ("demsar2006", "hoenig2001",
                                                                               "lehmann1975"),
              None, ("all-pairs",), "mcda.stats.across.power:design_power", aliases=("power-across-datasets",),
              simulates=("nemenyi", "holm", "wilcoxon", "sign", "bayesian-sign")),
    Procedure("rank-confidence-sets", "rank-sets", "rank confidence sets",
              "confidence sets for ranks from the pairwise differences of the estimates, with a parametric "
              "bootstrap of the largest studentized difference and a step-down", ("mogstad2024",), None,
              ("ranking",), "mcda.stats.rank_sets:rank_confidence_sets", aliases=("csranks", "rank-sets")),
    # over items (the first pair test is paired_items' default)
    Procedure("paired-items-t", "items", "paired t over items",
              "paired t tests on the per-item differences, with cluster-robust standard errors when items are "
              "clustered", ("miller2024", "cameron2015"), None, _BOTH, f"{_ITEMS}.paired:paired_items",
              aliases=("items-t", "paired-items", "clustered-t"), noun="the paired t test over items"),
    Procedure("mcnemar-exact", "items", "McNemar (exact)", "McNemar's exact (binomial) test", ("mcnemar1947",),
              None, _BOTH, f"{_ITEMS}.paired:paired_items", aliases=("mcnemar", "mcnemar-binomial"),
              noun="McNemar's exact test"),
    Procedure("mcnemar-mid-p", "items", "McNemar (mid-p)", "McNemar's mid-p test",
              ("mcnemar1947", "fagerland2013"), None, _BOTH, f"{_ITEMS}.paired:paired_items",
              aliases=("mcnemar-midp", "mid-p"), noun="McNemar's mid-p test"),
    Procedure("mcnemar-asymptotic", "items", "McNemar (asymptotic)",
              "McNemar's asymptotic chi-squared test without continuity correction", ("mcnemar1947", "fagerland2013"),
              None, _BOTH, f"{_ITEMS}.paired:paired_items", aliases=("mcnemar-chi2", "mcnemar-chi-squared"),
              noun="McNemar's asymptotic test"),
    Procedure("cluster-robust-se", "items", "cluster-robust standard error",
              "cluster-robust standard errors of the mean item score", ("miller2024", "cameron2015"), None, (),
              f"{_ITEMS}.means:item_means", aliases=("clustered-se", "clustered-standard-error")),
    Procedure("wilson", "items", "Wilson", "Wilson score intervals of the rates", ("wilson1927",), None, (),
              f"{_ITEMS}.means:item_means", aliases=("wilson-score",), noun="Wilson's interval"),
    Procedure("clopper-pearson", "items", "Clopper–Pearson", "exact Clopper–Pearson intervals of the rates",
              ("clopper1934",), None, (), f"{_ITEMS}.means:item_means", aliases=("exact-binomial-interval",),
              noun="the Clopper–Pearson interval"),
    Procedure("cochran-q", "items", "Cochran's Q", "Cochran's Q test", ("cochran1950",), None, (),
              f"{_ITEMS}.omnibus:item_omnibus", aliases=("cochrans-q", "cochran"), noun="Cochran's Q test"),
    Procedure("friedman-items", "items", "Friedman over items", "the Friedman test over items (ranks within items)",
              ("friedman1937",), None, (), f"{_ITEMS}.omnibus:item_omnibus", aliases=("items-friedman",),
              noun="the Friedman test over items"),
    Procedure("items-needed", "items", "items needed", "the items needed for a given power (Miller's formula)",
              ("miller2024",), None, (), f"{_ITEMS}.planning:items_needed", aliases=("item-power",)),
)

#: Canonical name -> :class:`Procedure`.
PROCEDURES: dict[str, Procedure] = {p.name: p for p in _ENTRIES}


def names(family: str | None = None, comparisons: str | None = None) -> tuple[str, ...]:
    """The canonical names of a family (all families with None), in registry order.

    ``comparisons`` ("control" or "all-pairs") keeps the procedures that make those comparisons.
    """
    return tuple(p.name for p in _ENTRIES if (family is None or family in (p.family, *p.also))
                 and (comparisons is None or comparisons in p.comparisons))


def paired_over_seeds() -> tuple[str, ...]:
    """The paired tests over seeds (``paired_tests(method=)``): those with an unpaired counterpart."""
    return tuple(name for name in names("seeds") if PROCEDURES[name].unpaired)


def paired_test_methods() -> tuple[str, ...]:
    """Every ``paired_tests(method=)``: the paired tests over seeds and the tests over cross-validation folds."""
    return paired_over_seeds() + names("seeds-cv")


def one_sided_over_seeds() -> tuple[str, ...]:
    """The tests of ``paired_tests`` whose two-sided p halves into one-sided p-values on the side of the mean
    difference: the paired tests over seeds and the corrected t tests over folds (not the 5×2cv tests:
    Dietterich's t reads the first fold only, Alpaydın's F has no side)."""
    return paired_over_seeds() + tuple(name for name in names("seeds-cv") if not name.startswith("5x2cv"))


def _key(value) -> str | None:
    return value.strip().lower().replace("_", "-").replace(" ", "-") if isinstance(value, str) else None


def canonical(argument: str, value, *, family: str | None = None, allowed=None) -> str:
    """The canonical name ``value`` spells (case, "_" and aliases read), checked against ``allowed``.

    ``allowed`` defaults to every name of ``family``. Anything else raises an
    :class:`~mcda.McdaArgumentError` naming ``argument``, the value and the allowed names.
    """
    allowed = tuple(names(family) if allowed is None else allowed)
    key = _key(value)
    spelt = {alias: name for name in allowed if name in PROCEDURES
             for alias in (name, *PROCEDURES[name].aliases)}
    spelt.update({name: name for name in allowed})
    if key in spelt:
        return spelt[key]
    close = difflib.get_close_matches(key, list(spelt), n=1) if key is not None else []
    hint = f" Did you mean {spelt[close[0]]!r}?" if close else ""
    raise McdaArgumentError(f"`{argument}` must be one of {{{', '.join(map(repr, allowed))}}}; got {value!r}.{hint}",
                            argument=argument, value=value, allowed=allowed)


def display_name(name) -> str:
    """The printed name of a registered procedure (the name itself when it is not registered)."""
    entry = PROCEDURES.get(str(name))
    return entry.display if entry is not None else str(name)


def short_name(name) -> str:
    """The abbreviation of a registered procedure ("BH"), else its display name (else the name itself)."""
    entry = PROCEDURES.get(str(name))
    return (entry.abbreviation or entry.display) if entry is not None else str(name)


def adjustment_aliases() -> dict[str, tuple[str, ...]]:
    """Canonical name -> aliases of every p-value adjustment (the entries whose adjustment is their name)."""
    return {p.name: p.aliases for p in _ENTRIES if p.adjustment == p.name}


def references(name) -> tuple[str, ...]:
    """The BibTeX keys of a registered procedure (empty when it is not registered)."""
    entry = PROCEDURES.get(str(name))
    return entry.references if entry is not None else ()


def load(name: str):
    """The function that runs the procedure ``name`` (imported now, not when the registry is)."""
    module, attribute = PROCEDURES[name].function.split(":")
    return getattr(importlib.import_module(module), attribute)
