"""Input checks shared by every public function, and mcda's own warning classes.

Every public function validates its arguments first, here, and raises a ``ValueError`` or
``TypeError`` whose message names the argument in backticks, shows the bad value and says
what is allowed. No ``assert`` on user input.
"""

from __future__ import annotations

import difflib
import math
import numbers
import os
import sys
import warnings
from collections.abc import Iterable, Sequence

import numpy as np

__all__ = [
    "McdaWarning",
    "SmallSampleWarning",
    "TiesWarning",
    "DescriptiveOnlyWarning",
    "MissingDataWarning",
    "check_choice",
    "check_alpha",
    "check_probability",
    "check_positive_int",
    "check_nonnegative_float",
    "check_rope",
    "as_rng",
    "nearest",
    "shown",
    "warn",
]


class McdaWarning(UserWarning):
    """Base class of every warning mcda emits."""


class SmallSampleWarning(McdaWarning):
    """A test or interval is computed on fewer observations than its approximation needs."""


class TiesWarning(McdaWarning):
    """Ties change the statistic or its null distribution (and how mcda handles them is stated)."""


class DescriptiveOnlyWarning(McdaWarning):
    """A quantity is descriptive only: it has no null distribution and supports no test."""


class MissingDataWarning(McdaWarning):
    """Missing cells were excluded from an analysis (they are named in the result)."""


class UnpairedSeedsWarning(McdaWarning):
    """Seed labels differ between methods, so paired comparisons over seeds lose their pairs."""


_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def user_stacklevel() -> int:
    """The ``stacklevel`` that points a warning raised here at the first frame outside mcda.

    Counted for a ``warnings.warn`` call made by the function that calls this one, so views
    that call views (the Report, criteria over metrics) still blame the user's line.
    """
    frame = sys._getframe(1)  # the function about to call warnings.warn: stacklevel 1
    level = 1
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE_DIR):
        frame = frame.f_back
        level += 1
    return level


def warn(message: str, category: type[McdaWarning] = McdaWarning, stacklevel: int | None = None) -> None:
    """Emit one of mcda's warnings pointing at the user's call (the first frame outside mcda)."""
    if stacklevel is None:
        stacklevel = user_stacklevel()
    warnings.warn(message, category, stacklevel=stacklevel)


def _show(value) -> str:
    return repr(value)


def shown(items, limit: int = 8, *, fmt=repr, sep: str = ", ") -> str:
    """The first ``limit`` of ``items`` for a message, then how many more there are.

    Each item is written with ``fmt`` (``repr`` by default, so labels read as in code) and
    joined with ``sep``.

    >>> shown(["a", "b", "c"], 2)
    "'a', 'b', … (1 more)"
    >>> shown(["x vs y", "y vs z"], fmt=str, sep="; ")
    'x vs y; y vs z'
    """
    items = list(items)
    text = sep.join(fmt(i) for i in items[:limit])
    return text + (f"{sep}… ({len(items) - limit} more)" if len(items) > limit else "")


def check_choice(name: str, value, allowed: Iterable) -> str:
    """Return ``value`` if it is one of ``allowed``; raise a ValueError naming ``name`` otherwise."""
    allowed = tuple(allowed)
    if not isinstance(value, str) or value not in allowed:
        shown = "{" + ", ".join(repr(a) for a in allowed) + "}"
        hint = ""
        if isinstance(value, str):
            close = difflib.get_close_matches(value, [str(a) for a in allowed], n=1)
            if close:
                hint = f" Did you mean {close[0]!r}?"
        raise ValueError(f"`{name}` must be one of {shown}; got {_show(value)}.{hint}")
    return value


def _is_real(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def check_probability(name: str, value, *, low: float = 0.0, high: float = 1.0,
                      closed: str = "neither") -> float:
    """Check ``low < value < high`` (ends included as ``closed`` says: 'neither', 'left', 'right', 'both')."""
    if not _is_real(value) or not math.isfinite(float(value)):
        raise TypeError(f"`{name}` must be a real number; got {_show(value)}.")
    v = float(value)
    lo_ok = v >= low if closed in ("left", "both") else v > low
    hi_ok = v <= high if closed in ("right", "both") else v < high
    if not (lo_ok and hi_ok):
        lb = "[" if closed in ("left", "both") else "("
        rb = "]" if closed in ("right", "both") else ")"
        raise ValueError(f"`{name}` must lie in {lb}{low}, {high}{rb}; got {_show(value)}.")
    return v


def check_alpha(alpha, name: str = "alpha") -> float:
    """A significance level strictly between 0 and 1."""
    return check_probability(name, alpha)


def check_positive_int(name: str, value, *, minimum: int = 1) -> int:
    """An integer (not bool) at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"`{name}` must be an integer >= {minimum}; got {_show(value)}.")
    if int(value) < minimum:
        raise ValueError(f"`{name}` must be an integer >= {minimum}; got {_show(value)}.")
    return int(value)


def check_nonnegative_float(name: str, value) -> float:
    """A finite real number >= 0."""
    if not _is_real(value):
        raise TypeError(f"`{name}` must be a finite number >= 0; got {_show(value)}.")
    v = float(value)
    if not math.isfinite(v) or v < 0:
        raise ValueError(f"`{name}` must be a finite number >= 0; got {_show(value)}.")
    return v


def check_rope(rope) -> float:
    """A region of practical equivalence: a finite half-width >= 0 in the metric's units."""
    return check_nonnegative_float("rope", rope)


def as_rng(rng) -> np.random.Generator:
    """Turn ``rng`` (None, an int, a SeedSequence or a Generator) into a ``numpy.random.Generator``."""
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, np.random.RandomState):
        raise TypeError("`rng` must be a numpy.random.Generator or anything numpy.random.default_rng "
                        "accepts (None, an int, a SeedSequence); got a legacy RandomState.")
    try:
        return np.random.default_rng(rng)
    except (TypeError, ValueError) as exc:
        raise TypeError("`rng` must be a numpy.random.Generator or anything numpy.random.default_rng "
                        f"accepts (None, an int, a SeedSequence); got {_show(rng)}.") from exc


def nearest(word: str, candidates: Sequence[str], n: int = 3) -> list[str]:
    """The candidates closest to ``word`` (case-insensitive), best first."""
    lowered = {c.lower(): c for c in candidates}
    close = difflib.get_close_matches(word.lower(), list(lowered), n=n, cutoff=0.5)
    return [lowered[c] for c in close]
