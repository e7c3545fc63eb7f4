"""Errors raised by the rules engines."""


class IllegalAction(ValueError):
    """An action (or an option) the rules do not allow.

    `code` is stable and machine-readable (``not_your_turn``, ``card_not_in_hand``,
    ``game_over``, ``bad_option`` ...); the message is for people.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class BadOption(IllegalAction):
    """An unknown game option, or a value the option does not take; `option` names the one at fault
    where one is (None: the options as a whole, or the number of seats)."""

    def __init__(self, message: str, option: str | None = None) -> None:
        super().__init__("bad_option", message)
        self.option = option


class BadState(IllegalAction):
    """A stored state that from_json will not hand to the rules: the wrong shape, a card that is no card,
    a secret without its seed. `key` names the part at fault ("hands", "secret", ...)."""

    def __init__(self, message: str, key: str | None = None) -> None:
        super().__init__("bad_state", message)
        self.key = key
