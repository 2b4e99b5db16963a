"""Multiple-testing adjustment: the one home of every p-value correction in mcda.

:data:`PVALUE_ADJUSTMENTS` maps each canonical name to its accepted aliases (statsmodels'
``multipletests`` names included, as in ``statsmodels.stats.multitest``);
:func:`canonical_adjustment` reads a user's word into the canonical name and
:func:`adjust_pvalues` adjusts a family. The post-hoc procedures across datasets
(:mod:`mcda.stats.across.posthoc`), Holm within a dataset (:func:`mcda.paired_tests`) and the sign-test
family of :func:`mcda.pairwise_superiority` all adjust here.
"""

from __future__ import annotations

import difflib
import functools
import math

import numpy as np
import pandas as pd

from mcda._core.validation import McdaArgumentError
from mcda._core.validation import shown
from mcda.stats.procedures import adjustment_aliases

__all__ = [
    "PVALUE_ADJUSTMENTS",
    "PAIR_STRUCTURED",
    "BERGMANN_HOMMEL_MAX_METHODS",
    "adjust_pvalues",
    "canonical_adjustment",
    "adjust_finite",
    "adjust_by_family",
    "check_bergmann_hommel",
]

#: Canonical name -> accepted aliases of every p-value adjustment (compared after lower-casing and
#: turning "_" and spaces into "-"). The statsmodels names (``multipletests``) are all accepted.
PVALUE_ADJUSTMENTS: dict[str, tuple[str, ...]] = adjustment_aliases()
_ALIASES = {alias: name for name, aliases in PVALUE_ADJUSTMENTS.items() for alias in (name, *aliases)}

#: The adjustments that need the k(k − 1)/2 p-values of all pairs of k methods (their logical
#: restrictions assume transitive null hypotheses: equal means or mean ranks).
PAIR_STRUCTURED = ("shaffer", "bergmann-hommel")

#: Largest number of methods Bergmann–Hommel handles: it visits every exhaustive set, i.e. every
#: partition of the methods (Bell number B_12 = 4,213,597 partitions, about 3 s; B_13 is 6.5× more).
BERGMANN_HOMMEL_MAX_METHODS = 12


def _listed(items, limit: int = 4) -> str:
    return "[" + shown(items, limit, fmt=str) + "]"


def canonical_adjustment(value, name: str = "method", *, allowed=None, optional: bool = False,
                         why_not: str = "") -> str:
    """The canonical name of the adjustment ``value`` names (any alias, case, "_" or " " for "-").

    ``name`` is the argument the value came in (named in the error); ``allowed`` restricts the
    canonical names accepted (all of :data:`PVALUE_ADJUSTMENTS` by default); ``optional`` says
    the argument also takes None (said in the error; None itself is the caller's to handle);
    ``why_not`` says why a known adjustment outside ``allowed`` is refused. Anything else raises
    a ValueError that names ``name``, shows the value, lists what is allowed and suggests the
    nearest name.

    >>> canonical_adjustment("Benjamini_Hochberg")
    'fdr-bh'
    """
    allowed = tuple(PVALUE_ADJUSTMENTS if allowed is None else allowed)
    key = value.strip().lower().replace("_", "-").replace(" ", "-") if isinstance(value, str) else None
    canonical = _ALIASES.get(key)
    if canonical in allowed:
        return canonical
    hint = ""
    if canonical is not None:
        hint = f" {why_not}" if why_not else ""
    elif key is not None:
        close = difflib.get_close_matches(key, [a for a in _ALIASES if _ALIASES[a] in allowed], n=1)
        hint = f" Did you mean {_ALIASES[close[0]]!r}?" if close else ""
    choices = "{" + ", ".join(repr(a) for a in allowed) + "}"
    raise McdaArgumentError(f"`{name}` must be {'None or ' if optional else ''}one of {choices} (or an alias in "
                     f"mcda.stats._shared.multitest.PVALUE_ADJUSTMENTS); got {value!r}.{hint}", argument=name,
                     value=value, allowed=((None,) if optional else ()) + allowed)


def _shaffer_counts(n_methods: int) -> np.ndarray:
    """Shaffer's t_i, i = 1..m: the most hypotheses that can be true once any i − 1 are false."""
    possible = np.array(sorted(_true_hypothesis_counts(n_methods)))
    m = n_methods * (n_methods - 1) // 2
    remaining = m - np.arange(m)  # m − i + 1
    return possible[np.searchsorted(possible, remaining, side="right") - 1]


@functools.lru_cache(maxsize=8)
def _true_hypothesis_counts(n_methods: int) -> frozenset:
    """Shaffer's S(k): the possible numbers of true pairwise hypotheses among k methods.

    S(0) = S(1) = {0};  S(k) = ∪_{j=1..k} {C(j, 2) + s : s ∈ S(k − j)} (the methods tied with
    method 1 form a block of j; the rest is any configuration of k − j methods).

    Built bottom-up, each S(n) a Python integer used as a bitset (bit s set when s ∈ S(n)), so
    a union of shifted sets is one shift and one OR: k = 200 (C(200, 2) = 19,900 bits) takes
    about 20,000 such operations, a few tens of milliseconds. (A memoised recursion over sets
    recomputed exponentially once k outgrew its cache: 80 methods took minutes.)
    """
    counts = [1, 1]  # S(0) = S(1) = {0}: bit 0
    for n in range(2, n_methods + 1):
        bits = 0
        for j in range(1, n + 1):
            bits |= counts[n - j] << (j * (j - 1) // 2)
        counts.append(bits)
    bits = counts[max(n_methods, 0)]
    return frozenset(i for i in range(bits.bit_length()) if bits >> i & 1)


@functools.lru_cache(maxsize=2)
def _set_partitions(n_methods: int) -> np.ndarray:
    """Every partition of k items as a restricted-growth string (B_k rows × k, int8)."""
    labels = np.zeros((1, 1), dtype=np.int8)
    largest = np.zeros(1, dtype=np.int8)
    for _ in range(1, n_methods):
        choices = largest.astype(np.int64) + 2  # any existing block, or a new one
        parent = np.repeat(np.arange(labels.shape[0]), choices)
        new = (np.arange(choices.sum()) - np.repeat(np.cumsum(choices) - choices, choices)).astype(np.int8)
        labels = np.concatenate([labels[parent], new[:, None]], axis=1)
        largest = np.maximum(largest[parent], new)
    labels.setflags(write=False)
    return labels


def _bergmann_hommel(p: np.ndarray, n_methods: int) -> np.ndarray:
    """Adjusted p-values: max over exhaustive sets I ∋ i of |I| · min_{j ∈ I} p_j (capped at 1).

    The exhaustive sets of pairwise hypotheses are exactly the partitions of the methods (the
    true hypotheses are the pairs inside a block); García & Herrera (2008), §3.3.
    """
    a, b = np.triu_indices(n_methods, 1)
    out = np.zeros(a.size)
    partitions = _set_partitions(n_methods)
    block = 1 << 15
    for start in range(0, partitions.shape[0], block):
        labels = partitions[start:start + block]
        inside = labels[:, a] == labels[:, b]
        size = inside.sum(axis=1)
        smallest = np.where(inside, p[None, :], np.inf).min(axis=1)
        value = np.where(size > 0, size * np.where(size > 0, smallest, 0.0), -np.inf)
        out = np.maximum(out, np.where(inside, value[:, None], -np.inf).max(axis=0))
    return np.minimum(out, 1.0)


def _step_down(p_sorted: np.ndarray, multipliers: np.ndarray) -> np.ndarray:
    return np.minimum(np.maximum.accumulate(multipliers * p_sorted), 1.0)


def _step_up(p_sorted: np.ndarray, multipliers: np.ndarray) -> np.ndarray:
    return np.minimum(np.minimum.accumulate((multipliers * p_sorted)[::-1])[::-1], 1.0)


def _hommel(p_sorted: np.ndarray) -> np.ndarray:
    """Hommel's adjusted p-values for sorted p (the algorithm of R's ``p.adjust``)."""
    n = p_sorted.size
    i = np.arange(1, n + 1)
    q = np.full(n, np.min(n * p_sorted / i))
    adjusted = q.copy()
    for m in range(n - 1, 1, -1):
        head = n - m + 1  # hypotheses 1..n−m+1
        q1 = np.min(m * p_sorted[head:] / np.arange(2, m + 1))
        q[:head] = np.minimum(m * p_sorted[:head], q1)
        q[head:] = q[head - 1]
        adjusted = np.maximum(adjusted, q)
    return np.minimum(np.maximum(adjusted, p_sorted), 1.0)


@functools.lru_cache(maxsize=64)
def rom_critical_values(m: int, alpha: float) -> np.ndarray:
    """Rom's (1990) critical values α_1 ≤ … ≤ α_m for the sorted p-values p_(1) ≤ … ≤ p_(m).

    α_m = α, α_{m−1} = α/2 and, for i = 3..m (García et al. 2010, eq. for Rom's procedure),
    α_{m−i+1} = [Σ_{j=1}^{i−1} α^j − Σ_{j=1}^{i−2} C(i, j) α_{m−j}^{i−j}] / i.
    """
    crit = np.empty(m)
    crit[m - 1] = alpha
    if m >= 2:
        crit[m - 2] = alpha / 2.0
    for i in range(3, m + 1):
        first = sum(alpha ** j for j in range(1, i))
        second = sum(math.comb(i, j) * crit[m - 1 - j] ** (i - j) for j in range(1, i - 1))
        crit[m - i] = (first - second) / i
    crit.setflags(write=False)
    return crit


def adjust_finite(p: np.ndarray, method: str, n_methods: int | None = None, alpha: float = 0.05) -> np.ndarray:
    """Adjusted p-values of a 1-D array without NaN; ``method`` canonical (``n_methods`` for the
    pair-structured ones, ``alpha`` for Rom's critical values). The one place the procedures are
    computed."""
    m = p.size
    if m == 0:
        return p.copy()
    if method == "bergmann-hommel":
        return _bergmann_hommel(p, n_methods)
    order = np.argsort(p, kind="stable")
    ps = p[order]
    steps = np.arange(m, 0, -1, dtype=np.float64)  # m − i + 1
    if method == "bonferroni":
        out = np.minimum(m * ps, 1.0)
    elif method == "sidak":
        with np.errstate(divide="ignore"):  # p = 1: log1p(-1) = -inf, and 1 - (1 - p)^m = 1 exactly
            out = -np.expm1(m * np.log1p(-ps))
    elif method == "holm":
        out = _step_down(ps, steps)
    elif method == "holm-sidak":
        with np.errstate(divide="ignore"):  # as above
            out = np.minimum(np.maximum.accumulate(-np.expm1(steps * np.log1p(-ps))), 1.0)
    elif method == "shaffer":
        out = _step_down(ps, _shaffer_counts(n_methods).astype(np.float64))
    elif method == "hochberg":
        out = _step_up(ps, steps)
    elif method == "hommel":
        out = _hommel(ps)
    elif method == "finner":  # step-down: max_{j ≤ i} 1 − (1 − p_(j))^(m/j)
        with np.errstate(divide="ignore"):  # p = 1: log1p(-1) = -inf, and the adjusted p is 1 exactly (as sidak)
            out = np.minimum(np.maximum.accumulate(-np.expm1((m / np.arange(1, m + 1)) * np.log1p(-ps))), 1.0)
    elif method == "li":  # two-step: p_(i) / (p_(i) + 1 − p_(m)), the largest p unadjusted
        largest = ps[-1]
        with np.errstate(invalid="ignore", divide="ignore"):
            out = np.where(ps + 1.0 - largest > 0, ps / (ps + 1.0 - largest), 0.0)
        out = np.minimum(out, largest)
    elif method == "rom":  # step-up with Rom's critical values: min_{j ≥ i} (α / α_j) p_(j)
        out = _step_up(ps, alpha / rom_critical_values(m, float(alpha)))
    elif method in ("fdr-bh", "fdr-by"):
        scale = m / np.arange(1, m + 1)
        if method == "fdr-by":
            scale = scale * np.sum(1.0 / np.arange(1, m + 1))
        out = _step_up(ps, scale)
    else:  # pragma: no cover - guarded by the aliases table
        raise AssertionError(method)
    result = np.empty(m)
    result[order] = np.maximum(out, ps)
    return result


def adjust_pvalues(pvalues, method: str = "holm", *, alpha: float = 0.05) -> np.ndarray | pd.Series:
    """P-values adjusted for multiplicity (family-wise or false-discovery rate).

    Parameters
    ----------
    pvalues : array-like or pandas.Series, 1-D
        Raw p-values in [0, 1]. NaN marks a test that did not apply: it stays NaN and is left
        out of the family (as R's ``p.adjust`` does).
    method : str
        A canonical name or an alias from :data:`PVALUE_ADJUSTMENTS` (statsmodels'
        ``multipletests`` names included):

        ============== ===================================================================
        bonferroni     min(1, m p)
        sidak          1 − (1 − p)^m
        holm           step-down: max_{j ≤ i} (m − j + 1) p_(j)
        holm-sidak     step-down Šidák: max_{j ≤ i} 1 − (1 − p_(j))^(m − j + 1); alias
                       "holland" (Holland & Copenhaver 1987 is this procedure)
        finner         Finner (1993): max_{j ≤ i} 1 − (1 − p_(j))^(m / j)
        li             Li (2008), two-step: p_(i) / (p_(i) + 1 − p_(m)), p_(m) unchanged
        rom            Rom (1990), step-up: min_{j ≥ i} (α / α_j) p_(j), Rom's α_j at ``alpha``
        hochberg       step-up: min_{j ≥ i} (m − j + 1) p_(j)
        hommel         Hommel (1988), R's algorithm
        fdr-bh         Benjamini–Hochberg (false-discovery rate)
        fdr-by         Benjamini–Yekutieli (FDR under any dependence)
        shaffer        Shaffer's static procedure for all pairs of k methods
        bergmann-hommel  Bergmann–Hommel for all pairs of k methods (k ≤ 12)
        ============== ===================================================================

        ``shaffer`` and ``bergmann-hommel`` need the m = k(k − 1)/2 p-values of all pairs of
        k methods, in the order of ``itertools.combinations(range(k), 2)`` (row by row of the
        upper triangle); they accept no NaN.
    alpha : float
        Only for ``rom``: the level its critical values are computed at. Rom's constants are
        not proportional to α, so its adjusted p-values give Rom's decisions exactly at this
        level (p_adjusted ≤ alpha) and are only approximate at any other.

    Returns
    -------
    numpy.ndarray or pandas.Series
        Adjusted p-values in the input's order (a Series keeps its index), each ≥ its raw p
        and ≤ 1.

    Notes
    -----
    With p_(1) ≤ … ≤ p_(m) the sorted p-values (García, Fernández, Luengo & Herrera 2010, §4):

    * **Finner** (1993) is a step-down procedure with critical values 1 − (1 − α)^(i/m); it
      controls the family-wise error under independence and, like Holm–Šidák, under the
      positive dependence of comparisons that share a control. It is more powerful than Holm.
    * **Holland** (Holland & Copenhaver 1987) is the step-down Šidák procedure, the same as
      ``holm-sidak`` (the name is an alias): critical values 1 − (1 − α)^(1/(m − i + 1)).
    * **Li** (2008) is a two-step procedure: reject every hypothesis if p_(m) ≤ α; otherwise
      reject those with p_(i) ≤ α (1 − p_(m)) / (1 − α). Its adjusted p-value is
      p_(i) / (p_(i) + 1 − p_(m)). Very powerful when the largest p-value is small, useless
      when it is large (a large p_(m) drags every threshold down). García et al. (2010) use it,
      like Rom, for comparisons with a control.
    * **Rom** (1990) is a step-up procedure (reject H_(1..j) for the largest j with
      p_(j) ≤ α_j) with critical values from a recursion that makes the family-wise error
      exactly α under independence; uniformly more powerful than Hochberg. For m = 2 it is
      Hochberg.

    Hochberg, Hommel, Rom, Li and Finner rest on independence or positive dependence of the
    tests (Simes' inequality); Holm and Bonferroni hold under any dependence.

    Raises
    ------
    ValueError
        Unknown ``method`` (the nearest names are suggested), p-values outside [0, 1], not
        1-D, or a count that is not k(k − 1)/2 for the pair-structured methods.

    References
    ----------
    García, S., Herrera, F. (2008). An extension on "Statistical comparisons of classifiers
    over multiple data sets" for all pairwise comparisons. JMLR 9:2677–2694.
    Shaffer, J. P. (1986). Modified sequentially rejective multiple test procedures. JASA
    81(395):826–831. doi:10.1080/01621459.1986.10478341
    Bergmann, B., Hommel, G. (1988). Improvements of general multiple test procedures for
    redundant systems of hypotheses. In Multiple Hypothesenprüfung, 100–115.
    doi:10.1007/978-3-642-52307-6_8
    Finner, H. (1993). On a monotonicity problem in step-down multiple test procedures. JASA
    88(423):920–923. doi:10.1080/01621459.1993.10476358
    Holland, B. S., Copenhaver, M. D. (1987). An improved sequentially rejective Bonferroni test
    procedure. Biometrics 43(2):417–423. doi:10.2307/2531823
    Li, J. D. (2008). A two-step rejection procedure for testing multiple hypotheses. Journal of
    Statistical Planning and Inference 138(6):1521–1527. doi:10.1016/j.jspi.2007.04.032
    Rom, D. M. (1990). A sequentially rejective test procedure based on a modified Bonferroni
    inequality. Biometrika 77(3):663–665. doi:10.1093/biomet/77.3.663
    García, S., Fernández, A., Luengo, J., Herrera, F. (2010). Advanced nonparametric tests for
    multiple comparisons in the design of experiments in computational intelligence and data
    mining: experimental analysis of power. Information Sciences 180(10):2044–2064.
    doi:10.1016/j.ins.2009.12.010

    Examples
    --------
    >>> from mcda import adjust_pvalues
    >>> adjust_pvalues([0.01, 0.04, 0.03], method="holm").round(3).tolist()
    [0.03, 0.06, 0.06]
    """
    method = canonical_adjustment(method)
    if method == "rom":
        from mcda._core.validation import check_alpha

        alpha = check_alpha(alpha)
    index = pvalues.index if isinstance(pvalues, pd.Series) else None
    p = np.array(pvalues, dtype=np.float64)
    if p.ndim != 1:
        raise McdaArgumentError(f"`pvalues` must be 1-D; got shape {p.shape}.", argument="pvalues")
    finite = ~np.isnan(p)
    bad = finite & ((p < 0) | (p > 1))
    if bad.any():
        raise McdaArgumentError(f"`pvalues` must lie in [0, 1] (NaN for a test that did not apply); got "
                         f"{_listed(p[bad].tolist())} at positions {_listed(np.nonzero(bad)[0].tolist())}.",
                                argument="pvalues")
    n_methods = None
    if method in PAIR_STRUCTURED:
        n_methods = _methods_from_pairs(p.size, method)
        if not finite.all():
            raise McdaArgumentError(f"`pvalues` for {method!r} must have no NaN: the procedure needs every pair; "
                             f"NaN at positions {_listed(np.nonzero(~finite)[0].tolist())}.", argument="pvalues")
    out = np.full(p.shape, np.nan)
    out[finite] = adjust_finite(p[finite], method, n_methods, alpha=alpha)
    return pd.Series(out, index=index, name=getattr(pvalues, "name", None)) if index is not None else out


def _methods_from_pairs(n_pairs: int, method: str) -> int:
    k = int(round((1 + math.sqrt(1 + 8 * n_pairs)) / 2))
    if k < 2 or k * (k - 1) // 2 != n_pairs:
        raise McdaArgumentError(f"`pvalues` for {method!r} must hold the k(k-1)/2 p-values of all pairs of k methods "
                         f"(1, 3, 6, 10, 15, ...); got {n_pairs}.", argument="pvalues")
    if method == "bergmann-hommel":
        check_bergmann_hommel(k, argument="method")
    return k


def check_bergmann_hommel(n_methods: int, *, argument: str) -> None:
    """Refuse Bergmann–Hommel beyond :data:`BERGMANN_HOMMEL_MAX_METHODS` methods, saying what to use."""
    if n_methods > BERGMANN_HOMMEL_MAX_METHODS:
        raise McdaArgumentError(f"Bergmann-Hommel visits every exhaustive set of hypotheses (one per partition of the "
                         f"methods: {_bell(n_methods):,} for k = {n_methods}); mcda handles k <= "
                         f"{BERGMANN_HOMMEL_MAX_METHODS} (B_12 = 4,213,597 sets, about 3 s). With {n_methods} methods "
                         "use test='shaffer' (Shaffer's static procedure, any k) or test='holm'.",
                                argument=argument, value=n_methods)


def _bell(n: int) -> int:
    row = [1]
    for _ in range(n - 1):
        nxt = [row[-1]]
        for value in row:
            nxt.append(nxt[-1] + value)
        row = nxt
    return row[-1]


def adjust_by_family(pvalues: np.ndarray, family: np.ndarray, method: str = "holm") -> np.ndarray:
    """``pvalues`` adjusted by ``method`` within each family (rows with equal ``family``).

    NaN rows are not in any family and stay NaN. Used for Holm with the dataset as the family
    (:func:`mcda.paired_tests`).
    """
    method = canonical_adjustment(method)
    p = np.asarray(pvalues, dtype=np.float64)
    family = np.asarray(family)
    out = np.full(p.shape, np.nan)
    for f in np.unique(family):
        rows = np.nonzero((family == f) & ~np.isnan(p))[0]
        if rows.size:
            out[rows] = adjust_finite(p[rows], method)
    return out
