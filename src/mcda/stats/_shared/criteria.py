"""The cube of several criteria that the multi-criteria procedures read (SMAA-2, the GSD-front)."""

from __future__ import annotations

import numpy as np
import xarray as xr

from mcda._core.validation import McdaArgumentError
from mcda.data.checks import cube_metric, metric_keys

__all__ = ["criteria_cube"]


def criteria_cube(scores, metrics, *, function: str, reason: str, instead: str, seeds: bool) -> xr.DataArray:
    """``scores`` as a cube with a ``metric`` dim (a cube of one metric gains it), ``metrics`` selected.

    Refuses a lazy cube (``function`` cannot run chunk-wise, for ``reason``; do ``instead``), any
    dim beyond dataset, method, metric (and seed, when ``seeds``), and ``metrics`` that do not
    name each metric once. The dims keep their order; the caller transposes.
    """
    from mcda.data.blocks import require_in_memory
    from mcda.data.cube import as_cube

    require_in_memory(scores, function, reason=reason, instead=instead)
    cube = as_cube(scores)
    if "metric" not in cube.dims:
        label = cube_metric(cube) or "score"
        cube = cube.expand_dims(metric=[label], axis=-1).assign_coords(
            direction=("metric", np.array([str(cube.attrs["direction"])], dtype=object)))
    if "seed" in cube.dims and not seeds:
        raise McdaArgumentError(f"`scores` has a 'seed' dim; {function} compares one result per (dataset, method, "
                                "metric). Reduce the seeds explicitly first, e.g. mcda.reduce_seeds(cube, how='mean')",
                                argument="scores", value="seed")
    extra = [d for d in cube.dims if d not in ("dataset", "method", "metric", "seed")]
    if extra:
        raise McdaArgumentError(f"`scores` has extra dims {extra}; select one value along each first "
                                f"(e.g. cube.sel({extra[0]}=...)).", argument="scores", value=extra)
    if metrics is not None:
        labels = [str(m) for m in cube.coords["metric"].values]
        metrics = [metrics] if isinstance(metrics, str) else list(metrics)
        metrics = metric_keys(metrics, labels, argument="metrics")
        if len(set(metrics)) != len(metrics) or not metrics:
            raise McdaArgumentError(f"`metrics` must name at least one metric, each once; got {metrics!r}",
                                    argument="metrics", value=metrics)
        cube = cube.sel(metric=np.array(metrics, dtype=object))
    return cube
