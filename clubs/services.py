"""The only writers of clubs and players."""

from django.db import IntegrityError, transaction

from clubs.models import Club, Player
from scoring.rules.errors import RuleError, gettext_noop


def add_player(club: Club, name: str) -> Player:
    """A new player of ``club``; RuleError(field="name") when empty, too long or taken."""
    name = " ".join(name.split())
    if not name:
        raise RuleError("name", gettext_noop("Enter a name."))
    if len(name) > 80:
        raise RuleError("name", gettext_noop("A name has at most 80 characters."))
    try:
        with transaction.atomic():
            return Player.objects.create(club=club, name=name)
    except IntegrityError:
        raise RuleError(
            "name", gettext_noop("%(name)s already plays in this club."), name=name
        ) from None


def player_named(club: Club, name: str) -> Player:
    """The club's player called ``name``, added if there is none."""
    name = " ".join(name.split())
    player = Player.objects.filter(club=club, name=name).first()
    return player or add_player(club, name)
