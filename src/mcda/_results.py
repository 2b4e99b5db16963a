"""The small base every public result class shares: ``to_frame()``, ``summary()`` and ``repr``.

A result is a frozen dataclass (``@dataclass(frozen=True, repr=False)``) deriving from
:class:`Result`. It gives

* ``to_frame()``: a tidy :class:`pandas.DataFrame`, one row per unit of the result (a pair, a
  method, a dataset and pair, ...), with columns named as in the glossary
  (``docs/api/glossary.md``). The default returns a copy of the result's ``table`` field;
* ``summary()``: a few lines of text for people (numbers rounded for display only);
* ``repr``: the class name on the first line, then ``summary()``.
"""

from __future__ import annotations

import math

import pandas as pd

__all__ = ["Result", "p_text"]

#: below the smallest normal double a p-value has lost its digits (and may have underflowed to 0)
P_FLOOR = 2.2250738585072014e-308


def p_text(p, spec: str = ".3g") -> str:
    """``"p = 0.0123"`` for a summary text, ``"p < 1e-307"`` where the p-value underflowed (a p-value
    of exactly 0 is never true), ``"p = nan"`` for NaN or None (the reason says why)."""
    if p is None or not math.isfinite(p):
        return "p = nan"
    return "p < 1e-307" if p < P_FLOOR else f"p = {p:{spec}}"


class Result:
    """Base of the public result classes (see the module docstring for the contract)."""

    __slots__ = ()

    def to_frame(self) -> pd.DataFrame:
        """The result as a tidy table (a copy: changing it leaves the result alone)."""
        table = getattr(self, "table", None)
        if not isinstance(table, pd.DataFrame):
            raise NotImplementedError(f"{type(self).__name__} must define to_frame()")
        return table.copy()

    def summary(self) -> str:
        """A few lines for people."""
        raise NotImplementedError(f"{type(self).__name__} must define summary()")

    def __repr__(self) -> str:
        return f"{type(self).__name__}\n{self.summary()}"
