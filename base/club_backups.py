"""Backup files of one club: its rows, and what they need to load into an empty server.

A club file is a backup file (``base.backups``: the same format, the same one-snapshot
read, the same owner-only writing) whose header names the club (``"club": "<slug>"``)
and whose ``objects`` are:

* **the club's rows**: every backed-up row that belongs to the club (``club_paths``);
* **the rows they point at that belong to no club**: the accounts (by user name, with
  their groups) and the server-wide rule sets (presets), so that the file is a whole
  database of its own.

An account keeps its password hash only when it belongs to this club alone: a member of
it and of no other club, neither superuser nor staff (``own_accounts``). Any other (the
server's administrator named as the actor of a history entry, a member of another club
too) is in the file as its name only: an unusable password, no e-mail, no staff or
superuser flag. The club's holder of the file can thus sign in as nobody else.

Which models belong to a club is read from the model graph, not listed here: a model
belongs to the club's model when it reaches it through a foreign key that is not null,
or through a nullable one named after it (a history entry or rule set with no club is
server-wide), directly or through models that do; and it has no foreign key that is not
null to a model outside the clubs (the user model aside). So the rows of an organising
body (its cups, counted nights, persons, member clubs) are not in a club file.

A club file restores with ``manage.py restore`` like any backup: it replaces the whole
database, so it moves a club to a server of its own, or shows its data as it was on a
scratch server. Putting one club back into a server shared with other clubs is not done
here (the rows of the other clubs and of the bodies would have to stay untouched).
"""

from collections.abc import Iterable, Iterator
from pathlib import Path

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import DEFAULT_DB_ALIAS, models

from base.backups import (
    backed_up_models,
    default_path,
    header,
    iter_objects,
    snapshot,
    write_file,
)


def _foreign_keys(model: type[models.Model]) -> list[models.ForeignKey]:
    return [f for f in model._meta.concrete_fields if isinstance(f, models.ForeignKey)]


def club_paths(club_model: type[models.Model]) -> dict[type[models.Model], str]:
    """``{model: lookup}`` of the backed-up models that belong to a club, the lookup
    from the model to the club's primary key (``"pk"`` for the club's model itself,
    ``"sheet__club"`` for a deal), by the shortest way (ties: the first field). See
    the module doc for the rule."""
    user = get_user_model()
    chosen = set(backed_up_models())
    name = club_model._meta.model_name
    excluded: set[type[models.Model]] = set()
    while True:
        paths: dict[type[models.Model], str] = {club_model: "pk"}
        grown = True
        while grown:  # one step further from the club each time: the shortest ways first
            known = dict(paths)
            for model in chosen - excluded - known.keys():
                ways = []
                for field in _foreign_keys(model):
                    target = field.related_model
                    if target not in known or (field.null and field.name != name):
                        continue
                    rest = known[target]
                    ways.append(field.name if rest == "pk" else f"{field.name}__{rest}")
                if ways:  # the first field's way among the shortest
                    paths[model] = min(ways, key=lambda way: way.count("__"))
            grown = len(paths) > len(known)
        outside = {
            model
            for model in paths
            if any(
                not f.null and f.related_model not in paths and f.related_model is not user
                for f in _foreign_keys(model)
            )
        }
        if not outside:
            return paths
        excluded |= outside


def club_rows(club, using: str = DEFAULT_DB_ALIAS) -> dict[type[models.Model], models.QuerySet]:
    """``{model: rows}`` of a club file, in the order a backup loads: the club's rows
    of each model, with the rows of no club they point at (``_referenced``)."""
    club_model = type(club)
    paths = club_paths(club_model)
    own = {
        model: model._base_manager.using(using).filter(**{path: club.pk})
        for model, path in paths.items()
    }
    wide = _referenced(paths, own, using)
    rows = {}
    for model in backed_up_models():
        pks = wide.get(model, set())
        if model in own:
            rows[model] = own[model] | model._base_manager.using(using).filter(pk__in=pks)
        elif pks:
            rows[model] = model._base_manager.using(using).filter(pk__in=pks)
    return rows


def _referenced(
    paths: dict[type[models.Model], str],
    own: dict[type[models.Model], models.QuerySet],
    using: str,
) -> dict[type[models.Model], set]:
    """``{model: {pk, …}}`` of the rows that belong to no club and that the club's rows
    point at (foreign keys, many-to-many: accounts, their groups, presets), and those
    they point at in turn."""
    chosen = set(backed_up_models())
    found: dict[type[models.Model], set] = {}
    todo = list(own.items())
    while todo:
        model, queryset = todo.pop()
        for field in _foreign_keys(model) + list(model._meta.many_to_many):
            target = field.related_model
            if target not in chosen:
                continue  # made by migrate (permissions, content types)
            ids = set(
                queryset.filter(**{f"{field.name}__isnull": False}).values_list(
                    f"{field.name}__pk", flat=True
                )
            )
            candidates = target._base_manager.using(using).filter(pk__in=ids)
            if target in paths:  # a club's model: only its rows of no club (presets)
                if target not in own or paths[target] == "pk":
                    continue
                candidates = candidates.filter(**{f"{paths[target]}__isnull": True})
            new = set(candidates.values_list("pk", flat=True)) - found.get(target, set())
            if new:
                found.setdefault(target, set()).update(new)
                todo.append((target, target._base_manager.using(using).filter(pk__in=new)))
    return found


def own_accounts(club, using: str = DEFAULT_DB_ALIAS) -> set[str]:
    """The user names of the accounts that belong to ``club`` alone: a membership of it
    and of no other club, neither superuser nor staff."""
    user = get_user_model()
    membership = type(club)._meta.get_field("memberships").related_model
    elsewhere = membership._base_manager.using(using).exclude(club=club).values("user")
    members = (
        user._base_manager.using(using)
        .filter(memberships__club=club, is_superuser=False, is_staff=False)
        .exclude(pk__in=elsewhere)
    )
    return set(members.values_list(user.USERNAME_FIELD, flat=True))


def names_only(objects: Iterable[dict], own: set[str]) -> Iterator[dict]:
    """``objects`` with every account not in ``own`` (user names) reduced to its name:
    an unusable password, no e-mail, no staff or superuser flag."""
    user = get_user_model()
    label, name = user._meta.label_lower, user.USERNAME_FIELD
    for obj in objects:
        fields = obj["fields"]
        if obj["model"] == label and fields[name] not in own:
            fields["password"] = make_password(None)
            fields.update(email="", is_staff=False, is_superuser=False)
        yield obj


def take_club_backup(
    club, path: Path | None = None, using: str = DEFAULT_DB_ALIAS
) -> tuple[Path, int]:
    """Write one consistent snapshot of ``club``'s rows (see the module doc) to ``path``
    (default: a new ``club-<slug>-<time>.json.gz`` in the backups folder). Returns
    (path, objects written); Refused as ``base.backups.take_backup``."""
    path = Path(path) if path else default_path(f"club-{club.slug}")
    with snapshot(using):
        rows = club_rows(club, using)
        objects = names_only(iter_objects(using, rows), own_accounts(club, using))
        count = write_file(path, header(using, club=club.slug), objects)
    return path, count
