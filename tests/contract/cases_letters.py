"""Contract cases for the compact letter display (compact_letters over all-pairs results)."""

from __future__ import annotations

import mcda
from tests.contract.harness import Case

FIELDS = ("letters", "groups", "table", "test", "alpha", "note", "n_methods", "scope")

CASES = [
    Case(name="compact_letters[nemenyi]", fields=FIELDS, n_methods=5,
         call=lambda cube, **kw: mcda.compact_letters(mcda.nemenyi(cube, **kw)),
         bad_inputs=[({"alpha": 2.0}, ValueError, "`alpha`")]),
    Case(name="compact_letters[pairwise_over_datasets]", fields=FIELDS, n_methods=5,
         call=lambda cube, **kw: mcda.compact_letters(mcda.pairwise_over_datasets(cube, **kw))),
]
