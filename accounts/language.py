"""The language switcher: remember the choice in the cookie and, for a player, on the account."""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.i18n import set_language

from .models import User

LANGUAGE_CODES = {code for code, _name in settings.LANGUAGES}


def switch_language(request: HttpRequest) -> HttpResponse:
    response = set_language(request)
    language = request.POST.get("language")
    # Emails and notifications follow the account's language, so keep it in step with the page.
    if request.method == "POST" and language in LANGUAGE_CODES and request.user.is_authenticated:
        User.objects.filter(pk=request.user.pk).update(language=language)
    return response
