"""The API's one parser: JSON, bounded in size and in nesting.

DRF's JSONParser reads the request stream itself, so Django's DATA_UPLOAD_MAX_MEMORY_SIZE
(checked only by request.body) never applies to it; and Python's json module recurses once per
bracket, so a few thousand nested brackets end in RecursionError, a 500. Both are refused here
with a 400 in the API's error shape before any parsing starts.
"""

from __future__ import annotations

import re
from itertools import accumulate
from typing import Any

from django.conf import settings
from rest_framework.parsers import JSONParser, get_encoding
from rest_framework.utils import json

from .api_errors import ApiError, BodyTooLarge

# Far deeper than any body the API takes (the deepest, notification channels and a meld, nest 3).
MAX_JSON_DEPTH = 64

# A JSON string, escapes included (the unrolled form: no backtracking within a match). The closing
# quote is optional, so that every match succeeds: with it required, a string that never closes
# would fail at the end of the text, and the scan would start again at each quote inside it,
# quadratic in the body (a 60 kB body of escaped quotes took 13 s). What follows an unclosed quote
# is inside the string for the json module too, so dropping it counts no bracket that module would.
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.S)
_NOT_A_BRACKET = re.compile(r"[^\[\]{}]+")
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def json_nesting_depth(text: str) -> int:
    """How deeply the text's arrays and objects nest, brackets inside strings not counted.

    Counted in one pass over the brackets, without recursion, so any depth can be measured."""
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return 0  # too few brackets to go too deep: the common case, at the cost of two counts
    brackets = _NOT_A_BRACKET.sub("", _JSON_STRING.sub("", text))
    return max(accumulate(_DEPTH_STEP[c] for c in brackets), default=0)


def too_deep() -> ApiError:
    return ApiError(
        "parse_error",
        f"The JSON is nested too deeply: at most {MAX_JSON_DEPTH} levels of arrays and objects.",
        400,
        {"max_depth": MAX_JSON_DEPTH},
    )


class BoundedJSONParser(JSONParser):
    """DRF's JSONParser, refusing bodies over DATA_UPLOAD_MAX_MEMORY_SIZE and JSON nested deeper
    than MAX_JSON_DEPTH, each with a 400 that says which."""

    def parse(self, stream, media_type: str | None = None, parser_context: dict | None = None) -> Any:
        parser_context = parser_context or {}
        encoding = get_encoding(parser_context)
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read() if limit is None else stream.read(limit + 1)
        if limit is not None and len(raw) > limit:
            raise BodyTooLarge(limit)
        try:
            text = raw.decode(encoding)
            if json_nesting_depth(text) > MAX_JSON_DEPTH:
                raise too_deep()
            parse_constant = json.strict_constant if self.strict else None
            return json.loads(text, parse_constant=parse_constant)
        except RecursionError:
            # Only if the depth count and the json module ever disagree: still the client's fault.
            raise too_deep() from None
        except ValueError as exc:
            raise ApiError("parse_error", f"JSON parse error - {exc}", 400) from exc
