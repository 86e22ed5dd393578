"""The auditable draw (RULES.md 5.12): the commitment of a digital draw, and the check of
every draw of an export. Pure Python over plain values and the export's JSON.

Words used here:

- the *inputs* of a draw: its round ``number``, ``pot_size`` and the *holders*, each a
  player's name and his card numbers in play, in the order the draw takes them
  (``draw.canonical``: by player id, cards by id). The export lists them per round as
  ``holders``.
- the *commitment*: the SHA-256 (hex) of the text ``commitment_text`` makes of a
  ``nonce`` (128 random bits, hex), the ``seed`` and the inputs. The site shows it before
  the draw and the seed and nonce after it; the nonce keeps anyone from searching the
  48-bit seed by hashing candidates before the draw.

A Leben or points event (RULES.md 5.10, 6) draws from other inputs: its round
``number`` and its *entries*, each (player, card number, byes so far, card number of
the opponent of the round before or None), in the order the pairing core takes them
(``formats.DrawPlan``); the export lists them per round as ``entries`` (``player``,
``card``, ``byes``, ``last``), and its
commitment is the SHA-256 of ``format_commitment_text``.

``check_export`` replays every round of an export: a digital round from its seed and
holders (``draw.digital_draw``) and its commitment from its nonce; a round drawn at the
venue from its pulls (``draw.replay``, the rules of every pull); and every shared range
ordered by lot from its seed (``ranking.lot_order``). Whatever the export says that the
replay does not, is named.
"""

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from base.errors import RuleError
from tournaments import danish, draw, leben
from tournaments.ranking import lot_order

VERSION = "bummerl-draw-1"


def commitment_text(
    nonce: str, seed: int, number: int, pot_size: int, holders: list[tuple[str, list[int]]]
) -> str:
    """The text whose SHA-256 is the commitment: JSON with sorted keys and no spaces,
    ``{"holders": [[name, [cards…]], …], "nonce": …, "pot_size": …, "round": …,
    "seed": …, "v": "bummerl-draw-1"}`` (UTF-8, names as typed)."""
    data = {
        "v": VERSION,
        "nonce": nonce,
        "seed": seed,
        "round": number,
        "pot_size": pot_size,
        "holders": [[name, list(cards)] for name, cards in holders],
    }
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def commit(
    nonce: str, seed: int, number: int, pot_size: int, holders: list[tuple[str, list[int]]]
) -> str:
    """The commitment (64 hex digits) of a digital draw (RULES.md 5.12)."""
    text = commitment_text(nonce, seed, number, pot_size, holders)
    return hashlib.sha256(text.encode()).hexdigest()


def format_commitment_text(
    nonce: str,
    seed: int,
    kind: str,
    number: int,
    entries: list[tuple[str, int, int, int | None]],
    avoid_repeat: bool,
) -> str:
    """The text whose SHA-256 commits a Leben or points draw: JSON with sorted keys and
    no spaces, ``{"avoid_repeat": …, "entries": [[name, card, byes, last], …],
    "format": "leben"|"points", "nonce": …, "round": …, "seed": …, "v": …}``."""
    data = {
        "v": VERSION,
        "format": kind,
        "nonce": nonce,
        "seed": seed,
        "round": number,
        "entries": [list(e) for e in entries],
        "avoid_repeat": avoid_repeat,
    }
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def commit_format(nonce: str, seed: int, kind: str, number: int, entries, avoid_repeat) -> str:
    """The commitment (64 hex digits) of a Leben or points draw (RULES.md 5.12)."""
    text = format_commitment_text(nonce, seed, kind, number, entries, avoid_repeat)
    return hashlib.sha256(text.encode()).hexdigest()


def pair_format(kind, number, entries, byes, last, avoid_repeat, seed):
    """(pairs, bye) of a Leben (``leben.pair_round``) or points round
    (``danish.pair_round``) from its inputs (see ``formats.DrawPlan``)."""
    if kind == "leben":
        return leben.pair_round(entries, byes, seed)
    return danish.pair_round(
        entries, byes, seed, first=number == 1, last_opponent=last, avoid_repeat=avoid_repeat
    )


@dataclass
class Check:
    """The check of one draw: ``what`` ("round", "lot", "placement": the "5-8" draw),
    ``number`` (the round, the first place of the lot's range, or 5), ``digital`` (seeded), ``commitment`` (True: it
    matches; False: not; None: the draw has none, a draw at the venue or an older
    draw), ``replay`` (True: the replay gives the pulls and pairings the export shows)
    and ``problems`` (English, naming the first difference)."""

    what: str
    number: int
    digital: bool
    commitment: bool | None = None
    replay: bool = True
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.replay and self.commitment is not False


def _holders(listed: list[dict]) -> tuple[list[draw.Holder], dict[int, str], dict[int, int]]:
    """Holders with ids standing in for the export's players and cards: ids ascend in
    the listed order, so ``draw.canonical`` keeps that order."""
    holders, names, numbers = [], {}, {}
    card_id = 0
    for player_id, entry in enumerate(listed, start=1):
        names[player_id] = entry["player"]
        ids = []
        for number in entry["cards"]:
            card_id += 1
            numbers[card_id] = number
            ids.append(card_id)
        holders.append(draw.Holder(player_id, tuple(ids)))
    return holders, names, numbers


def _compare(check: Check, result: draw.Draw, names, numbers, round_: dict) -> None:
    pulls = [
        {
            "player": names[p.player],
            "card": numbers[p.card],
            "pot": str(p.pot),
            "number": p.number,
            "put_back": p.put_back,
        }
        for p in result.pulls
    ]
    shown = [
        {k: p[k] for k in ("player", "card", "pot", "number", "put_back")} for p in round_["pulls"]
    ]
    if pulls != shown:
        at = next(
            (i for i, (a, b) in enumerate(zip(pulls, shown, strict=False)) if a != b),
            min(len(pulls), len(shown)),
        )
        check.replay = False
        check.problems.append(f"pull {at + 1} differs from the replay")
    by_number = {p["number"]: p for p in round_["pairings"]}
    for pairing in result.pairings:
        got = by_number.get(pairing.number)
        left = numbers[pairing.left] if pairing.left is not None else None
        right = numbers[pairing.right] if pairing.right is not None else None
        kind = got and ("match" if got.get("withdrawn") else got["kind"])
        if (
            got is None
            or (got["left"] or {}).get("card") != left
            or (got["right"] or {}).get("card") != right
            or kind != str(pairing.kind)
        ):
            check.replay = False
            check.problems.append(f"pairing {pairing.number} differs from the replay")
            break
    if len(by_number) != len(result.pairings):
        check.replay = False
        check.problems.append("the number of pairings differs from the replay")


def check_round(round_: dict) -> Check:
    """Replay one round of an export (``rounds[i]``) and check its commitment."""
    digital = round_.get("seed") is not None
    check = Check("round", round_["number"], digital)
    try:
        if digital:
            holders, names, numbers = _holders(round_.get("holders") or [])
            if round_.get("commitment"):
                pairs = [(names[h.player], [numbers[c] for c in h.cards]) for h in holders]
                sealed = commit(
                    round_["nonce"], round_["seed"], round_["number"], round_["pot_size"], pairs
                )
                check.commitment = sealed == round_["commitment"]
                if not check.commitment:
                    check.problems.append("the commitment does not match the seed and inputs")
            result = draw.digital_draw(
                holders, round_["pot_size"], round_["seed"], later_round=round_["number"] > 1
            )
        else:
            names, numbers = {}, {}
            players: dict[str, int] = {}  # a player's name -> his number in the replay
            cards: dict[int, int] = {}  # a card's number -> its number in the replay
            for p in round_["pulls"]:
                player = players.setdefault(p["player"], len(players) + 1)
                names[player] = p["player"]
                card = cards.setdefault(p["card"], len(cards) + 1)
                numbers[card] = p["card"]
            pulls = [
                draw.Pull(
                    players[p["player"]],
                    cards[p["card"]],
                    draw.Pot(p["pot"]),
                    p["number"],
                    p["put_back"],
                )
                for p in round_["pulls"]
            ]
            result = draw.replay(
                draw.order_from_pulls(pulls), round_["pot_size"], [p.number for p in pulls]
            )
    except RuleError as error:
        check.replay = False
        check.problems.append(str(error))
        return check
    except (KeyError, TypeError, ValueError) as error:
        check.replay = False
        check.problems.append(f"the round cannot be read: {error!r}")
        return check
    _compare(check, result, names, numbers, round_)
    return check


def check_format_round(round_: dict, kind: str, avoid_repeat: bool) -> Check:
    """Replay one round of a Leben or points export from its ``entries`` and seed, and
    check its commitment. A round without a seed (drawn before seeds were kept) has
    nothing to replay."""
    digital = round_.get("seed") is not None
    check = Check("round", round_["number"], digital)
    if not digital:
        return check
    try:
        listed = [(e["player"], e["card"], e["byes"], e["last"]) for e in round_["entries"]]
        ids = {card: i for i, (_name, card, _byes, _last) in enumerate(listed, start=1)}
        cards = {i: card for card, i in ids.items()}
        byes = {ids[card]: n for _name, card, n, _last in listed if n}
        last = {ids[card]: ids[other] for _n, card, _b, other in listed if other in ids}
        if round_.get("commitment"):
            sealed = commit_format(
                round_["nonce"], round_["seed"], kind, round_["number"], listed, avoid_repeat
            )
            check.commitment = sealed == round_["commitment"]
            if not check.commitment:
                check.problems.append("the commitment does not match the seed and inputs")
        pairs, bye = pair_format(
            kind, round_["number"], list(ids.values()), byes, last, avoid_repeat, round_["seed"]
        )
    except (KeyError, TypeError, ValueError) as error:
        check.replay = False
        check.problems.append(f"the round cannot be read: {error!r}")
        return check
    drawn = [("match", cards[a], cards[b]) for a, b in pairs]
    drawn += [("bye", cards[bye], None)] if bye is not None else []
    shown = [
        (
            "match" if p.get("withdrawn") else p["kind"],
            (p["left"] or {}).get("card"),
            (p["right"] or {}).get("card"),
        )
        for p in round_["pairings"]
    ]
    if drawn != shown:
        at = next(
            (i for i, (a, b) in enumerate(zip(drawn, shown, strict=False)) if a != b),
            min(len(drawn), len(shown)),
        )
        check.replay = False
        check.problems.append(f"pairing {at + 1} differs from the replay")
    return check


def check_lot(tie: dict) -> Check:
    """Replay a range ordered by lot (``ties[i]`` of an export, kind ``lot``)."""
    check = Check("lot", tie["first"], True)
    if lot_order(sorted(tie["order"]), tie["seed"]) != tie["order"]:
        check.replay = False
        check.problems.append("the order differs from the lots drawn with its seed")
    return check


def check_placement(document: dict) -> list[Check]:
    """Replay the "5-8" placement draw of an export (RULES.md 5.5), if it has one: the
    quarter-final losers of its two pairings, paired again with the seed kept
    (``draw.placement_pairs``; card numbers stand in for the card ids, which ascend with
    them, and players by name)."""
    drawn = sorted(
        (p for p in document.get("placement", []) if p.get("label") == "5-8"),
        key=lambda p: p["number"],
    )
    if not drawn:
        return []
    check = Check("placement", 5, True)
    seeds = {p.get("seed") for p in drawn}
    if len(seeds) != 1 or None in seeds:
        check.replay = False
        check.problems.append("no seed kept for this draw (made before seeds were kept)")
        return [check]
    owners: dict[int, Any] = {}  # card -> player, as the export has them
    shown = []
    for p in drawn:
        pair = []
        for side in ("left", "right"):
            card = p.get(side) or {}
            if card.get("card") is not None:
                owners[card["card"]] = card.get("player")
            pair.append(card.get("card"))
        shown.append(tuple(pair))
    try:
        replayed = draw.placement_pairs(sorted(owners), seeds.pop(), owners=owners)
    except ValueError as error:
        check.replay = False
        check.problems.append(str(error))
        return [check]
    if [tuple(pair) for pair in replayed] != shown:
        check.replay = False
        check.problems.append(f"the pairs {shown} differ from the replay {list(replayed)}")
    return [check]


def check_export(document: dict) -> list[Check]:
    """Every draw of an export checked (RULES.md 5.12): its rounds, the "5-8" placement
    draw, then its lots."""
    kind = document.get("format", "cards")
    if kind != "cards":
        repeat = bool(document.get("avoid_repeat"))
        checks = [check_format_round(r, kind, repeat) for r in document.get("rounds", [])]
    else:
        checks = [check_round(r) for r in document.get("rounds", [])]
    checks += check_placement(document)
    checks += [check_lot(t) for t in document.get("ties", []) if t.get("kind") == "lot"]
    return checks
