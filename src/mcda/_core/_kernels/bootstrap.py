"""Percentile bootstrap of the mean, many cells at once (numba).

The cells are stored compactly: ``values[offsets[c]:offsets[c + 1]]`` are the scores of cell
``c`` (missing seeds already dropped). Random draws come from the caller: one 64-bit ``base``
drawn from the caller's ``rng`` is mixed with the bit patterns of a cell's own scores
(:func:`cell_keys`) to give that cell's stream, so a cell's interval depends only on its scores
and ``base``, never on which other cells are in the call or in what order.

The stream is SplitMix64 (Steele, Lea & Flood 2014): output k is the mix of
``key + k * 0x9E3779B97F4A7C15``, split into two 32-bit uniforms (low half first). A uniform u
becomes an index in [0, m) by Lemire's multiply-shift ``(u * m) >> 32`` (each index has
probability within 2**-32 of 1/m: a relative bias below 1e-6 for the m <= 4096 used here
unless a cell has more than 4096 seeds).
Small cells draw several values at once, as one index into the table of the sums of every
g-tuple of their values (:func:`_resampled_means`): ten seeds take four draws and four
additions per resample instead of ten.
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

from mcda._core._kernels._jit import jit, run_in_runs

__all__ = ["cell_keys", "bootstrap_mean_quantiles", "resampled_means", "GOLDEN", "MIX1", "MIX2"]

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)


@jit(inline="always")
def _mix(z):
    """The SplitMix64 finaliser (a bijection of uint64)."""
    z = (z ^ (z >> _S30)) * MIX1
    z = (z ^ (z >> _S27)) * MIX2
    return z ^ (z >> _S31)


@jit()
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


@jit()
def _select(a, lo, hi, k):
    """Rearrange ``a[lo:hi]`` so that ``a[k]`` holds its order statistic: nothing before ``k``
    is larger and nothing after it smaller.

    Quickselect with a median-of-three pivot and branch-free Lomuto partitions (the swap is
    unconditional, only the boundary moves): first the values below the pivot to the front,
    then, when ``k`` lies beyond them, the values equal to the pivot, so that many equal
    values (means of a few seeds often tie) end the search instead of stalling it.
    """
    while hi - lo > 1:
        mid = (lo + hi - 1) >> 1
        x = a[lo]
        y = a[mid]
        z = a[hi - 1]
        if x < y:
            pivot = y if y < z else (z if x < z else x)
        else:
            pivot = x if x < z else (z if y < z else y)
        store = lo
        for i in range(lo, hi):
            v = a[i]
            a[i] = a[store]
            a[store] = v
            store += v < pivot
        if k < store:
            hi = store
            continue
        equal_end = store  # a[store:hi] >= pivot: the values equal to it go first
        for i in range(store, hi):
            v = a[i]
            a[i] = a[equal_end]
            a[equal_end] = v
            equal_end += not (pivot < v)
        if k < equal_end:
            return
        lo = equal_end


@jit()
def _min(a, lo, hi):
    m = a[lo]
    for i in range(lo + 1, hi):
        if a[i] < m:
            m = a[i]
    return m


_SAMPLE = 256  # size of the sample that places the filter threshold


@jit()
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


@jit(inline="always")
def _lerp(a, b, t):
    """numpy's _lerp: exact at both ends."""
    diff = b - a
    if t >= 0.5:
        return b - diff * (1.0 - t)
    return a + diff * t


TABLE_MAX = 4096  # entries of the table of tuple sums (32 kB: stays in the L1 cache)


@jit()
def group_size(n):
    """How many values one draw takes: the g with n**g <= TABLE_MAX and fewest draws per resample
    (n // g tuples plus n % g single values; the smaller g on a tie)."""
    best = 1
    best_draws = n
    size = n
    g = 1
    while g < n and size * n <= TABLE_MAX:
        size *= n
        g += 1
        draws = n // g + n % g
        if draws < best_draws:
            best = g
            best_draws = draws
    return best


_WORDS = 2048  # 64-bit outputs drawn per block: a vectorisable loop, then a plain read


@jit()
def _sum_block(halves, p, table, cell, size64, n64, means, start, stop, n, groups, singles):
    """means[start:stop] from the uniforms ``halves[p:]``: ``groups`` tuple draws and ``singles``
    single draws per resample, summed in draw order.

    Up to 5 tuple draws and 2 single draws (every layout of 2–16 seeds) are written out, each
    behind a test of the counts that is the same for every resample (the branch predictor
    and the compiler's loop unswitching make them free): about as fast as loops with constant
    counts, in one compiled function instead of one specialisation per layout. Other layouts
    take plain loops.
    """
    per_resample = groups + singles
    if groups > 5 or singles > 2:
        for b in range(start, stop):
            total = 0.0
            for _ in range(groups):
                total += table[(np.uint64(halves[p]) * size64) >> _S32]
                p += 1
            for _ in range(singles):
                total += cell[(np.uint64(halves[p]) * n64) >> _S32]
                p += 1
            means[b] = total / n
        return
    for b in range(start, stop):
        total = 0.0 + table[(np.uint64(halves[p]) * size64) >> _S32]  # groups >= 1: n // g with g <= n
        if groups > 1:
            total += table[(np.uint64(halves[p + 1]) * size64) >> _S32]
        if groups > 2:
            total += table[(np.uint64(halves[p + 2]) * size64) >> _S32]
        if groups > 3:
            total += table[(np.uint64(halves[p + 3]) * size64) >> _S32]
        if groups > 4:
            total += table[(np.uint64(halves[p + 4]) * size64) >> _S32]
        if singles > 0:
            total += cell[(np.uint64(halves[p + groups]) * n64) >> _S32]
        if singles > 1:
            total += cell[(np.uint64(halves[p + groups + 1]) * n64) >> _S32]
        p += per_resample
        means[b] = total / n


@jit()
def _resampled_means(cell, key, n_resamples, means, table, halves):
    """Fill ``means`` with the means of ``n_resamples`` resamples (with replacement) of ``cell``.

    The stream: output k = 1, 2, … is ``mix(key + k · GOLDEN)`` (SplitMix64), and uniform j
    = 0, 1, … is the low (j even) or high (j odd) 32-bit half of output j // 2 + 1. One draw
    takes g = :func:`group_size` (n) values at once: ``(u * n**g) >> 32`` indexes the table
    of the sums of every g-tuple of the cell's values (tuple (i_1, …, i_g) at
    i_1·n^(g−1) + … + i_g, summed left to right); a uniform index into n**g tuples is g
    independent uniform indices. A resample takes the next n // g such draws and then n % g
    single values ``(u * n) >> 32``; the sum is accumulated in draw order and divided by n.
    ``table`` needs n**g entries (``TABLE_MAX`` is enough) and ``halves`` (uint32)
    ``2 * _WORDS + 4``.

    The outputs are computed a block at a time, each stored as its two halves (low first) in
    ``halves`` by shifts and masks (a loop the compiler can vectorise), and read back in
    order: the same stream on a machine of either byte order, without reinterpreting the
    memory of a uint64 array (numba takes most of a second to compile such a view).
    """
    n = cell.shape[0]
    g = group_size(n)
    n64 = np.uint64(n)
    size = 1
    for _ in range(g):
        size *= n
    size64 = np.uint64(size)
    # table[i * n + d] = (sum of the tuple i of length j) + cell[d], built up from j = 1
    width = n
    for d in range(n):
        table[d] = cell[d]
    for _ in range(g - 1):
        for i in range(width - 1, -1, -1):  # high to low, so each source entry is read before it is overwritten
            base = table[i]
            for d in range(n):
                table[i * n + d] = base + cell[d]
        width *= n
    groups = n // g
    singles = n - groups * g
    per_resample = groups + singles  # uniforms used by one resample
    block = max(1, (2 * _WORDS - 2) // per_resample)  # resamples whose uniforms fit in ``halves``
    j = 0  # index of the next uniform
    for start in range(0, n_resamples, block):
        stop = min(n_resamples, start + block)
        first = j >> 1  # 0-based index of the output holding uniform j
        last = (j + (stop - start) * per_resample - 1) >> 1
        for k in range(last - first + 1):
            w = _mix(key + np.uint64(first + k + 1) * GOLDEN)
            halves[2 * k] = np.uint32(w & _LOW32)
            halves[2 * k + 1] = np.uint32(w >> _S32)
        _sum_block(halves, j - 2 * first, table, cell, size64, n64, means, start, stop, n, groups, singles)
        j += (stop - start) * per_resample


@jit(nogil=True)
def _quantiles(values, offsets, keys, n_resamples, probs, out, first, last):
    """Rows ``first:last`` of :func:`bootstrap_mean_quantiles` into ``out`` (NaN-filled before)."""
    n_probs = probs.shape[0]
    for c in range(first, last):
        start = offsets[c]
        n = offsets[c + 1] - start
        if n < 2:
            continue
        means = np.empty(n_resamples)
        table = np.empty(max(TABLE_MAX, n))
        halves = np.empty(2 * _WORDS + 4, dtype=np.uint32)
        _resampled_means(values[start:start + n], keys[c], n_resamples, means, table, halves)
        sample = np.empty(min(_SAMPLE, n_resamples))
        buf = np.empty(n_resamples)
        for p in range(n_probs):
            h = (n_resamples - 1) * probs[p]  # numpy's "linear" virtual index
            b = min(int(np.floor(h)), n_resamples - 1)
            gamma = h - b
            b1 = b + 1 if (gamma > 0.0 and b + 1 < n_resamples) else b
            x_b, x_b1 = _order_pair(means, b, b1, sample, buf)
            out[c, p] = _lerp(x_b, x_b1, gamma) if b1 > b else x_b


_CELLS_PER_TASK = 64  # fewer cells than this per thread: one thread does them all


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

    Notes
    -----
    The cells run on ``numba.get_num_threads()`` threads, in contiguous runs of cells (the
    compiled loop releases the GIL): the same threads numba's ``prange`` would use, without
    the seconds a ``parallel=True`` kernel takes to compile. A cell's result depends only on
    its values and key, so the split changes nothing.
    """
    n_cells = offsets.shape[0] - 1
    out = np.full((n_cells, probs.shape[0]), np.nan)
    threads = min(numba.get_num_threads(), n_cells // _CELLS_PER_TASK)
    # several runs per thread: cells of different sizes even out
    run_in_runs(_quantiles, (values, offsets, keys, n_resamples, probs, out), n_cells, threads, tasks=4 * threads)
    return out


@jit()
def resampled_means(values, key, n_resamples):
    """The resampled means of one cell, in draw order (for tests and diagnostics)."""
    n = values.shape[0]
    means = np.empty(n_resamples)
    table = np.empty(max(TABLE_MAX, n))
    halves = np.empty(2 * _WORDS + 4, dtype=np.uint32)
    _resampled_means(values, key, n_resamples, means, table, halves)
    return means
