"""``manage.py score FILE.json``: score a sheet document without a server or database."""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from scoring.rules import RuleError
from scoring.sheetjson import score_document


class Command(BaseCommand):
    help = "Score a sheet in JSON (see README) and print the scored sheet; '-' reads stdin."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser):
        parser.add_argument("file", help="the sheet document, or - for standard input")

    def handle(self, *args, **options):
        path = options["file"]
        try:
            if path == "-":
                document = json.load(sys.stdin)
            else:
                with open(path, encoding="utf-8") as handle:
                    document = json.load(handle)
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror}") from None
        except json.JSONDecodeError as error:
            raise CommandError(f"{path} is not JSON: line {error.lineno}: {error.msg}") from None
        except UnicodeDecodeError:
            raise CommandError(f"{path} is not UTF-8 text") from None
        except (ValueError, RecursionError) as error:
            raise CommandError(f"{path} cannot be read as a sheet: {error}") from None
        try:
            scored = score_document(document)
        except RuleError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(json.dumps(scored, ensure_ascii=False, indent=1))
