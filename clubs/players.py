"""The only writers of a club's players: add, find by name, rename, merge.

Every writer runs in one transaction, locks what it changes and keeps an audit entry
(scope ``"club"``, ``scope_id`` the club's id). User-fixable refusals are ``RuleError``s
naming the form field.

One person is one player of a club: names are stored clean and a player's identity is
the case-folded name (``base.text``), unique per club in the database. Typing a known
name in another case finds that player. Organisers rename players and merge two players
who turn out to be one person; both are kept in the club's history.
"""

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from django.apps import apps
from django.db import IntegrityError, models, transaction
from django.db.models import ForeignObjectRel
from django.utils import timezone

from base.errors import RuleError, gettext_noop
from base.text import TYPED_MAX, clean_name, name_fold
from clubs import audit
from clubs.audit import Action
from clubs.models import Club, Player

NAME_LENGTH = 80


def _checked(name: str) -> str:
    if len(name) > TYPED_MAX:  # too long before it is cleaned: not read further
        raise RuleError("name", gettext_noop("A name has at most 80 characters."))
    name = clean_name(name)
    if not name:
        raise RuleError("name", gettext_noop("Enter a name."))
    if len(name) > NAME_LENGTH:
        raise RuleError("name", gettext_noop("A name has at most 80 characters."))
    return name


def checked_name(name: str) -> str:
    """``name`` cleaned as a player's name is stored (``clean_name``). RuleError(field=
    "name") when it is empty or longer than 80 characters, as ``add_player``."""
    return _checked(name)


def known_player(club: Club, name: str) -> Player | None:
    """The club's player whose name is ``name`` up to case and spacing, or None (also
    for a text longer than ``TYPED_MAX``, which is no name)."""
    if len(name) > TYPED_MAX:
        return None
    return Player.objects.filter(club=club, name_fold=name_fold(name)).first()


def add_player(club: Club, name: str) -> Player:
    """A new player of ``club``, named ``clean_name(name)``.

    RuleError(field="name") when empty, longer than 80 characters, or when the club has
    the player already in any case ("anna" beside "Anna"; the message names "Anna").
    """
    name = _checked(name)
    existing = known_player(club, name)
    if existing is None:
        try:
            with transaction.atomic():
                return Player.objects.create(club=club, name=name)
        except IntegrityError:  # added by someone else a moment ago
            existing = known_player(club, name)
            if existing is None:
                raise
    raise RuleError(
        "name", gettext_noop("%(name)s already plays in this club."), name=existing.name
    )


def player_named(club: Club, name: str) -> Player:
    """The club's player called ``name`` in any case and spacing, added if there is none.
    RuleError(field="name") as ``add_player`` for an empty or too long name."""
    existing = known_player(club, _checked(name))
    if existing is not None:
        return existing
    try:
        return add_player(club, name)
    except RuleError:
        existing = known_player(club, name)  # a race: the other writer's player
        if existing is None:
            raise
        return existing


def rename_player(player: Player, new_name: str, actor) -> Player:
    """Give ``player`` the name ``clean_name(new_name)`` (a change of case is allowed).

    RuleError(field="name") when empty, too long, or the name of another player of the
    club (in any case): two players who are one person are merged, not renamed.
    Kept in the club's history as "player renamed". Organisers only (the view checks).
    """
    name = _checked(new_name)
    with transaction.atomic():
        locked = Player.objects.select_for_update(no_key=True).get(pk=player.pk)
        other = known_player(locked.club, name)
        if other is not None and other.pk != locked.pk:
            raise RuleError(
                "name",
                gettext_noop("%(name)s is another player of this club: merge the two instead."),
                name=other.name,
            )
        if locked.name == name:
            return locked
        old = locked.name
        locked.name = name
        try:
            with transaction.atomic():
                locked.save(update_fields=["name"])
        except IntegrityError:  # the name was taken a moment ago
            raise RuleError(
                "name",
                gettext_noop("%(name)s is another player of this club: merge the two instead."),
                name=name,
            ) from None
        audit.record(
            locked.club_id,
            "club",
            locked.club_id,
            Action.PLAYER_RENAMED,
            actor=actor,
            before={"player_id": locked.pk, "name": old},
            after={"player_id": locked.pk, "name": locked.name},
        )
    player.name, player.name_fold, player.name_key = locked.name, locked.name_fold, locked.name_key
    return locked


# -- merging two players who are one person ---------------------------------------------


def _links() -> list[models.ForeignObject]:
    """Every foreign key to Player in the project (seats, cards, pulls, ...), found through
    the model registry so that clubs needs to know nothing of the apps built on it."""
    return [
        rel.field
        for rel in Player._meta.get_fields(include_hidden=True)
        if isinstance(rel, ForeignObjectRel)
        and rel.auto_created
        and not rel.concrete
        and (rel.one_to_many or rel.one_to_one)
    ]


def _unique_sets(field: models.ForeignObject):
    """(other fields, condition) of each uniqueness rule of ``field``'s model that
    includes ``field``: a row of one player must not meet a row of the other there."""
    meta = field.model._meta
    if field.unique:
        yield (), None
    for constraint in meta.constraints:
        if isinstance(constraint, models.UniqueConstraint) and field.name in constraint.fields:
            others = tuple(f for f in constraint.fields if f != field.name)
            yield others, constraint.condition
    for together in meta.unique_together:
        if field.name in together:
            yield tuple(f for f in together if f != field.name), None


def _where(field: models.ForeignObject, others: tuple[str, ...], values: tuple) -> str:
    """A readable name of the place where the two players meet (a table: title, date)."""
    if len(others) == 1:
        target = field.model._meta.get_field(others[0])
        if target.is_relation and target.related_model is not None:
            obj = target.related_model._base_manager.filter(pk=values[0]).first()
            if obj is not None:
                when = getattr(obj, "created_at", None)
                return f"{obj} ({timezone.localtime(when):%d.%m.%Y})" if when else str(obj)
    return ", ".join(str(v) for v in values)


def _opposites() -> list[tuple[type[models.Model], str, str]]:
    """``(model, one side, other side)`` of every model with two foreign keys to a model
    that names a player (a tournament's pairing: its left and right cards), each side as
    a lookup to the player (``left__player``): the two players of one row met there."""
    found = []
    for link in _links():
        held = link.model
        for model in apps.get_models():
            sides = [
                f
                for f in model._meta.get_fields()
                if f.many_to_one and f.concrete and f.related_model is held
            ]
            for one, other in combinations(sides, 2):
                found.append((model, f"{one.name}__{link.name}", f"{other.name}__{link.name}"))
    return found


MEETING_NAMES: dict[type[models.Model], Callable[[Any], str]] = {}
"""How a refused merge names a row where two players met, by its model (an app built
on clubs registers its own in its ``ready``: a tournament's match by its round)."""


def name_meetings(model: type[models.Model], namer: Callable[[Any], str]) -> None:
    MEETING_NAMES[model] = namer


def _met(keep: Player, gone: Player) -> str | None:
    """Where ``keep`` and ``gone`` met on two sides of one row (a match), named as
    ``MEETING_NAMES`` says (else the row's text); None when they never did."""
    for model, one, other in _opposites():
        row = (
            model._base_manager.filter(
                models.Q(**{one: keep, other: gone}) | models.Q(**{one: gone, other: keep})
            )
            .order_by("pk")
            .first()
        )
        if row is not None:
            return MEETING_NAMES.get(model, str)(row)
    return None


@dataclass(frozen=True)
class MergePlan:
    """What merging ``gone`` into ``keep`` moves: rows per kind (``{"seat": 3, "card": 1}``,
    kinds by model name, only kinds with rows); ``clash`` the RuleError that refuses it."""

    keep: Player
    gone: Player
    moves: dict[str, int]
    clash: RuleError | None


def merge_plan(keep: Player, gone: Player) -> MergePlan:
    """Read what ``merge_players(keep, gone)`` would move, and why it would be refused."""
    moves: dict[str, int] = {}
    clash = None
    if keep.pk == gone.pk or keep.club_id != gone.club_id:
        clash = RuleError("other", gettext_noop("Choose another player of this club."))
    for field in _links():
        manager = field.model._base_manager
        count = manager.filter(**{field.name: gone}).count()
        if count:
            moves[field.model.__name__.lower()] = count  # the model's _meta.model_name
        for others, condition in _unique_sets(field) if clash is None else ():
            mine = manager.filter(**{field.name: gone})
            theirs = manager.filter(**{field.name: keep})
            if condition is not None:
                mine, theirs = mine.filter(condition), theirs.filter(condition)
            if not others:
                met = [()] if mine.exists() and theirs.exists() else []
            else:
                met = sorted(
                    set(mine.values_list(*others)) & set(theirs.values_list(*others)),
                    key=str,
                )
            if met:
                clash = RuleError(
                    "other",
                    gettext_noop(
                        "%(keep)s and %(gone)s played at one table (%(where)s): "
                        "they are two people, not one."
                    ),
                    keep=keep.name,
                    gone=gone.name,
                    where=_where(field, others, met[0]),
                )
    if clash is None:
        where = _met(keep, gone)
        if where is not None:
            clash = RuleError(
                "other",
                gettext_noop(
                    "%(keep)s and %(gone)s played a match against each other (%(where)s): "
                    "they are two people, not one."
                ),
                keep=keep.name,
                gone=gone.name,
                where=where,
            )
    return MergePlan(keep, gone, moves, clash)


def merge_players(keep: Player, gone: Player, actor) -> dict[str, int]:
    """Make ``gone`` and ``keep`` one player: every row that points at ``gone`` (seats,
    so results and tallies; cards and pulls of tournaments) points at ``keep``, and
    ``gone`` is deleted. ``keep`` keeps its name. Returns the rows moved per kind.

    RuleError(field="other"): ``gone`` is ``keep``, of another club, merged already, or
    both sat at one table (two people, not one). Cards move even when ``keep`` then
    holds more than the tournament's most cards per player: the organiser decides.
    Kept in the club's history as "players merged". Organisers only (the view checks).
    """
    with transaction.atomic():
        # Lock both rows in id order (no deadlock with a merge the other way round).
        locked = {
            p.pk: p
            for p in Player.objects.select_for_update(no_key=True)
            .filter(pk__in=[keep.pk, gone.pk])
            .order_by("pk")
        }
        if gone.pk not in locked:
            raise RuleError("other", gettext_noop("%(name)s is merged already."), name=gone.name)
        if keep.pk not in locked:
            raise RuleError("other", gettext_noop("Choose another player of this club."))
        keep, gone = locked[keep.pk], locked[gone.pk]
        plan = merge_plan(keep, gone)
        if plan.clash is not None:
            raise plan.clash
        for field in _links():
            field.model._base_manager.filter(**{field.name: gone}).update(**{field.name: keep})
        audit.record(
            keep.club_id,
            "club",
            keep.club_id,
            Action.PLAYERS_MERGED,
            actor=actor,
            before={
                "player_id": keep.pk,
                "name": keep.name,
                "merged_id": gone.pk,
                "merged": gone.name,
            },
            after={"player_id": keep.pk, "name": keep.name, **plan.moves},
        )
        gone.delete()
    return plan.moves
