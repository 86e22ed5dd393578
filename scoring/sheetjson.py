"""The score sheet as JSON: parse a document, score it, render the result (pure Python).

The format is documented in README.md ("The sheet as JSON"). ``score_document`` is
what ``manage.py score`` prints; the import and export views use the same parse and
render functions, so there is one reading of the format.
"""

import copy
import re
from dataclasses import dataclass
from typing import Any

from base.errors import gettext_noop
from base.text import clean_name, name_fold
from scoring.rules import (
    DreierDeal,
    EndedDeal,
    QuickDeal,
    Redeal,
    RuleError,
    RuleSet,
    SheetState,
    TieBreak,
    Variant,
    score_sheet,
)
from scoring.rules.presets import preset
from scoring.rules.ruleset import check_contract_count
from scoring.rules.sheet import Entry


@dataclass(frozen=True)
class ParsedSheet:
    """A document read into plain values: seat i is ``players[i]``; seat 0 deals first."""

    variant: Variant
    rules: RuleSet
    players: tuple[str, ...]
    entries: tuple[Entry, ...]


def parse_rule_set(value: Any) -> RuleSet:
    """A preset name, ``{"preset", "options", "catalog": {code: change}}``, or a whole rule
    set ``{"name", "options", "catalog": [contracts]}``; RuleError(field="rule_set…")."""
    if value is None:
        value = "wiki"
    if isinstance(value, str):
        return preset(value)
    if not isinstance(value, dict):
        raise RuleError("rule_set", gettext_noop("Give a preset name or an object."))
    whole = isinstance(value.get("catalog"), list)
    allowed = ("name", "label", "options", "catalog") if whole else ("preset", "options", "catalog")
    for key in value:
        if key not in allowed:
            raise RuleError("rule_set", gettext_noop("Unknown field %(key)s."), key=str(key)[:40])
    if whole:
        check_contract_count(len(value["catalog"]))
        return RuleSet.from_dict(value)
    name = value.get("preset", "wiki")
    if not isinstance(name, str):
        raise RuleError("rule_set", gettext_noop("A preset is named by text."))
    base = preset(name)
    catalog = value.get("catalog") or {}
    options = value.get("options") or {}
    if not isinstance(catalog, dict) or not isinstance(options, dict):
        raise RuleError("rule_set", gettext_noop("Options and catalogue changes are objects."))
    known = {c.code for c in base.catalog}
    check_contract_count(len(known) + sum(1 for code in catalog if code not in known))
    return base.with_changes(options=options, catalog=catalog)


DOCUMENT_KEYS = {"variant", "rule_set", "players", "deals", "about", "expect", "title"}
"""Keys of a sheet document; those of a scored document are read too (an export imports)."""
SCORED_KEYS = {"games", "tally", "current", "bummerls", "partie_winner", "voided"}
ENTRY_KEYS = {
    "contract",
    "declarer",
    "won",
    "spritzen",
    "normal_points",
    "redeal",
    "tiebreak_winner",
    "winner",
    "points",
    "end",
    "by",
    "other_augen",
    "other_had_trick",
}
SCORED_ENTRY_KEYS = {"totals", "left", "dealer", "rufer", "game"}
"""What a scored document adds to each deal (and ``points`` per player): read, not checked."""
KIND_KEYS = {
    "tiebreak": {"tiebreak_winner"},
    "redeal": {"redeal"},
    "dreier": {"contract", "declarer", "won", "spritzen", "normal_points", "redeal"},
    "quick": {"winner", "points"},
    "ended": {"end", "by", "other_augen", "other_had_trick"},
}
"""The fields each kind of entry has; any other field of ENTRY_KEYS is refused on it, so
no value is kept that the scoring ignores (a redeal with a contract, Augen on a quick
deal, a two-player field on a Dreierschnapsen deal)."""


def _only(raw: dict, kind: str) -> None:
    allowed = KIND_KEYS[kind]
    for key in raw:
        if key in allowed or key in SCORED_ENTRY_KEYS:
            continue
        if key == "points" and isinstance(raw[key], dict):
            continue  # a scored document's points per player
        raise RuleError(key, gettext_noop("Leave this out: a deal of this kind has no such field."))


def check_text(value: Any, field: str) -> None:
    """Text a person could have typed: no NUL or other control characters, valid Unicode."""
    if not isinstance(value, str):
        raise RuleError(field, gettext_noop("Must be text."))
    if any(ord(ch) < 32 or 0xD800 <= ord(ch) <= 0xDFFF for ch in value):
        raise RuleError(field, gettext_noop("Contains characters that are not text."))


DEFAULT_MAX_DEALS = 1000
DEFAULT_MAX_TEXT = 1000


def limits() -> tuple[int, int]:
    """``(deals per sheet, characters per string)`` a document may have: the settings
    ``BUMMERL_MAX_DEALS`` and ``BUMMERL_MAX_TEXT`` where Django is set up, else the
    defaults (1000 deals, 1000 characters)."""
    from django.conf import settings

    if not settings.configured:
        return DEFAULT_MAX_DEALS, DEFAULT_MAX_TEXT
    return (
        getattr(settings, "BUMMERL_MAX_DEALS", DEFAULT_MAX_DEALS),
        getattr(settings, "BUMMERL_MAX_TEXT", DEFAULT_MAX_TEXT),
    )


def _is_broken(text: str) -> bool:
    """A NUL (which PostgreSQL cannot store) or half of a UTF-16 pair (not Unicode text)."""
    return "\x00" in text or any(0xD800 <= ord(ch) <= 0xDFFF for ch in text)


def check_strings(data: Any, max_text: int | None) -> None:
    """Every string of a JSON value, keys too, at any depth: at most ``max_text``
    characters (any length when None), no NUL, no lone surrogate. RuleError's ``place``
    parameter, which its message shows, is the string's place, e.g. ``deals[3].contract``
    or ``about`` (a key's place ends in the key itself); its field is the document's
    field that holds it (``deals``, ``about``)."""
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        value, place = stack.pop()
        if isinstance(value, str):
            texts = [(value, place)]
        elif isinstance(value, dict):
            texts = []
            for key, item in value.items():
                key_place = f"{place}.{key}" if place else str(key)
                if isinstance(key, str):
                    texts.append((key, key_place[:80]))
                stack.append((item, key_place[:80]))
        elif isinstance(value, list):
            stack.extend((item, f"{place}[{i}]") for i, item in enumerate(value))
            continue
        else:
            continue
        for text, where in texts:
            if _is_broken(text):
                shown = where.encode("utf-8", "replace").decode("utf-8").replace("\x00", "?")
                raise RuleError(
                    _top(shown),
                    gettext_noop(
                        "%(place)s contains a character that is not text (a NUL or a broken one)."
                    ),
                    place=shown or "sheet",
                )
            if max_text is not None and len(text) > max_text:
                raise RuleError(
                    _top(where),
                    gettext_noop("%(place)s is longer than %(limit)s characters."),
                    place=where or "sheet",
                    limit=max_text,
                )


def _top(place: str) -> str:
    """The document's field a place is in: ``deals`` for ``deals[3].contract``."""
    return re.split(r"[.\[]", place, maxsplit=1)[0] or "sheet"


def _unknown(keys, allowed: set[str]) -> None:
    for key in keys:
        if key not in allowed:
            raise RuleError(
                str(key)[:40], gettext_noop("Unknown field %(key)s."), key=str(key)[:40]
            )


def parse_document(data: Any, *, limited: bool = True) -> ParsedSheet:
    """Read a sheet document; RuleError names the field (``deals[i]`` errors carry ``index``).

    Before anything else, every string is checked (``check_strings``) and, when
    ``limited``, the deals are counted against ``limits()``: a document from outside is
    refused before it costs work. A sheet's own export is read with ``limited=False``.
    """
    if not isinstance(data, dict):
        raise RuleError("sheet", gettext_noop("The sheet must be a JSON object."))
    max_deals, max_text = limits()
    check_strings(data, max_text if limited else None)
    if limited and isinstance(data.get("deals"), list) and len(data["deals"]) > max_deals:
        raise RuleError(
            "deals",
            gettext_noop("A sheet has at most %(limit)s deals; this one has %(count)s."),
            limit=max_deals,
            count=len(data["deals"]),
        )
    _unknown(data, DOCUMENT_KEYS | SCORED_KEYS)
    try:
        variant = Variant(data.get("variant", ""))
    except ValueError:
        raise RuleError(
            "variant",
            gettext_noop('The variant is "schnapsen", "dreierschnapsen" or "bauernschnapsen".'),
        ) from None
    rules = parse_rule_set(data.get("rule_set"))
    players = data.get("players")
    if (
        not isinstance(players, list)
        or len(players) != variant.seats
        or not all(isinstance(p, str) and clean_name(p) for p in players)
    ):
        raise RuleError(
            "players", gettext_noop("Name %(count)s players in seating order."), count=variant.seats
        )
    for name in players:
        check_text(name, "players")
    if "title" in data:
        check_text(data["title"], "title")
    names = tuple(clean_name(p) for p in players)
    if len({name_fold(n) for n in names}) != len(names):  # "anna" is Anna: one person
        raise RuleError("players", gettext_noop("Every player needs a different name."))
    deals = data.get("deals", [])
    if not isinstance(deals, list):
        raise RuleError("deals", gettext_noop("The deals are a list."))
    entries = []
    for index, raw in enumerate(deals):
        try:
            entries.append(parse_entry(raw, variant, names))
        except RuleError as error:
            raise error.at(index) from None
    return ParsedSheet(variant, rules, names, tuple(entries))


def _seat(raw: dict, key: str, names: tuple[str, ...]) -> int:
    """The seat of the player named ``raw[key]`` (in any case and spacing)."""
    name = raw.get(key)
    folds = [name_fold(n) for n in names]
    if not isinstance(name, str) or name_fold(name) not in folds:
        raise RuleError(key, gettext_noop("%(name)r is not a player of this sheet."), name=name)
    return folds.index(name_fold(name))


def _int(raw: dict, key: str, default: int | None = None) -> int | None:
    value = raw.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(key, gettext_noop("Must be a whole number."))
    return value


def _bool(raw: dict, key: str) -> bool | None:
    value = raw.get(key)
    if value is not None and not isinstance(value, bool):
        raise RuleError(key, gettext_noop("Must be true or false."))
    return value


def parse_entry(raw: Any, variant: Variant, names: tuple[str, ...]) -> Entry:
    """One element of ``deals`` as a rule-core entry."""
    if not isinstance(raw, dict):
        raise RuleError("deal", gettext_noop("A deal is an object."))
    _unknown(raw, ENTRY_KEYS | SCORED_ENTRY_KEYS)
    if "tiebreak_winner" in raw:
        if variant is not Variant.DREIERSCHNAPSEN:
            raise RuleError("tiebreak_winner", gettext_noop("Only Dreierschnapsen has tie-breaks."))
        _only(raw, "tiebreak")
        return TieBreak(_seat(raw, "tiebreak_winner", names))
    if variant is not Variant.SCHNAPSEN:  # Dreier- and Bauernschnapsen deals read alike
        redeal = _bool(raw, "redeal")
        if redeal:
            _only(raw, "redeal")
            return Redeal()
        _only(raw, "dreier")
        if not isinstance(raw.get("contract"), str):
            raise RuleError("contract", gettext_noop("Name the contract."))
        check_text(raw["contract"], "contract")
        won = _bool(raw, "won")
        if won is None:
            raise RuleError("won", gettext_noop("Say whether the declarer won."))
        return DreierDeal(
            contract=raw["contract"],
            declarer=_seat(raw, "declarer", names),
            won=won,
            spritzen=_int(raw, "spritzen", 0) or 0,
            normal_points=_int(raw, "normal_points"),
        )
    if "end" in raw:
        _only(raw, "ended")
        return EndedDeal(
            end=raw["end"],
            by=_seat(raw, "by", names),
            other_augen=_int(raw, "other_augen"),
            other_had_trick=_bool(raw, "other_had_trick"),
        )
    _only(raw, "quick")
    winner = _seat(raw, "winner", names)
    points = raw.get("points")
    if isinstance(points, dict):
        # A scored document (an export) carries points per player: the winner's count.
        points = points.get(names[winner])
    return QuickDeal(winner=winner, points=_int({"points": points}, "points") or 0)


def entry_to_dict(entry: Entry, names: tuple[str, ...]) -> dict[str, Any]:
    """The document form of an entry (the inverse of ``parse_entry``)."""
    if isinstance(entry, Redeal):
        return {"redeal": True}
    if isinstance(entry, TieBreak):
        return {"tiebreak_winner": names[entry.winner]}
    if isinstance(entry, DreierDeal):
        out: dict[str, Any] = {
            "contract": entry.contract,
            "declarer": names[entry.declarer],
            "won": entry.won,
        }
        if entry.spritzen:
            out["spritzen"] = entry.spritzen
        if entry.normal_points is not None:
            out["normal_points"] = entry.normal_points
        return out
    if isinstance(entry, QuickDeal):
        return {"winner": names[entry.winner], "points": entry.points}
    out = {"end": str(entry.end), "by": names[entry.by]}
    if entry.other_augen is not None:
        out["other_augen"] = entry.other_augen
    if entry.other_had_trick is not None:
        out["other_had_trick"] = entry.other_had_trick
    return out


def render_state(document: dict[str, Any], parsed: ParsedSheet, state: SheetState) -> dict:
    """The input document plus the scored values (README.md, "The sheet as JSON")."""
    names = parsed.players
    two = parsed.variant is Variant.SCHNAPSEN

    def per(values: tuple[int, ...]) -> dict[str, int]:
        return dict(zip(names, values, strict=True))

    out = copy.deepcopy(document)
    out["deals"] = []
    raw_deals = document.get("deals", [])
    for raw, line in zip(raw_deals, state.lines, strict=True):
        item = dict(raw)
        item["points"] = per(line.points)
        item["totals"] = per(line.totals)
        if two:
            item["left"] = per(tuple(max(0, 7 - t) for t in line.totals))
        item["dealer"] = names[line.dealer]
        item["rufer"] = None if line.rufer is None else names[line.rufer]
        item["game"] = line.game + 1
        out["deals"].append(item)
    out["games"] = [
        {
            "final": per(game.final),
            # A team (Bauernschnapsen) always loses as the list of its two names.
            "loser": names[game.losers[0]]
            if len(game.losers) == 1 and not parsed.variant.teams
            else [names[s] for s in game.losers],
            "result": str(game.result),
            "bummerl": per(game.bummerl),
            **(
                {
                    "tiebreak": [names[s] for s in game.tiebreak],
                    "tiebreak_winner": names[game.tiebreak_winner],
                }  # noqa: E501
                if game.tiebreak is not None and game.tiebreak_winner is not None
                else {}
            ),
        }
        for game in state.games
    ]
    out["tally"] = per(state.tally)
    current: dict[str, Any] = {
        "totals": per(state.totals),
        "dealer": names[state.dealer],
        "rufer": names[state.rufer],
        "awaiting_tiebreak": None
        if state.awaiting_tiebreak is None
        else [names[s] for s in state.awaiting_tiebreak],
    }
    if two:
        current["left"] = per(state.left)
        out["bummerls"] = [names[game.losers[0]] for game in state.games]
        out["partie_winner"] = None if state.partie_winner is None else names[state.partie_winner]
    out["current"] = current
    return out


def score_document(document: Any, *, limited: bool = True) -> dict[str, Any]:
    """Parse, score and render a sheet document; RuleError names the deal and field
    (``limited`` as for ``parse_document``)."""
    parsed = parse_document(document, limited=limited)
    state = score_sheet(parsed.variant, parsed.rules, 0, list(parsed.entries))
    return render_state(document, parsed, state)
