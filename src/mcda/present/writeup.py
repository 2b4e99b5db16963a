"""The Methods and Results paragraphs of :meth:`mcda.Report.text`, with their BibTeX references.

Every sentence is written from the results the report computed (the same cached views the
overview and the figures read), so the paragraphs say what was done: the procedures, α, the
adjustments, the rope and where it came from, what was excluded. Nothing is computed here.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from mcda._core.results import p_text
from mcda.data.cards import better_phrase
from mcda.stats.procedures import PROCEDURES, display_name

#: Control characters (a label's newline would start a line of its own: a forged heading or row) shown as escapes.
_CONTROLS = {c: f"\\x{c:02x}" for c in [*range(0x20), 0x7f]} | {0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t"}
#: Markdown's (and pandoc's) punctuation that can start markup in running text, backslash-escaped (CommonMark
#: lets any ASCII punctuation be escaped so): emphasis, code, links and images, raw HTML and entities, table
#: cells, headings, strike-through, math and citations.
_MARKDOWN = {ord(c): "\\" + c for c in "\\`*_[]<>|#~&$@"}


def text_escape(label) -> str:
    """A label as one line of plain text: control characters (newlines, tabs, terminal escapes) shown as
    their escapes (``"a\\nb"`` → ``a\\nb``), so a label cannot forge a line of its own."""
    return str(label).translate(_CONTROLS)


def comment_escape(text) -> str:
    """Text inside an HTML comment (report.md's first line): one line (:func:`text_escape`), and no ``>``,
    so no ``-->`` ends the comment early."""
    return str(text).translate(_CONTROLS | {ord(">"): "&gt;"})


def markdown_escape(label) -> str:
    """A label in running Markdown text (as :func:`mcda.present.latex.latex_escape` for LaTeX): one line
    (:func:`text_escape`), Markdown's markup characters backslash-escaped, so it renders as the text it is."""
    return str(label).translate(_CONTROLS | _MARKDOWN)


__all__ = ["methods_and_results", "BIBTEX", "markdown_escape", "text_escape", "comment_escape", "dominance_claims"]

BIBTEX = {
    "demsar2006": """@article{demsar2006,
  author  = {Dem\\v{s}ar, Janez},
  title   = {Statistical Comparisons of Classifiers over Multiple Data Sets},
  journal = {Journal of Machine Learning Research},
  volume  = {7},
  pages   = {1--30},
  year    = {2006},
  url     = {https://jmlr.org/papers/v7/demsar06a.html}
}""",
    "friedman1937": """@article{friedman1937,
  author  = {Friedman, Milton},
  title   = {The Use of Ranks to Avoid the Assumption of Normality Implicit in the Analysis of Variance},
  journal = {Journal of the American Statistical Association},
  volume  = {32},
  number  = {200},
  pages   = {675--701},
  year    = {1937},
  doi     = {10.1080/01621459.1937.10503522}
}""",
    "iman1980": """@article{iman1980,
  author  = {Iman, Ronald L. and Davenport, James M.},
  title   = {Approximations of the Critical Region of the {F}riedman Statistic},
  journal = {Communications in Statistics -- Theory and Methods},
  volume  = {9},
  number  = {6},
  pages   = {571--595},
  year    = {1980},
  doi     = {10.1080/03610928008827904}
}""",
    "nemenyi1963": """@phdthesis{nemenyi1963,
  author = {Nemenyi, Peter B.},
  title  = {Distribution-free Multiple Comparisons},
  school = {Princeton University},
  year   = {1963}
}""",
    "holm1979": """@article{holm1979,
  author  = {Holm, Sture},
  title   = {A Simple Sequentially Rejective Multiple Test Procedure},
  journal = {Scandinavian Journal of Statistics},
  volume  = {6},
  number  = {2},
  pages   = {65--70},
  year    = {1979}
}""",
    "shaffer1986": """@article{shaffer1986,
  author  = {Shaffer, Juliet Popper},
  title   = {Modified Sequentially Rejective Multiple Test Procedures},
  journal = {Journal of the American Statistical Association},
  volume  = {81},
  number  = {395},
  pages   = {826--831},
  year    = {1986},
  doi     = {10.1080/01621459.1986.10478341}
}""",
    "bergmann1988": """@incollection{bergmann1988,
  author    = {Bergmann, Beate and Hommel, Gerhard},
  title     = {Improvements of General Multiple Test Procedures for Redundant Systems of Hypotheses},
  booktitle = {Multiple Hypothesenpr{\\"u}fung / Multiple Hypotheses Testing},
  publisher = {Springer},
  pages     = {100--115},
  year      = {1988},
  doi       = {10.1007/978-3-642-52307-6_8}
}""",
    "garcia2008": """@article{garcia2008,
  author  = {Garc{\\'i}a, Salvador and Herrera, Francisco},
  title   = {An Extension on ``Statistical Comparisons of Classifiers over Multiple Data Sets'' for all Pairwise Comparisons},
  journal = {Journal of Machine Learning Research},
  volume  = {9},
  pages   = {2677--2694},
  year    = {2008}
}""",
    "skillings1981": """@article{skillings1981,
  author  = {Skillings, John H. and Mack, Gregory A.},
  title   = {On the Use of a {F}riedman-Type Statistic in Balanced and Unbalanced Block Designs},
  journal = {Technometrics},
  volume  = {23},
  number  = {2},
  pages   = {171--177},
  year    = {1981},
  doi     = {10.1080/00401706.1981.10486261}
}""",
    "chatfield2009": """@article{chatfield2009,
  author  = {Chatfield, Mark and Mander, Adrian},
  title   = {The {S}killings--{M}ack Test ({F}riedman Test when there are Missing Data)},
  journal = {The Stata Journal},
  volume  = {9},
  number  = {2},
  pages   = {299--305},
  year    = {2009},
  doi     = {10.1177/1536867X0900900208}
}""",
    "yates1936": """@article{yates1936,
  author  = {Yates, Frank},
  title   = {Incomplete Randomized Blocks},
  journal = {Annals of Eugenics},
  volume  = {7},
  number  = {2},
  pages   = {121--140},
  year    = {1936},
  doi     = {10.1111/j.1469-1809.1936.tb02134.x}
}""",
    "durbin1951": """@article{durbin1951,
  author  = {Durbin, James},
  title   = {Incomplete Blocks in Ranking Experiments},
  journal = {British Journal of Statistical Psychology},
  volume  = {4},
  number  = {2},
  pages   = {85--90},
  year    = {1951},
  doi     = {10.1111/j.2044-8317.1951.tb00310.x}
}""",
    "conover1999": """@book{conover1999,
  author    = {Conover, W. J.},
  title     = {Practical Nonparametric Statistics},
  edition   = {3},
  publisher = {Wiley},
  year      = {1999}
}""",
    "benavoli2017": """@article{benavoli2017,
  author  = {Benavoli, Alessio and Corani, Giorgio and Dem\\v{s}ar, Janez and Zaffalon, Marco},
  title   = {Time for a Change: a Tutorial for Comparing Multiple Classifiers Through {B}ayesian Analysis},
  journal = {Journal of Machine Learning Research},
  volume  = {18},
  number  = {77},
  pages   = {1--36},
  year    = {2017}
}""",
    "schuirmann1987": """@article{schuirmann1987,
  author  = {Schuirmann, Donald J.},
  title   = {A Comparison of the Two One-Sided Tests Procedure and the Power Approach for Assessing the Equivalence of Average Bioavailability},
  journal = {Journal of Pharmacokinetics and Biopharmaceutics},
  volume  = {15},
  number  = {6},
  pages   = {657--680},
  year    = {1987},
  doi     = {10.1007/BF01068419}
}""",
    "welch1947": """@article{welch1947,
  author  = {Welch, B. L.},
  title   = {The Generalization of ``{S}tudent's'' Problem when Several Different Population Variances are Involved},
  journal = {Biometrika},
  volume  = {34},
  number  = {1--2},
  pages   = {28--35},
  year    = {1947},
  doi     = {10.1093/biomet/34.1-2.28}
}""",
    "mann1947": """@article{mann1947,
  author  = {Mann, H. B. and Whitney, D. R.},
  title   = {On a Test of Whether one of Two Random Variables is Stochastically Larger than the Other},
  journal = {Annals of Mathematical Statistics},
  volume  = {18},
  number  = {1},
  pages   = {50--60},
  year    = {1947},
  doi     = {10.1214/aoms/1177730491}
}""",
    "wilcoxon1945": """@article{wilcoxon1945,
  author  = {Wilcoxon, Frank},
  title   = {Individual Comparisons by Ranking Methods},
  journal = {Biometrics Bulletin},
  volume  = {1},
  number  = {6},
  pages   = {80--83},
  year    = {1945},
  doi     = {10.2307/3001968}
}""",
    "siegel1988": """@book{siegel1988,
  author    = {Siegel, Sidney and Castellan, N. John},
  title     = {Nonparametric Statistics for the Behavioral Sciences},
  edition   = {2},
  publisher = {McGraw-Hill},
  year      = {1988}
}""",
    "miller1966": """@book{miller1966,
  author    = {Miller, Rupert G.},
  title     = {Simultaneous Statistical Inference},
  publisher = {McGraw-Hill},
  year      = {1966}
}""",
    "dunn1961": """@article{dunn1961,
  author  = {Dunn, Olive Jean},
  title   = {Multiple Comparisons among Means},
  journal = {Journal of the American Statistical Association},
  volume  = {56},
  number  = {293},
  pages   = {52--64},
  year    = {1961},
  doi     = {10.1080/01621459.1961.10482090}
}""",
    "hochberg1988": """@article{hochberg1988,
  author  = {Hochberg, Yosef},
  title   = {A Sharper {B}onferroni Procedure for Multiple Tests of Significance},
  journal = {Biometrika},
  volume  = {75},
  number  = {4},
  pages   = {800--802},
  year    = {1988},
  doi     = {10.1093/biomet/75.4.800}
}""",
    "hommel1988": """@article{hommel1988,
  author  = {Hommel, Gerhard},
  title   = {A Stagewise Rejective Multiple Test Procedure Based on a Modified {B}onferroni Test},
  journal = {Biometrika},
  volume  = {75},
  number  = {2},
  pages   = {383--386},
  year    = {1988},
  doi     = {10.1093/biomet/75.2.383}
}""",
    "holland1987": """@article{holland1987,
  author  = {Holland, Burt S. and Copenhaver, Margaret DiPonzio},
  title   = {An Improved Sequentially Rejective {B}onferroni Test Procedure},
  journal = {Biometrics},
  volume  = {43},
  number  = {2},
  pages   = {417--423},
  year    = {1987},
  doi     = {10.2307/2531823}
}""",
    "finner1993": """@article{finner1993,
  author  = {Finner, Helmut},
  title   = {On a Monotonicity Problem in Step-Down Multiple Test Procedures},
  journal = {Journal of the American Statistical Association},
  volume  = {88},
  number  = {423},
  pages   = {920--923},
  year    = {1993},
  doi     = {10.1080/01621459.1993.10476358}
}""",
    "li2008": """@article{li2008,
  author  = {Li, Jianjun David},
  title   = {A Two-Step Rejection Procedure for Testing Multiple Hypotheses},
  journal = {Journal of Statistical Planning and Inference},
  volume  = {138},
  number  = {6},
  pages   = {1521--1527},
  year    = {2008},
  doi     = {10.1016/j.jspi.2007.04.032}
}""",
    "rom1990": """@article{rom1990,
  author  = {Rom, Dror M.},
  title   = {A Sequentially Rejective Test Procedure Based on a Modified {B}onferroni Inequality},
  journal = {Biometrika},
  volume  = {77},
  number  = {3},
  pages   = {663--665},
  year    = {1990},
  doi     = {10.1093/biomet/77.3.663}
}""",
    "garcia2010": """@article{garcia2010,
  author  = {Garc{\\'i}a, Salvador and Fern{\\'a}ndez, Alberto and Luengo, Juli{\\'a}n and Herrera, Francisco},
  title   = {Advanced Nonparametric Tests for Multiple Comparisons in the Design of Experiments in
             Computational Intelligence and Data Mining: Experimental Analysis of Power},
  journal = {Information Sciences},
  volume  = {180},
  number  = {10},
  pages   = {2044--2064},
  year    = {2010},
  doi     = {10.1016/j.ins.2009.12.010}
}""",
    "sidak1967": """@article{sidak1967,
  author  = {\\v{S}id{\\'a}k, Zbyn{\\v{e}}k},
  title   = {Rectangular Confidence Regions for the Means of Multivariate Normal Distributions},
  journal = {Journal of the American Statistical Association},
  volume  = {62},
  number  = {318},
  pages   = {626--633},
  year    = {1967},
  doi     = {10.1080/01621459.1967.10482935}
}""",
    "benjamini1995": """@article{benjamini1995,
  author  = {Benjamini, Yoav and Hochberg, Yosef},
  title   = {Controlling the False Discovery Rate: A Practical and Powerful Approach to Multiple Testing},
  journal = {Journal of the Royal Statistical Society: Series B (Methodological)},
  volume  = {57},
  number  = {1},
  pages   = {289--300},
  year    = {1995},
  doi     = {10.1111/j.2517-6161.1995.tb02031.x}
}""",
    "benjamini2001": """@article{benjamini2001,
  author  = {Benjamini, Yoav and Yekutieli, Daniel},
  title   = {The Control of the False Discovery Rate in Multiple Testing under Dependency},
  journal = {The Annals of Statistics},
  volume  = {29},
  number  = {4},
  pages   = {1165--1188},
  year    = {2001},
  doi     = {10.1214/aos/1013699998}
}""",
    "hochberg1987": """@book{hochberg1987,
  author    = {Hochberg, Yosef and Tamhane, Ajit C.},
  title     = {Multiple Comparison Procedures},
  publisher = {Wiley},
  address   = {New York},
  year      = {1987}
}""",
    "hodges1962": """@article{hodges1962,
  author  = {Hodges, J. L. and Lehmann, E. L.},
  title   = {Rank Methods for Combination of Independent Experiments in Analysis of Variance},
  journal = {Annals of Mathematical Statistics},
  volume  = {33},
  number  = {2},
  pages   = {482--497},
  year    = {1962},
  doi     = {10.1214/aoms/1177704575}
}""",
    "quade1979": """@article{quade1979,
  author  = {Quade, Dana},
  title   = {Using Weighted Rankings in the Analysis of Complete Blocks with Additive Block Effects},
  journal = {Journal of the American Statistical Association},
  volume  = {74},
  number  = {367},
  pages   = {680--683},
  year    = {1979},
  doi     = {10.1080/01621459.1979.10481670}
}""",
    "dixon1946": """@article{dixon1946,
  author  = {Dixon, W. J. and Mood, A. M.},
  title   = {The Statistical Sign Test},
  journal = {Journal of the American Statistical Association},
  volume  = {41},
  number  = {236},
  pages   = {557--566},
  year    = {1946},
  doi     = {10.1080/01621459.1946.10501898}
}""",
    "student1908": """@article{student1908,
  author  = {{Student}},
  title   = {The Probable Error of a Mean},
  journal = {Biometrika},
  volume  = {6},
  number  = {1},
  pages   = {1--25},
  year    = {1908},
  doi     = {10.1093/biomet/6.1.1}
}""",
    "benavoli2014": """@inproceedings{benavoli2014,
  author    = {Benavoli, Alessio and Corani, Giorgio and Mangili, Francesca and Zaffalon, Marco and Ruggeri, Fabrizio},
  title     = {A {B}ayesian {W}ilcoxon Signed-Rank Test Based on the {D}irichlet Process},
  booktitle = {Proceedings of the 31st International Conference on Machine Learning},
  series    = {Proceedings of Machine Learning Research},
  volume    = {32},
  number    = {2},
  pages     = {1026--1034},
  year      = {2014}
}""",
    "corani2015": """@article{corani2015,
  author  = {Corani, Giorgio and Benavoli, Alessio},
  title   = {A {B}ayesian Approach for Comparing Cross-Validated Algorithms on Multiple Data Sets},
  journal = {Machine Learning},
  volume  = {100},
  number  = {2--3},
  pages   = {285--304},
  year    = {2015},
  doi     = {10.1007/s10994-015-5486-z}
}""",
    "nadeau2003": """@article{nadeau2003,
  author  = {Nadeau, Claude and Bengio, Yoshua},
  title   = {Inference for the Generalization Error},
  journal = {Machine Learning},
  volume  = {52},
  number  = {3},
  pages   = {239--281},
  year    = {2003},
  doi     = {10.1023/A:1024068626366}
}""",
    "corani2017": """@article{corani2017,
  author  = {Corani, Giorgio and Benavoli, Alessio and Dem\\v{s}ar, Janez and Mangili, Francesca and Zaffalon, Marco},
  title   = {Statistical Comparison of Classifiers through {B}ayesian Hierarchical Modelling},
  journal = {Machine Learning},
  volume  = {106},
  number  = {11},
  pages   = {1817--1837},
  year    = {2017},
  doi     = {10.1007/s10994-017-5641-9}
}""",
    "calvo2018": """@inproceedings{calvo2018,
  author    = {Calvo, Borja and Ceberio, Josu and Lozano, Jose A.},
  title     = {{B}ayesian Inference for Algorithm Ranking Analysis},
  booktitle = {Proceedings of the Genetic and Evolutionary Computation Conference Companion (GECCO '18)},
  pages     = {324--325},
  year      = {2018},
  doi       = {10.1145/3205651.3205658}
}""",
    # the GSD-front (mcda.gsd_front)
    "jansen2024gsd": """@inproceedings{jansen2024gsd,
  author    = {Jansen, Christoph and Schollmeyer, Georg and Rodemann, Julian and Blocher, Hannah and Augustin, Thomas},
  title     = {Statistical Multicriteria Benchmarking via the {GSD}-Front},
  booktitle = {Advances in Neural Information Processing Systems 37 (NeurIPS 2024)},
  year      = {2024},
  eprint    = {2406.03924},
  archivePrefix = {arXiv}
}""",
    "jansen2023robust": """@inproceedings{jansen2023robust,
  author    = {Jansen, Christoph and Schollmeyer, Georg and Blocher, Hannah and Rodemann, Julian and Augustin, Thomas},
  title     = {Robust Statistical Comparison of Random Variables with Locally Varying Scale of Measurement},
  booktitle = {Proceedings of the Thirty-Ninth Conference on Uncertainty in Artificial Intelligence},
  series    = {Proceedings of Machine Learning Research},
  volume    = {216},
  pages     = {941--952},
  year      = {2023}
}""",
    # SMAA-2 (mcda.smaa)
    "lahdelma2001": """@article{lahdelma2001,
  author  = {Lahdelma, Risto and Salminen, Pekka},
  title   = {{SMAA-2}: Stochastic Multicriteria Acceptability Analysis for Group Decision Making},
  journal = {Operations Research},
  volume  = {49},
  number  = {3},
  pages   = {444--454},
  year    = {2001},
  doi     = {10.1287/opre.49.3.444.11220}
}""",
    "tervonen2008": """@article{tervonen2008,
  author  = {Tervonen, Tommi and Figueira, Jos{\'e} Rui},
  title   = {A Survey on Stochastic Multicriteria Acceptability Analysis Methods},
  journal = {Journal of Multi-Criteria Decision Analysis},
  volume  = {15},
  number  = {1--2},
  pages   = {1--14},
  year    = {2008},
  doi     = {10.1002/mcda.407}
}""",
    "delbarrio2018": """@incollection{delbarrio2018,
  author    = {del Barrio, Eustasio and Cuesta-Albertos, Juan A. and Matr{\\'a}n, Carlos},
  title     = {An Optimal Transportation Approach for Assessing Almost Stochastic Order},
  booktitle = {The Mathematics of the Uncertain},
  publisher = {Springer},
  pages     = {33--44},
  year      = {2018},
  doi       = {10.1007/978-3-319-73848-2_3}
}""",
    "dror2019": """@inproceedings{dror2019,
  author    = {Dror, Rotem and Shlomov, Segev and Reichart, Roi},
  title     = {Deep Dominance -- How to Properly Compare Deep Neural Models},
  booktitle = {Proceedings of the 57th Annual Meeting of the Association for Computational Linguistics},
  pages     = {2773--2785},
  year      = {2019},
  doi       = {10.18653/v1/P19-1266}
}""",
    "ulmer2022": """@inproceedings{ulmer2022,
  author    = {Ulmer, Dennis and Hardmeier, Christian and Frellsen, Jes},
  title     = {deep-significance: Easy and Meaningful Significance Testing in the Age of Neural Networks},
  booktitle = {ML Evaluation Standards Workshop at the Tenth International Conference on Learning Representations},
  year      = {2022},
  url       = {https://arxiv.org/abs/2204.06815}
}""",
    "dror2017": """@article{dror2017,
  author  = {Dror, Rotem and Baumer, Gili and Bogomolov, Marina and Reichart, Roi},
  title   = {Replicability Analysis for Natural Language Processing: Testing Significance with Multiple Datasets},
  journal = {Transactions of the Association for Computational Linguistics},
  volume  = {5},
  pages   = {471--486},
  year    = {2017},
  doi     = {10.1162/tacl_a_00074}
}""",
    "benjamini2008": """@article{benjamini2008,
  author  = {Benjamini, Yoav and Heller, Ruth},
  title   = {Screening for Partial Conjunction Hypotheses},
  journal = {Biometrics},
  volume  = {64},
  number  = {4},
  pages   = {1215--1222},
  year    = {2008},
  doi     = {10.1111/j.1541-0420.2007.00984.x}
}""",
    "fisher1932": """@book{fisher1932,
  author    = {Fisher, Ronald A.},
  title     = {Statistical Methods for Research Workers},
  edition   = {4},
  publisher = {Oliver and Boyd},
  address   = {Edinburgh},
  year      = {1932}
}""",
    "stouffer1949": """@book{stouffer1949,
  author    = {Stouffer, Samuel A. and Suchman, Edward A. and DeVinney, Leland C. and Star, Shirley A. and Williams, Robin M.},
  title     = {The American Soldier, Vol. 1: Adjustment during Army Life},
  publisher = {Princeton University Press},
  address   = {Princeton},
  year      = {1949}
}""",
    "dersimonian1986": """@article{dersimonian1986,
  author  = {DerSimonian, Rebecca and Laird, Nan},
  title   = {Meta-Analysis in Clinical Trials},
  journal = {Controlled Clinical Trials},
  volume  = {7},
  number  = {3},
  pages   = {177--188},
  year    = {1986},
  doi     = {10.1016/0197-2456(86)90046-2}
}""",
    "paule1982": """@article{paule1982,
  author  = {Paule, Robert C. and Mandel, John},
  title   = {Consensus Values and Weighting Factors},
  journal = {Journal of Research of the National Bureau of Standards},
  volume  = {87},
  number  = {5},
  pages   = {377--385},
  year    = {1982},
  doi     = {10.6028/jres.087.022}
}""",
    "viechtbauer2005": """@article{viechtbauer2005,
  author  = {Viechtbauer, Wolfgang},
  title   = {Bias and Efficiency of Meta-Analytic Variance Estimators in the Random-Effects Model},
  journal = {Journal of Educational and Behavioral Statistics},
  volume  = {30},
  number  = {3},
  pages   = {261--293},
  year    = {2005},
  doi     = {10.3102/10769986030003261}
}""",
    "higgins2009": """@article{higgins2009,
  author  = {Higgins, Julian P. T. and Thompson, Simon G. and Spiegelhalter, David J.},
  title   = {A Re-Evaluation of Random-Effects Meta-Analysis},
  journal = {Journal of the Royal Statistical Society: Series A},
  volume  = {172},
  number  = {1},
  pages   = {137--159},
  year    = {2009},
  doi     = {10.1111/j.1467-985X.2008.00552.x}
}""",
    "higgins2002": """@article{higgins2002,
  author  = {Higgins, Julian P. T. and Thompson, Simon G.},
  title   = {Quantifying Heterogeneity in a Meta-Analysis},
  journal = {Statistics in Medicine},
  volume  = {21},
  number  = {11},
  pages   = {1539--1558},
  year    = {2002},
  doi     = {10.1002/sim.1186}
}""",
    "good2005": """@book{good2005,
  author    = {Good, Phillip},
  title     = {Permutation, Parametric and Bootstrap Tests of Hypotheses},
  edition   = {3},
  publisher = {Springer},
  year      = {2005},
  doi       = {10.1007/b138696}
}""",
    "phipson2010": """@article{phipson2010,
  author  = {Phipson, Belinda and Smyth, Gordon K.},
  title   = {Permutation {P}-values Should Never Be Zero: Calculating Exact {P}-values When Permutations Are Randomly Drawn},
  journal = {Statistical Applications in Genetics and Molecular Biology},
  volume  = {9},
  number  = {1},
  year    = {2010},
  doi     = {10.2202/1544-6115.1585}
}""",
    "efron1987": """@article{efron1987,
  author  = {Efron, Bradley},
  title   = {Better Bootstrap Confidence Intervals},
  journal = {Journal of the American Statistical Association},
  volume  = {82},
  number  = {397},
  pages   = {171--185},
  year    = {1987},
  doi     = {10.1080/01621459.1987.10478410}
}""",
    "field2007": """@article{field2007,
  author  = {Field, Christopher A. and Welsh, Alan H.},
  title   = {Bootstrapping Clustered Data},
  journal = {Journal of the Royal Statistical Society: Series B},
  volume  = {69},
  number  = {3},
  pages   = {369--390},
  year    = {2007},
  doi     = {10.1111/j.1467-9868.2007.00593.x}
}""",
    "bouckaert2004": """@inproceedings{bouckaert2004,
  author    = {Bouckaert, Remco R. and Frank, Eibe},
  title     = {Evaluating the Replicability of Significance Tests for Comparing Learning Algorithms},
  booktitle = {Advances in Knowledge Discovery and Data Mining (PAKDD 2004)},
  series    = {Lecture Notes in Computer Science},
  volume    = {3056},
  pages     = {3--12},
  year      = {2004},
  doi       = {10.1007/978-3-540-24775-3_3}
}""",
    "dietterich1998": """@article{dietterich1998,
  author  = {Dietterich, Thomas G.},
  title   = {Approximate Statistical Tests for Comparing Supervised Classification Learning Algorithms},
  journal = {Neural Computation},
  volume  = {10},
  number  = {7},
  pages   = {1895--1923},
  year    = {1998},
  doi     = {10.1162/089976698300017197}
}""",
    "alpaydin1999": """@article{alpaydin1999,
  author  = {Alpayd{\\i}n, Ethem},
  title   = {Combined 5 $\\times$ 2 cv {F} Test for Comparing Supervised Classification Learning Algorithms},
  journal = {Neural Computation},
  volume  = {11},
  number  = {8},
  pages   = {1885--1892},
  year    = {1999},
  doi     = {10.1162/089976699300016007}
}""",
    "hoenig2001": """@article{hoenig2001,
  author  = {Hoenig, John M. and Heisey, Dennis M.},
  title   = {The Abuse of Power: The Pervasive Fallacy of Power Calculations for Data Analysis},
  journal = {The American Statistician},
  volume  = {55},
  number  = {1},
  pages   = {19--24},
  year    = {2001},
  doi     = {10.1198/000313001300339897}
}""",
    "lehmann1975": """@book{lehmann1975,
  author    = {Lehmann, Erich L.},
  title     = {Nonparametrics: Statistical Methods Based on Ranks},
  publisher = {Holden-Day},
  address   = {San Francisco},
  year      = {1975}
}""",
    "mogstad2024": """@article{mogstad2024,
  author  = {Mogstad, Magne and Romano, Joseph P. and Shaikh, Azeem M. and Wilhelm, Daniel},
  title   = {Inference for Ranks with Applications to Mobility across Neighbourhoods and Academic Achievement
             across Countries},
  journal = {Review of Economic Studies},
  volume  = {91},
  number  = {1},
  pages   = {476--518},
  year    = {2024},
  doi     = {10.1093/restud/rdad006}
}""",
    "miller2024": """@misc{miller2024,
  author        = {Miller, Evan},
  title         = {Adding Error Bars to Evals: A Statistical Approach to Language Model Evaluations},
  year          = {2024},
  eprint        = {2411.00640},
  archivePrefix = {arXiv},
  doi           = {10.48550/arXiv.2411.00640}
}""",
    "cameron2015": """@article{cameron2015,
  author  = {Cameron, A. Colin and Miller, Douglas L.},
  title   = {A Practitioner's Guide to Cluster-Robust Inference},
  journal = {Journal of Human Resources},
  volume  = {50},
  number  = {2},
  pages   = {317--372},
  year    = {2015},
  doi     = {10.3368/jhr.50.2.317}
}""",
    "wilson1927": """@article{wilson1927,
  author  = {Wilson, Edwin B.},
  title   = {Probable Inference, the Law of Succession, and Statistical Inference},
  journal = {Journal of the American Statistical Association},
  volume  = {22},
  number  = {158},
  pages   = {209--212},
  year    = {1927},
  doi     = {10.1080/01621459.1927.10502953}
}""",
    "clopper1934": """@article{clopper1934,
  author  = {Clopper, C. J. and Pearson, E. S.},
  title   = {The Use of Confidence or Fiducial Limits Illustrated in the Case of the Binomial},
  journal = {Biometrika},
  volume  = {26},
  number  = {4},
  pages   = {404--413},
  year    = {1934},
  doi     = {10.1093/biomet/26.4.404}
}""",
    "mcnemar1947": """@article{mcnemar1947,
  author  = {McNemar, Quinn},
  title   = {Note on the Sampling Error of the Difference Between Correlated Proportions or Percentages},
  journal = {Psychometrika},
  volume  = {12},
  number  = {2},
  pages   = {153--157},
  year    = {1947},
  doi     = {10.1007/BF02295996}
}""",
    "fagerland2013": """@article{fagerland2013,
  author  = {Fagerland, Morten W. and Lydersen, Stian and Laake, Petter},
  title   = {The {McNemar} Test for Binary Matched-Pairs Data: Mid-p and Asymptotic Are Better than Exact
             Conditional},
  journal = {BMC Medical Research Methodology},
  volume  = {13},
  pages   = {91},
  year    = {2013},
  doi     = {10.1186/1471-2288-13-91}
}""",
    "liang1986": """@article{liang1986,
  author  = {Liang, Kung-Yee and Zeger, Scott L.},
  title   = {Longitudinal Data Analysis Using Generalized Linear Models},
  journal = {Biometrika},
  volume  = {73},
  number  = {1},
  pages   = {13--22},
  year    = {1986},
  doi     = {10.1093/biomet/73.1.13}
}""",
    "cochran1950": """@article{cochran1950,
  author  = {Cochran, William G.},
  title   = {The Comparison of Percentages in Matched Samples},
  journal = {Biometrika},
  volume  = {37},
  number  = {3/4},
  pages   = {256--266},
  year    = {1950},
  doi     = {10.1093/biomet/37.3-4.256}
}""",
}

def _display(name) -> str:
    return display_name(name)


def _primary(name) -> tuple[str, ...]:
    """The first BibTeX key of a registered adjustment (its original paper; none for None)."""
    return PROCEDURES[name].references[:1] if name in PROCEDURES else ()


def _posthoc_words(name) -> tuple[str, list[str]]:
    """The methods sentence's phrase and BibTeX keys of a registered post-hoc (the name itself otherwise)."""
    entry = PROCEDURES.get(str(name))
    return (entry.words, list(entry.references)) if entry is not None else (str(name), [])


def _incomplete_posthoc(comparison, cite) -> str:
    """The post-hoc of an incomplete design in the methods sentence: its words, its adjustment, its citations."""
    words, keys = _posthoc_words(comparison.posthoc_test)
    adjusted = f", {_display(comparison.adjust)}-adjusted" if comparison.adjust else ""
    against = f" against {markdown_escape(comparison.control)}, chosen beforehand," if comparison.control else ""
    return f"{words}{against} {cite(*keys)}{adjusted}" if keys else f"{words}{against}{adjusted}"


def _prob(row, region: str) -> float:
    """P(region) of a Bayesian table row, whichever column prefix the table uses."""
    for name in (f"prob_{region}", f"p_{region}"):
        if hasattr(row, name):
            return float(getattr(row, name))
    raise AttributeError(region)


def _p_eq(value: float) -> str:
    """``p = 0.002`` / ``p = 6.9e-143``, or ``p < 1e-307`` where the p-value underflowed."""
    if value is None or not np.isfinite(value):
        return "p = n/a"  # as the report's texts always said
    return p_text(value, ".2g" if value is not None and np.isfinite(value) and value < 0.001 else ".3f")


def bayes_claims(result) -> list[tuple[str, str, float, str]]:
    """(better, worse, P, label) for every decided pair (label 'better' or 'equivalent').

    A pair is decided when the result labelled it: the posterior probability of one region (one
    method better, practically equivalent, the other better) reaches the result's threshold. This
    is the one meaning of "decided" every sentence uses (:class:`BayesDecisions`).
    """
    out = []
    for r in result.to_frame().itertuples(index=False):
        label = str(r.label)
        if label == "a_better":
            out.append((r.method_a, r.method_b, _prob(r, "a_better"), "better"))
        elif label == "b_better":
            out.append((r.method_b, r.method_a, _prob(r, "b_better"), "better"))
        elif label == "equivalent":
            out.append((r.method_a, r.method_b, _prob(r, "equivalent"), "equivalent"))
    return out


class BayesDecisions:
    """What a Bayesian pairwise result decided, computed once from its labels, for every sentence that counts it.

    ``claims`` are :func:`bayes_claims`; ``total`` the result's pairs; ``n_inconclusive`` and
    ``n_not_applicable`` the others; ``threshold`` the probability a region must reach; ``rope`` the
    result's region of practical equivalence.
    """

    def __init__(self, result):
        self.claims = bayes_claims(result)
        labels = result.to_frame()["label"].astype(str)
        self.total = int(len(labels))
        self.n_inconclusive = int((labels == "inconclusive").sum())
        self.n_not_applicable = int((labels == "not_applicable").sum())
        self.threshold = float(result.threshold)
        self.rope = float(result.rope)
        self.better = [(a, b, p) for a, b, p, kind in self.claims if kind == "better"]
        self.equivalent = [(a, b, p) for a, b, p, kind in self.claims if kind == "equivalent"]

    def counts(self) -> str:
        """``"3 of 10 pairs (2 with one method better, 1 practically equivalent)"``."""
        return (f"{len(self.claims)} of {self.total} pairs ({len(self.better)} with one method better, "
                f"{len(self.equivalent)} practically equivalent)")


def _family(comparison):
    """(tested pairs as frozensets, separated (better, worse) pairs, control) of the post-hoc, from its pair decisions."""
    if comparison is None or comparison.posthoc is None:
        return frozenset(), [], None
    frame = comparison.pair_decisions()
    tested = frozenset(frozenset((str(r.method_a), str(r.method_b))) for r in frame.itertuples(index=False))
    return tested, _separated_pairs(comparison), frame.attrs.get("control")


def all_separated(comparison) -> bool:
    """Whether the across-dataset procedure separated every pair it tested (then no "not separated" result
    needs the difference the design could have detected beside it)."""
    tested, separated, _ = _family(comparison)
    return comparison is not None and comparison.posthoc is not None and len(separated) == len(tested) > 0


def _listing(items, limit: int) -> str:
    items = list(items)
    text = "; ".join(items[:limit])
    return text + (f"; and {len(items) - limit} more" if len(items) > limit else "")


def _separated_pairs(comparison) -> list[tuple[str, str]]:
    """(better, worse) for every pair the post-hoc separated (the side its decision favours)."""
    if comparison is None or comparison.posthoc is None:
        return []
    frame = comparison.pair_decisions()
    out = []
    for r in frame[frame["significant"].astype(bool)].itertuples(index=False):
        worse = r.method_b if r.better == r.method_a else r.method_a
        out.append((str(r.better), str(worse)))
    return out


def replication_sentences(report, cited, md, max_pairs: int) -> tuple[str, str]:
    """The Methods and Results sentences of replicability and the meta-analysis across datasets (a report with seeds)."""
    rep = report.replicability()
    meta = report.meta_analysis()
    level = f"{meta.confidence_level * 100:g}%"
    methods = (f"To say on how many datasets a method beats another, one-sided {PROCEDURES[rep.test].words} over "
               f"the seeds of each dataset {cited(rep.test)} entered {PROCEDURES[rep.method].words} "
               f"{cited(rep.method)}, whose count k̂ "
               f"overstates no claim with probability above α = {rep.alpha:g} ({PROCEDURES[rep.adjust].words} over the "
               f"{rep.n_comparisons} ordered claims {cited(rep.adjust)}). Each pair's per-dataset mean difference over "
               f"seeds, with its standard error, entered {PROCEDURES[meta.method].words} {cited(meta.method)}, giving "
               f"τ², I², a {level} interval for the mean difference and a {level} prediction interval for a new dataset "
               f"(t on k − 2 degrees of freedom), with {PROCEDURES['stouffer'].words} {cited('stouffer')} and "
               f"{PROCEDURES['fisher-combination'].words} {cited('fisher-combination')} beside it.")
    claims = rep.to_frame()
    supported = claims[claims["n_replicated"] > 0].sort_values("n_replicated", ascending=False, kind="stable")
    texts = [f"{md(r.method_a)} beats {md(r.method_b)} on at least {r.n_replicated} of {r.n_datasets}"
             for r in supported.itertuples(index=False)]
    results = (f"Replicability: {len(supported)} of {len(claims)} claims hold on at least one dataset"
               + (": " + _listing(texts, max_pairs) if texts else "") + ".")
    pairs = meta.to_frame()
    fitted = pairs[np.isfinite(pairs["standard_error"].to_numpy(dtype=float))]
    if len(fitted):
        excludes = fitted[(fitted["prediction_low"] > 0) | (fitted["prediction_high"] < 0)]
        widest = fitted.loc[fitted["i2"].idxmax()]
        results += (f" In the meta-analysis, {int((fitted['p_raw'] <= rep.alpha).sum())} of {len(fitted)} pairs have a "
                    f"mean difference significant at α = {rep.alpha:g}, and for {len(excludes)} the prediction interval "
                    f"for a new dataset excludes 0; the largest heterogeneity is {md(widest['method_a'])} vs "
                    f"{md(widest['method_b'])} (I² = {widest['i2']:.0%}, τ² = {widest['tau2']:.3g}).")
    return methods, results


def methods_and_results(report, *, max_pairs: int = 12) -> tuple[str, str, str, list[str]]:
    """(methods paragraph, results paragraph, reading paragraph, BibTeX keys used)."""
    from mcda import __version__

    md = markdown_escape  # every label written into the Markdown

    cites: list[str] = []

    def cite(*keys) -> str:
        for k in keys:
            if k not in cites:
                cites.append(k)
        return "[" + "; ".join(f"@{k}" for k in keys) + "]"

    def cited(*procedures) -> str:
        """The citation of registered procedures: their entries' BibTeX keys, each once."""
        return cite(*dict.fromkeys(k for name in procedures for k in PROCEDURES[name].references))

    def phrase(name) -> str:
        return PROCEDURES[name].words

    card = report.card
    name = report.metric_name(long=True)
    better = better_phrase(report.direction)
    cube = report.cube
    n_datasets, n_methods = cube.sizes["dataset"], cube.sizes["method"]
    rope = report.rope_value()
    alpha = report.alpha
    if report.settings["rope"] is None and card is not None:
        rope_words = (f"±{rope:g}, the noise floor of the {md(card.name)} metric card"
                      + (f" ({card.noise_floor_justification[0].lower()}{card.noise_floor_justification[1:].rstrip('.')})"
                         if card.noise_floor_justification else ""))
    else:
        rope_words = f"±{rope:g}, set by the analyst"
    factor = getattr(report, "scale_factor", 1.0)
    if factor != 1.0:  # the scores were converted on reading: the rope in the units they were given in too
        rope_words += f" (±{rope * factor:g} in the units of the scores as given)"

    methods = [f"We compared {n_methods} methods on {n_datasets} datasets by {md(name)} ({better})."]
    scale = report.raw.attrs.get("scale")
    if scale:
        methods.append(f"Scores were converted on reading ({scale}), so the card's range and noise floor apply.")
    items = _items_paragraphs(report, cite, md, max_pairs) if getattr(report, "has_items", False) else None
    if items is not None:
        methods.append(items[0])
        if n_datasets < 2:   # one test set: the comparison over its items is the whole analysis
            methods.append(f"Analyses used mcda {__version__} (random seed {report.rng}).")
            return " ".join(methods), items[1], items[2], cites
    n_missing = len(report.missing_cells())
    if "seed" in cube.dims:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            used = report.across_cube.coords["n_seeds"].values
        full = int(used.max()) if used.size else 0
        short = int(((used > 0) & (used < full)).sum())
        lost = ""
        if short:
            lost = (f" ({short} cells that lost seeds were reduced over the seeds they had)" if short != 1 else
                    " (1 cell that lost seeds was reduced over the seeds it had)")
        methods.append(f"Each method was run with {full} seeds per dataset; for the comparisons across "
                       f"datasets the seeds of each (dataset, method) cell were reduced by their "
                       f"{report.seed_reduction}{lost}.")
    if n_missing:
        methods.append(f"{n_missing} (dataset, method) cell{'s have' if n_missing != 1 else ' has'} no result; "
                       "nothing was imputed.")

    why_not = report.compare_not_applicable()
    comparison = None if why_not else report.compare()
    if comparison is None:
        methods.append(f"The rank-based comparison across datasets does not apply here: {why_not}")
    else:
        if comparison.design == "complete":
            what = (f"Methods were ranked within each dataset (rank 1 = best, ties averaged) and their mean ranks "
                    f"compared with {phrase('friedman')} {cited('friedman')}, reporting χ²_F without "
                    f"the tie correction and deciding with {phrase('iman-davenport')} {cited('iman-davenport')} at "
                    f"α = {alpha:g}")
            if comparison.excluded:
                what += (f"; {len(comparison.excluded)} method{'s' if len(comparison.excluded) != 1 else ''} "
                         "lacking results on some datasets "
                         f"({', '.join(f'{md(m)}: {len(v)} dataset' + ('s' if len(v) != 1 else '') for m, v in comparison.excluded.items())}) "
                         + ("were left out of this test (they appear in the pairwise comparisons on the datasets "
                            "they have)" if len(comparison.excluded) != 1 else "was left out of this test (it appears "
                            "in the pairwise comparisons on the datasets it has)"))
            if comparison.excluded_datasets:
                what += (f"; the {len(comparison.excluded_datasets)} dataset"
                         f"{'s' if len(comparison.excluded_datasets) != 1 else ''} lacking a result for some method "
                         f"{'were' if len(comparison.excluded_datasets) != 1 else 'was'} left out of this test")
            methods.append(what + ".")
            test = comparison.test
            words, keys = _posthoc_words(test)
            against = f" against {md(comparison.control)}, chosen beforehand," if comparison.control else ""
            methods.append(f"Only if the omnibus test rejected, pairs were compared with {words}{against} "
                           f"{cite(*keys) if keys else ''} at a family-wise α = {alpha:g}.".replace(" .", "."))
        elif comparison.design == "balanced incomplete":
            methods.append(f"Not every method was run on every dataset, and the results form a balanced incomplete "
                           f"block design; methods were ranked within each dataset among those present and compared "
                           f"with {phrase('durbin')} {cited('durbin')} at α = {alpha:g} (Conover's F form "
                           f"decides); only if it rejected, pairs were compared with {_incomplete_posthoc(comparison, cite)}.")
        else:
            methods.append(f"Not every method was run on every dataset; to use every result, methods were ranked "
                           f"within each dataset among those present and compared with {phrase('skillings-mack')} "
                           f"{cited('skillings-mack')} at α = {alpha:g} (datasets per method: "
                           + ", ".join(f"{md(m)} {int(n)}" for m, n in comparison.datasets_per_method.items())
                           + f"); only if it rejected, pairs were compared with {_incomplete_posthoc(comparison, cite)} "
                           "(each pair net of the competitors its two methods met on their datasets).")
    power = (report.design_power() if comparison is not None and not all_separated(comparison)
             and report.design_power_skipped() is None else None)
    if power is not None:
        methods.append(f"To say what this design could have detected, benchmarks of {power.n_datasets} datasets and "
                       f"{power.n_methods} methods were simulated from the scores tested (centred per dataset, with the "
                       f"residuals' covariance as the noise; {power.n_resamples} simulated benchmarks per evaluation), "
                       f"and the smallest lead of one method over all others that {power.row(report.test)['procedure']} "
                       f"detects with power {power.target_power:g} at α = {power.alpha:g} was found by bisection "
                       f"{cited('design-power')}.")
    rank_sets = None if report.rank_sets_not_applicable() else report.rank_sets()
    if rank_sets is not None:
        methods.append(rank_set_methods(rank_sets, cited("rank-confidence-sets"), escape=md))
    methods.append(f"For every pair of methods, on the datasets both have, we counted the datasets on which each is "
                   f"better by more than the rope and tested the split with {phrase('sign')}, "
                   + (f"{_display(report.adjust)}-adjusted over the pairs" if report.adjust else "unadjusted")
                   + f" {cite(*dict.fromkeys(PROCEDURES['sign'].references + _primary(report.adjust)))}.")
    skipped = report.signed_rank_skipped()
    bayesian = ("bayesian-sign",) if skipped else ("bayesian-sign", "bayesian-signed-rank")
    bayesian_words = " and ".join(phrase(name) for name in bayesian)
    methods.append(f"{bayesian_words[0].upper() + bayesian_words[1:]} {cited(*bayesian)} "
                   f"{'gives' if len(bayesian) == 1 else 'give'}, for every "
                   "pair, the posterior probabilities that one method is practically better, that the two are "
                   f"practically equivalent, or that the other is better, with a region of practical equivalence "
                   f"(rope) of {rope_words}; a pair is decided when one probability reaches "
                   f"{report.bayesian().threshold:g}.")
    if "seed" in cube.dims:
        over_seeds = report.pairwise_method if report.paired else PROCEDURES[report.pairwise_method].unpaired
        over = "the cross-validation folds" if PROCEDURES[over_seeds].family == "seeds-cv" else "seeds"
        methods.append(f"Within each dataset, every pair was compared over {over} with {phrase(over_seeds)} "
                       f"{cited(over_seeds)}, Holm-adjusted within the dataset {cite('holm1979')}"
                       + (f", and tested for equivalence with {phrase('tost')} {cited('tost')} at the rope as margin"
                          if rope > 0 else "") + ".")
        intervals = report.summary()
        level = f"{intervals.confidence_level * 100:g}%"
        if intervals.ci_method == "t":
            methods.append(f"Intervals over seeds are {level} Student t intervals of each cell's mean.")
        else:
            narrow = intervals.too_narrow["n_seeds"]
            methods.append(f"Intervals over seeds are {level} percentile-bootstrap intervals of each cell's mean "
                           f"({intervals.n_resamples} resamples)"
                           + (f"; {len(narrow)} of {len(intervals.table)} cells have only {int(narrow.min())}"
                              + ("" if narrow.min() == narrow.max() else f"-{int(narrow.max())}")
                              + " seeds, where the percentile bootstrap is too narrow (it covers less than its "
                              "nominal rate), so their intervals overstate the precision" if len(narrow) else "")
                           + ".")
    if "seed" in cube.dims and report.seed_distributions:
        aso = report.almost_stochastic_order()
        methods.append(f"The seed distributions of every pair of methods were compared on each dataset by "
                       f"{phrase('aso')} {cited('aso')}: ε_min is the upper {aso.confidence_level * 100:g}% bound "
                       f"({aso.n_resamples} bootstrap resamples) of the share of the squared Wasserstein distance "
                       "between the two quantile functions on which a method is the worse, "
                       + ("Bonferroni-adjusted over the pairs of each dataset" if aso.adjust else "unadjusted")
                       + f"; a method almost stochastically dominates another when ε_min < τ = {aso.threshold:g}.")
    smaa = report.smaa() if getattr(report, "has_criteria", False) else None
    if smaa is not None:
        methods.append(smaa_methods(smaa, cited("smaa-2"), escape=md))
    gsd = (report.gsd_front() if getattr(report, "has_criteria", False) and not report.gsd_front_skipped()
           else None)
    if gsd is not None:
        methods.append(gsd_methods(gsd, cited("gsd-front"), escape=md))
    methods.append(f"Analyses used mcda {__version__} (random seed {report.rng}).")

    # ---------------------------------------------------------------- results
    results = [items[1]] if items is not None else []
    if comparison is not None:
        f = comparison.friedman
        deciding = f.f_pvalue if comparison.design in ("complete", "balanced incomplete") else f.pvalue
        untestable = not f.rejected and not np.isfinite(deciding)  # NaN, with the result's reason
        verb = "rejected" if f.rejected else ("could not test" if untestable else "did not reject")
        if comparison.design == "complete":
            results.append(f"The Friedman test {verb} equal mean ranks (χ²_F({f.df}) = {f.statistic:.2f}, "
                           f"{_p_eq(f.pvalue)}; Iman–Davenport F({f.f_df[0]}, {f.f_df[1]}) = {f.f_statistic:.2f}, "
                           f"{_p_eq(f.f_pvalue)}; N = {comparison.n_datasets}).")
        elif comparison.design == "balanced incomplete":
            results.append(f"Durbin's test {verb} equal ranks (T1 = {f.statistic:.2f}, {_p_eq(f.pvalue)}; "
                           f"F({f.f_df[0]}, {f.f_df[1]}) = {f.f_statistic:.2f}, {_p_eq(f.f_pvalue)}).")
        else:
            results.append(f"The Skillings–Mack test {verb} equal ranks (SM = {f.statistic:.2f}, df = {f.df}, "
                           f"{_p_eq(f.pvalue)}).")
        if untestable and getattr(f, "reason", ""):
            results.append(f"Its p-values are undefined: {md(f.reason)}.")
        order = comparison.mean_ranks.sort_values(kind="stable")
        results.append("Mean ranks (1 = best): " + ", ".join(f"{md(m)} {r:.2f}" for m, r in order.items()) + ".")
        tested, separated, control = _family(comparison)
        if comparison.posthoc is not None:
            results.append(f"The post-hoc test separated {len(separated)} of {len(tested)} comparisons"
                           + (f" against {md(control)}" if control is not None else "")
                           + (": " + _listing([f"{md(a)} ranks better than {md(b)}" for a, b in separated], max_pairs)
                              if separated else "") + ".")
        elif f.rejected:
            results.append("No post-hoc test applies to this design, so no pair may be claimed different from it.")
        else:
            results.append("No difference between methods may be claimed from this procedure.")
        if power is not None:
            results.append(f"{power.sentence(report.test).rstrip('.')} {cited('design-power')}.")
    if rank_sets is not None:
        results.append(rank_set_results(rank_sets, max_methods=max_pairs, escape=md))
    sup = report.superiority().to_frame()
    sig = sup[sup["superior"].notna()] if "superior" in sup.columns else sup.iloc[0:0]
    results.append(f"The pairwise sign tests found {len(sig)} of {len(sup)} pairs significantly different after "
                   "adjustment" + (": " + _listing([f"{md(r.superior)} better than "
                                                   f"{md(r.method_b if r.superior == r.method_a else r.method_a)}"
                                                   for r in sig.itertuples(index=False)], max_pairs) if len(sig)
                                   else "") + ".")
    sign = BayesDecisions(report.bayesian())
    bayesian_results = [("sign", sign)]
    if not skipped:
        bayesian_results.append(("signed-rank", BayesDecisions(report.bayesian_signed_rank())))
    for label, decisions in bayesian_results:
        text = [f"{md(a)} better than {md(b)} (P = {p:.3f})" if kind == "better" else
                f"{md(a)} and {md(b)} practically equivalent (P = {p:.3f})" for a, b, p, kind in decisions.claims]
        results.append(f"The Bayesian {label} test decided {decisions.counts()}"
                       + (": " + _listing(text, max_pairs) if text else "") + ".")
    if "seed" in cube.dims:
        tests = report.pairwise().to_frame()
        n_sig = int(tests["significant"].astype(bool).sum())
        results.append(f"Within datasets, {n_sig} of {len(tests)} (dataset, pair) differences were significant over "
                       f"seeds at α = {alpha:g}.")
        replication_methods, replication_results = replication_sentences(report, cited, md, max_pairs)
        methods.insert(len(methods) - 1, replication_methods)  # before the version sentence
        results.append(replication_results)
    if "seed" in cube.dims and report.seed_distributions:
        aso = report.almost_stochastic_order()
        claims = dominance_claims(aso)
        tested = int(aso.table["epsilon_min"].notna().sum())
        results.append(f"By almost stochastic order, {len(claims)} of {tested} ordered (dataset, pair) comparisons "
                       f"had ε_min < {aso.threshold:g}"
                       + (": " + _listing([f"{md(a)} {verb} {md(b)} on {md(d)} (ε_min = {eps:.3g})"
                                           for d, a, b, eps, verb in claims], max_pairs) if claims else "") + ".")

    if smaa is not None:
        results.append(smaa_results(smaa, max_methods=max_pairs, escape=md))
    if gsd is not None:
        results.append(gsd_results(gsd, max_methods=max_pairs, escape=md))

    reading = reading_paragraph(report, comparison, sign, alpha, escape=md)
    if items is not None:  # the item level first; the across-dataset reading is about the test sets' means
        reading = f"{items[2]} Across the test sets' mean item scores: {reading[0].lower()}{reading[1:]}"
    return " ".join(methods), " ".join(results), reading, cites


def dominance_claims(result) -> list[tuple[str, str, str, float, str]]:
    """(dataset, a, b, ε_min, verb) of the ordered pairs an almost-stochastic-order result decides for a:
    "stochastically dominates" at ε_min = 0, else "almost stochastically dominates"."""
    rows = result.table[result.table["almost_dominates"].astype(bool)]
    return [(str(r.dataset), str(r.method_a), str(r.method_b), float(r.epsilon_min),
             "stochastically dominates" if r.epsilon_min == 0 else "almost stochastically dominates")
            for r in rows.itertuples(index=False)]


def gsd_methods(result, citation: str, *, escape=str) -> str:
    """The Methods sentences of a GSD-front result (:func:`mcda.gsd_front`), from its fields."""
    scales = ", ".join(f"{escape(m)} ({'ordinal' if m in result.ordinal else 'cardinal'})" for m in result.metrics)
    text = (f"The methods' distributions over the {result.n_datasets} datasets on the {len(result.metrics)} criteria "
            f"({scales}) were compared by generalized stochastic dominance (GSD) {citation}: a method dominates "
            "another when its expected utility is at least the other's for every utility that is monotone in every "
            "criterion and, on the cardinal criteria, respects the order of differences, each oriented by its card's "
            "direction and normalised to 0 at the worst and 1 at the best outcome of the pair (linear programs "
            "solved with HiGHS); the GSD-front is the set of methods no other strictly dominates.")
    if result.tested:
        robust = (f", allowing a share γ = {result.contamination:g} of the datasets to be contaminated "
                  "(the statistic shifted by 2γ/(1 − γ))" if result.contamination > 0 else "")
        text += (f" Whether {_listing([escape(m) for m in result.tested], 12)} lie"
                 f"{'s' if len(result.tested) == 1 else ''} in the front of the population of datasets was tested "
                 f"with the permutation test of the same authors ({result.n_resamples} permutations of the pooled "
                 f"results of each pair{robust}): a method is in the front at α = {result.alpha:g} when the "
                 "dominance of every competitor is rejected, its p-value the largest of the competitors'.")
    if result.dropped_datasets:
        n = len(result.dropped_datasets)
        text += (f" {n} dataset{'s' if n != 1 else ''} lacking a result of some method on some criterion "
                 f"{'were' if n != 1 else 'was'} left out of it.")
    return text


def gsd_results(result, *, max_methods: int = 12, escape=str) -> str:
    """The Results sentences of a GSD-front result: the front, who strictly dominates whom, and each tested
    method's p-value, from its fields."""
    dominated = [m for m in result.methods if result.dominated_by[m]]
    text = (f"The empirical GSD-front held {len(result.front)} of the {len(result.methods)} methods "
            f"({_listing([escape(m) for m in result.front], max_methods)})")
    if dominated:
        text += "; " + _listing([f"{escape(m)} was strictly dominated by "
                                 f"{', '.join(escape(d) for d in result.dominated_by[m])}" for m in dominated],
                                max_methods)
    else:
        text += "; no method strictly dominated another"
    text += "."
    if result.tested:
        def one(m) -> str:
            p = float(result.front_pvalues[m])
            k = result.tolerated_contamination[m]
            words = f"{escape(m)} ({p_text(p)}"
            if np.isfinite(k):
                words += f", still significant with up to {int(k)} contaminated datasets"
            return words + ")"

        significant = [m for m in result.tested if result.front_pvalues[m] <= result.alpha]
        others = [m for m in result.tested if m not in significant]
        text += (f" Significantly in the GSD-front at α = {result.alpha:g}: "
                 + (_listing([one(m) for m in significant], max_methods) if significant else "none")
                 + (f"; not shown to be: {_listing([one(m) for m in others], max_methods)}" if others else "") + ".")
    return text


def smaa_methods(result, citation: str, *, escape=str) -> str:
    """The Methods sentences of a SMAA-2 result (:func:`mcda.smaa`), from its fields."""
    ranges = "; ".join(f"{escape(m)} from {r.worst:.4g} (0) to {r.best:.4g} (1), {_RANGE_WORDS[r.source]}"
                       for m, r in result.ranges.iterrows())
    return (f"The {len(result.metrics)} criteria ({', '.join(escape(m) for m in result.metrics)}) were weighed "
            f"together with SMAA-2 {citation}: in each of {result.n_draws:,} Monte Carlo draws the criterion values "
            f"of every method were {result.uncertainty_words()} and the weights were "
            + (f"fixed ({escape(result.weight_words())})" if result.weight_information == "exact"
               else f"drawn {escape(result.weight_words())}")
            + "; each criterion was oriented by its card's direction and normalised "
            f"linearly ({ranges}), and a method's value was the weighted sum. A method's rank acceptability is the "
            "share of draws in which it takes a rank (tied values share the better rank), its central weights the "
            "mean weights of the draws in which it ranks first, and its confidence factor the share of the "
            "measurement draws in which it ranks first under its central weights; each is reported with its Monte "
            f"Carlo standard error (at most {0.5 / result.n_draws ** 0.5:.2g})."
            + (f" {len(result.excluded)} method{'s' if len(result.excluded) != 1 else ''} lacking a result on some "
               f"dataset and criterion ({', '.join(escape(m) for m in result.excluded)}) "
               f"{'were' if len(result.excluded) != 1 else 'was'} left out of it." if result.excluded else ""))


def _percent(share: float) -> str:
    """A share as a percentage with two significant digits below 10 % ("0.052%", "8.5%", "55.2%")."""
    return f"{share:.1%}" if share >= 0.1 else f"{100 * share:.2g}%"


_RANGE_WORDS = {"observed": "the worst and best method's mean", "card": "the card's range", "given": "given"}


def smaa_results(result, *, max_methods: int = 12, escape=str) -> str:
    """The Results sentences of a SMAA-2 result: first-rank acceptabilities, confidence factors and central
    weights of the methods that rank first in some draw, from its fields."""
    frame = result.to_frame("methods").set_index("method")
    first = [m for m in result.order if frame.loc[m, "acceptability"] > 0]
    never = len(result.methods) - len(first)

    def one(m) -> str:
        row = frame.loc[m]
        text = f"{escape(m)} {_percent(row.acceptability)} (± {_percent(row.acceptability_se)})"
        if np.isfinite(row.confidence_factor):
            weights = ", ".join(f"{escape(c)} {w:.2f}" for c, w in result.central_weights.loc[m].items())
            text += f", confidence factor {row.confidence_factor:.2f}, central weights {weights}"
        return text

    return ("Under SMAA-2, the share of draws in which a method ranked first (± its Monte Carlo standard error) was "
            f"{_listing([one(m) for m in first], max_methods)}"
            + (f"; {never} method{'s' if never != 1 else ''} never ranked first" if never else "") + ".")


def rank_set_methods(result, citation: str, *, escape=str) -> str:
    """The Methods sentences of rank confidence sets (:func:`mcda.rank_confidence_sets`), from the result's fields."""
    from mcda.stats.rank_sets import ESTIMATE_WORDS

    level = f"{result.confidence_level * 100:g}%"
    over = f" over the {result.n_datasets} datasets" if result.n_datasets is not None else ""
    left_out = ""
    if result.excluded:
        n = len(result.excluded)
        left_out = (f" {n} method{'s' if n != 1 else ''} lacking results ({', '.join(escape(m) for m in result.excluded)}) "
                    f"{'were' if n != 1 else 'was'} left out of them.")
    return (f"To say which places of the ranking the data support, each method's {ESTIMATE_WORDS[result.estimate]} "
            f"received a {level} {'simultaneous' if result.simultaneous else 'marginal'} confidence set for its rank "
            f"{citation}: every difference between two methods' {ESTIMATE_WORDS[result.estimate]}s was studentized "
            f"by its standard error from their covariance{over}, and a difference larger than the {level} quantile "
            f"of the largest studentized difference ({result.n_resamples} parametric-bootstrap draws from a normal "
            "with that covariance) placed one method confidently above the other"
            + (", repeated without the decided pairs until no more were decided" if result.stepdown else "")
            + "; a method's set runs from one plus the methods confidently above it to the number of methods less "
            "those confidently below it, and the methods whose set reaches rank 1 form the set that "
            + ("holds the best method at that confidence" if result.simultaneous else
               "holds the best method at that confidence (from the simultaneous sets)")
            + "." + left_out)


def rank_set_results(result, *, max_methods: int = 12, escape=str) -> str:
    """The Results sentences of rank confidence sets: the best set, the places that are certain and each set."""
    level = f"{result.confidence_level * 100:g}%"
    frame = result.to_frame()
    sets = [f"{escape(r.method)} {r.rank_low}–{r.rank_high}" if r.rank_low < r.rank_high else
            f"{escape(r.method)} {r.rank_low}" for r in frame.itertuples(index=False)]
    n_best = len(result.best_set)
    best = (f"{escape(result.best_set[0])} alone may be the best" if n_best == 1 else
            f"{n_best} of {result.n_methods} methods may be the best ({_listing(map(escape, result.best_set), max_methods)})")
    return (f"With {level} confidence, {best}; {result.n_certain} of {result.n_methods} methods have a rank set of a "
            f"single place. The rank sets, by estimated rank, are: {_listing(sets, max_methods)}.")


def _sign_significant(report) -> dict:
    """(better, worse) -> adjusted p of every pair the pairwise sign tests separate."""
    table = report.superiority().to_frame()
    out = {}
    for r in table.itertuples(index=False):
        if getattr(r, "superior", None) is None or (isinstance(r.superior, float) and math.isnan(r.superior)):
            continue
        worse = r.method_b if r.superior == r.method_a else r.method_a
        out[(str(r.superior), str(worse))] = float(getattr(r, "p_adjusted", math.nan))
    return out


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def reading_paragraph(report, comparison, decisions, alpha: float, *, escape=None) -> str:
    """One or two sentences on what each procedure supports when they disagree (or that they agree);
    ``escape`` writes a label (default :func:`text_escape`; :func:`markdown_escape` in Markdown).

    ``decisions`` is the :class:`BayesDecisions` of the report's Bayesian sign test (the one the
    Results paragraph counts); the post-hoc's family (all pairs, or only the pairs with the
    control) is read from its pair decisions, never assumed.
    """
    escape = text_escape if escape is None else escape
    if not isinstance(decisions, BayesDecisions):  # a result
        decisions = BayesDecisions(decisions)
    tested, separated_list, control = _family(comparison)
    separated = set(separated_list)
    sign = _sign_significant(report)
    better = decisions.better
    rope = decisions.rope  # the rope the decisions were made with
    adjusted = f"{_display(report.adjust)}-adjusted" if report.adjust else "unadjusted"
    over_pairs = f"{_display(report.adjust)} over the pairs" if report.adjust else "unadjusted"
    bayes_counts = f"the Bayesian sign test decides {decisions.counts()}"
    if comparison is None:
        return ("Only the pairwise views apply here; each claims something about one pair on the datasets it shares, "
                "not about all methods at once.")
    omnibus = comparison.friedman
    deciding = omnibus.f_pvalue if comparison.design in ("complete", "balanced incomplete") else omnibus.pvalue
    omnibus_verdict = "does not reject" if np.isfinite(deciding) else "does not apply (its p-values are undefined)"
    entry = PROCEDURES.get(comparison.posthoc_test or comparison.test)
    test = entry.subject if entry is not None else comparison.test
    Test = test[0].upper() + test[1:]

    def pair_words(a, b, p):
        words = f"the Bayesian sign test's P = {p:.3f} that {escape(a)} is better than {escape(b)} by more than the rope (±{rope:g})"
        if (a, b) in sign:
            words += f", and the pairwise sign test ({adjusted} {_p_eq(sign[(a, b)])})"
        return words

    def sign_words() -> str:
        n_sign = len(sign)
        total = len(report.superiority().to_frame())
        return f"the pairwise sign tests separate {n_sign} of {total} pairs ({adjusted})"

    if comparison.posthoc is None and not comparison.friedman.rejected:
        if not better:
            text = (f"The omnibus test {omnibus_verdict}, and {bayes_counts}, none as one method better: the data "
                    "license no claim from either that one method is better than another")
            if decisions.equivalent:
                text += (f"; for the {_plural(len(decisions.equivalent), 'pair', 'pairs')} decided practically "
                         f"equivalent they support that the difference is within the rope (±{rope:g})")
            if sign:
                text += (f". Only {sign_words()}, each a claim about its pair alone on the datasets it shares, not "
                         "about the methods as a whole")
            return text + "."
        a, b, p = better[0]
        return (f"The omnibus test {omnibus_verdict} at α = {alpha:g}, so no difference in mean rank may be claimed; "
                f"{bayes_counts}, and {pair_words(a, b, p)} {'support' if (a, b) in sign else 'supports'} a claim "
                f"about that pair only. Write it as such (e.g. \"{escape(a)} is probably better than {escape(b)}, P = {p:.3f}\"), "
                "not as a significant difference between the methods.")
    if comparison.posthoc is None:  # the omnibus rejects but no post-hoc applies (unbalanced incomplete design)
        example = next(((a, b, p) for a, b, p in better if (a, b) in sign), better[0] if better else None)
        text = (f"The {comparison.friedman.test.replace('-', '–').title()} test says the methods differ overall but "
                f"names no pair; claims about pairs rest on the pairwise views, each on the datasets the pair shares: "
                f"{sign_words()} and {bayes_counts}.")
        if example is not None:
            a, b, p = example
            text += f" For example, write \"{escape(a)} is better than {escape(b)}\" citing {pair_words(a, b, p)}."
        return text

    n_tested = len(tested)
    if control is not None:
        family = (f"{len(separated)} of the {n_tested} pairs with {escape(control)}, the only pairs it tests, while "
                  f"controlling the chance of any false claim among those {n_tested} comparisons at once")
        family_short = f"the {n_tested} pairs with {escape(control)}"
        comparison_words = "in the comparisons against the control"
    else:
        family = (f"{len(separated)} of {n_tested} pairs while controlling the chance of any false claim among all "
                  "pairs of mean ranks at once")
        family_short = f"the {n_tested} pairs it tests"
        comparison_words = "in the comparison of all methods"
    inside = [(a, b, p) for a, b, p in better if frozenset((a, b)) in tested]
    outside = [(a, b, p) for a, b, p in better if frozenset((a, b)) not in tested]
    bayes_only = [(a, b, p) for a, b, p in inside if (a, b) not in separated]
    freq_only = [(a, b) for a, b in separated_list if not any((a, b) == (x, y) for x, y, _ in inside)]
    beyond = ""
    if outside:
        a, b, p = outside[0]
        beyond = (f" {_plural(len(outside), 'pair', 'pairs')} the Bayesian sign test decides with one method "
                  f"better {'is' if len(outside) == 1 else 'are'} not among {family_short} (e.g. {escape(a)} better than "
                  f"{escape(b)}, P = {p:.3f}): {test} neither supports nor contradicts "
                  f"{'it' if len(outside) == 1 else 'them'}.")
    if bayes_only:
        a, b, p = bayes_only[0]
        return (f"The procedures answer different questions: {test} separates {family}, and it does "
                f"not separate {escape(a)} from {escape(b)}; {pair_words(a, b, p)} {'speak' if (a, b) in sign else 'speaks'} about "
                f"that pair alone. The data license writing that {escape(a)} is probably better than {escape(b)} (P = {p:.3f})"
                + (f" and that it wins significantly more datasets (sign test, {over_pairs})" if (a, b) in sign
                   else "")
                + f", not that {escape(a)} ranks significantly better than {escape(b)} {comparison_words}." + beyond)
    if freq_only:
        a, b = freq_only[0]
        return (f"{Test} separates {escape(a)} from {escape(b)} by mean rank, but the Bayesian sign test does "
                f"not find {escape(a)} better by more than the rope (±{rope:g}) with P ≥ {decisions.threshold:g}"
                + next((f" (it decides the two practically equivalent, P = {p:.3f})" for x, y, p in decisions.equivalent
                        if {x, y} == {a, b}), "")
                + f": write that "
                f"{escape(a)} ranks significantly better than {escape(b)}, without claiming a practically relevant difference."
                + beyond)
    if separated:
        return (f"{Test} and the Bayesian sign test agree on {family_short}: both find one method better on the same "
                f"{_plural(len(separated), 'pair', 'pairs')}, and neither on the other {n_tested - len(separated)}."
                + beyond)
    if outside or sign:
        return (f"{Test} separates none of {family_short}, and the Bayesian sign test decides none of them with one "
                "method better." + beyond
                + (f" Of the pairwise views, {sign_words()}, each a claim about its pair alone." if sign else ""))
    return ("No procedure separates any pair: the data license no claim that one method is better than another; "
            "at most that the differences are smaller than these datasets can resolve"
            + (f" (the Bayesian sign test decides {_plural(len(decisions.equivalent), 'pair', 'pairs')} practically "
               f"equivalent, within ±{rope:g})" if decisions.equivalent else "") + ".")


# --------------------------------------------------------------------------- over items

#: What the overview and the text call the item-level results (the Report views that give them).
ITEM_VIEWS = "report.item_leaderboard(), report.item_pairs(), report.item_omnibus(), report.item_means()"


def _items_per_dataset(means) -> dict:
    """dataset -> (items some method has, clusters of those items or None): from the ItemMeans table."""
    table = means.table
    out = {}
    for dataset, block in table.groupby("dataset", sort=False):
        n_items = int((block["n_items"] + block["n_missing"]).max())
        out[dataset] = (n_items, int(block["n_clusters"].max()) if means.clustered else None)
    return out


def _item_pair_rows(table):
    """(separated rows, not separated rows that were tested, untested rows) of a PairedItems table."""
    tested = table["p_raw"].notna()
    significant = table["significant"].astype(bool)
    return table[significant], table[tested & ~significant], table[~tested]


def _shown(value: float, digits: int) -> str:
    """A difference for reading: the rounding residue of a sum of item scores (|x| < 1e-12) shown as 0."""
    return f"{0.0 if abs(value) < 1e-12 else value:.{digits}g}"


def _better_worse(row) -> tuple[str, str]:
    return (row.superior, row.method_b if row.superior == row.method_a else row.method_a)


def item_methods(means, pairs, omnibus, cite, *, across: bool, escape=str) -> str:
    """The Methods sentences over items, from the results (:class:`ItemMeans`, :class:`PairedItems`,
    :class:`ItemOmnibus`); ``cite(*keys)`` writes a citation, ``across`` says the across-dataset views follow."""
    level = f"{means.confidence_level * 100:g}%"
    per = _items_per_dataset(means)
    sets = "; ".join(f"{escape(d)}: {n:,} items" + (f" in {g:,} clusters" if g is not None else "")
                     for d, (n, g) in per.items())
    k = len(pairs.methods)
    sentences = [f"The scores are per item: the {k} methods were scored on the same items of {len(per)} test "
                 f"set{'s' if len(per) != 1 else ''} ({sets}), the items a sample from a larger population."]
    if means.clustered:
        sentences.append(f"Items of one cluster (the `cluster` coordinate: items sharing a passage, a source or a "
                         f"task) are not independent, so each method's mean item score received a {level} t interval "
                         f"(clusters − 1 degrees of freedom) on its cluster-robust standard error "
                         f"{cite('liang1986', 'miller2024')}; the standard error that treats items as independent "
                         "is reported beside it.")
    else:
        sentences.append(f"Each method's mean item score received a {level} t interval on its standard error "
                         f"(items treated as independent; no cluster coordinate was given) {cite('miller2024')}.")
    if any(means.binary.values()):
        sentences.append(f"For 0/1 scores the Wilson and Clopper–Pearson intervals of the rate are given too "
                         f"{cite('wilson1927', 'clopper1934')}.")
    test = PROCEDURES[pairs.test]
    family = k - 1 if pairs.control is not None else k * (k - 1) // 2
    adjusted = (f"{_display(pairs.adjust)}-adjusted over the {family} pairs of each test set "
                f"{cite(*_primary(pairs.adjust))}" if pairs.adjust else "unadjusted")
    sentences.append(f"Every pair of methods was compared on the items both have with {test.words} "
                     f"{cite(*test.references)}, {adjusted}, at α = {pairs.alpha:g}; the methods no test separates "
                     "from the best form its tie group, and every pair not separated is reported with its minimum "
                     f"detectable difference at {pairs.power:.0%} power, (z_(1−α/2) + z_power) times the standard "
                     f"error of its difference {cite('miller2024')}.")
    if pairs.test == "paired-items-t" and any(pairs.binary.values()) and not pairs.clustered:
        sentences.append(f"For 0/1 scores this test is asymptotically McNemar's test of the discordant items "
                         f"{cite('mcnemar1947')}, which the per-pair table also gives.")
    tests = list(dict.fromkeys(omnibus.table["test"]))
    words = " and ".join(f"{PROCEDURES[t].words} {cite(*PROCEDURES[t].references)}" for t in tests)
    sentences.append(f"Whether the methods differ at all on a test set was tested with {words}"
                     + (" (Cochran's Q for 0/1 scores, the Friedman test over items otherwise)" if len(tests) > 1 else "")
                     + " on the items every method has"
                     + (f", which treat{'s' if len(tests) == 1 else ''} items as independent" if omnibus.clustered
                        else "") + ".")
    missing = means.missing_items
    if len(missing):
        sentences.append(f"{len(missing)} (test set, method) cell{'s lack' if len(missing) != 1 else ' lacks'} items "
                         "other methods have; nothing was imputed: means are over the items a method has, and pairs "
                         "are compared on the items both have.")
    if across:
        sentences.append("The across-dataset analyses below read one score per (test set, method): the mean item "
                         "score (mcda.reduce_items), its standard error kept beside it.")
    return " ".join(sentences)


def item_results(board, omnibus, means, *, max_pairs: int = 12, escape=str) -> str:
    """The Results sentences over items, per test set: the leader and its tie group, the pairs separated and the
    minimum detectable difference of the rest, the omnibus test, the missing items (each from its result)."""
    pairs = board.pairs
    level = f"{board.confidence_level * 100:g}%"
    out = []
    table = board.table
    for dataset, block in table.groupby("dataset", sort=False):
        first = block.iloc[0]
        tied = block[block["tied_with_best"].astype(bool)]
        rows = pairs.table[pairs.table["dataset"] == dataset]
        separated, open_pairs, untested = _item_pair_rows(rows)
        others = [escape(m) for m in tied["method"].iloc[1:]]
        text = (f"On {escape(dataset)}, {escape(first['method'])} ranks first (mean {first['mean']:.4g}, {level} CI "
                f"[{first['ci_low']:.4g}, {first['ci_high']:.4g}]); {len(tied)} of {len(block)} methods are in its "
                "tie group" + (f" ({_listing(others, max_pairs)} not separated from it)" if others else "") + ".")
        text += (f" The paired tests separated {len(separated)} of {len(rows)} pairs"
                 + (": " + _listing([f"{escape(b)} better than {escape(w)} by {abs(r.mean_diff):.3g}"
                                      for r in separated.itertuples(index=False)
                                      for b, w in [_better_worse(r)]], max_pairs) if len(separated) else "")
                 + ".")
        if len(open_pairs):
            mde = open_pairs["mde"].to_numpy(dtype=float)
            text += (f" The {len(open_pairs)} pair{'s' if len(open_pairs) != 1 else ''} not separated could have detected differences of "
                     f"{np.nanmin(mde):.3g} to {np.nanmax(mde):.3g} (minimum detectable difference at "
                     f"{pairs.power:.0%} power; median {np.nanmedian(mde):.3g}): "
                     + _listing([f"{escape(r.method_a)} vs {escape(r.method_b)} (difference {_shown(r.mean_diff, 3)}, "
                                 f"detectable {r.mde:.3g})" for r in open_pairs.itertuples(index=False)], max_pairs)
                     + ".")
        if len(untested):
            text += f" {len(untested)} pairs could not be tested ({_listing(sorted(set(untested['reason'])), 3)})."
        row = omnibus.table[omnibus.table["dataset"] == dataset].iloc[0]
        name = PROCEDURES[row["test"]].noun or PROCEDURES[row["test"]].words
        name = name[0].upper() + name[1:]
        if row["reason"]:
            text += f" {name} could not be computed: {row['reason']}."
        else:
            verb = "rejected" if row["rejected"] else "did not reject"
            text += (f" {name} {verb} equal {'rates' if row['test'] == 'cochran-q' else 'mean ranks'} "
                     f"(statistic {row['statistic']:.3g}, df = {int(row['df'])}, {_p_eq(row['p_raw'])}; "
                     f"{int(row['n_items']):,} items every method has).")
        out.append(text)
    missing = means.missing_items
    if len(missing):
        out.append("Missing per-item results: " + _listing(
            [f"{escape(r.method)} lacks {int(r.n_missing)} item{'s' if r.n_missing != 1 else ''} of "
             f"{escape(r.dataset)} ({escape(r.first_missing)})" for r in missing.itertuples(index=False)],
            max_pairs) + ".")
    return " ".join(out)


def items_overview_lines(report, *, max_pairs: int = 12, max_rows: int = 50) -> list[str]:
    """The overview's section over items (what ``mcda compare`` prints for per-item scores), from the results."""
    means, board, omnibus = report.item_means(), report.item_leaderboard(), report.item_omnibus()
    pairs = board.pairs
    level = f"{means.confidence_level * 100:g}%"
    lines = ["", f"== Over items: is A better than B on this test set? ({ITEM_VIEWS})"]
    if means.clustered:
        lines.append(f"  intervals: {level} t intervals on the cluster-robust standard error (items grouped by the "
                     "`cluster` coordinate; Liang & Zeger 1986, Miller 2024); se_naive treats items as independent")
    else:
        lines.append(f"  intervals: {level} t intervals on the standard error over items (no `cluster` coordinate: "
                     "items treated as independent)")
    adjust = display_name(pairs.adjust) if pairs.adjust else "unadjusted"
    per = _items_per_dataset(means)
    naive = means.table.set_index(["dataset", "method"])["standard_error"]
    for dataset, block in board.table.groupby("dataset", sort=False):
        n, g = per[dataset]
        lines.append(f"  {dataset}: {n:,} items" + (f" in {g:,} clusters" if g is not None else "")
                     + f"; leaderboard ('=' marks methods no {display_name(pairs.test)} test ({adjust}, alpha "
                     f"{pairs.alpha:g}) separates from their group's best)")
        shown = block.head(max_rows)
        sizes = block.groupby("rank")["rank"].transform("size")
        rows = [["rank", "method", "mean", "ci_low", "ci_high", "se"] + (["se_naive"] if means.clustered else [])
                + ["n_items"]]
        for r, size in zip(shown.itertuples(index=False), sizes.head(max_rows)):
            rows.append([f"{r.rank}{'=' if size > 1 else ''}", str(r.method), f"{r.mean:.4g}", f"{r.ci_low:.4g}",
                         f"{r.ci_high:.4g}", f"{r.standard_error:.3g}"]
                        + ([f"{naive[(dataset, r.method)]:.3g}"] if means.clustered else []) + [f"{r.n_items:,}"])
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        for row in rows:
            lines.append("    " + "  ".join(c.ljust(w) if i == 1 else c.rjust(w)
                                            for i, (c, w) in enumerate(zip(row, widths))).rstrip())
        if len(block) > max_rows:
            lines.append(f"    … and {len(block) - max_rows} more (report.item_leaderboard().to_frame())")
        tied = block[block["tied_with_best"].astype(bool)]
        lines.append(f"    tie group of the best: {len(tied)} of {len(block)} methods")
    separated, open_pairs, untested = _item_pair_rows(pairs.table)
    lines.append(f"  {display_name(pairs.test)}, {adjust} over the pairs of each dataset: {len(separated)} of "
                 f"{len(pairs.table) - len(untested)} tested (dataset, pair) differences significant at alpha "
                 f"{pairs.alpha:g}" + (f"; {len(untested)} not tested (see the reason column of "
                                       "report.item_pairs())" if len(untested) else ""))
    for r in separated.head(max_pairs).itertuples(index=False):
        better, worse = _better_worse(r)
        low, high = (r.ci_low, r.ci_high) if better == r.method_a else (-r.ci_high, -r.ci_low)
        lines.append(f"    {r.dataset}: {better} better than {worse} by {abs(r.mean_diff):.4g} "
                     f"[{low:.4g}, {high:.4g}] (p_adjusted {r.p_adjusted:.3g})")
    if len(separated) > max_pairs:
        lines.append(f"    … and {len(separated) - max_pairs} more")
    if len(open_pairs):
        lines.append(f"  not separated ({len(open_pairs)}), each with the difference it could have detected "
                     f"(minimum detectable difference at {pairs.power:.0%} power):")
        for r in open_pairs.head(max_pairs).itertuples(index=False):
            lines.append(f"    {r.dataset}: {r.method_a} vs {r.method_b}: {_shown(r.mean_diff, 4)} [{r.ci_low:.4g}, "
                         f"{r.ci_high:.4g}], mde {r.mde:.3g} (p_adjusted {r.p_adjusted:.3g})")
        if len(open_pairs) > max_pairs:
            lines.append(f"    … and {len(open_pairs) - max_pairs} more (the mde column of report.item_pairs())")
    for row in omnibus.table.itertuples(index=False):
        if row.reason:
            lines.append(f"  {display_name(row.test)} on {row.dataset}: not computed ({row.reason})")
        else:
            lines.append(f"  {display_name(row.test)} on {row.dataset}: statistic {row.statistic:.4g}, df {row.df}, "
                         f"{_p_eq(row.p_raw)} over the {row.n_items:,} items every method has"
                         f"{'; rejected' if row.rejected else '; not rejected'} at alpha {omnibus.alpha:g}")
    for note in dict.fromkeys(pairs.notes + omnibus.notes):
        lines.append(f"  note: {note}")
    missing = means.missing_items
    if len(missing):
        lines.append(f"  missing per-item results ({len(missing)} (dataset, method) cells; nothing imputed):")
        for r in missing.head(max_pairs).itertuples(index=False):
            lines.append(f"    {r.method} lacks {r.n_missing} item{'s' if r.n_missing != 1 else ''} of {r.dataset} "
                         f"({r.first_missing})")
        if len(missing) > max_pairs:
            lines.append(f"    … and {len(missing) - max_pairs} more (report.item_means().missing_items)")
    else:
        lines.append("  missing per-item results: none (every method has a score on every item)")
    if len(per) >= 2:
        lines.append(f"  across datasets: the views below read reduce_items(cube), one mean item score per (dataset, "
                     f"method) over the {len(per)} datasets")
    else:
        lines.append("  across datasets: do not apply (one dataset); the comparison above is over its items")
    return lines


def item_reading(board, *, escape=str) -> str:
    """The reading paragraph over items: which claims of "A beats B on this test set" the paired tests license."""
    pairs = board.pairs
    separated, open_pairs, _ = _item_pair_rows(pairs.table)
    tied = board.table[board.table["tied_with_best"].astype(bool)]
    n_sets = board.table["dataset"].nunique()
    groups = "; ".join(f"{escape(d)}: {_listing([escape(m) for m in block['method']], 12)}"
                       for d, block in tied.groupby("dataset", sort=False))
    return (f"Over items, a claim that one method beats another on a test set is licensed for the {len(separated)} "
            f"(test set, pair) differences the paired tests separated, and for no other; the {len(open_pairs)} pairs "
            "not separated are not shown equal either: each could have hidden a difference as large as its minimum "
            f"detectable difference. No method may be called the best of {'a' if n_sets > 1 else 'the'} test set "
            f"over the others of its tie group ({groups}).")


def _items_paragraphs(report, cite, escape, max_pairs: int) -> tuple[str, str, str]:
    """(Methods, Results, Reading) sentences over items of an item report, from its cached results."""
    means, board, omnibus = report.item_means(), report.item_leaderboard(), report.item_omnibus()
    return (item_methods(means, board.pairs, omnibus, cite, across=len(report.datasets) >= 2, escape=escape),
            item_results(board, omnibus, means, max_pairs=max_pairs, escape=escape),
            item_reading(board, escape=escape))
