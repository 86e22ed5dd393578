"""``manage.py backup [FILE]``: one consistent snapshot of the database in a file.

See ``base.backups`` for the format and what it guarantees."""

from django.core.management.base import BaseCommand, CommandError

from base.backups import Refused, take_backup


class Command(BaseCommand):
    help = (
        "Write the whole database (one consistent snapshot) to FILE, readable by its owner "
        "only; default: backups/bummerl-<time>.json.gz."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", help="where to write (.json or .json.gz)")
        parser.add_argument("--database", default="default", help="database alias")

    def handle(self, *args, **options):
        try:
            path, count = take_backup(options["file"] or None, options["database"])
        except Refused as error:
            raise CommandError(f"Backup refused: {error}") from None
        self.stdout.write(f"Backup written to {path} ({count} objects).")
