"""The receivers that keep the ratings in step with the writers: each enqueues a
re-rating task (``ratings.services``) once the writing transaction commits, so that
the phone that recorded a deal or a result never waits for it (DESIGN 8).
``ratings.apps`` connects them."""

from typing import Any

from clubs.models import Player
from ratings.services import after_commit
from scoring.models import Sheet
from tournaments.models import Pairing


def sheet_games_changed(sender: type, sheet: Sheet, **kwargs: Any) -> None:
    """Receiver of ``scoring.signals.games_changed``: a table's finished games may have
    changed (a match sheet is rated as its match, by ``result_changed``)."""
    if not sheet.reports_result:
        after_commit("ratings.services.follow_sheet", sheet.pk)


def match_result_changed(sender: type, pairing: Pairing, **kwargs: Any) -> None:
    """Receiver of ``tournaments.signals.result_changed``."""
    after_commit("ratings.services.follow_pairing", pairing.pk)


def player_deleted(sender: type, instance: Player, **kwargs: Any) -> None:
    """Receiver of ``post_delete`` of a player: a merge (``clubs.players.merge_players``)
    moved his games to another player, so the club is rated again."""
    after_commit("ratings.services.rerate_club", instance.club_id)
