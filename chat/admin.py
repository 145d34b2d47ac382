"""The admins' lists of reports: reported messages, each with what was said
around it, and reported players (issue #33), each linking the game and the
players' pages."""

from __future__ import annotations

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.text import Truncator
from django.utils.translation import gettext_lazy as _

from accounts.models import User

from .models import Message, PlayerReport, Report

CONTEXT = 5
"""Messages shown before and after the reported one."""


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ["created_at", "reporter", "author", "text", "game", "handled"]
    list_filter = ["handled"]
    list_editable = ["handled"]
    readonly_fields = ["message", "reporter", "created_at", "context"]
    list_select_related = ["reporter", "message__author", "message__game"]

    @admin.display(description="author")
    def author(self, report: Report) -> str:
        return report.message.author.username

    @admin.display(description="message")
    def text(self, report: Report) -> str:
        return report.message.shown

    @admin.display(description="game")
    def game(self, report: Report) -> int:
        return report.message.game_id

    @admin.display(description="what was said around it")
    def context(self, report: Report) -> str:
        reported = report.message
        around = Message.objects.filter(game_id=reported.game_id).select_related(
            "author"
        )
        before = list(
            around.filter(created_at__lte=reported.created_at)
            .exclude(pk=reported.pk)
            .order_by("-created_at", "-pk")[:CONTEXT]
        )[::-1]
        after = list(
            around.filter(created_at__gte=reported.created_at)
            .exclude(pk=reported.pk)
            .order_by("created_at", "pk")[:CONTEXT]
        )
        rows = [*before, reported, *after]
        return format_html(
            "<ol>{}</ol>",
            format_html_join(
                "",
                "<li{}><time>{}</time> <b>{}</b>: {}</li>",
                (
                    (
                        format_html(' class="{}"', "reported")
                        if m.pk == reported.pk
                        else "",
                        m.created_at.strftime("%Y-%m-%d %H:%M"),
                        m.author.username,
                        m.shown,
                    )
                    for m in rows
                ),
            ),
        )


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    list_display = ["created_at", "game", "author", "shown"]
    list_select_related = ["author"]
    search_fields = ["text", "author__username"]
    raw_id_fields = ["game", "author"]


def _profile_link(user: User) -> str:
    return format_html(
        '<a href="{}">{}</a>',
        reverse("profile", kwargs={"username": user.username}),
        user.username,
    )


@admin.register(PlayerReport)
class PlayerReportAdmin(admin.ModelAdmin):
    """Reported players, the newest not handled first; each links the players'
    profiles and the game, where the moderator reads the moves."""

    list_display = [
        "created_at",
        "reporter_link",
        "reported_link",
        "reason",
        "game_link",
        "short_details",
        "handled",
    ]
    list_filter = ["handled", "reason"]
    list_editable = ["handled"]
    list_select_related = ["reporter", "reported", "game"]
    search_fields = ["reporter__username", "reported__username", "details"]
    fields = [
        "created_at",
        "reporter_link",
        "reported_link",
        "reason",
        "game_link",
        "details",
        "handled",
    ]
    readonly_fields = [
        "created_at",
        "reporter_link",
        "reported_link",
        "reason",
        "game_link",
        "details",
    ]

    def has_add_permission(self, request: object) -> bool:
        return False  # players make reports, moderators handle them

    @admin.display(description=_("reported by"), ordering="reporter__username")
    def reporter_link(self, report: PlayerReport) -> str:
        return _profile_link(report.reporter)

    @admin.display(description=_("reported player"), ordering="reported__username")
    def reported_link(self, report: PlayerReport) -> str:
        return _profile_link(report.reported)

    @admin.display(description=_("game"), ordering="game")
    def game_link(self, report: PlayerReport) -> str:
        if report.game is None:
            return "—"
        return format_html(
            '<a href="{}">#{} {}</a>',
            reverse("games:detail", kwargs={"pk": report.game.pk}),
            report.game.pk,
            report.game.get_variant_display(),
        )

    @admin.display(description=_("details"))
    def short_details(self, report: PlayerReport) -> str:
        return Truncator(report.details).chars(80)
