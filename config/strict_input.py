"""Request bodies name only fields we know: a misspelt field is an error, not a silent default."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

NOT_A_FIELD = "“{name}” is not a field here; the fields are {known}."


def refuse_unknown_fields(serializer: serializers.Serializer, message: str = NOT_A_FIELD) -> None:
    """Raise a 400 naming each field of the request body that `serializer` does not take (`message`
    is formatted with the field's `name` and the `known` ones)."""
    sent: Any = serializer.initial_data
    if not isinstance(sent, dict):
        return
    unknown = sorted(set(sent) - set(serializer.fields))
    if unknown:
        known = ", ".join(serializer.fields)
        raise serializers.ValidationError(
            {name: [message.format(name=name, known=known)] for name in unknown},
            code="unknown_field",
        )
