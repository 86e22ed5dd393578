"""Access to a score sheet: by account (club role) or by the table's private link.

``sheet_for`` is the one helper every sheet view calls. It answers with the sheet, the
``Actor`` that writes and the URL names to use, or raises: 404 for an unknown or
revoked link and for a non-member, 403 for a member who may not record, and the
sign-in redirect for an anonymous visitor without a link.
"""

from dataclasses import dataclass, replace
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import F
from django.http import Http404
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from clubs.audit import Actor
from clubs.errors import RuleError
from clubs.models import Role, role_allows
from scoring.models import Sheet


class SignInRequired(Exception):
    """Raised for an anonymous visitor; the view answers with the sign-in redirect."""


@dataclass(frozen=True)
class SheetAccess:
    sheet: Sheet
    actor: Actor
    namespace: str  # "sheet" (account) or "entry" (private link)
    can_write: bool  # the role may write and the sheet is not locked for it
    can_manage: bool  # open tables, manage the private link
    locked: RuleError | None = None  # why a locked sheet refuses this writer

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


def sheet_for(
    request, *, pk: int | None = None, token: str | None = None, write: bool = False
) -> SheetAccess:
    """Resolve the sheet of a request (one query). See the module docstring. A private
    link works for ``LINK_DAYS`` days after the table was opened. ``can_write`` is the
    one decision whether this request may change the sheet: the role, and a lock set by
    a tournament (``Sheet.write_refusal``; its reason is ``locked``)."""
    if token is not None:
        sheet = (
            Sheet.objects.select_related("club")
            .filter(
                entry_token=token,
                token_revoked_at__isnull=True,
                created_at__gte=timezone.now() - timedelta(days=settings.LINK_DAYS),
            )
            .first()
        )
        if sheet is None:
            raise Http404
        locked = sheet.write_refusal(organiser=False)
        return SheetAccess(
            sheet, Actor(None, via_link=True), "entry", locked is None, False, locked
        )
    if not request.user.is_authenticated:
        raise SignInRequired
    sheet = (
        Sheet.objects.select_related("club")
        .filter(pk=pk, club__memberships__user=request.user)
        .annotate(role=F("club__memberships__role"))
        .first()
    )
    if sheet is None:
        raise Http404
    may_write = role_allows(sheet.role, Role.SCORER)
    if write and not may_write:
        raise PermissionDenied
    organiser = role_allows(sheet.role, Role.ORGANISER)
    locked = sheet.write_refusal(organiser=organiser) if may_write else None
    return SheetAccess(
        sheet,
        Actor(request.user, organiser=organiser),
        "sheet",
        may_write and locked is None,
        organiser,
        locked,
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
