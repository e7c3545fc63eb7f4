"""The new-game form: kind, seats, every rules option of both games, time control, bots, invitations."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from config import l10n
from games.engine import KINDS, BadOption, get_rules
from games.labels import DAY, HOUR, KIND_LABELS, duration_label
from games.models import Game, TimeoutPolicy, time_bank_of

from .option_texts import choice_label, option_help, option_label

MOVE_TIMES = [5 * 60, HOUR, 12 * HOUR, DAY, 2 * DAY, 3 * DAY, 7 * DAY, 14 * DAY]
BANK_TIMES = [HOUR, 12 * HOUR, DAY, 3 * DAY, 7 * DAY, 14 * DAY, 30 * DAY]
BANK_INCREMENTS = [0, HOUR, 6 * HOUR, 12 * HOUR, DAY]


def _duration_choices(values: list[int]) -> list[tuple[str, str]]:
    return [(str(v), duration_label(v) if v else str(_("nothing"))) for v in values]


class NewGameForm(forms.Form):
    kind = forms.ChoiceField(label=_("Game"), choices=[], initial="scat")
    seats = forms.IntegerField(
        label=_("Seats"), min_value=2, max_value=9, initial=2, help_text=_("How many players, you included.")
    )
    time_control = forms.ChoiceField(
        label=_("Time control"),
        choices=[("per_move", _("a time limit per move")), ("bank", _("a time bank"))],
        initial="per_move",
    )
    move_time_limit = forms.TypedChoiceField(
        label=_("Time per move"), choices=[], coerce=int, initial=str(DAY), required=False
    )
    bank_initial = forms.TypedChoiceField(
        label=_("Time bank at the start"), choices=[], coerce=int, initial=str(3 * DAY), required=False
    )
    bank_increment = forms.TypedChoiceField(
        label=_("Time added after each move"), choices=[], coerce=int, initial=str(12 * HOUR), required=False
    )
    bank_cap = forms.TypedChoiceField(
        label=_("Most time a bank holds"), choices=[], coerce=int, initial=str(7 * DAY), required=False
    )
    timeout_policy = forms.ChoiceField(
        label=_("When time runs out"), choices=TimeoutPolicy.choices, initial=TimeoutPolicy.AUTOPLAY
    )
    expert_bots = forms.IntegerField(
        label=_("Computer players (expert)"), min_value=0, max_value=8, initial=0, required=False
    )
    good_bots = forms.IntegerField(
        label=_("Computer players (good)"), min_value=0, max_value=8, initial=0, required=False
    )
    random_bots = forms.IntegerField(
        label=_("Computer players (random)"), min_value=0, max_value=8, initial=0, required=False
    )
    invite = forms.CharField(
        label=_("Invite players"),
        required=False,
        max_length=1200,
        help_text=_("Usernames, separated by commas or spaces; their seats are kept for them."),
    )
    invite_days = forms.IntegerField(
        label=_("Invitations expire after (days)"), min_value=1, max_value=60, initial=14, required=False
    )
    is_private = forms.BooleanField(
        label=_("Private game"), required=False, help_text=_("Only invited players see it; it is not in the lobby.")
    )
    rated = forms.BooleanField(
        label=_("Rated game"), required=False, initial=True, help_text=_("Its result changes the players' ratings.")
    )
    advice = forms.BooleanField(
        label=_("Advice on each turn"),
        required=False,
        help_text=_("Shows each action's chances on your turn, from the cards you have seen; unrated games only."),
    )
    preset = forms.ChoiceField(
        label=_("Start from"),
        required=False,
        choices=[("", _("today's rules (the defaults below)")), ("original", _("the original rules of the seed"))],
        help_text=_(
            "The original rules: Scattle with one deck, 25 points and shared places; Scat with no limit on a "
            "hand's rounds. Options you change below still apply."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = [(k, KIND_LABELS.get(k, k)) for k in KINDS]
        self.fields["move_time_limit"].choices = _duration_choices(MOVE_TIMES)
        self.fields["bank_initial"].choices = _duration_choices(BANK_TIMES)
        self.fields["bank_increment"].choices = _duration_choices(BANK_INCREMENTS)
        self.fields["bank_cap"].choices = _duration_choices(BANK_TIMES)
        self.option_fields: dict[str, list[str]] = {}
        for kind in KINDS:
            names = []
            for spec in get_rules(kind).option_specs():
                name = f"{kind}-{spec['name']}"
                self.fields[name] = option_field(kind, spec)
                names.append(name)
            self.option_fields[kind] = names

    @classmethod
    def like(cls, game: Game, player: User) -> NewGameForm:
        """The form filled in as `game` was set up, to play it again: the same game, seats, rules,
        time control and computer players, with the other people at its table invited (when
        `player` sat at it)."""
        form = cls()
        seats = list(game.seats.all())
        bots = Counter(seat.bot_level for seat in seats if seat.bot_level)
        others = [seat.user.username for seat in seats if seat.user_id and seat.user_id != player.pk]
        seated = any(seat.user_id == player.pk for seat in seats)
        values: dict[str, Any] = {
            "kind": game.kind,
            "seats": game.num_seats,
            "timeout_policy": game.timeout_policy,
            "is_private": game.is_private,
            "rated": game.rated,
            "advice": game.advice,
            "invite": " ".join(others) if seated else "",
            **{f"{level}_bots": bots[level] for level in ("expert", "good", "random")},
            **{f"{game.kind}-{name}": value for name, value in _as_chosen(game).items()},
        }
        bank = time_bank_of(game)
        if bank:
            values.update(time_control="bank", **{f"bank_{part}": seconds for part, seconds in bank.items()})
        else:
            values.update(time_control="per_move", move_time_limit=game.move_time_limit)
        for name, value in values.items():
            field = form.fields.get(name)  # an option of an earlier edition has none
            if field is not None:
                shown = _as_shown(field, value)
                if not isinstance(field, forms.ChoiceField) or shown in dict(field.choices):
                    form.initial[name] = shown
        return form

    def option_groups(self) -> list[dict[str, Any]]:
        """Each game's option fields, for the template."""
        return [
            {"kind": kind, "label": KIND_LABELS.get(kind, kind), "fields": [self[n] for n in names]}
            for kind, names in self.option_fields.items()
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        kind = data.get("kind")
        # Only the chosen game's options count: a slip in the other game's fieldset is no error.
        for other, names in self.option_fields.items():
            if other != kind:
                for name in names:
                    self._errors.pop(name, None)
        # Nor in the time control not chosen.
        unused = (
            ["move_time_limit"]
            if data.get("time_control") == "bank"
            else ["bank_initial", "bank_increment", "bank_cap"]
        )
        for name in unused:
            self._errors.pop(name, None)
        if data.get("time_control") == "bank":
            for name in ("bank_initial", "bank_increment", "bank_cap"):
                if data.get(name) in (None, ""):
                    self.add_error(name, _("Choose a time."))
            if data.get("bank_initial") and data.get("bank_cap") and data["bank_initial"] > data["bank_cap"]:
                self.add_error("bank_cap", _("A bank cannot hold less than it starts with."))
        elif data.get("move_time_limit") in (None, ""):
            self.add_error("move_time_limit", _("Choose a time."))
        if data.get("advice") and data.get("rated"):
            self.add_error("advice", _("Advice is only for unrated games: untick “Rated game”."))
        return data

    def options(self) -> dict[str, Any]:
        """The options changed from their defaults (a preset fills the others)."""
        kind = self.cleaned_data["kind"]
        prefix = f"{kind}-"
        defaults = {spec["name"]: spec["default"] for spec in get_rules(kind).option_specs()}
        chosen = {name[len(prefix) :]: self.cleaned_data[name] for name in self.option_fields[kind]}
        return {name: value for name, value in chosen.items() if value != defaults[name]}

    def auto_table(self) -> list[dict[str, Any]]:
        """What "auto" means by seat count, for the script that explains it next to the options."""
        return get_rules("scattle").auto_table()

    def bots(self) -> list[str]:
        counts = {level: self.cleaned_data.get(f"{level}_bots") or 0 for level in ("expert", "good", "random")}
        return [level for level, count in counts.items() for _copy in range(count)]

    def invitees(self) -> list[str]:
        return [name for name in re.split(r"[\s,;]+", self.cleaned_data.get("invite") or "") if name]

    def time_bank(self) -> dict[str, int] | None:
        if self.cleaned_data.get("time_control") != "bank":
            return None
        return {
            "initial": self.cleaned_data["bank_initial"],
            "increment": self.cleaned_data["bank_increment"],
            "cap": self.cleaned_data["bank_cap"],
        }


def _as_chosen(game: Game) -> dict[str, Any]:
    """The game's options with "auto" where a started game holds the number "auto" came to, so that
    played again at another seat count they follow it (a number that happens to equal it shows as
    "auto" too: at this seat count the same game)."""
    rules = get_rules(game.kind)
    options = dict(game.options)
    for spec in rules.option_specs():
        name = spec["name"]
        if spec.get("auto") and options.get(name, "auto") != "auto":
            try:
                automatic = rules.validate_options({**game.options, name: "auto"}, game.num_seats)[name]
            except BadOption:
                continue
            if automatic == options[name]:
                options[name] = "auto"
    return options


def _as_shown(field: forms.Field, value: Any) -> Any:
    """`value` as `field` holds it in a page: a choice by its key, anything else as it is."""
    if isinstance(field, forms.TypedChoiceField):
        return json.dumps(value) if field.coerce is json.loads else str(value)
    return value


def option_field(kind: str, spec: dict[str, Any]) -> forms.Field:
    """A form field for one rules option, its default as the initial value."""
    field = _option_field(kind, spec)
    field.default_label = default_label(spec)
    return field


def default_label(spec: dict[str, Any]) -> str:
    value = spec["default"]
    if spec["type"] == "bool":
        return str(_("yes") if value else _("no"))
    if value is None and spec["type"] == "int_or_null":
        return str(_("none"))
    if value == "random":
        return str(_("at random"))
    return choice_label(spec["name"], value)  # "auto" included


class NumeralsTextInput(forms.TextInput):
    """A text input whose number shows in the reader's digits (Persian ones on a Persian page)."""

    def format_value(self, value: Any) -> str | None:
        text = super().format_value(value)
        return l10n.digits(text) if text is not None else None


class AutoOrNumberField(forms.CharField):
    """A number option that also takes "auto" (and, for int_or_null, nothing: no limit), typed in
    either digit system."""

    widget = NumeralsTextInput

    def __init__(self, *, spec: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(required=False, max_length=8, **kwargs)
        self.spec = spec

    def clean(self, value: Any) -> str | int | None:
        text = l10n.ascii_digits(super().clean(value) or "").strip().lower()
        if text == "auto":
            return "auto"
        if not text and self.spec["type"] == "int_or_null":
            return None
        low, high = self.spec["min"], self.spec["max"]
        if not (text.isascii() and text.isdigit() and low <= int(text) <= high):
            empty = _(", or leave it empty") if self.spec["type"] == "int_or_null" else ""
            raise forms.ValidationError(
                l10n.interpolate(
                    _("Type auto or a whole number from %(low)d to %(high)d%(empty)s."),
                    {"low": low, "high": high, "empty": empty},
                )
            )
        return int(text)


def _option_field(kind: str, spec: dict[str, Any]) -> forms.Field:
    common = {"label": option_label(kind, spec), "help_text": option_help(kind, spec)}
    option_type = spec["type"]
    if spec.get("auto"):
        if option_type == "int" and spec["max"] - spec["min"] < 5:
            values = ["auto", *range(spec["min"], spec["max"] + 1)]
            choices = [(json.dumps(v), choice_label(spec["name"], v)) for v in values]
            return forms.TypedChoiceField(
                choices=choices, coerce=json.loads, initial=json.dumps(spec["default"]), **common
            )
        return AutoOrNumberField(spec=spec, initial=spec["default"], **common)
    if option_type == "bool":
        return forms.BooleanField(required=False, initial=spec["default"], **common)
    if option_type == "int":
        return forms.IntegerField(min_value=spec["min"], max_value=spec["max"], initial=spec["default"], **common)
    if option_type == "int_or_null":
        return forms.IntegerField(
            min_value=spec["min"], max_value=spec["max"], initial=spec["default"], required=False, **common
        )
    if option_type == "seat_or_random":
        choices = [("random", _("at random"))] + [
            (str(seat), l10n.interpolate(_("seat %(number)d"), {"number": seat + 1}))
            for seat in range(spec["min"], spec["max"] + 1)
        ]
        return forms.TypedChoiceField(choices=choices, coerce=_seat_or_random, initial=str(spec["default"]), **common)
    # A choice: values may be null, numbers or words, so each travels as its JSON text.
    choices = [(json.dumps(value), choice_label(spec["name"], value)) for value in spec["choices"]]
    return forms.TypedChoiceField(choices=choices, coerce=json.loads, initial=json.dumps(spec["default"]), **common)


def _seat_or_random(value: str) -> str | int:
    return value if value == "random" else int(value)
