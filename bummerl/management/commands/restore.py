"""``manage.py restore FILE``: replace the data by a backup file, after checking it.

See ``base.backups`` for what is checked and what is kept."""

from django.core.management.base import BaseCommand, CommandError

from base.backups import Refused, restore_backup


class Command(BaseCommand):
    help = (
        "Check FILE (a file of `manage.py backup`) in a scratch database, then replace all "
        "data by it in one transaction; the data before is kept in a file of its own."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="a backup file (.json or .json.gz)")
        parser.add_argument("--database", default="default", help="database alias")

    def handle(self, *args, **options):
        try:
            count, before = restore_backup(options["file"], options["database"])
        except Refused as error:
            raise CommandError(f"Restore refused: {error}") from None
        self.stdout.write(
            f"Restored {count} objects from {options['file']}. "
            f"The data before the restore is in {before}."
        )
