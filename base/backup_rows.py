"""A backup's rows in their serialized form (``base.backups``): Django's, with natural
keys for users, groups and permissions, less the fields a model names in
``BACKUP_LEAVES_OUT``.

Those are secrets not yet used, such as the next digital draw's seed and nonce
(``Tournament``, RULES.md 5.12): whoever holds a backup could foretell that draw. A
restore makes each anew by its field's default (a new seed, and so a new commitment);
a drawn round keeps its own seed in the file, for the audit."""

from collections.abc import Iterator

from django.core import serializers
from django.db import models


def left_out(model: type[models.Model]) -> tuple[str, ...]:
    """The fields of ``model`` a backup leaves out (``BACKUP_LEAVES_OUT``)."""
    return tuple(getattr(model, "BACKUP_LEAVES_OUT", ()))


def serialized(model: type[models.Model], rows: models.QuerySet) -> Iterator[dict]:
    """``rows`` of ``model`` as serialized dicts (date-times as objects), read in chunks,
    without the fields ``left_out``."""
    secret = left_out(model)
    for obj in serializers.serialize(
        "python",
        rows.iterator(chunk_size=2000),
        use_natural_foreign_keys=True,
        use_natural_primary_keys=True,
    ):
        for name in secret:
            del obj["fields"][name]
        yield obj
