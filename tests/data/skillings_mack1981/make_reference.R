## Skillings-Mack statistics of the two worked examples in this directory, from PMCMRplus's
## skillingsMackTest (T. Pohlert, GPL-3; sourced from a checkout, only the printed numbers are kept).
## Usage: Rscript make_reference.R <PMCMRplus checkout> > r_reference.csv   (run in this directory)
args <- commandArgs(trailingOnly = TRUE)
suppressMessages(library(MASS))
source(file.path(args[1], "R", "skillingsMackTest.R"))
cat("example,statistic,df,pvalue\n")
for (name in c("assembly", "../hollander_wolfe1999/rhythmicity")) {
  Y <- as.matrix(read.csv(paste0(name, ".csv"), row.names = 1, check.names = FALSE))
  r <- skillingsMackTest.default(Y)
  cat(sprintf("%s,%.15g,%d,%.15g\n", basename(name), r$statistic, as.integer(r$parameter), r$p.value))
}
