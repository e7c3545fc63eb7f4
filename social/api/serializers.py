from __future__ import annotations

from rest_framework import serializers

from config.strict_input import KnownFieldsOnly

from ..models import NOTE_MAX, TEXT_MAX
from ..phrases import PHRASES


class StringField(serializers.CharField):
    """A CharField that takes a JSON string only: a number is not text (DRF would turn 5 into "5")."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class ChatPostSerializer(KnownFieldsOnly, serializers.Serializer):
    text = StringField(
        required=False,
        allow_blank=True,
        trim_whitespace=False,
        max_length=TEXT_MAX * 4,  # the exact bound (in characters, after normalizing) is the service's
        help_text=f"Plain text, 1-{TEXT_MAX} characters; links are shown as text.",
    )
    phrase = StringField(required=False, max_length=64, help_text="A quick phrase's key: " + ", ".join(PHRASES) + ".")


class ChatMessageSerializer(serializers.Serializer):
    id = serializers.CharField()
    author = serializers.CharField(help_text="The author's username.")
    text = serializers.CharField(required=False, help_text="Free text (absent for a phrase).")
    phrase = serializers.CharField(required=False, help_text="A quick phrase's key (absent for free text).")
    phrase_text = serializers.CharField(required=False, help_text="The phrase in the reader's language.")
    created_at = serializers.DateTimeField()
    hidden = serializers.BooleanField(help_text="Hidden by a moderator: only its author still reads it.")


class ModerationSerializer(serializers.Serializer):
    warned_at = serializers.DateTimeField(allow_null=True, help_text="When a moderator last warned you.")
    silenced_until = serializers.DateTimeField(allow_null=True, help_text="Your free text is refused until then.")


class ChatPageSerializer(serializers.Serializer):
    results = ChatMessageSerializer(many=True)
    next = serializers.CharField(allow_null=True, help_text="The address of the next page, if any.")
    moderation = ModerationSerializer()


class PhraseSerializer(serializers.Serializer):
    key = serializers.CharField()
    text = serializers.CharField()


class ReportSerializer(KnownFieldsOnly, serializers.Serializer):
    reason = StringField(
        allow_blank=True, trim_whitespace=False, max_length=2000, help_text="Why, in 1-500 characters."
    )


class MuteSerializer(serializers.Serializer):
    username = serializers.CharField()
    created_at = serializers.DateTimeField()


class MuteListSerializer(serializers.Serializer):
    results = MuteSerializer(many=True)


class NoteSerializer(KnownFieldsOnly, serializers.Serializer):
    text = StringField(
        allow_blank=True, trim_whitespace=False, max_length=NOTE_MAX * 4, help_text=f"At most {NOTE_MAX} characters."
    )
