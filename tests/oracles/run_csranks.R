# csranks' own R code (tests/oracles/csranks, see its PROVENANCE.md) on the designs in a folder:
#   Rscript run_csranks.R <csranks folder> <design folder>
# The folder holds designs.csv (name, draws, seed, full) and per design <name>_x.csv (the estimates) and
# <name>_sigma.csv (their covariance, no header). Writes <design folder>/out.csv: design, quantity,
# index, value, with quantity one of
#   L_simul, U_simul        csranks(simul=TRUE)  (stepwise)
#   L_single, U_single      csranks(simul=TRUE, stepdown=FALSE)         (only where full is TRUE)
#   L_marg, U_marg          csranks(simul=FALSE) (stepwise)             (only where full is TRUE)
#   best1, best3            cstaubest(tau=1), cstaubest(tau=3) as 0/1   (only where full is TRUE)
#   crit                    the single-step critical value: (x_1 - x_2 - L_12) / sd(x_1 - x_2) of
#                           csdiffmeans(stepdown=FALSE), the interval of one pair
args <- commandArgs(trailingOnly = TRUE)
for (f in c("argument_checks.R", "diffmeans.R", "ranks.R", "rank_utils.R", "utilityfunctions.R"))
  source(file.path(args[1], f))
folder <- args[2]
designs <- read.csv(file.path(folder, "designs.csv"), stringsAsFactors = FALSE)
rows <- list()
add <- function(name, quantity, values)
  rows[[length(rows) + 1]] <<- data.frame(design = name, quantity = quantity, index = seq_along(values),
                                           value = as.numeric(values))
for (d in seq_len(nrow(designs))) {
  name <- designs$name[d]; R <- designs$draws[d]; seed <- designs$seed[d]
  x <- read.csv(file.path(folder, paste0(name, "_x.csv")))$x
  S <- as.matrix(read.csv(file.path(folder, paste0(name, "_sigma.csv")), header = FALSE))
  dimnames(S) <- NULL
  simul <- csranks(x, S, R = R, seed = seed)
  add(name, "L_simul", simul$L); add(name, "U_simul", simul$U)
  if (designs$full[d]) {
    single <- csranks(x, S, R = R, seed = seed, stepdown = FALSE)
    add(name, "L_single", single$L); add(name, "U_single", single$U)
    marg <- csranks(x, S, R = R, seed = seed, simul = FALSE)
    add(name, "L_marg", marg$L); add(name, "U_marg", marg$U)
    add(name, "best1", cstaubest(x, S, tau = 1, R = R, seed = seed))
    add(name, "best3", cstaubest(x, S, tau = min(3, length(x)), R = R, seed = seed))
  }
  cs <- csdiffmeans(x, S, R = R, seed = seed, stepdown = FALSE, cstype = "symmetric")
  sd12 <- sqrt(S[1, 1] + S[2, 2] - 2 * S[1, 2])
  add(name, "crit", (x[1] - x[2] - cs$L[1, 2]) / sd12)
}
write.csv(do.call(rbind, rows), file.path(folder, "out.csv"), row.names = FALSE)
