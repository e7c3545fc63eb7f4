"""Input serializers that validate requests, and output serializers that document the selectors'
dicts for the OpenAPI schema."""

from __future__ import annotations

from rest_framework import serializers

from config.api_views import paginated
from config.strict_input import KnownFieldsOnly
from games import clock
from games.api.serializers import TimeBankSerializer, one_time_control
from games.engine import KINDS
from games.models import GameStatus, TimeoutPolicy
from tournaments.models import CancelReason, TournamentFormat, TournamentStatus, VacationPolicy
from tournaments.services import MAX_PLAYERS, MAX_ROUNDS, NAME_MAX

# --- input -------------------------------------------------------------------------------------


class TournamentCreateSerializer(KnownFieldsOnly, serializers.Serializer):
    name = serializers.CharField(max_length=NAME_MAX)
    kind = serializers.ChoiceField(choices=KINDS)
    format = serializers.ChoiceField(choices=TournamentFormat.choices)
    table_size = serializers.IntegerField(
        min_value=2, max_value=9, help_text="Seats at a table; a round robin is played at tables of 2."
    )
    rounds = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=1,
        max_value=MAX_ROUNDS,
        help_text="Swiss: the number of rounds (required). Round robin: every pair meets once, so it is ignored.",
    )
    options = serializers.DictField(
        required=False, default=dict, help_text="Rules options for every game (GET /api/v1/rules/{kind}/)."
    )
    move_time_limit = serializers.IntegerField(
        required=False, default=86400, min_value=clock.MIN_MOVE_TIME, max_value=clock.MAX_MOVE_TIME
    )
    time_bank = TimeBankSerializer(
        required=False, allow_null=True, default=None, help_text="Instead of a limit per move: a bank per player."
    )
    timeout_policy = serializers.ChoiceField(choices=TimeoutPolicy.choices, required=False, default="autoplay")
    vacation = serializers.ChoiceField(
        choices=VacationPolicy.choices,
        required=False,
        default=VacationPolicy.IGNORED,
        help_text="ignored: a round does not wait for a player on vacation; pauses: their clocks stop.",
    )
    max_players = serializers.IntegerField(required=False, default=16, min_value=2, max_value=MAX_PLAYERS)
    bots_fill = serializers.BooleanField(
        required=False, default=False, help_text="Fill uneven tables with computer players instead of seating fewer."
    )
    starts_at = serializers.DateTimeField(
        required=False, allow_null=True, default=None, help_text="Starts by itself then; empty: the creator starts it."
    )

    def validate(self, attrs: dict) -> dict:
        return one_time_control(self, attrs)


class TournamentListQuerySerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=TournamentStatus.choices, required=False)


# --- output ------------------------------------------------------------------------------------


class TournamentSummarySerializer(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=KINDS)
    format = serializers.ChoiceField(choices=TournamentFormat.choices)
    status = serializers.ChoiceField(choices=TournamentStatus.choices)
    cancelled = serializers.BooleanField(help_text="Finished unplayed (cancel_reason says why).")
    cancel_reason = serializers.ChoiceField(
        choices=CancelReason.choices,
        allow_null=True,
        help_text="too_few_players: fewer than two at starts_at; creator: its creator called it off; "
        "null unless cancelled.",
    )
    table_size = serializers.IntegerField()
    round_count = serializers.IntegerField(help_text="Rounds planned (a round robin's are known once it starts).")
    current_round = serializers.IntegerField(help_text="0 before the start.")
    options = serializers.DictField()
    move_time_limit = serializers.IntegerField()
    time_bank = TimeBankSerializer(allow_null=True)
    timeout_policy = serializers.ChoiceField(choices=TimeoutPolicy.choices)
    vacation = serializers.ChoiceField(choices=VacationPolicy.choices)
    max_players = serializers.IntegerField()
    player_count = serializers.IntegerField(help_text="Players entered and not withdrawn.")
    bots_fill = serializers.BooleanField()
    creator = serializers.CharField()
    entered = serializers.BooleanField(help_text="Whether you are entered.")
    starts_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class StandingSerializer(serializers.Serializer):
    player = serializers.CharField()
    points = serializers.FloatField(help_text="Decimal points, to two places.")
    games = serializers.IntegerField(help_text="Finished games.")
    place = serializers.IntegerField(help_text="Players level on every tie-break share a place.")
    byes = serializers.IntegerField()
    opponents_points = serializers.FloatField(help_text="The first tie-break.")
    withdrawn = serializers.BooleanField()


class TableSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    game = serializers.CharField(help_text="The game's id (GET /api/v1/games/{id}/).")
    players = serializers.ListField(
        child=serializers.CharField(), help_text="Usernames in seat order; bots as 'bot (level)'."
    )
    status = serializers.ChoiceField(choices=GameStatus.choices)
    places = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, help_text="The game's places by seat, once it is over."
    )


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    expected_end = serializers.DateTimeField(help_text="An estimate from the time control, for calendars.")
    finished_at = serializers.DateTimeField(allow_null=True)
    tables = TableSerializer(many=True)
    byes = serializers.ListField(child=serializers.CharField(), help_text="Usernames sitting this round out.")


class YouSerializer(serializers.Serializer):
    entered = serializers.BooleanField()
    withdrawn = serializers.BooleanField()
    is_creator = serializers.BooleanField()
    table = serializers.CharField(allow_null=True, help_text="Your game in the current round.")


class TournamentDetailSerializer(TournamentSummarySerializer):
    players = serializers.ListField(child=serializers.CharField(), help_text="Everyone entered, in joining order.")
    standings = StandingSerializer(many=True)
    rounds = RoundSerializer(many=True)
    you = YouSerializer()


TournamentPageSerializer = paginated(TournamentSummarySerializer, "TournamentPageSerializer")


class CalendarSerializer(serializers.Serializer):
    url = serializers.URLField(help_text="Your secret calendar (.ics) address: whoever has it can read it.")
