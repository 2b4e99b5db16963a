"""The small base every public result class shares: ``to_frame()``, ``summary()`` and ``repr``.

A result is a frozen dataclass (``@dataclass(frozen=True, repr=False)``) deriving from
:class:`Result`. It gives

* ``to_frame()``: a tidy :class:`pandas.DataFrame`, one row per unit of the result (a pair, a
  method, a dataset and pair, ...), with columns named as in the glossary
  (``docs/api/glossary.md``). The default returns a copy of the result's ``table`` field;
* ``summary()``: a few lines of text for people (numbers rounded for display only);
* ``repr``: the class name on the first line, then ``summary()``.

A result computed from a cube whose scores were converted (``score_cube(..., scale="percent")``
records ``attrs["scale"]``) carries that conversion: every public function that takes a cube
(or a result) is decorated with :func:`states_scale`, and every ``summary()`` ends with the
line :func:`scale_sentence` writes; the LaTeX exports put it in their captions. One rule, here.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping

import numpy as np
import pandas as pd

__all__ = ["Result", "OmnibusResult", "PAIR_DECISION_COLUMNS", "pair_decisions_table", "p_text", "states_scale",
           "scale_of", "scale_sentence"]

#: below the smallest normal double a p-value has lost its digits (and may have underflowed to 0)
P_FLOOR = 2.2250738585072014e-308


def p_text(p, spec: str = ".3g") -> str:
    """``"p = 0.0123"`` for a summary text, ``"p < 1e-307"`` where the p-value underflowed (a p-value
    of exactly 0 is never true), ``"p = nan"`` for NaN or None (the reason says why)."""
    if p is None or not math.isfinite(p):
        return "p = nan"
    return "p < 1e-307" if p < P_FLOOR else f"p = {p:{spec}}"


def scale_of(source) -> str | None:
    """The unit conversion a cube records (``attrs["scale"]``) or a result carries; None if there is none."""
    if isinstance(source, Result):
        scale = getattr(source, "__dict__", {}).get("_scale")
    else:
        attrs = getattr(source, "attrs", None)
        scale = attrs.get("scale") if isinstance(attrs, Mapping) else None
        if scale is None and hasattr(source, "raw") and hasattr(source, "overview"):  # a Report
            scale = scale_of(source.raw)
    return scale if isinstance(scale, str) and scale and scale != "fraction" else None


def scale_sentence(scale: str) -> str:
    """The line every summary ends with when the scores were converted."""
    return f"scale: scores converted {scale} before the analysis"


def states_scale(function):
    """Decorator of a public function: its result carries the scale of its first argument (a cube or a result)."""
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        result = function(*args, **kwargs)
        if isinstance(result, Result):
            source = args[0] if args else next(iter(kwargs.values()), None)
            scale = scale_of(source)
            if scale is not None:
                _stamp(result, scale)
        return result

    return wrapper


def _stamp(result, scale: str, depth: int = 0) -> None:
    """``result`` and the results it holds (a post-hoc inside a comparison, one per metric) carry ``scale``."""
    import dataclasses

    state = getattr(result, "__dict__", None)
    if state is None or "_scale" in state or depth > 3:
        return
    object.__setattr__(result, "_scale", scale)  # not a field: equality and the fields stay as they are
    if dataclasses.is_dataclass(result):
        for f in dataclasses.fields(result):
            value = getattr(result, f.name, None)
            inner = value.values() if isinstance(value, Mapping) else (value,)
            for item in inner:
                if isinstance(item, Result):
                    _stamp(item, scale, depth + 1)


class Result:
    """Base of the public result classes (see the module docstring for the contract)."""

    __slots__ = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("summary")
        if own is not None and not getattr(own, "_states_scale", False):
            @functools.wraps(own)
            def summary(self, *args, **kw):
                text = own(self, *args, **kw)
                scale = scale_of(self)
                if scale is None:
                    return text
                line = scale_sentence(scale)
                return text if line in text else f"{text}\n{line}"

            summary._states_scale = True
            cls.summary = summary

    def to_frame(self) -> pd.DataFrame:
        """The result as a tidy table (a copy: changing it leaves the result alone)."""
        table = getattr(self, "table", None)
        if not isinstance(table, pd.DataFrame):
            raise NotImplementedError(f"{type(self).__name__} must define to_frame()")
        return table.copy()

    def _one_row(self) -> pd.DataFrame:
        """A result of scalar fields as one row with every field (for its ``to_frame``)."""
        return pd.DataFrame([{name: getattr(self, name) for name in self.__dataclass_fields__}])

    def summary(self) -> str:
        """A few lines for people."""
        raise NotImplementedError(f"{type(self).__name__} must define summary()")

    def __repr__(self) -> str:
        return f"{type(self).__name__}\n{self.summary()}"


class OmnibusResult(Result):
    """Base of every omnibus test across datasets (Friedman, aligned ranks, Quade, Skillings–Mack,
    Durbin): one type to read whichever omnibus a comparison ran.

    Every subclass has the fields ``statistic`` (the test statistic), ``pvalue`` (its upper-tail
    p-value under the reference distribution), ``df`` (its degrees of freedom: an int, or a tuple
    for an F), ``rejected`` (the decision at ``alpha``), ``alpha``, ``n_datasets``, ``n_methods``,
    ``mean_ranks``, ``excluded`` and ``reason``. The base adds

    * ``kind``: the reference distribution of ``statistic``, ``"chi2"`` or ``"F"``;
    * ``test``: the omnibus's name (``"friedman"``, ``"friedman-aligned-ranks"``, ``"quade"``,
      ``"skillings-mack"``, ``"durbin"``);
    * ``decision_pvalue``: the p-value ``rejected`` is decided by (Friedman and Durbin decide by
      their F form, ``f_pvalue``; the others by ``pvalue``).
    """

    __slots__ = ()

    @property
    def kind(self) -> str:
        """The reference distribution of ``statistic``: ``"chi2"`` or ``"F"``."""
        return "chi2"

    @property
    def decision_pvalue(self) -> float:
        """The p-value ``rejected`` is decided by."""
        return self.pvalue


# --------------------------------------------------------------------------- pair decisions
#: The columns of a pair-decisions table (after its key columns, ``dataset`` and ``metric``, when the
#: pairs are decided per dataset): the pair, each side's rank in its block (1 = best; the order a
#: display lists them in), whether the procedure separated them, the better side when it did ("" when
#: it did not) and the p-value the decision read (NaN for a pair no test decided).
PAIR_DECISION_COLUMNS = ("method_a", "method_b", "rank_a", "rank_b", "significant", "better", "p_adjusted")


def pair_decisions_table(pairs: pd.DataFrame, a_better, *, test: str, alpha: float, methods, control=None,
                         note: str = "", scope: str = "across datasets") -> pd.DataFrame:
    """The pair-decisions protocol: what a result that decides pairs of methods returns from ``pair_decisions()``.

    ``pairs`` holds the key columns (if any) and every column of :data:`PAIR_DECISION_COLUMNS` but
    ``better``, which is filled from ``a_better`` (bool per row: a is the better side) where the pair is
    significant. The frame's ``attrs`` carry what a reader prints beside the decisions: ``test`` (the
    procedure), ``alpha``, ``methods`` (in the result's order), ``control`` (None for all pairs),
    ``note`` and ``scope`` ("across datasets" or "within datasets"). Compact letters, the
    critical-difference figure and the LaTeX tables read this table, whatever the result's type.
    """
    table = pairs.reset_index(drop=True).copy()
    significant = table["significant"].to_numpy(dtype=bool)
    first, second = table["method_a"].to_numpy(dtype=object), table["method_b"].to_numpy(dtype=object)
    better = np.where(np.asarray(a_better, dtype=bool), first, second)
    table["significant"] = significant
    table["better"] = np.where(significant, better, "").astype(object)
    keys = [c for c in table.columns if c not in PAIR_DECISION_COLUMNS]
    table = table[keys + list(PAIR_DECISION_COLUMNS)]
    table.attrs = {"test": test, "alpha": float(alpha), "methods": list(methods), "control": control, "note": note,
                   "scope": scope}
    return table

