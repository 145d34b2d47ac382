from django.contrib import admin

from .models import Notice, PushSubscription


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ("user", "user_agent", "created_at", "last_used_at")
    search_fields = ("user__username",)
    raw_id_fields = ("user",)


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin):
    list_display = ("kind", "key", "user", "game", "sent_at")
    list_filter = ("kind",)
    raw_id_fields = ("user", "game")
