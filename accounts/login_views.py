"""The login and password-reset pages, with the limits of accounts.login_limits."""

from __future__ import annotations

from typing import Any

from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm
from django.http import HttpResponse, HttpResponseRedirect
from django.views.decorators.debug import sensitive_variables

from config.client_address import client_address

from . import login_limits


class LimitedLoginMixin:
    """For AuthenticationForm and its subclasses: no password check while the pair (username, client
    address) is locked, and every check's outcome counted."""

    request: Any
    cleaned_data: dict[str, Any]

    @sensitive_variables("password")
    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if username is None or not password:
            return super().clean()  # nothing to check: the field errors say what is missing
        return login_limits.checked_in_a_form(username, client_address(self.request), super().clean)


class LoginForm(LimitedLoginMixin, AuthenticationForm):
    pass


class AdminLoginForm(LimitedLoginMixin, AdminAuthenticationForm):
    """The admin's login, under the same limit (a staff account is the best prize for a guesser)."""


class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    authentication_form = LoginForm


class PasswordResetView(auth_views.PasswordResetView):
    """Sends at most PASSWORD_RESETS_PER_ADDRESS_PER_HOUR requests' mail per client address and
    PASSWORD_RESETS_PER_EMAIL_PER_HOUR per email address."""

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        # Over a limit we show the same "sent" page and send nothing. A form error would tell
        # whoever asks that this email was asked for recently (and so, likely, that it has an
        # account); the owner of the address already has the links of the earlier requests.
        if not login_limits.password_reset_allowed(client_address(self.request), form.cleaned_data["email"]):
            return HttpResponseRedirect(self.get_success_url())
        return super().form_valid(form)
