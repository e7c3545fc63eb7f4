"""Request bodies name only fields we know: a misspelt field is an error, not a silent default."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

NOT_A_FIELD = "“{name}” is not a field here; the fields are {known}."


def refuse_unknown_fields(serializer: serializers.Serializer, sent: Any, message: str = NOT_A_FIELD) -> None:
    """Raise a 400 naming each field of `sent` (a request body) that `serializer` does not take, a
    read-only one included (`message` is formatted with the field's `name` and the `known` ones)."""
    if not isinstance(sent, dict):
        return  # the serializer itself says what it wanted instead
    writable = [name for name, field in serializer.fields.items() if not field.read_only]
    unknown = sorted(set(sent) - set(writable))
    if unknown:
        known = ", ".join(writable)
        raise serializers.ValidationError({name: [message.format(name=name, known=known)] for name in unknown})


class KnownFieldsOnly:
    """For the serializers of request bodies (first among the bases): a field they do not take is a
    400 that names it, never silently dropped."""

    unknown_field_message = NOT_A_FIELD

    def to_internal_value(self, data: Any) -> Any:
        refuse_unknown_fields(self, data, self.unknown_field_message)
        return super().to_internal_value(data)
