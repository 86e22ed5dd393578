"""The writers' row locks: what kind of lock they take, and the one order they take them in.

On PostgreSQL two transactions that each hold a lock the other waits for end in
"deadlock detected": one of them fails (a deal answered 500). Two rules keep every
writer and job of the site out of such a circle; SQLite needs neither, since its
IMMEDIATE transactions hold the whole file's write lock from BEGIN.

1. **A row lock is FOR NO KEY UPDATE** (``select_for_update(no_key=True)``, and
   ``ROW_LOCK`` in hand-written SQL), never Django's default FOR UPDATE. Every insert
   of a row that points at another row takes a FOR KEY SHARE lock on that row (the
   foreign key's check): an audit entry on its club, a deal on its sheet, a rated game
   on its club and sheet. FOR UPDATE waits for those, and they for it; FOR NO KEY
   UPDATE does not, and is what PostgreSQL itself takes for an UPDATE. No writer
   changes a locked row's id; a writer that deletes a row waits for its references
   there, as it must.
2. **One order.** A writer takes the locks it needs in this order, a later one never
   before an earlier one, several rows of one kind by id:

   1. an organising body (``cups.services.locked_body``), then its cup, cup night or
      person's link;
   2. a club (``clubs.services.lock_members``, the seasons' and the club's settings),
      then its accounts, seasons and ranking settings;
   3. players of a club (``clubs.players``);
   4. score sheets (``scoring.services.locked_sheet``; several:
      ``tournaments.services.sheets.lock_sheets_first``);
   5. the tournament (``tournaments.services.reading.locked``), then its cards and
      registrations;
   6. a club's rule set (``scoring.rulesets``).

   A job that must run one at a time per object but writes only rows of its own (the
   re-rating of a club's ratings) takes no row lock of the writers' at all: it holds a
   lock of its own (``serialised``), so it never stands in their order.
"""

from django.db import connections

ROW_LOCK = " FOR NO KEY UPDATE"
"""The row lock of rule 1, for a ``SELECT`` written by hand (PostgreSQL only)."""


def row_lock(using: str = "default") -> str:
    """``ROW_LOCK`` where the database has row locks (PostgreSQL), else ``""``."""
    return ROW_LOCK if connections[using].features.has_select_for_no_key_update else ""


def serialised(name: str, number: int, using: str = "default") -> None:
    """Hold the lock ``name`` of object ``number`` (a club's id) until the transaction
    ends, waiting while another transaction holds it: PostgreSQL's transaction-level
    advisory lock, which no row lock waits for. SQLite: nothing to do (the IMMEDIATE
    transaction holds the file's write lock). Call it inside ``transaction.atomic``."""
    connection = connections[using]
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            # One 64-bit key: the hash of the name and the number (two names that hash
            # alike would only wait for each other, never write wrongly).
            cursor.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [f"{name}:{number}"]
            )
