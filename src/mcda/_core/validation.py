"""Input checks shared by every public function, and mcda's own warning classes.

Every public function validates its arguments first, here, and raises a ``ValueError`` or
``TypeError`` whose message names the argument in backticks, shows the bad value and says
what is allowed. No ``assert`` on user input.

The errors raised for a bad argument are :class:`McdaArgumentError` (a ``ValueError``) and
:class:`McdaArgumentTypeError` (also a ``TypeError``). Each carries the argument's name as data
(``.argument``), the value given (``.value``), the values allowed when they are a list
(``.allowed``), what to do per front end when that differs (``.remedy``), and every argument
its message mentions (``.mentions``), marked up in the message as ``'`name`'`` or
``'`name=value`'``. The code that raises passes ``argument=`` (None when the fault is in the data
as a whole). A front end that spells arguments differently (the command line's ``--test``)
renders the same error, or an mcda warning, with :meth:`Marked.render`, a table name -> its own
spelling and its name: nothing parses or rewrites the wording of a message.
"""

from __future__ import annotations

import difflib
import enum
import math
import numbers
import os
import re
import sys
import warnings
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

__all__ = [
    "McdaArgumentError",
    "McdaArgumentTypeError",
    "argument_error",
    "Marked",
    "Reason",
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
    "check_control",
    "as_rng",
    "MAX_SEED",
    "MAX_BAYCOMP_SEED",
    "nearest",
    "shown",
    "warn",
]


_MENTION = re.compile(r"`([A-Za-z_][A-Za-z0-9_]*)(=[^`]*)?`")
FRONT_ENDS = ("library", "cli")


def _spell(text: str, spelling: Mapping) -> str:
    """``text`` with each marked-up argument spelled as ``spelling`` says (see :meth:`Marked.render`)."""
    def one(match):
        name, value = match.group(1), match.group(2)
        if value is not None and (name, value[1:]) in spelling:
            return spelling[(name, value[1:])]
        if name in spelling:
            shown_value = value[1:].strip("'\"") if value is not None else ""
            return spelling[name] + (" " + shown_value if shown_value else "")
        return match.group(0)

    return _MENTION.sub(one, text)


class Marked:
    """Text for people whose arguments are marked up and whose remedy depends on the front end.

    The text marks each argument it names as ``'`name`'`` or ``'`name=value`'`` (the markup
    convention :meth:`render` reads). ``remedy`` maps a front end (``"library"``, ``"cli"``) to
    the sentence that says what to do there, when the advice differs between them (the library's
    ``missing='complete'`` is the command line's "reduce the seeds yourself"); ``str()`` is the
    text followed by the library's remedy. Mixed into :class:`McdaArgumentError` and
    :class:`McdaWarning`.
    """

    body: str
    remedy: dict | None

    def _marked(self, message, remedy) -> str:
        self.body = str(message)
        if remedy is not None:
            remedy = dict(remedy)
            unknown = set(remedy) - set(FRONT_ENDS)
            if "library" not in remedy or unknown:
                raise ValueError(f"a remedy maps front ends {FRONT_ENDS} to a sentence and names the library's; "
                                 f"got {sorted(remedy)}")
        self.remedy = remedy
        return self.body if remedy is None else f"{self.body} {remedy['library']}"

    def _named(self) -> list[str]:
        texts = [self.body] + (list(self.remedy.values()) if self.remedy else [])
        return [m.group(1) for text in texts for m in _MENTION.finditer(text)]

    def render(self, spelling: Mapping, front_end: str = "library") -> str:
        """The text with each marked-up argument spelled as ``spelling`` says, and ``front_end``'s remedy.

        ``spelling`` maps an argument name, or a ``(name, value text)`` pair, to the front end's
        words (``{"test": "--test", ("strict", "False"): "--fallback-final"}``); a mention not
        in it keeps its backticked library spelling.
        """
        text = _spell(self.body, spelling)
        if self.remedy is not None:
            text += " " + _spell(self.remedy.get(front_end, self.remedy["library"]), spelling)
        return text


class McdaArgumentError(Marked, ValueError):
    """A bad argument to a public mcda function (a ``ValueError``).

    Attributes
    ----------
    argument : str or None
        The name of the argument at fault, as the called function spells it (``"test"``): a
        required keyword, set by the code that raises (never read back from the message); None
        when the fault is in the data as a whole.
    mentions : tuple of str
        Every argument named in the message, the one at fault first. The message marks an
        argument up as ``'`name`'`` or ``'`name=value`'`` (backticks: the markup convention
        :meth:`render` reads to spell it in a front end's words).
    value : object
        The value given (None when the raising code did not record it).
    allowed : tuple or None
        The values allowed, when they are a list (``check_choice``); None otherwise.
    remedy : dict or None
        What to do, per front end, when the advice differs between them (see :class:`Marked`).
    """

    def __init__(self, message: str, *, argument: str | None, value=None, allowed=None, remedy=None):
        super().__init__(self._marked(message, remedy))
        self.value = value
        self.allowed = None if allowed is None else tuple(allowed)
        self.argument = argument
        first = [argument] if argument else []
        self.mentions = tuple(dict.fromkeys(first + self._named()))

    def __reduce__(self):
        return (_rebuild_argument_error, (type(self), self.body, self.argument, self.value, self.allowed,
                                          self.remedy))


class McdaArgumentTypeError(McdaArgumentError, TypeError):
    """A bad argument of the wrong type (both a :class:`McdaArgumentError` and a ``TypeError``)."""


def _rebuild_argument_error(cls, message, argument, value=None, allowed=None, remedy=None):
    return cls(message, argument=argument, value=value, allowed=allowed, remedy=remedy)


def argument_error(argument: str | None, message: str, *, type_error: bool = False, value=None,
                   allowed=None, remedy=None) -> McdaArgumentError:
    """The error for a bad ``argument`` (raise it): :class:`McdaArgumentTypeError` when ``type_error``."""
    cls = McdaArgumentTypeError if type_error else McdaArgumentError
    return cls(message, argument=argument, value=value, allowed=allowed, remedy=remedy)


class Reason(enum.Enum):
    """Why a result is NaN, as a code: code that needs to know which reason it met reads this,
    never the sentence shown to people (value: a short stable name)."""

    NONE = ""
    IDENTICAL = "identical"              # every paired difference is exactly 0
    CONSTANT_DIFFERENCE = "constant"     # every paired difference equals one nonzero value
    TOO_FEW = "too_few"                  # fewer observations than the procedure needs
    ALL_TIED = "all_tied"                # every dataset ties every method: the ranks carry no information


class McdaWarning(Marked, UserWarning):
    """Base class of every warning mcda emits: its text marks arguments up and may carry a
    ``remedy`` per front end (see :class:`Marked`), so the command line renders it in its words."""

    def __init__(self, message: str = "", *, remedy=None):
        super().__init__(self._marked(message, remedy))

    def __reduce__(self):
        return (_rebuild_warning, (type(self), self.body, self.remedy))


def _rebuild_warning(cls, message, remedy):
    return cls(message, remedy=remedy)


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


class OverlappingFoldsWarning(McdaWarning):
    """A test that takes seeds as independent runs was asked for scores the cube says are
    cross-validation folds, whose training sets overlap (its p-values are too small)."""


_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep  # src/mcda/


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


def warn(message: str, category: type[McdaWarning] = McdaWarning, *, remedy=None) -> None:
    """Emit one of mcda's warnings pointing at the user's call (the first frame outside mcda).

    There is no ``stacklevel`` to pass: it is always counted here, from this call, so no call
    site can be off by one. ``remedy`` maps a front end to what to do there (see :class:`Marked`).
    """
    warnings.warn(category(message, remedy=remedy), stacklevel=user_stacklevel())


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
        raise McdaArgumentError(f"`{name}` must be one of {shown}; got {_show(value)}.{hint}", argument=name,
                                value=value, allowed=allowed)
    return value


def _is_real(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def check_probability(name: str, value, *, low: float = 0.0, high: float = 1.0,
                      closed: str = "neither") -> float:
    """Check ``low < value < high`` (ends included as ``closed`` says: 'neither', 'left', 'right', 'both')."""
    if not _is_real(value) or not math.isfinite(float(value)):
        raise McdaArgumentTypeError(f"`{name}` must be a real number; got {_show(value)}.", argument=name, value=value)
    v = float(value)
    lo_ok = v >= low if closed in ("left", "both") else v > low
    hi_ok = v <= high if closed in ("right", "both") else v < high
    if not (lo_ok and hi_ok):
        lb = "[" if closed in ("left", "both") else "("
        rb = "]" if closed in ("right", "both") else ")"
        raise McdaArgumentError(f"`{name}` must lie in {lb}{low}, {high}{rb}; got {_show(value)}.", argument=name, value=value)
    return v


def check_alpha(alpha, name: str = "alpha") -> float:
    """A significance level strictly between 0 and 1."""
    return check_probability(name, alpha)


def check_positive_int(name: str, value, *, minimum: int = 1) -> int:
    """An integer (not bool) at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise McdaArgumentTypeError(f"`{name}` must be an integer >= {minimum}; got {_show(value)}.", argument=name, value=value)
    if int(value) < minimum:
        raise McdaArgumentError(f"`{name}` must be an integer >= {minimum}; got {_show(value)}.", argument=name, value=value)
    return int(value)


def check_nonnegative_float(name: str, value) -> float:
    """A finite real number >= 0."""
    if not _is_real(value):
        raise McdaArgumentTypeError(f"`{name}` must be a finite number >= 0; got {_show(value)}.", argument=name, value=value)
    v = float(value)
    if not math.isfinite(v) or v < 0:
        raise McdaArgumentError(f"`{name}` must be a finite number >= 0; got {_show(value)}.", argument=name, value=value)
    return v


def check_rope(rope) -> float:
    """A region of practical equivalence: a finite half-width >= 0 in the metric's units."""
    return check_nonnegative_float("rope", rope)


# The largest integer seed mcda stores and hands its numba kernels (their seed streams are int64).
MAX_SEED = 2**63 - 1
# The largest seed numpy.random.RandomState takes: baycomp's ``random_state``, used by reproduce='baycomp'.
MAX_BAYCOMP_SEED = 2**32 - 1

_RNG_ALLOWED = ("`rng` must be a numpy.random.Generator or anything numpy.random.default_rng accepts "
                "(None, a non-negative int, a sequence of them, a SeedSequence)")


def as_rng(rng) -> np.random.Generator:
    """Turn ``rng`` (None, an int, a SeedSequence or a Generator) into a ``numpy.random.Generator``.

    ``True``/``False`` are refused (numpy would take them as the seeds 1 and 0).
    """
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, np.random.RandomState):
        raise McdaArgumentTypeError(f"{_RNG_ALLOWED}; got a legacy RandomState.", argument="rng", value=rng)
    if isinstance(rng, (bool, np.bool_)) or (isinstance(rng, (list, tuple))
                                            and any(isinstance(v, (bool, np.bool_)) for v in rng)):
        raise McdaArgumentTypeError(f"{_RNG_ALLOWED}; got {_show(rng)} (a bool is not a seed).", argument="rng", value=rng)
    try:
        return np.random.default_rng(rng)
    except (TypeError, ValueError) as exc:
        raise McdaArgumentTypeError(f"{_RNG_ALLOWED}; got {_show(rng)}.", argument="rng", value=rng) from exc


def check_control(control, methods: Sequence, excluded: Mapping | None = None) -> str:
    """``control`` if it names one of ``methods``: the one check of a control method.

    ``excluded`` (method -> the datasets it lacks) names a method dropped as incomplete, so
    the message says why it is not among the methods compared.
    """
    if not isinstance(control, str):
        raise McdaArgumentTypeError("`control` must be the name of a method (chosen before looking at the results); "
                                    f"got {control!r}.", argument="control", value=control)
    methods = [str(m) for m in methods]
    if control in methods:
        return control
    if excluded and control in excluded:
        raise McdaArgumentError(f"`control` {control!r} was excluded as incomplete: it lacks "
                                f"[{shown(excluded[control], 4, fmt=str)}]. Choose a complete method or complete its "
                                "results.", argument="control", value=control,
                                allowed=methods)
    close = nearest(control, methods)
    hint = f" Did you mean {close[0]!r}?" if close else ""
    raise McdaArgumentError(f"`control` must be one of the methods compared [{shown(methods, fmt=str)}]; "
                            f"got {control!r}.{hint}", argument="control", value=control,
                            allowed=methods)


def nearest(word: str, candidates: Sequence[str], n: int = 3) -> list[str]:
    """The candidates closest to ``word`` (case-insensitive), best first."""
    lowered = {c.lower(): c for c in candidates}
    close = difflib.get_close_matches(word.lower(), list(lowered), n=n, cutoff=0.5)
    return [lowered[c] for c in close]
