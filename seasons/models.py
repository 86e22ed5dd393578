"""A club's seasons and how it ranks its players (RULES.md 7).

A *season* has a name and a first and last calendar day (Europe/Vienna); a club's
seasons do not overlap, so a score sheet (by the day it was opened) and a tournament
(by the day it starts) fall into at most one. ``RankingSettings`` holds the owner's
choices: the points key of tournaments, the minimum of games to be ranked, which
ranking the club keeps, and whether the ranking pages are public. Writes go through
``seasons.services``.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from seasons import ranking


class Season(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=80)
    first_day = models.DateField(_("first day"))
    last_day = models.DateField(_("last day"))
    key = models.UUIDField(null=True, blank=True, unique=True, help_text="one-time key of its form")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-first_day", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(first_day__lte=models.F("last_day")),
                name="season_ends_after_it_starts",
            )
        ]

    def __str__(self) -> str:
        return self.name


class Pick(models.TextChoices):
    """The ranking a club keeps (RULES.md 7)."""

    POINTS = "points", _("by tournament points")
    PER_GAME = "per_game", _("by Bummerl per game")
    BOTH = "both", _("both, as separate tables")


def default_key() -> list[list[int]]:
    return [[line.first, line.last, line.points] for line in ranking.DEFAULT_KEY]


class RankingSettings(models.Model):
    """``points_key``: ``[[first, last, points], …]`` (``ranking.KeyLine``)."""

    club = models.OneToOneField(Club, on_delete=models.CASCADE, related_name="ranking_settings")
    points_key = models.JSONField(_("points key"), default=default_key)
    participation = models.PositiveSmallIntegerField(_("points for taking part"), default=1)
    min_games = models.PositiveIntegerField(_("minimum of games to be ranked"), default=10)
    pick = models.CharField(_("ranking"), max_length=10, choices=Pick.choices, default=Pick.BOTH)
    public = models.BooleanField(_("ranking pages public"), default=False)
    key = models.UUIDField(null=True, blank=True, unique=True, help_text="one-time key of its form")

    class Meta:
        verbose_name = _("ranking settings")
        verbose_name_plural = _("ranking settings")

    def __str__(self) -> str:
        return str(self.club)

    @property
    def key_lines(self) -> list[ranking.KeyLine]:
        return [ranking.KeyLine(*line) for line in self.points_key]

    @property
    def shows_points(self) -> bool:
        return self.pick in (Pick.POINTS, Pick.BOTH)

    @property
    def shows_per_game(self) -> bool:
        return self.pick in (Pick.PER_GAME, Pick.BOTH)
