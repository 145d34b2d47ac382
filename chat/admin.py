"""The admins' list of reported messages, each with what was said around it."""

from __future__ import annotations

from django.contrib import admin
from django.utils.html import format_html, format_html_join

from .models import Message, Report

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
