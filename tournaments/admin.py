"""The admin of Preisschnapsen nights: all of it is history written by
``tournaments.services`` (cards, draws, pulls, results), read-only here; the desk is
where a night is run."""

from django.contrib import admin

from clubs.admin import HistoryAdmin
from tournaments.models import (
    Card,
    Pairing,
    Pull,
    Registration,
    Report,
    Result,
    Round,
    TieBreak,
    Tournament,
)


@admin.register(Tournament)
class TournamentAdmin(HistoryAdmin):
    list_display = ["name", "club", "starts_at", "cards"]
    list_filter = ["club"]
    list_select_related = ["club"]
    search_fields = ["name"]


@admin.register(Card)
class CardAdmin(HistoryAdmin):
    list_display = ["number", "tournament", "player", "paid", "sold_at"]
    list_filter = ["paid"]
    list_select_related = ["tournament", "player"]
    search_fields = ["player__name"]


@admin.register(Round)
class RoundAdmin(HistoryAdmin):
    list_display = ["__str__", "number", "pot_size", "seed", "drawn_at", "undone_at"]
    list_select_related = ["tournament"]


@admin.register(Pull)
class PullAdmin(HistoryAdmin):
    list_display = ["round", "index", "player", "card", "pot", "number", "put_back"]
    list_select_related = ["round__tournament", "player", "card"]


@admin.register(Pairing)
class PairingAdmin(HistoryAdmin):
    list_display = ["__str__", "tournament", "stage", "kind", "left", "right", "voided_at"]
    list_filter = ["stage", "kind"]
    list_select_related = ["tournament", "round__tournament", "left", "right"]


@admin.register(Result)
class ResultAdmin(HistoryAdmin):
    list_display = ["pairing", "winner", "score", "recorded_at", "via_link", "voided_at"]
    list_select_related = ["pairing__tournament", "pairing__round__tournament", "winner"]


@admin.register(Report)
class ReportAdmin(HistoryAdmin):
    list_display = ["__str__", "side", "score", "reported_at", "closed_at", "outcome"]
    list_filter = ["outcome"]
    list_select_related = ["pairing", "winner__player"]


@admin.register(TieBreak)
class TieBreakAdmin(HistoryAdmin):
    list_display = ["__str__", "first", "kind", "seed", "recorded_at", "voided_at"]
    list_select_related = ["tournament"]


@admin.register(Registration)
class RegistrationAdmin(HistoryAdmin):
    list_display = ["name", "tournament", "cards", "status", "paid", "created_at"]
    list_filter = ["status"]
    list_select_related = ["tournament"]
    exclude = ["token", "key"]  # the private link and the form's key stay out of sight
