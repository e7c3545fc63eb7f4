from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from .models import User


class SignupForm(UserCreationForm):
    email = forms.EmailField(label=_("Email"), help_text=_("For password resets and the notifications you choose."))

    class Meta:
        model = User
        fields = ("username", "email")

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        if User.objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(_("That username is taken (names are compared without regard to case)."))
        return username
