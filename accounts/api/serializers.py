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
from config.api_views import paginated
from config.client_address import client_address
from config.strict_input import KnownFieldsOnly


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
