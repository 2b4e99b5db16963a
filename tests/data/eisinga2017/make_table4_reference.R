## The quantities of Table 4 of Eisinga et al. (2017): for k = n = 5, every rank-sum difference d,
## the exact p-value P(D >= d), the point probability P(D = d), the mid-p-value P(D >= d) - P(D = d)/2,
## and the number of compositions W(D >= d), from the authors' own pexactfrsd() (as copied into
## PMCMRplus; needs Rmpfr and gmp). Their R file's "Example 4" makes this table; the copies found drop
## the example, so the loop below is ours.
## Usage: Rscript make_table4_reference.R <PMCMRplus checkout> > table4_r_reference.csv
args <- commandArgs(trailingOnly = TRUE)
suppressMessages({library(Rmpfr); library(gmp)})
source(file.path(args[1], "R", "pexactfrsd.R"))
k <- 5; n <- 5
cat("k,n,d,pvalue,probability,mid_pvalue,cumulative_compositions\n")
for (d in 0:(n * (k - 1))) {
  p <- pexactfrsd(d, k, n, "pvalue")
  pr <- pexactfrsd(d, k, n, "probability")
  w <- if (d == 0) "" else sprintf("%.0f", as.numeric(pexactfrsd(d, k, n, "cumulative no of compositions")))
  cat(sprintf("%d,%d,%d,%.17g,%.17g,%.17g,%s\n", k, n, d, p, pr, p - pr / 2, w))
}
