"""Cells of 01_quickstart_demsar2006.ipynb (see _make_notebooks.py)."""

NAME = "01_quickstart_demsar2006"

CELLS = [
    ("md", r"""
# Quickstart: Demšar (2006), number by number

Demšar's *Statistical Comparisons of Classifiers over Multiple Data Sets* (JMLR 7:1–30, 2006) is
the reference for the question **"does one method win in general, over datasets?"** Its worked
example, Table 6 (the AUC of four variants of the C4.5 decision tree on 14 datasets), ships
with mcda. This notebook runs the whole across-dataset procedure on it and checks each number
against the paper:

1. ranks within each dataset and the mean ranks;
2. a pitfall in the printed table (the *voting* tie) that changes every statistic;
3. the omnibus test: Friedman χ² and the Iman–Davenport F;
4. the post-hoc tests: Nemenyi over all pairs, Bonferroni–Dunn and Holm against a control;
5. the critical-difference (CD) diagram;
6. the same analysis in one call.

The question here is *across* datasets. Whether A beats B *on one dataset* needs several runs
(seeds) per dataset and other tests (see the within-dataset guide).
"""),
    ("code", r"""
%matplotlib inline
import pandas as pd
import scipy.stats

import mcda
from mcda.plots import plot_critical_difference

pd.set_option("display.precision", 3)

cube = mcda.datasets.load("demsar2006")
print(mcda.datasets.describe("demsar2006"))
cube.to_pandas()
"""),
    ("md", r"""
The data is a *score cube*: an `xarray.DataArray` with dims `dataset` × `method`. It carries its
metric card, which says which direction is better and how small a difference the metric can
honestly resolve (its noise floor, used later as the default region of practical equivalence).
"""),
    ("code", r"""
{key: cube.attrs[key] for key in ("metric", "direction", "noise_floor")}
"""),
    ("md", r"""
## 1. Ranks within each dataset

Demšar ranks the methods *within* each dataset (1 = best, ties share the average rank) and
compares the mean ranks. Ranks ignore how the datasets' scales differ, and one large win cannot
outweigh many small losses.
"""),
    ("code", r"""
ranks = mcda.rank_table(cube)
ranks
"""),
    ("code", r"""
mcda.average_ranks(cube)
"""),
    ("md", r"""
## 2. A pitfall: the *voting* tie

Look at the row *voting*. Table 6 prints the same AUC, 0.975, for C4.5+cf and C4.5+m+cf, so
ranked from the printed numbers they share rank 2.5. The paper ranks them 2 and 3: it ranked the
unrounded AUCs. The bundled cube keeps the paper's printed ranks in the coordinate
`published_rank`.
"""),
    ("code", r"""
pd.DataFrame({
    "AUC (printed)": cube.sel(dataset="voting").to_pandas(),
    "rank from the printed AUC": ranks.loc["voting"],
    "rank printed in the paper": cube.coords["published_rank"].sel(dataset="voting").to_pandas(),
})
"""),
    ("md", r"""
One tie on one dataset is enough to move the mean ranks of two methods and the Friedman
statistic off the published values. To reproduce the paper, mcda bundles its printed ranks as
scores of their own, `demsar2006_published_ranks` (lower is better). Below, the same test on both
inputs, beside the paper's numbers:
"""),
    ("code", r"""
published = mcda.datasets.load("demsar2006_published_ranks")
from_auc = mcda.friedman_test(cube)
from_paper = mcda.friedman_test(published)

methods = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
rows = [f"mean rank {m}" for m in methods] + ["Friedman chi2_F", "Iman-Davenport F_F"]
pd.DataFrame(
    {
        "from the printed AUCs": [*from_auc.mean_ranks[methods], from_auc.statistic, from_auc.f_statistic],
        "from the printed ranks": [*from_paper.mean_ranks[methods], from_paper.statistic, from_paper.f_statistic],
        "published (Demšar 2006)": [3.143, 2.000, 2.893, 1.964, 9.28, 3.69],
    },
    index=rows,
)
"""),
    ("md", r"""
The printed ranks reproduce the paper (χ²_F = 9.28, F_F = 3.69); the printed AUCs give 9.857 and
3.987. Neither is wrong: they answer for different inputs. **Use the printed ranks to check the
paper, and your own unrounded scores for your own work** — rounding before ranking creates ties
that are not in the data.

A second pitfall: `scipy.stats.friedmanchisquare` applies a *tie correction*, which Demšar's
formula does not. mcda reports both; `statistic` is Demšar's (untied) χ², `statistic_tied` is
scipy's:
"""),
    ("code", r"""
scipy_result = scipy.stats.friedmanchisquare(*cube.to_pandas().T.to_numpy())
print(f"scipy (tie-corrected, printed AUCs): chi2 = {scipy_result.statistic:.3f}, p = {scipy_result.pvalue:.4f}")
print(f"mcda statistic_tied:                 chi2 = {from_auc.statistic_tied:.3f}")
print(f"mcda statistic (Demsar, untied):     chi2 = {from_auc.statistic:.3f}")
"""),
    ("md", r"""
From here on, the analysis uses the printed ranks, so every number can be checked against the
paper.

## 3. The omnibus: Friedman and Iman–Davenport

With $k$ methods, $N$ datasets and mean ranks $R_j$, Friedman's statistic is

$$\chi^2_F = \frac{12N}{k(k+1)}\Big[\sum_j R_j^2 - \frac{k(k+1)^2}{4}\Big],$$

χ² with $k-1$ degrees of freedom under the null hypothesis that all methods are equivalent.
Iman and Davenport showed it is conservative and proposed

$$F_F = \frac{(N-1)\,\chi^2_F}{N(k-1) - \chi^2_F},$$

F-distributed with $k-1$ and $(k-1)(N-1)$ degrees of freedom. Demšar recommends $F_F$, and mcda
decides with it (`rejected`).
"""),
    ("code", r"""
print(from_paper.summary())
critical_f = scipy.stats.f.ppf(0.95, *from_paper.f_df)
print(f"\ncritical F{from_paper.f_df} at alpha 0.05 = {critical_f:.2f} (paper: 2.85); "
      f"F_F = {from_paper.f_statistic:.2f} > {critical_f:.2f}, so the omnibus rejects: {from_paper.rejected}")
"""),
    ("md", r"""
The omnibus says *some* methods differ. It does not say which. That is the post-hoc test's job,
and mcda runs one **only** when the omnibus rejects (`compare_over_datasets` returns
`posthoc=None` otherwise, and no difference may then be claimed).

## 4. Nemenyi: all pairs

Two methods differ when their mean ranks differ by at least the critical difference

$$CD = q_\alpha \sqrt{\frac{k(k+1)}{6N}},$$

where $q_\alpha$ is the Studentized range quantile divided by $\sqrt 2$ (Demšar's Table 5).
"""),
    ("code", r"""
nemenyi_05 = mcda.compare_over_datasets(published, test="nemenyi", alpha=0.05)
print(nemenyi_05.summary())
"""),
    ("code", r"""
nemenyi_10 = mcda.compare_over_datasets(published, test="nemenyi", alpha=0.10)
pd.DataFrame(
    {
        "q_alpha (mcda)": [mcda.q_alpha(4, alpha=0.05), mcda.q_alpha(4, alpha=0.10)],
        "q_alpha (paper)": [2.569, 2.291],
        "CD (mcda)": [nemenyi_05.critical_difference, nemenyi_10.critical_difference],
        "CD (paper)": [1.25, 1.12],
        "pairs separated": [nemenyi_05.posthoc.n_significant, nemenyi_10.posthoc.n_significant],
    },
    index=["alpha = 0.05", "alpha = 0.10"],
)
"""),
    ("md", r"""
At α = 0.05 the omnibus rejects but **no pair is separated**: the largest gap, C4.5 (3.143)
against C4.5+m+cf (1.964), is 1.179 < 1.25. This is not a contradiction. The omnibus tests one
hypothesis; Nemenyi keeps the family-wise error of all six pairwise comparisons at α, and pays
for it in power. At α = 0.10 (CD = 1.12), C4.5 is worse than C4.5+m (gap 1.143) and C4.5+m+cf
(gap 1.179), as in the paper:
"""),
    ("code", r"""
nemenyi_10.posthoc.to_frame()[["method_a", "method_b", "rank_diff", "p_adjusted", "significant"]]
"""),
    ("md", r"""
## 5. Against a control: Bonferroni–Dunn and Holm

When one method is the reference chosen **before** seeing the results (here the plain C4.5, as
in the paper), only its $k-1$ comparisons are tested, which buys power. Bonferroni–Dunn uses the
same CD formula with a Bonferroni-corrected normal quantile ($q_{0.05} = 2.394$ for $k = 4$):
"""),
    ("code", r"""
bonferroni_dunn = mcda.compare_over_datasets(published, test="bonferroni-dunn", control="C4.5")
print(bonferroni_dunn.summary())
bonferroni_dunn.posthoc.to_frame()[["method_a", "method_b", "rank_diff", "p_adjusted", "significant"]]
"""),
    ("md", r"""
The paper prints CD = 1.16; $2.394 \times \sqrt{4 \cdot 5 / (6 \cdot 14)} = 2.394 \times 0.488 =
1.168$, which mcda reports unrounded (the paper cuts the third decimal). The decisions agree:
C4.5+m+cf differs from C4.5 (gap 1.179 > 1.168), C4.5+m does not (1.143), C4.5+cf does not
(0.250).

Holm's step-down procedure tests the same $k-1$ hypotheses with the same family-wise guarantee
and more power: it compares the smallest p-value with α/(k−1), the next with α/(k−2), and so on.
The paper's table: z = 2.416, 2.342, 0.512 and p = 0.016, 0.019, 0.607.
"""),
    ("code", r"""
holm = mcda.control_test(published, control="C4.5", test="holm")
table = holm.to_frame()[["method_a", "method_b", "rank_diff", "z", "p_raw", "p_adjusted", "significant"]]
table["z (paper)"] = table["method_b"].map({"C4.5+m": 2.342, "C4.5+cf": 0.512, "C4.5+m+cf": 2.416})
table["p (paper)"] = table["method_b"].map({"C4.5+m": 0.019, "C4.5+cf": 0.607, "C4.5+m+cf": 0.016})
table
"""),
    ("md", r"""
(The paper's z = 2.416 divides by the rounded standard error 0.488; unrounded it is 2.415.)
Holm separates **both** C4.5+m+cf (p = 0.016 < 0.05/3) and C4.5+m (p = 0.019 < 0.05/2) from
C4.5, where Bonferroni–Dunn separated only the first. `p_adjusted` is Holm's adjusted p-value
(compare it with α directly).

## 6. The critical-difference diagram

The diagram puts the mean ranks on an axis (rank 1, the best, at the left), draws the CD above
it, and joins with a thick bar the methods the test did **not** separate. The bars come from
`result.groups`, computed from the pairwise decisions, so a bar never spans a pair the test
separated.
"""),
    ("code", r"""
fig, ax = plot_critical_difference(nemenyi_10, width="page")
"""),
    ("md", r"""
At α = 0.10: C4.5 is joined only to C4.5+cf; C4.5+m and C4.5+m+cf are separated from C4.5.
At α = 0.05 one bar joins all four, which is what "no pair is separated" looks like:
"""),
    ("code", r"""
fig, ax = plot_critical_difference(nemenyi_05, width="page")
"""),
    ("md", r"""
Against the control, the diagram shows the interval control ± CD instead of a CD bar, and one
thick bar joins the control to the methods not separated from it (C4.5+m and C4.5+cf; only the
comparisons with the control are tested, so the bar says nothing about C4.5+m against C4.5+cf):
"""),
    ("code", r"""
fig, ax = plot_critical_difference(bonferroni_dunn, highlight="C4.5", width="page")
"""),
    ("md", r"""
To put a figure in a paper, save it with `mcda.plots.savefig(fig, "cd.pdf")`: it embeds the fonts
and keeps the vector settings of mcda's style.

## 7. In one call

`mcda.Report` holds a cube and the analyst's choices (α, post-hoc test, rope, …) and gives every
view from them. On the printed AUCs, its overview shows the Friedman test (9.857: the voting tie
again), the CD groups, pairwise superiority, transitivity and the Bayesian sign test:
"""),
    ("code", r"""
report = mcda.Report(cube, rng=2006)
print(report.overview())
"""),
    ("md", r"""
The command line gives the same report, and writes the figures, LaTeX tables and a JSON bundle:

```
mcda compare --example demsar2006 --out demsar-out
mcda compare my_scores.csv --metric auroc --out my-out
```

## What to remember

* Rank within datasets, test with Friedman / Iman–Davenport, and only if the omnibus rejects,
  run a post-hoc test: Nemenyi for all pairs, Bonferroni–Dunn or (better) Holm against a control
  chosen beforehand.
* The omnibus can reject while no pair is separated: with 14 datasets the CD is large.
* Rank unrounded scores. Printed tables hide ties and create new ones (the voting row).
* Demšar's χ² has no tie correction; scipy's has one. Say which you report.
"""),
]
