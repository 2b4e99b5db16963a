"""Shared by every benchmark script: the best of a few wall-clock runs.

This machine is shared and noisy, so each script reports the minimum over repeats and the
ratio against the peer timed in the same run, never an absolute time on its own.
"""

from __future__ import annotations

import time


def best_of(fn, repeats: int = 3):
    """Run ``fn()`` ``repeats`` times; return (fastest seconds, the last result)."""
    times, out = [], None
    for _ in range(max(1, repeats)):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return min(times), out
