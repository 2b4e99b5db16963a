"""Cells of 02_single_cell_clustering_duo2018.ipynb (see _make_notebooks.py)."""

NAME = "02_single_cell_clustering_duo2018"

CELLS = [
    ("md", r"""
# Single-cell clustering: Duò, Robinson & Soneson (2018)

Duò et al. benchmarked 14 clustering methods for single-cell RNA-seq data on 12 datasets (9 real,
3 simulated) and concluded that **"SC3 and Seurat [show] the most favorable results"**
(F1000Research 7:1141, doi:10.12688/f1000research.15666). mcda bundles their results as
prepared by the `bettr` package: the median over five runs of the adjusted Rand index (ARI)
against the true labels, at the true number of clusters.

The paper gives no test statistics, so **every number below is computed here, not published**.
The notebook asks what these 12 datasets let us claim:

1. what is missing, and what each procedure then leaves out;
2. across datasets: Friedman, Nemenyi, the CD diagram;
3. pairwise superiority (sign tests on the datasets each pair shares);
4. transitivity: do the pairwise majorities form an order?
5. the Bayesian sign test: better, equivalent, or undecided;
6. ARI and run time together: the practical Pareto front and how the top choice depends on the
   weight given to speed.
"""),
    ("code", r"""
%matplotlib inline
import pandas as pd

import mcda
from mcda.plots import (plot_critical_difference, plot_posterior, plot_posterior_bars, plot_relation,
                        plot_superiority)

pd.set_option("display.precision", 3)
pd.set_option("display.width", 120)

cube = mcda.datasets.load("duo2018")
print(mcda.datasets.describe("duo2018"))
print({key: cube.attrs[key] for key in ("metric", "direction", "noise_floor")})
cube.to_pandas().T
"""),
    ("md", r"""
Rows are methods, columns datasets. Many cells are exactly 1 (a perfect clustering) and several
methods tie on the same dataset, so ranks will have many ties. The ARI card sets the noise floor
at 0.01: two ARIs closer than that are treated as practically equal.

## 1. Missing cells

Some methods have no result on some datasets (they failed or could not produce the true number
of clusters). mcda never fills them in. `missing_cells` lists them:
"""),
    ("code", r"""
mcda.missing_cells(cube)
"""),
    ("md", r"""
Rank-based procedures across datasets (Friedman, Nemenyi) need every method on every dataset.
There are two ways to get a complete table, and they answer different questions:

* drop the **methods** with gaps (SAFE, ascend), keeping all 12 datasets (mcda's default);
* drop the **datasets** with gaps, keeping all 14 methods on the 8 complete datasets.

`complete_cases` shows both and names what each excludes:
"""),
    ("code", r"""
for policy in ("methods", "datasets"):
    complete = mcda.complete_cases(cube, policy=policy)
    print(f"policy={policy!r}: {dict(complete.cube.sizes)}, excluded: {complete.excluded}")
"""),
    ("md", r"""
## 2. Across datasets: Friedman, then Nemenyi

`compare_over_datasets` drops the incomplete methods, says so in a `MissingDataWarning` and in
the result (`excluded`), ranks the 12 remaining methods within each dataset, runs the Friedman
test and, because it rejects, Nemenyi's test over all 66 pairs.
"""),
    ("code", r"""
across = mcda.compare_over_datasets(cube)
print(across.summary())
"""),
    ("md", r"""
SC3 has the best mean rank (3.17), but with 12 methods on 12 datasets the critical difference is
4.81 ranks, and SC3 is separated only from the three methods at the bottom. The CD shrinks only
as $1/\sqrt{N}$: to halve it one would need four times as many datasets.

In the diagram, rank 1 is at the left; a thick bar joins methods the test did not separate:
"""),
    ("code", r"""
fig, ax = plot_critical_difference(across, highlight=["SC3", "Seurat"], width="page")
"""),
    ("code", r"""
for number, group in enumerate(across.groups, start=1):
    print(f"group {number}: " + ", ".join(group))
"""),
    ("md", r"""
Each group is a maximal set of methods no two of which were separated. They overlap: "not
separated" is not transitive (SC3 is not separated from TSCAN, TSCAN is not separated from
RaceID2, yet SC3 and RaceID2 are separated).

The other complete design, 14 methods on the 8 complete datasets, has fewer datasets and more
methods, so its CD is larger still:
"""),
    ("code", r"""
complete_datasets = mcda.complete_cases(cube, policy="datasets").cube
across_8 = mcda.compare_over_datasets(complete_datasets)
pd.DataFrame(
    {
        "methods": [across.n_methods, across_8.n_methods],
        "datasets": [across.n_datasets, across_8.n_datasets],
        "Friedman chi2": [across.friedman.statistic, across_8.friedman.statistic],
        "Iman-Davenport F": [across.friedman.f_statistic, across_8.friedman.f_statistic],
        "CD (Nemenyi, 0.05)": [across.critical_difference, across_8.critical_difference],
        "pairs separated": [across.posthoc.n_significant, across_8.posthoc.n_significant],
        "best": [across.mean_ranks.idxmin(), across_8.mean_ranks.idxmin()],
    },
    index=["drop SAFE and ascend", "drop the 4 incomplete datasets"],
)
"""),
    ("md", r"""
Both designs put SC3 first. Mean ranks depend on which methods are in the pool: adding or
removing a method changes everyone's ranks. The next three views do not: each pair of methods is
compared on the datasets **both** have, so SAFE and ascend come back in.

## 3. Pairwise superiority

For each pair (a, b) and each dataset both have, the ARI difference falls in one of three
regions: a better by more than the noise floor, equivalent (within 0.01), or b better. An exact
two-sided sign test on the decisive datasets (the equivalences dropped, as Demšar's sign test
does) says whether the wins are more lopsided than chance. With 91 pairs, we adjust the p-values
with Holm's method.
"""),
    ("code", r"""
superiority = mcda.pairwise_superiority(cube, adjust="holm")
print(superiority.summary())
"""),
    ("md", r"""
The table behind it has one row per pair. SC3's pairs, from its most to its least decisive:
"""),
    ("code", r"""
pairs = superiority.to_frame()
columns = ["method_a", "method_b", "n_datasets", "wins_a", "n_equivalent", "wins_b", "p_raw", "p_adjusted",
           "superior"]
sc3 = pairs[(pairs["method_a"] == "SC3") | (pairs["method_b"] == "SC3")]
sc3[columns].sort_values("p_raw").round({"p_raw": 4, "p_adjusted": 3})
"""),
    ("md", r"""
**With Holm's adjustment over 91 pairs, no pair is told apart.** SC3 loses to no method on more
than 2 datasets, but 12 datasets are few for a sign test: before adjustment, 10 wins out of 12
decisive datasets give p = 0.039; after adjusting for 91 comparisons, only a clean sweep of all
12 (p = 0.00049 × 91 = 0.044) would do. SC3 against RaceID2 (11 wins, 1 equivalence) comes
closest. Against SC3svm only 4 datasets are decisive (the other 8 are within 0.01), and a sign
test on 4 datasets cannot reach 0.05 even if all 4 go one way: mcda warns about such pairs.

Nemenyi separated 5 pairs where the sign tests separate none. They use the data differently:
Nemenyi compares mean ranks among all 12 methods of the pool (a third method moves the ranks of
the other two), the sign test only counts the two methods' own wins and losses, dataset by
dataset. Neither is wrong; they are different claims, and the paper reporting them should say
which it makes.

The matrix below shows, for every pair, the share of shared datasets on which the row method
beats the column method by more than the noise floor; methods are in order of standing (best
first):
"""),
    ("code", r"""
fig, ax = plot_superiority(superiority, width="page")
"""),
    ("md", r"""
## 4. Transitivity

Draw an arrow a → b when a beats b on more shared datasets than b beats a (the pairwise
majority). If the arrows admit a single order, the relation is transitive. A **circular triad**
a → b → c → a means that no order of the methods agrees with all the pairwise majorities: any
ranking then hides a disagreement.
"""),
    ("code", r"""
transitivity = mcda.pairwise_transitivity(superiority)
print(transitivity.summary())
"""),
    ("md", r"""
SC3 is the **Condorcet choice**: it beats every other method on a majority of their shared
datasets. Lower down, the relation has one circular triad (PCAHC → TSCAN → ascend → PCAHC) and
seven pairs with as many wins as losses, so no single order of all 14 methods follows from the
pairwise evidence. Kendall's coefficient of consistence needs a winner in every pair, so mcda
reports it as undefined rather than pretending.
"""),
    ("code", r"""
fig, ax = plot_relation(transitivity, width="page")
"""),
    ("md", r"""
## 5. The Bayesian sign test

The sign test above answers "are the wins more lopsided than chance?". The Bayesian sign test
(Benavoli et al. 2017) answers the question one usually means: given these datasets, how
probable is it that a is practically better than b, that they are practically equivalent (within
the noise floor), or that b is better? A pair is decided when one of the three probabilities
reaches 0.95; otherwise it is **inconclusive**, which is an honest answer with 12 datasets.

mcda computes the probabilities exactly (no sampling):
"""),
    ("code", r"""
bayes = mcda.bayesian_sign_comparison(cube)
table = bayes.to_frame()
print(table["label"].value_counts().to_string())
columns = ["method_a", "method_b", "n_datasets", "prob_a_better", "prob_equivalent", "prob_b_better", "label"]
table.loc[(table["method_a"] == "SC3") | (table["method_b"] == "SC3"), columns].round(3)
"""),
    ("md", r"""
Only SC3 against RaceID2 and CIDR reaches 0.95 among SC3's pairs; SC3 and SC3svm are probably
practically equivalent (0.93: close, but below the threshold). Everything else stays
inconclusive. The bars show SC3's pairs (SC3 is "a" in every row): the left segment is P(SC3
better), the middle P(equivalent), the right P(other better); the dashed lines mark the 0.95
threshold.
"""),
    ("code", r"""
fig, ax = plot_posterior_bars(bayes, pairs="SC3", width="page")
"""),
    ("md", r"""
To see the whole posterior for one pair, sample it. Each point of the triangle is one draw of the
shares of the three regions; the lines from the centre split it by which region is the largest,
so the share of draws in each part is the probability above.
"""),
    ("code", r"""
sampled = mcda.bayesian_sign_comparison(cube, method="sampling", n_samples=20_000, rng=2018)
fig, ax = plot_posterior(sampled, ("SC3", "Seurat"))
"""),
    ("md", r"""
Sampled and exact probabilities agree within Monte Carlo error. A sampled probability p has
standard error $\sqrt{p(1-p)/n}$ (at most 0.0035 with n = 20,000 draws); over 91 pairs × 3
probabilities, the largest deviation should be within about 4 standard errors:
"""),
    ("code", r"""
import numpy as np

columns = ["prob_a_better", "prob_equivalent", "prob_b_better"]
exact = bayes.to_frame()[columns].to_numpy()
difference = np.abs(sampled.to_frame()[columns].to_numpy() - exact)
standard_error = np.sqrt(exact * (1 - exact) / 20_000)
z = difference / np.maximum(standard_error, 1e-12)
print(f"largest |sampled - exact| over {len(exact)} pairs: {difference.max():.4f}")
print(f"largest deviation in standard errors: {z[difference > 0].max():.1f}")
"""),
    ("md", r"""
## 6. ARI and run time together

A method that clusters well but takes hours may not be the one to recommend. `duo2018_all` holds
four criteria for the same runs, each with its own metric card (direction and noise floor):
"""),
    ("code", r"""
criteria = mcda.datasets.load("duo2018_all")
pd.DataFrame({
    "direction": criteria.coords["direction"].to_pandas(),
    "noise floor": criteria.coords["noise_floor"].to_pandas(),
})
"""),
    ("md", r"""
**Practical dominance.** On one dataset, a dominates b when a is not worse than b beyond the noise
floor on any criterion and better beyond it on at least one. Across datasets, a pair is compared
by a sign test on the datasets where one dominates the other, and the **practical Pareto front**
is the set of methods that no other method dominates on a majority of their shared datasets.
With ARI (floor 0.01) and elapsed time (floor 0.1 s):
"""),
    ("code", r"""
dominance = mcda.practical_dominance(criteria, metrics=["ARI", "elapsed"])
print(dominance.summary())
"""),
    ("md", r"""
Three methods are on the front: **SC3** (the best ARI), **CIDR** (fast) and **Seurat** (fast
and accurate). Each point below is a method's median over datasets with an interval for the
median; the run-time axis is logarithmic and reversed, so the best corner is the top right.
Whether a method is on the front is decided dataset by dataset, not from these medians.
"""),
    ("code", r"""
fig, ax = mcda.plots.plot_tradeoffs(dominance, x="elapsed", y="ARI", xscale="log", width="page")
"""),
    ("md", r"""
**Which to choose depends on the weights.** PROMETHEE II turns per-dataset preferences on each
criterion (with the noise floor as the indifference threshold) into one net flow per method,
given weights for the criteria. `weight_stability` tries every weight on a grid and records the
top choice. (PROMETHEE needs every method on every dataset for both criteria, so SAFE and ascend
are left out here and named in the result.)
"""),
    ("code", r"""
stability = mcda.weight_stability(criteria, metrics=["ARI", "elapsed"])
print(stability.summary())
choices = stability.top_choices()
choices[choices["top"] != choices["top"].shift()]
"""),
    ("md", r"""
The table lists the weights at which the top choice changes: Seurat is first unless the weight
on run time drops to 0.15 or less, where SC3 takes over. Seurat is the top choice over 81 % of
the weight range. In the figure, each line is a method's mean net flow as the weight on run time
goes from 0 (ARI only) to 1 (run time only); the bars at the bottom mark where each method is on
top.
"""),
    ("code", r"""
fig, ax = mcda.plots.plot_weight_stability(stability, width="page")
"""),
    ("md", r"""
## What these 12 datasets support

* **SC3 has the best ARI** by every view: best mean rank, Condorcet choice, highest standing.
  But the evidence separates it only from the weakest methods; against its closest competitors
  (SC3svm, Seurat, RtsneKmeans, pcaReduce) the tests are inconclusive, and SC3 and SC3svm are
  probably practically equivalent.
* **No full ranking is supported**: the pairwise majorities contain a cycle and many ties.
* **With run time**, SC3, Seurat and CIDR are on the practical Pareto front, and Seurat is the top
  choice for most weightings. This matches the paper's "SC3 and Seurat", reached here with
  tests whose assumptions are stated; none of these numbers are published in the paper.
"""),
]
