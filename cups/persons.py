"""The writers of cup persons and their links (issue 30: one person in many clubs).

A link is explicit: someone with the right (a body admin, or an organiser of the
player's club, ``cups.access``) links a club player to a cup person, or to a new person
named after him. ``suggestions`` offers the body's persons whose linked players have
the same name (``base.text.name_fold``), never links by itself: two people of one name
stay two. Undoing a link ends it (``ended_at``) and keeps its row; the undo is an entry
of the cup history of its own. Each writer runs in one transaction and locks the body.
"""

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from base.errors import RuleError, gettext_noop
from base.text import name_fold
from clubs import audit
from clubs.audit import Action
from clubs.models import Player
from clubs.players import merge_plan
from cups.models import Body, Link, Person
from cups.services import is_member, locked_body, user_of


def _link_dict(link: Link) -> dict:
    return {
        "player": link.player.name,
        "player_id": link.player_id,
        "club": link.player.club.name,
        "person": link.person.name,
        "person_id": link.person_id,
    }


def link_player(body: Body, player: Player, person: Person | None, *, actor: audit.Actor) -> Link:
    """Link ``player`` to ``person`` of ``body`` (None: a new person of his name).
    Linked to that person already: the link is returned. RuleError on ``player`` when
    his club is no member of the body or he is linked to another person (undo that
    first), on ``person`` for a person of another body or one whose player of his club
    met him in a match or at a table (two people, ``clubs.players.merge_plan``)."""
    if person is not None and person.body_id != body.pk:
        raise RuleError("person", gettext_noop("Choose a person of this body."))
    with transaction.atomic():
        body = locked_body(body)
        if not is_member(body, player.club_id):
            raise RuleError("player", gettext_noop("The player's club is no member of this body."))
        live = Link.objects.live().filter(body=body, player=player).select_related("person").first()
        if live is not None:
            if person is not None and live.person_id == person.pk:
                return live
            raise RuleError(
                "player",
                gettext_noop("%(player)s is linked to %(person)s: undo that link first."),
                player=player.name,
                person=live.person.name,
            )
        if person is not None:
            _two_people(person, player)
        if person is None:
            person = Person.objects.create(body=body, name=player.name)
        try:
            with transaction.atomic():
                link = Link.objects.create(
                    body=body, person=person, player=player, linked_by=user_of(actor)
                )
        except IntegrityError:  # the constraint, should the lock be bypassed
            raise RuleError("player", gettext_noop("This player was linked meanwhile.")) from None
        audit.record(
            None, "body", body.pk, Action.CUP_PLAYER_LINKED, actor=actor, after=_link_dict(link)
        )
    return link


def _two_people(person: Person, player: Player) -> None:
    """Refuse ``player`` for ``person`` when one of the person's players of his club met
    him in a match or sat with him at one table: they are two people (the RuleError of
    ``clubs.players.merge_plan``, naming where)."""
    mates = Player.objects.filter(
        club_id=player.club_id, cup_links__person=person, cup_links__ended_at__isnull=True
    ).exclude(pk=player.pk)
    for mate in mates:
        clash = merge_plan(mate, player).clash
        if clash is not None:
            raise RuleError("person", clash.template, **clash.params)


def unlink(link: Link, *, actor: audit.Actor) -> Link:
    """Undo ``link`` (its row kept, with ``ended_at``); undone already: nothing changes."""
    with transaction.atomic():
        locked_body(link.body)
        link = Link.objects.select_for_update(no_key=True).get(pk=link.pk)
        if link.ended_at is not None:
            return link
        link.ended_at = timezone.now()
        link.ended_by = user_of(actor)
        link.save(update_fields=["ended_at", "ended_by"])
        audit.record(
            None,
            "body",
            link.body_id,
            Action.CUP_PLAYER_UNLINKED,
            actor=actor,
            before=_link_dict(link),
        )
    return link


def suggestions(body: Body, player: Player) -> list[Person]:
    """The body's persons linked (now) to a player of the same folded name as
    ``player``, in another club or his own: candidates, never a link."""
    fold = name_fold(player.name)
    return list(
        Person.objects.filter(
            body=body, links__ended_at__isnull=True, links__player__name_fold=fold
        )
        .exclude(links__player=player, links__ended_at__isnull=True)
        .distinct()
        .order_by("name_key", "id")
    )


def persons_of(body: Body) -> QuerySet[Person]:
    return Person.objects.filter(body=body).order_by("name_key", "id")
