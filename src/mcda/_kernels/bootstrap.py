"""Percentile bootstrap of the mean, many cells at once (numba).

The cells are stored compactly: ``values[offsets[c]:offsets[c + 1]]`` are the scores of cell
``c`` (missing seeds already dropped). Random draws come from the caller: one 64-bit ``base``
drawn from the caller's ``rng`` is mixed with the bit patterns of a cell's own scores
(:func:`cell_keys`) to give that cell's stream, so a cell's interval depends only on its scores
and ``base``, never on which other cells are in the call or in what order.

The stream is SplitMix64 (Steele, Lea & Flood 2014): ``state += 0x9E3779B97F4A7C15`` and the
output is the mixed state, split into two 32-bit uniforms (low half first). A uniform u
becomes an index in [0, m) by Lemire's multiply-shift ``(u * m) >> 32`` (each index within
2**-32 of probability 1/m). Small cells draw two values at once, as one index into the n × n
table of pairwise sums (:func:`_resampled_means`), which halves the draws and the additions.
The stream is simple on purpose: the tests reproduce it in plain Python integers and check
the kernel against it draw for draw.

References
----------
Steele, G. L., Lea, D. and Flood, C. H. (2014). Fast splittable pseudorandom number
generators. OOPSLA 2014. https://doi.org/10.1145/2660193.2660195

Lemire, D. (2019). Fast random integer generation in an interval. ACM Transactions on
Modeling and Computer Simulation 29(1). https://doi.org/10.1145/3230636
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["cell_keys", "bootstrap_mean_quantiles", "resampled_means", "GOLDEN", "MIX1", "MIX2"]

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)


@numba.njit(cache=True, inline="always")
def _mix(z):
    """The SplitMix64 finaliser (a bijection of uint64)."""
    z = (z ^ (z >> _S30)) * MIX1
    z = (z ^ (z >> _S27)) * MIX2
    return z ^ (z >> _S31)


@numba.njit(cache=True)
def cell_keys(bits, offsets, base):
    """One uint64 key per cell: ``base`` mixed with the bit patterns of the cell's scores.

    ``key = base; for b in bits of the cell: key = mix(key ^ b)``, then ``mix(key + GOLDEN)``
    once more so that a cell with no value still gets a mixed key.
    """
    n_cells = offsets.shape[0] - 1
    keys = np.empty(n_cells, dtype=np.uint64)
    for c in range(n_cells):
        key = base
        for i in range(offsets[c], offsets[c + 1]):
            key = _mix(key ^ bits[i])
        keys[c] = _mix(key + GOLDEN)
    return keys


@numba.njit(cache=True)
def _select(a, lo, hi, k):
    """Rearrange ``a[lo:hi]`` so that ``a[k]`` holds its order statistic: nothing before ``k``
    is larger and nothing after it smaller (quickselect, median-of-three pivot, three-way
    partition so that many equal values cost nothing)."""
    while hi - lo > 1:
        mid = (lo + hi - 1) >> 1
        x = a[lo]
        y = a[mid]
        z = a[hi - 1]
        if x < y:
            pivot = y if y < z else (z if x < z else x)
        else:
            pivot = x if x < z else (z if y < z else y)
        lt = lo
        i = lo
        gt = hi - 1
        while i <= gt:
            v = a[i]
            if v < pivot:
                a[i] = a[lt]
                a[lt] = v
                lt += 1
                i += 1
            elif v > pivot:
                a[i] = a[gt]
                a[gt] = v
                gt -= 1
            else:
                i += 1
        # a[lo:lt] < pivot == a[lt:gt + 1] < a[gt + 1:hi]
        if k < lt:
            hi = lt
        elif k > gt:
            lo = gt + 1
        else:
            return


@numba.njit(cache=True)
def _min(a, lo, hi):
    m = a[lo]
    for i in range(lo + 1, hi):
        if a[i] < m:
            m = a[i]
    return m


@numba.njit(cache=True)
def _max(a, lo, hi):
    m = a[lo]
    for i in range(lo + 1, hi):
        if a[i] > m:
            m = a[i]
    return m


_SAMPLE = 256  # size of the sample that places the filter threshold


@numba.njit(cache=True)
def _order_pair(means, b, b1, sample, buf):
    """The order statistics ``b`` and ``b1`` (``b1`` is ``b`` or ``b + 1``) of ``means``.

    Floyd & Rivest's idea: a threshold read off a small sample keeps, with overwhelming
    probability, every value up to the wanted ones (from whichever end is nearer); one
    branch-free pass copies those into ``buf`` and quickselect runs on that short buffer. When
    the threshold falls short the same selection runs on all values, so the answer is exact
    either way.
    """
    n = means.shape[0]
    m = sample.shape[0]
    from_low = b1 + 1 <= n - b
    need = (b1 + 1) if from_low else (n - b)  # how many values from that end
    q = need / n
    j = int(np.floor(m * q + 4.0 * np.sqrt(m * q * (1.0 - q)) + 2.0))
    cnt = 0
    if m < n and j < m:
        for i in range(m):
            sample[i] = means[i]  # the resampled means come in random order
        if from_low:
            _select(sample, 0, m, j)
            t = sample[j]
            for i in range(n):
                x = means[i]
                buf[cnt] = x
                cnt += x <= t
        else:
            _select(sample, 0, m, m - 1 - j)
            t = sample[m - 1 - j]
            for i in range(n):
                x = means[i]
                buf[cnt] = x
                cnt += x >= t
    if cnt < need:  # no filter, or it kept too few: select among all values
        for i in range(n):
            buf[i] = means[i]
        cnt = n
        shift = 0
    else:
        shift = 0 if from_low else n - cnt  # buf holds the cnt largest: index i there is shift + i overall
    k = b - shift
    _select(buf, 0, cnt, k)
    x_b = buf[k]
    x_b1 = x_b if b1 == b else _min(buf, k + 1, cnt)
    return x_b, x_b1


@numba.njit(cache=True, inline="always")
def _lerp(a, b, t):
    """numpy's _lerp: exact at both ends."""
    diff = b - a
    if t >= 0.5:
        return b - diff * (1.0 - t)
    return a + diff * t


_PAIR_TABLE_MAX = 64  # cells up to this size draw pairs of values from an n × n table of sums


@numba.njit(cache=True)
def _resampled_means(cell, key, n_resamples, means, table):
    """Fill ``means`` with the means of ``n_resamples`` resamples (with replacement) of ``cell``.

    The stream of 32-bit uniforms u is the SplitMix64 outputs from ``key``, low half first,
    carried from one resample to the next. A cell of n <= 64 values draws floor(n/2) pairs,
    each as ``(u * n * n) >> 32`` into the table of sums ``cell[i] + cell[j]`` at ``i * n + j``
    (a uniform pair is two independent uniform indices), then for odd n one value as
    ``(u * n) >> 32``; a larger cell draws n single values. The sum is accumulated in draw
    order and divided by n.
    """
    n = cell.shape[0]
    n64 = np.uint64(n)
    state = key
    have = False
    spare = np.uint64(0)
    if n <= _PAIR_TABLE_MAX:
        for i in range(n):
            for j in range(n):
                table[i * n + j] = cell[i] + cell[j]
        nn64 = np.uint64(n * n)
        half = n // 2
        odd = n - 2 * half
        for b in range(n_resamples):
            total = 0.0
            for _ in range(half):
                if have:
                    u = spare
                    have = False
                else:
                    state = state + GOLDEN
                    r = _mix(state)
                    u = r & _LOW32
                    spare = r >> _S32
                    have = True
                total += table[(u * nn64) >> _S32]
            if odd:
                if have:
                    u = spare
                    have = False
                else:
                    state = state + GOLDEN
                    r = _mix(state)
                    u = r & _LOW32
                    spare = r >> _S32
                    have = True
                total += cell[(u * n64) >> _S32]
            means[b] = total / n
    else:
        for b in range(n_resamples):
            total = 0.0
            for _ in range(n):
                if have:
                    u = spare
                    have = False
                else:
                    state = state + GOLDEN
                    r = _mix(state)
                    u = r & _LOW32
                    spare = r >> _S32
                    have = True
                total += cell[(u * n64) >> _S32]
            means[b] = total / n


@numba.njit(cache=True, parallel=True)
def bootstrap_mean_quantiles(values, offsets, keys, n_resamples, probs):
    """Quantiles of the bootstrap distribution of the mean, per cell.

    Parameters
    ----------
    values : float64 array
        The cells' scores, concatenated.
    offsets : int64 array, length n_cells + 1
        Cell ``c`` is ``values[offsets[c]:offsets[c + 1]]``.
    keys : uint64 array, length n_cells
        The cells' stream keys (:func:`cell_keys`).
    n_resamples : int
        Resamples per cell (>= 1).
    probs : float64 array
        Probabilities in [0, 1].

    Returns
    -------
    float64 array (n_cells, len(probs))
        NaN for cells with fewer than 2 values. The quantiles are numpy's default ("linear")
        ones of the ``n_resamples`` resampled means (:func:`_resampled_means`), exactly.
    """
    n_cells = offsets.shape[0] - 1
    n_probs = probs.shape[0]
    out = np.full((n_cells, n_probs), np.nan)
    for c in numba.prange(n_cells):
        start = offsets[c]
        n = offsets[c + 1] - start
        if n < 2:
            continue
        means = np.empty(n_resamples)
        table = np.empty(n * n if n <= _PAIR_TABLE_MAX else 1)
        _resampled_means(values[start:start + n], keys[c], n_resamples, means, table)
        sample = np.empty(min(_SAMPLE, n_resamples))
        buf = np.empty(n_resamples)
        for p in range(n_probs):
            h = (n_resamples - 1) * probs[p]  # numpy's "linear" virtual index
            b = min(int(np.floor(h)), n_resamples - 1)
            gamma = h - b
            b1 = b + 1 if (gamma > 0.0 and b + 1 < n_resamples) else b
            x_b, x_b1 = _order_pair(means, b, b1, sample, buf)
            out[c, p] = _lerp(x_b, x_b1, gamma) if b1 > b else x_b
    return out


@numba.njit(cache=True)
def resampled_means(values, key, n_resamples):
    """The resampled means of one cell, in draw order (for tests and diagnostics)."""
    n = values.shape[0]
    means = np.empty(n_resamples)
    table = np.empty(n * n if n <= _PAIR_TABLE_MAX else 1)
    _resampled_means(values, key, n_resamples, means, table)
    return means
