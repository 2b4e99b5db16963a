"""The design of cross-validation folds laid along a cube's ``seed`` dim.

A cube says its seeds are folds in one of three ways, read here in this order after the
arguments ``runs=`` / ``rho=`` of the calling function:

- ``run`` (and optionally ``fold``) coordinates along ``seed`` (``mcda.datasets.load(
  "benavoli2017_uci54_folds")`` has both): the runs are the distinct ``run`` labels, the
  folds of a run are ordered by ``fold`` (else by their position);
- ``attrs["cv_runs"]``: that many runs of k-fold cross-validation, run after run along
  ``seed`` (k = n_seeds / runs), as ``mcda compare --cv-runs`` records it;
- ``attrs["rho"]``: random train/test splits whose test sets hold the share ρ of the data.

For k-fold cross-validation ρ = 1/k, the test share of each fold (Nadeau & Bengio 2003).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mcda._core.validation import McdaArgumentError, check_positive_int, check_probability

__all__ = ["FoldDesign", "folds_per_run", "fold_design", "declared_folds"]


@dataclass(frozen=True)
class FoldDesign:
    """How the scores along ``seed`` were produced.

    Attributes
    ----------
    runs : int or None
        Repetitions of k-fold cross-validation (None: random train/test splits known by ``rho``).
    n_folds : int or None
        k, the folds per run.
    rho : float
        The test share n_test / n_total of each split (1/k for k-fold cross-validation).
    order : numpy.ndarray
        Positions along ``seed`` run after run, folds in order within a run.
    source : str
        Where the design was read, in words.
    """

    runs: int | None
    n_folds: int | None
    rho: float
    order: np.ndarray
    source: str

    def words(self) -> str:
        """The design in words: "10 runs of 10-fold cross-validation" or "random splits with test share 0.3"."""
        if self.runs is None:
            return f"random train/test splits with test share rho = {self.rho:g}"
        return f"{self.runs} run{'s' if self.runs != 1 else ''} of {self.n_folds}-fold cross-validation"


def folds_per_run(n_scores: int, runs: int, needs: str) -> int:
    """k, the folds per run of ``runs`` repetitions of k-fold cross-validation in ``n_scores`` fold scores."""
    if n_scores % runs:
        raise McdaArgumentError(f"`runs` must divide the number of fold scores ({n_scores}); got {runs}.",
                                argument="runs", value=runs)
    n_folds = n_scores // runs
    if n_folds < 2:
        raise McdaArgumentError(f"`runs` = {runs} leaves {n_folds} fold per run out of {n_scores} scores; {needs}",
                                argument="runs", value=runs)
    return n_folds


def declared_folds(cube) -> str | None:
    """What the cube says of its seeds being folds, in words (None: it says nothing)."""
    coords = [name for name in ("run", "fold") if name in cube.coords and cube.coords[name].dims == ("seed",)]
    if coords:
        return f"the {' and '.join(repr(c) for c in coords)} coordinate{'s' if len(coords) > 1 else ''} along seed"
    for key in ("cv_runs", "rho"):
        if cube.attrs.get(key) is not None:
            return f"attrs[{key!r}] = {cube.attrs[key]!r}"
    return None


def _coordinate_design(cube, n_scores: int, needs: str) -> FoldDesign:
    """The k-fold design of the ``run`` (and ``fold``) coordinates along ``seed``."""
    has_run = "run" in cube.coords and cube.coords["run"].dims == ("seed",)
    fold = cube.coords["fold"].values if "fold" in cube.coords and cube.coords["fold"].dims == ("seed",) else None
    position = np.arange(n_scores)
    if has_run:
        run = cube.coords["run"].values
        labels, run_index = np.unique(run, return_inverse=True)
        counts = np.bincount(run_index)
        if not (counts == counts[0]).all():
            raise McdaArgumentError(f"the cube's 'run' coordinate gives the runs unequal numbers of folds "
                                    f"({dict(zip(labels.tolist(), counts.tolist()))}); k-fold cross-validation "
                                    "has k folds in every run.", argument="scores")
        runs = len(labels)
        within = np.unique(fold, return_inverse=True)[1] if fold is not None else position
        order = np.lexsort((within, run_index))
        source = "the cube's 'run'" + (" and 'fold' coordinates" if fold is not None else " coordinate")
    else:
        n_folds = len(np.unique(fold))
        runs = n_scores // n_folds if n_scores % n_folds == 0 else n_scores
        order = position
        source = "the cube's 'fold' coordinate"
    n_folds = folds_per_run(n_scores, runs, needs)
    return FoldDesign(runs=runs, n_folds=n_folds, rho=1.0 / n_folds, order=order, source=source)


def fold_design(cube, *, runs=None, rho=None, needs: str = "") -> FoldDesign | None:
    """The fold design of ``cube``'s seeds: from ``runs`` or ``rho``, else from what the cube says (None: nothing).

    ``needs`` ends the error raised when ``runs`` leaves fewer than 2 folds per run.
    """
    n_scores = cube.sizes["seed"]
    if runs is not None and rho is not None:
        raise McdaArgumentError(f"give either `runs` or `rho`, not both; got runs={runs!r}, rho={rho!r}.",
                                argument="rho", value=rho)
    position = np.arange(n_scores)
    if runs is not None:
        runs = check_positive_int("runs", runs)
        n_folds = folds_per_run(n_scores, runs, needs)
        return FoldDesign(runs=runs, n_folds=n_folds, rho=1.0 / n_folds, order=position, source="runs=")
    if rho is not None:
        return FoldDesign(runs=None, n_folds=None, rho=check_probability("rho", rho, closed="neither"),
                          order=position, source="rho=")
    if any(name in cube.coords and cube.coords[name].dims == ("seed",) for name in ("run", "fold")):
        return _coordinate_design(cube, n_scores, needs)
    if cube.attrs.get("cv_runs") is not None:
        given = cube.attrs["cv_runs"]
        if isinstance(given, bool) or not isinstance(given, (int, np.integer)) or given < 1:
            raise McdaArgumentError(f"the cube's attrs['cv_runs'] must be a positive integer; got {given!r}.",
                                    argument="scores", value=given)
        n_folds = folds_per_run(n_scores, int(given), needs)
        return FoldDesign(runs=int(given), n_folds=n_folds, rho=1.0 / n_folds, order=position,
                          source="the cube's attrs['cv_runs']")
    if cube.attrs.get("rho") is not None:
        return FoldDesign(runs=None, n_folds=None, rho=check_probability("rho", cube.attrs["rho"], closed="neither"),
                          order=position, source="the cube's attrs['rho']")
    return None
