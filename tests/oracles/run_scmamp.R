# The live R oracle: scmamp's own functions (sourced, not installed) and base R's stats on every design.
#
#   Rscript tests/oracles/run_scmamp.R <folder>
#
# <folder> holds design_*.csv files (one matrix each: a header of method names, one row per dataset,
# higher is better; written by tests/test_peers_r.py). For each design this writes
# <folder>/oracle.csv: design, quantity, i, j, value (i, j 1-based method columns, 0 when not a
# pair; value printed with 17 significant digits, so a double survives the round trip).
#
# scmamp's R files are read from tests/oracles/scmamp/ (github b0rxa/scmamp, GPL-2; see its
# PROVENANCE.md): tests.R and post_hoc.R are plain function definitions, sysdata.rda holds the
# exhaustive sets Bergmann–Hommel needs. Installing the package is not needed (ggplot2, Rgraphviz,
# reshape2 are used only by functions not called here).
args <- commandArgs(trailingOnly = TRUE)
folder <- args[1]
here <- dirname(normalizePath(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1])))
scmamp <- file.path(here, "scmamp")
source(file.path(scmamp, "tests.R"))
source(file.path(scmamp, "post_hoc.R"))
load(file.path(scmamp, "sysdata.rda"))  # exhaustive.sets

rows <- list()
emit <- function(design, quantity, value, i = 0, j = 0) {
  rows[[length(rows) + 1]] <<- data.frame(design = design, quantity = quantity, i = i, j = j,
                                          value = sprintf("%.17g", as.numeric(value)))
}
upper <- function(design, quantity, m) {  # every pair a < b of a k x k matrix
  k <- nrow(m)
  for (a in 1:(k - 1)) for (b in (a + 1):k) emit(design, quantity, m[a, b], a, b)
}
controlled <- function(design, quantity, v) {  # a 1 x k row against control 1 (NA at the control)
  for (b in 2:length(v)) emit(design, quantity, v[b], 1, b)
}

for (path in sort(Sys.glob(file.path(folder, "design_*.csv")))) {
  design <- sub("^design_(.*)\\.csv$", "\\1", basename(path))
  data <- read.csv(path, check.names = FALSE)
  x <- as.matrix(data)
  k <- ncol(x)
  emit(design, "k", k)
  # omnibus tests: scmamp and base R
  ft <- friedmanTest(data)
  emit(design, "scmamp_friedman_chi2", ft$statistic); emit(design, "scmamp_friedman_p", ft$p.value)
  id <- imanDavenportTest(data)
  emit(design, "scmamp_iman_davenport_F", id$statistic); emit(design, "scmamp_iman_davenport_p", id$p.value)
  qt <- quadeTest(data)
  emit(design, "scmamp_quade_F", qt$statistic); emit(design, "scmamp_quade_p", qt$p.value)
  at <- friedmanAlignedRanksTest(data)
  emit(design, "scmamp_aligned_T", at$statistic); emit(design, "scmamp_aligned_p", at$p.value)
  rf <- stats::friedman.test(-x)  # R ranks ascending; the sign makes rank 1 the best, as scmamp
  emit(design, "r_friedman_chi2", rf$statistic); emit(design, "r_friedman_p", rf$p.value)
  rq <- stats::quade.test(x)
  emit(design, "r_quade_F", rq$statistic); emit(design, "r_quade_p", rq$p.value)
  # the Friedman z post-hoc (Demšar's SE), all pairs and against column 1
  raw <- friedmanPost(data)
  upper(design, "scmamp_friedman_post_p", raw)
  pairs <- generatePairs(k, NULL)
  p <- raw[pairs]
  for (method in c("holm", "hochberg", "hommel", "bonferroni", "BH", "BY")) {
    adj <- raw; adj[pairs] <- p.adjust(p, method = method)
    upper(design, paste0("r_p_adjust_", method), adj)
  }
  for (fun in c("adjustHolland", "adjustFinner", "adjustLi")) {
    adj <- raw; adj[pairs] <- suppressWarnings(get(fun)(p))
    upper(design, paste0("scmamp_", fun), adj)
  }
  upper(design, "scmamp_adjustShaffer", adjustShaffer(raw))
  if (k <= 8) {
    upper(design, "scmamp_adjustBergmannHommel", adjustBergmannHommel(raw))
    # García & Herrera's (2008) APV: scmamp's own inner step (the max over the exhaustive sets holding
    # the pair of min(1, |I| min_I p)), without the running maximum adjustBergmannHommel adds after it
    es.k <- exhaustive.sets[[k]]
    apv <- sapply(1:nrow(pairs), function(i) {
      max(unlist(lapply(es.k, function(s) if (any(colSums(pairs[i, ] == s) == 2)) min(ncol(s) * min(raw[t(s)]), 1))))
    })
    adj <- raw; adj[pairs] <- apv
    upper(design, "scmamp_bergmann_hommel_apv", adj)
  }
  cp <- friedmanPost(data, control = 1)
  controlled(design, "scmamp_friedman_post_control_p", cp)
  pc <- cp[-1]
  for (method in c("holm", "hochberg", "hommel", "bonferroni")) {
    controlled(design, paste0("r_p_adjust_control_", method), c(NA, p.adjust(pc, method = method)))
  }
  for (fun in c("adjustHolland", "adjustFinner", "adjustLi")) {
    controlled(design, paste0("scmamp_control_", fun), c(NA, suppressWarnings(get(fun)(pc))))
  }
  controlled(design, "scmamp_control_adjustRom", c(NA, adjustRom(pc, alpha = 0.05)))
  # base R's Wilcoxon signed-rank test of columns 1 and 2 over the datasets: the normal approximation with
  # the tie correction, zeros dropped, no continuity correction
  w <- suppressWarnings(stats::wilcox.test(x[, 1], x[, 2], paired = TRUE, exact = FALSE, correct = FALSE))
  emit(design, "r_wilcox_p", w$p.value, 1, 2)
}
out <- do.call(rbind, rows)
write.csv(out, file.path(folder, "oracle.csv"), row.names = FALSE, quote = FALSE)
