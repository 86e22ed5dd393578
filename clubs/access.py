"""Who may see and change a club: one helper per kind of object, called by every view.

A non-member gets 404 (the club's pages are not advertised); a member without the
needed role gets 403. Anonymous visitors are sent to sign in by ``login_required``.
"""

from django.core.exceptions import PermissionDenied
from django.db.models import F
from django.http import Http404

from clubs.models import ROLE_RANK, Club, Role


def club_for(request, slug: str, role: str = Role.MEMBER) -> Club:
    """The club ``slug`` with ``club.role`` set to the user's role; 404 for non-members,
    403 when the role is below ``role``. One query."""
    club = (
        Club.objects.filter(slug=slug, memberships__user=request.user)
        .annotate(role=F("memberships__role"))
        .first()
    )
    if club is None:
        raise Http404
    if ROLE_RANK[Role(club.role)] < ROLE_RANK[Role(role)]:
        raise PermissionDenied
    return club


def clubs_of(user):
    """The user's clubs, with ``role`` annotated."""
    return Club.objects.filter(memberships__user=user).annotate(role=F("memberships__role"))
