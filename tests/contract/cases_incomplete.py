"""Contract cases for the tests of incomplete designs: Skillings–Mack and its pairwise comparisons (any
missing pattern) and Durbin (a balanced incomplete block design, cut from the synthetic cube by label)."""

from __future__ import annotations

import numpy as np

import mcda
from tests.contract.cases_frequentist import POSTHOC_FIELDS, _control, _quiet
from tests.contract.cases_omnibus import _pairs
from tests.contract.harness import Case, Framed

OMNIBUS_FIELDS = ("test", "statistic", "pvalue", "df", "rejected", "alpha", "n_datasets", "n_methods", "mean_ranks",
                  "design", "excluded", "dropped_datasets", "reason")
DURBIN_FIELDS = OMNIBUS_FIELDS + ("f_statistic", "f_pvalue", "f_df", "methods_per_dataset", "datasets_per_method",
                                  "pair_count", "rank_sums", "pairwise", "adjust")


def _balanced_incomplete(cube):
    """Dataset ``dataset_i`` lacks method ``method_(i mod k)``: k − 1 methods per dataset, and with N a
    multiple of k every method on N(k − 1)/k datasets and every pair on N(k − 2)/k (a BIBD)."""
    k = cube.sizes["method"]
    methods = [str(m) for m in cube.coords["method"].values]
    absent = np.array([[methods.index(f"method_{int(str(d).rsplit('_', 1)[-1]) % k}") == j for j in range(k)]
                       for d in cube.coords["dataset"].values])
    return cube.where(~absent)


def _skillings_mack(cube, **kwargs):
    return _quiet(mcda.skillings_mack_test, cube, **kwargs)


def _skillings_mack_posthoc(**fixed):
    def call(cube, **kwargs):
        return _quiet(mcda.skillings_mack_posthoc, cube, **(fixed | kwargs))
    return call


def _skillings_mack_posthoc_control(**fixed):
    def call(cube, **kwargs):
        return _quiet(mcda.skillings_mack_posthoc, cube, **({"control": _control(cube)} | fixed | kwargs))
    return call


def _durbin(cube, **kwargs):
    return _quiet(mcda.durbin_test, cube, **kwargs)


def _durbin_pairs(cube, **kwargs):
    result = _durbin(cube, **kwargs)
    assert result.rejected, "the synthetic benchmark's differences should make Durbin's test reject"
    return Framed(result, lambda r: r.pairwise)  # Conover's pairwise comparisons


CASES = [
    Case(name="skillings_mack_test", call=_skillings_mack, fields=OMNIBUS_FIELDS + ("adjusted_rank_sums",),
         pvalue_columns=("pvalue",), missing=0.1, n_methods=5,
         bad_inputs=[({"alpha": 1.5}, ValueError, "`alpha` must lie in"),
                     ({"direction": "up"}, ValueError, "`direction` must be one of")]),
    Case(name="skillings_mack_posthoc", call=_skillings_mack_posthoc(), fields=POSTHOC_FIELDS, missing=0.1,
         n_methods=5, **_pairs("z"),
         bad_inputs=[({"adjust": "bogus"}, ValueError, "`adjust` must be None or one of"),
                     ({"control": "nobody"}, ValueError, "`control` must be one of"),
                     ({"n_resamples": 0}, ValueError, "`n_resamples`")]),
    Case(name="skillings_mack_posthoc[control]", call=_skillings_mack_posthoc_control(adjust="hochberg"),
         fields=POSTHOC_FIELDS + ("adjust",), missing=0.1, n_methods=5, **_pairs("z"),
         bad_inputs=[({"adjust": "shaffer"}, ValueError, "`adjust` 'shaffer'")]),
    # the permutation p-values: the same rng must give the same draws whatever the order of methods and datasets
    Case(name="skillings_mack_posthoc[permutation]", call=_skillings_mack_posthoc(n_resamples=199, rng=0),
         fields=POSTHOC_FIELDS, missing=0.1, n_methods=5, **_pairs("z"),
         bad_inputs=[({"n_resamples": 1.5}, TypeError, "`n_resamples`")]),
    Case(name="skillings_mack_posthoc[permutation, control]",
         call=_skillings_mack_posthoc_control(n_resamples=199, rng=0), fields=POSTHOC_FIELDS + ("adjust",),
         missing=0.1, n_methods=5, **_pairs("z")),
    Case(name="durbin_test", call=_durbin, fields=DURBIN_FIELDS, pvalue_columns=("pvalue",),
         prepare=_balanced_incomplete,
         bad_inputs=[({"adjust": "bogus"}, ValueError, "`adjust` must be None or one of"),
                     ({"alpha": 0}, ValueError, "`alpha` must lie in")]),
    Case(name="durbin_test[pairwise]", call=_durbin_pairs, fields=DURBIN_FIELDS, n_datasets=20,
         prepare=_balanced_incomplete, method_columns=("method_a", "method_b"),
         pair_columns=("method_a", "method_b"), negate_columns=("rank_sum_diff",),
         pvalue_columns=("p_raw", "p_adjusted")),
]
