"""The writers of a table as a whole, beside the writers of its deals
(``scoring.services``): opening it, its title, its private link, the club's archive,
and the next Partie of a two-player series. Each runs in one transaction and is kept in the history.
"""

import uuid

from django.db import IntegrityError, transaction
from django.utils import timezone

from base import push
from base.errors import RuleError, gettext_noop, key_reused
from clubs import audit
from clubs.audit import Action, Actor
from clubs.models import Archived, Club, Player
from scoring import rules as core
from scoring.changes import topic
from scoring.models import RuleSet, Seat, Sheet, new_token
from scoring.reading import live_rows, load_players, score
from scoring.services import lock_for, locked_sheet


def revoke_link(sheet: Sheet, actor: Actor) -> None:
    """Stop the table's private link from working; kept in the sheet's history (without
    the link: the history is shown to every member)."""
    with transaction.atomic():
        revoked = Sheet.objects.filter(pk=sheet.pk, token_revoked_at__isnull=True).update(
            token_revoked_at=timezone.now()
        )
        if revoked:
            audit.record(sheet.club_id, "sheet", sheet.pk, Action.LINK_REVOKED, actor=actor)
            push.announce(topic(sheet.pk))  # a phone held on the link gets its 404 now


def renew_link(sheet: Sheet, actor: Actor) -> None:
    """Give the table a new private link (the old one stops working); kept in the
    sheet's history, without the link."""
    with transaction.atomic():
        Sheet.objects.filter(pk=sheet.pk).update(entry_token=new_token(), token_revoked_at=None)
        audit.record(sheet.club_id, "sheet", sheet.pk, Action.LINK_RENEWED, actor=actor)
        push.announce(topic(sheet.pk))


# -- a series of Partien at one table (two players) -----------------------------------


def open_sheet(
    club: Club,
    variant: str,
    players: list[Player],
    rule_set: RuleSet,
    first_dealer: int = 0,
    title: str = "",
    actor: Actor | None = None,
    rules: core.RuleSet | None = None,
    key: uuid.UUID | None = None,
) -> Sheet:
    """Open a table: ``players`` in clockwise seating order, the seat that deals first.

    The rule set is copied into the sheet (``rules``, when given, are copied instead:
    a tournament match plays its own Partie length). RuleError on ``players`` (wrong count, twice,
    of another club) or ``first_dealer``.
    """
    seats = core.Variant(variant).seats
    if len(players) != seats or len({p.pk for p in players}) != seats:
        raise RuleError("players", gettext_noop("Choose %(count)s different players."), count=seats)
    if any(p.club_id != club.pk for p in players):
        raise RuleError("players", gettext_noop("All players must belong to the club."))
    if first_dealer not in range(seats):
        raise RuleError("first_dealer", gettext_noop("Choose who deals first."))
    rules = rules or rule_set.rules  # checks the stored data before a sheet depends on it
    if key is not None:
        earlier = _opened_with(key, club, variant, players, rule_set, first_dealer, title)
        if earlier is not None:
            return earlier  # the same form sent again
    try:
        with transaction.atomic():
            sheet = Sheet.objects.create(
                key=key,
                club=club,
                title=title.strip(),
                variant=variant,
                rule_set=rule_set,
                rules=rules.to_dict(),
                first_dealer=first_dealer,
                created_by=(actor.user if actor else None),
            )
            Seat.objects.bulk_create(
                Seat(sheet=sheet, player=p, position=i) for i, p in enumerate(players)
            )
            audit.record(
                club.pk,
                "sheet",
                sheet.pk,
                Action.SHEET_OPENED,
                actor=actor or audit.SYSTEM,
                after={
                    "players": [p.name for p in players],
                    "rule_set": rule_set.name,
                },
            )
    except IntegrityError:
        # A second tap committed the same key between our read and insert.
        earlier = _opened_with(key, club, variant, players, rule_set, first_dealer, title)
        if earlier is None:
            raise
        return earlier
    return sheet


def _opened_with(key, club, variant, players, rule_set, first_dealer, title) -> Sheet | None:
    """The sheet a one-time ``key`` opened, if it opened this one; RuleError on ``key``
    when it opened another."""
    earlier = Sheet.objects.filter(key=key).first() if key is not None else None
    if earlier is None:
        return None
    seats = [p.pk for p in load_players(earlier)]
    same = (earlier.club_id, earlier.variant, seats, earlier.rule_set_id) == (
        club.pk,
        str(variant),
        [p.pk for p in players],
        rule_set.pk,
    ) and (earlier.first_dealer, earlier.title) == (first_dealer, title.strip())
    if not same:
        raise key_reused()
    return earlier


def open_next_partie(sheet: Sheet, key: uuid.UUID, actor: Actor) -> Sheet:
    """Open the next Partie of a two-player table once ``sheet``'s Partie is decided
    (RULES.md 2, *Partie*): a new sheet on the same seats, with the same copy of the
    rules, linked to ``sheet`` (``previous``) and to the first sheet of the series.

    The first dealer of the new Partie is the player who would deal next on ``sheet``:
    RULES.md says dealer and Vorhand alternate every deal and is silent on a new
    Partie; the sources draw the first dealer once and then alternate, so the
    alternation simply goes on across the Partien.

    A sheet has at most one next Partie: a second request (a double tap, the same
    ``key``, or the other phone at the table with its own key) returns the sheet the
    first one opened. RuleError on ``key`` when the key opened another sheet, on
    ``sheet`` when the sheet takes no writes (a lock), is a tournament match (one
    Partie only) or its Partie is not decided yet.
    """
    with transaction.atomic():
        sheet, deals = lock_for(sheet, actor)
        earlier = Sheet.objects.filter(key=key).first()
        if earlier is not None and earlier.previous_id != sheet.pk:
            raise key_reused()
        following = Sheet.objects.filter(previous=sheet).first()
        if following is not None:
            return following  # opened already, by this tap or another phone's
        if sheet.reports_result:
            raise RuleError("sheet", gettext_noop("A tournament match is a single Partie."))
        state = score(sheet, [d.entry for d in live_rows(deals)])
        if state.partie_winner is None:
            raise RuleError("sheet", gettext_noop("The Partie is not decided yet."))
        following = Sheet.objects.create(
            key=key,
            club_id=sheet.club_id,
            title=sheet.title,
            variant=sheet.variant,
            rule_set_id=sheet.rule_set_id,
            rules=sheet.rules,
            first_dealer=state.dealer,
            created_by=actor.user,
            previous=sheet,
            series_id=sheet.series_id or sheet.pk,
        )
        seats = Seat.objects.filter(sheet=sheet).order_by("position")
        Seat.objects.bulk_create(
            Seat(sheet=following, player_id=s.player_id, position=s.position) for s in seats
        )
        audit.record(
            following.club_id,
            "sheet",
            following.pk,
            Action.PARTIE_OPENED,
            actor=actor,
            after={"previous": sheet.pk},
        )
        return following


# -- A table's name and the club's archive ------------------------------------------------

TITLE_MAX = 100
"""The longest title of a table (``Sheet.title``)."""


def rename_sheet(sheet: Sheet, title: str, actor: Actor) -> Sheet:
    """Give the table ``sheet`` the title ``title`` (whitespace collapsed; empty: the
    table is called by its players' names again). Returns the sheet as saved; the same
    title changes and records nothing. Kept in the club's history (``table renamed``,
    with the table's number). Refused (RuleError on ``title``): more than ``TITLE_MAX``
    characters. Who may rename is the view's check (owners)."""
    title = " ".join(title.split())
    if len(title) > TITLE_MAX:
        raise RuleError("title", gettext_noop("A table's title has at most 100 characters."))
    with transaction.atomic():
        locked = locked_sheet(sheet.pk)
        if locked.title == title:
            return locked
        before = locked.title
        locked.title = title
        locked.save(update_fields=["title"])
        audit.record(
            locked.club_id,
            "club",
            locked.club_id,
            Action.TABLE_RENAMED,
            actor=actor,
            before={"table": locked.pk, "title": before},
            after={"table": locked.pk, "title": title},
        )
    return locked


def archived_ids(club: Club):
    """The ids of ``club``'s archived tables, as a subquery (``Sheet.pk__in``)."""
    return Archived.objects.filter(club=club, scope="sheet").values("scope_id")


def listed_sheets(club: Club):
    """``club``'s tables that its lists show: all but the archived ones (which stay
    readable by their link and count in rankings as before)."""
    return Sheet.objects.filter(club=club).exclude(pk__in=archived_ids(club))


def archived_sheets(club: Club):
    """``club``'s archived tables (``Sheet``'s order: the newest first)."""
    return Sheet.objects.filter(club=club, pk__in=archived_ids(club))


def archive_sheet(sheet: Sheet, actor: Actor) -> bool:
    """Put the table in the club's archive: it leaves the club's lists; its page, its
    private link, its deals and its place in rankings stay. True when it was archived
    now (kept in the club's history, ``table archived``), False when it was already (a
    double tap)."""
    with transaction.atomic():
        locked = locked_sheet(sheet.pk)
        _item, made = Archived.objects.get_or_create(
            scope="sheet",
            scope_id=locked.pk,
            defaults={"club_id": locked.club_id, "archived_by": actor.user},
        )
        if made:
            audit.record(
                locked.club_id,
                "club",
                locked.club_id,
                Action.TABLE_ARCHIVED,
                actor=actor,
                before=None,
                after={"table": locked.pk, "title": locked.title},
            )
    return made


def restore_sheet(sheet: Sheet, actor: Actor) -> bool:
    """Take the table out of the club's archive: the club's lists show it again. True
    when it was restored now (``table restored`` in the club's history), False when it
    was not archived."""
    with transaction.atomic():
        locked = locked_sheet(sheet.pk)
        deleted, _kinds = Archived.objects.filter(scope="sheet", scope_id=locked.pk).delete()
        if deleted:
            audit.record(
                locked.club_id,
                "club",
                locked.club_id,
                Action.TABLE_RESTORED,
                actor=actor,
                before={"table": locked.pk, "title": locked.title},
                after=None,
            )
    return bool(deleted)
