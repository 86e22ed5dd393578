"""Who may see and change a body and its cups: one helper per object, as in
``clubs.access``. Anyone who is no admin of the body gets 404 on its admin pages (the
body is not advertised there); the public cup page needs no account. Links of club
players to cup persons may also be made by an organiser of the player's club, for his
own club's players, while the club is a member of the body.
"""

from django.db.models import QuerySet
from django.http import Http404, HttpRequest

from clubs import audit
from clubs.models import Membership, Player, Role, role_allows
from cups.models import Body, Cup, Link, Member, Person


def actor(request: HttpRequest) -> audit.Actor:
    """The signed-in user as the writer of his changes."""
    return audit.by(request.user)


def is_admin(request: HttpRequest, body: Body) -> bool:
    return request.user.is_authenticated and body.admins.filter(pk=request.user.pk).exists()


def admin_body(request: HttpRequest, slug: str) -> Body:
    """The body ``slug`` for one of its admins; 404 for anyone else. One query."""
    if not request.user.is_authenticated:
        raise Http404
    body = Body.objects.filter(slug=slug, admins=request.user.pk).first()
    if body is None:
        raise Http404
    return body


def admin_cup(request: HttpRequest, slug: str, cup_slug: str) -> Cup:
    """The cup ``cup_slug`` of the body ``slug`` for an admin of that body; 404 else."""
    if not request.user.is_authenticated:
        raise Http404
    cup = (
        Cup.objects.filter(body__slug=slug, slug=cup_slug, body__admins=request.user.pk)
        .select_related("body", "final", "final__club")
        .first()
    )
    if cup is None:
        raise Http404
    return cup


def organised_clubs(request: HttpRequest, body: Body) -> set[int]:
    """The ids of the body's member clubs the user organises (organiser or owner)."""
    if not request.user.is_authenticated:
        return set()
    members = set(Member.objects.live().filter(body=body).values_list("club_id", flat=True))
    roles = Membership.objects.filter(user=request.user, club_id__in=members)
    return {m.club_id for m in roles if role_allows(m.role, Role.ORGANISER)}


def linking_body(request: HttpRequest, slug: str) -> tuple[Body, bool, set[int]]:
    """``(body, admin, clubs)`` for the person links page: a body admin (``admin``) sees
    every member club's players, an organiser of member clubs those of ``clubs``; 404
    for anyone else."""
    body = Body.objects.filter(slug=slug).first()
    if body is None or not request.user.is_authenticated:
        raise Http404
    admin = is_admin(request, body)
    clubs = organised_clubs(request, body)
    if not admin and not clubs:
        raise Http404
    return body, admin, clubs


def may_link(admin: bool, clubs: set[int], player: Player) -> bool:
    return admin or player.club_id in clubs


def may_join(admin: bool, clubs: set[int], person: Person | None) -> bool:
    """May one link a player of his clubs to ``person`` (None: a new person)? A body
    admin may; an organiser when every club of the person's live links is one he
    organises, so that no club's cup line changes without one of its organisers."""
    if admin or person is None:
        return True
    theirs = set(
        Link.objects.live().filter(person=person).values_list("player__club_id", flat=True)
    )
    return theirs <= clubs


def joinable(admin: bool, clubs: set[int], found: QuerySet[Person]) -> QuerySet[Person]:
    """Of ``found``, the persons ``may_join`` allows (for an organiser: those linked to
    players of his clubs only, or to none), so that the links page of an organiser names
    no other club's players."""
    if admin:
        return found
    return found.exclude(
        pk__in=Link.objects.live().exclude(player__club_id__in=clubs).values("person_id")
    )
