## Reference values for the application example of Eisinga et al. (2017): the qPCR data of
## Ruijter et al. (2013, Table 2), k = 11 methods, n = 4 blocks.
## Usage: Rscript make_qpcr_reference.R <PMCMRplus checkout> qpcr_ruijter2013.csv > qpcr_r_reference.csv
## Sources PMCMRplus's R files (GPL-3; only the numbers printed here are kept in this repository).
## pexactfrsd() is the authors' own R implementation (the paper's additional file, copied into
## PMCMRplus); it needs Rmpfr and gmp (Debian: r-cran-rmpfr, r-cran-gmp).
args <- commandArgs(trailingOnly = TRUE)
suppressMessages({library(Rmpfr); library(gmp)})
for (f in c("frdRanks.R", "pexactfrsd.R", "frdAllPairsExactTest.R", "frdAllPairsSiegelTest.R",
            "frdAllPairsNemenyiTest.R")) source(file.path(args[1], "R", f))
Y <- as.matrix(read.csv(args[2], row.names = 1, check.names = FALSE))
exact_raw <- frdAllPairsExactTest(Y, p.adjust.method = "none")
exact_bonf <- frdAllPairsExactTest(Y, p.adjust.method = "bonferroni")
normal_bonf <- frdAllPairsSiegelTest(Y, p.adjust.method = "bonferroni")
tukey <- frdAllPairsNemenyiTest(Y)
rows <- character(0)
g <- colnames(Y)
for (j in 1:(ncol(Y) - 1)) for (i in (j + 1):ncol(Y)) {
  a <- g[j]; b <- g[i]
  rows <- c(rows, sprintf("%s,%s,%.10g,%.15g,%.15g,%.15g,%.15g", a, b,
                          abs(exact_raw$statistic[b, a]), exact_raw$p.value[b, a], exact_bonf$p.value[b, a],
                          normal_bonf$p.value[b, a], tukey$p.value[b, a]))
}
cat("method_a,method_b,rank_sum_difference,p_exact,p_exact_bonferroni,p_normal_bonferroni,p_studentized_range\n")
cat(rows, sep = "\n"); cat("\n")
