# Adjusted p-values of scmamp (Holland, Finner, Rom, Li) and base R (Holm, Hochberg, Hommel, Bonferroni)
# on the control-post-hoc p-values of the two published examples, for the p-value adjustment tests.
#
# Run from the repository root:
#   Rscript tests/data/rank_omnibus_r/make_adjusted.R <path to a scmamp checkout>
# scmamp: github b0rxa/scmamp, commit 3cf4d8b9759769cdf20771afa0efc33a5265c7f9 (R/tests.R, R/post_hoc.R).
# Writes tests/data/rank_omnibus_r/r_adjusted.csv: design, posthoc, control, method, p_raw, then one column
# per adjustment.
args <- commandArgs(trailingOnly = TRUE)
scmamp <- if (length(args) >= 1) args[1] else "scmamp"
source(file.path(scmamp, "R", "tests.R"))
source(file.path(scmamp, "R", "post_hoc.R"))

wide <- function(tidy, score) {
  m <- tapply(tidy[[score]], list(factor(tidy$dataset, levels = unique(tidy$dataset)),
                                  factor(tidy$method, levels = unique(tidy$method))), identity)
  as.data.frame.matrix(m)
}
designs <- list(
  garcia2010 = list(data = wide(read.csv("tests/data/garcia2010/garcia2010_accuracy.csv", check.names = FALSE),
                                "accuracy"), control = "PDFC"),
  garcia_herrera2008 = list(data = wide(read.csv("tests/data/garcia_herrera2008/garcia_herrera2008_table2_accuracy.csv",
                                                 check.names = FALSE), "score"), control = "C4.5"))
rows <- list()
for (name in names(designs)) {
  x <- designs[[name]]$data
  control <- designs[[name]]$control
  for (posthoc in c("friedman", "aligned")) {
    raw <- if (posthoc == "friedman") friedmanPost(x, control = control) else friedmanAlignedRanksPost(x, control = control)
    p <- raw[1, ]
    keep <- !is.na(p)
    p <- p[keep]
    rows[[length(rows) + 1]] <- data.frame(
      design = name, posthoc = posthoc, control = control, method = names(p), p_raw = unname(p),
      bonferroni = p.adjust(p, "bonferroni"), holm = p.adjust(p, "holm"), hochberg = p.adjust(p, "hochberg"),
      hommel = p.adjust(p, "hommel"), holland = adjustHolland(p), finner = adjustFinner(p),
      rom = adjustRom(p), li = adjustLi(p), check.names = FALSE)
  }
}
out <- do.call(rbind, rows)
write.csv(out, "tests/data/rank_omnibus_r/r_adjusted.csv", row.names = FALSE)
print(out)
