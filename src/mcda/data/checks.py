"""The metric a score cube speaks in: card and direction resolution, the rope, scale conversion,
the card's range checks, and the one metric selector.

A single-metric cube carries its card in the attrs (``metric``, ``direction``, ``noise_floor``,
``card`` as JSON); a cube with a ``metric`` dim carries the coordinates ``direction(metric)`` and
``noise_floor(metric)`` plus the attr ``cards`` (JSON). Everything here reads or writes them.
"""

from __future__ import annotations

import json
import math
import numbers
from collections.abc import Mapping

import numpy as np
import xarray as xr

from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError
from mcda._core.validation import check_choice, check_rope, nearest, shown
from mcda.data.cards import (DIRECTIONS, MetricCard, direction_sign, UnknownMetricError, card_from_dict, get_card)

__all__ = [
    "resolve_metric",
    "attach_metric",
    "cube_card",
    "cube_cards",
    "cube_direction",
    "cube_metric",
    "select_metric",
    "metric_keys",
    "resolve_rope",
    "SCALES",
    "check_card_ranges",
    "check_scale_needed",
    "outside_range",
    "apply_scale",
    "check_range",
    "finite_bounds",
    "scale_factor",
]

_MAX_SHOWN = 8


# --------------------------------------------------------------------------- metric / direction

def resolve_metric(metric, direction, *, what: str = "") -> tuple[str, str, MetricCard | None]:
    """(metric name or '', direction, card or None) for one metric; contradictions raise."""
    where = f" for metric {what!r}" if what else ""
    if direction is not None:
        check_choice("direction", direction, DIRECTIONS)
    if metric is None:
        if direction is None:
            raise McdaArgumentError("pass `metric=` (a card name such as 'accuracy') or `direction=` "
                             "('higher_is_better' or 'lower_is_better'): mcda needs to know which way is better.",
                                    argument="metric", value=metric)
        return "", direction, None
    try:
        card = get_card(metric)
    except UnknownMetricError:
        if direction is None:
            raise
        name = metric.name if isinstance(metric, MetricCard) else str(metric)
        return name, direction, None
    if direction is not None and direction != card.direction:
        raise McdaArgumentError(f"`direction` {direction!r}{where} contradicts the card for {card.name!r}, which says "
                         f"{card.direction!r}. Drop `direction=`, or register a corrected card.",
                                argument="direction", value=direction)
    name = metric.name if isinstance(metric, MetricCard) else str(metric)
    return name, card.direction, card


def attach_metric(da: xr.DataArray, metric, direction, noise_floor=None) -> xr.DataArray:
    """Write the metric / direction / card attrs (and coords along ``metric``).

    ``noise_floor`` (a float, or with a ``metric`` dim a mapping label -> float) is the floor
    of a metric without a card; a card's own floor always wins (contradictions were refused).
    """
    attrs = {k: v for k, v in da.attrs.items() if k not in ("metric", "direction", "noise_floor", "card", "cards")}
    if "metric" in da.dims:
        labels = [str(m) for m in da.coords["metric"].values]
        metric_map = metric if isinstance(metric, Mapping) else None
        direction_map = direction if isinstance(direction, Mapping) else None
        if metric is not None and metric_map is None:
            raise McdaArgumentTypeError("with a `metric` dim, `metric` must be None (cards looked up from the labels) or a "
                            f"mapping label -> card name; got {metric!r}", argument="metric", value=metric)
        for mp, nm in ((metric_map, "metric"), (direction_map, "direction")):
            if mp is not None:
                metric_keys(mp, labels, argument=nm)
        dirs, floors, cards = [], [], {}
        for label in labels:
            m = metric_map.get(label, label) if metric_map else label
            d = direction_map.get(label) if direction_map else direction
            _, dd, card = resolve_metric(m, d, what=label)
            dirs.append(dd)
            own = noise_floor.get(label) if isinstance(noise_floor, Mapping) else None
            floors.append(card.noise_floor if card else (math.nan if own is None else own))
            cards[label] = card.to_dict() if card else None
        da = da.assign_coords(direction=("metric", np.array(dirs, dtype=object)),
                              noise_floor=("metric", np.array(floors, dtype=float)))
        attrs["cards"] = json.dumps(cards, sort_keys=True)
    else:
        if isinstance(metric, Mapping) or isinstance(direction, Mapping):
            raise McdaArgumentTypeError("`metric` and `direction` are mappings only for cubes with a `metric` dim",
                                        argument="metric")
        name, d, card = resolve_metric(metric, direction)
        attrs["metric"] = name
        attrs["direction"] = d
        own = noise_floor if isinstance(noise_floor, float) else None
        attrs["noise_floor"] = card.noise_floor if card else (math.nan if own is None else own)
        attrs["card"] = card.to_json() if card else ""
    da.attrs = attrs
    return da


def cube_metric(cube: xr.DataArray) -> str:
    """The metric name of a single-metric cube ('' when it has none)."""
    return str(cube.attrs.get("metric", ""))


def select_metric(requested, labels, *, argument: str = "metric") -> str | None:
    """The one label among ``labels`` that ``requested`` names: the metric selector of every module.

    ``requested`` is a label, the same label in another case, a card name or alias the label
    resolves to, or a :class:`~mcda.MetricCard`; None picks the only label there is.
    ``labels`` are the metrics of a cube or result (its ``metric`` dim or column); None means
    a single unnamed metric, for which ``requested`` must be None (and None is returned).
    Anything else raises one error naming ``argument`` and the available metrics.
    """
    if labels is None:
        if requested is not None:
            raise McdaArgumentError(f"`{argument}` was given ({requested!r}) but the scores hold a single metric",
                                    argument=argument)
        return None
    labels = [str(lab) for lab in labels]
    if requested is None and len(labels) == 1:
        return labels[0]
    name = requested.name if isinstance(requested, MetricCard) else requested
    if isinstance(name, str):
        lowered = [lab for lab in labels if lab.lower() == name.lower()]
        if name in labels:
            return name
        if lowered:
            return lowered[0]
        target = _card_name(requested)
        same_card = [lab for lab in labels if target is not None and _card_name(lab) == target]
        if same_card:
            return same_card[0]
    close = nearest(name, labels) if isinstance(name, str) else []
    hint = f" Did you mean {close[0]!r}?" if close else (" The scores hold several metrics: name one."
                                                           if requested is None else "")
    raise McdaArgumentError(f"`{argument}` must be one of the metrics [{shown(labels, _MAX_SHOWN)}]; got {name!r}.{hint}",
                            argument=argument)


def metric_keys(given, labels, *, argument: str) -> list[str]:
    """The metric labels a list or mapping (``metrics=``, ``rope=``, ``scale=`` ...) names, as strings.

    Unlike :func:`select_metric`, each must be one of ``labels`` exactly (a mapping's keys are
    the labels themselves); unknown ones raise one error naming ``argument`` and ``labels``.
    """
    labels = [str(lab) for lab in labels]
    keys = [str(k) for k in given]
    unknown = [k for k in keys if k not in labels]
    if unknown:
        raise McdaArgumentError(f"`{argument}` names metrics not among [{shown(labels, _MAX_SHOWN)}]: "
                                f"{shown(unknown, _MAX_SHOWN)}", argument=argument)
    return keys


def cube_card(cube: xr.DataArray) -> MetricCard | None:
    """The card of a single-metric cube, or None when it has none."""
    if "metric" in cube.dims:
        raise McdaArgumentError("this cube has a `metric` dim; use cube_cards(cube) or select one metric first "
                         "(cube.sel(metric=...))", argument="cube")
    text = cube.attrs.get("card", "")
    return card_from_dict(json.loads(text), source=json.loads(text).get("source", "cube")) if text else None


def cube_cards(cube: xr.DataArray) -> dict[str, MetricCard | None]:
    """The card per metric label of a cube with a ``metric`` dim."""
    if "metric" not in cube.dims:
        return {cube_metric(cube): cube_card(cube)}
    raw = json.loads(cube.attrs.get("cards", "{}"))
    return {k: (card_from_dict(v, source=v.get("source", "cube")) if v else None) for k, v in raw.items()}


def cube_direction(cube: xr.DataArray):
    """The direction of a single-metric cube (a dict label -> direction with a ``metric`` dim)."""
    if "metric" in cube.dims:
        return dict(zip([str(m) for m in cube.coords["metric"].values],
                        [str(d) for d in cube.coords["direction"].values]))
    if "direction" not in cube.attrs:
        raise McdaArgumentError("this DataArray carries no `direction`; build it with mcda.score_cube(...)",
                                argument="cube")
    return cube.attrs["direction"]


def resolve_rope(cube: xr.DataArray, rope=None) -> float:
    """``rope`` checked, or the card's noise floor when ``rope`` is None.

    Raises
    ------
    ValueError
        When ``rope`` is None and the cube has no card (pass ``rope=`` explicitly; 0 is allowed).
    """
    if rope is not None:
        return check_rope(rope)
    if "metric" in cube.dims:
        raise McdaArgumentError("this cube has a `metric` dim; select one metric (cube.sel(metric=...)) before "
                         "resolving its rope", argument="cube")
    floor = cube.attrs.get("noise_floor", math.nan)
    if floor is None or (isinstance(floor, float) and math.isnan(floor)):
        raise McdaArgumentError("`rope` is None and the scores carry no metric card, so there is no noise floor to use; "
                         "pass `rope=` explicitly (0.0 for none) or `metric=` naming a card.", argument="rope")
    return float(floor)


def _sign(cube: xr.DataArray):
    if "metric" in cube.dims:
        dirs = cube.coords["direction"].values
        return xr.DataArray(direction_sign(dirs), dims="metric",
                            coords={"metric": cube.coords["metric"].values})
    return direction_sign(cube_direction(cube))


# --------------------------------------------------------------------------- scale and range

SCALES = {"percent": 100.0, "fraction": 1.0}


def _scale_note(name: str) -> str:
    return "percent -> fraction (divided by 100)" if name == "percent" else "fraction (as given)"


def apply_scale(da: xr.DataArray, scale, keep_attrs: dict) -> xr.DataArray:
    """Divide the scores by the factor of ``scale`` (one per metric label with a ``metric`` dim)."""
    if scale is None:
        return da
    if "scale" in keep_attrs and isinstance(scale, str) and scale != "fraction":
        raise McdaArgumentError(f"`scale={scale!r}`: these scores were already converted ({keep_attrs['scale']}); "
                         "converting twice would divide them again", argument="scale", value=scale)
    if isinstance(scale, Mapping):
        if "metric" not in da.dims:
            raise McdaArgumentTypeError("`scale` is a mapping (label -> scale) only for scores with a `metric` dim; "
                            f"got {dict(scale)!r}", argument="scale")
        labels = [str(m) for m in da.coords["metric"].values]
        metric_keys(scale, labels, argument="scale")
        factors = []
        for label in labels:
            name = scale.get(label)
            if name is not None:
                check_choice("scale", name, tuple(SCALES))
            factors.append(SCALES[name] if name is not None else 1.0)
        out = da / xr.DataArray(np.array(factors), dims="metric", coords={"metric": da.coords["metric"].values})
        out.attrs = dict(da.attrs)
        out.attrs["scale"] = "; ".join(f"{lab}: {_scale_note(scale[lab])}" for lab in labels if lab in scale)
        out.name = da.name
        return out.transpose(*da.dims)
    out = da if scale_factor(scale) == 1.0 else da / SCALES[scale]
    out.attrs = dict(da.attrs)
    out.attrs["scale"] = _scale_note(scale)
    out.attrs["scale_factor"] = SCALES[scale]  # what the scores (and a rope given with them) were divided by
    out.name = da.name
    return out


def scale_factor(scale) -> float:
    """What ``scale`` (one name of :data:`SCALES`, or None) divides the scores by; the name checked."""
    if scale is None:
        return 1.0
    check_choice("scale", scale, tuple(SCALES))
    return SCALES[scale]


def check_card_ranges(cube: xr.DataArray, scale=None) -> None:
    """Refuse scores outside their card's range (every metric of a cube), naming the cells and the way on;
    with ``scale`` (the scale the scores were converted from, by label for a ``metric`` dim), refuse
    scores that were in the card's range before the conversion too (:func:`check_scale_needed`)."""
    if hasattr(cube.data, "dask"):
        return
    if "metric" in cube.dims:
        cards = cube_cards(cube)
        for label in [str(m) for m in cube.coords["metric"].values]:
            card = cards.get(label)
            if card is not None:
                part = cube.sel(metric=label)
                check_range(part, card, label)
                name = scale.get(label) if isinstance(scale, Mapping) else scale
                check_scale_needed(card, name, *finite_bounds(part.values), label)
        return
    card = cube_card(cube)
    if card is not None:
        label = cube_metric(cube) or card.name
        check_range(cube, card, label)
        check_scale_needed(card, None if isinstance(scale, Mapping) else scale, *finite_bounds(cube.values), label)


def finite_bounds(values) -> tuple[float, float]:
    """The smallest and largest score (NaN skipped; NaN, NaN when there is none)."""
    values = np.asarray(values, dtype=np.float64)
    if not values.size:
        return math.nan, math.nan
    return float(np.fmin.reduce(values, axis=None)), float(np.fmax.reduce(values, axis=None))


def check_scale_needed(card: MetricCard, scale, low: float, high: float, label: str) -> None:
    """Refuse a conversion (``scale='percent'``) of scores that, as given, already lie in the card's
    range: converting them again would divide fractions by 100. ``low`` and ``high``: the smallest
    and largest converted score (NaN when none is known)."""
    factor = scale_factor(scale)
    if factor == 1.0 or card.upper is None or not (math.isfinite(low) and math.isfinite(high)):
        return
    tol = 1e-9 * max(1.0, abs(card.upper), abs(card.lower or 0.0))
    given_low, given_high = low * factor, high * factor
    if given_high <= card.upper + tol and (card.lower is None or given_low >= card.lower - tol):
        raise McdaArgumentError(
            f"`scale={scale!r}` divides the scores by {factor:g}, but as given they lie in [{given_low:g}, "
            f"{given_high:g}], already within the range {_range_text(card)} of metric {label!r}: they look converted "
            f"already, and dividing again would make them {factor:g} times too small. Drop `scale` (or pass "
            "`scale='fraction'`); if they really are percentages this small, divide them yourself.",
            argument="scale", value=scale)


def _plain(label):
    return label.item() if isinstance(label, np.generic) else label


def _range_text(card: MetricCard) -> str:
    low = "-inf" if card.lower is None else f"{card.lower:g}"
    high = "inf" if card.upper is None else f"{card.upper:g}"
    return f"[{low}, {high}]"


def outside_range(values: np.ndarray, card: MetricCard) -> bool:
    """Whether a score of ``values`` lies outside the card's range (the test of :func:`check_card_ranges`;
    the smallest and largest scores only, NaN skipped: no mask)."""
    if card.lower is None and card.upper is None:
        return False
    values = np.asarray(values, dtype=np.float64)
    if not values.size:
        return False
    tol = 1e-9 * max(1.0, abs(card.upper or 0.0), abs(card.lower or 0.0))
    return bool((card.lower is not None and np.fmin.reduce(values, axis=None) < card.lower - tol)
                or (card.upper is not None and np.fmax.reduce(values, axis=None) > card.upper + tol))


def check_range(cube: xr.DataArray, card: MetricCard, label: str, scope: str = "") -> None:
    """Raise :func:`outside_range`'s finding, naming the cells (the first five), with the way on;
    ``scope`` says where the counted scores are when they are a part of the scores (``" of the first
    chunk holding any"``)."""
    values = np.asarray(cube.values, dtype=np.float64)
    if not outside_range(values, card):
        return
    tol = 1e-9 * max(1.0, abs(card.upper or 0.0), abs(card.lower or 0.0))
    with np.errstate(invalid="ignore"):
        bad = np.zeros(values.shape, dtype=bool)
        if card.lower is not None:
            bad |= values < card.lower - tol
        if card.upper is not None:
            bad |= values > card.upper + tol
    if not bad.any():
        return
    idx = list(zip(*np.nonzero(bad)))
    dims = cube.dims
    coords = [cube.coords[d].values for d in dims]
    where = [", ".join(f"{d} {_plain(c[i])!r}" for d, c, i in zip(dims, coords, cell)) + f": {values[cell]:g}"
             for cell in idx[:5]]
    more = f" (and {len(idx) - 5} more)" if len(idx) > 5 else ""
    finite = values[np.isfinite(values)]
    percent = card.upper == 1.0 and finite.size and 1.5 < finite.max() <= 100.0 and finite.min() >= 0.0

    def remedy(verb: str, cards: str) -> str:  # the same advice in a front end's verb and card listing
        hint = (f"They look like percentages: {verb} `scale='percent'` to divide them by 100, which is recorded "
                "with the scores; or name" if percent else "Name")
        return (f"{hint} the metric the scores really are with `metric=` (see {cards}), or register a card with the "
                "right range. Nothing is clipped.")

    raise McdaArgumentError(
        f"metric {label!r}: {len(idx)} of {values.size} scores{scope} lie outside the card's range {_range_text(card)} "
        f"({'; '.join(where)}{more}). The card's noise floor ({card.noise_floor:g}, the default rope) is in the "
        "card's units, so these scores cannot be read with it.", argument="metric", value=card.name,
        remedy={"library": remedy("pass", "mcda.list_cards()"), "cli": remedy("give", "`mcda cards list`")})

_META_ATTRS = ("metric", "direction", "noise_floor", "card", "cards", "oriented")


def _stored_metric(da: xr.DataArray):
    """The card(s) a DataArray carries: a MetricCard, a name, a mapping (metric dim) or None."""
    if "metric" in da.dims:
        stored = json.loads(da.attrs.get("cards", "") or "{}")
        if not stored:
            return None
        return {k: (card_from_dict(v, source=v.get("source", "cube")) if v else k) for k, v in stored.items()}
    if da.attrs.get("card"):
        raw = json.loads(da.attrs["card"])
        return card_from_dict(raw, source=raw.get("source", "cube"))
    return da.attrs.get("metric") or None


def _stored_direction(da: xr.DataArray):
    if "metric" in da.dims:
        if "direction" not in da.coords:
            return None
        return dict(zip([str(m) for m in da.coords["metric"].values], [str(v) for v in da.coords["direction"].values]))
    stored = da.attrs.get("direction")
    if stored is not None and stored not in DIRECTIONS:
        raise McdaArgumentError(f"the scores' attrs['direction'] must be one of {set(DIRECTIONS)}; got {stored!r}",
                                argument="direction")
    return stored or None


def _stored_noise_floor(da: xr.DataArray, metric):
    """A noise floor the DataArray carries beside (or instead of) a card; contradictions raise.

    With a card, a stored floor must equal the card's (a changed attr would otherwise be
    ignored, or used, without a word); without one, a stored floor must be finite and >= 0
    and is kept. With a ``metric`` dim: a mapping label -> floor for the labels without a card.
    """
    def check(value, card, what):
        if value is None or value == "":
            return None
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise McdaArgumentError(f"the scores' noise floor{what} must be a number >= 0; got {value!r}",
                                    argument="noise_floor")
        v = float(value)
        if math.isnan(v):
            return None
        if not math.isfinite(v) or v < 0:
            raise McdaArgumentError(f"the scores' noise floor{what} must be a finite number >= 0; got {value!r}",
                                    argument="noise_floor")
        if card is not None and v != card.noise_floor:
            raise McdaArgumentError(f"the scores' noise floor{what} {v!r} contradicts their card {card.name!r}, which "
                                    f"says {card.noise_floor!r}; register a corrected card or drop the attribute",
                                    argument="noise_floor")
        return v

    if "metric" in da.dims:
        if "noise_floor" not in da.coords:
            return None
        cards = metric if isinstance(metric, Mapping) else {}
        out = {}
        for label, value in zip([str(m) for m in da.coords["metric"].values], da.coords["noise_floor"].values):
            card = cards.get(label)
            out[label] = check(value.item() if hasattr(value, "item") else value,
                               card if isinstance(card, MetricCard) else None, f" for metric {label!r}")
        return out
    return check(da.attrs.get("noise_floor"), metric if isinstance(metric, MetricCard) else None, "")


def _one_metric_from_coords(da: xr.DataArray) -> xr.DataArray:
    """A cube narrowed to one metric by xarray (``cube.sel(metric="ARI")``, ``.isel(metric=0)``).

    xarray keeps the metric's label, direction and noise floor as scalar coordinates and the
    cards of every metric in ``attrs["cards"]``; this moves them back into the single-metric
    attrs, so such a DataArray is accepted wherever a cube is. A ``metric`` dim narrowed to
    some labels (``.sel(metric=["ARI"])``) keeps only their cards.
    """
    if "metric" in da.dims:
        raw = da.attrs.get("cards")
        if raw:
            cards = json.loads(raw)
            labels = [str(m) for m in da.coords["metric"].values]
            if set(cards) - set(labels):
                da = da.copy(deep=False)
                da.attrs = dict(da.attrs) | {"cards": json.dumps({k: v for k, v in cards.items() if k in labels},
                                                                 sort_keys=True)}
        return da
    if "metric" not in da.coords and "direction" not in da.coords:
        return da
    attrs = dict(da.attrs)
    label = str(da.coords["metric"].item()) if "metric" in da.coords else attrs.get("metric", "")
    cards = json.loads(attrs.pop("cards", "") or "{}")
    card = cards.get(label)
    direction = str(da.coords["direction"].item()) if "direction" in da.coords else attrs.get("direction")
    floor = float(da.coords["noise_floor"].item()) if "noise_floor" in da.coords else attrs.get("noise_floor")
    for name, value in (("direction", direction), ("noise_floor", floor)):
        if name in attrs and value is not None and attrs[name] != value and not (
                isinstance(value, float) and math.isnan(value)):
            raise McdaArgumentError(f"the scores carry two {name}s: {attrs[name]!r} in attrs and {value!r} as a "
                                    "coordinate; drop one", argument=name)
    out = da.drop_vars([c for c in ("metric", "direction", "noise_floor") if c in da.coords and not da.coords[c].dims])
    attrs.update({"metric": label, "direction": direction, "noise_floor": floor,
                  "card": json.dumps(card, sort_keys=True) if card else attrs.get("card", "")})
    out.attrs = {k: v for k, v in attrs.items() if v is not None}
    return out


def _narrow_to_metric(da: xr.DataArray, metric, direction):
    """One metric of a cube with a ``metric`` dim, named by its label, any case, or its card.

    Returns the cube without the ``metric`` dim and what to attach as its metric (the stored
    card, the card given, or the bare label) and direction.
    """
    label = select_metric(metric, da.coords["metric"].values)
    stored = _stored_metric(da)
    if isinstance(metric, MetricCard):
        chosen = metric
    else:
        chosen = stored.get(label, label) if isinstance(stored, Mapping) else label
    if isinstance(direction, Mapping):
        direction = direction.get(label)
    elif direction is None and "direction" in da.coords and not isinstance(chosen, MetricCard):
        direction = str(da.coords["direction"].sel({"metric": label}).item())
    out = da.sel({"metric": label}, drop=True)
    out = out.drop_vars([c for c in ("direction", "noise_floor") if c in out.coords])
    out.attrs = {k: v for k, v in out.attrs.items() if k != "cards"}
    return out, chosen, direction


def _card_name(label: str):
    try:
        return get_card(label).name
    except UnknownMetricError:
        return None
