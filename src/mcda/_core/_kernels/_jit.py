"""The one way mcda compiles a kernel: ``numba.njit`` with a cache directory that can be written.

numba's default cache sits next to the source (the installed package's ``__pycache__``), then
in ``~/.cache/numba``; where neither can be written and ``NUMBA_CACHE_DIR`` is unset, every
``cache=True`` function raises ``RuntimeError: cannot cache function``. A library should not
write into its own install folder at run time either. So, in this order:

1. ``NUMBA_CACHE_DIR`` when the user set it (numba's own rule, untouched);
2. ``$XDG_CACHE_HOME/mcda/numba`` (``~/.cache/mcda/numba`` when ``XDG_CACHE_HOME`` is unset);
3. ``<temporary directory>/mcda-numba-<user>``;
4. no cache at all: the kernels compile in every new process (a few seconds), with one
   :class:`~mcda.McdaWarning` saying so.

A directory counts as usable only after a file was actually created in it (``os.access`` says
yes to root on a read-only mount). numba's ``config.CACHE_DIR`` is set only while a kernel is
being decorated (under a lock) and restored at once, so the user's own numba functions keep
numba's defaults.
"""

from __future__ import annotations

import getpass
import os
import tempfile
import threading
from pathlib import Path

import numba
from numba.core import config as _numba_config

__all__ = ["jit", "cache_directory", "run_in_runs", "set_import_hook"]

_LOCK = threading.Lock()
_UNSET = object()
_chosen: object = _UNSET
_import_hook = None  # called with a kernel module's name at its first decoration (see set_import_hook)
_hooked: set = set()


def set_import_hook(hook) -> None:
    """Call ``hook(module name)`` when a kernel module decorates its first kernel from now on (None: stop).

    :mod:`mcda._core._kernels._precompile` waits there for a process compiling that module ahead.
    """
    global _import_hook
    _import_hook = hook
    _hooked.clear()


def _writable(directory: Path) -> bool:
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError:
        return False
    return True


def _candidates() -> list[Path]:
    out = []
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        out.append(Path(xdg) / "mcda" / "numba")
    else:
        home = os.environ.get("HOME") or os.path.expanduser("~")
        if home and home != "~":
            out.append(Path(home) / ".cache" / "mcda" / "numba")
    try:
        user = getpass.getuser()
    except Exception:  # no user name in this environment (e.g. a container without passwd entry)
        user = str(os.getuid()) if hasattr(os, "getuid") else "user"
    out.append(Path(tempfile.gettempdir()) / f"mcda-numba-{user}")
    return out


def cache_directory() -> str | None:
    """The directory mcda's kernels cache into ('' when ``NUMBA_CACHE_DIR`` rules), or None (no cache)."""
    global _chosen
    if _chosen is _UNSET:
        if os.environ.get("NUMBA_CACHE_DIR"):
            _chosen = ""
        else:
            _chosen = next((str(d) for d in _candidates() if _writable(d)), None)
            if _chosen is None:
                from mcda._core.validation import McdaWarning, warn

                warn("mcda: no writable cache directory for its compiled kernels (tried "
                              + ", ".join(str(d) for d in _candidates())
                              + "); they compile afresh in every process. Set NUMBA_CACHE_DIR to a "
                              "writable folder to keep them.", McdaWarning)
    return _chosen  # type: ignore[return-value]


def jit(**options):
    """``numba.njit(cache=True, **options)`` with the cache directory chosen as the module says."""

    def decorate(function):
        hook = _import_hook
        if hook is not None and function.__module__ not in _hooked:
            _hooked.add(function.__module__)
            hook(function.__module__)
        directory = cache_directory()
        if directory is None:
            return numba.njit(cache=False, **options)(function)
        if directory == "":
            return numba.njit(cache=True, **options)(function)
        with _LOCK:
            previous = _numba_config.CACHE_DIR
            _numba_config.CACHE_DIR = directory
            try:
                return numba.njit(cache=True, **options)(function)
            finally:
                _numba_config.CACHE_DIR = previous

    return decorate


def run_in_runs(kernel, arguments: tuple, n: int, threads: int, tasks: int | None = None) -> None:
    """``kernel(*arguments, start, stop)`` over [0, n) in ``tasks`` (default ``threads``) contiguous
    runs on ``threads`` threads, or one call when ``threads`` <= 1.

    For a compiled loop that releases the GIL (``nogil``): the threads numba's ``prange`` would
    use, without the seconds a ``parallel=True`` kernel takes to compile.
    """
    if threads <= 1:
        kernel(*arguments, 0, n)
        return
    from concurrent.futures import ThreadPoolExecutor

    tasks = threads if tasks is None else tasks
    bounds = [n * t // tasks for t in range(tasks + 1)]
    with ThreadPoolExecutor(threads) as pool:
        for done in [pool.submit(kernel, *arguments, bounds[t], bounds[t + 1]) for t in range(tasks)]:
            done.result()
