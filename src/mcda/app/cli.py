"""The ``mcda`` command: a CSV of scores in, the whole analysis out.

::

    mcda compare SCORES.csv [--metric ari] [--direction ...] [--rope ...] [--alpha ...] [--out DIR]
    mcda compare --example demsar2006          # or duo2018: the main job on bundled data
    mcda cards list [--task clustering]
    mcda cards show NAME

``mcda compare`` prints a readable report (the Friedman verdict, the critical-difference
groups, pairwise superiority and transitivity, the Bayesian decisions, the within-dataset
views when there are seeds, the excluded methods) and writes the figures (PNG and PDF), the
LaTeX tables and the JSON bundle (re-analyse it later with ``mcda.Report.from_json``) to
``--out`` (default ``./mcda-out``).

Errors a user can fix (a missing file, an unknown column or metric, duplicate rows,
non-numeric cells) print one line naming the file, line or column, and exit with status 1;
bad options exit with status 2 (argparse). ``--debug`` shows the traceback instead.

Examples
--------
>>> from mcda.app.cli import main
>>> main(["cards", "show", "ARI"])  # doctest: +ELLIPSIS
ari: Adjusted Rand index
  direction     higher_is_better
...
0
"""

from __future__ import annotations

import argparse
import gc
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from mcda._core.validation import McdaArgumentError
from mcda._core.validation import shown
from mcda.data.design import DEFAULT_MISSING, MISSING_POLICIES
from mcda.data.readers import CliError, read_scores
from mcda.stats.procedures import PROCEDURES, canonical as procedure_canonical, names as procedure_names
from mcda.stats.procedures import paired_test_methods

__all__ = ["main", "read_scores", "CliError", "build_parser"]

EXAMPLES = ("demsar2006", "duo2018", "benavoli2017_uci54_folds")
_DEMSAR_NOTE = (
    "Demšar (2006) Table 6 prints the AUCs of C4.5+cf and C4.5+m+cf on 'voting' as 0.975 each, and ranks them 2 "
    "and 3 from unrounded values. Ranked from the printed AUCs (ties averaged, as here), chi2_F = 9.857 and "
    "F_F = 3.987 instead of the published 9.28 and 3.69; mcda.datasets.load('demsar2006_published_ranks') "
    "reproduces the published numbers (see tests/data/demsar2006/PROVENANCE.md).")


class _DefaultsHelpFormatter(argparse.HelpFormatter):
    """Appends "(default: X)" to an option's help only when X says something: not for None / False, and not
    when the help already names its default (argparse's ArgumentDefaultsHelpFormatter printed
    "(default: the card's noise floor) (default: None)")."""

    def _get_help_string(self, action):
        text = action.help or ""
        if "default" in text or action.default in (None, False) or action.default is argparse.SUPPRESS:
            return text
        if action.option_strings or action.nargs in (argparse.OPTIONAL, argparse.ZERO_OR_MORE):
            return text + " (default: %(default)s)"
        return text


# --------------------------------------------------------------------------- the commands

def _procedures_listed(names) -> str:
    """The registered procedures ``names`` as the help lists them: name (the write-up's words)."""
    return ", ".join(f"{name} ({PROCEDURES[name].words})" for name in names)


def _item_tests() -> tuple:
    """The registered paired tests over items (``--item-test``; mcda.stats.items.paired.PAIR_TESTS, read from the
    registry here so that the parser imports no statistics)."""
    return tuple(name for name in procedure_names("items", comparisons="all-pairs")
                 if PROCEDURES[name].function.endswith(":paired_items"))


def _procedure(allowed, what: str):
    """An argparse type: the canonical registered name a word spells (any alias, case, "_"), one of ``allowed``."""
    def read(text: str) -> str:
        try:
            return procedure_canonical(what, text, allowed=allowed)
        except McdaArgumentError:
            raise argparse.ArgumentTypeError(f"unknown {what} {text!r}; choose from {', '.join(allowed)}") from None
    read.__name__ = what
    return read


def _float_argument(text: str, *, number: str, valid, must: str) -> float:
    """An argparse number: "must be {number}" when ``text`` is no number, "must {must}" when not ``valid``."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be {number}; got {text!r}") from None
    if not valid(value):
        raise argparse.ArgumentTypeError(f"must {must}; got {text}")
    return value


def _level(text: str) -> float:
    return _float_argument(text, number="a number between 0 and 1", valid=lambda v: 0 < v < 1,
                           must="lie strictly between 0 and 1")


def _nonnegative(text: str) -> float:
    return _float_argument(text, number="a number >= 0", valid=lambda v: np.isfinite(v) and v >= 0,
                           must="be a finite number >= 0")


def _jobs(text: str):
    """``--jobs``: auto or a positive integer."""
    word = str(text).strip()
    if word == "auto":
        return "auto"
    try:
        value = int(word)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer or auto; got {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``mcda`` (every command has ``--help``)."""
    from mcda import __version__
    from mcda.app.report import DESIGN_POWER_CHOICES, PLACKETT_LUCE_CHOICES, SIGNED_RANK_CHOICES

    parser = argparse.ArgumentParser(
        prog="mcda", description="Which differences between benchmarked methods are real: across datasets, within "
                                 "a dataset over seeds, and pairwise.")
    parser.add_argument("--version", action="version", version=f"mcda {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True

    compare = commands.add_parser(
        "compare", help="analyse a CSV of scores (or a bundled example) and write figures, LaTeX and a JSON bundle",
        description="Read a tidy CSV (dataset, method, score[, seed, epoch, split, metric]) or a wide CSV (datasets x "
                    "methods), print the analysis and write figures (PNG and PDF), LaTeX tables and the JSON "
                    "bundle to --out.",
        formatter_class=_DefaultsHelpFormatter)
    compare.add_argument("scores", nargs="?", metavar="SCORES.csv", help="the CSV file (omit with --example)")
    compare.add_argument("--example", choices=EXAMPLES, help="analyse bundled example data instead of a file")
    compare.add_argument("--metric", help="the metric card (e.g. ari, accuracy, runtime); with a metric column, "
                                          "the metric to analyse (SMAA-2 and the GSD-front weigh every metric "
                                          "of the column together)")
    compare.add_argument("--direction", choices=("higher_is_better", "lower_is_better"),
                         help="which way is better (needed when the metric has no card)")
    compare.add_argument("--scale", choices=("fraction", "percent"),
                         help="the unit of the scores when it is not the card's: percent divides them by 100 (accuracy "
                              "97.8 -> 0.978) so the card's range and noise floor apply; recorded in the report")
    compare.add_argument("--rope", type=_nonnegative, help="region of practical equivalence in the units of the file, "
                                                    "converted with the scores under --scale "
                                                    "(default: the card's noise floor)")
    compare.add_argument("--alpha", type=_level, default=0.05, help="level of every test")
    compare.add_argument("--out", default="mcda-out", metavar="DIR",
                         help="where to write figures, tables and bundle; replaced whole when it holds an earlier "
                              "mcda output, refused when it holds anything else (see --force)")
    compare.add_argument("--force", action="store_true",
                         help="write into --out even when it is a non-empty folder that mcda did not write "
                              "(files of the same names are replaced, others left alone)")
    compare.add_argument("--test", metavar="TEST", type=_procedure(procedure_names("posthoc"), "test"),
                         choices=procedure_names("posthoc"),
                         help="post-hoc across datasets: " + _procedures_listed(procedure_names("posthoc", "all-pairs"))
                              + " (default: nemenyi); with --control: "
                              + _procedures_listed(procedure_names("posthoc", "control")) + " (default: holm)")
    compare.add_argument("--missing", choices=tuple(MISSING_POLICIES), default=DEFAULT_MISSING,
                         help="a missing (dataset, method) cell in the across-dataset test: drop the incomplete "
                              "methods, drop the incomplete datasets, or test the incomplete design as it is "
                              "(Durbin / Skillings-Mack); nothing is imputed")
    compare.add_argument("--control", help="a control method chosen beforehand: the across-dataset test compares it "
                                           "with each other method (then --test is a control test), and with seeds "
                                           "the within-dataset paired tests of it against each other method, Holm "
                                           "over those k-1 per dataset, are written to pairwise_control.tex "
                                           "(pairwise.tex keeps every pair)")
    compare.add_argument("--ci-method", choices=("t", "bootstrap"),
                         help="interval over seeds: Student's t, or the percentile bootstrap (too narrow below 10 "
                              "seeds; the notes say so) (default: t)")
    compare.add_argument("--pairwise-method", choices=paired_test_methods(),
                         type=_procedure(paired_test_methods(), "pairwise_method"),
                         help="paired test over seeds within a dataset: " + _procedures_listed(paired_test_methods())
                              + " (default: t); the tests over folds need --cv-runs")
    compare.add_argument("--unpaired", action="store_true",
                         help="seeds are not paired runs (seed labels differ between methods): compare each "
                              "method's seeds as two samples (Welch t, or Mann-Whitney with --pairwise-method "
                              "wilcoxon)")
    compare.add_argument("--epoch-selection", choices=("final", "best_val"), default="final",
                         help="with an epoch column: the final epoch, or the best on the validation split")
    compare.add_argument("--fallback-final", action="store_true",
                         help="with --epoch-selection best_val: use the final epoch on datasets without a validation "
                              "series instead of stopping (they are named in the report)")
    compare.add_argument("--cv-runs", type=int, metavar="N",
                         help="the seeds are the folds of N runs of k-fold cross-validation (the same folds for "
                              "every method): adds the hierarchical model of Corani et al. (2017)")
    compare.add_argument("--plackett-luce-samples", type=int, metavar="N",
                         help="draws kept per chain of the Bayesian Plackett-Luce ranking (default 2000, or 100 "
                              "per method beyond 20 methods; more when the report says its chains have not converged)")
    compare.add_argument("--seed-distributions", action="store_true",
                         help="also compare the methods' seed distributions on each dataset by almost stochastic "
                              "order (epsilon_min, Dror et al. 2019), Bonferroni over the pairs of a dataset")
    compare.add_argument("--signed-rank", choices=SIGNED_RANK_CHOICES, default="auto",
                         help="the Bayesian signed-rank test: auto (default) leaves it out when its sampler would take "
                              "more than about ten seconds (pairs x draws x datasets; the report says so), "
                              "always, or never")
    compare.add_argument("--plackett-luce", choices=PLACKETT_LUCE_CHOICES, default="auto",
                         help="the Bayesian Plackett-Luce ranking: auto (default) leaves it out when its sampler would "
                              "take more than about seven seconds (chains x draws x datasets x methods; the report "
                              "says so and what it would cost), always, or never")
    compare.add_argument("--design-power", choices=DESIGN_POWER_CHOICES, default="auto",
                         help="beside an across-dataset result that leaves pairs unseparated, the smallest lead the "
                              "design could have detected with power 0.8, by simulation: auto (default) leaves it out "
                              "when the simulation would take more than about ten seconds (the report says so), "
                              "always, or never")
    compare.add_argument("--rng", type=int, help="seed of the random views (default: drawn and stored in the bundle)")
    compare.add_argument("--transpose", action=argparse.BooleanOptionalAction, default=None,
                         help="a wide file whose rows are methods and columns datasets: --transpose reads it so; "
                              "--no-transpose reads the rows as datasets, as written. Without either, a wide file "
                              "with more method columns than dataset rows is refused as possibly transposed, "
                              "unless its first column is headed dataset")
    for role in ("dataset", "method", "score", "seed"):
        compare.add_argument(f"--{role}-column", metavar="NAME", help=f"the {role} column of a tidy file "
                                                                      f"(default: {role})")
    compare.add_argument("--item-column", metavar="NAME",
                         help="the item column of a tidy file of per-item scores (default: a column named item, "
                              "question, example, prompt or id, when the other columns repeat without it): the "
                              "scores become an item cube and the analysis starts over the items of each test set")
    compare.add_argument("--item-test", metavar="TEST", type=_procedure(_item_tests(), "item test"),
                         help="per-item scores: the paired test of every pair over the items, its tie groups and "
                              "figures: " + _procedures_listed(_item_tests()) + " (default: paired-items-t)")
    compare.add_argument("--cluster-column", metavar="NAME",
                         help="the column grouping the items (a passage, a repository, a task), one value per item: "
                              "the item intervals and paired tests become cluster-robust (default: cluster)")
    compare.add_argument("--figures", type=_figure_choice, default=("auto",), metavar="NAMES",
                         help="which figures to write (PNG and PDF): auto, all, none, or a comma-separated list of "
                              f"{', '.join(FIGURES)}. {FIGURES_RULE[0].upper() + FIGURES_RULE[1:]}; all writes every "
                              "figure that applies to the data (default: auto). " + ORDER_RULE[0].upper() + ORDER_RULE[1:] + ". A figure taller than a page is "
                              "written one file per page (forest.png, forest_page2.png, ...): critical_difference, "
                              "forest, pairwise, learning_curves, shrinkage_top_pair and the item figures (the pages "
                              "of each test set in turn)")
    compare.add_argument("--cd-width", choices=("auto", "column", "page"), default="auto",
                         help="width of the critical-difference diagram: a column (3.35 in) or a page (7 in); "
                              "auto takes the column when the whole diagram fits one page there with every "
                              "method's label on one line, else the page (default: auto)")
    compare.add_argument("--no-figures", action="store_true", help="the same as --figures none")
    compare.add_argument("--jobs", type=_jobs, default=None, metavar="N",
                         help="processes drawing the figures' pages: a positive integer, or auto (the usable "
                              "cores; the default on the command line; from Python's mcda.app.cli.main(argv) the "
                              "default is 1); 1 draws them in this process. The files are the same byte for byte")
    compare.add_argument("--debug", action="store_true", help="show tracebacks instead of one-line errors")

    cards = commands.add_parser("cards", help="list or show metric cards",
                                description="Metric cards: direction, range, noise floor (the default rope), interval.")
    card_commands = cards.add_subparsers(dest="cards_command", metavar="{list,show}")
    card_commands.required = True
    listing = card_commands.add_parser("list", help="list the known metric cards",
                                       description="List the known metric cards, one per line.")
    listing.add_argument("--task", help="only the cards of one task (classification, clustering, regression, "
                                        "ranking, cost, other)")
    show = card_commands.add_parser("show", help="show one metric card", description="Show one metric card.")
    show.add_argument("name", metavar="NAME", help="a card name or alias (case-insensitive)")
    return parser


def _unknown_metric(name: str, what: str = "--metric") -> str:
    from mcda._core.validation import nearest
    from mcda.data.cards import get_card, list_cards

    known = list_cards()
    aliases = {a: n for n in known for a in get_card(n).aliases}
    close = nearest(str(name), known + list(aliases))
    hint = f" Did you mean {close[0]!r}?" if close else ""
    if what == "card":
        return f"no metric card {name!r}.{hint} See `mcda cards list`"
    return (f"--metric {name!r} has no metric card.{hint} See `mcda cards list`; for a metric without a card give "
            "--direction (and --rope)")


# library argument (or (argument, value)) -> how the command line spells it. Errors and warnings
# mark up the arguments they mention and carry a remedy per front end (Marked.render); nothing here
# reads or rewrites their wording.
FLAGS = {
    "metric": "--metric", "direction": "--direction", "rope": "--rope", "alpha": "--alpha",
    "test": "--test", "control": "--control", "rng": "--rng", "missing": "--missing", "scale": "--scale",
    "selection": "--epoch-selection", "epoch_selection": "--epoch-selection",
    "ci_method": "--ci-method", "pairwise_method": "--pairwise-method",
    "plackett_luce_samples": "--plackett-luce-samples", "signed_rank": "--signed-rank",
    "plackett_luce": "--plackett-luce", "design_power": "--design-power",
    ("strict", "False"): "--fallback-final", ("strict", "True"): "no --fallback-final",
    ("paired", "False"): "--unpaired", ("paired", "True"): "no --unpaired",
    ("seed_distributions", "True"): "--seed-distributions", ("seed_distributions", "False"): "no --seed-distributions",
}


def _in_flags(message) -> str:
    """A library error or warning in the command line's words: its marked-up arguments spelled as
    their flags and the command line's remedy (plain text as it is)."""
    from mcda._core.validation import Marked

    if isinstance(message, Marked):
        return message.render(FLAGS, "cli")
    return str(message)


def _cards(args, out) -> int:
    from mcda.data.cards import get_card, list_cards

    if args.cards_command == "list":
        names = list_cards(args.task) if args.task else list_cards()
        width = max(len(n) for n in names) if names else 0
        for name in names:
            card = get_card(name)
            out.write(f"{name:<{width}}  {card.direction:<16}  noise floor {card.noise_floor:<6g}  {card.long_name}\n")
        return 0
    from mcda.data.cards import UnknownMetricError

    try:
        card = get_card(args.name)
    except UnknownMetricError:
        raise CliError(_unknown_metric(args.name, what="card")) from None
    out.write(card.summary() + "\n")
    return 0


def _load(args):
    import mcda

    if args.example and args.scores:
        raise CliError("give SCORES.csv or --example, not both")
    if args.example and args.transpose is not None:
        raise CliError(f"--{'' if args.transpose else 'no-'}transpose reads a wide CSV file; --example data is not one")
    if args.example:
        cube = mcda.datasets.load(args.example)
        if args.metric is not None or args.direction is not None:
            return mcda.score_cube(cube, metric=args.metric, direction=args.direction), args.example
        return cube, args.example
    if not args.scores:
        raise CliError("give a CSV of scores (mcda compare SCORES.csv) or --example demsar2006|duo2018")
    columns = {role: getattr(args, f"{role}_column") for role in ("dataset", "method", "score", "seed", "item",
                                                                  "cluster")
               if getattr(args, f"{role}_column")}
    return read_scores(args.scores, columns=columns, metric=args.metric, transpose=args.transpose), \
        Path(args.scores).name


#: Every figure ``mcda compare`` can write, in the order it writes them (``--figures`` names).
FIGURES = ("critical_difference", "superiority", "relation", "posterior_bars", "signed_rank_bars",
           "posterior_top_pair", "rank_stability", "rank_sets", "forest", "replicability", "meta_forest", "pairwise", "learning_curves", "rank_distribution",
           "shrinkage_top_pair", "hierarchical_top_pair", "rank_acceptability", "central_weights", "gsd_front",
           "item_intervals", "item_forest", "item_matrix")
#: The figures over items (per-item scores); with one test set they are the only figures that apply.
ITEM_FIGURES = ("item_intervals", "item_forest", "item_matrix")
#: Beyond this many methods the per-dataset k x k panels of ``pairwise`` are not written by default.
PAIRWISE_PANELS_MAX = 12
#: Beyond this many methods the posterior and signed-rank bars (a grid of P(row better) beyond
#: a page of bars) are not written by default: the superiority matrix carries the pairwise view.
POSTERIOR_BARS_MAX = 20
#: Beyond this many pages the per-dataset forest (every method's interval on every dataset) is not
#: written by default: 60 datasets of 50 methods take 30 pages and about 45 s of drawing.
FOREST_PAGES_MAX = 4
FIGURES_RULE = (f"by default (auto) every figure that applies, except the per-dataset pair panels (pairwise) "
                f"beyond {PAIRWISE_PANELS_MAX} methods, the posterior and signed-rank bars beyond "
                f"{POSTERIOR_BARS_MAX} methods (a grid past a page; the superiority matrix shows the pairs) and "
                f"the per-dataset forest beyond {FOREST_PAGES_MAX} pages")


ORDER_RULE = ("every figure and scores.tex sort and number the methods in one order, the across-dataset ranking (mean rank, "
              "best first, ties in the file's order), then the methods that ranking excluded (in the file's order); "
              "without an across-dataset ranking, the file's order")


def run_order(report) -> list:
    """The one order of the methods in every figure of a run (:data:`ORDER_RULE`)."""
    methods = [str(m) for m in report.methods]
    if _one_test_set(report):  # no ranking across datasets: the leaderboard of the one test set
        return [str(m) for m in report.item_leaderboard().to_frame()["method"]]
    try:
        if report.compare_not_applicable():
            return methods
        ranks = report.compare().mean_ranks
    except Exception:  # the critical-difference figure names the error; the others keep the file's order
        return methods
    ranked = [str(m) for m in ranks.iloc[np.lexsort((np.arange(len(ranks)), ranks.to_numpy(dtype=float)))].index]
    return ranked + [m for m in methods if m not in set(ranked)]


def _figure_choice(text: str) -> tuple[str, ...]:
    """``--figures``: auto, all, none, or a comma-separated list of figure names (in FIGURES' order)."""
    words = [w.strip() for w in str(text).split(",") if w.strip()]
    choices = ("auto", "all", "none") + FIGURES
    if not words:
        raise argparse.ArgumentTypeError(f"must name figures; choose from {', '.join(choices)}")
    unknown = [w for w in words if w not in choices]
    if unknown:
        from mcda._core.validation import nearest

        close = nearest(unknown[0], list(choices))
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise argparse.ArgumentTypeError(f"unknown figure {unknown[0]!r}{hint}; choose from {', '.join(choices)} "
                                         "(a comma-separated list of names, or auto, all or none)")
    keywords = [w for w in words if w in ("auto", "all", "none")]
    if keywords and len(words) > 1:
        raise argparse.ArgumentTypeError(f"{keywords[0]} stands alone; got {text!r} (give auto, all, none, or a "
                                         "comma-separated list of figure names)")
    return tuple(dict.fromkeys(words))


def _figure_plan(report) -> dict:
    """Figure name -> None when it applies by default, or the reason it is not written (by the documented rule).

    Reasons starting with "needs" mean the figure does not apply to the data at all; the others
    are the size rule (FIGURES_RULE) and give way to an explicit ``--figures`` name or ``all``.
    """
    k = len(report.methods)
    plan = {name: None for name in FIGURES}
    if not report.has_seeds:
        plan["forest"] = plan["pairwise"] = plan["meta_forest"] = plan["replicability"] = \
            "needs seeds (several runs per cell)"
    why_not = report.rank_sets_not_applicable()
    if why_not:
        plan["rank_sets"] = "needs 2 methods with results on 2 common datasets"
    if not report.has_epochs:
        plan["learning_curves"] = "needs an epoch column"
    if k < 3:
        plan["rank_distribution"] = "needs 3 or more methods"
    if not (report.has_seeds and report.raw.attrs.get("cv_runs") is not None):
        plan["shrinkage_top_pair"] = plan["hierarchical_top_pair"] = "needs seeds that are folds (--cv-runs)"
    if plan["pairwise"] is None and k > PAIRWISE_PANELS_MAX:
        plan["pairwise"] = f"{k} methods: more than {PAIRWISE_PANELS_MAX} for the per-dataset pair panels"
    for name in ("posterior_bars", "signed_rank_bars"):
        if k > POSTERIOR_BARS_MAX:
            plan[name] = f"{k} methods: more than {POSTERIOR_BARS_MAX} for the bars of every pair"
    skipped = report.signed_rank_skipped()
    if skipped:
        plan["signed_rank_bars"] = "needs the Bayesian signed-rank test, " + skipped
    if plan["rank_distribution"] is None:
        skipped = report.plackett_luce_skipped()
        if skipped:
            plan["rank_distribution"] = "needs the Plackett-Luce model, " + skipped
    if plan["forest"] is None:
        pages = _page_count({"forest": lambda page: report.plot_forest(page=page)}, "forest")
        if pages is not None and pages > FOREST_PAGES_MAX:
            plan["forest"] = (f"{pages} pages for {report.raw.sizes['dataset']:,} datasets of {k} methods: more than "
                              f"{FOREST_PAGES_MAX}")
    if plan["meta_forest"] is None:
        pages = _page_count({"meta_forest": lambda page: report.plot_meta_forest(_top_pair(report), page=page)},
                            "meta_forest")
        if pages is not None and pages > FOREST_PAGES_MAX:
            plan["meta_forest"] = (f"{pages} pages for {report.raw.sizes['dataset']:,} datasets: more than "
                                   f"{FOREST_PAGES_MAX}")
    if not getattr(report, "has_criteria", False):  # a report of one metric
        plan["rank_acceptability"] = plan["central_weights"] = "needs several metrics (a metric column)"
        plan["gsd_front"] = "needs several metrics (a metric column)"
    elif report.gsd_front_skipped():  # the overview says why the GSD-front is left out; so does the plan
        plan["gsd_front"] = report.gsd_front_skipped()
    _item_figure_plan(report, plan)
    return plan


def _top_pair(report) -> tuple[str, str]:
    """The pair of the meta-analysis forest: the two first methods of the run's order (:data:`ORDER_RULE`)."""
    first, second = run_order(report)[:2]
    return first, second


def _item_figure_plan(report, plan: dict) -> None:
    """The figures over items apply to per-item scores only; on one test set the across-dataset ones do not."""
    if not getattr(report, "has_items", False):
        for name in ITEM_FIGURES:
            plan[name] = "needs per-item scores (an item column)"
    elif len(report.datasets) < 2:
        for name in plan:
            if name not in ITEM_FIGURES:
                plan[name] = "needs 2 or more datasets (these are per-item scores of one test set)"


def _figures(report, out_dir: Path, stdout, chosen=("auto",), jobs=1, cd_width="auto") -> list[str]:
    """Draw the chosen figures (``--figures``); a figure that fails is named, and the rest still drawn.

    ``jobs``: 1 draws here, one page after another; more (or ``"auto"``, the usable cores) draws
    the pages in that many forked processes where forking is safe (else here), with the same
    files, bytes and messages.
    """
    chosen = tuple(chosen)
    if chosen == ("none",):
        return []  # before importing matplotlib (a second of start-up)
    import matplotlib

    matplotlib.use("Agg", force=True)
    def top_pair():
        table = report.hierarchical().to_frame()
        row = table.iloc[int(np.nanargmax(np.abs(table["population_diff"].to_numpy(dtype=float))))]
        return row["method_a"], row["method_b"]

    def hierarchical():
        from mcda.present.plots import plot_posterior

        return plot_posterior(report.hierarchical(), top_pair())

    order = run_order(report)  # one order and one key for every figure of the run (ORDER_RULE)
    cd_width = cd_width_for(report, cd_width) if "critical_difference" in chosen or chosen in (("auto",), ("all",)) \
        else cd_width
    draws = {"critical_difference": lambda: report.plot_critical_difference(width=cd_width),
             "superiority": lambda: report.plot_superiority(order=order),
             "relation": lambda: report.plot_relation(order=order),
             "posterior_bars": lambda: report.plot_posterior_bars(order=order),
             "signed_rank_bars": lambda: report.plot_signed_rank_bars(order=order),
             "posterior_top_pair": lambda: report.plot_posterior(tuple(report.bayesian().order[:2])),
             "rank_stability": lambda: report.plot_rank_stability(order=order),
             "rank_sets": lambda: report.plot_rank_sets(),
             "forest": lambda: report.plot_forest(),
             "replicability": lambda: report.plot_replicability(order=order),
             "meta_forest": lambda: report.plot_meta_forest(_top_pair(report)),
             "pairwise": lambda: report.plot_pairwise(),
             "learning_curves": lambda: report.plot_learning_curves(),
             "rank_distribution": lambda: _rank_distribution(report),
             "shrinkage_top_pair": lambda: report.plot_shrinkage(top_pair()),
             "hierarchical_top_pair": hierarchical,
             "rank_acceptability": lambda: report.plot_rank_acceptability(order=order),
             "central_weights": lambda: report.plot_central_weights(order=order),
             "gsd_front": lambda: report.plot_gsd_front(),
             "item_intervals": lambda: report.plot_item_intervals(),
             "item_forest": lambda: report.plot_item_forest(),
             "item_matrix": lambda: report.plot_item_matrix()}
    plan = _figure_plan(report)
    if chosen in (("auto",), ("all",)):
        everything = chosen == ("all",)
        wanted = [n for n in FIGURES if plan[n] is None or (everything and not plan[n].startswith("needs"))]
        skipped = [n for n in FIGURES if n not in wanted and not plan[n].startswith("needs")]
        if skipped:
            stdout.write(f"  figures not written by default: {', '.join(f'{n} ({plan[n]})' for n in skipped)}; "
                         "name them with --figures, or give --figures all\n")
    else:
        wanted = [n for n in FIGURES if n in chosen]
        for n in wanted:
            if plan[n] is not None and plan[n].startswith("needs"):
                stdout.write(f"  figure {n}: not drawn ({plan[n]})\n")
        wanted = [n for n in wanted if plan[n] is None or not plan[n].startswith("needs")]
    paged = {"critical_difference": lambda page: report.plot_critical_difference(page=page, width=cd_width),
             "forest": lambda page: report.plot_forest(page=page),  # datasets beyond a page: further files
             "rank_sets": lambda page: report.plot_rank_sets(page=page),  # 50 methods a page
             "meta_forest": lambda page: report.plot_meta_forest(_top_pair(report), page=page),
             "pairwise": lambda page: report.plot_pairwise(page=page),
             "learning_curves": lambda page: report.plot_learning_curves(page=page),
             "shrinkage_top_pair": lambda page: report.plot_shrinkage(top_pair(), page=page),
             "item_intervals": lambda page: report.plot_item_intervals(page=page),  # each test set's pages in turn
             "item_forest": lambda page: report.plot_item_forest(page=page),
             "item_matrix": lambda page: report.plot_item_matrix(page=page)}
    jobs = _jobs_for(jobs, wanted)
    # A figure is a few thousand objects in reference cycles (artists, transforms, the figure):
    # the collector's youngest generation, at 700 allocations, ran about a thousand times and its
    # older ones a hundred while the figures were drawn, walking the figure alive each time; a
    # larger first threshold finds the same garbage in fewer passes (closed figures wait a little)
    thresholds = gc.get_threshold()
    gc.set_threshold(max(thresholds[0], _DRAWING_GC_THRESHOLD), *thresholds[1:])
    try:
        if jobs > 1:
            return _figures_parallel(report, out_dir, stdout, wanted, draws, paged, top_pair, jobs)
        done = dict(_draw_pages(draws, paged, out_dir, name, (1, None)) for name in wanted)
        return _serial_results(stdout, wanted, paged, done)
    finally:
        gc.set_threshold(*thresholds)


_DRAWING_GC_THRESHOLD = 20_000  # the collector's first threshold while figures are drawn (see _figures)


def cd_width_for(report, asked: str = "auto") -> str:
    """``--cd-width``: the asked width, or for auto the column when the whole diagram fits one page there
    with every method's label on one line, else the page (50 long names took two pages of three-line labels
    in a column, and one page of one-line labels across the page)."""
    if asked != "auto":
        return asked
    import matplotlib.pyplot as plt

    from mcda.present.plots._layout import PageOutOfRange

    try:
        fig, ax = report.plot_critical_difference(width="column")
    except Exception:  # the figure's own draw names the error
        return "column"
    try:
        lines = max((t.get_text().count("\n") + 1 for t in ax.texts if t.get_gid() == "method_label"), default=1)
    finally:
        plt.close(fig)
    try:  # a page far past the end: the diagram's check says how many pages it has, drawing nothing
        plt.close(report.plot_critical_difference(width="column", page=10**9)[0])
        one_page = True  # pragma: no cover - a diagram that does not check its page
    except PageOutOfRange as exc:
        one_page = exc.n_pages == 1
    return "column" if one_page and lines == 1 else "page"


def _rank_distribution(report):
    """The Plackett-Luce figure, or the reason it has nothing to draw in the command line's words."""
    result = report.plackett_luce()
    if result.reason:  # no rank probabilities (chains not converged): the figure would be empty
        raise CliError(f"{result.reason}; give a larger --plackett-luce-samples (now {result.n_samples})")
    return report.plot_rank_distribution(order=run_order(report))


def _draw_page(draws, paged, name: str, page: int, out_dir: Path):
    """Draw and save one page of one figure: ("drawn", paths), ("no page", None) or ("failed", the reason)."""
    import matplotlib.pyplot as plt

    from mcda.present.plots._style import save_formats

    from mcda.present.plots._layout import PageOutOfRange

    try:
        drawn = draws[name]() if page == 1 else paged[name](page)
    except PageOutOfRange as exc:
        if page > 1:  # no further page
            return "no page", None
        return "failed", " ".join(_in_flags(exc).split())
    except Exception as exc:  # a figure that cannot be drawn must not lose the rest of the analysis
        return "failed", " ".join(_in_flags(exc).split())
    fig = drawn[0] if isinstance(drawn, tuple) else drawn
    fig = getattr(fig, "figure", fig)
    stem = name if page == 1 else f"{name}_page{page}"
    paths = [out_dir / f"{stem}.{ext}" for ext in ("png", "pdf")]
    try:
        save_formats(fig, paths)  # laid out and measured once for both files
    finally:
        plt.close(fig)
    return "drawn", [str(p) for p in paths]


def _auto_jobs() -> int:
    import os

    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _jobs_for(jobs, wanted) -> int:
    """The worker processes to draw with: 1 (in this process) where forking is not safe or not worth it."""
    import multiprocessing
    import threading

    if jobs is None or jobs == 1 or len(wanted) == 0:
        return 1
    if "fork" not in multiprocessing.get_all_start_methods() or threading.active_count() > 1:
        return 1  # fork copies one thread only: with others alive a lock may be held forever (an optimisation)
    return _auto_jobs() if jobs == "auto" else int(jobs)


_FORKED = {}  # the state a forked drawing worker inherits (set in the parent just before the fork)


def _page_count(paged, name: str):
    """The pages of a paged figure, from its own check of a page far past the end (the error's
    ``n_pages``), or None when it does not say."""
    from mcda.present.plots._layout import PageOutOfRange

    try:
        figure = paged[name](10**9)
    except PageOutOfRange as exc:
        return exc.n_pages
    except Exception:
        return None
    import matplotlib.pyplot as plt

    plt.close(getattr(figure, "figure", figure))  # pragma: no cover - a plot that does not check its page
    return None


def _draw_pages(draws, paged, out_dir, name: str, pages):
    """(name, [(page, outcome, detail), ...]) of pages (first, last) of one figure, or (1, None): every
    page, one after another, up to the first that is missing or fails."""
    results = []
    page = pages[0]
    while True:
        outcome, detail = _draw_page(draws, paged, name, page, out_dir)
        results.append((page, outcome, detail))
        if outcome != "drawn" or name not in paged or (pages[1] is not None and page >= pages[1]):
            return name, results
        page += 1


def _forked_task(task):
    return _draw_pages(_FORKED["draws"], _FORKED["paged"], _FORKED["out_dir"], *task)


def _figures_parallel(report, out_dir, stdout, wanted, draws, paged, top_pair, jobs) -> list[str]:
    """The serial loop's files and messages, the pages drawn by ``jobs`` forked processes.

    Everything the figures compute is computed here first, in the order the serial loop draws
    them (the report caches it), so the workers only draw: no numba kernel runs in them.
    """
    import multiprocessing

    analyses = {"critical_difference": lambda: report.compare(), "superiority": lambda: report.superiority(),
                "relation": lambda: report.transitivity(), "posterior_bars": lambda: report.bayesian(threshold=0.95),
                "signed_rank_bars": lambda: report.bayesian_signed_rank(threshold=0.95),
                "posterior_top_pair": lambda: (report.bayesian(),
                                               report._posterior_pair(tuple(report.bayesian().order[:2]), {})),
                "rank_stability": lambda: report.rank_stability(), "rank_distribution": lambda: report.plackett_luce(),
                "shrinkage_top_pair": lambda: top_pair(), "hierarchical_top_pair": lambda: top_pair(),
                "rank_acceptability": lambda: report.smaa(), "central_weights": lambda: report.smaa(),
                "gsd_front": lambda: report.gsd_front(),
                "item_intervals": lambda: (report.item_means(), report.item_leaderboard()),
                "item_forest": lambda: report.item_pairs(control=report.item_control()),
                "item_matrix": lambda: report.item_leaderboard()}
    tasks = []
    for name in wanted:
        try:
            analyses.get(name, lambda: None)()
        except Exception:  # the worker meets the same error and reports it as the serial loop does
            pass
        if name not in paged:
            tasks.append((name, (1, 1)))
            continue
        count = _page_count(paged, name)  # computes (and caches) the figure's analysis, draws nothing
        if count is None:
            tasks.append((name, (1, None)))
        else:
            tasks += [(name, (page, page)) for page in range(1, count + 1)]
    jobs = min(jobs, len(tasks))
    done: dict = {}
    if jobs <= 1:  # one task (a single page): drawn here
        for name, results in (_draw_pages(draws, paged, out_dir, *task) for task in tasks):
            done.setdefault(name, []).extend(results)
        return _serial_results(stdout, wanted, paged, done)
    weight = {"forest": 2, "pairwise": 2, "learning_curves": 2, "rank_stability": 1.5}  # whole pages first
    order = sorted(tasks, key=lambda t: -(10 if t[1][1] is None else weight.get(t[0], 1)))
    # matplotlib already uses Agg here (_figures chose it before any figure): the workers inherit it,
    # and the first drawing's one-off costs (the PDF backend's import, fonts loaded) paid once here
    _stop_compiling_ahead()  # every analysis is done: a compiling process left would only take a core
    _warm_matplotlib()
    _FORKED.update(draws=draws, paged=paged, out_dir=out_dir)
    try:
        with multiprocessing.get_context("fork").Pool(processes=jobs) as pool:
            for name, results in pool.imap_unordered(_forked_task, order, chunksize=1):
                done.setdefault(name, []).extend(results)
    finally:
        _FORKED.clear()
    return _serial_results(stdout, wanted, paged, done)


def _warm_matplotlib() -> None:
    """Draw a tiny figure to PNG and PDF in memory, so that forked workers inherit what a first one loads."""
    import io

    import matplotlib.pyplot as plt

    from mcda.present.plots._style import FONT_SIZE

    fig, ax = plt.subplots(figsize=(1, 1))
    try:
        ax.plot([0, 1])
        ax.set_title("mcda", fontsize=FONT_SIZE)
        for fmt in ("png", "pdf"):
            fig.savefig(io.BytesIO(), format=fmt)
    finally:
        plt.close(fig)


def _serial_results(stdout, wanted, paged, done) -> list[str]:
    """The files and messages of the serial loop from the pages' outcomes, in its order: a figure's
    pages up to its first missing or failed one (pages drawn past that are removed)."""
    written = []
    for name in wanted:
        outcomes = sorted(done.get(name, []), key=lambda r: r[0])
        stop = False
        for page, outcome, detail in outcomes:
            if stop:
                for path in detail or ():
                    Path(path).unlink(missing_ok=True)
                continue
            if outcome == "drawn":
                written += detail
                continue
            if outcome == "failed":
                stdout.write(f"  figure {name}: not drawn ({detail})\n")
            stop = True
    return written


def _natural(name: str):
    """Sort key: numbers by value (forest_page2 before forest_page10)."""
    import re

    return [(0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", name)]


_OUT_MARKER = ".mcda-output"  # names a folder as one mcda compare wrote (and may replace whole)


def _check_out(value: str, force: bool) -> Path:
    """The --out folder, checked before the analysis: one mcda owns whole, or a new one.

    The rule: a missing or empty folder is created; a folder holding an earlier mcda output (its
    marker file) is replaced whole, so no file of an earlier run stays beside the new ones; any
    other non-empty folder (or a file) is refused unless --force, and with --force mcda writes its
    files into it (replacing files of the same names) and touches nothing else there.
    """
    if not str(value).strip():
        raise CliError("--out must name a folder; got ''")
    out_dir = Path(value)
    if out_dir.exists() and not out_dir.is_dir():
        raise CliError(f"--out {value!r} is a file, not a folder")
    if out_dir.is_dir() and any(out_dir.iterdir()) and not (out_dir / _OUT_MARKER).exists() and not force:
        raise CliError(f"--out {value!r} is a non-empty folder that mcda did not write; choose another --out, "
                       "or give --force to replace its contents")
    try:
        out_dir.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CliError(f"--out {value!r}: cannot create the folder ({exc.strerror})") from None
    return out_dir


class _StagedOutput:
    """Write into a fresh sibling folder; on success, swap it in for --out in one step.

    Two runs writing the same --out at once each build their own folder; the swap (under a lock
    where the platform has one) leaves one run's complete output, never a mix of both.
    """

    def __init__(self, out_dir: Path):
        import tempfile

        self.out_dir = out_dir
        try:
            self.stage = Path(tempfile.mkdtemp(prefix=f".{out_dir.name or 'out'}.", suffix=".partial",
                                               dir=out_dir.resolve().parent))
        except OSError as exc:
            raise CliError(f"--out {str(out_dir)!r}: cannot write beside it ({exc.strerror})") from None
        (self.stage / _OUT_MARKER).write_text("written by mcda compare; the folder is replaced whole by the "
                                              "next run with the same --out\n", encoding="utf-8")

    def discard(self) -> None:
        import shutil

        shutil.rmtree(self.stage, ignore_errors=True)

    def publish(self) -> None:
        import os
        import shutil

        target = self.out_dir.resolve()
        foreign = target.is_dir() and any(target.iterdir()) and not (target / _OUT_MARKER).exists()
        lock_path = target.parent / f".{target.name}.lock"
        with open(lock_path, "a") as lock:
            try:
                import fcntl

                fcntl.flock(lock, fcntl.LOCK_EX)
            except ImportError:  # pragma: no cover - no flock on this platform: the renames alone
                pass
            old = None
            try:
                if foreign:  # --force on a folder mcda did not write: add our files, keep the rest
                    (self.stage / _OUT_MARKER).unlink()
                    blocked = sorted(p.name for p in self.stage.iterdir()
                                     if (target / p.name).is_dir() and not (target / p.name).is_symlink())
                    if blocked:  # before any file is moved: all of the output or none of it
                        raise CliError(f"--out {str(self.out_dir)!r} holds the folder(s) {shown(blocked)} where mcda "
                                       "writes files of the same names; nothing was written there. Move them, or "
                                       "choose another --out")
                    for path in self.stage.iterdir():
                        os.replace(path, target / path.name)
                    self.stage.rmdir()
                else:
                    if target.exists():
                        old = target.parent / f".{target.name}.{os.getpid()}.old"
                        os.replace(target, old)
                    os.replace(self.stage, target)
            except OSError as exc:  # named by the user's --out, not by the hidden folder it was staged in
                raise CliError(f"--out {str(self.out_dir)!r}: could not publish the output there "
                               f"({exc.strerror or exc})") from None
            finally:
                self.discard()
                try:
                    lock_path.unlink()
                except OSError:
                    pass
            if old is not None:
                shutil.rmtree(old, ignore_errors=True)


def _compare(args, stdout) -> int:
    from mcda.data.cards import UnknownMetricError
    from mcda.present.latex import comparison_to_latex
    from mcda.present.writeup import comment_escape, markdown_escape
    from mcda.app.report import Report

    data, source = _load(args)
    read_notes = list(getattr(data, "attrs", {}).get("notes", [])) if isinstance(data, pd.DataFrame) else []
    test = args.test
    if test is None:
        test = "holm" if args.control is not None else "nemenyi"
        if args.control is not None:
            read_notes.append(f"--control {args.control} without --test: Holm's step-down against {args.control} "
                              "(give --test " + ", ".join(n for n in procedure_names("posthoc", "control") if n != "holm")
                              + " for another)")
    settings = {"alpha": args.alpha, "rope": args.rope, "test": test, "control": args.control,
                "pairwise_method": args.pairwise_method or "t", "epoch_selection": args.epoch_selection,
                "missing": args.missing, "paired": not args.unpaired,
                "strict": not args.fallback_final, "signed_rank": args.signed_rank,
                "seed_distributions": args.seed_distributions,
                "plackett_luce": args.plackett_luce, "design_power": args.design_power}
    if args.no_figures and args.figures != ("auto",) and args.figures != ("none",):
        raise CliError(f"--no-figures contradicts --figures {','.join(args.figures)}; give one of them")
    if args.fallback_final and args.epoch_selection != "best_val":
        raise CliError("--fallback-final is used only with --epoch-selection best_val (the final epoch is already "
                       "what it falls back to); drop it or give --epoch-selection best_val")
    out_dir = _check_out(args.out, args.force)  # before the analysis, so a bad --out does not cost the whole run
    if args.ci_method:
        settings["ci_method"] = args.ci_method
    if args.item_test is not None:
        settings["item_test"] = args.item_test
    if args.rng is not None:
        settings["rng"] = args.rng
    if args.plackett_luce_samples is not None:
        settings["plackett_luce_samples"] = args.plackett_luce_samples
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if args.example:
            report = Report(data, scale=args.scale, **settings)
        else:
            has_metric_column = isinstance(data, pd.DataFrame) and "metric" in data.columns
            if has_metric_column and args.metric is None and data["metric"].nunique() > 1:
                raise CliError(f"{source}: the metric column holds several metrics "
                               f"({shown(pd.unique(data['metric']))}); choose the one the tests are about with --metric "
                               "(SMAA-2 and the GSD-front then weigh all of them together)")
            if args.metric is None and args.direction is None and not has_metric_column:
                raise CliError("name the metric with --metric (a card such as accuracy or ari; see `mcda cards list`) "
                               "or give --direction higher_is_better|lower_is_better")
            try:
                report = Report(data, metric=args.metric, direction=args.direction, scale=args.scale, **settings)
            except UnknownMetricError:
                raise CliError(_unknown_metric(args.metric)) from None
            del data  # the report holds the cube: the table (ten million rows of a leaderboard) is not needed
            if args.rope is None and report.card is None:
                raise CliError(f"--metric {args.metric!r} has no metric card, so there is no noise floor to use as "
                               "the rope; give --rope (0 for none)" if args.metric else
                               "without a metric card there is no noise floor to use as the rope; give --rope "
                               "(0 for none) or --metric naming a card (see `mcda cards list`)")
        seed_options = [option for option, given in (("--ci-method", args.ci_method),
                                                     ("--pairwise-method", args.pairwise_method),
                                                     ("--unpaired", args.unpaired),
                                                     ("--seed-distributions", args.seed_distributions)) if given]
        if args.item_test is not None and not report.has_items:
            raise CliError(f"--item-test {args.item_test} compares methods over the items of a test set, and these "
                           "scores have no item column (name it with --item-column)")
        if seed_options and not report.has_seeds:
            raise CliError(f"{' and '.join(seed_options)} {'apply' if len(seed_options) > 1 else 'applies'} to the "
                           "seeds within a dataset, and these scores have no seeds (one score per dataset and method); "
                           "drop it or give a seed column")
        if args.cv_runs is not None:
            if args.cv_runs < 1:
                raise CliError(f"--cv-runs must be a positive integer; got {args.cv_runs}")
            if not report.has_seeds:
                raise CliError("--cv-runs describes the folds along the seed column, and these scores have no seeds")
            report.raw.attrs["cv_runs"] = int(args.cv_runs)  # the design, read by the hierarchical view
        elif args.pairwise_method in procedure_names("seeds-cv") and report.raw.attrs.get("cv_runs") is None \
                and "run" not in report.raw.coords:   # the tests over folds read the design too
            raise CliError(f"--pairwise-method {args.pairwise_method} tests cross-validation folds and needs their "
                           "design: give --cv-runs N (the seeds are N runs of k-fold cross-validation, run after run)")
        text = report.overview()
        paper = report.text()
        ways = _missing_ways(report, args.missing)  # its warnings are the overview's, recorded once
    # The report and its cached results stay alive to the end, and so do the modules the analysis
    # imported (numba's and scipy's: a few hundred thousand objects): frozen, they are no longer
    # walked by every full collection while the figures are drawn (matplotlib makes many cycles).
    if gc.get_freeze_count():  # main froze before: the caller did not freeze objects of its own
        gc.freeze()
    stdout.write(f"source: {source}\n")
    stdout.write(text + "\n")
    notes = list(read_notes)
    for w in caught:
        message = " ".join(_in_flags(w.message).split())
        if message not in notes:  # each warning once
            notes.append(message)
    if ways:
        notes.append(ways)
    if args.example == "demsar2006":
        notes.append(_DEMSAR_NOTE)
    notes_text = ("\n== Notes\n" + "".join(f"  - {n}\n" for n in notes)) if notes else ""
    stdout.write(notes_text)

    written = []
    staged = _StagedOutput(out_dir)
    stage = staged.stage
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            bundle = stage / "report.json"
            report.to_json(bundle)
            written.append(str(bundle))
            report.to_latex(stage / "scores.tex", order=run_order(report))  # the figures' order and keys
            written.append(str(stage / "scores.tex"))
            written += _item_tables(report, stage, args.control)
            if not _one_test_set(report) and not report.compare_not_applicable():  # else the overview said why
                comparison_to_latex(report.compare(), stage / "comparison.tex")
                written.append(str(stage / "comparison.tex"))
            unwritten = []   # tables too long to read (mcda.export.PAIRWISE_MAX_ROWS): said, not written
            if report.has_seeds:
                tables = [("pairwise.tex", None)] + ([("pairwise_control.tex", args.control)]
                                                     if args.control is not None else [])
                for name, control in tables:  # with --control, "my method vs each baseline": Holm over its k-1
                    try:
                        report.pairwise_to_latex(stage / name, control=control)
                        written.append(str(stage / name))
                    except McdaArgumentError as exc:
                        if exc.argument != "result":
                            raise
                        unwritten.append(f"{name} ({exc})")
            (stage / "report.txt").write_text(f"source: {source}\n{text}\n{notes_text}", encoding="utf-8")
            written.append(str(stage / "report.txt"))
            md_notes = ("\n## Notes\n\n" + "".join(f"- {markdown_escape(n)}\n" for n in notes)) if notes else ""
            (stage / "report.md").write_text(f"<!-- source: {comment_escape(source)}; written by mcda compare -->\n"
                                             f"{paper}{md_notes}",
                                             encoding="utf-8")
            written.append(str(stage / "report.md"))
            stdout.write(f"\n== Files written to {out_dir}/\n")
            for line in unwritten:
                stdout.write(f"  not written: {' '.join(line.split())}\n")
            if unwritten and args.control is None:
                stdout.write("  (--control NAME writes pairwise_control.tex: that method against each other one)\n")
            jobs = args.jobs if args.jobs is not None else (None if args.from_python else "auto")
            written += _figures(report, stage, stdout, ("none",) if args.no_figures else args.figures, jobs=jobs,
                                cd_width=args.cd_width)
    except BaseException:
        staged.discard()
        raise
    staged.publish()
    names = sorted({Path(p).name for p in written}, key=_natural)
    stdout.write("  " + ", ".join(names) + "\n")
    stdout.write(f"  re-analyse later: mcda.Report.from_json({str(out_dir / bundle.name)!r})\n")
    return 0


def _one_test_set(report) -> bool:
    """Per-item scores of one test set: the across-dataset views do not apply (the overview says so)."""
    return getattr(report, "has_items", False) and len(report.datasets) < 2


def _item_tables(report, stage: Path, control) -> list[str]:
    """With per-item scores: the leaderboard and the paired table over items (and against --control)."""
    if not getattr(report, "has_items", False):
        return []
    from mcda.present.latex import item_leaderboard_to_latex, item_pairs_to_latex

    item_leaderboard_to_latex(report.item_leaderboard(), stage / "items_leaderboard.tex")
    item_pairs_to_latex(report.item_pairs(), stage / "items_pairs.tex")
    written = [str(stage / "items_leaderboard.tex"), str(stage / "items_pairs.tex")]
    if control is not None:
        item_pairs_to_latex(report.item_pairs(control=control), stage / "items_pairs_control.tex")
        written.append(str(stage / "items_pairs_control.tex"))
    return written


def _missing_ways(report, missing: str) -> str:
    """With --missing methods, the flags that would keep the methods the across-dataset ranking left out."""
    if missing != "methods" or _one_test_set(report):
        return ""
    try:
        excluded = {} if report.compare_not_applicable() else report.compare().excluded
    except Exception:  # the overview said why the comparison failed
        return ""
    if not excluded:
        return ""
    datasets = list(dict.fromkeys(str(d) for lacks in excluded.values() for d in lacks))
    return (f"to rank the {len(excluded)} excluded method(s) too, give --missing datasets (drops the "
            f"{len(datasets)} dataset(s) they lack: {shown(datasets, fmt=str)}) or --missing available (tests the "
            "incomplete design as it is)")


#: The kernel modules ``mcda compare`` uses, in the order it first needs them (the figures' analyses last).
KERNELS_AHEAD = ("mcda._core._kernels.design_power", "mcda._core._kernels.counts", "mcda._core._kernels.signed_rank",
                 "mcda._core._kernels.bootstrap")
KERNELS_AHEAD_FIGURES = ("mcda._core._kernels.dirichlet", "mcda._core._kernels.rank_positions")


def _compile_ahead(args) -> None:
    """On an empty numba cache, compile the kernels the analysis needs later in a forked process while
    this one reads and imports (:mod:`mcda._core._kernels._precompile`); nothing happens on a warm cache."""
    from mcda._core._kernels import _precompile

    figures = not args.no_figures and tuple(args.figures) != ("none",)
    try:
        _precompile.start(KERNELS_AHEAD + (KERNELS_AHEAD_FIGURES if figures else ()))
    except OSError:  # no fork or no pipe here: the kernels compile in this process, as they always could
        pass


class _DaskArrayType:
    """xarray's record of dask (``xarray.namedarray.pycompat``) without importing ``dask.array`` first.

    xarray asks for dask's array type (``isinstance(data, array_type("dask"))``) whenever it
    wraps data, and its record imports ``dask.array`` to answer: half a second of start-up for a
    command that reads a CSV. Nothing is a dask array before ``dask.array`` is imported, so this
    record answers with no type until then and with dask's own ``Array`` once it is imported (by
    a lazy cube, say): the same answer for every object, read afresh at every call.
    """

    available = True

    @property
    def module(self):
        import dask

        return dask

    @property
    def version(self):
        from packaging.version import Version

        return Version(self.module.__version__)

    @property
    def type(self):
        array = sys.modules.get("dask.array")
        return (array.Array,) if array is not None and hasattr(array, "Array") else ()


def _defer_dask_array() -> None:
    """Install :class:`_DaskArrayType` as xarray's record of dask, where xarray keeps one and dask is installed."""
    import importlib.util

    if "dask.array" in sys.modules or importlib.util.find_spec("dask") is None:
        return
    try:
        from xarray.namedarray import pycompat
    except ImportError:  # pragma: no cover - an xarray without that module: it imports dask.array as it does
        return
    cache = getattr(pycompat, "_cached_duck_array_modules", None)
    if isinstance(cache, dict) and "dask" not in cache and callable(getattr(pycompat, "array_type", None)):
        cache["dask"] = _DaskArrayType()


def _stop_compiling_ahead() -> None:
    module = sys.modules.get("mcda._core._kernels._precompile")
    if module is not None:
        module.stop()


def main(argv=None, *, stdout=None, stderr=None) -> int:
    """Run ``mcda`` with ``argv`` (default: the command line); returns the exit status.

    0 on success, 1 for an error in the input (one line on stderr), 2 for bad options.
    """
    stdout = stdout if stdout is not None else sys.stdout
    stderr = stderr if stderr is not None else sys.stderr
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        args.from_python = argv is not None  # then --jobs is 1 unless given (the caller may hold threads)
    except SystemExit as exc:  # --help, --version, or a usage error (argparse printed it)
        return int(exc.code or 0)
    debug = getattr(args, "debug", False)
    # What is imported so far lives to the end: frozen, out of the collector's way (see _compare);
    # not when the caller froze objects itself (their freeze is theirs to undo).
    freezing = gc.get_freeze_count() == 0
    if freezing:
        gc.freeze()
    try:
        if args.command == "cards":
            return _cards(args, stdout)
        if argv is None:  # the process's own command: kernels not yet cached compile ahead in a forked process
            _compile_ahead(args)
            _defer_dask_array()
        return _compare(args, stdout)
    except BrokenPipeError:  # e.g. `mcda cards list | head`: the reader left, nothing to report
        return 0
    except (CliError, ValueError, TypeError, KeyError, OSError) as exc:
        if debug:
            raise
        message = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
        if isinstance(exc, OSError) and getattr(exc, "filename", None) and exc.strerror:
            message = f"{exc.filename}: {exc.strerror}"
        elif args.command == "compare" and not isinstance(exc, CliError):
            message = _in_flags(exc)
        stderr.write(f"mcda {args.command}: error: {' '.join(message.split())}\n")
        return 1
    finally:
        _stop_compiling_ahead()
        if freezing and argv is None:  # the process's own command: it exits now, no need to collect first
            gc.freeze()
        elif freezing:  # called from Python: everything back in the collector's care
            gc.unfreeze()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
