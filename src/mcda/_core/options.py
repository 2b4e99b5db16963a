"""Library-wide options, each with a validator (as ``xarray.set_options``).

``memory_limit`` bounds what one call may allocate for results it keeps or buffers it needs
whose size the caller chooses (posterior draws kept per pair, bootstrap resamples kept for
intervals). A call that would exceed it is refused *before* allocating, with the estimate and
the way on (fewer resamples, fewer kept draws, or a larger limit), instead of growing until the
operating system kills the process.

``compute_limit`` bounds, in the same way, the seconds of one core a sampler may be asked for
(a Markov chain per pair of methods grows with the square of their number): a call whose
estimate exceeds it is refused before it starts, with the estimate and the way on.

>>> import mcda
>>> mcda.get_options()["memory_limit"] == 2 * 2**30
True
>>> with mcda.set_options(memory_limit="8GiB"):
...     mcda.get_options()["memory_limit"]
8589934592
"""

from __future__ import annotations
from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError

import re

__all__ = ["set_options", "get_options", "check_allocation", "check_count_allocation", "check_compute", "ComputeLimitError",
           "format_bytes"]

_UNITS = {"": 1, "b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
          "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40}


def _parse_bytes(value) -> int:
    if isinstance(value, bool):
        raise McdaArgumentTypeError(f"`memory_limit` must be a number of bytes or a size such as '4GiB'; got {value!r}",
                                    argument="memory_limit", value=value)
    if isinstance(value, (int, float)):
        number, unit = float(value), ""
    elif isinstance(value, str):
        match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*([a-zA-Z]*)\s*", value)
        if not match or match.group(2).lower() not in _UNITS:
            raise McdaArgumentError(f"`memory_limit` must be a number of bytes or a size such as '4GiB' or '500MB'; "
                             f"got {value!r}", argument="memory_limit", value=value)
        number, unit = float(match.group(1)), match.group(2).lower()
    else:
        raise McdaArgumentTypeError(f"`memory_limit` must be a number of bytes or a size such as '4GiB'; got {value!r}",
                                    argument="memory_limit", value=value)
    nbytes = number * _UNITS[unit]
    if not nbytes >= 1:
        raise McdaArgumentError(f"`memory_limit` must be at least 1 byte; got {value!r}",
                                argument="memory_limit", value=value)
    return int(nbytes)


def _parse_seconds(value) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise McdaArgumentTypeError(f"`compute_limit` must be a number of seconds or None (no limit); got {value!r}",
                                    argument="compute_limit", value=value)
    if not value > 0:
        raise McdaArgumentError(f"`compute_limit` must be more than 0 seconds (or None: no limit); got {value!r}",
                                argument="compute_limit", value=value)
    return float(value)


_VALIDATORS = {"memory_limit": _parse_bytes, "compute_limit": _parse_seconds}
_OPTIONS: dict = {"memory_limit": 2 * 2**30, "compute_limit": 600.0}


def get_options() -> dict:
    """A copy of the current options."""
    return dict(_OPTIONS)


class set_options:  # noqa: N801 - used as a function and a context manager, as xarray's
    """Set options globally, or for a ``with`` block (restored on leaving it).

    Parameters
    ----------
    memory_limit : int, float or str, default 2 GiB
        The most one call may allocate for what it keeps (bytes, or a size such as ``"8GiB"``).
    compute_limit : float or None, default 600
        The most seconds of one core a sampler may be asked for, by its estimate (None: no limit).

    Raises
    ------
    ValueError, TypeError
        An unknown option or a bad value, naming it.
    """

    def __init__(self, **options):
        unknown = sorted(set(options) - set(_VALIDATORS))
        if unknown:
            raise McdaArgumentError(f"unknown option(s) {unknown}; the options are {sorted(_VALIDATORS)}",
                                    argument=unknown[0], value=options[unknown[0]], allowed=sorted(_VALIDATORS))
        parsed = {name: _VALIDATORS[name](value) for name, value in options.items()}
        self._previous = {name: _OPTIONS[name] for name in parsed}
        _OPTIONS.update(parsed)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        _OPTIONS.update(self._previous)


def format_bytes(nbytes: float) -> str:
    """``1536`` → ``'1.5 KiB'``."""
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if abs(nbytes) < 1024 or unit == "PiB":
            return f"{nbytes:.0f} {unit}" if unit == "B" else f"{nbytes:.1f} {unit}"
        nbytes /= 1024
    raise AssertionError  # pragma: no cover


def check_allocation(nbytes: float, what: str, way_on: str, *, argument: str | None, value=None) -> None:
    """Refuse, before allocating, a buffer larger than ``memory_limit``.

    ``what`` says what would be allocated and by which argument (``"`n_resamples`=10**9 keeps
    10**9 × 20 mean ranks"``); ``way_on`` how to ask for less; ``argument`` names that argument
    (the error's ``.argument``).
    """
    limit = _OPTIONS["memory_limit"]
    if nbytes > limit:
        raise McdaArgumentError(f"{what}: about {format_bytes(nbytes)}, over the memory limit of {format_bytes(limit)}. "
                                f"{way_on}, or raise the limit with mcda.set_options(memory_limit=...).",
                                argument=argument, value=value)


def check_count_allocation(name: str, value: int, bytes_each: float, what: str, *, fixed: float = 0.0,
                           argument: str | None = None) -> None:
    """Refuse, before allocating, a count argument (``n_samples``, ``n_resamples``...) whose buffers
    (``value × bytes_each + fixed`` bytes) exceed ``memory_limit``; the message names the largest
    ``value`` that fits.

    ``what`` says what one unit of ``value`` keeps (``"keeps 4 chains × n_samples × 20 worths"``);
    ``argument``: the argument at fault when it is not ``name`` (``keep_draws``).
    """
    limit = _OPTIONS["memory_limit"]
    nbytes = float(value) * float(bytes_each) + float(fixed)
    if nbytes <= limit:
        return
    largest = int((limit - fixed) // bytes_each) if limit > fixed else 0
    way_on = (f"Pass {name}={largest:,} or fewer" if largest >= 1 else
              f"Even {name}=1 does not fit (the rest of the computation needs {format_bytes(fixed)})")
    raise McdaArgumentError(f"`{name}`={value:,} {what}: about {format_bytes(nbytes)}, over the memory limit of "
                            f"{format_bytes(limit)}. {way_on}, or raise the limit with "
                            "mcda.set_options(memory_limit=...).", argument=argument or name, value=value)


def format_seconds(seconds: float) -> str:
    """``90`` → ``'1.5 minutes'``; ``7200`` → ``'2.0 hours'``."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.1f} minutes"
    return f"{seconds / 3600:.1f} hours"


def check_compute(seconds: float, what: str, way_on: str, *, argument: str | None = None, value=None) -> None:
    """Refuse, before starting, work estimated past ``compute_limit`` seconds of one core.

    ``what`` says what the work is and how it was counted (``"4 chains × 11,000 draws × 30
    datasets for each of 19,900 pairs"``); ``way_on`` how to ask for less (an argument of the
    call). The estimate is an upper bound measured on one core; the message shows it.
    """
    limit = _OPTIONS["compute_limit"]
    if limit is None or seconds <= limit:
        return
    raise ComputeLimitError(f"{_cost(what, seconds, limit)}. {way_on}, or raise the limit with "
                            "mcda.set_options(compute_limit=...) (None: no limit).", argument=argument, value=value,
                            work=what, seconds=seconds, limit=limit)


def _cost(work: str, seconds: float, limit: float) -> str:
    return f"{work}: about {format_seconds(seconds)} of one core, over the compute limit of {format_seconds(limit)}"


class ComputeLimitError(McdaArgumentError):
    """Work refused by :func:`check_compute`, with its parts as data.

    ``work`` says what would run, ``seconds`` is the estimate (one core) and ``limit`` the
    ``compute_limit`` it exceeds: a caller that offers other ways on (the Report's settings, the
    command line's flags) writes its own sentence from them.
    """

    def __init__(self, message: str, *, argument, value=None, work: str = "", seconds: float = float("nan"),
                 limit: float = float("nan")):
        super().__init__(message, argument=argument, value=value)
        self.work, self.seconds, self.limit = work, seconds, limit

    def __reduce__(self):
        return (_rebuild_compute_limit_error, (str(self), self.argument, self.value, self.work, self.seconds,
                                               self.limit))

    def cost(self) -> str:
        """The refused work and its estimate against the limit, as a sentence without a way on."""
        return _cost(self.work, self.seconds, self.limit)


def _rebuild_compute_limit_error(message, argument, value, work, seconds, limit):
    return ComputeLimitError(message, argument=argument, value=value, work=work, seconds=seconds, limit=limit)
