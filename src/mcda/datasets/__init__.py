"""Small bundled example data (with provenance) and a generator of synthetic benchmarks.

Examples
--------
>>> from mcda import datasets
>>> cube = datasets.load("demsar2006")
>>> cube.sizes["dataset"], cube.sizes["method"]
(14, 4)
>>> datasets.available()[:3]
['benavoli2017_uci54', 'benavoli2017_uci54_folds', 'demsar2006']

The provenance of every file is ``PROVENANCE.md`` beside the data
(``mcda/datasets/data/PROVENANCE.md``).
"""

from __future__ import annotations

from importlib import resources

import numpy as np
import pandas as pd
import xarray as xr

from mcda._core.validation import McdaArgumentError
from mcda._core.validation import as_rng, check_nonnegative_float, check_positive_int, check_probability
from mcda.data.cube import score_cube

__all__ = ["load", "available", "describe", "synthetic", "synthetic_criteria"]

_DATA = {
    "demsar2006": ("demsar2006_table6_auc.csv",
                   "Demšar (2006) Table 6: AUC of 4 C4.5 variants on 14 datasets; the printed ranks are the "
                   "coordinate `published_rank` (the voting tie was broken in the paper by unrounded values)."),
    "demsar2006_published_ranks": ("demsar2006_table6_auc.csv",
                                   "Demšar (2006) Table 6's printed ranks as scores (lower is better): the input "
                                   "that reproduces chi2_F = 9.28 and F_F = 3.69."),
    "duo2018": ("duo2018_ari_expr10_truek.csv",
                "Duò, Robinson & Soneson (2018): median ARI at the true k, 12 datasets × 14 clustering methods, "
                "5 cells missing (NaN kept)."),
    "duo2018_all": ("duo2018_all_metrics_expr10_truek.csv",
                    "Duò et al. (2018): ARI, elapsed (s), s.norm.vs.true and nclust.vs.true, 12 datasets × 14 "
                    "methods (a `metric` dim)."),
    "garcia_herrera2008": ("garcia_herrera2008_table2_accuracy.csv",
                           "García & Herrera (2008) Table 2: accuracy of 5 classifiers on 30 datasets."),
    "benavoli2017_uci54": ("benavoli2017_uci54_mean.csv",
                           "Benavoli et al. (2017): mean accuracy over 10×10-fold CV of 5 classifiers on 54 UCI "
                           "datasets (fractions)."),
    "benavoli2017_uci54_folds": ("benavoli2017_uci54_folds.csv.gz",
                                 "Benavoli et al. (2017): accuracy (fraction) of 5 classifiers on 54 UCI datasets in "
                                 "every fold of 10 runs of 10-fold cross-validation; `seed` = 10·(run − 1) + "
                                 "(fold − 1) with coordinates `run` and `fold`, the design in attrs `cv_runs`, "
                                 "`cv_folds` (the input of mcda.hierarchical_comparison)."),
}


def available() -> list[str]:
    """Names accepted by :func:`load`."""
    return sorted(_DATA)


def describe(name: str) -> str:
    """One paragraph on a bundled dataset."""
    _check_name(name)
    return _DATA[name][1]


def _check_name(name):
    if name not in _DATA:
        from mcda._core.validation import nearest

        close = nearest(str(name), list(_DATA))
        hint = f" Did you mean {close[0]!r}?" if close else ""
        raise McdaArgumentError(f"`name` must be one of {sorted(_DATA)}; got {name!r}.{hint}",
                                argument="name", value=name, allowed=sorted(_DATA))


def _read(filename: str) -> pd.DataFrame:
    if filename.endswith(".gz"):
        with resources.files(__name__).joinpath("data", filename).open("rb") as fh:
            return pd.read_csv(fh, compression="gzip")
    with resources.files(__name__).joinpath("data", filename).open("r", encoding="utf-8") as fh:
        return pd.read_csv(fh)


def load(name: str) -> xr.DataArray:
    """Load a bundled example as a score cube.

    Parameters
    ----------
    name : str
        One of :func:`available`: ``"demsar2006"``, ``"demsar2006_published_ranks"``,
        ``"duo2018"``, ``"duo2018_all"``, ``"garcia_herrera2008"``, ``"benavoli2017_uci54"``,
        ``"benavoli2017_uci54_folds"`` (the per-fold scores: a ``seed`` dim of 100 folds with
        coordinates ``run`` and ``fold`` and the design in ``attrs["cv_runs"]``,
        ``attrs["cv_folds"]``).

    Returns
    -------
    xarray.DataArray
        The cube, with its metric card; ``attrs["source"]`` describes it.
    """
    _check_name(name)
    filename, text = _DATA[name]
    frame = _read(filename)
    if name == "demsar2006":
        cube = score_cube(frame[["dataset", "method", "score"]], metric="auroc")
        ranks = frame.pivot(index="dataset", columns="method", values="published_rank")
        ranks = ranks.loc[list(cube.coords["dataset"].values), list(cube.coords["method"].values)]
        cube = cube.assign_coords(published_rank=(("dataset", "method"), ranks.to_numpy(dtype=float)))
    elif name == "demsar2006_published_ranks":
        cube = score_cube(frame[["dataset", "method", "published_rank"]].rename(columns={"published_rank": "score"}),
                          direction="lower_is_better")
    elif name == "duo2018":
        cube = score_cube(frame, metric="ari")
    elif name == "duo2018_all":
        cube = score_cube(frame)
    elif name == "garcia_herrera2008":
        cube = score_cube(frame, metric="accuracy")
    elif name == "benavoli2017_uci54_folds":
        tidy = frame.assign(seed=10 * (frame["run"] - 1) + (frame["fold"] - 1))
        cube = score_cube(tidy[["dataset", "method", "seed", "score"]], metric="accuracy")
        seeds = cube.coords["seed"].values.astype(int)
        cube = cube.assign_coords(run=("seed", seeds // 10 + 1), fold=("seed", seeds % 10 + 1))
        cube.attrs["cv_runs"] = 10
        cube.attrs["cv_folds"] = 10
    else:  # benavoli2017_uci54
        cube = score_cube(frame[["dataset", "method", "score"]], metric="accuracy")
    cube.attrs["source"] = text
    return cube


def synthetic(*, n_datasets: int = 10, n_methods: int = 5, n_seeds: int = 5, effects=None,
              dataset_sd: float = 0.05, noise_sd: float = 0.01, base: float = 0.75,
              missing: float = 0.0, metric: str = "accuracy", rng=None) -> xr.DataArray:
    """A synthetic benchmark with known true differences between methods.

    Model: ``score[d, m, s] = base + dataset_effect[d] + effects[m] + noise[d, m, s]`` with
    ``dataset_effect ~ N(0, dataset_sd²)`` and ``noise ~ N(0, noise_sd²)``; a share
    ``missing`` of (dataset, method) cells is set to NaN (whole cells, at random). Scores are kept
    inside the card's range (clipped to it: accuracy never exceeds 1).

    Parameters
    ----------
    n_datasets, n_methods, n_seeds : int
        The design. ``n_seeds=0`` gives a cube without a seed dim (one score per cell).
    effects : sequence of float, optional
        The true effect of each method in the metric's units (oriented: larger is better for a
        higher-is-better metric). Default: ``0, 0.01, 0.02, …``.
    dataset_sd, noise_sd : float
        Between-dataset and within-cell (seed) standard deviations.
    base : float
        The grand mean.
    missing : float
        Share of (dataset, method) cells removed, in [0, 1).
    metric : str
        The card of the scores (its direction decides the sign of ``effects``).
    rng : Generator or seed

    Returns
    -------
    xarray.DataArray
        The cube; the coordinate ``true_effect`` along ``method`` holds ``effects``.

    Examples
    --------
    >>> from mcda.datasets import synthetic
    >>> cube = synthetic(n_datasets=4, n_methods=3, n_seeds=2, rng=0)
    >>> dict(cube.sizes)
    {'dataset': 4, 'method': 3, 'seed': 2}
    """
    n_datasets = check_positive_int("n_datasets", n_datasets)
    n_methods = check_positive_int("n_methods", n_methods, minimum=2)
    n_seeds = check_positive_int("n_seeds", n_seeds, minimum=0)
    dataset_sd = check_nonnegative_float("dataset_sd", dataset_sd)
    noise_sd = check_nonnegative_float("noise_sd", noise_sd)
    missing = check_probability("missing", missing, closed="left")
    gen = as_rng(rng)
    if effects is None:
        effects = np.arange(n_methods) * 0.01
    effects = np.asarray(effects, dtype=float)
    if effects.shape != (n_methods,):
        raise McdaArgumentError(f"`effects` must have one value per method ({n_methods}); got shape {effects.shape}",
                                argument="effects")
    from mcda.data.cards import get_card

    sign = get_card(metric).sign
    ds_effect = gen.normal(0.0, dataset_sd, size=(n_datasets, 1))
    shape = (n_datasets, n_methods) + ((n_seeds,) if n_seeds else ())
    noise = gen.normal(0.0, noise_sd, size=shape)
    mean = base + ds_effect + sign * effects[None, :]
    values = (mean[..., None] if n_seeds else mean) + noise
    card = get_card(metric)
    # the model is normal, a real score is not: keep every simulated score inside the card's range
    # (score_cube refuses scores outside it), as an accuracy of a perfect run is 1, never 1.03
    values = np.clip(values, -np.inf if card.lower is None else card.lower, np.inf if card.upper is None else card.upper)
    if missing > 0:
        drop = gen.random((n_datasets, n_methods)) < missing
        values[drop] = np.nan
    cube = score_cube(values, metric=metric,
                      method_names=[f"method_{j}" for j in range(n_methods)],
                      dataset_names=[f"dataset_{i}" for i in range(n_datasets)])
    cube = cube.assign_coords(true_effect=("method", effects))
    cube.attrs["source"] = "mcda.datasets.synthetic"
    return cube


def synthetic_criteria(*, n_datasets: int = 30, n_methods: int = 10, rng=None) -> xr.DataArray:
    """A synthetic benchmark on three criteria that pull against each other: accuracy, runtime, memory.

    Method j has a size s_j = j / (n_methods − 1) in [0, 1]: larger methods are more accurate
    and cost more. Per dataset d (a difficulty a_d ~ N(0, 0.05²) and a size factor
    g_d ~ LogNormal(0, 0.5)):

    - ``accuracy`` = 0.72 + 0.08 s_j + a_d + e, e ~ N(0, 0.015²), clipped to [0, 1];
    - ``runtime`` (seconds) = g_d · 2 · exp(2.5 s_j + u_j) · LogNormal(0, 0.15), u_j ~ N(0, 0.4²)
      a method's own efficiency;
    - ``memory_mb`` (MB) = 200 · (1 + 3 s_j + v_j) · LogNormal(0, 0.05), v_j ~ |N(0, 0.5²)|.

    So no method wins every criterion: the small methods are fast and frugal, the large ones
    accurate, and a few are inefficient for their size. One score per (dataset, method, metric).

    Parameters
    ----------
    n_datasets, n_methods : int
    rng : Generator or seed

    Returns
    -------
    xarray.DataArray
        dims ``dataset × method × metric``, the metrics named by their cards: ``accuracy``,
        ``runtime`` and ``memory_mb``.

    Examples
    --------
    >>> from mcda.datasets import synthetic_criteria
    >>> cube = synthetic_criteria(rng=0)
    >>> dict(cube.sizes), cube.coords["direction"].values.tolist()
    ({'dataset': 30, 'method': 10, 'metric': 3}, ['higher_is_better', 'lower_is_better', 'lower_is_better'])
    """
    n_datasets = check_positive_int("n_datasets", n_datasets)
    n_methods = check_positive_int("n_methods", n_methods, minimum=2)
    gen = as_rng(rng)
    size = np.linspace(0.0, 1.0, n_methods)
    difficulty = gen.normal(0.0, 0.05, size=(n_datasets, 1))
    scale = gen.lognormal(0.0, 0.5, size=(n_datasets, 1))
    efficiency = gen.normal(0.0, 0.4, size=n_methods)
    footprint = np.abs(gen.normal(0.0, 0.5, size=n_methods))
    accuracy = np.clip(0.72 + 0.08 * size + difficulty + gen.normal(0.0, 0.015, size=(n_datasets, n_methods)), 0, 1)
    runtime = scale * 2.0 * np.exp(2.5 * size + efficiency) * gen.lognormal(0.0, 0.15, size=(n_datasets, n_methods))
    memory = 200.0 * (1.0 + 3.0 * size + footprint) * gen.lognormal(0.0, 0.05, size=(n_datasets, n_methods))
    methods = [f"method_{j}" for j in range(n_methods)]
    datasets = [f"dataset_{i:02d}" for i in range(n_datasets)]
    frame = pd.DataFrame({
        "dataset": np.repeat(datasets, n_methods * 3), "method": np.tile(np.repeat(methods, 3), n_datasets),
        "metric": np.tile(["accuracy", "runtime", "memory_mb"], n_datasets * n_methods),
        "score": np.stack([accuracy, runtime, memory], axis=-1).ravel()})
    cube = score_cube(frame)
    cube.attrs["source"] = "mcda.datasets.synthetic_criteria"
    return cube
