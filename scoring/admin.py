"""The admin of score sheets: rule sets can be renamed; tables, seats and deals are
history (written by ``scoring.services`` only) and read-only here."""

from django.contrib import admin

from clubs.admin import HistoryAdmin
from scoring.models import Deal, RuleSet, Seat, Sheet


@admin.register(RuleSet)
class RuleSetAdmin(admin.ModelAdmin):
    """The values are changed on the club's rule-set page (checked there); here only
    the name."""

    list_display = ["name", "club", "preset", "created_at"]
    list_filter = ["club"]
    list_select_related = ["club"]
    readonly_fields = ["club", "preset", "data", "key", "created_at"]

    def has_add_permission(self, request, obj=None):
        return False


class SeatInline(admin.TabularInline):
    model = Seat
    can_delete = False
    extra = 0
    readonly_fields = ["position", "player"]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Sheet)
class SheetAdmin(HistoryAdmin):
    list_display = ["__str__", "club", "variant", "created_at", "created_by"]
    list_filter = ["variant", "club"]
    list_select_related = ["club", "created_by"]
    search_fields = ["title", "players__name"]
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(HistoryAdmin):
    list_display = ["sheet", "position", "player"]
    list_select_related = ["sheet", "player"]
    search_fields = ["player__name"]


@admin.register(Deal)
class DealAdmin(HistoryAdmin):
    list_display = ["sheet", "position", "kind", "points", "recorded_at", "voided_at"]
    list_filter = ["kind"]
    list_select_related = ["sheet"]
