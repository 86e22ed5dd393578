"""The cup's final: its qualifiers (``cups.standings.qualifiers``) registered on the
final night, an ordinary night of a member club, through its registration
(``tournaments.services.signup.register``, one card each), once the night's club has
accepted it as the final (``cups.services.answer_final``).

The invitation names the person (RULES.md 8.6): a qualifier is registered as his own
player of the host club (a cup person's live link to a player of that club, or the
qualifier himself when he is the host club's player), else as a new player of the host
club carrying his name and home club ("Anna Berger (SK Süd)"), linked to his cup person
(a qualifier linked to none gets a person of his name, linked to his own player and
the new one). So a host club's namesake is never taken for him, two qualifiers of one
name are two registrations, and the card he is sold at the door is his person's.

Inviting is safe to repeat: a qualifier whose host player stands registered on the
final already is left as he is, and a form sent twice registers nobody twice (each
registration's one-time key is made from the form's key and the cup player). The
final's registration window must be open (a ``RuleError`` of the registration
otherwise); the invite is one transaction: refused for one, it registers none. The
registrations, links and players it writes name the inviting admin as their actor.
"""

import uuid
from dataclasses import dataclass

from django.db import transaction

from base.errors import RuleError, gettext_noop
from base.text import name_fold
from clubs import audit
from clubs.audit import Action
from clubs.models import Club, Player
from clubs.players import add_player, known_player
from cups import persons
from cups.models import Body, Cup, Link
from cups.reading import cup_data
from cups.services import locked_body
from cups.standings import Entrant
from tournaments.models import ACTIVE_REGISTRATION, Registration
from tournaments.services.signup import register

NAME_MAX = 80
"""The longest name of a player (``clubs.models.Player.name``)."""


@dataclass(frozen=True)
class Invited:
    """The outcome of an invite: the names ``registered`` now and those ``already``
    registered before (as the host club's players are called)."""

    registered: list[str]
    already: list[str]


def guest_name(name: str, home: str, taken: int = 0) -> str:
    """A host club's name for a qualifier of another club: "Anna Berger (SK Süd)", the
    name shortened so that the whole is at most 80 characters; ``taken`` > 0 (that name
    plays in the host club as someone else): "Anna Berger (SK Süd) 2"."""
    tail = f" ({home})" if home else ""
    if taken:
        tail += f" {taken + 1}"
    return name[: NAME_MAX - len(tail)].rstrip() + tail


def host_player(body: Body, host: Club, entrant: Entrant, *, actor: audit.Actor) -> Player:
    """The qualifier ``entrant`` as a player of the host club (see the module's words);
    a new player is added and linked."""
    kind, _, number = entrant.key.partition("-")
    if kind == "person":
        own = (
            Link.objects.live()
            .filter(body=body, person_id=int(number), player__club=host)
            .select_related("player")
            .first()
        )
        if own is not None:
            return own.player
        person = persons.persons_of(body).get(pk=int(number))
    else:
        player = Player.objects.select_related("club").get(pk=int(number))
        if player.club_id == host.pk:
            return player
        person = persons.link_player(body, player, None, actor=actor).person
    home = entrant.clubs[0] if entrant.clubs else ""
    taken = 0
    while True:
        name = guest_name(person.name, home, taken)
        found = known_player(host, name)
        if found is None:
            guest = add_player(host, name)
            break
        if Link.objects.live().filter(body=body, person=person, player=found).exists():
            return found
        taken += 1
    persons.link_player(body, guest, person, actor=actor)
    return guest


def invite(cup: Cup, *, actor: audit.Actor, key: uuid.UUID) -> Invited:
    """Register the cup's qualifiers on its final. RuleError on ``final`` when the cup
    has none, its club has not accepted it yet, or nobody qualifies (set a top N or a
    top per heat), and the registration's own refusals (the window closed, round 1
    drawn)."""
    final = cup.final
    if final is None:
        raise RuleError("final", gettext_noop("Choose the final night first."))
    if not cup.final_accepted:
        raise RuleError(
            "final",
            gettext_noop(
                "%(club)s has not accepted %(night)s as the final yet: its organisers accept "
                "it on the night's desk."
            ),
            club=final.club.name,
            night=final.name,
        )
    qualified = cup_data(cup).qualifiers()
    if not qualified:
        raise RuleError("final", gettext_noop("Nobody qualifies yet."))
    registered, already = [], []
    with transaction.atomic():
        locked_body(cup.body)
        standing = set(
            Registration.objects.filter(
                tournament=final, status__in=ACTIVE_REGISTRATION
            ).values_list("name_fold", flat=True)
        )
        for q in qualified:
            player = host_player(cup.body, final.club, q.line.entrant, actor=actor)
            if player.name_fold in standing:
                already.append(player.name)
                continue
            one = uuid.uuid5(key, q.line.entrant.key)
            register(final, name=player.name, cards=1, key=one, actor=actor)
            standing.add(name_fold(player.name))
            registered.append(player.name)
        if registered:
            audit.record(
                None,
                "cup",
                cup.pk,
                Action.CUP_FINALISTS_INVITED,
                actor=actor,
                after={"night": final.name, "players": registered},
            )
    return Invited(registered, already)
