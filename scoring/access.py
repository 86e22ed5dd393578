"""Access to a score sheet: by account (club role) or by the table's private link.

``sheet_for`` is the one helper every sheet view calls. It answers with the sheet, the
``Actor`` that writes and the URL names to use, or raises: 404 for an unknown or
revoked link and for a non-member, 403 for a member who may not record, and the
sign-in redirect for an anonymous visitor without a link.
"""

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import F
from django.http import Http404
from django.urls import reverse
from django.utils import timezone

from clubs.models import ROLE_RANK, Role
from scoring.models import Sheet
from scoring.services import Actor


class SignInRequired(Exception):
    """Raised for an anonymous visitor; the view answers with the sign-in redirect."""


@dataclass(frozen=True)
class SheetAccess:
    sheet: Sheet
    actor: Actor
    namespace: str  # "sheet" (account) or "entry" (private link)
    can_write: bool
    can_manage: bool  # open tables, manage the private link

    def url(self, name: str, **kwargs) -> str:
        if self.namespace == "entry":
            kwargs["token"] = self.sheet.entry_token
        else:
            kwargs["pk"] = self.sheet.pk
        return reverse(f"{self.namespace}:{name}", kwargs=kwargs)


def sheet_for(request, pk: int | None = None, token: str | None = None, write: bool = False):
    """Resolve the sheet of a request (one query). See the module docstring. A private
    link works for ``LINK_DAYS`` days after the table was opened."""
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
        return SheetAccess(sheet, Actor(None, via_link=True), "entry", True, False)
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
    rank = ROLE_RANK[Role(sheet.role)]
    can_write = rank >= ROLE_RANK[Role.SCORER]
    if write and not can_write:
        raise PermissionDenied
    return SheetAccess(
        sheet, Actor(request.user), "sheet", can_write, rank >= ROLE_RANK[Role.ORGANISER]
    )


def sign_in(request):
    return redirect_to_login(request.get_full_path())
