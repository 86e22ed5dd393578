"""``manage.py rerate [club-slug]``: rate a club's games again (every club without a
slug), from the first game that differs from the stored history; ``--all`` rates from
scratch."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubs.models import Club
from ratings.services import rerate_club


class Command(BaseCommand):
    help = "Rate a club's games again (every club's when no slug is given)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", nargs="?", help="the club (default: every club)")
        parser.add_argument(
            "--all", action="store_true", help="forget the stored history and rate from scratch"
        )

    def handle(self, *args: Any, slug: str | None = None, **options: Any) -> None:
        clubs = Club.objects.order_by("pk")
        if slug:
            clubs = clubs.filter(slug=slug)
            if not clubs.exists():
                raise CommandError(f"no club {slug!r}")
        for club in clubs:
            count = rerate_club(club.pk, scratch=options["all"])
            self.stdout.write(f"{club.slug}: {count} games rated")
