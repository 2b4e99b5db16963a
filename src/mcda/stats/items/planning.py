"""Planning a test set: how many items detect a difference, from a pilot's paired variance and clusters."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from mcda._core.results import states_scale
from mcda._core.validation import McdaArgumentError, check_alpha, check_control, check_probability
from mcda.stats.items.design import prepare_items
from mcda.stats.items.paired import PAIR_TESTS, _pairs, detectable_difference
from mcda.stats.items.sums import item_sums
from mcda.stats.items.tables import ItemTable

__all__ = ["ItemsNeeded", "items_needed", "items_for"]


def items_for(difference, variance_per_item, *, alpha: float, power: float):
    """Items a two-sided z test at ``alpha`` needs to detect ``difference`` with probability ``power``,
    given the variance of one item's paired difference (design effect included): ⌈(z_{1−α/2} + z_power)² σ² / Δ²⌉."""
    z = stats.norm.ppf(1.0 - alpha / 2.0) + stats.norm.ppf(power)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.ceil(z * z * np.asarray(variance_per_item, dtype=np.float64) / float(difference) ** 2)


@dataclass(frozen=True, repr=False)
class ItemsNeeded(ItemTable):
    """Items needed per pair to detect ``difference``, read from a pilot.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per (dataset, pair): ``dataset, method_a, method_b, n_items`` (the pilot's shared
        items), ``n_clusters``, ``mean_diff`` (the pilot's), ``sd_diff`` (standard deviation of an
        item's difference), ``design_effect`` (the variance of the mean difference relative to
        independent items), ``mde`` (the difference detectable with the pilot's items),
        ``n_items_needed`` (items a new test set of the same cluster structure needs), ``reason``.
    difference : float
    alpha, power : float
    clustered : bool
    notes : tuple of str
    """

    table: pd.DataFrame
    difference: float
    alpha: float
    power: float
    clustered: bool
    notes: tuple = ()

    def summary(self) -> str:
        head = (f"Items needed to detect a difference of {self.difference:g} with power {self.power:g} at alpha = "
                f"{self.alpha:g} (two-sided{', clustered as in the pilot' if self.clustered else ''})")
        return self._text(head, ["dataset", "method_a", "method_b", "n_items", "sd_diff", "design_effect", "mde",
                                 "n_items_needed", "reason"])


@states_scale
def items_needed(scores, direction=None, *, difference: float, power: float = 0.8, alpha: float = 0.05,
                 control: str | None = None, metric=None, method_names=None) -> ItemsNeeded:
    """How many items would detect a difference ``difference`` between two models? Read from a pilot.

    Parameters
    ----------
    scores : any input of :func:`mcda.item_means`
        The pilot: per-item scores of the models on a sample of items (clustered as the full
        test set will be).
    direction, metric, method_names
        As in :func:`mcda.data.cube.as_cube`.
    difference : float
        The true difference of mean scores to detect (metric units, > 0).
    power : float
        Probability of detecting it.
    alpha : float
        Two-sided level of the paired test.
    control : str, optional
        Only the pairs with this model.

    Returns
    -------
    ItemsNeeded
        ``table`` (see ``to_frame()``), ``difference``, ``alpha``, ``power``, ``clustered``,
        ``notes``.

    Raises
    ------
    McdaArgumentError
        ``difference`` not a positive number; ``power`` or ``alpha`` outside (0, 1); as
        :func:`mcda.paired_items`.

    Notes
    -----
    Miller (2024, §5): a paired test over n items detects Δ with power 1 − β when
    n = (z_{1−α/2} + z_{1−β})² ω² / Δ², ω² the variance of one item's difference. With clusters
    of the pilot's size ω² is multiplied by the design effect, the ratio of the cluster-robust
    to the independent-items variance of the mean difference; here ω² · design effect is read as
    n_pilot · SE², SE the pilot's (cluster-robust) standard error of the mean difference. The
    new items are assumed to come in clusters like the pilot's. A normal approximation: with few
    clusters the t test needs a few more.

    References
    ----------
    Miller, E. (2024). Adding error bars to evals: a statistical approach to language model
    evaluations. arXiv:2411.00640. doi:10.48550/arXiv.2411.00640

    Examples
    --------
    >>> import pandas as pd, mcda
    >>> rows = [{"dataset": "pilot", "method": m, "item": i, "score": float(s)}
    ...         for m, line in (("a", "1101111011"), ("b", "1000101010")) for i, s in enumerate(line)]
    >>> row = mcda.items_needed(pd.DataFrame(rows), metric="exact_match", difference=0.05).to_frame().iloc[0]
    >>> int(row["n_items_needed"])
    838
    """
    if isinstance(difference, bool) or not isinstance(difference, (int, float)) or not np.isfinite(difference) \
            or difference <= 0:
        raise McdaArgumentError(f"`difference` must be a positive number (the difference to detect, in the metric's "
                                f"units); got {difference!r}", argument="difference", value=difference)
    power = check_probability("power", power)
    alpha = check_alpha(alpha)
    design = prepare_items(scores, direction, metric=metric, method_names=method_names, what="items_needed")
    if control is not None:
        control = check_control(control, design.methods)
    pairs = _pairs(design, item_sums(design, pairs=True), test=PAIR_TESTS[0], adjust=None, alpha=alpha,
                   confidence_level=0.95, power=power, control=control).table
    se = pairs["standard_error_clustered" if design.clustered else "standard_error"].to_numpy()
    n = pairs["n_items"].to_numpy(dtype=np.float64)
    sd = pairs["standard_error"].to_numpy() * np.sqrt(n)
    with np.errstate(invalid="ignore", divide="ignore"):
        design_effect = (se / pairs["standard_error"].to_numpy()) ** 2
    table = pd.DataFrame({
        "dataset": pairs["dataset"], "method_a": pairs["method_a"], "method_b": pairs["method_b"],
        "n_items": pairs["n_items"], "n_clusters": pairs["n_clusters"], "mean_diff": pairs["mean_diff"],
        "sd_diff": sd, "design_effect": design_effect,
        "mde": detectable_difference(se, alpha=alpha, power=power),
        "n_items_needed": items_for(difference, n * se * se, alpha=alpha, power=power),
        "reason": np.where(np.isfinite(se), "", np.where(pairs["reason"] != "", pairs["reason"],
                                                          "no standard error")),
    })
    notes = ("the items needed assume new items clustered as the pilot's",) if design.clustered else ()
    return ItemsNeeded(table=table, difference=float(difference), alpha=alpha, power=power,
                       clustered=design.clustered, notes=notes)
