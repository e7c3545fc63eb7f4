"""Account operations shared by the pages, the API and the games: tokens, statistics, ratings."""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.preferences import PlayerPreference
from config import l10n
from config.events import publish

from . import login_limits
from .events import CredentialsChanged, PasswordChanged
from .models import ApiToken, User
from .validators import TOKEN_NAME_MAX

MAX_ACTIVE_TOKENS = 50


class AccountError(Exception):
    """A request about an account that cannot be done as asked; the message says what to fix."""

    def __init__(self, message: str, code: str, field: str = "non_field_errors") -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.field = field


# --- API tokens ------------------------------------------------------------------------------


def create_token(*, user: User, name: str) -> tuple[ApiToken, str]:
    """A new named token and its key, which is shown once and only its hash is kept."""
    name = (name or "").strip()
    if not name:
        raise AccountError(_("Give the token a name, such as the program that will use it."), "blank_name", "name")
    if len(name) > TOKEN_NAME_MAX:
        raise AccountError(
            l10n.interpolate(_("Shorten the token's name to %(max)d characters or fewer."), {"max": TOKEN_NAME_MAX}),
            "long_name",
            "name",
        )
    with transaction.atomic():
        # Counted under a lock on the account: requests at once would otherwise all count the same
        # tokens and all pass the cap (SQLite's IMMEDIATE transactions queue them anyway).
        User.objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True).get()
        if ApiToken.objects.active().filter(user=user).count() >= MAX_ACTIVE_TOKENS:
            raise AccountError(
                l10n.interpolate(
                    _("You have %(max)d tokens, the most one account may hold; revoke one you no longer use first."),
                    {"max": MAX_ACTIVE_TOKENS},
                ),
                "too_many_tokens",
            )
        return ApiToken.issue(user=user, name=name)


def revoke_token(*, user: User, token_id: str) -> ApiToken:
    """Revoke one of the user's tokens by its public id; AccountError when there is no such active token."""
    token = ApiToken.objects.active().filter(user=user, public_id=token_id).first()
    if token is None:
        raise AccountError(_("You have no active token with that id."), "not_found", "token")
    with transaction.atomic():
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
        publish(CredentialsChanged(user_id=user.pk))  # its open streams close
    return token


def confirm_email_change(*, user: User, new_email: str, password: str, address: str) -> None:
    """A new email address takes the current password: whoever holds only an API token or an open
    session must not be able to point password resets at a mailbox of theirs. The check counts
    against the same login limits as the login page. Raises AccountError, or LoginLocked."""
    if new_email.strip().casefold() == (user.email or "").casefold():
        return
    if not password:
        raise AccountError(
            _("Type your current password to change your email address."), "password_required", "current_password"
        )
    attempt = login_limits.start_login_attempt(user.username, address)
    if not user.check_password(password):
        attempt.failed()
        message = _("Your current password is not right; type it again.")
        raise AccountError(message, "wrong_password", "current_password")
    attempt.succeeded()
    if email_in_use(new_email, other_than=user.pk):
        raise AccountError(str(EMAIL_TAKEN), "email_taken", "email")


EMAIL_TAKEN = gettext_lazy("Another account uses that email address.")


def email_in_use(email: str, *, other_than: int | None = None) -> bool:
    """Whether an account (other than `other_than`) has this address, in any case: password resets and
    notifications go to an address, so two accounts must not share one."""
    return User.objects.filter(email__iexact=email.strip()).exclude(pk=other_than).exists()


def logged_out(*, request, user: User) -> None:
    """A session logged out: its open streams close. Django's logout sends user_logged_out before it
    ends the session, so the session ends here first: the streams look as soon as they hear of it,
    and must find it gone."""
    request.session.flush()
    publish(CredentialsChanged(user_id=user.pk))  # the player's streams look at theirs


def password_changed(*, user: User) -> None:
    """After a password change or reset, whoever held the old password loses what it gave them: every
    API token is revoked, the webhook signing secret replaced and every push device removed. Other
    sessions end by themselves, since a session remembers a hash of the password it was opened with."""
    now = timezone.now()
    ApiToken.objects.active().filter(user=user).update(revoked_at=now)
    publish(CredentialsChanged(user_id=user.pk))  # every open stream of theirs closes
    PlayerPreference.objects.filter(user=user).exclude(webhook_secret="").update(webhook_secret=secrets.token_hex(24))
    publish(PasswordChanged(user=user))  # e.g. a new secret calendar address, no more push devices
