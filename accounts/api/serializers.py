"""Account API: input serializers that validate (each error says what to fix), output serializers
that document the selectors' dicts."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import authenticate
from rest_framework import serializers, status

from accounts import login_limits, services
from accounts.models import ApiToken, User
from accounts.validators import (
    DISPLAY_NAME_MAX,
    TOKEN_NAME_MAX,
    validate_display_name,
    validate_display_name_for,
    validate_language,
    validate_time_zone,
)
from config.api_errors import ApiError
from config.client_address import client_address
from config.strict_input import KnownFieldsOnly
from games.api.serializers import paginated
from games.engine import KINDS


class TooManyFailedLogins(ApiError):
    def __init__(self, retry_after: int) -> None:
        super().__init__(
            "too_many_failed_logins",
            f"Too many failed logins for this username from your address; try again in {retry_after} seconds.",
            status.HTTP_429_TOO_MANY_REQUESTS,
        )
        self.wait = retry_after  # DRF's exception handler sends it as Retry-After


class TokenRequestSerializer(KnownFieldsOnly, serializers.Serializer):
    username = serializers.CharField()
    password = serializers.CharField(style={"input_type": "password"}, trim_whitespace=False)
    name = serializers.CharField(required=False, max_length=60, help_text="A label for the token, e.g. your client.")

    def validate(self, attrs):
        request = self.context["request"]
        try:
            attempt = login_limits.start_login_attempt(attrs["username"], client_address(request))
        except login_limits.LoginLocked as locked:
            raise TooManyFailedLogins(locked.retry_after) from None
        user = authenticate(request, username=attrs["username"], password=attrs["password"])
        if user is None:
            attempt.failed()
            raise serializers.ValidationError("Unknown username or wrong password.", code="invalid_credentials")
        attempt.succeeded()
        attrs["user"] = user
        return attrs


class TokenResponseSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send as 'Authorization: Token <token>'. Shown only once.")


class MeSerializer(serializers.ModelSerializer):
    class Meta:
        model = User
        fields = ("username", "display_name", "email", "time_zone", "language", "chat", "date_joined")
        read_only_fields = ("username", "date_joined")


class ProfileUpdateSerializer(KnownFieldsOnly, serializers.ModelSerializer):
    """PATCH /api/v1/me/: any of the five fields; the others stay as they are."""

    unknown_field_message = "“{name}” cannot be changed here; send only {known}."

    display_name = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=DISPLAY_NAME_MAX,
        validators=[validate_display_name],
        help_text="Shown instead of the username; empty to use the username. It may not look like another "
        "player's username, nor hold invisible characters or more than single spaces between words.",
        error_messages={"max_length": f"Shorten the display name to {DISPLAY_NAME_MAX} characters or fewer."},
    )
    email = serializers.EmailField(
        required=False,
        help_text="For password resets and notifications.",
        error_messages={
            "invalid": "Enter a whole email address, such as alice@example.com.",
            "blank": "Enter an email address: it is how you reset a forgotten password.",
        },
    )
    time_zone = serializers.CharField(
        required=False,
        max_length=64,
        validators=[validate_time_zone],
        help_text="An IANA time zone name, such as Europe/Istanbul or UTC.",
        error_messages={"blank": "Enter a time zone, such as Europe/Istanbul or UTC."},
    )
    language = serializers.ChoiceField(
        required=False,
        choices=[code for code, _name in settings.LANGUAGES],
        validators=[validate_language],
        error_messages={
            "invalid_choice": "“{input}” is not a language of this site. Choose one of: "
            + ", ".join(code for code, _name in settings.LANGUAGES)
            + "."
        },
    )

    chat = serializers.ChoiceField(
        required=False,
        choices=["on", "phrases"],
        help_text="Table talk: `on`, or `phrases` to see and send the quick phrases only.",
        error_messages={"invalid_choice": "“{input}” is not a table talk setting: send on or phrases."},
    )

    current_password = serializers.CharField(
        required=False,
        write_only=True,
        trim_whitespace=False,
        style={"input_type": "password"},
        help_text="Your password: needed (only) to change your email address.",
    )

    class Meta:
        model = User
        fields = ("display_name", "email", "time_zone", "language", "chat", "current_password")

    def validate(self, attrs):
        if "display_name" in attrs:
            attrs["display_name"] = attrs["display_name"].strip()
        password = attrs.pop("current_password", "")
        if "email" in attrs:
            try:
                services.confirm_email_change(
                    user=self.instance,
                    new_email=attrs["email"],
                    password=password,
                    address=client_address(self.context["request"]),
                )
            except services.AccountError as exc:
                raise serializers.ValidationError({exc.field: [exc.message]}, code=exc.code) from exc
            except login_limits.LoginLocked as locked:
                raise TooManyFailedLogins(locked.retry_after) from None
        return attrs

    def validate_display_name(self, value: str) -> str:
        value = value.strip()
        validate_display_name_for(self.instance, value)
        return value


# --- tokens ------------------------------------------------------------------------------------


class ApiTokenSerializer(serializers.ModelSerializer):
    id = serializers.CharField(source="public_id", help_text="Use it to revoke the token.")
    is_current = serializers.SerializerMethodField(help_text="True for the token this request was made with.")

    class Meta:
        model = ApiToken
        fields = ("id", "name", "prefix", "created_at", "last_used_at", "is_current")
        extra_kwargs = {"prefix": {"help_text": "The key's first characters, to recognise it by."}}

    def get_is_current(self, token: ApiToken) -> bool:
        auth = getattr(self.context.get("request"), "auth", None)
        return isinstance(auth, ApiToken) and auth.pk == token.pk


class ApiTokenCreateSerializer(KnownFieldsOnly, serializers.Serializer):
    name = serializers.CharField(
        max_length=TOKEN_NAME_MAX,
        help_text="A label to recognise the token by, such as the program that will use it.",
        error_messages={
            "required": "Give the token a name, such as the program that will use it.",
            "blank": "Give the token a name, such as the program that will use it.",
            "max_length": f"Shorten the token's name to {TOKEN_NAME_MAX} characters or fewer.",
        },
    )


class ApiTokenCreatedSerializer(ApiTokenSerializer):
    token = serializers.CharField(help_text="The key: send it as 'Authorization: Token <key>'. Shown only this once.")

    class Meta(ApiTokenSerializer.Meta):
        fields = (*ApiTokenSerializer.Meta.fields, "token")


ApiTokenPageSerializer = paginated(ApiTokenSerializer, "ApiTokenPageSerializer")


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    details = serializers.DictField()


# --- profiles and ratings (documentation of accounts.selectors' dicts) -------------------------


class ReliabilitySerializer(serializers.Serializer):
    finished_without_timeout = serializers.FloatField(
        allow_null=True, help_text="Share (0 to 1) of finished games without a single timed-out turn."
    )
    games_with_timeout = serializers.IntegerField()
    timed_out_turns = serializers.IntegerField()
    average_move_seconds = serializers.FloatField(
        allow_null=True, help_text="Mean time from a turn's start to the player's move, over turns moved in time."
    )


class KindStatisticsSerializer(serializers.Serializer):
    games_played = serializers.IntegerField(help_text="Finished games plus games in progress.")
    games_in_progress = serializers.IntegerField()
    games_finished = serializers.IntegerField()
    games_won = serializers.IntegerField(help_text="Finished in first place, alone or shared.")
    games_resigned = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True, help_text="games_won / games_finished; null before any.")
    current_streak = serializers.IntegerField(help_text="Wins in a row up to the latest finished game.")
    best_streak = serializers.IntegerField()
    average_place = serializers.FloatField(allow_null=True)
    reliability = ReliabilitySerializer()


class ScatStatisticsSerializer(KindStatisticsSerializer):
    knocks = serializers.IntegerField()
    knocks_survived = serializers.IntegerField(help_text="Knocks after which the knocker lost no life.")
    knock_survival_rate = serializers.FloatField(allow_null=True)
    thirty_ones = serializers.IntegerField(help_text="31s shown, on the deal or after a discard.")
    lives_lost = serializers.IntegerField()


class ScattleStatisticsSerializer(KindStatisticsSerializer):
    melds = serializers.IntegerField()
    points = serializers.IntegerField(help_text="Final scores summed over finished games.")
    points_per_game = serializers.FloatField(allow_null=True)
    scattles = serializers.IntegerField(help_text="Times the player emptied the hand and called Scattle.")


class StatisticsSerializer(serializers.Serializer):
    games_played = serializers.IntegerField()
    games_in_progress = serializers.IntegerField()
    games_finished = serializers.IntegerField(help_text="Finished games of every kind.")
    games_won = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True)
    reliability = ReliabilitySerializer()
    scat = ScatStatisticsSerializer()
    scattle = ScattleStatisticsSerializer()


class RatingSerializer(serializers.Serializer):
    mu = serializers.FloatField(
        help_text="The rating, estimated skill (OpenSkill Plackett-Luce); everyone starts at 25."
    )
    sigma = serializers.FloatField(help_text="Its uncertainty (starts at 8.33 and shrinks with games).")
    ordinal = serializers.FloatField(help_text="mu - 3 sigma, the conservative rating the leaderboard ranks by.")
    games = serializers.IntegerField(help_text="Rated games played.")
    provisional = serializers.BooleanField(help_text="True for fewer than 5 rated games.")
    updated_at = serializers.DateTimeField(allow_null=True)


class RatingsSerializer(serializers.Serializer):
    scat = RatingSerializer(allow_null=True, help_text="Null until a Scat game is finished.")
    scattle = RatingSerializer(allow_null=True, help_text="Null until a Scattle game is finished.")


class RecentGameSerializer(serializers.Serializer):
    id = serializers.CharField()
    kind = serializers.ChoiceField(choices=KINDS)
    finished_at = serializers.DateTimeField()
    num_seats = serializers.IntegerField()
    place = serializers.IntegerField(allow_null=True)
    won = serializers.BooleanField()
    resigned = serializers.BooleanField()
    players = serializers.ListField(child=serializers.CharField(allow_null=True))
    reason = serializers.CharField(allow_null=True, help_text="How the game ended, as the engine says.")


class UserProfileSerializer(serializers.Serializer):
    username = serializers.CharField()
    display_name = serializers.CharField()
    date_joined = serializers.DateTimeField()
    statistics = StatisticsSerializer()
    ratings = RatingsSerializer()
    recent_games = RecentGameSerializer(many=True, help_text="The latest finished games you may see.")


class LeaderboardEntrySerializer(RatingSerializer):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    display_name = serializers.CharField()


LeaderboardPageSerializer = paginated(LeaderboardEntrySerializer, "LeaderboardPageSerializer")
