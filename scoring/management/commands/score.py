"""``manage.py score FILE.json``: score a sheet document without a server or database."""

import json

from django.core.management.base import BaseCommand, CommandError

from base.jsonfiles import read_json
from scoring.rules import RuleError
from scoring.sheetjson import score_document


class Command(BaseCommand):
    help = "Score a sheet in JSON (see README) and print the scored sheet; '-' reads stdin."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser):
        parser.add_argument("file", help="the sheet document, or - for standard input")

    def handle(self, *args, **options):
        path = options["file"]
        document = read_json(path, "a sheet")
        try:
            scored = score_document(document)
        except RuleError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(json.dumps(scored, ensure_ascii=False, indent=1))
