from django.contrib.auth import authenticate
from rest_framework import serializers

from accounts.models import User


class TokenRequestSerializer(serializers.Serializer):
    username = serializers.CharField()
    password = serializers.CharField(style={"input_type": "password"}, trim_whitespace=False)
    name = serializers.CharField(required=False, max_length=60, help_text="A label for the token, e.g. your client.")

    def validate(self, attrs):
        user = authenticate(self.context["request"], username=attrs["username"], password=attrs["password"])
        if user is None:
            raise serializers.ValidationError("Unknown username or wrong password.", code="invalid_credentials")
        attrs["user"] = user
        return attrs


class TokenResponseSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send as 'Authorization: Token <token>'. Shown only once.")


class MeSerializer(serializers.ModelSerializer):
    class Meta:
        model = User
        fields = ("username", "display_name", "email", "time_zone", "language", "date_joined")
        read_only_fields = ("username", "date_joined")
