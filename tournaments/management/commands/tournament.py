"""``manage.py tournament simulate``: a whole night by chance, printed as the export."""

import json

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from clubs.models import Club
from tournaments.export import export
from tournaments.services.reading import DRAWABLE_COUNTS
from tournaments.simulation import simulate


class Command(BaseCommand):
    help = "Preisschnapsen tools. 'simulate' plays a whole night by chance and prints its export."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        run = sub.add_parser("simulate", help="play a night by chance (nothing is kept)")
        run.add_argument("--cards", type=int, default=64)
        run.add_argument("--players", type=int, default=41)
        run.add_argument("--max-cards", type=int, default=3)
        run.add_argument("--seed", type=int, default=7)
        run.add_argument("--keep", action="store_true", help="keep the tournament in the database")

    def handle(self, *args, **options):
        if options["cards"] not in DRAWABLE_COUNTS:
            raise CommandError("--cards must be a power of two from 2 to 1024")
        if options["players"] * options["max_cards"] <= options["cards"] // 2:
            raise CommandError("too few players and cards per player for that many cards")
        with transaction.atomic():
            club, _created = Club.objects.get_or_create(
                slug="simulation", defaults={"name": "Simulation"}
            )
            tournament = simulate(
                club, options["cards"], options["players"], options["max_cards"], options["seed"]
            )
            document = export(tournament)
            if not options["keep"]:
                transaction.set_rollback(True)
        self.stdout.write(json.dumps(document, ensure_ascii=False, indent=1))
