"""A JSON document named on a management command's line (``manage.py score``,
``manage.py tournament verify``)."""

import json
import sys

from django.core.management.base import CommandError


def read_json(path: str, what: str):
    """The JSON document in the file ``path`` (UTF-8; ``-``: standard input).

    CommandError naming the file and what is wrong with it: it cannot be opened, is not
    UTF-8 or not JSON (with the line), or cannot be read as ``what`` (e.g. "a sheet").
    """
    try:
        if path == "-":
            return json.load(sys.stdin)
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise CommandError(f"{path} is not JSON: line {error.lineno}: {error.msg}") from None
    except UnicodeDecodeError:
        raise CommandError(f"{path} is not UTF-8 text") from None
    except (ValueError, RecursionError) as error:
        raise CommandError(f"{path} cannot be read as {what}: {error}") from None
