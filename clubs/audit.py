"""The audit trail: ``record`` is called by the services inside their transactions;
``history_rows`` turns entries into the readable rows of the history page.

An action is an ``Action`` (stored as its short English code, ``"deal recorded"``);
``REGISTRY`` gives each its label on the page and how its values read (``Reads``): a new
action is one member and one entry, and ``record`` refuses any other. ``before`` and
``after`` are shown by a ``describe`` function of the page that owns the scope (it knows
the sheet's players or the tournament's cards) for the way the registry names, else
field by field.
"""

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.contrib.auth.models import User
from django.utils.formats import date_format
from django.utils.functional import Promise
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.models import AuditEntry


class Action(StrEnum):
    """Every change the history keeps, by its stored code (``AuditEntry.action``)."""

    # score sheets
    DEAL_RECORDED = "deal recorded"
    DEAL_CORRECTED = "deal corrected"
    DEAL_STRUCK_OUT = "deal struck out"
    DEAL_UNDONE = "deal undone"
    SHEET_IMPORTED = "sheet imported"
    # tournaments
    CARDS_SOLD = "cards sold"
    CARD_PAID = "card paid"
    SALE_CANCELLED = "sale cancelled"
    CARD_WITHDRAWN = "card withdrawn"
    WITHDRAWAL_UNDONE = "withdrawal undone"
    CARDS_LOWERED = "cards lowered"
    TABLES_SET = "tables set"
    ROUND_DRAWN = "round drawn"
    PULL_ENTERED = "pull entered"
    PULL_UNDONE = "pull undone"
    DRAW_UNDONE = "draw undone"
    RESULT_RECORDED = "result recorded"
    RESULT_CORRECTED = "result corrected"
    RESULT_VOIDED = "result voided"
    RESULT_REPORTED = "result reported"
    RESULT_CONFIRMED = "result confirmed"
    REPORT_ACCEPTED = "report accepted"
    SIDE_LINK_REVOKED = "side link revoked"
    SIDE_LINK_RENEWED = "side link renewed"
    RESULT_CHECK_CHANGED = "result check changed"
    LIFE_BOUGHT = "life bought"
    TEAM_SET = "team set"
    # announced nights: registration, waiting list, check-in (issue 28)
    REGISTRATION_SET = "registration set"
    REGISTERED = "registered"
    REGISTRATION_CHANGED = "registration changed"
    REGISTRATION_CANCELLED = "registration cancelled"
    REGISTRATION_MOVED_UP = "registration moved up"
    REGISTRATION_CHECKED_IN = "registration checked in"
    REGISTRATION_NO_SHOW = "registration no-show"
    REGISTRATION_PAID = "registration paid"
    REGISTRATION_TERMS_SET = "registration terms set"
    REGISTRATION_CONFIRMED = "registration confirmed"
    REGISTRATION_REFUSED = "registration refused"
    REGISTRATION_OFFERED = "registration offered"
    OFFER_ACCEPTED = "offer accepted"
    OFFER_DECLINED = "offer declined"
    OFFER_LAPSED = "offer lapsed"
    REGISTRATION_RELEASED = "registration released"
    # players and clubs
    PLAYER_ADDED = "player added"
    PLAYER_RENAMED = "player renamed"
    PLAYERS_MERGED = "players merged"
    CLUB_CREATED = "club created"
    CLUB_PAGE_CHANGED = "club page changed"
    INVITATION_CREATED = "invitation created"
    INVITATION_REVOKED = "invitation revoked"
    INVITATION_ACCEPTED = "invitation accepted"
    ROLE_CHANGED = "role changed"
    MEMBER_REMOVED = "member removed"
    RESET_LINK_ISSUED = "reset link issued"
    RESET_LINK_USED = "reset link used"
    SIGN_IN_UNLOCKED = "sign-in unlocked"
    E_MAIL_CHANGED = "e-mail changed"
    CLUB_RENAMED = "club renamed"
    TABLE_RENAMED = "table renamed"
    TABLE_ARCHIVED = "table archived"
    TABLE_RESTORED = "table restored"
    SHEET_OPENED = "sheet opened"
    PARTIE_OPENED = "partie opened"
    RULE_SET_COPIED = "rule set copied"
    RULE_SET_CHANGED = "rule set changed"
    TOURNAMENT_CREATED = "tournament created"
    DRAW_STARTED = "draw started"
    MATCH_SHEET_OPENED = "match sheet opened"
    LINK_REVOKED = "link revoked"
    LINK_RENEWED = "link renewed"
    SEASON_SAVED = "season saved"
    RANKING_SETTINGS_CHANGED = "ranking settings changed"
    # categories, ranking and consolation (RULES.md 5.8, 5.9, 5.11)
    CATEGORY_ADDED = "category added"
    CATEGORY_MEMBER_ADDED = "category member added"
    CATEGORY_MEMBER_REMOVED = "category member removed"
    STECHEN_RECORDED = "stechen recorded"
    LOTS_DRAWN = "lots drawn"
    CONSOLATION_OPENED = "consolation opened"
    # organising bodies and their cups (issue 30), entries of no club
    BODY_CREATED = "body created"
    BODY_ADMIN_ADDED = "body admin added"
    BODY_JOIN_LINK_RENEWED = "body join link renewed"
    BODY_CLUB_JOINED = "club joined body"
    BODY_CLUB_REMOVED = "club removed from body"
    CUP_SAVED = "cup saved"
    CUP_NIGHT_ADDED = "cup night added"
    CUP_NIGHT_REMOVED = "cup night removed"
    CUP_PLAYER_LINKED = "cup player linked"
    CUP_PLAYER_UNLINKED = "cup player unlinked"
    CUP_FINALISTS_INVITED = "cup finalists invited"
    BODY_ADMIN_INVITED = "body admin invited"
    BODY_ADMIN_DECLINED = "body admin declined"
    CUP_FINAL_ACCEPTED = "cup final accepted"
    CUP_FINAL_DECLINED = "cup final declined"


class Reads(StrEnum):
    """How an action's ``before``/``after`` read on its history page: ``FIELDS`` field by
    field (``readable``); the others by the ``describe`` of the page that owns the scope
    (``tournaments.history``, ``scoring.display``), which knows the cards' holders or
    the sheet's players."""

    FIELDS = "fields"
    DEAL = "deal"
    IMPORT = "import"
    SALE = "sale"
    SALE_CANCELLED = "sale cancelled"
    CARD_PAID = "card paid"
    ROUND_DRAWN = "round drawn"
    ROUND = "round"
    PULL = "pull"
    TOURNAMENT = "tournament"
    TABLES = "tables"
    MATCH = "match"
    SIDE_LINK = "side link"
    RESULT_CHECK = "result check"
    RESULT = "result"


@dataclass(frozen=True)
class Kind:
    """What the history page knows of an action: its ``label`` and how its values read."""

    label: Promise
    reads: Reads = Reads.FIELDS


REGISTRY: dict[Action, Kind] = {
    # score sheets
    Action.DEAL_RECORDED: Kind(gettext_lazy("Deal recorded"), Reads.DEAL),
    Action.DEAL_CORRECTED: Kind(gettext_lazy("Deal corrected"), Reads.DEAL),
    Action.DEAL_STRUCK_OUT: Kind(gettext_lazy("Deal struck out"), Reads.DEAL),
    Action.DEAL_UNDONE: Kind(gettext_lazy("Deal undone"), Reads.DEAL),
    Action.SHEET_IMPORTED: Kind(gettext_lazy("Sheet imported"), Reads.IMPORT),
    # tournaments
    Action.CARDS_SOLD: Kind(gettext_lazy("Cards sold"), Reads.SALE),
    Action.CARD_PAID: Kind(gettext_lazy("Payment changed"), Reads.CARD_PAID),
    Action.SALE_CANCELLED: Kind(gettext_lazy("Sale cancelled"), Reads.SALE_CANCELLED),
    Action.CARD_WITHDRAWN: Kind(gettext_lazy("Card withdrawn")),
    Action.WITHDRAWAL_UNDONE: Kind(gettext_lazy("Withdrawal undone")),
    Action.CARDS_LOWERED: Kind(gettext_lazy("Cards laid out lowered")),
    Action.TABLES_SET: Kind(gettext_lazy("Tables set"), Reads.TABLES),
    Action.ROUND_DRAWN: Kind(gettext_lazy("Round drawn"), Reads.ROUND_DRAWN),
    Action.PULL_ENTERED: Kind(gettext_lazy("Pull entered"), Reads.PULL),
    Action.PULL_UNDONE: Kind(gettext_lazy("Pull undone")),
    Action.DRAW_UNDONE: Kind(gettext_lazy("Draw undone"), Reads.ROUND),
    Action.RESULT_RECORDED: Kind(gettext_lazy("Result recorded"), Reads.RESULT),
    Action.RESULT_CORRECTED: Kind(gettext_lazy("Result corrected"), Reads.RESULT),
    Action.RESULT_VOIDED: Kind(gettext_lazy("Result voided"), Reads.RESULT),
    Action.RESULT_REPORTED: Kind(gettext_lazy("Result reported by a player"), Reads.RESULT),
    Action.RESULT_CONFIRMED: Kind(
        gettext_lazy("Result confirmed by the other player"), Reads.RESULT
    ),
    Action.REPORT_ACCEPTED: Kind(gettext_lazy("Reported result accepted"), Reads.RESULT),
    Action.SIDE_LINK_REVOKED: Kind(gettext_lazy("Player's match link revoked"), Reads.SIDE_LINK),
    Action.SIDE_LINK_RENEWED: Kind(gettext_lazy("Player's match link renewed"), Reads.SIDE_LINK),
    Action.RESULT_CHECK_CHANGED: Kind(
        gettext_lazy("Check of the players' results changed"), Reads.RESULT_CHECK
    ),
    Action.LIFE_BOUGHT: Kind(gettext_lazy("Life bought")),
    Action.TEAM_SET: Kind(gettext_lazy("Team set")),
    # announced nights: registration, waiting list, check-in (issue 28)
    Action.REGISTRATION_SET: Kind(gettext_lazy("Registration window set")),
    Action.REGISTERED: Kind(gettext_lazy("Player registered")),
    Action.REGISTRATION_CHANGED: Kind(gettext_lazy("Registration changed")),
    Action.REGISTRATION_CANCELLED: Kind(gettext_lazy("Registration cancelled")),
    Action.REGISTRATION_MOVED_UP: Kind(gettext_lazy("Moved up from the waiting list")),
    Action.REGISTRATION_CHECKED_IN: Kind(gettext_lazy("Checked in")),
    Action.REGISTRATION_NO_SHOW: Kind(gettext_lazy("Did not come")),
    Action.REGISTRATION_PAID: Kind(gettext_lazy("Registration's payment changed")),
    Action.REGISTRATION_TERMS_SET: Kind(
        gettext_lazy("Confirmation, bank account and check-in set")
    ),
    Action.REGISTRATION_CONFIRMED: Kind(gettext_lazy("Registration confirmed")),
    Action.REGISTRATION_REFUSED: Kind(gettext_lazy("Registration refused")),
    Action.REGISTRATION_OFFERED: Kind(gettext_lazy("Cards offered from the waiting list")),
    Action.OFFER_ACCEPTED: Kind(gettext_lazy("Offer accepted")),
    Action.OFFER_DECLINED: Kind(gettext_lazy("Offer declined")),
    Action.OFFER_LAPSED: Kind(gettext_lazy("Offer lapsed")),
    Action.REGISTRATION_RELEASED: Kind(gettext_lazy("Released: not checked in")),
    # players and clubs
    Action.PLAYER_ADDED: Kind(gettext_lazy("Player added")),
    Action.PLAYER_RENAMED: Kind(gettext_lazy("Player renamed")),
    Action.PLAYERS_MERGED: Kind(gettext_lazy("Players merged")),
    Action.CLUB_CREATED: Kind(gettext_lazy("Club created")),
    Action.CLUB_PAGE_CHANGED: Kind(gettext_lazy("Club's public page changed")),
    Action.INVITATION_CREATED: Kind(gettext_lazy("Invitation created")),
    Action.INVITATION_REVOKED: Kind(gettext_lazy("Invitation revoked")),
    Action.INVITATION_ACCEPTED: Kind(gettext_lazy("Invitation accepted")),
    Action.ROLE_CHANGED: Kind(gettext_lazy("Role changed")),
    Action.MEMBER_REMOVED: Kind(gettext_lazy("Member removed")),
    Action.RESET_LINK_ISSUED: Kind(gettext_lazy("Password reset link issued")),
    Action.RESET_LINK_USED: Kind(gettext_lazy("Password set with a reset link")),
    Action.SIGN_IN_UNLOCKED: Kind(gettext_lazy("Sign-in lock lifted")),
    Action.E_MAIL_CHANGED: Kind(gettext_lazy("E-mail address changed")),
    Action.CLUB_RENAMED: Kind(gettext_lazy("Club renamed")),
    Action.TABLE_RENAMED: Kind(gettext_lazy("Table renamed")),
    Action.TABLE_ARCHIVED: Kind(gettext_lazy("Table archived")),
    Action.TABLE_RESTORED: Kind(gettext_lazy("Table restored from the archive")),
    Action.SHEET_OPENED: Kind(gettext_lazy("Table opened")),
    Action.PARTIE_OPENED: Kind(gettext_lazy("Next Partie opened")),
    Action.RULE_SET_COPIED: Kind(gettext_lazy("Rule set copied")),
    Action.RULE_SET_CHANGED: Kind(gettext_lazy("Rule set changed")),
    Action.TOURNAMENT_CREATED: Kind(gettext_lazy("Tournament created"), Reads.TOURNAMENT),
    Action.DRAW_STARTED: Kind(gettext_lazy("Draw at the venue started"), Reads.ROUND),
    Action.MATCH_SHEET_OPENED: Kind(gettext_lazy("Score sheet of a match opened"), Reads.MATCH),
    Action.LINK_REVOKED: Kind(gettext_lazy("Table link revoked")),
    Action.LINK_RENEWED: Kind(gettext_lazy("Table link renewed")),
    Action.SEASON_SAVED: Kind(gettext_lazy("Season saved")),
    Action.RANKING_SETTINGS_CHANGED: Kind(gettext_lazy("Ranking settings changed")),
    # categories, ranking and consolation (RULES.md 5.8, 5.9, 5.11)
    Action.CATEGORY_ADDED: Kind(gettext_lazy("Category added")),
    Action.CATEGORY_MEMBER_ADDED: Kind(gettext_lazy("Player put into a category")),
    Action.CATEGORY_MEMBER_REMOVED: Kind(gettext_lazy("Player taken out of a category")),
    Action.STECHEN_RECORDED: Kind(gettext_lazy("Stechen recorded")),
    Action.LOTS_DRAWN: Kind(gettext_lazy("Lots drawn for equal places")),
    Action.CONSOLATION_OPENED: Kind(gettext_lazy("Consolation opened")),
    # organising bodies and their cups (issue 30)
    Action.BODY_CREATED: Kind(gettext_lazy("Organising body created")),
    Action.BODY_ADMIN_ADDED: Kind(gettext_lazy("Admin of the body added")),
    Action.BODY_JOIN_LINK_RENEWED: Kind(gettext_lazy("Join link of the body renewed")),
    Action.BODY_CLUB_JOINED: Kind(gettext_lazy("Club joined the body")),
    Action.BODY_CLUB_REMOVED: Kind(gettext_lazy("Club removed from the body")),
    Action.CUP_SAVED: Kind(gettext_lazy("Cup saved")),
    Action.CUP_NIGHT_ADDED: Kind(gettext_lazy("Night counted in the cup")),
    Action.CUP_NIGHT_REMOVED: Kind(gettext_lazy("Night taken out of the cup")),
    Action.CUP_PLAYER_LINKED: Kind(gettext_lazy("Player linked to a cup person")),
    Action.CUP_PLAYER_UNLINKED: Kind(gettext_lazy("Link to a cup person undone")),
    Action.CUP_FINALISTS_INVITED: Kind(gettext_lazy("Qualifiers invited to the final")),
    Action.BODY_ADMIN_INVITED: Kind(gettext_lazy("Invited to be an admin of the body")),
    Action.BODY_ADMIN_DECLINED: Kind(gettext_lazy("Invitation to be an admin declined")),
    Action.CUP_FINAL_ACCEPTED: Kind(gettext_lazy("Night accepted as a cup's final")),
    Action.CUP_FINAL_DECLINED: Kind(gettext_lazy("Night declined as a cup's final")),
}
"""Each action's label on the history page (German first, through gettext) and how its
values read. ``record`` takes no other action."""


@dataclass(frozen=True)
class Actor:
    """Who writes, for ``record`` and the services: a signed-in ``user`` (None: the
    system, e.g. a management command run without a user), or the holder of a table's
    private link (``via_link``). ``organiser``: the user is an organiser (or owner) of
    the club, who may still change a sheet whose tournament result stands
    (``scoring.models.Sheet.write_refusal``)."""

    user: User | None = None
    via_link: bool = False
    organiser: bool = False

    @property
    def user_id(self) -> int | None:
        return getattr(self.user, "pk", None) if self.user is not None else None


SYSTEM = Actor()
"""The site itself: a management command, the task worker's schedule (no account)."""

VIA_LINK = Actor(None, via_link=True)
"""The holder of a private link (a table's, a player's match link), without an account."""


def by(user) -> Actor:
    """The actor ``user`` (an account, or None)."""
    return Actor(user)


def record(
    club_id: int | None,
    scope: str,
    scope_id: int,
    action: Action,
    *,
    actor: Actor,
    before: Any = None,
    after: Any = None,
) -> None:
    """Keep one change of ``action`` (an ``Action``) on ``scope``/``scope_id``
    (``"sheet"``, ``"tournament"`` or ``"club"`` and its id; ``club_id`` None with
    ``"body"`` or ``"cup"``, which belong to no club): ``actor`` has ``user_id`` (or
    None) and ``via_link``; ``before`` and ``after`` are JSON-able values (None where there
    is nothing). ValueError for an action that is not an ``Action``: every change has
    its entry in ``REGISTRY``."""
    action = Action(action)
    AuditEntry.objects.create(
        club_id=club_id,
        scope=scope,
        scope_id=scope_id,
        action=action,
        actor_id=getattr(actor, "user_id", None),
        via_link=getattr(actor, "via_link", False),
        before=before,
        after=after,
    )


def history(scope: str, scope_id: int):
    return AuditEntry.objects.filter(scope=scope, scope_id=scope_id).select_related("actor")


def kind(action: str) -> Kind | None:
    """The registry's entry of a stored action code; None for a code no writer makes any
    more (an old entry)."""
    try:
        return REGISTRY[Action(action)]
    except ValueError:
        return None


def action_label(action: str) -> str:
    """``"deal recorded"`` -> ``"Spiel eingetragen"``; an unknown code is shown as it is."""
    found = kind(action)
    return str(found.label) if found is not None else action


def reads(action: str) -> Reads:
    """How the values of ``action`` read (``Reads.FIELDS`` for an unknown code)."""
    found = kind(action)
    return found.reads if found is not None else Reads.FIELDS


FIELDS = {
    "best_of": gettext_lazy("best nights counted"),
    "body": gettext_lazy("organising body"),
    "card": gettext_lazy("card"),
    "cards": gettext_lazy("cards"),
    "categories": gettext_lazy("categories"),
    "checkin_closes": gettext_lazy("check-in closes"),
    "club": gettext_lazy("club"),
    "confirm": gettext_lazy("the organiser confirms each registration"),
    "contracts": gettext_lazy("contracts"),
    "copied_from": gettext_lazy("copied from"),
    "cup": gettext_lazy("cup"),
    "day": gettext_lazy("day"),
    "draw_reopened": gettext_lazy("draw open again"),
    "email": gettext_lazy("e-mail address"),
    "expires_at": gettext_lazy("valid until"),
    "final": gettext_lazy("final"),
    "first_day": gettext_lazy("first day"),
    "heat": gettext_lazy("heat"),
    "invitation": gettext_lazy("invitation"),
    "issued_by": gettext_lazy("link made by"),
    "last_day": gettext_lazy("last day"),
    "merged": gettext_lazy("merged"),
    "merged_id": gettext_lazy("merged player's number"),
    "min_games": gettext_lazy("minimum of games to be ranked"),
    "name": gettext_lazy("name"),
    "night": gettext_lazy("night"),
    "number": gettext_lazy("number"),
    "options": gettext_lazy("options"),
    "owner": gettext_lazy("owner"),
    "paid": gettext_lazy("paid"),
    "pairings": gettext_lazy("pairings"),
    "pairings_undone": gettext_lazy("pairings undone"),
    "participation": gettext_lazy("points for taking part"),
    "person": gettext_lazy("cup person"),
    "person_id": gettext_lazy("cup person's number"),
    "pick": gettext_lazy("ranking"),
    "player": gettext_lazy("player"),
    "player_id": gettext_lazy("player's number"),
    "players": gettext_lazy("players"),
    "points_key": gettext_lazy("points key"),
    "pot": gettext_lazy("pot"),
    "previous": gettext_lazy("previous Partie's table"),
    "public": gettext_lazy("ranking pages public"),
    "pull": gettext_lazy("pull"),
    "put_back": gettext_lazy("put back"),
    "qualify_per_heat": gettext_lazy("top places of each heat qualify"),
    "qualify_top": gettext_lazy("top places qualify"),
    "role": gettext_lazy("role"),
    "round": gettext_lazy("round"),
    "rule_set": gettext_lazy("rule set"),
    "season": gettext_lazy("season"),
    "seat": gettext_lazy("seats"),
    "seed": gettext_lazy("seed"),
    "slug": gettext_lazy("address"),
    "sold": gettext_lazy("sold"),
    "table": gettext_lazy("table"),
    "title": gettext_lazy("title"),
    "transfer_to": gettext_lazy("bank account for prepayment"),
    "until": gettext_lazy("valid until"),
    "user": gettext_lazy("account"),
    "walkovers": gettext_lazy("walkovers"),
    "withdrawn_cards_moved_back": gettext_lazy("withdrawn cards moved back"),
}
"""Field name of a stored before/after value -> its label on the history page; a field
without one shows its name."""


def readable(value: Any) -> str:
    """Any stored value as text, for actions without a ``describe``: ``{"card": 5,
    "paid": true}`` -> ``"Karte: 5 · bezahlt: ja"``; lists joined by commas."""
    if value is None or value == "" or value == {} or value == []:
        return ""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, dict):
        return " · ".join(
            f"{FIELDS.get(key, key)}: {readable(item)}" for key, item in value.items()
        )
    if isinstance(value, list | tuple):
        return ", ".join(readable(item) for item in value)
    return str(value)


@dataclass(frozen=True)
class HistoryRow:
    """One line of the history page, every part already text."""

    at: str
    who: str
    action: str
    before: str
    after: str


Describe = Callable[[str, Any], str | None]
"""``describe(action, value)``: the text of a ``before``/``after`` value, or None for the
generic ``readable``."""


def history_rows(entries, describe: Describe | None = None) -> list[HistoryRow]:
    """The rows of the history page for ``entries`` (``AuditEntry``s with their actor)."""

    def text(action: str, value: Any) -> str:
        if value is None:
            return ""
        described = describe(action, value) if describe is not None else None
        return described if described is not None else readable(value)

    rows = []
    for entry in entries:
        if entry.actor is not None:
            who = entry.actor.get_username()
        elif entry.via_link:
            who = _("via link")
        else:
            who = "–"
        rows.append(
            HistoryRow(
                at=date_format(localtime(entry.at), "d.m. H:i:s"),
                who=who,
                action=action_label(entry.action),
                before=text(entry.action, entry.before),
                after=text(entry.action, entry.after),
            )
        )
    return rows
