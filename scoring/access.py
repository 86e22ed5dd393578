"""Access to a score sheet: by account (club role) or by the table's private link.

``sheet_for`` is the one helper every sheet view calls. It answers with the sheet, its
players in seat order, the ``Actor`` that writes and the URL names to use, or raises:
404 for an unknown or revoked link and for a non-member, 403 for a member who may not
record, and the sign-in redirect for an anonymous visitor without a link.
"""

import functools
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import Http404
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from base.errors import RuleError
from base.sqlrows import Columns, fetch, table
from clubs.access import Access, link_actor
from clubs.audit import Actor
from clubs.models import Club, Membership, Player, Role, role_allows
from scoring.models import Deal, Seat, Sheet
from scoring.signals import link_open


class SignInRequired(Exception):
    """Raised for an anonymous visitor; the view answers with the sign-in redirect."""


@dataclass(frozen=True)
class SheetAccess:
    sheet: Sheet
    players: tuple[Player, ...]  # in seat order
    actor: Actor
    namespace: str  # "sheet" (account) or "entry" (private link)
    can_write: bool  # the role may write and the sheet is not locked for it
    can_manage: bool  # open tables, manage the private link
    locked: RuleError | None = None  # why a locked sheet refuses this writer
    version: str | None = None  # the sheet's version, read with the access (``version=True``)

    @property
    def locked_text(self) -> str:
        """The lock's reason, translated: why this writer is refused, or (for an
        organiser, who may still write) why others are; empty for an open sheet."""
        lock = self.locked or self.sheet.write_refusal(organiser=False)
        if lock is None:
            return ""
        text = gettext(lock.template)
        return text % lock.params if lock.params else text

    def url(self, name: str, **kwargs) -> str:
        if self.namespace == "entry":
            kwargs["token"] = self.sheet.entry_token
        else:
            kwargs["pk"] = self.sheet.pk
        return reverse(f"{self.namespace}:{name}", kwargs=kwargs)


_SHEET = Columns(Sheet, "s")
_CLUB = Columns(Club, "c")
_PLAYER = Columns(Player, "p")


_VERSION_SQL = (
    ', (SELECT MAX(d."id") FROM {deals} d WHERE d."sheet_id" = s."id"), '
    '(SELECT COUNT(d."voided_at") FROM {deals} d WHERE d."sheet_id" = s."id")'
)


@functools.cache
def _seats_sql(vendor: str, by: str, version: bool = False) -> str:
    """The seats of one sheet (with its club and each seat's player) in seat order;
    ``by``: "token" (the private link, while valid) or "account" (with the member's
    role, none for a non-member). ``version``: each row ends with the sheet's newest
    deal id and its number of struck rows (``scoring.changes.version_of``'s parts), so
    the 2-second poll reads its access and its answer in one query."""
    role = ', m."role"' if by == "account" else ""
    if version:
        role += _VERSION_SQL.format(deals=table(Deal))
    member = (
        f'JOIN {table(Membership)} m ON m."club_id" = c."id" AND m."user_id" = %s '
        if by == "account"
        else ""
    )
    where = (
        's."id" = %s'
        if by == "account"
        else 's."entry_token" = %s AND s."token_revoked_at" IS NULL AND s."created_at" >= %s'
    )
    return (
        f"SELECT {_SHEET.sql}, {_CLUB.sql}, {_PLAYER.sql}{role} "
        f'FROM {table(Seat)} t JOIN {table(Sheet)} s ON s."id" = t."sheet_id" '
        f'JOIN {table(Club)} c ON c."id" = s."club_id" '
        f'JOIN {table(Player)} p ON p."id" = t."player_id" {member}'
        f'WHERE {where} ORDER BY t."position"'
    )


@dataclass(frozen=True)
class _Seated:
    sheet: Sheet
    players: tuple[Player, ...]
    role: str | None  # the member's (account), None for a link
    version: str | None  # with ``version=True``


def _seated(by: str, params: list, version: bool = False) -> _Seated | None:
    """The sheet, its club and its players in seat order (one query, ``_seats_sql``),
    the member's role (account) and with ``version`` the sheet's version; None when no
    sheet answers."""
    rows = fetch(_seats_sql(connection.vendor, by, version), params)
    if not rows:
        return None
    first = rows[0]
    sheet = _SHEET.instance(first)
    sheet.club = _CLUB.instance(first, _SHEET.width)
    at = _SHEET.width + _CLUB.width
    players = tuple(_PLAYER.instance(row, at) for row in rows)
    rest = list(first[at + _PLAYER.width :])
    role = rest.pop(0) if by == "account" else None
    stamp = f"{rest[0] or 0}-{rest[1]}" if version else None
    return _Seated(sheet, players, role, stamp)


def _refused(answers: Iterable[tuple[object, object]]) -> bool:
    """A receiver of ``link_open`` answered False (django-stubs has a signal's answers
    as text)."""
    return any(answer is False for _receiver, answer in answers)


def sheet_for(
    request,
    *,
    pk: int | None = None,
    token: str | None = None,
    write: bool = False,
    version: bool = False,
) -> SheetAccess:
    """Resolve the sheet of a request and its players, in one query. See the module
    docstring. A private link works for ``LINK_DAYS`` days after the table was opened,
    and a tournament match's only while the night's match links work (``link_open``).
    ``can_write`` is the one decision whether this request may change the sheet: the
    role, and a lock set by a tournament (``Sheet.write_refusal``; its reason is
    ``locked``). ``version``: ``SheetAccess.version`` is read in the same query."""
    if token is not None:
        since = timezone.now() - timedelta(days=settings.LINK_DAYS)
        params = [token, connection.ops.adapt_datetimefield_value(since)]
        found = _seated("token", params, version)
        if found is None:
            raise Http404
        sheet, players = found.sheet, found.players
        if sheet.reports_result and _refused(link_open.send(Sheet, sheet=sheet)):
            raise Http404
        locked = sheet.write_refusal(organiser=False)
        return SheetAccess(
            sheet, players, link_actor(), "entry", locked is None, False, locked, found.version
        )
    if not request.user.is_authenticated:
        raise SignInRequired
    found = (
        _seated("account", [request.user.pk, pk], version)
        if pk is not None and 0 < pk < 2**63
        else None
    )
    if found is None or found.role is None:  # None: never, the query joins the membership
        raise Http404
    sheet, players, role = found.sheet, found.players, found.role
    may_write = role_allows(role, Role.SCORER)
    if write and not may_write:
        raise PermissionDenied
    organiser = role_allows(role, Role.ORGANISER)
    locked = sheet.write_refusal(organiser=organiser) if may_write else None
    return SheetAccess(
        sheet,
        players,
        Access.of(request, sheet.club, role).actor,
        "sheet",
        may_write and locked is None,
        organiser,
        locked,
        found.version,
    )


def refreshed(access: SheetAccess) -> SheetAccess:
    """The same access after a write: a tournament may have locked (or unlocked) the sheet
    in the writing transaction (one query, only for sheets that report a result)."""
    if not access.sheet.reports_result:
        return access
    access.sheet.refresh_from_db(fields=["locked_at", "lock"])
    may_write = access.can_write or access.locked is not None
    locked = access.sheet.write_refusal(organiser=access.actor.organiser) if may_write else None
    return replace(access, can_write=may_write and locked is None, locked=locked)


def sign_in(request):
    return redirect_to_login(request.get_full_path())
