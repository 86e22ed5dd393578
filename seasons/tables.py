"""Season ranking tables (django-tables2). The rows come ranked from
``seasons.ranking`` and the tables are not sortable: the page, each of its pages, the
CSV/ODS/XLSX export and the printout list the players in the one ranking order."""

import django_tables2 as tables
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

NUM = {"td": {"class": "num"}, "th": {"class": "num"}}


def per_game_text(row) -> str:
    """Bummerl per game with two decimals ("0,42" in German), "–" without a game."""
    value = row.per_game
    return "–" if value is None else number_format(round(float(value), 2), 2)


class RankingTable(tables.Table):
    rank = tables.Column(verbose_name=_("Rank"), attrs=NUM, empty_values=())
    name = tables.Column(verbose_name=_("Player"))

    class Meta:
        attrs = {"class": "list ranking"}
        orderable = False
        empty_text = _("Nobody played in this time yet.")

    def __init__(self, *args, club, link_players: bool, **kwargs):
        self.club = club
        self.link_players = link_players
        super().__init__(*args, **kwargs)

    def render_rank(self, record):
        return "" if record.rank is None else f"{record.rank}."

    def value_rank(self, record):
        return "" if record.rank is None else record.rank

    def render_name(self, record, value):
        if not self.link_players:
            return value
        url = reverse("player", kwargs={"slug": self.club.slug, "player_id": record.player_id})
        return format_html('<a href="{}">{}</a>', url, value)

    def value_name(self, record, value):
        return value


class GameTable(RankingTable):
    """A game's figures, ranked by Bummerl per game (RULES.md 7)."""

    class Meta(RankingTable.Meta):  # django-tables2 does not inherit Meta by itself
        pass

    per_game = tables.Column(verbose_name=_("Bummerl per game"), attrs=NUM, empty_values=())
    bummerl = tables.Column(verbose_name=_("Bummerl received"), attrs=NUM)
    schneider = tables.Column(verbose_name=_("Schneider received"), attrs=NUM)
    games = tables.Column(verbose_name=_("Games"), attrs=NUM)
    evenings = tables.Column(verbose_name=_("Evenings"), attrs=NUM)  # days
    sheets = tables.Column(verbose_name=_("Tables"), attrs=NUM)

    def render_per_game(self, record):
        return per_game_text(record)

    def value_per_game(self, record):
        value = record.per_game
        return "" if value is None else round(float(value), 4)


class PointsTable(RankingTable):
    """Tournament points by the club's points key (RULES.md 7)."""

    class Meta(RankingTable.Meta):
        pass

    points = tables.Column(verbose_name=_("Points"), attrs=NUM)
    tournaments = tables.Column(verbose_name=_("Tournaments"), attrs=NUM)
