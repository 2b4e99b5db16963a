"""Figures for papers: the public namespace ``mcda.plots`` (drawn by :mod:`mcda.present.plots`).

``from mcda.plots import plot_critical_difference`` loads matplotlib and that figure's module on
first use; the table of figures is :mod:`mcda.present.plots`' own.
"""

from mcda.present import plots as _plots
from mcda.present.plots import WIDTHS, savefig, style

__all__ = list(_plots.__all__)
__doc__ = _plots.__doc__


def __getattr__(name: str):
    return getattr(_plots, name)


def __dir__():
    return dir(_plots)
