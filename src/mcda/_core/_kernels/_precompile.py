"""Kernels compiled ahead, in a forked process, on the first run after install (an empty numba cache).

On an empty cache every kernel a run uses compiles in the process doing the analysis, one after
another (seconds in all), while the machine's other cores sit idle. The command line
(:func:`mcda.app.cli.main`, as the process's own command only) calls :func:`start` with the kernel
modules its analysis will need, in the order it needs them. When some are not known to be
cached, one forked process compiles those through the kernels' own entry points, at the
argument types the analysis passes (:data:`WARM_UPS`, checked against a real run by
``tests/test_precompile.py``), and numba writes each to its cache (a temporary file, then a
rename: another process finds the entry whole or not at all). The parent
carries on with its imports, reading and the analyses that need other kernels.

The parent meets the child when it imports one of those modules (:func:`mcda._core._kernels._jit.jit`
reports each kernel module's first decoration to :func:`wait_for`):

- the child has finished the module: the parent's kernels load from the cache;
- the child is compiling it now: the parent waits for it (at most ``_WAIT_SECONDS``), then loads;
- the child has not reached it, failed, or is gone: the parent compiles it itself, as without a child.

numba compiles the same function at the same types to the same code in either process, so the
child changes where the compiled code comes from, never what a kernel computes. A child that
fails only leaves the parent more to compile; it writes nothing but numba's own cache entries
and, once a module's warm-up has finished, that module's marker. The markers
(``mcda-precompiled/`` in the cache directory) say which modules were compiled for this source
file, numba, Python and CPU, so that a warm run forks nothing. :func:`stop` ends the child (before
the figures are drawn, and at exit) when it is still working on modules the run did not need.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time

import numpy as np

from mcda._core._kernels import _jit

__all__ = ["start", "stop", "wait_for", "WARM_UPS", "is_marked"]

_WAIT_SECONDS = 60.0  # a child this late on the module the parent needs: the parent compiles it itself


def _warm_counts():
    from mcda._core._kernels.counts import region_counts

    region_counts(np.zeros((1, 2)), 0.0, 0.0)


def _warm_signed_rank():
    from mcda._core._kernels.signed_rank import signed_rank_shares, sum_boundaries

    first_ge, first_gt = sum_boundaries(np.zeros(2), 0.0, 0.0)
    rows = np.zeros((1, 2), dtype=np.int64)
    signed_rank_shares(np.full((2, 1), 0.5), rows, rows, rows, rows, rows, True, np.empty((0, 0, 3)),
                       np.zeros((1, 3), dtype=np.int64), 1, threads=1)


def _warm_bootstrap():
    from mcda._core._kernels.bootstrap import bootstrap_mean_quantiles, cell_keys

    values = np.array([0.0, 1.0])
    offsets = np.array([0, 2], dtype=np.int64)
    keys = cell_keys(values.view(np.uint64), offsets, np.uint64(0))
    bootstrap_mean_quantiles(values, offsets, keys, 3, np.array([0.025, 0.975]))


def _warm_dirichlet():
    from mcda._core._kernels.dirichlet import normalise_and_count

    normalise_and_count(np.ones((1, 3)))


def _warm_rank_positions():
    from mcda._core._kernels.rank_positions import weighted_counts

    weighted_counts(np.zeros((1, 1), dtype=np.int64), np.ones(1), np.empty((1, 1)), np.empty(1))


def _warm_design_power():
    from mcda._core._kernels.design_power import N_PROCEDURES, simulate_separations

    # one simulated benchmark of 3 datasets x 3 methods, at the types mcda.stats.across.power passes
    # (its tables sized for n = 3: the signed-rank null has n(n + 1)/2 + 1 entries, the sign tables n + 1)
    n, k = 3, 3
    simulate_separations(np.zeros((1, n, k)), np.ones(N_PROCEDURES, dtype=np.int64), 4.0, 1.0, True, 1.0, 0.05,
                         np.ones(n * (n + 1) // 2 + 1), np.ones(n * (n + 1) // 2 + 1), 25, 10, np.ones((n + 1, n + 1)),
                         0.0, np.zeros((n + 1, n + 1), dtype=np.int64),
                         np.zeros((N_PROCEDURES, k * (k - 1) // 2), dtype=np.int64),
                         np.zeros(N_PROCEDURES, dtype=np.int64), np.zeros(1, dtype=np.int64))


#: Kernel module -> a call of its kernels at the types the analysis uses (tiny inputs).
WARM_UPS = {"mcda._core._kernels.design_power": _warm_design_power, "mcda._core._kernels.counts": _warm_counts, "mcda._core._kernels.signed_rank": _warm_signed_rank,
            "mcda._core._kernels.bootstrap": _warm_bootstrap, "mcda._core._kernels.dirichlet": _warm_dirichlet,
            "mcda._core._kernels.rank_positions": _warm_rank_positions}

_child: dict | None = None  # in the parent, while a child runs: pid, pipe, modules, started, done


def _marker_directory() -> str | None:
    directory = _jit.cache_directory()
    if directory is None:
        return None
    base = directory or os.environ.get("NUMBA_CACHE_DIR", "")
    return os.path.join(base, "mcda-precompiled") if base else None


def _marker(module: str) -> str | None:
    """The marker file of ``module``: named after its source file's path, size and modification time,
    numba's and Python's versions and the CPU (what numba's cache entries depend on)."""
    import importlib.util

    import numba

    directory = _marker_directory()
    if directory is None:
        return None
    try:
        spec = importlib.util.find_spec(module)
        source = os.stat(spec.origin)
        from llvmlite import binding

        cpu = binding.get_host_cpu_name()
    except Exception:
        return None
    key = "|".join(map(str, (spec.origin, source.st_size, source.st_mtime_ns, numba.__version__, sys.version,
                             sys.platform, cpu, os.environ.get("NUMBA_CPU_NAME", ""))))
    return os.path.join(directory, f"{module}.{hashlib.sha256(key.encode()).hexdigest()[:20]}")


def is_marked(module: str) -> bool:
    """Whether ``module``'s kernels were compiled ahead into the cache for this source, numba and CPU."""
    path = _marker(module)
    return path is not None and os.path.exists(path)


def _fork_allowed() -> bool:
    import threading

    if not hasattr(os, "fork") or threading.active_count() > 1:  # fork copies one thread only
        return False
    if os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        return False
    return _marker_directory() is not None  # no cache: nothing to share with the parent


def start(modules) -> bool:
    """Fork one process compiling the kernels of ``modules`` not yet marked as cached (in order).

    Returns whether a process was started. Call it from a process's own command only, before any
    thread is started (it refuses when other threads run).
    """
    global _child
    if _child is not None:
        return False
    todo = [m for m in modules if m in WARM_UPS and not is_marked(m)]
    if not todo or not _fork_allowed():
        return False
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: compile, report each module on the pipe, and leave without cleaning up
        code = 1
        try:
            os.close(read_end)
            _quiet()
            for module in todo:
                os.write(write_end, f"start {module}\n".encode())
                WARM_UPS[module]()
                _write_marker(module)
                os.write(write_end, f"done {module}\n".encode())
            code = 0
        finally:
            os._exit(code)  # no atexit handlers, no flush of the parent's buffers
    os.close(write_end)
    os.set_blocking(read_end, False)
    _child = {"pid": pid, "fd": read_end, "modules": set(todo), "current": None, "done": set(), "buffer": b""}
    _jit.set_import_hook(wait_for)
    return True


def _quiet() -> None:
    """The child writes nothing to the terminal; a request to terminate ends it at its next bytecode
    (a cache file it was writing stays an unread temporary file, never a broken entry)."""
    import signal

    def terminate(signum, frame):
        raise SystemExit(1)

    signal.signal(signal.SIGTERM, terminate)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C goes to the parent, which ends the child
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)


def _write_marker(module: str) -> None:
    path = _marker(module)
    if path is None:
        return
    os.makedirs(os.path.dirname(path), exist_ok=True)
    temporary = f"{path}.{os.getpid()}.tmp"
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write("compiled ahead by mcda (mcda._core._kernels._precompile)\n")
    os.replace(temporary, path)


def _read(state: dict, block_until: float | None = None) -> bool:
    """Take the child's messages; with ``block_until``, wait for one (up to that time). False at its end."""
    import select

    while True:
        if block_until is not None:
            remaining = block_until - time.monotonic()
            if remaining <= 0 or not select.select([state["fd"]], [], [], remaining)[0]:
                return True
        try:
            chunk = os.read(state["fd"], 4096)
        except BlockingIOError:
            return True
        if not chunk:  # the child closed the pipe: it has ended
            state["current"] = None
            state["ended"] = True
            return False
        state["buffer"] += chunk
        *lines, state["buffer"] = state["buffer"].split(b"\n")
        for line in lines:
            word, _, module = line.decode().partition(" ")
            if word == "start":
                state["current"] = module
            elif word == "done":
                state["done"].add(module)
                state["current"] = None
        if block_until is not None:
            return True


def wait_for(module: str) -> None:
    """Called when the parent first decorates a kernel of ``module``: wait while the child compiles it."""
    state = _child
    if state is None or module not in state["modules"] or state.get("ended"):
        return
    if not _read(state):
        return
    deadline = time.monotonic() + _WAIT_SECONDS
    while state["current"] == module and module not in state["done"] and time.monotonic() < deadline:
        if not _read(state, block_until=deadline):
            return


def stop() -> None:
    """End the child if it still runs (it works on modules this run has not needed so far); reap it."""
    import signal

    global _child
    state = _child
    if state is None:
        return
    _child = None
    _jit.set_import_hook(None)
    try:
        if not state.get("ended"):
            _read(state)
        if not state.get("ended"):
            os.kill(state["pid"], signal.SIGTERM)
        os.waitpid(state["pid"], 0)
    except (ChildProcessError, ProcessLookupError, OSError):
        pass
    finally:
        os.close(state["fd"])
