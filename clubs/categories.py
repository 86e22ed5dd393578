"""Writers of a club's player categories (RULES.md 5.9: *Damen*, *Jugend*, *Senioren* or
a club's own): add a category, put a player in or take him out. Each is kept in the
club's history. All three are idempotent: sent twice, they change once."""

from django.db import transaction

from base.errors import RuleError, gettext_noop
from base.text import clean_name
from clubs import audit
from clubs.audit import Action
from clubs.models import Category, Club, Player
from clubs.players import known_player


def add_category(club: Club, name: str, actor: audit.Actor) -> Category:
    """The club's category ``name`` (made when new; the same name in another case is
    the same category). RuleError on ``name`` when it is empty."""
    name = clean_name(name)[:60]
    if not name:
        raise RuleError("name", gettext_noop("Give the category a name."))
    with transaction.atomic():
        existing = next(
            (c for c in Category.objects.filter(club=club) if c.name.casefold() == name.casefold()),
            None,
        )
        if existing is not None:
            return existing
        category = Category.objects.create(club=club, name=name)
        audit.record(
            club.pk, "club", club.pk, Action.CATEGORY_ADDED, actor=actor, after={"name": name}
        )
        return category


def set_member(category: Category, name: str, member: bool, actor: audit.Actor) -> Player:
    """Put the club's player called ``name`` into ``category`` (``member``) or take him
    out. RuleError on ``name`` when the club has no such player."""
    with transaction.atomic():
        player = known_player(category.club, name)
        if player is None:
            raise RuleError(
                "name",
                gettext_noop("The club has no player called %(name)s."),
                name=clean_name(name),
            )
        has = category.players.filter(pk=player.pk).exists()
        if has != member:
            (category.players.add if member else category.players.remove)(player)
            audit.record(
                category.club_id,
                "club",
                category.club_id,
                Action.CATEGORY_MEMBER_ADDED if member else Action.CATEGORY_MEMBER_REMOVED,
                actor=actor,
                after={"category": category.name, "player": player.name},
            )
        return player
