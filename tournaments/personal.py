"""A player's personal link for the night (``/p/me/<token>/``): a signed token, no model
field. The token carries the tournament's id and the player's id, signed with the site's
secret under a salt of its own (``SALT``), so that no other signed value of the site
passes for it and no one makes one for another player. It only reads: the page shows the
player's own matches, byes and place (RULES.md 5.3, 5.2, 5.8), nothing of other players
beyond names and tables. It cannot be revoked one by one (it is not stored); changing
``SECRET_KEY`` ends every one."""

from django.core import signing

SALT = "tournaments.personal-link"


def personal_token(tournament_id: int, player_id: int) -> str:
    """The token of the player's personal link for the tournament: URL-safe, the same
    every time for the same two ids (no timestamp: it works as long as the tournament
    does, so that a card printed before the night still opens)."""
    value = {"t": tournament_id, "p": player_id}
    return signing.Signer(salt=SALT).sign_object(value, compress=True)


def read_personal_token(token: str) -> tuple[int, int] | None:
    """``(tournament id, player id)`` of a token made by ``personal_token``; None for a
    wrong, tampered or otherwise signed token."""
    try:
        value = signing.Signer(salt=SALT).unsign_object(token)
    except (signing.BadSignature, ValueError):
        return None
    if not isinstance(value, dict):
        return None
    tournament, player = value.get("t"), value.get("p")
    if isinstance(tournament, bool) or isinstance(player, bool):
        return None
    if not (isinstance(tournament, int) and isinstance(player, int)):
        return None
    return tournament, player
