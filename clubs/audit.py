"""The audit trail: ``record`` is called by the services inside their transactions;
``history_rows`` turns entries into the readable rows of the history page.

An action is a short English code (``"deal recorded"``); ``ACTIONS`` gives its label on
the page. A new action needs one line there; an action without one shows its code.
``before`` and ``after`` are shown by a ``describe`` function of the page that owns the
scope (it knows the sheet's players or the tournament's cards), else field by field.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.models import AuditEntry

ACTIONS = {
    # score sheets
    "deal recorded": gettext_lazy("Deal recorded"),
    "deal corrected": gettext_lazy("Deal corrected"),
    "deal struck out": gettext_lazy("Deal struck out"),
    "sheet imported": gettext_lazy("Sheet imported"),
    # tournaments
    "cards sold": gettext_lazy("Cards sold"),
    "card paid": gettext_lazy("Payment changed"),
    "sale cancelled": gettext_lazy("Sale cancelled"),
    "card withdrawn": gettext_lazy("Card withdrawn"),
    "withdrawal undone": gettext_lazy("Withdrawal undone"),
    "cards lowered": gettext_lazy("Cards laid out lowered"),
    "tables set": gettext_lazy("Tables set"),
    "round drawn": gettext_lazy("Round drawn"),
    "pull entered": gettext_lazy("Pull entered"),
    "pull undone": gettext_lazy("Pull undone"),
    "draw undone": gettext_lazy("Draw undone"),
    "result recorded": gettext_lazy("Result recorded"),
    "result corrected": gettext_lazy("Result corrected"),
    "result voided": gettext_lazy("Result voided"),
    "result reported": gettext_lazy("Result reported by a player"),
    "result confirmed": gettext_lazy("Result confirmed by the other player"),
    "report accepted": gettext_lazy("Reported result accepted"),
    "side link revoked": gettext_lazy("Player's match link revoked"),
    "side link renewed": gettext_lazy("Player's match link renewed"),
    "result check changed": gettext_lazy("Check of the players' results changed"),
    "life bought": gettext_lazy("Life bought"),
    "team set": gettext_lazy("Team set"),
    # announced nights: registration, waiting list, check-in (issue 28)
    "registration set": gettext_lazy("Registration window set"),
    "registered": gettext_lazy("Player registered"),
    "registration changed": gettext_lazy("Registration changed"),
    "registration cancelled": gettext_lazy("Registration cancelled"),
    "registration moved up": gettext_lazy("Moved up from the waiting list"),
    "registration checked in": gettext_lazy("Checked in"),
    "registration no-show": gettext_lazy("Did not come"),
    "registration paid": gettext_lazy("Registration's payment changed"),
    "registration terms set": gettext_lazy("Confirmation, bank account and check-in set"),
    "registration confirmed": gettext_lazy("Registration confirmed"),
    "registration refused": gettext_lazy("Registration refused"),
    "registration offered": gettext_lazy("Cards offered from the waiting list"),
    "offer accepted": gettext_lazy("Offer accepted"),
    "offer declined": gettext_lazy("Offer declined"),
    "offer lapsed": gettext_lazy("Offer lapsed"),
    "registration released": gettext_lazy("Released: not checked in"),
    # players and clubs
    "player added": gettext_lazy("Player added"),
    "player renamed": gettext_lazy("Player renamed"),
    "players merged": gettext_lazy("Players merged"),
    "club created": gettext_lazy("Club created"),
    "club page changed": gettext_lazy("Club's public page changed"),
    "invitation created": gettext_lazy("Invitation created"),
    "invitation revoked": gettext_lazy("Invitation revoked"),
    "invitation accepted": gettext_lazy("Invitation accepted"),
    "role changed": gettext_lazy("Role changed"),
    "member removed": gettext_lazy("Member removed"),
    "reset link issued": gettext_lazy("Password reset link issued"),
    "reset link used": gettext_lazy("Password set with a reset link"),
    "sign-in unlocked": gettext_lazy("Sign-in lock lifted"),
    "e-mail changed": gettext_lazy("E-mail address changed"),
    "club renamed": gettext_lazy("Club renamed"),
    "table renamed": gettext_lazy("Table renamed"),
    "table archived": gettext_lazy("Table archived"),
    "table restored": gettext_lazy("Table restored from the archive"),
    "tournament created": gettext_lazy("Tournament created"),
    "draw started": gettext_lazy("Draw at the venue started"),
    "match sheet opened": gettext_lazy("Score sheet of a match opened"),
    "link revoked": gettext_lazy("Table link revoked"),
    "link renewed": gettext_lazy("Table link renewed"),
    "season saved": gettext_lazy("Season saved"),
    "ranking settings changed": gettext_lazy("Ranking settings changed"),
    # categories, ranking and consolation (RULES.md 5.8, 5.9, 5.11)
    "category added": gettext_lazy("Category added"),
    "category member added": gettext_lazy("Player put into a category"),
    "category member removed": gettext_lazy("Player taken out of a category"),
    "stechen recorded": gettext_lazy("Stechen recorded"),
    "lots drawn": gettext_lazy("Lots drawn for equal places"),
    "consolation opened": gettext_lazy("Consolation opened"),
}
"""Action code -> label of the history page (German first, through gettext)."""


@dataclass(frozen=True)
class Actor:
    """Who writes, for ``record`` and the services: a signed-in ``user`` (None: the
    system, e.g. a management command run without a user), or the holder of a table's
    private link (``via_link``). ``organiser``: the user is an organiser (or owner) of
    the club, who may still change a sheet whose tournament result stands
    (``scoring.models.Sheet.write_refusal``)."""

    user: object | None = None
    via_link: bool = False
    organiser: bool = False

    @property
    def user_id(self) -> int | None:
        return getattr(self.user, "pk", None) if self.user is not None else None


def by(user) -> Actor:
    """The actor ``user`` (an account, or None)."""
    return Actor(user)


def record(
    club_id: int,
    scope: str,
    scope_id: int,
    action: str,
    *,
    actor: Actor,
    before: Any = None,
    after: Any = None,
) -> None:
    """Keep one change of ``action`` (a code of ``ACTIONS``) on ``scope``/``scope_id``
    (``"sheet"``, ``"tournament"`` or ``"club"`` and its id): ``actor`` has ``user_id`` (or
    None) and ``via_link``; ``before`` and ``after`` are JSON-able values (None where there
    is nothing)."""
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


def action_label(action: str) -> str:
    """``"deal recorded"`` -> ``"Spiel eingetragen"``; an unknown code is shown as it is."""
    label = ACTIONS.get(action)
    return str(label) if label is not None else action


FIELDS = {
    "card": gettext_lazy("card"),
    "cards": gettext_lazy("cards"),
    "checkin_closes": gettext_lazy("check-in closes"),
    "confirm": gettext_lazy("the organiser confirms each registration"),
    "draw_reopened": gettext_lazy("draw open again"),
    "email": gettext_lazy("e-mail address"),
    "expires_at": gettext_lazy("valid until"),
    "first_day": gettext_lazy("first day"),
    "last_day": gettext_lazy("last day"),
    "min_games": gettext_lazy("minimum of games to be ranked"),
    "participation": gettext_lazy("points for taking part"),
    "pick": gettext_lazy("ranking"),
    "points_key": gettext_lazy("points key"),
    "public": gettext_lazy("ranking pages public"),
    "season": gettext_lazy("season"),
    "invitation": gettext_lazy("invitation"),
    "issued_by": gettext_lazy("link made by"),
    "merged": gettext_lazy("merged"),
    "merged_id": gettext_lazy("merged player's number"),
    "name": gettext_lazy("name"),
    "number": gettext_lazy("number"),
    "owner": gettext_lazy("owner"),
    "pairings": gettext_lazy("pairings"),
    "pairings_undone": gettext_lazy("pairings undone"),
    "paid": gettext_lazy("paid"),
    "player": gettext_lazy("player"),
    "player_id": gettext_lazy("player's number"),
    "pot": gettext_lazy("pot"),
    "pull": gettext_lazy("pull"),
    "put_back": gettext_lazy("put back"),
    "role": gettext_lazy("role"),
    "round": gettext_lazy("round"),
    "seat": gettext_lazy("seats"),
    "seed": gettext_lazy("seed"),
    "slug": gettext_lazy("address"),
    "table": gettext_lazy("table"),
    "title": gettext_lazy("title"),
    "transfer_to": gettext_lazy("bank account for prepayment"),
    "until": gettext_lazy("valid until"),
    "sold": gettext_lazy("sold"),
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
