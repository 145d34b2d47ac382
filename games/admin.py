from django.contrib import admin

from games.models import Game, Move, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("pk", "variant", "status", "players", "ply", "turn_deadline")
    list_filter = ("status", "variant")
    inlines = [SeatInline]
    readonly_fields = ("state",)


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("game", "ply", "user", "created_at")
