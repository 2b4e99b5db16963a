"""The mean, spread and Student t interval of rows of scores over seeds.

Read by the summaries over seeds (``within/seeds.py``) and by the reliability weighting of the
mean ranks (``_shared/ranks.py``), so both give the same interval for the same cell.
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy import stats

__all__ = ["spread", "t_interval", "t_interval_widths"]


def t_interval(mean, sem, n, confidence_level):
    """mean ± t_{(1+cl)/2, n-1} · sem, NaN where n < 2."""
    n = np.asarray(n)
    quantile = np.full(n.shape, np.nan)
    ok = n >= 2
    if ok.any():
        quantile[ok] = stats.t.ppf(0.5 + confidence_level / 2.0, n[ok] - 1)
    half = quantile * sem
    return mean - half, mean + half


def spread(values: np.ndarray, n: np.ndarray):
    """Mean and standard deviation (ddof 1) per row over the non-NaN entries, NaN where undefined.

    Rows whose values are all equal get a standard deviation of exactly 0 (the rounding of the
    mean would otherwise leave ~1e-17).
    """
    with warnings.catch_warnings(), np.errstate(invalid="ignore", divide="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        # scaled by each row's largest magnitude: squares of 1e-154 would underflow (a false sd of 0)
        scale = np.nanmax(np.abs(values), axis=1) if values.shape[1] else np.zeros(values.shape[0])
        scale = np.where(np.isfinite(scale) & (scale > 0), scale, 1.0)
        scaled = values / scale[:, None]
        mean = np.where(n > 0, np.nansum(scaled, axis=1) / np.maximum(n, 1), np.nan) * scale
        sd = np.where(n > 1, np.nanstd(scaled, axis=1, ddof=1), np.nan) * scale
        constant = (n > 1) & (np.nanmax(values, axis=1) == np.nanmin(values, axis=1))
    sd[constant] = 0.0
    return mean, sd


def t_interval_widths(values: np.ndarray, confidence_level: float):
    """(width, n) per row of a (cells, seeds) array: the width of the t interval of the mean over
    the row's non-NaN seeds (NaN below two seeds) and the number of those seeds."""
    values = np.asarray(values, dtype=np.float64)
    n = (~np.isnan(values)).sum(axis=1)
    mean, sd = spread(values, n)
    sem = sd / np.sqrt(np.where(n > 0, n, np.nan))
    low, high = t_interval(mean, sem, n, confidence_level)
    return high - low, n
