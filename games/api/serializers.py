"""Input serializers that validate requests, and output serializers that document responses.

Responses are built by the selectors as plain dicts (a move must stay cheap); the output
serializers here describe those dicts for the OpenAPI schema.
"""

from __future__ import annotations

from rest_framework import serializers

from games import clock
from games.engine import KINDS
from games.engine.bots import BOT_LEVELS
from games.models import GameStatus, TimeoutPolicy

# --- input -------------------------------------------------------------------------------------


class TimeBankSerializer(serializers.Serializer):
    initial = serializers.IntegerField(min_value=clock.MIN_MOVE_TIME, max_value=clock.MAX_MOVE_TIME)
    increment = serializers.IntegerField(min_value=0, max_value=clock.MAX_MOVE_TIME)
    cap = serializers.IntegerField(min_value=clock.MIN_MOVE_TIME, max_value=clock.MAX_MOVE_TIME)

    def validate(self, attrs):
        if attrs["initial"] > attrs["cap"]:
            raise serializers.ValidationError("initial may not exceed cap.")
        return attrs


class GameCreateSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=KINDS)
    seats = serializers.IntegerField(min_value=2, max_value=9, help_text="How many seats, yours included.")
    options = serializers.DictField(required=False, default=dict, help_text="Rules options; defaults fill the rest.")
    move_time_limit = serializers.IntegerField(
        required=False,
        default=86400,
        min_value=clock.MIN_MOVE_TIME,
        max_value=clock.MAX_MOVE_TIME,
        help_text="Seconds per move, from 60 seconds to 30 days.",
    )
    time_bank = TimeBankSerializer(
        required=False, allow_null=True, default=None, help_text="Instead of a limit per move: a bank per player."
    )
    timeout_policy = serializers.ChoiceField(choices=TimeoutPolicy.choices, required=False, default="autoplay")
    bots = serializers.ListField(
        child=serializers.ChoiceField(choices=BOT_LEVELS), required=False, default=list, max_length=8
    )
    invite = serializers.ListField(
        child=serializers.CharField(max_length=150), required=False, default=list, max_length=8
    )
    invite_days = serializers.IntegerField(required=False, default=14, min_value=1, max_value=60)
    is_private = serializers.BooleanField(required=False, default=False)


class ActionSerializer(serializers.Serializer):
    type = serializers.CharField(max_length=32)
    card = serializers.CharField(max_length=4, required=False)
    cards = serializers.ListField(child=serializers.CharField(max_length=4), required=False, max_length=13)
    meld = serializers.IntegerField(required=False, min_value=0)


class MoveCreateSerializer(serializers.Serializer):
    action = ActionSerializer()
    version = serializers.IntegerField(min_value=0, help_text="The game's version you are answering.")


class JoinSerializer(serializers.Serializer):
    invite_token = serializers.CharField(required=False, default="", allow_blank=True, max_length=64)


class InviteLinkCreateSerializer(serializers.Serializer):
    days = serializers.IntegerField(required=False, default=14, min_value=1, max_value=60)


class GameListQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=GameStatus.choices, required=False)
    kind = serializers.ChoiceField(choices=KINDS, required=False)
    player = serializers.CharField(required=False, max_length=150)


class MoveListQuerySerializer(serializers.Serializer):
    after = serializers.IntegerField(required=False, default=0, min_value=0)


# --- output (documentation of the selectors' dicts) -------------------------------------------


class SeatSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    username = serializers.CharField(allow_null=True)
    display_name = serializers.CharField(allow_null=True)
    is_bot = serializers.BooleanField()
    bot_level = serializers.CharField(allow_null=True)
    invited = serializers.CharField(allow_null=True, help_text="Username of the invited player holding this seat.")
    reserved = serializers.BooleanField()
    place = serializers.IntegerField(allow_null=True)
    resigned = serializers.BooleanField()
    bank_remaining = serializers.IntegerField(allow_null=True, help_text="Seconds left in this player's time bank.")
    on_vacation_until = serializers.DateTimeField(allow_null=True, help_text="Clocks stopped until then.")
    public = serializers.DictField(help_text="Public game facts: cards held, tokens or score, melds.")


class GameSummarySerializer(serializers.Serializer):
    id = serializers.CharField()
    kind = serializers.ChoiceField(choices=KINDS)
    status = serializers.ChoiceField(choices=GameStatus.choices)
    version = serializers.IntegerField()
    options = serializers.DictField()
    num_seats = serializers.IntegerField()
    is_private = serializers.BooleanField()
    creator = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField(allow_null=True))
    open_seats = serializers.IntegerField()
    to_act = serializers.IntegerField(allow_null=True)
    is_your_turn = serializers.BooleanField()
    move_time_limit = serializers.IntegerField()
    timeout_policy = serializers.CharField()
    time_bank = TimeBankSerializer(allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True)
    seconds_left = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class FairnessSerializer(serializers.Serializer):
    seed_sha256 = serializers.CharField(
        allow_null=True, help_text="SHA-256 of the shuffle seed, public from the start."
    )
    seed = serializers.CharField(allow_null=True, help_text="The seed itself, revealed once the game is over.")


class GameDetailSerializer(GameSummarySerializer):
    your_seat = serializers.IntegerField(allow_null=True)
    hand = serializers.ListField(child=serializers.CharField(), allow_null=True)
    legal_actions = serializers.ListField(child=serializers.DictField())
    seats = SeatSerializer(many=True)
    state = serializers.DictField(allow_null=True, help_text="The engine's view for you (see the rules).")
    outcome = serializers.DictField(allow_null=True)
    fairness = FairnessSerializer()


class MoveSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    seat = serializers.IntegerField()
    player = serializers.CharField(allow_null=True)
    action = serializers.DictField()
    events = serializers.ListField(child=serializers.DictField())
    by_server = serializers.CharField(allow_null=True, help_text="'bot' or 'timeout' when the server played it.")
    created_at = serializers.DateTimeField()


class MoveResultSerializer(serializers.Serializer):
    move = MoveSerializer()
    game = GameDetailSerializer()


class InviteLinkSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    token = serializers.CharField(help_text="Shown once. Send it to /join/ as invite_token.")
    url = serializers.CharField()
    expires_at = serializers.DateTimeField()


class VerificationSerializer(serializers.Serializer):
    seed_sha256 = serializers.CharField(allow_null=True)
    seed = serializers.CharField(allow_null=True)
    seed_matches_hash = serializers.BooleanField(allow_null=True)
    replay_matches = serializers.BooleanField(allow_null=True)
    opening_deal = serializers.DictField(allow_null=True, help_text="The opening deal re-run from the seed.")


class TurnSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.CharField(allow_null=True)
    started_at = serializers.DateTimeField()
    deadline = serializers.DateTimeField(allow_null=True)
    reminded_at = serializers.DateTimeField(allow_null=True, help_text="When the time-running-out reminder went out.")
    ended_at = serializers.DateTimeField(allow_null=True, help_text="Null for the turn in progress.")
    seconds = serializers.IntegerField(help_text="How long the turn took, or has taken so far.")
    timed_out = serializers.BooleanField()


def paginated(item: type[serializers.Serializer], name: str) -> type[serializers.Serializer]:
    """The page shape DRF's PageNumberPagination returns, around `item`."""
    fields = {
        "count": serializers.IntegerField(),
        "next": serializers.URLField(allow_null=True),
        "previous": serializers.URLField(allow_null=True),
        "results": item(many=True),
    }
    return type(name, (serializers.Serializer,), fields)


GamePageSerializer = paginated(GameSummarySerializer, "GamePageSerializer")
MovePageSerializer = paginated(MoveSerializer, "MovePageSerializer")


class TurnPageSerializer(paginated(TurnSerializer, "TurnPageBaseSerializer")):
    current = TurnSerializer(allow_null=True, help_text="The turn in progress (its ended_at is null).")
