"""Request bodies name only fields we know: a misspelt field is an error, not a silent default."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

NOT_A_FIELD = "“{name}” is not a field here; the fields are {known}."


class KnownFieldsOnly:
    """For the serializers of request bodies (first among the bases): a field they do not take, a
    read-only one included, is a 400 that names it, never silently dropped (`unknown_field_message`
    is formatted with the field's `name` and the `known` ones)."""

    unknown_field_message = NOT_A_FIELD

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):  # anything else: the serializer itself says what it wanted
            writable = [name for name, field in self.fields.items() if not field.read_only]
            unknown = sorted(set(data) - set(writable))
            if unknown:
                known = ", ".join(writable)
                message = self.unknown_field_message
                raise serializers.ValidationError({name: [message.format(name=name, known=known)] for name in unknown})
        return super().to_internal_value(data)
