"""numba-compiled loops, the only place with loops over resamples or draws.

One submodule per topic (``bootstrap``, ``dirichlet``, ``signed_rank``, ``rank_positions``).
Kernels take contiguous float64/int64 arrays, are deterministic given their inputs (random
draws come from the caller's ``rng`` as arrays or seeds), use ``cache=True``, and each has a
plain reference computation in the tests. Importing ``mcda`` does not import this package:
the modules that use a kernel import it inside the function that needs it.
"""
