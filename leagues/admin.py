"""Staff add leagues, look at seasons and waive the entry requirement."""

from __future__ import annotations

from django.contrib import admin

from leagues.models import Entry, Group, League, Season, Waiver


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin[League]):
    list_display = ["slug", "variant", "players", "clock", "season_weeks", "active"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin[Season]):
    list_display = ["league", "number", "status", "opens_at", "starts_at", "ends_at"]
    list_filter = ["league", "status"]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin[Entry]):
    list_display = ["season", "user", "confirmed", "group", "left", "place"]
    list_filter = ["season__league", "left"]
    raw_id_fields = ["user", "group"]


@admin.register(Group)
class GroupAdmin(admin.ModelAdmin[Group]):
    list_display = ["season", "division", "number"]


@admin.register(Waiver)
class WaiverAdmin(admin.ModelAdmin[Waiver]):
    list_display = ["user", "granted_by", "note", "created_at"]
    raw_id_fields = ["user", "granted_by"]

    def save_model(self, request, obj, form, change):  # type: ignore[no-untyped-def]
        if obj.granted_by_id is None:
            obj.granted_by = request.user
        super().save_model(request, obj, form, change)
