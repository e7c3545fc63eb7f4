"""Input serializers that validate requests, and output serializers that document responses.

Responses are built by the selectors as plain dicts (a move must stay cheap); the output
serializers here describe those dicts for the OpenAPI schema.
"""

from __future__ import annotations

from rest_framework import serializers

from config.api_views import paginated
from config.strict_input import KnownFieldsOnly
from games import clock
from games.engine import KINDS
from games.engine.bots import BOT_LEVELS
from games.engine.cards import DECK
from games.models import GameStatus, TimeoutPolicy

# --- input -------------------------------------------------------------------------------------


class TimeBankSerializer(KnownFieldsOnly, serializers.Serializer):
    initial = serializers.IntegerField(min_value=clock.MIN_MOVE_TIME, max_value=clock.MAX_MOVE_TIME)
    increment = serializers.IntegerField(min_value=0, max_value=clock.MAX_MOVE_TIME)
    cap = serializers.IntegerField(min_value=clock.MIN_MOVE_TIME, max_value=clock.MAX_MOVE_TIME)

    def validate(self, attrs):
        if attrs["initial"] > attrs["cap"]:
            raise serializers.ValidationError("initial may not exceed cap.")
        return attrs


def one_time_control(serializer: serializers.Serializer, attrs: dict) -> dict:
    """A limit per move or a time bank, not both: with both, the bank would rule and the limit lie."""
    if attrs.get("time_bank") is not None and "move_time_limit" in serializer.initial_data:
        message = "Send move_time_limit or time_bank, not both: a game has a limit per move or a time bank."
        raise serializers.ValidationError({"time_bank": [message]})
    return attrs


class GameCreateSerializer(KnownFieldsOnly, serializers.Serializer):
    kind = serializers.ChoiceField(choices=KINDS)
    seats = serializers.IntegerField(min_value=2, max_value=9, help_text="How many seats, yours included.")
    options = serializers.DictField(
        required=False,
        default=dict,
        help_text='Rules options (GET /api/v1/rules/{kind}/ lists them); defaults fill the rest. "auto" values '
        'are resolved when the game starts, for the players seated then. Scat\'s "max_hands" (10 to 1000, '
        "default 60, null for no limit) ends a game after that many hands, placed by the tokens left.",
    )
    preset = serializers.ChoiceField(
        choices=["original"],
        required=False,
        help_text='"original": the seed\'s own rules (Scattle: one deck, 25 points, ties shared; Scat: no limit '
        "on a hand's rounds nor on the game's hands). Options given override it.",
    )
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
    rated = serializers.BooleanField(required=False, default=True, help_text="Unrated games change no rating.")
    advice = serializers.BooleanField(
        required=False,
        default=False,
        help_text="The advisor's chances for each action on your turn (GET .../advice/); unrated games only.",
    )

    def validate(self, attrs: dict) -> dict:
        return one_time_control(self, attrs)


class CardCodeField(serializers.ChoiceField):
    """A card exactly as the contract spells it. The engine reads "kh" or "10h" as well, but what a
    client sent is stored in the history and shown to the other players: a different spelling of a
    card is refused here, never stored."""

    default_error_messages = {
        "invalid_choice": '"{input}" is not a card code: a rank of A23456789TJQK, then a suit of SHDC, '
        'in capitals ("KH" is the king of hearts).'
    }

    def __init__(self, **kwargs) -> None:
        super().__init__(choices=DECK, **kwargs)


class ActionSerializer(serializers.Serializer):
    """An action as the rules name it (C8). The keys it knows are checked for their shape here; the
    action then goes on as sent, so that the engine refuses any other key by name (400 bad_action,
    at the illegal-action step) instead of the key being dropped or stored."""

    MAX_KEYS = 8

    type = serializers.CharField(max_length=32)
    card = CardCodeField(required=False)
    cards = serializers.ListField(child=CardCodeField(), required=False, max_length=13)
    meld = serializers.IntegerField(required=False, min_value=0)

    def to_internal_value(self, data):
        known = super().to_internal_value(data)
        if len(data) > self.MAX_KEYS:
            raise serializers.ValidationError(f"An action has at most {self.MAX_KEYS} keys.")
        return {**data, **known}


class MoveCreateSerializer(KnownFieldsOnly, serializers.Serializer):
    action = ActionSerializer()
    version = serializers.IntegerField(min_value=0, help_text="The game's version you are answering.")


class JoinSerializer(KnownFieldsOnly, serializers.Serializer):
    invite_token = serializers.CharField(required=False, default="", allow_blank=True, max_length=64)


class InviteLinkCreateSerializer(KnownFieldsOnly, serializers.Serializer):
    days = serializers.IntegerField(required=False, default=14, min_value=1, max_value=60)


class GameListQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=GameStatus.choices, required=False)
    kind = serializers.ChoiceField(choices=KINDS, required=False)
    player = serializers.CharField(required=False, max_length=150)
    watchable = serializers.BooleanField(
        required=False, default=False, help_text="1: public games in progress only, the most recently moved first."
    )


class MyGamesQuerySerializer(serializers.Serializer):
    to_act = serializers.ChoiceField(
        choices=[("me", "me")],
        required=False,
        help_text="me: only the games awaiting your move (where to play next). Without it: all your active games.",
    )


class MoveListQuerySerializer(serializers.Serializer):
    after = serializers.IntegerField(required=False, default=0, min_value=0)


# --- output (documentation of the selectors' dicts) -------------------------------------------


class SeatSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    username = serializers.CharField(allow_null=True)
    display_name = serializers.CharField(allow_null=True)
    is_bot = serializers.BooleanField()
    bot_level = serializers.ChoiceField(choices=BOT_LEVELS, allow_null=True)
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
    rated = serializers.BooleanField()
    advice = serializers.BooleanField()
    creator = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField(allow_null=True))
    open_seats = serializers.IntegerField()
    to_act = serializers.IntegerField(allow_null=True)
    is_your_turn = serializers.BooleanField()
    move_time_limit = serializers.IntegerField()
    timeout_policy = serializers.ChoiceField(choices=TimeoutPolicy.choices)
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


GamePageSerializer = paginated(GameSummarySerializer, "GamePageSerializer")
MovePageSerializer = paginated(MoveSerializer, "MovePageSerializer")


class TurnPageSerializer(paginated(TurnSerializer, "TurnPageBaseSerializer")):
    current = TurnSerializer(allow_null=True, help_text="The turn in progress (its ended_at is null).")


class OptionSpecSerializer(serializers.Serializer):
    name = serializers.CharField()
    type = serializers.ChoiceField(choices=["bool", "int", "int_or_null", "choice", "seat_or_random"])
    default = serializers.JSONField(help_text='The default value (a number, a word, true/false, null or "auto").')
    auto = serializers.BooleanField(required=False, help_text='True when the option also takes "auto".')
    min = serializers.IntegerField(required=False)
    max = serializers.IntegerField(required=False)
    choices = serializers.ListField(child=serializers.JSONField(), required=False)
    help = serializers.CharField()


class SeatRangeSerializer(serializers.Serializer):
    min = serializers.IntegerField()
    max = serializers.IntegerField()


class AutoRowSerializer(serializers.Serializer):
    seats = serializers.IntegerField()
    deck_count = serializers.IntegerField()
    target_score = serializers.IntegerField()
    target_by_decks = serializers.DictField(
        child=serializers.IntegerField(), help_text="The target when the deck count is chosen by hand."
    )


class RulesSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=KINDS)
    seats = SeatRangeSerializer()
    options = OptionSpecSerializer(many=True)
    presets = serializers.DictField(child=serializers.DictField(), help_text="Named sets of options.")
    auto = AutoRowSerializer(many=True, help_text='What "auto" options resolve to at each seat count.')


class AdvisedActionSerializer(serializers.Serializer):
    action = serializers.DictField()
    loss_chance = serializers.FloatField(
        required=False, help_text="Scat: the chance of losing at least one life this hand after this action."
    )
    expected_lives = serializers.FloatField(
        required=False, help_text="Scat: the lives this player may expect to lose this hand (a failed knock costs two)."
    )
    expected_points = serializers.FloatField(
        required=False, help_text="Scattle: the points this player may expect over their next turns after this action."
    )
    opponent_points = serializers.FloatField(
        required=False, help_text="Scattle: what the other players may expect to score in the same turns, on average."
    )


class AdviceSerializer(serializers.Serializer):
    game = serializers.CharField()
    version = serializers.IntegerField(help_text="The position advised: the game's version.")
    measure = serializers.ChoiceField(choices=["loss_chance", "expected_points"])
    samples = serializers.IntegerField(help_text="Deals of the unseen cards played out per action.")
    actions = AdvisedActionSerializer(many=True, help_text="Every legal action, in the order of legal_actions.")
    best = serializers.IntegerField(help_text="The index in actions of the advisor's choice.")


class ReviewedTurnSerializer(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The move.")
    taken = serializers.DictField(help_text="What you did.")
    best = serializers.DictField(help_text="The advisor's best action then.")
    cost = serializers.FloatField(
        help_text="How much worse yours was: Scat, the chance of losing a life (0-1); Scattle, points."
    )
    costly = serializers.BooleanField(help_text="One of your three costliest turns.")


class ReviewSerializer(serializers.Serializer):
    game = serializers.CharField()
    seat = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["pending", "ready"])
    measure = serializers.ChoiceField(choices=["loss_chance", "expected_points"])
    reviewed_to = serializers.IntegerField(help_text="Moves reviewed so far, while pending.")
    turns = ReviewedTurnSerializer(many=True, required=False, help_text="Once ready.")
