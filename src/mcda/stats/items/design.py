"""The item cube a statistic over items reads: checked once, its clusters coded, its samples named.

Every public function of the family starts here (:func:`prepare_items`): the scores become one
cube with dims ``dataset × method × item`` (and ``sample`` when each item was answered several
times), in the metric's own units, with the items' clusters as integer codes. Nothing is
loaded: a lazy cube stays lazy and is read block by block by :mod:`mcda.stats.items.sums`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import xarray as xr

from mcda._core.validation import McdaArgumentError, shown
from mcda.data.cards import direction_sign
from mcda.data.checks import cube_card, cube_direction
from mcda.data.cube import as_cube

__all__ = ["ItemDesign", "prepare_items"]


@dataclass(frozen=True)
class ItemDesign:
    """An item cube ready for the sufficient statistics.

    Attributes
    ----------
    cube : xarray.DataArray
        Dims ``dataset``, ``method``, ``item`` (and ``sample``), in the metric's own units; may
        be lazy.
    datasets, methods : list
        The labels.
    items : numpy.ndarray
        The item labels.
    clusters : numpy.ndarray or None
        int64 code of each item's cluster (None: every item is its own cluster).
    cluster_labels : numpy.ndarray or None
        The cluster labels, by code.
    sign : float
        +1 when higher is better, −1 otherwise.
    direction : str
        The metric's direction.
    metric : str or None
        The metric's name.
    outcome : str
        The card's kind of score: "binary", "bounded" or "continuous".
    has_samples : bool
        Whether the cube has a ``sample`` dim (several answers per item).
    """

    cube: xr.DataArray
    datasets: list
    methods: list
    items: np.ndarray
    clusters: np.ndarray | None
    cluster_labels: np.ndarray | None
    sign: float
    direction: str
    metric: str | None
    outcome: str
    has_samples: bool

    @property
    def clustered(self) -> bool:
        """Whether the items carry clusters."""
        return self.clusters is not None

    @property
    def n_clusters(self) -> int:
        """Clusters in the cube (the items when they carry none)."""
        return len(self.cluster_labels) if self.clustered else len(self.items)


def prepare_items(scores, direction=None, *, metric=None, method_names=None,
                  what: str = "this statistic over items") -> ItemDesign:
    """The one reading of ``scores`` for a statistic over items (see :func:`mcda.data.cube.as_cube`).

    Refuses scores without an ``item`` dim, and dims other than ``sample`` beside it (seeds,
    epochs, splits and several metrics are chosen or reduced first).
    """
    cube = as_cube(scores, direction, metric=metric, method_names=method_names)
    if "metric" in cube.dims and cube.sizes["metric"] == 1:
        cube = as_cube(cube, metric=str(cube.coords["metric"].values[0]))
    if "item" not in cube.dims:
        raise McdaArgumentError(f"{what} needs per-item scores: a cube with an 'item' dim (a tidy table with an item, "
                                f"question, example, prompt or id column); these scores have dims {shown(cube.dims)}",
                                argument="scores")
    extra = [d for d in cube.dims if d not in ("dataset", "method", "item", "sample")]
    if extra:
        raise McdaArgumentError(f"the scores have extra dims {shown(extra)}; {what} reads one score per (dataset, "
                                "method, item[, sample]): select one value along each first (e.g. "
                                "mcda.select(cube, metric='exact_match')).", argument="scores")
    order = [d for d in ("dataset", "method", "item", "sample") if d in cube.dims]
    cube = cube.transpose(*order)
    clusters = labels = None
    if "cluster" in cube.coords:
        codes, labels = pd.factorize(pd.Series(cube.coords["cluster"].values, dtype=object), sort=False)
        clusters, labels = codes.astype(np.int64), np.asarray(labels, dtype=object)
    card = cube_card(cube)
    outcome = getattr(card, "outcome", None) or "continuous"
    return ItemDesign(cube=cube, datasets=[str(d) for d in cube.coords["dataset"].values],
                      methods=[str(m) for m in cube.coords["method"].values],
                      items=np.asarray(cube.coords["item"].values), clusters=clusters, cluster_labels=labels,
                      sign=float(direction_sign(cube_direction(cube))), direction=cube_direction(cube), metric=cube.attrs.get("metric"),
                      outcome=outcome, has_samples="sample" in cube.dims)
