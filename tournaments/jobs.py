"""The night's timed work, run every few minutes by the task worker's schedule
(``seed`` sets it up): waiting-list offers that ran out, no-shows at the close of
check-in, and the reminders the day before; and the site's limits' counts whose window
ended (``base.limits.purge``)."""

from base import limits
from tournaments import notices
from tournaments.services import checkin


def tick() -> None:
    """One round of the timed work for every announced night; safe to run at any time
    and twice at once (each writer locks its night)."""
    checkin.expire_due()
    notices.send_reminders()
    limits.purge()
