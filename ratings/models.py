"""A club's player ratings, per variant (``ratings.elo`` computes them).

Everything here is derived: ``ratings.services`` writes it from the club's decided games
and may rewrite it from any game on. A ``RatedGame`` is one game as it was rated (its
``elo.Game`` values, ``seq`` its place in the club's history of that variant); each of
its ``RatingChange`` rows is one player's rating before and after it; ``Rating`` is a
player's rating after his latest game. Players are kept by id, not by a foreign key:
the rows are a cache of the history, and a merge of two players
(``clubs.players.merge_players``, which moves every foreign key to a player) leaves
them to the next re-rating instead of moving a rating that no longer holds.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from scoring.models import Sheet, Variant
from tournaments.models import Pairing


class RatedGame(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    variant = models.CharField(_("game"), max_length=20, choices=Variant.choices)
    seq = models.PositiveIntegerField(help_text="0-based place in the club's rating history")
    ref = models.CharField(max_length=40, help_text="the game's reference (elo.Game.ref)")
    played_at = models.DateTimeField()
    sides = models.JSONField(help_text="player ids per side")
    places = models.JSONField(help_text="place per side at the game's end, 0 the best")
    sheet = models.ForeignKey(
        Sheet, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    pairing = models.ForeignKey(
        Pairing, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        verbose_name = _("rated game")
        verbose_name_plural = _("rated games")
        ordering = ["club", "variant", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["club", "variant", "seq"], name="one_game_per_seq"),
            models.UniqueConstraint(fields=["club", "variant", "ref"], name="one_rating_per_game"),
        ]
        indexes = [models.Index(fields=["club", "variant", "played_at"])]

    def __str__(self) -> str:
        return f"{self.club_id}/{self.variant}#{self.seq} {self.ref}"


class RatingChange(models.Model):
    game = models.ForeignKey(RatedGame, on_delete=models.CASCADE, related_name="changes")
    player_id = models.BigIntegerField()
    before = models.FloatField()
    after = models.FloatField()

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            models.UniqueConstraint(fields=["game", "player_id"], name="one_change_per_player")
        ]
        indexes = [models.Index(fields=["player_id", "game"])]

    def __str__(self) -> str:
        return f"{self.game_id}/{self.player_id}: {self.before:.1f} → {self.after:.1f}"


class Rating(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    variant = models.CharField(_("game"), max_length=20, choices=Variant.choices)
    player_id = models.BigIntegerField()
    value = models.FloatField(_("rating"))
    games = models.PositiveIntegerField(_("games"))

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        ordering = ["-value", "player_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "variant", "player_id"], name="one_rating_per_player"
            )
        ]

    def __str__(self) -> str:
        return f"{self.club_id}/{self.variant}/{self.player_id}: {self.value:.1f}"
