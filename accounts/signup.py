"""Signing up in two steps, so that the answer never tells whether an address has an account.

The form takes a username and an email address and always answers "check your email". A fresh
address gets a link that is good for LINK_DAYS; the account is made when its page is sent with a
password, so nothing holds a name or an address before the mailbox has answered. An address that an
account uses already gets a mail telling its owner that someone tried (with the ways to log in),
and no second account: the way a password reset answers an address it does not know.

The link carries the username, the address and where to go after, signed: it names nothing the
mailbox's owner does not know, and it makes one account (the address is then in use).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from . import login_limits
from .models import User

logger = logging.getLogger(__name__)

LINK_DAYS = 3
SALT = "accounts.signup"


@dataclass(frozen=True)
class SignupRequest:
    username: str
    email: str
    next_url: str = "/"


def link_token(request: SignupRequest) -> str:
    return signing.dumps({"u": request.username, "e": request.email, "n": request.next_url}, salt=SALT, compress=True)


def requested(token: str) -> SignupRequest | None:
    """What a link asks for, or None when it is forged, damaged or older than LINK_DAYS."""
    try:
        data = signing.loads(token, salt=SALT, max_age=timedelta(days=LINK_DAYS))
        return SignupRequest(username=str(data["u"]), email=str(data["e"]), next_url=str(data["n"]))
    except (signing.BadSignature, KeyError, TypeError):
        return None


def request_signup(*, signup: SignupRequest, address: str, absolute_url) -> bool:
    """Mail the address a signup link, or its owner a warning. False when the client address has
    signed up SIGNUPS_PER_ADDRESS_PER_HOUR times already (the only refusal the form shows); past
    SIGNUPS_PER_EMAIL_PER_HOUR mails to one address, nothing more is sent and the answer is the
    same. `absolute_url(path)` makes a link's full address."""
    if not login_limits.signup_allowed(address):
        return False
    if not login_limits.signup_mail_allowed(signup.email):
        return True
    owner = User.objects.filter(email__iexact=signup.email.strip()).order_by("pk").first()
    if owner is None:
        link = absolute_url(reverse("signup_finish", args=[link_token(signup)]))
        send("signup_link", signup.email, {"username": signup.username, "link": link, "days": LINK_DAYS})
    else:
        with translation.override(owner.language or settings.LANGUAGE_CODE):
            context = {
                "user": owner,
                "login": absolute_url(reverse("login")),
                "reset": absolute_url(reverse("password_reset")),
            }
            send("signup_taken", owner.email, context)
    return True


def send(template: str, to: str, context: dict) -> None:
    """One mail from accounts/email/<template>.txt and its _subject.txt, in the active language. A
    mail that cannot be sent is logged: the page must answer the same whatever the mail server did."""
    subject = "".join(render_to_string(f"accounts/email/{template}_subject.txt", context).splitlines())
    body = render_to_string(f"accounts/email/{template}.txt", context)
    try:
        EmailMessage(subject, body, None, [to]).send()
    except Exception:
        logger.exception("Could not send the %s mail.", template)
