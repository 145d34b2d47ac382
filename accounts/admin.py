from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import Block, Follow, User


class SiteUserAdmin(UserAdmin):
    """Django's user admin, with the computer players told apart."""

    list_display = ("username", "email", "is_staff", "computer_level")
    list_filter = ("is_staff", "is_superuser", "is_active", "computer_level")


@admin.register(Block)
class BlockAdmin(admin.ModelAdmin):
    """Who blocks whom (issue #23), for a moderator looking into a complaint."""

    list_display = ("blocker", "blocked", "created_at")
    search_fields = ("blocker__username", "blocked__username")
    raw_id_fields = ("blocker", "blocked")
    date_hierarchy = "created_at"


@admin.register(Follow)
class FollowAdmin(admin.ModelAdmin):
    """Who follows whom (issue #26); two who follow each other are friends."""

    list_display = ("follower", "followed", "created_at")
    search_fields = ("follower__username", "followed__username")
    raw_id_fields = ("follower", "followed")
    date_hierarchy = "created_at"


admin.site.register(User, SiteUserAdmin)
