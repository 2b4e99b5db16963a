"""One look for every mcda figure.

Every ``plot_*`` function draws inside :func:`style`, a context manager around
:func:`matplotlib.rc_context`: the settings apply while the figure is drawn and are restored
afterwards, so mcda never changes a user's global ``rcParams``.

What the style fixes, and why
-----------------------------
* **Colours**: the Okabe–Ito palette (Okabe & Ito 2008), distinguishable under the common
  colour-vision deficiencies and in greyscale print by lightness. :data:`PALETTE` gives the
  categorical order; :data:`SEQUENTIAL_CMAP` and :data:`DIVERGING_CMAP` are perceptually ordered,
  colour-blind-safe maps for heat maps.
* **Sizes**: :data:`WIDTHS` holds a paper column (3.35 in = 85 mm) and a full page width
  (7.0 in = 178 mm), the usual two-column journal and conference widths; fonts are 8 pt so that
  text in the figure matches a 9–10 pt body once placed at 100 %.
* **Vector output**: TrueType fonts embedded in PDF/PS (``fonttype 42``, editable and accepted by
  publishers that reject Type 3 fonts), SVG text kept as text, 300 dpi for rasters.

Because ``pdf.fonttype`` is read when a figure is *saved*, save with :func:`savefig` (or inside
``with style():``) to get the vector settings.

Examples
--------
>>> import matplotlib
>>> from mcda.present.plots._style import style, new_figure, WIDTHS
>>> before = matplotlib.rcParams["font.size"]
>>> with style():
...     fig, ax = new_figure(width="column")
>>> bool(round(fig.get_figwidth(), 2) == WIDTHS["column"])
True
>>> matplotlib.rcParams["font.size"] == before
True
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Iterator, Sequence

from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError
from mcda._core.validation import check_choice

__all__ = [
    "OKABE_ITO",
    "PALETTE",
    "NEUTRAL",
    "LIGHT",
    "HIGHLIGHT",
    "SEQUENTIAL_CMAP",
    "DIVERGING_CMAP",
    "WIDTHS",
    "FONT_SIZE",
    "RC",
    "style",
    "styled",
    "figure_size",
    "new_figure",
    "get_figure",
    "colors_for",
    "text_color_on",
    "savefig",
    "save_formats",
]

#: The eight Okabe–Ito colours by name (Okabe & Ito 2008, "Color Universal Design").
OKABE_ITO: dict[str, str] = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky_blue": "#56B4E9",
    "bluish_green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish_purple": "#CC79A7",
}

#: Categorical order used for methods: strong, well separated hues first; yellow (weak on white)
#: and black (reserved for annotations) last.
PALETTE: tuple[str, ...] = (
    OKABE_ITO["blue"],
    OKABE_ITO["orange"],
    OKABE_ITO["bluish_green"],
    OKABE_ITO["vermillion"],
    OKABE_ITO["reddish_purple"],
    OKABE_ITO["sky_blue"],
    OKABE_ITO["yellow"],
    OKABE_ITO["black"],
)

#: Annotation grey (axes, CD bars, non-highlighted text).
NEUTRAL: str = "#4D4D4D"
#: Light grey for bands and backgrounds (ROPE band, shading of rows).
LIGHT: str = "#E6E6E6"
#: The one colour that means "look here" (highlighted methods, circular triads).
HIGHLIGHT: str = OKABE_ITO["vermillion"]

#: Sequential map for probabilities and counts (ColorBrewer Blues: one hue, light = 0, so sparse
#: matrices stay light; ordered by lightness, colour-blind safe and greyscale safe).
SEQUENTIAL_CMAP: str = "Blues"
#: Diverging map for signed differences (ColorBrewer PuOr: colour-blind safe).
DIVERGING_CMAP: str = "PuOr"

#: Figure widths in inches: one paper column, and a full page (both columns).
WIDTHS: dict[str, float] = {"column": 3.35, "page": 7.0}

#: Base font size in points.
FONT_SIZE: float = 8.0

#: The rcParams applied by :func:`style` (only these keys; everything else is the user's).
RC: dict[str, object] = {
    "font.size": FONT_SIZE,
    "axes.titlesize": FONT_SIZE + 1,
    "axes.labelsize": FONT_SIZE,
    "xtick.labelsize": FONT_SIZE - 1,
    "ytick.labelsize": FONT_SIZE - 1,
    "legend.fontsize": FONT_SIZE - 1,
    "figure.titlesize": FONT_SIZE + 1,
    "axes.linewidth": 0.6,
    "axes.edgecolor": NEUTRAL,
    "axes.labelcolor": "black",
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.titlelocation": "left",
    "axes.titleweight": "normal",
    "xtick.major.width": 0.6,
    "ytick.major.width": 0.6,
    "xtick.major.size": 3.0,
    "ytick.major.size": 3.0,
    "xtick.color": NEUTRAL,
    "ytick.color": NEUTRAL,
    "lines.linewidth": 1.2,
    "lines.markersize": 4.0,
    "patch.linewidth": 0.6,
    "legend.frameon": False,
    "grid.linewidth": 0.4,
    "grid.color": LIGHT,
    "image.cmap": SEQUENTIAL_CMAP,
    "figure.dpi": 100,
    "figure.facecolor": "white",
    "savefig.dpi": 300,
    "savefig.bbox": "tight",
    "savefig.pad_inches": 0.02,
    "savefig.facecolor": "white",
    "pdf.fonttype": 42,
    "ps.fonttype": 42,
    "svg.fonttype": "none",
}


def _cycler():
    from cycler import cycler

    return cycler(color=list(PALETTE))


@contextlib.contextmanager
def style(**overrides) -> Iterator[None]:
    """Apply mcda's figure style inside a ``with`` block, then restore the user's settings.

    Parameters
    ----------
    **overrides
        rcParams that take precedence over :data:`RC` inside the block (keys have dots, so pass
        them as ``**{"font.size": 9}``).

    Examples
    --------
    >>> import matplotlib
    >>> from mcda.present.plots._style import style
    >>> with style(**{"font.size": 10}):
    ...     matplotlib.rcParams["font.size"]
    10.0
    """
    import matplotlib

    rc = dict(RC)
    rc["axes.prop_cycle"] = _cycler()
    rc.update(overrides)
    with matplotlib.rc_context(rc):
        try:
            yield
        finally:
            # a backend resolved inside the block (Jupyter's inline backend turns interactive
            # mode on when the first figure is made) must outlive it: only the look is scoped
            interactive = matplotlib.rcParams["interactive"]
    matplotlib.interactive(interactive)


def styled(func):
    """Decorator: run a plotting function inside :func:`style`."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with style():
            return func(*args, **kwargs)

    return wrapper


def figure_size(width="column", *, aspect: float = 0.62, height: float | None = None) -> tuple[float, float]:
    """Figure size in inches for a paper: ``width`` is ``"column"``, ``"page"`` or inches.

    The height is ``height`` if given, else ``aspect * width`` (0.62 ≈ the golden ratio).

    Examples
    --------
    >>> from mcda.present.plots._style import figure_size
    >>> figure_size("page", height=2.0)
    (7.0, 2.0)
    """
    if isinstance(width, str):
        width = WIDTHS[check_choice("width", width, tuple(WIDTHS))]
    elif not isinstance(width, (int, float)) or isinstance(width, bool) or not width > 0:
        raise McdaArgumentError(f"`width` must be one of {{'column', 'page'}} or a positive number of inches; "
                         f"got {width!r}.", argument="width", value=width)
    width = float(width)
    return (width, float(height) if height is not None else aspect * width)


def new_figure(width="column", *, aspect: float = 0.62, height: float | None = None, nrows: int = 1,
               ncols: int = 1, squeeze: bool = True, **subplot_kw):
    """A new figure of paper size with ``nrows x ncols`` axes: returns ``(fig, ax)``.

    ``ax`` is one Axes when ``nrows == ncols == 1`` (unless ``squeeze=False``), else the array
    ``plt.subplots`` returns; other keywords go to :meth:`matplotlib.figure.Figure.subplots`.
    The figure is made through pyplot (so notebooks show it inline) with the constrained layout
    engine (so labels are not clipped). Call inside :func:`style`.
    """
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=figure_size(width, aspect=aspect, height=height), layout="constrained")
    ax = fig.subplots(nrows, ncols, squeeze=squeeze, **subplot_kw)
    return fig, ax


def get_figure(ax, width="column", *, aspect: float = 0.62, height: float | None = None):
    """Return ``(fig, ax)``: the given axes and its figure, or a new paper-size figure if ``ax`` is None."""
    if ax is None:
        return new_figure(width, aspect=aspect, height=height)
    from matplotlib.axes import Axes

    if not isinstance(ax, Axes):
        raise McdaArgumentTypeError(f"`ax` must be a matplotlib Axes or None; got {type(ax).__name__}.", argument="ax")
    return ax.figure, ax


def colors_for(labels: Sequence) -> dict:
    """Map each label to a palette colour, in order, cycling after eight.

    Examples
    --------
    >>> from mcda.present.plots._style import colors_for, PALETTE
    >>> colors_for(["a", "b"])["b"] == PALETTE[1]
    True
    """
    return {label: PALETTE[i % len(PALETTE)] for i, label in enumerate(labels)}


def text_color_on(rgba) -> str:
    """Black or white, whichever reads better on a background colour (relative luminance, WCAG 2).

    Examples
    --------
    >>> from mcda.present.plots._style import text_color_on
    >>> text_color_on((0.0, 0.0, 0.2, 1.0)), text_color_on("#FFFFFF")
    ('white', 'black')
    """
    from matplotlib.colors import to_rgb

    def linear(c):
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in to_rgb(rgba))
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    # contrast with white (1.05 / (L + 0.05)) vs with black ((L + 0.05) / 0.05)
    return "white" if 1.05 / (luminance + 0.05) > (luminance + 0.05) / 0.05 else "black"


_LAYOUT_TABLES = ("GSUB", "GPOS", "GDEF")
_SUBSET_LOCK = threading.RLock()


@contextlib.contextmanager
def _lean_font_subsets() -> Iterator[None]:
    """Embed TrueType (Type 42) fonts in PDFs faster: one lean subset per font, reused.

    matplotlib subsets each embedded font with fontTools for every PDF (parsing the whole font,
    about 0.3 s per font and file), and most of a subset's time goes into closing the
    GSUB/GPOS/GDEF tables over the glyphs used. A PDF shows glyphs by number (matplotlib has
    already chosen and placed them), so those tables are dropped; and the subset (the glyphs
    asked for plus :data:`_COMMON_TEXT`) is made once per process and reused by every later
    PDF. Only while mcda saves; when matplotlib's internals differ from what this expects,
    nothing is changed.
    """
    try:
        from matplotlib.backends import _backend_pdf_ps as pdf_ps

        real = pdf_ps.subset
        real.Options  # noqa: B018 - the fontTools.subset module, as expected
    except (ImportError, AttributeError):
        yield
        return

    class _Lean:
        def __getattr__(self, name):
            return getattr(real, name)

        @staticmethod
        def Options(*args, **kwargs):  # noqa: N802 - fontTools' name
            options = real.Options(*args, **kwargs)
            options.drop_tables += [t for t in _LAYOUT_TABLES if t not in options.drop_tables]
            return options

    real_get = getattr(pdf_ps, "get_glyphs_subset", None)

    def get_glyphs_subset(fontfile, glyphs):
        # One subset per font for the whole process: the glyphs asked for plus the ones mcda's
        # figures commonly use, kept open and reused by every later PDF (the same glyph
        # numbering each time: the PDF maps its characters through the subset's own map).
        try:
            ids = frozenset(int(g) for g in glyphs)
        except (TypeError, ValueError):  # a matplotlib that passes characters, not glyph numbers
            return real_get(fontfile, glyphs)
        key = (str(fontfile), getattr(fontfile, "face_index", 0))
        wanted = ids | _common_glyphs(*key)
        hit = _SUBSETS.get(key + (wanted,))
        if hit is None:
            manager = real_get(fontfile, set(wanted))
            hit = manager.__enter__() if hasattr(manager, "__enter__") else manager
            _SUBSETS[key + (wanted,)] = hit
        return contextlib.nullcontext(hit)

    with _SUBSET_LOCK:
        pdf_ps.subset = _Lean()
        if real_get is not None:
            pdf_ps.get_glyphs_subset = get_glyphs_subset
        try:
            yield
        finally:
            pdf_ps.subset = real
            if real_get is not None:
                pdf_ps.get_glyphs_subset = real_get


#: Characters mcda's figures use (besides the ones a figure asks for): always in a font's subset,
#: so that most PDFs of a run share one subset.
_COMMON_TEXT = "".join(chr(c) for c in range(32, 127)) + "−±×·…≤≥≈≠αδμσχΔ²³°–—’“”→←✓•√∞"
_COMMON: dict = {}
_SUBSETS: dict = {}


def _common_glyphs(path: str, face: int) -> frozenset:
    """The glyph numbers of :data:`_COMMON_TEXT` in a font (read once per font from its cmap)."""
    if (path, face) not in _COMMON:
        ids: set = set()
        try:
            from fontTools.ttLib import TTFont

            with TTFont(path, fontNumber=face if str(path).lower().endswith((".ttc", ".otc")) else -1,
                        lazy=True) as font:
                cmap = font.getBestCmap() or {}
                ids = {font.getGlyphID(cmap[ord(c)]) for c in _COMMON_TEXT if ord(c) in cmap}
        except Exception:  # an unreadable font: subset exactly what is asked for
            ids = set()
        _COMMON[(path, face)] = frozenset(ids)
    return _COMMON[(path, face)]




def savefig(fig, path, **kwargs) -> None:
    """Save ``fig`` with mcda's vector-friendly settings (embedded TrueType fonts, 300 dpi, tight box).

    Keyword arguments go to :meth:`matplotlib.figure.Figure.savefig`.
    """
    with style(), _lean_font_subsets():
        fig.savefig(path, **kwargs)


#: zlib level of the PNG files save_formats writes: 3 instead of PIL's 6 encodes a 300 dpi figure in
#: about 60% of the time for files about 1% larger (the same pixels; measured on the pairwise panels)
PNG_COMPRESS_LEVEL = 3


def _png_kwargs(path, kwargs: dict) -> dict:
    """``kwargs`` for saving to ``path``: a PNG gets :data:`PNG_COMPRESS_LEVEL` unless the caller chose one."""
    if not str(path).lower().endswith(".png") or "compress_level" in (kwargs.get("pil_kwargs") or {}):
        return kwargs
    return dict(kwargs, pil_kwargs={**(kwargs.get("pil_kwargs") or {}), "compress_level": PNG_COMPRESS_LEVEL})


def save_formats(fig, paths, **kwargs) -> None:
    """Save ``fig`` to each of ``paths`` (e.g. a PNG and a PDF) with :func:`savefig`'s settings, laid out once.

    :func:`savefig` called once per file lays the figure out (constrained layout), measures
    its tight box and draws it, every time. Here the layout and the tight box are made once
    and every file is then only drawn: the same picture in each format, at about half the
    cost for two formats.
    """
    import matplotlib

    paths = list(paths)
    with style(), _lean_font_subsets():
        rc = matplotlib.rcParams
        if "bbox_inches" in kwargs or len(paths) < 2:
            for path in paths:
                fig.savefig(path, **_png_kwargs(path, kwargs))
            return
        engine = fig.get_layout_engine()
        dpi = fig.dpi
        dpi_out = kwargs.get("dpi", rc["savefig.dpi"])
        fig.set_dpi(dpi if dpi_out == "figure" else dpi_out)  # text measured as the raster file will draw it
        try:
            # the layout engine runs here, once, without the dry draw savefig makes first: the
            # engine and the tight box measure every artist themselves
            renderer = fig.canvas.get_renderer()
            if engine is not None and fig.axes:
                engine.execute(fig)
            bbox = None
            if rc["savefig.bbox"] == "tight":
                pad = kwargs.get("pad_inches", rc["savefig.pad_inches"])
                bbox = fig.get_tightbbox(renderer).padded(pad)
        finally:
            fig.set_dpi(dpi)
        # no engine at all (not the "none" placeholder, which savefig would lay out around again)
        with matplotlib.rc_context({"figure.autolayout": False, "figure.constrained_layout.use": False}):
            fig.set_layout_engine(None)
        try:
            for path in paths:
                fig.savefig(path, bbox_inches=bbox, **_png_kwargs(path, kwargs))
        finally:
            if engine is not None:
                fig.set_layout_engine(engine)
