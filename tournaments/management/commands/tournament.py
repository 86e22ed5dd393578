"""``manage.py tournament simulate``: a whole night by chance, printed as the export."""

import json

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from base.jsonfiles import read_json
from clubs.models import Club
from scoring.rules import RuleError
from tournaments.export import export
from tournaments.services.reading import DRAWABLE_COUNTS
from tournaments.simulation import simulate, simulate_format
from tournaments.verify import check_export


class Command(BaseCommand):
    help = (
        "Preisschnapsen tools. 'simulate' plays a whole night by chance and prints its export; "
        "'verify EXPORT.json' replays every draw of an export and checks its commitments."
    )

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        run = sub.add_parser("simulate", help="play a night by chance (nothing is kept)")
        run.add_argument("--cards", type=int, default=64)
        run.add_argument("--players", type=int, default=41)
        run.add_argument("--max-cards", type=int, default=3)
        run.add_argument("--seed", type=int, default=7)
        run.add_argument("--keep", action="store_true", help="keep the tournament in the database")
        run.add_argument(
            "--format",
            choices=["cards", "leben", "points"],
            default="cards",
            help="cards (knock-out), leben (lives) or points (Danish system)",
        )
        run.add_argument("--lives", type=int, default=2, help="leben: lives per player (1-3)")
        run.add_argument("--rebuy-until", type=int, default=None, help="leben: lives bought until")
        run.add_argument("--rounds", type=int, default=5, help="points: rounds (1-30)")
        run.add_argument("--team-size", type=int, default=None, help="points: players per team")
        run.add_argument(
            "--repeat", action="store_true", help="points: allow meeting the last opponent"
        )

        check = sub.add_parser(
            "verify", help="replay every draw of an export and check its commitments"
        )
        check.add_argument("export", help="an export (JSON file), or - for standard input")

    def handle(self, *args, **options):
        if options["action"] == "verify":
            return self.verify(options["export"])
        if options["format"] != "cards":
            return self._simulate_format(options)
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

    def _simulate_format(self, options):
        """A Leben or points event (``--players`` entries, one each), printed as the export."""
        try:
            with transaction.atomic():
                club, _created = Club.objects.get_or_create(
                    slug="simulation", defaults={"name": "Simulation"}
                )
                tournament = simulate_format(
                    club,
                    options["format"],
                    options["players"],
                    options["seed"],
                    lives=options["lives"],
                    rebuy_until=options["rebuy_until"],
                    rounds=options["rounds"],
                    avoid_repeat=not options["repeat"],
                    team_size=options["team_size"],
                )
                document = export(tournament)
                if not options["keep"]:
                    transaction.set_rollback(True)
        except RuleError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(json.dumps(document, ensure_ascii=False, indent=1))

    def verify(self, path: str) -> None:
        """RULES.md 5.12: one line per draw; exit status 1 when any check fails."""
        document = read_json(path, "an export")
        if not isinstance(document, dict) or not isinstance(document.get("rounds"), list):
            raise CommandError(f"{path} is not a tournament export (no rounds)")
        checks = check_export(document)
        for c in checks:
            what = {
                "round": f"round {c.number}",
                "placement": "the draw of the matches for places 5-8",
            }.get(c.what, f"lots for place {c.number}")
            how = "digital" if c.digital else "at the venue"
            sealed = {True: "commitment ok", False: "COMMITMENT WRONG", None: "no commitment"}
            status = "ok" if c.ok else "FAILED"
            parts = [what, how, sealed[c.commitment] if c.what == "round" and c.digital else ""]
            line = ", ".join(p for p in parts if p) + f": {status}"
            if c.problems:
                line += " (" + "; ".join(c.problems) + ")"
            self.stdout.write(line)
        failed = sum(not c.ok for c in checks)
        self.stdout.write(f"{len(checks)} draws checked, {failed} failed")
        if failed:
            raise SystemExit(1)
