from __future__ import annotations

from rest_framework import serializers

from config.strict_input import KnownFieldsOnly
from games.engine.orders import MAX_RULES, PRESETS

from ..services import MAX_TURNS

PRESET_NAMES = sorted({name for sets in PRESETS.values() for name in sets})


class LimitSerializer(KnownFieldsOnly, serializers.Serializer):
    turns = serializers.IntegerField(required=False, min_value=1, max_value=MAX_TURNS, help_text="For my next n turns.")
    until = serializers.DateTimeField(required=False, help_text="Until this time (ISO 8601), within 90 days.")
    until_i_move = serializers.BooleanField(required=False, help_text="Until I play a move myself.")

    def validate(self, attrs):
        if len(attrs) != 1 or attrs.get("until_i_move") is False:
            raise serializers.ValidationError(
                'Give exactly one of {"turns": n}, {"until": time} or {"until_i_move": true}.'
            )
        return attrs


class OrdersInputSerializer(KnownFieldsOnly, serializers.Serializer):
    rules = serializers.JSONField(
        required=False,
        help_text=f'Up to {MAX_RULES} rules, each {{"when": {{<condition>: value, ...}}, "do": <action>}}; '
        "the first matching rule whose action is legal is played.",
    )
    preset = serializers.ChoiceField(
        choices=PRESET_NAMES, required=False, help_text="A ready-made set instead of rules (per game)."
    )
    limit = LimitSerializer()

    def validate(self, attrs):
        if ("rules" in attrs) == ("preset" in attrs):
            raise serializers.ValidationError('Give "rules" or "preset", not both.')
        return attrs


class PlayedSerializer(serializers.Serializer):
    version = serializers.IntegerField(help_text="The game's version after the move.")
    action = serializers.JSONField()


class OrdersSerializer(serializers.Serializer):
    rules = serializers.JSONField()
    limit = serializers.JSONField(help_text='{"turns": n} | {"until": time} | {"until_i_move": true}')
    played = PlayedSerializer(many=True, help_text="What the orders played, oldest first.")
    turns_played = serializers.IntegerField()
    active = serializers.BooleanField()
    ended = serializers.ChoiceField(
        choices=["limit", "hand_move", "game_over"], allow_null=True, help_text="Why they ended, if they did."
    )
    created_at = serializers.DateTimeField()
