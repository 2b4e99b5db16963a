# The R package smaa on draws made by mcda (tests/test_smaa.py, benchmarks/bench_smaa.py).
# Usage: Rscript run_smaa.R LIBRARY DIRECTORY NAME...
# For each NAME, DIRECTORY/NAME.dims holds "n_draws n_methods n_criteria single_weight" and
# NAME.meas / NAME.pref the draws as little-endian float64 in R's (column-major) order:
# meas[draw, method, criterion] and pref[draw, criterion] (pref[criterion] with one weight vector).
# Writes NAME.counts (methods x ranks: draws with each rank), NAME.cw (central weights, NA where
# undefined), NAME.cf (draws ranking first under the central weights, NA where undefined) and
# NAME.seconds (elapsed seconds of smaa() and smaa.cf(), measured inside R: start-up excluded).
args <- commandArgs(trailingOnly = TRUE)
.libPaths(c(args[1], .libPaths()))
suppressPackageStartupMessages(library(smaa))
directory <- args[2]
for (name in args[-(1:2)]) {
  path <- function(ext) file.path(directory, paste0(name, ".", ext))
  dims <- scan(path("dims"), quiet = TRUE)
  N <- dims[1]; k <- dims[2]; m <- dims[3]; single <- dims[4] == 1
  meas <- array(readBin(path("meas"), "double", n = N * k * m, size = 8, endian = "little"), dim = c(N, k, m))
  pref <- readBin(path("pref"), "double", n = if (single) m else N * m, size = 8, endian = "little")
  if (!single) pref <- matrix(pref, nrow = N, ncol = m)
  started <- proc.time()[["elapsed"]]
  result <- smaa(meas, pref)
  ranked <- proc.time()[["elapsed"]]
  counts <- round(unclass(result$ra) * N)
  write.table(counts, path("counts"), row.names = FALSE, col.names = FALSE)
  if (!single) {
    cw <- unclass(result$cw)
    attr(cw, "smaa.N") <- NULL
    cf <- smaa.cf(meas, cw)$cf
    write.table(format(cw, digits = 17), path("cw"), row.names = FALSE, col.names = FALSE, quote = FALSE)
    write.table(round(cf * N), path("cf"), row.names = FALSE, col.names = FALSE)
  }
  done <- proc.time()[["elapsed"]]
  writeLines(format(c(ranked - started, done - ranked), digits = 17), path("seconds"))
}
