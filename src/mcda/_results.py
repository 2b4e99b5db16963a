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

import pandas as pd

__all__ = ["Result"]


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
