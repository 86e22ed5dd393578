"""The cup's final: its qualifiers (``cups.standings.qualifiers``) registered on the
final night, an ordinary night of a member club, through its registration
(``tournaments.services.registrations.register``, one card each).

Inviting is safe to repeat: a qualifier who stands registered on the final already (by
his name, compared as at the door) is left as he is, and a form sent twice registers
nobody twice (each registration's one-time key is made from the form's key and the
cup player). The final's registration window must be open (a ``RuleError`` of the
registration otherwise); the invite is one transaction: refused for one, it registers
none.
"""

import uuid
from dataclasses import dataclass

from django.db import transaction

from base.errors import RuleError, gettext_noop
from base.text import name_fold
from clubs import audit
from clubs.audit import Action
from cups.models import Cup
from cups.reading import cup_data
from cups.services import locked_body
from tournaments.models import ACTIVE_REGISTRATION, Registration
from tournaments.services.signup import register


@dataclass(frozen=True)
class Invited:
    """The outcome of an invite: the names ``registered`` now and those ``already``
    registered before."""

    registered: list[str]
    already: list[str]


def invite(cup: Cup, *, actor: audit.Actor, key: uuid.UUID) -> Invited:
    """Register the cup's qualifiers on its final. RuleError on ``final`` when the cup
    has none or nobody qualifies (set a top N or a top per heat), and the registration's
    own refusals (the window closed, round 1 drawn)."""
    final = cup.final
    if final is None:
        raise RuleError("final", gettext_noop("Choose the final night first."))
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
            name = q.line.entrant.name
            if name_fold(name) in standing:
                already.append(name)
                continue
            one = uuid.uuid5(key, q.line.entrant.key)
            register(final, name=name, cards=1, key=one)
            standing.add(name_fold(name))
            registered.append(name)
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
