"""baycomp's posterior histogram of one pair, from a Bayesian result that kept its draws.

baycomp draws a histogram where its simplex has little to show: of the posterior difference
with the rope marked (its correlated t test), or of the share of "b better" with the line at ½
(its sign and signed-rank tests without a rope). :func:`plot_posterior_histogram` draws the
first for mcda's hierarchical model (the population difference δ₀ in the metric's units) and,
for the sign and signed-rank tests, the histograms of the three region shares, which with
rope = 0 is baycomp's own picture. The probabilities written are the result's, never recounted.
"""

from __future__ import annotations

import numpy as np

from mcda._core.validation import McdaArgumentError, check_choice, check_positive_int
from mcda.present.plots import _common
from mcda.present.plots import _layout
from mcda.present.plots import _style
from mcda.present.plots.posterior import pair_draws, pair_rows

__all__ = ["histogram_data", "plot_posterior_histogram"]

_FIELDS = ("table", "draws", "rope", "threshold", "methods")
_QUANTITIES = ("difference", "shares")
_COLOURS = {"a": _style.PALETTE[0], "equivalent": _style.NEUTRAL, "b": _style.PALETTE[1]}


def histogram_data(result, pair, *, quantity: str | None = None) -> dict:
    """The draws to bin and the result's words and numbers for one pair.

    Parameters
    ----------
    result : HierarchicalComparison or BayesianComparison
        With posterior draws (``keep_draws=True``; the sign test with ``method="sampling"``).
    pair : (str, str)
        The two methods; the first is "a" (either order of the result's pair).
    quantity : {"difference", "shares"}, optional
        ``"difference"``: the draws of the population difference δ₀ = a − b (hierarchical model
        only, metric units); ``"shares"``: the draws of the three region shares (a better,
        equivalent, b better). Default: the difference when the result has it.

    Returns
    -------
    dict
        ``quantity``, ``draws`` (1-D for the difference, (n, 3) for the shares), ``a``, ``b``,
        ``rope``, ``prob`` (the result's ``prob_a_better, prob_equivalent, prob_b_better`` of the
        pair, oriented), ``label``, ``what`` (which probabilities they are, in words).
    """
    _common.require(result, _FIELDS, what="BayesianComparison or HierarchicalComparison",
                    maker="mcda.bayesian_sign_comparison, mcda.bayesian_signed_rank_comparison or "
                          "mcda.hierarchical_comparison")
    has_difference = getattr(result, "population_draws", None) is not None
    if quantity is None:
        quantity = "difference" if has_difference else "shares"
    quantity = check_choice("quantity", quantity, _QUANTITIES)
    row = pair_rows(result, [pair]).iloc[0]
    a, b = str(row["method_a"]), str(row["method_b"])
    if quantity == "difference":
        if not has_difference:
            raise McdaArgumentError("`quantity` 'difference' needs draws of a difference in the metric's units, which only "
                                    "mcda.hierarchical_comparison keeps (population_draws); the sign and signed-rank "
                                    "tests have draws of the region shares: use quantity='shares'.",
                                    argument="quantity")
        draws = result.population_draws
        if (a, b) in draws:
            values = np.asarray(draws[(a, b)], dtype=float)
        elif (b, a) in draws:
            values = -np.asarray(draws[(b, a)], dtype=float)
        else:
            raise McdaArgumentError(f"`result` holds no draws for the pair {pair!r}", argument="result")
    else:
        values = pair_draws(result, (a, b))
    test = getattr(result, "test", "")
    what = ("P: for the next dataset (posterior predictive), as the result reports" if test == "hierarchical"
            else "P: posterior probability that the region holds the largest share")
    return {"quantity": quantity, "draws": values, "a": a, "b": b, "rope": float(result.rope),
            "prob": (float(row["prob_a_better"]), float(row["prob_equivalent"]), float(row["prob_b_better"])),
            "label": str(row["label"]), "what": what, "test": test}


def plot_posterior_histogram(result, pair, *, quantity: str | None = None, bins: int = 50, width="column", ax=None):
    """baycomp's posterior histogram for one pair, with the rope marked and the three probabilities.

    Parameters
    ----------
    result : HierarchicalComparison or BayesianComparison
        :func:`mcda.hierarchical_comparison`, :func:`mcda.bayesian_signed_rank_comparison` or
        :func:`mcda.bayesian_sign_comparison` (``method="sampling"``), with draws kept for the
        pair (``keep_draws=True`` or a list holding it).
    pair : (str, str)
        The two methods; the first is "a" (the left of the difference a − b).
    quantity : {"difference", "shares"}, optional
        See :func:`histogram_data`. Default: the population difference δ₀ (a − b, metric units)
        for the hierarchical model, the region shares for the sign and signed-rank tests.
    bins : int
        Histogram bins (baycomp uses 50).
    width : {"column", "page"} or float
        Figure width. Ignored with ``ax``.
    ax : matplotlib Axes, optional

    Returns
    -------
    fig, ax : matplotlib Figure and Axes

    Raises
    ------
    ValueError
        ``pair`` is not two methods of the result, the result kept no draws for it, or
        ``quantity="difference"`` for a result without difference draws.

    Notes
    -----
    **Difference** (baycomp's histogram of the correlated t test, here for the hierarchical
    model's δ₀): the histogram of the posterior draws of the population difference a − b; the
    rope [−rope, rope] is a grey band, 0 a line. **Shares** (the sign and signed-rank tests):
    the histograms of the three shares of each draw (a better, within the rope, b better) on
    [0, 1], in the colours of :func:`~mcda.plots.plot_posterior_bars`; with rope = 0 the
    "b better" share is exactly baycomp's ``plot_histogram`` (its line at ½ splits P(a better)
    from P(b better)). The legend gives the result's three probabilities (for the hierarchical
    model those of the next dataset, which is what its table and text report; the histogram
    of δ₀ is the population's, so its areas beyond the rope need not equal them) and its
    decision at its ``threshold``.

    References
    ----------
    Benavoli, A., Corani, G., Demšar, J., Zaffalon, M. (2017). Time for a change: a tutorial for
    comparing multiple classifiers through Bayesian analysis. JMLR 18(77):1–36.

    Examples
    --------
    >>> import mcda
    >>> from mcda.plots import plot_posterior_histogram
    >>> res = mcda.bayesian_signed_rank_comparison(mcda.datasets.load("demsar2006"), rope=0.01, n_samples=2000,
    ...                                            rng=0)
    >>> fig, ax = plot_posterior_histogram(res, ("C4.5", "C4.5+m"))
    >>> sorted(p.get_gid() for p in ax.patches if p.get_gid())[:1]
    ['hist_a']
    """
    bins = check_positive_int("bins", bins)
    data = histogram_data(result, pair, quantity=quantity)
    a, b, rope = data["a"], data["b"], data["rope"]
    pa, pe, pb = data["prob"]
    with _style.style():
        fig, ax = _style.get_figure(ax, width, aspect=0.68)
        if data["quantity"] == "difference":
            values = data["draws"]
            if rope > 0:
                ax.axvspan(-rope, rope, color=_style.LIGHT, zorder=0, gid="rope_band")
            ax.axvline(0.0, color="black", lw=0.6, gid="zero_line")
            ax.hist(values, bins=bins, color=_style.PALETTE[2], edgecolor="none", gid="hist_difference")
            ax.set_xlabel(f"population difference δ₀ = {_short(a)} − {_short(b)} (metric units)",
                          fontsize=_style.FONT_SIZE - 1)
            handles_extra = [("rope ±" + f"{rope:g}", _style.LIGHT)] if rope > 0 else []
        else:
            shares = data["draws"]
            edges = np.linspace(0.0, 1.0, bins + 1)
            heights = {}
            for column, key, gid in ((0, "a", "hist_a"), (1, "equivalent", "hist_equivalent"), (2, "b", "hist_b")):
                if key == "equivalent" and rope == 0:
                    continue
                counts, _, patches = ax.hist(shares[:, column], bins=edges, histtype="stepfilled", alpha=0.45,
                                             color=_COLOURS[key], edgecolor=_COLOURS[key], linewidth=0.8)
                heights[gid] = float(np.max(counts))
                for patch in patches:
                    patch.set_gid(gid)
            if rope == 0:
                ax.axvline(0.5, color="black", lw=0.6, gid="half_line")
            # a share piled at one value (e.g. "a better" near 0) would flatten the others: clip it, and say so
            peaks = sorted(h for h in heights.values() if h > 0)
            if len(peaks) >= 2 and peaks[-1] > 3.0 * peaks[-2]:
                top = 1.3 * peaks[-2]
                ax.set_ylim(0.0, top)
                ax.text(0.99, 0.98, "a spike is clipped", transform=ax.transAxes, ha="right", va="top",
                        fontsize=_style.FONT_SIZE - 2, color=_style.NEUTRAL, gid="clipped_note")
            ax.set_xlim(0.0, 1.0)
            ax.set_xlabel("share of datasets in the region (posterior draws)", fontsize=_style.FONT_SIZE - 1)
            handles_extra = []
        ax.set_yticks([])
        ax.set_ylabel("posterior draws", fontsize=_style.FONT_SIZE - 1)
        for side in ("top", "right", "left"):
            ax.spines[side].set_visible(False)
        from matplotlib.patches import Patch

        entries = [(f"P({_short(a)} better) = {pa:.3f}", _COLOURS["a"])]
        if rope > 0:
            entries.append((f"P(equivalent) = {pe:.3f}", _COLOURS["equivalent"]))
        entries.append((f"P({_short(b)} better) = {pb:.3f}", _COLOURS["b"]))
        handles = [Patch(color=c, alpha=0.45 if data["quantity"] == "shares" else 1.0) for _, c in entries]
        if data["quantity"] == "difference":        # the histogram has one colour: the legend keys name the regions
            handles = [Patch(color=c, alpha=0.0) for _, c in entries]
        handles += [Patch(color=c) for _, c in handles_extra]
        labels = [t for t, _ in entries] + [t for t, _ in handles_extra]
        decision = {"a_better": f"{_short(a)} better", "b_better": f"{_short(b)} better"}.get(data["label"],
                                                                                           data["label"])
        title = f"{data['what']}; decision at {result.threshold:g}: {decision}"
        fig.legend(handles, labels, loc="outside upper center", ncols=1, fontsize=_style.FONT_SIZE - 1,
                   frameon=False, title=_layout.wrap_label(title, 60), title_fontsize=_style.FONT_SIZE - 1,
                   handlelength=1.2)
    return fig, ax


def _short(name: str, limit: int = 28) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"
