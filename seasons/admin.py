"""The admin of seasons and ranking settings: read-only, the club's *Ranglisten* pages
(``seasons.services``) are where an owner changes them, with the club's history."""

from django.contrib import admin

from clubs.admin import HistoryAdmin
from seasons.models import RankingSettings, Season


@admin.register(Season)
class SeasonAdmin(HistoryAdmin):
    list_display = ["name", "club", "first_day", "last_day"]
    list_filter = ["club"]
    list_select_related = ["club"]


@admin.register(RankingSettings)
class RankingSettingsAdmin(HistoryAdmin):
    list_display = ["club", "pick", "min_games", "participation", "public"]
    list_select_related = ["club"]
