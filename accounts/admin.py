from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import User


class SiteUserAdmin(UserAdmin):
    """Django's user admin, with the computer players told apart."""

    list_display = ("username", "email", "is_staff", "computer_level")
    list_filter = ("is_staff", "is_superuser", "is_active", "computer_level")


admin.site.register(User, SiteUserAdmin)
