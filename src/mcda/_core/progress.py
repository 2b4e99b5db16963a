"""Progress output for long lazy computations and for the streaming ingestion.

One setting, read by every chunk-wise computation (:func:`compute`) and by
:mod:`mcda.ingest.convert`:

- ``"auto"`` (the default): a progress bar on standard error once a computation has run for
  5 seconds, and only when standard error is a terminal (so logs, tests and notebooks'
  captured output stay clean);
- on (``with mcda.store.progress():``): always, after ``minimum`` seconds (0 by default);
- off (``with mcda.store.progress(False):``): never.

On the local schedulers the bar is dask's own :class:`dask.diagnostics.ProgressBar`; on a
``dask.distributed`` cluster (a ``Client`` exists) it is distributed's text progress bar over
every task of the graph. The ingestion writes its own line: rows read (pass 1) and
partitions assembled (pass 2).
"""

from __future__ import annotations
from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError

import contextlib
import sys
import threading
import time

_AUTO_MINIMUM = 5.0
_LOCAL = threading.local()


def _state() -> dict:
    state = getattr(_LOCAL, "state", None)
    return state if state is not None else {"mode": "auto", "minimum": _AUTO_MINIMUM, "out": None}


@contextlib.contextmanager
def progress(enabled: bool = True, *, minimum: float = 0.0, out=None):
    """Show (or, with ``enabled=False``, hide) progress output inside the ``with`` block.

    Parameters
    ----------
    enabled : bool
        Show progress (True) or never (False). Outside any ``with progress(...)`` block the
        default is automatic: a bar on standard error for computations that run longer than
        5 seconds when standard error is a terminal.
    minimum : float
        Seconds a computation must run before its bar appears.
    out : file-like, optional
        Where to write (standard error by default).

    Examples
    --------
    >>> import io, mcda
    >>> from mcda import store
    >>> lazy = mcda.datasets.load("demsar2006").chunk({"dataset": 7})
    >>> sink = io.StringIO()
    >>> with store.progress(out=sink):
    ...     result = mcda.friedman_test(lazy)
    >>> "100%" in sink.getvalue()
    True
    """
    if not isinstance(enabled, bool):
        raise McdaArgumentTypeError(f"`enabled` must be True or False; got {enabled!r}",
                                    argument="enabled", value=enabled)
    if isinstance(minimum, bool) or not isinstance(minimum, (int, float)) or not minimum >= 0:
        raise McdaArgumentError(f"`minimum` must be a number of seconds >= 0; got {minimum!r}",
                                argument="minimum", value=minimum)
    previous = getattr(_LOCAL, "state", None)
    _LOCAL.state = {"mode": "on" if enabled else "off", "minimum": float(minimum), "out": out}
    try:
        yield
    finally:
        _LOCAL.state = previous


def _settings():
    """(show at all, minimum seconds, output stream) for the current thread."""
    state = _state()
    out = state["out"] if state["out"] is not None else sys.stderr
    if state["mode"] == "off":
        return False, 0.0, out
    if state["mode"] == "auto":
        interactive = bool(getattr(out, "isatty", lambda: False)())
        return interactive, state["minimum"], out
    return True, state["minimum"], out


def _client():
    """The active dask.distributed client, or None (without importing distributed if absent)."""
    if "distributed" not in sys.modules:
        return None
    from distributed import get_client

    try:
        return get_client()
    except ValueError:
        return None


def compute(*tasks):
    """``dask.compute(*tasks)`` with a progress bar when the setting asks for one."""
    import dask

    show, minimum, out = _settings()
    if not show:
        return dask.compute(*tasks)
    client = _client()
    if client is None or dask.config.get("scheduler", None) not in ("dask.distributed", "distributed"):
        from dask.diagnostics import ProgressBar

        with ProgressBar(minimum=minimum, dt=0.5, out=out):
            return dask.compute(*tasks)
    from distributed import progress as distributed_progress
    from distributed import wait

    futures = client.compute(list(tasks))
    if minimum > 0:
        try:
            wait(futures, timeout=minimum)
        except TimeoutError:
            pass
    if not all(f.done() for f in futures):
        with contextlib.redirect_stdout(out):
            distributed_progress(futures, notebook=False, multi=False)
        out.write("\n")
    return tuple(client.gather(futures))


class Line:
    """The ingestion's own progress line: ``what: done / total unit (percent), seconds``.

    Written (``\\r``-refreshed, at most twice a second) once the work has run for the
    setting's minimum, and finished with a newline by :meth:`close`.
    """

    def __init__(self, what: str, total: int | None, unit: str):
        self.what, self.total, self.unit = what, total, unit
        self.show, self.minimum, self.out = _settings()
        self.start = time.perf_counter()
        self.last = 0.0
        self.written = False

    def update(self, done: int) -> None:
        if not self.show:
            return
        now = time.perf_counter()
        if now - self.start < self.minimum or now - self.last < 0.5:
            return
        self.last = now
        self._write(done)

    def _write(self, done: int) -> None:
        if self.total:
            text = f"{self.what}: {done:,} / {self.total:,} {self.unit} ({100 * done / self.total:.0f}%)"
        else:
            text = f"{self.what}: {done:,} {self.unit}"
        self.out.write(f"\r{text}, {time.perf_counter() - self.start:.0f} s")
        self.out.flush()
        self.written = True

    def close(self, done: int) -> None:
        if self.written:
            self._write(done)
            self.out.write("\n")
            self.out.flush()
