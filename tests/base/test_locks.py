"""The writers' row locks follow ``base.locks``: FOR NO KEY UPDATE, never FOR UPDATE,
which waits for every foreign key's check on the row (an audit entry's on its club)."""

import re
from pathlib import Path

from django.db import connection

from base import locks

ROOT = Path(__file__).resolve().parents[2]
APPS = ("base", "clubs", "cups", "ratings", "scoring", "seasons", "tournaments")


def test_no_writer_takes_a_row_lock_that_waits_for_foreign_key_checks():
    plain = [
        f"{path.relative_to(ROOT)}:{number}"
        for app in APPS
        for path in sorted((ROOT / app).rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"select_for_update\((?!no_key=True\))|[\"'] ?FOR UPDATE\b", line)
    ]
    assert plain == []


def test_the_hand_written_row_lock_is_no_key_update_on_postgresql_and_none_on_sqlite():
    expected = " FOR NO KEY UPDATE" if connection.vendor == "postgresql" else ""
    assert locks.row_lock() == expected
