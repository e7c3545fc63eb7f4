"""The moderation queue: reported messages, each with its table's talk around it and its author's
history, and the moderators' actions (hide the message, warn its author, silence the author's free
text for some days). Authors are never told who reported them."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.db.models import Count, QuerySet
from django.template.response import TemplateResponse
from django.utils.html import format_html, format_html_join

from . import moderation
from .models import ChatMessage, ChatReport, ChatSilence, ChatWarning, ReportStatus

CONTEXT_MESSAGES = 5  # before and after the reported one


class SilenceForm(forms.Form):
    days = forms.IntegerField(min_value=1, max_value=moderation.MAX_SILENCE_DAYS, initial=7)
    reason = forms.CharField(max_length=500, required=False, widget=forms.Textarea(attrs={"rows": 3}))


def message_line(message: ChatMessage) -> tuple:
    hidden = " [hidden]" if message.hidden_at else ""
    return (
        message.created_at.strftime("%Y-%m-%d %H:%M"),
        message.author.username,
        message.text or f"({message.phrase})",
        hidden,
    )


@admin.register(ChatReport)
class ChatReportAdmin(admin.ModelAdmin):
    list_display = ("created_at", "status", "author", "message_text", "reason", "reporter", "reports_on_message")
    list_filter = ("status",)
    search_fields = ("message__author__username", "reporter__username", "message__text", "reason")
    ordering = ("status", "created_at")
    readonly_fields = (
        "message",
        "reporter",
        "reason",
        "created_at",
        "resolved_at",
        "resolved_by",
        "context",
        "history",
    )
    fields = ("status", *readonly_fields)
    actions = ["hide_messages", "warn_authors", "silence_authors", "dismiss_reports"]

    def get_queryset(self, request):
        queryset = super().get_queryset(request).select_related("message__author", "message__game", "reporter")
        return queryset.annotate(message_reports=Count("message__reports"))

    def has_add_permission(self, request) -> bool:
        return False

    @admin.display(description="author")
    def author(self, report: ChatReport) -> str:
        return report.message.author.username

    @admin.display(description="message")
    def message_text(self, report: ChatReport) -> str:
        return report.message.text or f"({report.message.phrase})"

    @admin.display(description="reports of it")
    def reports_on_message(self, report: ChatReport) -> int:
        return report.message_reports

    @admin.display(description="the table's talk around it")
    def context(self, report: ChatReport) -> str:
        message = report.message
        around = ChatMessage.objects.filter(game_id=message.game_id).select_related("author")
        before = list(around.filter(pk__lt=message.pk).order_by("-pk")[:CONTEXT_MESSAGES])[::-1]
        after = list(around.filter(pk__gt=message.pk).order_by("pk")[:CONTEXT_MESSAGES])
        lines = [message_line(m) for m in before] + [(*message_line(message)[:3], " ◀ reported")]
        lines += [message_line(m) for m in after]
        table = format_html("<p>game {} ({})</p>", message.game.public_id, message.game.kind)
        return table + format_html_join("", "<div>{} <b>{}</b>: {}{}</div>", lines)

    @admin.display(description="the author's history")
    def history(self, report: ChatReport) -> str:
        author_id = report.message.author_id
        recent = ChatMessage.objects.filter(author_id=author_id).select_related("author").order_by("-pk")[:20]
        reported = ChatReport.objects.filter(message__author_id=author_id).values("status").annotate(n=Count("pk"))
        warnings = ChatWarning.objects.filter(user_id=author_id).count()
        silences = ChatSilence.objects.filter(user_id=author_id).order_by("-until")
        summary = format_html(
            "<p>reports of their messages: {}; warnings: {}; silences: {}</p>",
            ", ".join(f"{r['n']} {r['status']}" for r in reported) or "none",
            warnings,
            ", ".join(f"until {s.until:%Y-%m-%d}" for s in silences) or "none",
        )
        return summary + format_html_join("", "<div>{} <b>{}</b>: {}{}</div>", (message_line(m) for m in recent))

    def messages_of(self, reports: QuerySet[ChatReport]) -> list[ChatMessage]:
        return list({r.message_id: r.message for r in reports.select_related("message")}.values())

    @admin.action(description="Hide the reported messages")
    def hide_messages(self, request, queryset):
        for message in self.messages_of(queryset):
            moderation.hide_message(message=message, moderator=request.user)
        self.message_user(request, "The messages are hidden; their authors see that they were.", messages.SUCCESS)

    @admin.action(description="Warn the authors")
    def warn_authors(self, request, queryset):
        for message in self.messages_of(queryset):
            moderation.warn_author(message=message, moderator=request.user)
        self.message_user(request, "The authors are warned (they are not told by whom they were reported).")

    @admin.action(description="Silence the authors' free text for some days…")
    def silence_authors(self, request, queryset):
        form = SilenceForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            for message in self.messages_of(queryset):
                moderation.silence_author(
                    message=message,
                    days=form.cleaned_data["days"],
                    reason=form.cleaned_data["reason"],
                    moderator=request.user,
                )
            self.message_user(request, f"Silenced for {form.cleaned_data['days']} days; their phrases still work.")
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": "Silence the authors' free text",
            "form": form,
            "reports": queryset,
            "action": "silence_authors",
            "opts": self.model._meta,
            "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/social/silence.html", context)

    @admin.action(description="Dismiss the reports")
    def dismiss_reports(self, request, queryset):
        moderation.dismiss(reports=list(queryset.filter(status=ReportStatus.OPEN)), moderator=request.user)


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("created_at", "author", "game", "text", "phrase", "hidden_at")
    search_fields = ("author__username", "text", "game__public_id")
    raw_id_fields = ("game", "author")
    readonly_fields = ("public_id", "game", "author", "text", "phrase", "revision", "created_at")


@admin.register(ChatSilence)
class ChatSilenceAdmin(admin.ModelAdmin):
    list_display = ("user", "until", "reason", "created_by", "created_at")
    search_fields = ("user__username",)
    raw_id_fields = ("user", "created_by")
