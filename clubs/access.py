"""Who may see and change a club: one helper per kind of object, called by every view.

A non-member gets 404 (the club's pages are not advertised); a member without the
needed role gets 403. Anonymous visitors are sent to sign in by ``login_required``.
``access_for`` answers both questions at once: the club, the user's role in it, and what
that role allows, so that no view compares roles by hand. The access carries the
``actor`` of the user's changes, made once here: views pass ``access.actor`` to the
writers and never build one. A page that needs no account (a private link) takes its
actor from ``link_actor`` or ``visitor``.
"""

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db.models import F
from django.http import Http404

from clubs.audit import VIA_LINK, Actor
from clubs.models import Club, Membership, Role, role_allows


@dataclass(frozen=True)
class Access:
    """A signed-in member's access to one club.

    ``allows(role)`` is true when ``self.role`` ranks at least as high as ``role``
    (member < scorer < organiser < owner); the properties name the three questions the
    pages ask."""

    club: Club
    role: Role
    actor: Actor  # the user, an organiser when the role allows managing

    @classmethod
    def of(cls, request, club: Club, role: str) -> "Access":
        """The access of the request's user with ``role`` in ``club``."""
        role = Role(role)
        organiser = role_allows(role, Role.ORGANISER)
        return cls(club=club, role=role, actor=Actor(request.user, organiser=organiser))

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
    access = Access.of(request, club, club.role)
    if not access.allows(role):
        raise PermissionDenied
    return access


def club_for(request, slug: str, role: str = Role.MEMBER) -> Club:
    """The club ``slug`` for a view that needs no more than the check: see ``access_for``."""
    return access_for(request, slug, role).club


def member_access(request, slug: str) -> Access | None:
    """The signed-in user's ``Access`` to the club ``slug``, or None for an anonymous
    visitor and a non-member: for pages that also show something to the public. One
    query."""
    if not request.user.is_authenticated:
        return None
    member = Membership.objects.filter(club__slug=slug, user=request.user).select_related("club")
    found = member.first()
    return None if found is None else Access.of(request, found.club, found.role)


def link_actor() -> Actor:
    """The holder of a private link, who writes without an account."""
    return VIA_LINK


def visitor(request) -> Actor:
    """The actor of a page that needs no account: the signed-in user, or nobody."""
    return Actor(request.user if request.user.is_authenticated else None)


def clubs_of(user):
    """The user's clubs, with ``role`` annotated."""
    return Club.objects.filter(memberships__user=user).annotate(role=F("memberships__role"))
