"""The admin of clubs: setting up clubs, players, memberships and invitations; the
history (audit trail) can be read, never added to, changed or deleted."""

from django.contrib import admin

from clubs.models import Archived, AuditEntry, Category, Club, Invitation, Membership, Player


class HistoryAdmin(admin.ModelAdmin):
    """Read-only: records that are history (written by the services only)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 1
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    exclude = ["key"]
    inlines = [MembershipInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "created_at"]
    list_filter = ["club"]
    list_select_related = ["club"]
    search_fields = ["name", "name_key"]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "role"]
    list_filter = ["role", "club"]
    list_select_related = ["user", "club"]
    search_fields = ["user__username", "club__name"]
    autocomplete_fields = ["user", "club"]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    """Invitations are made on the owner's members page; here they can be looked at and
    revoked (set "revoked at"), nothing else."""

    list_display = [
        "club",
        "role",
        "created_by",
        "created_at",
        "expires_at",
        "used_by",
        "revoked_at",
    ]
    list_filter = ["role", "club"]
    list_select_related = ["club", "created_by", "used_by"]
    readonly_fields = [
        "club",
        "role",
        "token",
        "key",
        "created_by",
        "created_at",
        "expires_at",
        "used_at",
        "used_by",
    ]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(AuditEntry)
class AuditEntryAdmin(HistoryAdmin):
    list_display = ["at", "club", "scope", "scope_id", "action", "actor", "via_link"]
    list_filter = ["scope", "action", "club"]
    list_select_related = ["club", "actor"]
    date_hierarchy = "at"


@admin.register(Category)
class CategoryAdmin(HistoryAdmin):
    """Kept on the club's categories page (``clubs.categories``)."""

    list_display = ["name", "club"]
    list_select_related = ["club"]


@admin.register(Archived)
class ArchivedAdmin(HistoryAdmin):
    """Written on the owners' page of the club's tables (``scoring.services``)."""

    list_display = ["club", "scope", "scope_id", "archived_at", "archived_by"]
    list_filter = ["scope", "club"]
    list_select_related = ["club", "archived_by"]
