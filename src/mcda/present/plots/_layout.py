"""Layout rules for figures at every size: which layout, how big the text, how many per page.

A paper's figure must read at 4 methods and at 50, in one column (3.35 in) or across the
page (7 in). One drawing cannot serve every size, so each figure asks these pure functions
(no drawing, no matplotlib) which layout to use; the rules are documented here and in each
``plot_*`` docstring, and tested without drawing.

The rules
---------
* **No figure is taller than a page**: :data:`PAGE_HEIGHT` (9 in, a journal page's text block).
  A figure whose rows would not fit is split into pages (``page=`` on the plot) or switches to
  a denser layout.
* **No text smaller than** :data:`MIN_FONT` (4.5 pt; 5–6 pt is the usual floor of journals'
  figure guidelines once the figure is at 100 %). Cell values that would need less are not
  written: the colour scale carries the number and marks carry the decisions.
* **Matrices** (superiority, relation, posterior grid, pairwise panels): the cells share the
  width left after the row labels; a cell value is written when it fits its cell at
  ``MIN_FONT`` or more (:func:`matrix_layout`). Beyond :data:`NUMBERED_LABELS_FROM` methods, or
  when names are long, columns are labelled by number and each row label carries that number
  (``"3 name"``), so the long names are printed once.
* **Relation graph**: a circle of nodes for up to :data:`RELATION_GRAPH_MAX` methods; beyond, a
  relation matrix (:func:`relation_layout`).
* **Row names** (rank stability): the names label the rows while the widest takes at most
  :data:`ROW_NAME_SHARE` of the width; longer names give way to row numbers and a key under
  the figure (:func:`numbered_rows`, :func:`name_key`).
* **Posterior bars**: one bar per pair while every bar fits one page
  (:func:`posterior_layout`); all pairs of more methods become a matrix of P(row better). The
  bars of one method ("my method vs each baseline") or of a list of pairs that do not fit one
  page go to pages of even size (``page=``; :func:`mcda.present.plots.posterior.posterior_bar_pages`).
"""

from __future__ import annotations

import math

import numpy as np

from mcda._core.validation import McdaArgumentError

__all__ = [
    "PageOutOfRange",
    "check_page",
    "PAGE_HEIGHT",
    "MIN_FONT",
    "ROW_FONT",
    "NUMBERED_LABELS_FROM",
    "RELATION_GRAPH_MAX",
    "char_width",
    "label_width",
    "matrix_layout",
    "relation_layout",
    "row_height",
    "rows_per_page",
    "page_slices",
    "posterior_layout",
    "wrap_label",
    "pairwise_grid",
    "name_key",
    "numbered_rows",
]

#: The tallest figure, in inches (a journal page's text block is 9–9.5 in).
PAGE_HEIGHT: float = 9.0
#: The smallest text any figure writes, in points.
MIN_FONT: float = 4.5
#: Tick labels of rows (methods, datasets): 7 pt, down to MIN_FONT when rows are dense.
ROW_FONT: float = 7.0
#: From this many methods a matrix labels its columns by number.
NUMBERED_LABELS_FROM: int = 13
#: Longest method name (characters) a matrix still prints on its column axis.
LONG_NAME: int = 14
#: The relation is drawn as a graph up to this many methods, as a matrix beyond.
RELATION_GRAPH_MAX: int = 7
#: Widest share of a figure's width the row names of a panel figure may take.
ROW_NAME_SHARE: float = 0.35
#: Average glyph width of the figure font (DejaVu Sans) per point of font size.
_CHAR_EM: float = 0.60
#: Text height (ascent + descent, as the renderer measures it) per point of font size.
_LINE_EM: float = 1.25


def char_width(size: float) -> float:
    """The average width of one character at ``size`` points (DejaVu Sans), in points."""
    return _CHAR_EM * size


def label_width(labels, size: float) -> float:
    """An upper estimate of the widest label at ``size`` points, in points."""
    return max((len(str(s)) for s in labels), default=0) * char_width(size)


def word_parts(word: str) -> list[str]:
    """``word`` split where its case or its kind of character changes: ``LongMethodName`` →
    ``Long``, ``Method``, ``Name``; ``variant42`` → ``variant``, ``42``."""
    parts, start = [], 0
    for i in range(1, len(word)):
        before, ch = word[i - 1], word[i]
        if (before.islower() and ch.isupper()) or (before.isalpha() != ch.isalpha() and before.isalnum()
                                                     and ch.isalnum()):
            parts.append(word[start:i])
            start = i
    parts.append(word[start:])
    return parts


def label_tokens(text: str, max_chars: int) -> list[str]:
    """The pieces :func:`wrap_label` may put on separate lines: words ending at ``_``, ``-`` or
    space, a word longer than ``max_chars`` split where its case or kind of character changes,
    and only a piece still longer than that cut."""
    tokens, token = [], ""
    for ch in str(text):
        token += ch
        if ch in "_- ":
            tokens.append(token)
            token = ""
    if token:
        tokens.append(token)
    pieces = []
    for tok in tokens:
        for part in (word_parts(tok) if len(tok) > max_chars else [tok]):
            while len(part) > max_chars:             # still longer than a line: cut it
                pieces.append(part[:max_chars])
                part = part[max_chars:]
            pieces.append(part)
    return pieces


def wraps_whole(text: str, max_chars: int) -> bool:
    """Whether :func:`wrap_label` breaks ``text`` only between words or parts of words (never cuts one)."""
    return all(len(part) <= max_chars for tok in label_tokens(text, 10 ** 9) for part in word_parts(tok))


def wrap_label(text: str, max_chars: int) -> str:
    """``text`` broken into lines of at most ``max_chars`` characters.

    Lines break after ``_``, ``-`` or a space; a word longer than a line breaks where its case
    or kind of character changes (``LongMethod`` / ``Name``); only a part still longer than a
    line is cut.

    Examples
    --------
    >>> wrap_label("gradient_boosting_with_early_stopping", 16)
    'gradient_\\nboosting_with_\\nearly_stopping'
    >>> wrap_label("LongMethodName_variant_41", 10)
    'LongMethod\\nName_\\nvariant_41'
    >>> wrap_label("svm", 16)
    'svm'
    """
    max_chars = max(int(max_chars), 4)
    lines, line = [], ""
    for tok in label_tokens(text, max_chars):
        if len(line) + len(tok) > max_chars and line:
            lines.append(line.rstrip(" "))
            line = ""
        line += tok
    if line:
        lines.append(line.rstrip(" "))
    return "\n".join(lines)


def matrix_layout(k: int, labels, *, width: float, cell_text: str = "0.00*", max_height: float = PAGE_HEIGHT,
                  extra_width: float = 0.9) -> dict:
    """How a k × k matrix of method pairs is laid out at a figure ``width`` (inches).

    The rule: names on both axes while there are fewer than :data:`NUMBERED_LABELS_FROM`
    methods and no name is longer than :data:`LONG_NAME` characters; else columns by number
    and rows ``"name i"``; and when even those row labels would take more than 40 % of the
    width, rows by number too, with a key (number → name) under the matrix. The cells share
    what is left, at most a page's height (a key too long to share a page with 40 % of it, at
    its smallest font, makes the figure taller instead); tick labels shrink to the row spacing (not below
    :data:`MIN_FONT`; below that only every ``tick_step``-th row is labelled); a cell value is
    written when ``cell_text`` fits its cell at ``MIN_FONT + 0.5`` pt or more.

    Parameters
    ----------
    k : int
        Methods (rows = columns).
    labels : sequence of str
        The method names.
    width : float
        Figure width in inches.
    cell_text : str
        The widest text a cell would hold (e.g. ``"0.00*"``).
    max_height : float
        The tallest figure allowed.
    extra_width : float
        Inches taken by the colour bar and margins.

    Returns
    -------
    dict
        ``numbered``, ``key`` (a number → name key under the matrix), ``row_labels``,
        ``col_labels``, ``key_labels``, ``key_cols``, ``tick_font``, ``tick_step``, ``cell`` (a
        cell's side in pt), ``annotate``, ``cell_font`` (pt), ``height`` (inches).

    Examples
    --------
    >>> small = matrix_layout(4, ["a", "b", "c", "d"], width=3.35)
    >>> small["annotate"], small["numbered"], small["key"]
    (True, False, False)
    >>> big = matrix_layout(50, [f"method_{i}" for i in range(50)], width=7.0)
    >>> big["annotate"], big["numbered"], big["height"] <= PAGE_HEIGHT
    (False, True, True)
    """
    names = [str(s) for s in labels]
    full = width * 72.0
    longest = max((len(s) for s in names), default=1)
    numbered = k >= NUMBERED_LABELS_FROM or longest > LONG_NAME
    digits = len(str(k))
    key = False
    key_labels = [f"{i + 1:>{digits}} {s}" for i, s in enumerate(names)]
    if not numbered:
        row_labels = col_labels = names
    else:
        col_labels = [str(i + 1) for i in range(k)]
        row_labels = [f"{s} {i + 1:>{digits}}" for i, s in enumerate(names)]
        if label_width(row_labels, ROW_FONT) > 0.4 * full:
            row_labels, key = list(col_labels), True
    key_font = ROW_FONT - 1.0
    key_cols = max(1, int(full // (label_width(key_labels, key_font) + 14.0))) if key else 0
    key_height = (math.ceil(k / key_cols) * _LINE_EM * key_font + 8.0) if key else 0.0
    while key and key_height > 0.5 * max_height * 72.0 and key_font > MIN_FONT:   # a key of 200 names
        key_font = max(key_font - 0.5, MIN_FONT)
        key_cols = max(1, int(full // (label_width(key_labels, key_font) + 14.0)))
        key_height = math.ceil(k / key_cols) * _LINE_EM * key_font + 8.0
    tick_font = ROW_FONT
    for _ in range(5):                     # the tick font follows the row spacing: a fixed point
        room = full - label_width(row_labels, tick_font) - extra_width * 72.0
        top_room = (_LINE_EM * tick_font if numbered else label_width(col_labels, tick_font)) + 22.0
        # the matrix keeps at least 40 % of a page: a key too long to share the page with it makes
        # the figure taller than a page, never lies over the matrix
        cell = max(min(room / k, max((max_height * 72.0 - top_room - key_height - 16.0) / k,
                                     0.4 * max_height * 72.0 / k)), 0.5)
        tick_font = max(min(ROW_FONT, cell / _LINE_EM), MIN_FONT)
    cell_font = min(ROW_FONT - 1.0, 0.85 * cell / max(len(cell_text) * _CHAR_EM, 1e-9), 0.8 * cell / _LINE_EM)
    annotate = cell_font >= MIN_FONT + 0.5
    height = (k * cell + top_room + key_height + 16.0) / 72.0
    height = height if height > max_height and key_height > 0.5 * max_height * 72.0 else min(height, max_height)
    return {"numbered": numbered, "key": key, "row_labels": row_labels, "col_labels": col_labels,
            "key_labels": key_labels, "key_cols": key_cols, "key_font": key_font, "tick_font": tick_font,
            "tick_step": max(1, math.ceil(max(_LINE_EM * tick_font, (digits * _CHAR_EM * tick_font + 2.0) if numbered
                                              else 0.0) / cell)), "cell": cell, "annotate": annotate,
            "cell_font": cell_font if annotate else 0.0, "height": height}


def relation_layout(k: int) -> str:
    """``"graph"`` (nodes on a circle) up to :data:`RELATION_GRAPH_MAX` methods, else ``"matrix"``.

    A circle of k nodes has k(k − 1)/2 edges: 21 at 7 methods still read, 28 at 8 start to
    cross at every node, and 435 at 30 fill the disc.

    >>> relation_layout(6), relation_layout(8)
    ('graph', 'matrix')
    """
    return "graph" if k <= RELATION_GRAPH_MAX else "matrix"


def row_height(n_rows: int, *, preferred: float = 0.19, minimum: float = 0.125, fixed: float = 0.9,
               max_height: float = PAGE_HEIGHT) -> float:
    """Inches per row: ``preferred``, squeezed (down to ``minimum``) so that the rows fit a page.

    >>> row_height(10), round(row_height(49), 3)
    (0.19, 0.165)
    """
    return max(min(preferred, (max_height - fixed) / max(n_rows, 1)), minimum)


def rows_per_page(row: float, *, fixed: float = 0.9, max_height: float = PAGE_HEIGHT) -> int:
    """How many rows of ``row`` inches fit a page besides ``fixed`` inches of legend and axis.

    >>> rows_per_page(0.5, fixed=1.0)
    16
    """
    return max(int((max_height - fixed) // row), 1)


def page_slices(n: int, per_page: int) -> list[slice]:
    """``n`` items cut into pages of at most ``per_page``, the pages as even as possible.

    >>> page_slices(10, 4)
    [slice(0, 3, None), slice(3, 7, None), slice(7, 10, None)]
    """
    pages = max(math.ceil(n / max(per_page, 1)), 1)
    bounds = [round(i * n / pages) for i in range(pages + 1)]
    return [slice(bounds[i], bounds[i + 1]) for i in range(pages)]


def posterior_layout(n_methods: int, n_bars: int, *, all_pairs: bool, fixed: float = 1.0,
                     max_height: float = PAGE_HEIGHT) -> str:
    """``"bars"`` while one bar per pair fits a page at the minimum row height, else ``"grid"``.

    Only all pairs (``pairs=None``) can become the grid; a list of pairs or the pairs of one
    method ("my method vs each baseline": k − 1 bars, 49 at 50 methods) stay bars.

    >>> posterior_layout(8, 28, all_pairs=True), posterior_layout(20, 190, all_pairs=True)
    ('bars', 'grid')
    >>> posterior_layout(50, 49, all_pairs=False)
    'bars'
    """
    fits = n_bars <= rows_per_page(0.125, fixed=fixed, max_height=max_height)
    return "bars" if fits or not all_pairs else "grid"


def pairwise_grid(n_datasets: int, k: int, *, width: float, max_height: float = PAGE_HEIGHT,
                  max_cols: int | None = None, key_height: float = 0.0) -> dict:
    """Small multiples of k × k panels: columns, rows per page and the datasets of each page.

    A panel is at least 0.12 in per method and at least 1.5 in (room for a cell value up to about 8 methods);
    as many columns as fit ``width`` (or ``max_cols``), as many rows as fit the page; more
    datasets go to further pages.

    >>> g = pairwise_grid(20, 8, width=7.0)
    >>> g["cols"], g["rows"], len(g["pages"])
    (4, 4, 2)
    """
    panel = max(1.5, 0.12 * k + 0.45)
    cols = max(1, int((width - 0.9) // panel))
    if max_cols is not None:
        cols = max(1, min(cols, int(max_cols)))
    side = (width - 0.9) / cols
    room = max_height - 0.7 - key_height      # ``key_height``: inches of a method key under the panels
    side = min(side, room - 0.25)
    rows = max(1, int(room // (side + 0.25)))
    per_page = rows * cols
    return {"cols": cols, "rows": rows, "panel": side, "key_height": key_height,
            "pages": page_slices(n_datasets, per_page)}


def numbered_rows(names, *, width: float, font: float = ROW_FONT, share: float = ROW_NAME_SHARE) -> bool:
    """Whether rows are labelled by number (with a :func:`name_key`) rather than by name.

    True when the widest name at ``font`` points would take more than ``share`` of the figure
    ``width`` (inches), so that the panels keep the rest.

    Examples
    --------
    >>> numbered_rows(["svm", "knn"], width=3.35)
    False
    >>> numbered_rows(["gradient_boosted_trees_variant_07_tuned"], width=3.35)
    True
    """
    return label_width(names, font) > share * width * 72.0


def name_key(labels, *, width: float, max_height: float, font: float = ROW_FONT - 1.0) -> dict:
    """A number → name key under a figure: its font, columns and height (inches).

    As many columns as the widest entry allows at ``font``; when the key would be taller than
    ``max_height`` inches, the font shrinks (not below :data:`MIN_FONT`) and the columns grow.

    Examples
    --------
    >>> key = name_key([f"{i + 1} method_{i}" for i in range(50)], width=3.35, max_height=2.0)
    >>> key["cols"], key["height"] <= 2.0, key["font"] >= MIN_FONT
    (4, True, True)
    """
    labels = [str(s) for s in labels]
    size = font
    while True:
        cols = max(1, int(width * 72.0 // (label_width(labels, size) + 1.6 * size)))
        height = (math.ceil(len(labels) / cols) * _LINE_EM * size * 1.1 + 2.2 * size + 6.0) / 72.0
        if height <= max_height or size <= MIN_FONT:
            return {"font": size, "cols": cols, "height": height}
        size = max(size - 0.5, MIN_FONT)


class PageOutOfRange(McdaArgumentError):
    """``page=`` outside a paged figure's pages; ``n_pages`` says how many it has (data, not text)."""

    def __init__(self, message: str, *, argument: str | None, n_pages: int | None = None):
        super().__init__(message, argument=argument)
        self.n_pages = n_pages

    def __reduce__(self):
        return (_rebuild_page_error, (str(self), self.argument, self.n_pages))


def _rebuild_page_error(message, argument, n_pages):
    return PageOutOfRange(message, argument=argument, n_pages=n_pages)


def check_page(page, n_pages: int, what: str) -> None:
    """Refuse a ``page`` that is not an integer from 1 to ``n_pages`` (``what``: the pages, in words)."""
    if isinstance(page, bool) or not isinstance(page, (int, np.integer)) or not 1 <= page <= n_pages:
        raise PageOutOfRange(f"`page` must be an integer from 1 to {n_pages} ({what}); got {page!r}",
                             argument="page", n_pages=n_pages)
