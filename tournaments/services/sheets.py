"""The bridge to score sheets: a match played on a score sheet (``open_match_sheet``;
its result follows the sheet through ``results.follow_match_sheet``) and the locks a
tournament puts on such sheets.

This is the one tournaments module that imports ``scoring.services``; the writers take
``Actor`` and ``key_reused`` from here.
"""

from django.core.exceptions import ImproperlyConfigured
from django.db import transaction
from django.utils import timezone

from base.errors import RuleError, gettext_noop
from clubs import audit
from clubs.audit import Action
from scoring import services as scoring
from scoring import upkeep
from scoring.models import RuleSet, Sheet
from scoring.services import Actor, key_reused
from tournaments.models import Kind, Pairing, Result, Round, Stage
from tournaments.rows import pairing_name
from tournaments.services.reading import locked, refuse_walkover
from tournaments.services.result_texts import RESULT_STANDS, result_params, result_source

__all__ = [  # Actor and key_reused are scoring's, passed on to the writers
    "SHEET_REMADE",
    "SHEET_UNDONE",
    "SHEET_WITHDRAWN",
    "Actor",
    "check_match_rule_set",
    "key_reused",
    "lock_for_result",
    "lock_sheet",
    "lock_sheets_first",
    "match_rule_set",
    "open_match_sheet",
    "unlock_sheet",
]


SHEET_UNDONE = gettext_noop(
    "This draw was undone: the match no longer exists and this sheet takes no more deals."
)
SHEET_REMADE = gettext_noop(
    "This placement match was made again (a result it came from changed): "
    "this sheet takes no more deals."
)
SHEET_WITHDRAWN = gettext_noop(
    "%(name)s (card %(card)s) was withdrawn: the match is a walkover, "
    "this sheet takes no more deals."
)


MATCH_PRESET = "wiki"
"""The preset a night's match sheets are opened with when it names no rule set."""

MATCH_REFUSED_PRESET = "bauern"
"""The preset of Bauernschnapsen (four players in two teams): neither it nor a club's
copy of it (a copy keeps the preset it came from) scores a two-player match."""


def check_match_rule_set(club, rule_set: RuleSet | None) -> None:
    """Whether ``rule_set`` may score the matches of a night of ``club``: None (the
    preset), a preset or one of the club's own rule sets, of two-player Schnapsen.
    RuleError on ``rule_set`` for another club's rule set or one of Bauernschnapsen."""
    if rule_set is None:
        return
    if rule_set.club_id is not None and rule_set.club_id != getattr(club, "pk", club):
        raise RuleError("rule_set", gettext_noop("Choose a preset or one of the club's rule sets."))
    if rule_set.preset == MATCH_REFUSED_PRESET:
        raise RuleError(
            "rule_set",
            gettext_noop(
                "The matches of a night are two-player Schnapsen: %(name)s is a rule set "
                "of Bauernschnapsen. Choose Standard, Spielregeln or a copy of one of them."
            ),
            name=str(rule_set),
        )


def match_rule_set(tournament) -> RuleSet | None:
    """The rule set a night's match sheets are opened with: ``tournament.rule_set``, else
    the preset ``MATCH_PRESET`` (None on a site whose presets are not seeded). One query
    at most."""
    if tournament.rule_set_id is not None:
        return tournament.rule_set
    return RuleSet.objects.filter(club__isnull=True, preset=MATCH_PRESET).first()


def lock_sheets_first(pairings) -> None:
    """Take the row locks of the score sheets of ``pairings`` (a Pairing queryset) before
    the tournament's. A write on a match's sheet locks the sheet, then (reporting its
    result) the tournament; a change here that locks or unlocks such sheets takes them in
    the same order, so the two never wait on each other (PostgreSQL would find a
    deadlock). SQLite's IMMEDIATE transactions serialise all writers anyway."""
    ids = sorted(pairings.exclude(sheet=None).values_list("sheet_id", flat=True))
    if ids:
        list(
            Sheet.objects.select_for_update(no_key=True)
            .filter(pk__in=ids)
            .order_by("pk")
            .values("pk")
        )


def lock_sheet(sheet_id: int | None, kind: str, template: str, **params) -> None:
    """Lock a match's score sheet (``Sheet.write_refusal`` reads it): kind ``result``
    while its result stands, ``closed`` when the match is gone."""
    if sheet_id is not None:
        Sheet.objects.filter(pk=sheet_id).update(
            locked_at=timezone.now(),
            lock={"kind": kind, "template": template, "params": params},
        )


def unlock_sheet(sheet_id: int | None) -> None:
    if sheet_id is not None:
        Sheet.objects.filter(pk=sheet_id).update(locked_at=None, lock={})


def lock_for_result(pairing: Pairing, result: Result) -> None:
    if pairing.sheet_id is not None:
        lock_sheet(
            pairing.sheet_id,
            "result",
            RESULT_STANDS[result_source(result)],
            **result_params(result),
        )


def open_match_sheet(pairing: Pairing, actor: Actor):
    """The two-player score sheet of a match (made once), of the night's rule set
    (``match_rule_set``) with the tournament's Partie length,
    a Schneider counting ``schneider_counts`` (one for cards, RULES.md 5.3; a points
    event's setting, RULES.md 6); a match of a fixed number of Bummerl has none. When its Partie is decided, the sheet
    records the match result by itself (``results.follow_match_sheet``). Refused (RuleError on
    ``pairing``) for a bye or walkover, a withdrawal's walkover, and a match whose result
    stands already (the message names it)."""
    with transaction.atomic():
        t = locked(pairing.tournament)
        pairing = Pairing.objects.select_related("left__player", "right__player").get(pk=pairing.pk)
        if pairing.sheet_id is not None:
            return pairing.sheet
        if pairing.kind != Kind.MATCH:
            raise RuleError("pairing", gettext_noop("A bye or walkover has no result."))
        pairing.round = (
            Round.objects.filter(pk=pairing.round_id).first()
            if pairing.round_id is not None
            else None
        )
        live = Result.objects.live_for(pairing)
        if live is not None:  # a result entered meanwhile: no sheet to change it
            raise RuleError("pairing", RESULT_STANDS[result_source(live)], **result_params(live))
        refuse_walkover(pairing)
        if t.match_games:
            raise RuleError(
                "pairing",
                gettext_noop(
                    "A match of %(n)s Bummerl has no score sheet: enter its result "
                    "at the desk or with the players' links."
                ),
                n=t.match_games,
            )
        rule_set = match_rule_set(t)
        if rule_set is None:
            raise ImproperlyConfigured(f"no rule set {MATCH_PRESET!r}: run manage.py seed")
        rules = rule_set.rules.with_changes(
            options={"schneider_counts": t.schneider_counts, "partie_bummerl": t.match_bummerl}
        )
        left, right = pairing.left, pairing.right
        assert left is not None and right is not None  # a match has both its cards
        sheet = upkeep.open_sheet(
            t.club,
            "schnapsen",
            [left.player, right.player],
            rule_set,
            title=f"{t.name} · {pairing_name(pairing)}",
            actor=scoring.Actor(actor.user),
            rules=rules,
        )
        sheet.reports_result = True
        sheet.save(update_fields=["reports_result"])
        pairing.sheet = sheet
        pairing.save(update_fields=["sheet"])
        round_ = pairing.round if pairing.stage == Stage.MAIN else None
        audit.record(
            t.club_id,
            "tournament",
            t.pk,
            Action.MATCH_SHEET_OPENED,
            actor=actor,
            before=None,
            after={
                "pairing": pairing.label or pairing.number,
                "round": round_.number if round_ is not None else None,
                "sheet": sheet.pk,
            },
        )
        return sheet
