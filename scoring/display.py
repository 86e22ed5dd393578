"""Words and rows for showing a sheet: presentation only, no rule is decided here."""

from dataclasses import dataclass

from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from clubs import audit
from clubs.audit import Reads
from scoring import rules as core
from scoring.forms import OPTION_CHOICES, OPTION_LABELS
from scoring.models import ENTRY_TYPES
from scoring.rules import bauern, dreier


def is_bauern(players) -> bool:
    """Whether a sheet of these seats is Bauernschnapsen (the only game of four seats)."""
    return len(players) == core.Variant.BAUERNSCHNAPSEN.seats


def contract_buttons(rules: core.RuleSet, rufer: int, seats: int) -> list[dict]:
    """The enabled contracts, each with the seats that may not declare it (for the
    buttons the form hides once a declarer is chosen) and whether the declarer's
    partner sits it out (Bauernschnapsen); the rule core decides who may."""
    may_declare = bauern.may_declare if seats == bauern.SEATS else dreier.may_declare
    return [
        {
            "contract": contract,
            "hidden_for": [
                seat
                for seat in range(seats)
                if not may_declare(core.DreierDeal(contract.code, seat, True), rufer, rules)
            ],
            "alone": seats == bauern.SEATS
            and bauern.sits_out(core.DreierDeal(contract.code, 0, True), rules) is not None,
        }
        for contract in rules.contracts
    ]


END_TEXT = {
    "ausmelden": gettext_noop("%(by)s melded out"),
    "last_trick": gettext_noop("%(by)s took the last trick"),
    "closed_won": gettext_noop("%(by)s closed and made it"),
    "closed_failed": gettext_noop("%(by)s closed and failed"),
    "false_claim": gettext_noop("%(by)s claimed 66 falsely"),
    "renonce": gettext_noop("%(by)s revoked"),
}


def describe_entry(entry, players, rules: core.RuleSet) -> str:
    """One line of text for an entry, e.g. "Gang ×2 · Ben · won"."""
    names = [p.name for p in players]
    if isinstance(entry, core.Redeal):
        return _("Redealt")
    if isinstance(entry, core.TieBreak):
        return _("Tie-break won by %(name)s") % {"name": names[entry.winner]}
    if isinstance(entry, core.QuickDeal):
        return _("%(name)s wins %(points)s") % {"name": names[entry.winner], "points": entry.points}
    if isinstance(entry, core.EndedDeal):
        return _(END_TEXT[str(entry.end)]) % {"by": names[entry.by]}
    try:
        contract = rules.contract(entry.contract).name
    except core.RuleError:
        contract = entry.contract
    if entry.normal_points:
        contract = f"{contract} {entry.normal_points}"
    if entry.spritzen:
        contract = f"{contract} ×{2**entry.spritzen}"
    outcome = _("won") if entry.won else _("lost")
    text = f"{contract} · {names[entry.declarer]} · {outcome}"
    out = bauern.sits_out(entry, rules) if is_bauern(names) else None
    if out is not None:
        text += " · " + _("%(name)s sits out") % {"name": names[out]}
    return text


@dataclass(frozen=True)
class Row:
    """A line of the deal list: a live deal with its ``line`` and ``number``, a voided
    deal (``line`` None), or the result of a game after the deal that decided it."""

    deal: object | None
    text: str
    line: core.Line | None = None
    number: int | None = None
    game: core.Game | None = None
    game_number: int | None = None
    final: tuple[int, ...] = ()

    @property
    def points_text(self) -> str:
        """``"+2 / · / ·"``: what the deal gave each seat."""
        return " / ".join(f"+{p}" if p else "·" for p in self.line.points) if self.line else ""

    @property
    def final_text(self) -> str:
        """``"18 · 24 · 12"``: the totals a game ended with, in the reading of the
        sheet's big numbers (``SheetState.shown``: two players ``"0 · 1"``, points left)."""
        return " · ".join(str(p) for p in self.final) if self.game else ""


def radio_options(form, name: str, choices, default=None, classes=None) -> list[dict]:
    """The options of one button group, each with ``checked`` worked out once: the
    submitted value when the form comes back with errors, else ``default``."""
    value = form[name].value()
    chosen = str(default) if value in (None, "") else str(value)
    return [
        {
            "value": str(key),
            "label": label,
            "checked": str(key) == chosen,
            "classes": (classes or {}).get(str(key), ""),
        }
        for key, label in choices
    ]


def gains_text(points, players) -> str:
    """What a deal gave, e.g. "Anna 2 Punkte" ("Ben 4 Punkte, Clara 4 Punkte" when it
    gave two seats): ``points`` one value per seat, as ``core.Line.points``."""
    return ", ".join(
        ngettext("%(name)s %(n)s point", "%(name)s %(n)s points", p) % {"name": player.name, "n": p}
        for player, p in zip(players, points, strict=True)
        if p
    )


def saved_gains(scored, saved) -> str:
    """``gains_text`` of the live deal row ``saved`` on ``scored``; "" when it gave
    nothing (a redeal) or is not live."""
    live = scored.live_deals
    if saved is None or saved not in live:
        return ""
    return gains_text(scored.state.lines[live.index(saved)].points, scored.players)


RESULT_TEXT = {
    "bummerl": gettext_noop("%(loser)s gets a Bummerl"),
    "schneider": gettext_noop("%(loser)s is Schneider: %(count)s Bummerl"),
    "retourschneider": gettext_noop("Retourschneider: %(loser)s get %(count)s Bummerl each"),
}
TEAM_RESULT_TEXT = {
    "bummerl": gettext_noop("%(loser)s get a Bummerl each"),
    "schneider": gettext_noop("%(loser)s are Schneider: %(count)s Bummerl each"),
    "retourschneider": RESULT_TEXT["retourschneider"],
}
"""Bauernschnapsen: a team loses, and each of its two players gets its Bummerl."""


def game_end(scored, saved) -> dict | None:
    """What the sheet announces after ``saved`` (a stored deal) when that deal ended a
    game (RULES.md 3.3 and 2): ``{"number", "text", "final"}``, e.g. number 2,
    "Ben is Schneider: 2 Bummerl", final "24 · 0 · 30" (totals as the sheet shows them:
    points left for two players); or when it left a tie for the
    loser's place: ``{"tie": (seat, seat), "dealer": seat}``. None otherwise."""
    if saved is None or saved.voided_at is not None:
        return None
    live = [d.pk for d in scored.live_deals]
    if saved.pk not in live:
        return None
    index = scored.first + live.index(saved.pk)
    state = scored.state
    for number, game in enumerate(state.games, 1):
        if game.decided_at == index:
            return {
                "number": number,
                "text": game_text(game, scored.players),
                "final": " · ".join(str(p) for p in state.shown(game.final)),
            }
    if state.awaiting_tiebreak and index == scored.first + len(live) - 1:
        return {"tie": state.awaiting_tiebreak, "dealer": tiebreak_dealer(state)}
    return None


def tiebreak_dealer(state) -> int | None:
    """The seat that deals the due tie-break deal: the third player, not in the tie
    (RULES.md 3.3); None when no tie-break is due."""
    if not state.awaiting_tiebreak:
        return None
    return next(s for s in range(len(state.totals)) if s not in state.awaiting_tiebreak)


def game_text(game: core.Game, players) -> str:
    losers = " & ".join(players[s].name for s in game.losers)
    count = max(game.bummerl)
    texts = TEAM_RESULT_TEXT if is_bauern(players) else RESULT_TEXT
    return _(texts[str(game.result)]) % {"loser": losers, "count": count}


def sheet_rows(scored) -> list[Row]:
    """Deal rows in play order, voided ones in place, a result row after each game.
    Of a recent part (``reading.ScoredSheet.first``), the games finished before it
    come first, one result row each."""
    players, rules = scored.players, scored.state.rules
    lines = iter(scored.state.lines)
    games = {g.decided_at: (i, g) for i, g in enumerate(scored.state.games)}
    rows: list[Row] = []
    number = scored.first
    for index, game in enumerate(scored.state.games):
        if game.decided_at < number:
            rows.append(_game_row(scored, index, game))
    for deal in scored.deals:
        text = describe_entry(deal.entry, players, rules)
        if deal.voided_at is not None:
            rows.append(Row(deal, text))
            continue
        line = next(lines)
        rows.append(Row(deal, text, line, number + 1))
        if number in games:
            rows.append(_game_row(scored, *games[number]))
        number += 1
    return rows


def _game_row(scored, index: int, game: core.Game) -> Row:
    text = game_text(game, scored.players)
    final = scored.state.shown(game.final)
    return Row(None, text, game=game, game_number=index + 1, final=final)


def describe_change(scored):
    """The ``describe`` of the sheet's history page (``clubs.audit.history_rows``): a
    stored deal as its line, e.g. "Spiel 3: Bettler · Ben · gewonnen (Ben +4)"; an
    import as its players and number of deals. None for values of another shape."""
    names = [p.name for p in scored.players]

    def describe(action: str, value) -> str | None:
        try:
            if audit.reads(action) == Reads.IMPORT:
                return _("Players: %(players)s · deals: %(count)s") % {
                    "players": ", ".join(value["players"]),
                    "count": len(value.get("deals", [])),
                }
            entry = ENTRY_TYPES[value["kind"]](**value["inputs"])
            text = _("Deal %(number)s: %(text)s") % {
                "number": value["position"],
                "text": describe_entry(entry, scored.players, scored.state.rules),
            }
        except (KeyError, TypeError, IndexError, ValueError, core.RuleError):
            return None
        gains = [
            f"{name} +{p}" for name, p in zip(names, value.get("points") or [], strict=False) if p
        ]
        return f"{text} ({', '.join(gains)})" if gains else text

    return describe


CONTRACT_HINTS = {
    "assenbettler": gettext_noop("holds an Ass"),
    "ass_bettler": gettext_noop("no Ass needed"),
}
"""A short hint under contracts that are easily mistaken for each other (RULES.md 3.1:
the Assenbettler is declared by a player holding an Ass, the Ass-Bettler by anyone)."""


def contract_label(contract) -> str:
    """A contract button's text: name, base value and, where it helps, a hint."""
    hint = CONTRACT_HINTS.get(contract.code)
    if contract.base is None:
        return contract.name
    if hint:
        return format_html(
            '{} <small>{}</small> <em class="hint-line">{}</em>',
            contract.name,
            contract.base,
            _(hint),
        )
    return format_html("{} <small>{}</small>", contract.name, contract.base)


def entry_options(form, players, rules, rufer) -> dict:
    """The button groups of the entry form, checked states worked out once.

    ``contract`` are the common contracts (``RuleSet.common``, shown first) and
    ``more_contracts`` the others (behind a disclosure, open when one of them is
    checked: ``more_open``)."""
    seats = [(i, p.name) for i, p in enumerate(players)]
    hidden = {
        item["contract"].code: " ".join(
            [f"no-{seat}" for seat in item["hidden_for"]]
            + (["alone"] if item["alone"] else [])
            + (["unspritzable"] if item["contract"].code in rules.not_spritzable else [])
        )
        for item in contract_buttons(rules, rufer, len(players))
    }
    common = {c.code for c in rules.common}
    contracts = [(c.code, contract_label(c)) for c in rules.contracts]
    options = radio_options(form, "contract", contracts, default="normal", classes=hidden)
    first = [o for o in options if o["value"] in common]
    more = [o for o in options if o["value"] not in common]
    return {
        "declarer": [
            {**o, "rufer": o["value"] == str(rufer)}
            for o in radio_options(form, "declarer", seats, default=rufer)
        ],
        # Bauernschnapsen: who sits out when each seat declares a contract played alone.
        "sits_out": [
            {
                "seat": seat,
                "text": _("%(name)s sits out") % {"name": players[bauern.partner(seat)].name},
            }
            for seat in range(len(players))
        ]
        if is_bauern(players)
        else [],
        "contract": first,
        "more_contracts": more,
        "more_open": any(o["checked"] for o in more),
        "normal_points": radio_options(form, "normal_points", [(n, n) for n in (1, 2, 3)]),
        # Only the levels the rule set allows (``spritzen_levels``; Bauernschnapsen: ×2).
        "spritzen": radio_options(
            form,
            "spritzen",
            [c for c in form.fields["spritzen"].choices if int(c[0]) <= rules.spritzen_levels],
            default=0,
        ),
        "points": radio_options(form, "points", [(n, n) for n in (1, 2, 3)]),
        "by": radio_options(form, "by", seats),
        "other_had_trick": radio_options(form, "other_had_trick", [(1, _("yes")), (0, _("no"))]),
        # How a two-player deal ended: melding out, the most frequent end, is preset.
        "end": radio_options(form, "end", form.fields["end"].choices, default="ausmelden"),
    }


TWO_PLAYER_OPTIONS = ("announcements_need_trick", "closing_counts_at", "false_claim")
"""The options of a rule set that change a two-player deal; ``schneider_counts`` and
``partie_bummerl`` are left out, since a tournament sets them for its matches."""


def option_words(rules: core.RuleSet, keys=TWO_PLAYER_OPTIONS) -> list[tuple[str, str]]:
    """``(label, value)`` in words, translated, for each option of ``keys`` in ``rules``,
    in the words the rule-set form uses (``scoring.forms.OPTION_LABELS`` and
    ``OPTION_CHOICES``): e.g. ("A false Ausmelden gives the opponent", "2, or 3 if he had
    no trick"); a yes/no option reads "yes" or "no", a number as itself."""
    words = []
    for key in keys:
        value = rules.options.get(key)
        if isinstance(value, bool):
            text = _("yes") if value else _("no")
        else:
            text = str(dict(OPTION_CHOICES.get(key, ())).get(str(value), value))
        words.append((str(OPTION_LABELS.get(key, key)), text))
    return words
