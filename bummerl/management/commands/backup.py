"""``manage.py backup [--club SLUG] [FILE]``: one consistent snapshot of the database, or
of one club's rows, in a file.

See ``base.backups`` for the format and what it guarantees, ``base.club_backups`` for
what a club file holds."""

from django.core.management.base import BaseCommand, CommandError

from base.backups import Refused, take_backup
from base.club_backups import take_club_backup
from clubs.models import Club


class Command(BaseCommand):
    help = (
        "Write the whole database (one consistent snapshot) to FILE, readable by its owner "
        "only; default: backups/bummerl-<time>.json.gz. With --club SLUG: that club's rows "
        "and the accounts and presets they need (backups/club-<slug>-<time>.json.gz)."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", help="where to write (.json or .json.gz)")
        parser.add_argument("--club", help="back up only this club (its slug)")
        parser.add_argument("--database", default="default", help="database alias")

    def handle(self, *args, **options):
        using = options["database"]
        try:
            if options["club"]:
                club = Club.objects.using(using).filter(slug=options["club"]).first()
                if club is None:
                    raise Refused(f"there is no club {options['club']!r}")
                path, count = take_club_backup(club, options["file"] or None, using)
            else:
                path, count = take_backup(options["file"] or None, using)
        except Refused as error:
            raise CommandError(f"Backup refused: {error}") from None
        self.stdout.write(f"Backup written to {path} ({count} objects).")
