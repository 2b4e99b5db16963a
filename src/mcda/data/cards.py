"""Metric property cards: what a metric's direction, range and honest resolution are.

A card is one TOML file (``cards/<name>.toml`` in the repository, shipped inside the wheel as
``mcda/_cards``). Its ``[comparability] noise_floor`` is the smallest difference the metric
can honestly resolve, and it is the default region of practical equivalence (ROPE) in every
mcda function. Users add cards from their own TOML files, directories or objects with
:func:`register_card`.

Examples
--------
>>> from mcda.data.cards import properties_for, get_card
>>> properties_for(["ari"])[0].noise_floor
0.01
>>> get_card("ELAPSED").name
'runtime'
"""

from __future__ import annotations

import json
import math
import threading
import tomllib
from dataclasses import asdict, dataclass, field
from importlib import resources
from pathlib import Path

from mcda._core.validation import McdaArgumentError, McdaArgumentTypeError, check_choice, nearest

__all__ = [
    "MetricCard",
    "DIRECTIONS",
    "direction_sign",
    "higher_is_better",
    "better_phrase",
    "get_card",
    "properties_for",
    "list_cards",
    "register_card",
    "card_from_dict",
    "CardError",
    "UnknownMetricError",
    "has_card",
]

DIRECTIONS = ("higher_is_better", "lower_is_better")


def direction_sign(direction):
    """+1.0 for "higher_is_better", −1.0 for "lower_is_better": multiply by it to orient scores.

    The one place a direction becomes a sign. ``direction`` is one direction or an array of
    them (one per metric); an array gives an array of signs.

    >>> direction_sign("lower_is_better"), direction_sign(["higher_is_better", "lower_is_better"]).tolist()
    (-1.0, [1.0, -1.0])
    """
    if isinstance(direction, str):
        return 1.0 if direction == "higher_is_better" else -1.0
    import numpy as np

    return np.where(np.asarray(direction) == "higher_is_better", 1.0, -1.0)


def higher_is_better(direction) -> bool:
    """Whether ``direction`` (one of :data:`DIRECTIONS`) is "higher_is_better".

    >>> higher_is_better("lower_is_better")
    False
    """
    return direction_sign(direction) > 0


def better_phrase(direction) -> str:
    """The direction in words: "higher is better" or "lower is better".

    >>> better_phrase("higher_is_better")
    'higher is better'
    """
    return "higher is better" if higher_is_better(direction) else "lower is better"
TASKS = ("classification", "clustering", "regression", "ranking", "cost", "other")
INTERVALS = ("t", "bootstrap")
#: What one score is: 0/1 (correct or not), a value in a closed range (a judge's 1-10), or any real.
OUTCOMES = ("binary", "bounded", "continuous")


class CardError(McdaArgumentError):
    """A card file or mapping is malformed; the message names the source and the field."""


class UnknownMetricError(KeyError, McdaArgumentError):
    """No card has this name or alias; the message suggests the nearest ones (``.argument`` is ``"metric"``)."""

    def __init__(self, message: str, *, argument: str):
        McdaArgumentError.__init__(self, message, argument=argument)

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


@dataclass(frozen=True)
class MetricCard:
    """The properties of one metric.

    Attributes
    ----------
    name : str
        The canonical name users type (``"ari"``).
    aliases : tuple of str
        Other names that resolve to this card (matched case-insensitively).
    long_name : str
        A human-readable name ("Adjusted Rand index").
    direction : {"higher_is_better", "lower_is_better"}
        Which way is better.
    noise_floor : float
        The smallest difference the metric can honestly resolve, in its own units; the default
        ROPE everywhere.
    noise_floor_justification : str
        One line saying why.
    lower, upper : float or None
        The range; None where it is open.
    bounded, heavy_tailed : bool
        Whether scores pile up against a bound, or have heavy tails; either makes the
        percentile bootstrap the better interval once there are enough seeds (10 or more).
    interval : {"t", "bootstrap"}
        The interval that suits the metric's shape with enough seeds. Advice, not a default:
        :func:`mcda.summary`, :class:`mcda.Report` and ``mcda compare`` use Student's t unless
        the bootstrap is asked for, since below 10 seeds the percentile bootstrap covers less
        than its nominal rate.
    task : str
        classification, clustering, regression, ranking, cost or other.
    description, interval_note : str
        One sentence each.
    references : tuple of str
        Citations (with DOI where there is one).
    outcome : {"binary", "bounded", "continuous"}
        What one score is: 0 or 1 (an exact match, a pass), a value in the card's closed range
        (a judge's rating), or any real number (a loss). Per-item statistics read it (rate
        intervals and McNemar's test for binary scores). By default "bounded" when the card has
        both ends of a range, else "continuous".
    source : str
        Where the card came from (a file path, or ``"registered"``).
    """

    name: str
    direction: str
    noise_floor: float
    aliases: tuple[str, ...] = ()
    long_name: str = ""
    noise_floor_justification: str = ""
    lower: float | None = None
    upper: float | None = None
    bounded: bool = False
    heavy_tailed: bool = False
    interval: str = "t"
    task: str = "other"
    description: str = ""
    interval_note: str = ""
    references: tuple[str, ...] = field(default=())
    source: str = "registered"
    outcome: str = ""

    def __post_init__(self):
        # the invariants card_from_dict checks for files hold for a card built directly, too
        src = f"metric card {self.name!r}" if isinstance(self.name, str) else "metric card"

        def bad(fieldname, problem, type_error=False):
            cls = McdaArgumentTypeError if type_error else CardError
            return cls(f"{src}: field `{fieldname}` {problem}", argument=fieldname)

        if not isinstance(self.name, str) or not self.name.strip():
            raise bad("name", f"must be a non-empty string; got {self.name!r}")
        if self.direction not in DIRECTIONS:
            raise bad("direction", f"must be one of {{'higher_is_better', 'lower_is_better'}}; got {self.direction!r}")
        if isinstance(self.noise_floor, bool) or not isinstance(self.noise_floor, (int, float)):
            raise bad("noise_floor", f"must be a number; got {self.noise_floor!r}", type_error=True)
        if not math.isfinite(self.noise_floor) or self.noise_floor < 0:
            raise bad("noise_floor", f"must be a finite number >= 0; got {self.noise_floor!r}")
        object.__setattr__(self, "noise_floor", float(self.noise_floor))
        for fieldname in ("lower", "upper"):
            v = getattr(self, fieldname)
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float)) or math.isnan(v)):
                raise bad(fieldname, f"must be a number or None; got {v!r}")
        if self.lower is not None and self.upper is not None and self.lower >= self.upper:
            raise bad("range", f"lower ({self.lower}) must be below upper ({self.upper})")
        if self.interval not in INTERVALS:
            raise bad("interval", f"must be one of {{'t', 'bootstrap'}}; got {self.interval!r}")
        if self.task not in TASKS:
            raise bad("task", f"must be one of {set(TASKS)}; got {self.task!r}")
        if self.outcome == "":
            object.__setattr__(self, "outcome", "bounded" if self.lower is not None and self.upper is not None
                               else "continuous")
        if self.outcome not in OUTCOMES:
            raise bad("outcome", f"must be one of {{'binary', 'bounded', 'continuous'}}; got {self.outcome!r}")
        if self.outcome == "binary" and (self.lower, self.upper) != (0.0, 1.0):
            raise bad("outcome", f"'binary' needs the range [0, 1]; got [{self.lower}, {self.upper}]")
        for fieldname in ("bounded", "heavy_tailed"):
            if not isinstance(getattr(self, fieldname), bool):
                raise bad(fieldname, f"must be True or False; got {getattr(self, fieldname)!r}")
        for fieldname in ("aliases", "references"):
            v = getattr(self, fieldname)
            if isinstance(v, str) or not all(isinstance(a, str) for a in v):
                raise bad(fieldname, f"must be a sequence of strings; got {v!r}")
            object.__setattr__(self, fieldname, tuple(v))

    @property
    def higher_is_better(self) -> bool:
        return self.direction == "higher_is_better"

    @property
    def sign(self) -> int:
        """+1 for higher-is-better metrics, -1 otherwise (multiply to orient)."""
        return int(direction_sign(self.direction))

    def to_dict(self) -> dict:
        """A JSON-serialisable dict that :func:`card_from_dict` turns back into the same card."""
        out = asdict(self)
        out["aliases"] = list(self.aliases)
        out["references"] = list(self.references)
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    def summary(self) -> str:
        rng = f"[{'-inf' if self.lower is None else self.lower}, {'inf' if self.upper is None else self.upper}]"
        lines = [
            f"{self.name}: {self.long_name}" if self.long_name else self.name,
            f"  direction     {self.direction}",
            f"  range         {rng}",
            f"  noise floor   {self.noise_floor:g}  ({self.noise_floor_justification})",
            f"  interval      {self.interval}"
            + (f"  ({self.interval_note})" if self.interval_note else ""),
            f"  bounded       {self.bounded}; heavy-tailed {self.heavy_tailed}",
            f"  outcome       {self.outcome}",
        ]
        if self.aliases:
            lines.append(f"  aliases       {', '.join(self.aliases)}")
        if self.description:
            lines.append(f"  {self.description}")
        for ref in self.references:
            lines.append(f"  ref: {ref}")
        lines.append(f"  source: {self.source}")
        return "\n".join(lines)


def _field_error(source: str, fieldname: str, problem: str) -> CardError:
    return CardError(f"metric card {source}: field `{fieldname}` {problem}", argument="card")


def _real(source: str, fieldname: str, value, *, optional: bool = False) -> float | None:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _field_error(source, fieldname, f"must be a number; got {value!r}")
    v = float(value)
    if math.isnan(v):
        raise _field_error(source, fieldname, "must not be NaN")
    if math.isinf(v):
        return None if optional else _raise(_field_error(source, fieldname, "must be finite"))
    return v


def _raise(exc):
    raise exc


def _text(source: str, fieldname: str, value, default: str = "") -> str:
    if value is None:
        return default
    if not isinstance(value, str):
        raise _field_error(source, fieldname, f"must be a string; got {value!r}")
    return value


def card_from_dict(data: dict, source: str = "registered") -> MetricCard:
    """Build a :class:`MetricCard` from the TOML layout (or from :meth:`MetricCard.to_dict`).

    Raises
    ------
    CardError
        Naming ``source`` and the offending field when a field is missing or malformed.
    """
    if not isinstance(data, dict):
        raise CardError(f"metric card {source}: expected a table of fields; got {type(data).__name__}", argument="card")
    flat = dict(data)
    # accept both the nested TOML layout and the flat to_dict() layout
    rng = flat.pop("range", {}) or {}
    comp = flat.pop("comparability", {}) or {}
    dist = flat.pop("distribution", {}) or {}
    for table_name, table in (("range", rng), ("comparability", comp), ("distribution", dist)):
        if not isinstance(table, dict):
            raise _field_error(source, table_name, f"must be a table; got {table!r}")
    if "name" not in flat:
        raise _field_error(source, "name", "is missing")
    name = _text(source, "name", flat["name"]).strip()
    if not name:
        raise _field_error(source, "name", "must not be empty")
    direction = flat.get("direction")
    if direction not in DIRECTIONS:
        raise _field_error(source, "direction",
                           f"must be one of {{'higher_is_better', 'lower_is_better'}}; got {direction!r}")
    if "noise_floor" in comp:
        floor_raw = comp["noise_floor"]
    elif "noise_floor" in flat:
        floor_raw = flat["noise_floor"]
    else:
        raise _field_error(source, "comparability.noise_floor", "is missing")
    floor = _real(source, "comparability.noise_floor", floor_raw)
    if floor < 0:
        raise _field_error(source, "comparability.noise_floor", f"must be >= 0; got {floor_raw!r}")
    aliases = flat.get("aliases", [])
    if not isinstance(aliases, (list, tuple)) or not all(isinstance(a, str) for a in aliases):
        raise _field_error(source, "aliases", f"must be a list of strings; got {aliases!r}")
    lower = _real(source, "range.lower", rng.get("lower", flat.get("lower")), optional=True)
    upper = _real(source, "range.upper", rng.get("upper", flat.get("upper")), optional=True)
    if lower is not None and upper is not None and lower >= upper:
        raise _field_error(source, "range", f"lower ({lower}) must be below upper ({upper})")
    interval = dist.get("interval", flat.get("interval", "t"))
    if interval not in INTERVALS:
        raise _field_error(source, "distribution.interval", f"must be one of {{'t', 'bootstrap'}}; got {interval!r}")
    task = flat.get("task", "other")
    if task not in TASKS:
        raise _field_error(source, "task", f"must be one of {set(TASKS)}; got {task!r}")
    bools = {}
    for key in ("bounded", "heavy_tailed"):
        val = dist.get(key, flat.get(key, False))
        if not isinstance(val, bool):
            raise _field_error(source, f"distribution.{key}", f"must be true or false; got {val!r}")
        bools[key] = val
    refs_raw = flat.get("references", [])
    refs = []
    if not isinstance(refs_raw, (list, tuple)):
        raise _field_error(source, "references", f"must be a list; got {refs_raw!r}")
    for i, ref in enumerate(refs_raw):
        if isinstance(ref, str):
            refs.append(ref)
        elif isinstance(ref, dict) and isinstance(ref.get("text"), str):
            refs.append(ref["text"] + (f" doi:{ref['doi']}" if ref.get("doi") else ""))
        else:
            raise _field_error(source, f"references[{i}]", f"must be a string or a table with `text`; got {ref!r}")
    return MetricCard(
        name=name,
        direction=direction,
        noise_floor=floor,
        aliases=tuple(aliases),
        long_name=_text(source, "long_name", flat.get("long_name")),
        noise_floor_justification=_text(
            source, "comparability.justification",
            comp.get("justification", flat.get("noise_floor_justification"))),
        lower=lower,
        upper=upper,
        bounded=bools["bounded"],
        heavy_tailed=bools["heavy_tailed"],
        interval=interval,
        task=task,
        description=_text(source, "description", flat.get("description")),
        interval_note=_text(source, "distribution.note", dist.get("note", flat.get("interval_note"))),
        references=tuple(refs),
        outcome=_text(source, "distribution.outcome", dist.get("outcome", flat.get("outcome"))),
        source=_text(source, "source", flat.get("source"), default=source) if source == "registered" else source,
    )


def _load_file(path: Path) -> MetricCard:
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise CardError(f"metric card {path}: not valid TOML ({exc})", argument="card") from exc
    return card_from_dict(data, source=str(path))


def _builtin_dirs() -> list[Path]:
    dirs = []
    try:
        packaged = resources.files("mcda") / "_cards"
        if packaged.is_dir():
            dirs.append(Path(str(packaged)))
    except (ModuleNotFoundError, FileNotFoundError):  # pragma: no cover
        pass
    # editable install / source checkout: cards/ at the repository root
    repo_cards = Path(__file__).resolve().parents[3] / "cards"
    if not dirs and repo_cards.is_dir():
        dirs.append(repo_cards)
    return dirs


class _Registry:
    # The built-in cards load on first use, under a lock, and count as loaded only once all are
    # in: otherwise two threads meeting the registry first at once could see it half filled
    # ("'ari' has no card" from one of two concurrent `mcda compare` runs).
    def __init__(self):
        self._cards: dict[str, MetricCard] = {}
        self._lookup: dict[str, str] = {}
        self._loaded = False
        self._lock = threading.RLock()

    def _ensure(self):
        if self._loaded:
            return
        with self._lock:
            if self._loaded:
                return
            for d in _builtin_dirs():
                for path in sorted(d.glob("*.toml")):
                    self._add(_load_file(path), replace=False)
            self._loaded = True

    def add(self, card: MetricCard, replace: bool) -> None:
        self._ensure()
        with self._lock:
            self._add(card, replace)

    def _add(self, card: MetricCard, replace: bool) -> None:
        keys = [card.name.lower()] + [a.lower() for a in card.aliases]
        if not replace:
            for key in keys:
                if key in self._lookup and self._lookup[key] != card.name:
                    raise CardError(f"metric card {card.source}: name or alias {key!r} is already used by card "
                                    f"{self._lookup[key]!r}; pass replace=True to override", argument="card")
            if card.name in self._cards:
                raise CardError(f"metric card {card.source}: a card named {card.name!r} is already registered "
                                f"(from {self._cards[card.name].source}); pass replace=True to override", argument="card")
        if card.name in self._cards:
            old = self._cards.pop(card.name)
            for key in [old.name.lower()] + [a.lower() for a in old.aliases]:
                self._lookup.pop(key, None)
        self._cards[card.name] = card
        for key in keys:
            self._lookup[key] = card.name

    def get(self, name: str) -> MetricCard:
        self._ensure()
        if isinstance(name, MetricCard):
            return name
        if not isinstance(name, str):
            raise McdaArgumentTypeError(f"`metric` must be a metric name (str) or a MetricCard; got {name!r}",
                                        argument="metric")
        key = name.strip().lower()
        if key in self._lookup:
            return self._cards[self._lookup[key]]
        suggestions = nearest(key, list(self._lookup))
        hint = (" Did you mean " + " or ".join(repr(self._lookup[s]) if s == self._lookup[s].lower()
                                                 else repr(s) for s in suggestions) + "?") if suggestions else ""
        raise UnknownMetricError(f"`metric` {name!r} has no card.{hint} Known cards: mcda.list_cards(); add your own with "
                       "mcda.register_card, or pass `direction=` (and `rope=`) explicitly.", argument="metric")

    def names(self) -> list[str]:
        self._ensure()
        return sorted(self._cards)


_REGISTRY = _Registry()


def get_card(name: str | MetricCard) -> MetricCard:
    """The card for a metric name or alias (case-insensitive).

    Raises
    ------
    UnknownMetricError
        (a KeyError and a ValueError) for an unknown name, with the nearest known names suggested.
    """
    return _REGISTRY.get(name)


def has_card(name: str) -> bool:
    """Whether a card exists for ``name`` (name or alias, case-insensitive)."""
    try:
        get_card(name)
    except UnknownMetricError:
        return False
    return True


def properties_for(names) -> list[MetricCard]:
    """The cards for several metric names, in the order given.

    Examples
    --------
    >>> [c.direction for c in properties_for(["accuracy", "runtime"])]
    ['higher_is_better', 'lower_is_better']
    """
    if isinstance(names, str):
        raise McdaArgumentTypeError(f"`names` must be a list of metric names, not a single string; got {names!r}. "
                        f"Use properties_for([{names!r}]) or get_card({names!r}).", argument="names", value=names)
    return [get_card(n) for n in names]


def list_cards(task: str | None = None) -> list[str]:
    """The canonical names of all known cards (optionally of one ``task``), sorted."""
    if task is not None:
        check_choice("task", task, TASKS)
        return [n for n in _REGISTRY.names() if _REGISTRY.get(n).task == task]
    return _REGISTRY.names()


def register_card(card, *, replace: bool = False) -> list[MetricCard]:
    """Add cards: a :class:`MetricCard`, a mapping in the TOML layout, a ``.toml`` path, or a directory.

    Parameters
    ----------
    card : MetricCard, dict, str or Path
        What to add. A directory adds every ``*.toml`` file in it.
    replace : bool, default False
        Whether a card may replace an existing card of the same name or alias.

    Returns
    -------
    list of MetricCard
        The cards added.

    Raises
    ------
    CardError
        A malformed card (naming the file and the field) or a name clash without ``replace``.
    """
    _REGISTRY._ensure()
    if isinstance(card, MetricCard):
        cards = [card]
    elif isinstance(card, dict):
        cards = [card_from_dict(card)]
    elif isinstance(card, (str, Path)):
        path = Path(card)
        if path.is_dir():
            cards = [_load_file(p) for p in sorted(path.glob("*.toml"))]
            if not cards:
                raise CardError(f"`card` directory {str(path)!r} holds no *.toml files", argument="card")
        elif path.is_file():
            cards = [_load_file(path)]
        else:
            raise FileNotFoundError(f"`card` path {str(path)!r} does not exist")
    else:
        raise McdaArgumentTypeError(f"`card` must be a MetricCard, a dict, or a path to a .toml file or directory; got {card!r}",
                                    argument="card", value=card)
    for c in cards:
        _REGISTRY.add(c, replace=replace)
    return cards
