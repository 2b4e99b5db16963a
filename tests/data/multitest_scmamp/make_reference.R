# Reference adjusted p-values from scmamp's adjustHolland / adjustFinner / adjustLi / adjustRom.
#
#   Rscript make_reference.R /path/to/scmamp/R/post_hoc.R > r_reference.csv
#
# scmamp (github b0rxa/scmamp, GPL-2) is not installed from CRAN here; its post_hoc.R is read
# from a checkout at generation time (commit 3cf4d8b9759769cdf20771afa0efc33a5265c7f9) and only the
# numbers it produces are kept in this directory. The p-value families are generated in R below.
args <- commandArgs(trailingOnly = TRUE)
env <- new.env()
exprs <- parse(args[1])
keep <- c("adjustHolland", "adjustFinner", "adjustLi", "adjustRom", "correctForMonotocity", "setUpperBound")
for (e in exprs) {
  if (is.call(e) && identical(e[[1]], as.name("<-")) && as.character(e[[2]]) %in% keep) eval(e, env)
}
set.seed(2010)
rows <- list()
family <- 0
for (m in c(2, 3, 4, 5, 7, 9)) {
  for (rep in 1:4) {
    family <- family + 1
    p <- signif(runif(m)^3, 6)            # skewed towards small p-values, 6 significant digits
    if (rep == 4) p <- sort(p)            # one family given sorted
    holland <- env$adjustHolland(p)
    finner <- env$adjustFinner(p)
    li <- suppressWarnings(env$adjustLi(p))
    rom <- env$adjustRom(p, alpha = 0.05)
    # Rom's constants r_i = alpha / alpha_i at alpha = 0.05: adjustRom of q = 3^i / 3^(m + 4) is r * q
    # when r * p is non-decreasing (it is here), so r_i = adjustRom(q)_i / q_i
    q <- 3^(1:m) / 3^(m + 4)
    r <- env$adjustRom(q, alpha = 0.05) / q
    rows[[family]] <- data.frame(family = family, m = m, position = 1:m, p = p, holland = holland,
                                 finner = finner, li = li, rom = rom, rom_r = r)
  }
}
out <- do.call(rbind, rows)
write.csv(out, stdout(), row.names = FALSE)
