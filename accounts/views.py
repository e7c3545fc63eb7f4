"""Account pages: signup and the settings page (whose sections the rooms above add in their ready())."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordChangeForm, SetPasswordForm
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from config.client_address import client_address

from . import blocks, login_limits, services
from . import signup as signup_flow
from .forms import ADDRESS_IN_USE_NOW, BlockForm, ProfileForm, SignupFinishForm, SignupForm, TokenCreateForm
from .models import ApiToken, User
from .signup import SignupRequest

# Sections that other parts of the site add to the settings page (notifications, vacation,
# webhooks): each returns extra template context for the request. See settings.html's slots.
SETTINGS_CONTEXT: list[Callable[[HttpRequest], dict[str, Any]]] = []


def safe_next(request: HttpRequest, next_url: str | None) -> str:
    """Where to go after signing up: `next_url` if it is an address of this site, else home."""
    if next_url and url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
        return next_url
    return "/"


def signup(request: HttpRequest) -> HttpResponse:
    """The first step (accounts.signup): the same answer for any address, or the form again."""
    next_url = safe_next(request, request.POST.get("next") or request.GET.get("next"))
    form = SignupForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        asked = SignupRequest(form.cleaned_data["username"], form.cleaned_data["email"], next_url)
        if signup_flow.request_signup(
            signup=asked, address=client_address(request), absolute_url=request.build_absolute_uri
        ):
            return redirect("signup_sent")
        form.add_error(None, _("Too many signups from your address. Try again in an hour."))
        status = 429
    return render(request, "accounts/signup.html", {"form": form, "next": next_url}, status=status)


def signup_sent(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/signup_sent.html", {"days": signup_flow.LINK_DAYS})


def signup_finish(request: HttpRequest, token: str) -> HttpResponse:
    """The second step, from the mailed link: the password, then the account, logged in."""
    asked = signup_flow.requested(token)
    if asked is None:
        return render(request, "accounts/signup_finish.html", {"valid": False}, status=400)
    context: dict[str, Any] = {"valid": True, "email": asked.email}
    if services.email_in_use(asked.email):
        return render(request, "accounts/signup_finish.html", {**context, "in_use": ADDRESS_IN_USE_NOW})
    form = SignupFinishForm(request.POST or None, initial={"username": asked.username}, email=asked.email)
    if request.method == "POST" and form.is_valid():
        try:
            user = form.save_checked()
        except ValidationError as exc:
            if exc.code == "email_taken":
                return render(request, "accounts/signup_finish.html", {**context, "in_use": ADDRESS_IN_USE_NOW})
            form.add_error("username", exc)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            request.session["just_signed_up"] = True  # home greets a newcomer with "Welcome", not "Welcome back"
            return redirect(safe_next(request, asked.next_url))
    return render(request, "accounts/signup_finish.html", {**context, "form": form})


# --- settings --------------------------------------------------------------------------------


class PasswordForm(PasswordChangeForm):
    error_messages = {
        **PasswordChangeForm.error_messages,
        "password_incorrect": _("Your current password is not right; type it again."),
        "password_mismatch": _("Type the same new password in both fields."),
    }

    def __init__(self, user: User, *args: Any, client_address: str = "", **kwargs: Any) -> None:
        super().__init__(user, *args, **kwargs)
        self.client_address = client_address
        # The form sits half-way down the settings page: the page opens at its top.
        self.fields["old_password"].widget.attrs.pop("autofocus", None)

    def clean_old_password(self) -> str:
        # A password check like a login's, and the same prize (the next step sets a new password):
        # counted by the login limits, so that an open session cannot guess it without end.
        return login_limits.checked_in_a_form(self.user.username, self.client_address, super().clean_old_password)

    def save(self, commit: bool = True) -> User:
        user = super().save(commit)
        services.password_changed(user=user)
        return user


class ResetPasswordForm(SetPasswordForm):
    error_messages = {
        **SetPasswordForm.error_messages,
        "password_mismatch": _("Type the same new password in both fields."),
    }

    def save(self, commit: bool = True) -> User:
        user = super().save(commit)
        services.password_changed(user=user)
        return user


SAVED_MESSAGES = {
    "profile": _("Your profile is saved."),
    "password": _("Your password is changed."),
    "revoked": _("The token is revoked; programs using it can no longer sign in."),
    "blocked": _("The player is blocked."),
    "unblocked": _("The player is no longer blocked."),
}


def render_settings(request: HttpRequest, **overrides: Any) -> HttpResponse:
    """The settings page, with any section's bound form (and its errors) in place of the blank one."""
    user = request.user
    context: dict[str, Any] = {
        "profile_form": ProfileForm(instance=user),
        "password_form": PasswordForm(user),
        "token_form": TokenCreateForm(),
        "tokens": list(ApiToken.objects.active().filter(user=user).order_by("-created_at")),
        "block_form": BlockForm(),
        "blocks": blocks.blocked_players(user),
        "new_key": None,
        "new_token": None,
        "saved": SAVED_MESSAGES.get(request.GET.get("saved", "")),
    }
    for provider in SETTINGS_CONTEXT:
        context.update(provider(request))
    context.update(overrides)
    response = render(request, "accounts/settings.html", context)
    if context["new_key"]:
        response["Cache-Control"] = "no-store"  # the key is shown once: keep it out of every cache
    return response


def settings_saved(section: str, anchor: str) -> HttpResponse:
    """Back to the settings page at `anchor`, saying that `section` was saved."""
    return redirect(f"{reverse('settings')}?saved={section}#{anchor}")


@login_required
def settings_page(request: HttpRequest) -> HttpResponse:
    return render_settings(request)


@login_required
@require_POST
def settings_profile(request: HttpRequest) -> HttpResponse:
    # A fresh copy: a form that fails validation must not alter request.user for the rest of the page.
    form = ProfileForm(
        request.POST, instance=User.objects.get(pk=request.user.pk), client_address=client_address(request)
    )
    if not form.is_valid():
        return render_settings(request, profile_form=form)
    user = form.save()
    response = settings_saved("profile", "profile")
    response.set_cookie(settings.LANGUAGE_COOKIE_NAME, user.language, max_age=365 * 86400, samesite="Lax")
    return response


@login_required
@require_POST
def settings_password(request: HttpRequest) -> HttpResponse:
    form = PasswordForm(request.user, request.POST, client_address=client_address(request))
    if not form.is_valid():
        return render_settings(request, password_form=form)
    form.save()
    update_session_auth_hash(request, form.user)  # stay logged in here, while other sessions end
    return settings_saved("password", "password")


@login_required
@require_POST
def settings_token_create(request: HttpRequest) -> HttpResponse:
    form = TokenCreateForm(request.POST)
    if form.is_valid():
        try:
            token, key = services.create_token(user=request.user, name=form.cleaned_data["name"])
        except services.AccountError as exc:
            form.add_error("name" if exc.field == "name" else None, exc.message)
        else:
            # Rendered, not redirected: the key must not travel through a URL or the session.
            return render_settings(request, new_key=key, new_token=token)
    return render_settings(request, token_form=form)


@login_required
@require_POST
def settings_token_revoke(request: HttpRequest, token_id: str) -> HttpResponse:
    try:
        services.revoke_token(user=request.user, token_id=token_id)
    except services.AccountError as exc:
        raise Http404(exc.message) from exc
    return settings_saved("revoked", "tokens")


@login_required
@require_POST
def settings_block(request: HttpRequest) -> HttpResponse:
    form = BlockForm(request.POST)
    if form.is_valid():
        try:
            blocks.block_player(blocker=request.user, username=form.cleaned_data["username"])
        except blocks.BlockError as exc:
            form.add_error("username", exc.message)
        else:
            return settings_saved("blocked", "blocks")
    return render_settings(request, block_form=form)


@login_required
@require_POST
def settings_unblock(request: HttpRequest) -> HttpResponse:
    try:
        blocks.unblock_player(blocker=request.user, username=request.POST.get("username", ""))
    except blocks.BlockError as exc:
        raise Http404(exc.message) from exc
    return settings_saved("unblocked", "blocks")
