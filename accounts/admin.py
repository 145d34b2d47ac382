from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import User


class SiteUserAdmin(UserAdmin):
    """Django's user admin, with the computer players told apart."""

    list_display = (*UserAdmin.list_display, "computer_level")
    list_filter = (*UserAdmin.list_filter, "computer_level")


admin.site.register(User, SiteUserAdmin)
