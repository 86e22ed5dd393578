"""One person is one player, also for look-alike names: names are stored without
invisible characters (zero-width space, soft hyphen, direction marks: Unicode Cf and Cc)
and with every kind of space collapsed, and the identity ``name_fold`` is compatibility
normalised (NFKC: full-width "Ａｎｎａ" is "Anna") before case folding.

The keys of existing players are computed again; players who turn out to be one person
are merged as in 0002 (its ``merge_by``, with the new spelling rules): into the oldest,
or renamed "… (2)" when they sat at one table. A player whose name had nothing visible
(a rename to a zero-width space) is named "Spieler <id> (ohne Namen)" to be found again.

The functions are copies of ``base.text`` as of this migration, so that later changes
there do not change what this migration did.
"""

import importlib
import unicodedata

from django.db import migrations

_0002 = importlib.import_module("clubs.migrations.0002_player_name_fold_merge_duplicates")

ZWJ = "\u200d"


def _kept(text, i):
    ch = text[i]
    if unicodedata.category(ch) not in ("Cf", "Cc"):
        return True
    if ch != ZWJ or i == 0 or i + 1 == len(text):
        return False
    before, after = text[i - 1], text[i + 1]
    return unicodedata.category(after) == "So" and (
        unicodedata.category(before) in ("So", "Sk") or "\ufe00" <= before <= "\ufe0f"
    )


def clean_name(text):
    text = unicodedata.normalize("NFC", text)
    visible = "".join(
        " " if ch.isspace() else ch for i, ch in enumerate(text) if ch.isspace() or _kept(text, i)
    )
    return " ".join(visible.split())


def name_fold(text):
    compatible = unicodedata.normalize("NFKC", clean_name(text))
    return unicodedata.normalize("NFKC", " ".join(compatible.casefold().split()))


def recompute(apps, schema_editor):
    Player = apps.get_model("clubs", "Player")
    db = schema_editor.connection.alias
    for player in Player.objects.using(db):
        if not clean_name(player.name):
            Player.objects.using(db).filter(pk=player.pk).update(name=f"Spieler {player.pk} (ohne Namen)")
    _0002.merge_by(apps, clean_name, name_fold, _0002.german_key, db)


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0004_invitation"),
        # Merging moves the rows of the apps that point at players, and respects
        # their unique rules as they stand.
        ("scoring", "0004_sheet_lock"),
        ("tournaments", "0003_card_withdrawal_and_sheet_outcome"),
    ]

    operations = [migrations.RunPython(recompute, migrations.RunPython.noop)]
