"""``manage.py seed``: load the rule-set presets and the demo club from ``seeds/``, and
set up the task worker's schedule of the night's timed work (``tournaments.jobs.tick``,
every ``TICK_MINUTES`` minutes).

Idempotent: presets and the schedule are brought up to date, the demo club is created once.
"""

import json
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from clubs import first_run
from clubs.audit import SYSTEM
from clubs.models import Club, Membership
from clubs.players import player_named
from scoring.models import RuleSet
from scoring.rules import RuleSet as CoreRuleSet
from scoring.rules.presets import preset_data
from scoring.transfer import import_document
from tournaments.simulation import simulate

TICK = "tournaments.jobs.tick"
TICK_MINUTES = 5


def schedule_tick() -> None:
    """Make the one django-q2 schedule that runs ``tournaments.jobs.tick`` every
    ``TICK_MINUTES`` minutes, or bring it back to that (a second one, made by hand in
    the admin, is removed); its next run is kept."""
    from django_q.models import Schedule

    fields = {
        "name": "Timed work of the nights",
        "schedule_type": Schedule.MINUTES,
        "minutes": TICK_MINUTES,
        "repeats": -1,
        "args": None,
        "kwargs": None,
    }
    schedules = list(Schedule.objects.filter(func=TICK).order_by("pk"))
    if not schedules:
        Schedule.objects.create(func=TICK, **fields)
        return
    first, *more = schedules
    Schedule.objects.filter(pk__in=[s.pk for s in more]).delete()
    changed = [name for name, value in fields.items() if getattr(first, name) != value]
    for name in changed:
        setattr(first, name, fields[name])
    if changed:
        first.save(update_fields=changed)


class Command(BaseCommand):
    help = "Load rule-set presets and the demo club from seeds/ (safe to run again)."

    def add_arguments(self, parser):
        parser.add_argument("--no-demo", action="store_true", help="only the presets")

    @transaction.atomic
    def handle(self, *args, **options):
        schedule_tick()
        for name, data in preset_data().items():
            rules = CoreRuleSet.from_dict(data)
            RuleSet.objects.update_or_create(
                club=None,
                preset=name,
                defaults={"name": data.get("label", name), "data": rules.to_dict()},
            )
        if options["no_demo"]:
            # A new server (make serve) without any account: the one-time code of /setup/
            # goes to the log as it starts (clubs.first_run).
            if first_run.needed():
                first_run.ensure_code()
            return
        demo = json.loads((Path(settings.BASE_DIR) / "seeds" / "demo.json").read_text("utf-8"))
        club, created = Club.objects.get_or_create(
            slug=demo["club"]["slug"], defaults={"name": demo["club"]["name"]}
        )
        users = get_user_model().objects
        for spec in demo["users"]:
            user = users.filter(username=spec["username"]).first()
            if user is None:
                user = users.create_user(spec["username"], password=spec["password"])
            Membership.objects.get_or_create(user=user, club=club, defaults={"role": spec["role"]})
        for name in demo["players"]:
            player_named(club, name)
        if created:
            for sheet in demo["sheets"]:
                import_document(club, sheet["document"], SYSTEM, sheet["title"])
            names = demo["players"] + demo["more_players"]
            for spec in demo["tournaments"]:
                simulate(club, names=names, **spec)
        self.stdout.write(f"Seeded presets and the demo club '{club.name}'.")
