"""One person is one player: names stored clean (NFC, one space), a case-folded
identity per club (``name_fold``), and players that already exist twice (same club,
same folded name) merged into the oldest (lowest id).

Everything that points at a younger duplicate (seats, cards, pulls, ...: every foreign
key to Player, found through the model state) moves to the oldest one, then the younger
row is deleted. A younger duplicate who sat at one table with the oldest is another
person of the same name (father and son): it is not merged but renamed with a suffix,
"Hans Huber (2)", so that the unique constraint (next migration) holds.
The unique constraint comes in a migration of its own: PostgreSQL refuses to alter a
table in the transaction that changed rows referenced by deferred foreign keys.
"""

import unicodedata
from collections import defaultdict

from django.db import migrations, models


def clean_name(text):
    return unicodedata.normalize("NFC", " ".join(text.split()))


def name_fold(text):
    return unicodedata.normalize("NFC", clean_name(text).casefold())


def german_key(text):
    folded = text.strip().casefold().replace("ß", "ss")
    decomposed = unicodedata.normalize("NFKD", folded)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _links(Player):
    return [
        rel.field
        for rel in Player._meta.get_fields(include_hidden=True)
        if rel.auto_created and not rel.concrete and (rel.one_to_many or rel.one_to_one)
    ]


def _clash(links, keep, gone, db) -> bool:
    """Would moving ``gone``'s rows to ``keep`` break a uniqueness rule (one table)?"""
    for field in links:
        meta = field.model._meta
        sets = [((), None)] if field.unique else []
        sets += [
            (tuple(f for f in c.fields if f != field.name), c.condition)
            for c in meta.constraints
            if isinstance(c, models.UniqueConstraint) and field.name in c.fields
        ]
        sets += [
            (tuple(f for f in t if f != field.name), None)
            for t in meta.unique_together
            if field.name in t
        ]
        manager = field.model._base_manager.db_manager(db)
        for others, condition in sets:
            mine = manager.filter(**{field.name: gone.pk})
            theirs = manager.filter(**{field.name: keep.pk})
            if condition is not None:
                mine, theirs = mine.filter(condition), theirs.filter(condition)
            if not others:
                if mine.exists() and theirs.exists():
                    return True
            elif set(mine.values_list(*others)) & set(theirs.values_list(*others)):
                return True
    return False


def merge_by(apps, clean_name, name_fold, german_key, db="default"):
    """Merge the players that ``name_fold`` makes one person (into the oldest; renamed
    "… (2)" when they sat at one table), then store every name as ``clean_name`` with
    its keys. Also used by later migrations when the identity of a name changes.
    ``db`` is the database being migrated: every read and write goes there."""
    Player = apps.get_model("clubs", "Player")
    players_in = Player._base_manager.db_manager(db)
    links = _links(Player)
    groups = defaultdict(list)
    for player in players_in.order_by("pk"):
        groups[(player.club_id, name_fold(player.name))].append(player)
    taken = {key for key in groups}
    for (club_id, _fold), people in groups.items():
        keep, *younger = people
        for gone in younger:
            if _clash(links, keep, gone, db):
                base, n = clean_name(gone.name), 2
                while (club_id, name_fold(f"{base} ({n})")) in taken:
                    n += 1
                suffix = f" ({n})"
                gone.name = base[: 80 - len(suffix)] + suffix
                taken.add((club_id, name_fold(gone.name)))
                players_in.filter(pk=gone.pk).update(name=gone.name)
                continue
            for field in links:
                field.model._base_manager.db_manager(db).filter(**{field.name: gone.pk}).update(
                    **{field.name: keep.pk}
                )
            players_in.filter(pk=gone.pk).delete()
    players = list(players_in.all())
    # A placeholder first, so that no row meets another's old key on the way (the
    # unique constraint, where it exists, is checked row by row).
    for player in players:
        players_in.filter(pk=player.pk).update(name_fold=f"\x01{player.pk}")
    for player in players:
        name = clean_name(player.name)
        players_in.filter(pk=player.pk).update(
            name=name, name_fold=name_fold(name), name_key=german_key(name)
        )


def merge_duplicates(apps, schema_editor):
    merge_by(apps, clean_name, name_fold, german_key, schema_editor.connection.alias)


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0001_initial"),
        # Merging moves the rows of the apps that point at players.
        ("scoring", "0001_initial"),
        ("tournaments", "0001_initial"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="player",
            name="player_name_unique_in_club",
        ),
        migrations.AddField(
            model_name="player",
            name="name_fold",
            field=models.CharField(default="", editable=False, max_length=240),
            preserve_default=False,
        ),
        migrations.RunPython(merge_duplicates, migrations.RunPython.noop),
    ]
