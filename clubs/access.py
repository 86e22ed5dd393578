"""Who may see and change a club: one helper per kind of object, called by every view.

A non-member gets 404 (the club's pages are not advertised); a member without the
needed role gets 403. Anonymous visitors are sent to sign in by ``login_required``.
``access_for`` answers both questions at once: the club, the user's role in it, and what
that role allows, so that no view compares roles by hand.
"""

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db.models import F
from django.http import Http404

from clubs.models import Club, Role, role_allows


@dataclass(frozen=True)
class Access:
    """A signed-in member's access to one club.

    ``allows(role)`` is true when ``self.role`` ranks at least as high as ``role``
    (member < scorer < organiser < owner); the properties name the three questions the
    pages ask."""

    club: Club
    role: Role

    def allows(self, role: str) -> bool:
        return role_allows(self.role, role)

    @property
    def can_score(self) -> bool:
        """Scorer or above: records results and deals."""
        return self.allows(Role.SCORER)

    @property
    def can_manage(self) -> bool:
        """Organiser or above: runs tables, nights, players and links."""
        return self.allows(Role.ORGANISER)

    @property
    def is_owner(self) -> bool:
        return self.role == Role.OWNER


def access_for(request, slug: str, role: str = Role.MEMBER) -> Access:
    """The user's ``Access`` to the club ``slug``; 404 for non-members, 403 when their
    role is below ``role``. One query."""
    club = (
        Club.objects.filter(slug=slug, memberships__user=request.user)
        .annotate(role=F("memberships__role"))
        .first()
    )
    if club is None:
        raise Http404
    access = Access(club=club, role=Role(club.role))
    if not access.allows(role):
        raise PermissionDenied
    return access


def club_for(request, slug: str, role: str = Role.MEMBER) -> Club:
    """The club ``slug`` for a view that needs no more than the check: see ``access_for``."""
    return access_for(request, slug, role).club


def clubs_of(user):
    """The user's clubs, with ``role`` annotated."""
    return Club.objects.filter(memberships__user=user).annotate(role=F("memberships__role"))
