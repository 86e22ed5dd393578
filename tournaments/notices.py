"""Mails to registered players (issue 28): sent by the task worker, in the player's
language, where the server has an SMTP server; without one the registration's private
link carries everything. Stub: filled in by the mail work."""


def notify(registration_id: int, what: str) -> None:
    """Tell a registration's player what happened to it. ``what`` is one of
    "registered", "waiting", "confirmed", "refused", "offered", "moved_up", "cancelled",
    "released". Called by the registration writers after their transaction commits."""


def send_reminders() -> int:
    """Remind the registered players of nights that start within a day; returns how many
    mails went out. Called by ``tournaments.jobs.tick``."""
    return 0


def tell_tables(tournament_id: int) -> int:
    """After round 1 is drawn, tell each checked-in player with an e-mail where he plays
    ("the night starts, your table is …"); returns how many mails went out."""
    return 0
