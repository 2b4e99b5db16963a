# Reference values for mcda's Quade and aligned-ranks tests, from R (base stats) and scmamp.
#
# Run from the repository root:
#   Rscript tests/data/rank_omnibus_r/make_reference.R <path to a scmamp checkout>
# scmamp (github b0rxa/scmamp, commit 3cf4d8b9759769cdf20771afa0efc33a5265c7f9) is sourced from its
# R/ files: it is archived on CRAN and only its plain functions are needed (no package install).
# Writes tests/data/rank_omnibus_r/r_reference.csv (long format: design, quantity, method_a, method_b, value).
args <- commandArgs(trailingOnly = TRUE)
scmamp <- if (length(args) >= 1) args[1] else "scmamp"
source(file.path(scmamp, "R", "tests.R"))
source(file.path(scmamp, "R", "post_hoc.R"))

wide <- function(tidy, score) {
  m <- tapply(tidy[[score]], list(factor(tidy$dataset, levels = unique(tidy$dataset)),
                                  factor(tidy$method, levels = unique(tidy$method))), identity)
  as.data.frame.matrix(m)
}
designs <- list()
g10 <- read.csv("tests/data/garcia2010/garcia2010_accuracy.csv", check.names = FALSE)
designs[["garcia2010"]] <- wide(g10, "accuracy")
g08 <- read.csv("tests/data/garcia_herrera2008/garcia_herrera2008_table2_accuracy.csv", check.names = FALSE)
designs[["garcia_herrera2008"]] <- wide(g08, "score")
rnd <- read.csv("tests/data/rank_omnibus_r/designs.csv")
for (d in unique(rnd$design)) designs[[d]] <- wide(rnd[rnd$design == d, ], "score")

out <- data.frame(design = character(), quantity = character(), method_a = character(),
                  method_b = character(), value = numeric(), stringsAsFactors = FALSE)
add <- function(design, quantity, value, a = "", b = "") {
  out[nrow(out) + 1, ] <<- list(design, quantity, a, b, value)
}
for (name in names(designs)) {
  x <- as.matrix(designs[[name]])
  methods <- colnames(x)
  q <- stats::quade.test(x)              # blocks in rows, groups in columns
  add(name, "quade_F", unname(q$statistic))
  add(name, "quade_pvalue", q$p.value)
  add(name, "quade_df1", unname(q$parameter[1]))
  add(name, "quade_df2", unname(q$parameter[2]))
  f <- stats::friedman.test(x)
  add(name, "friedman_chi2_tied", unname(f$statistic))
  a <- friedmanAlignedRanksTest(as.data.frame(x))
  add(name, "aligned_T", unname(a$statistic))
  add(name, "aligned_pvalue", a$p.value)
  # the aligned mean ranks scmamp's post hoc uses (rank 1 = largest aligned value)
  k <- ncol(x); diffs <- x - rowMeans(x)
  ranks <- matrix(rank(-as.vector(diffs)), ncol = k)
  for (j in seq_len(k)) add(name, "aligned_mean_rank", mean(ranks[, j]), methods[j])
  # The same statistic with ties taken in exact arithmetic: aligned values rounded to 12 decimals
  # before ranking (the scores have at most 3 decimals), then scmamp's formula. On data whose
  # aligned values are not exact in binary (0.752 - mean), scmamp's rank() breaks real ties by the
  # last bits of the subtraction; this variant does not.
  exact <- matrix(rank(-round(as.vector(diffs), 12)), ncol = k)
  r.j <- colSums(exact); r.i <- rowSums(exact); kn <- k * nrow(x); N <- nrow(x)
  t.exact <- (k - 1) * (sum(r.j^2) - (kn * N / 4) * (kn + 1)^2) / ((kn * (kn + 1) * (2 * kn + 1)) / 6 - sum(r.i^2) / k)
  add(name, "aligned_T_exact_ties", t.exact)
  add(name, "aligned_pvalue_exact_ties", 1 - pchisq(t.exact, df = k - 1))
  for (j in seq_len(k)) add(name, "aligned_mean_rank_exact_ties", mean(exact[, j]), methods[j])
  # quade.test's formulas (R 4.2.2 source) with the ranges' ties taken in exact arithmetic
  r <- t(apply(x, 1L, rank)); q <- rank(round(apply(x, 1, function(u) max(u) - min(u)), 12))
  s <- q * (r - (k + 1) / 2); A <- sum(s^2); B <- sum(colSums(s)^2) / N
  add(name, "quade_F_exact_ties", (N - 1) * B / (A - B))
  p <- friedmanAlignedRanksPost(as.data.frame(x))
  for (i in 1:(k - 1)) for (j in (i + 1):k) add(name, "aligned_posthoc_p_raw", p[i, j], methods[i], methods[j])
}
write.csv(out, "tests/data/rank_omnibus_r/r_reference.csv", row.names = FALSE)
cat(R.version.string, "\n")
