"""The inputs that sit inside the sentences of the orders panel: a sentence is translated whole, with
its input in a placeholder, so that each language puts the choice where its word order wants it."""

from __future__ import annotations

from django import template
from django.utils.html import format_html

from config.l10n import digits, writes_latin_digits

register = template.Library()


@register.simple_tag
def number_input(name: str, value: int, least: int, most: int, label: str):
    if not writes_latin_digits():
        # As the site's other number fields on a Persian page: text in Persian digits (the page's
        # script reads either digit system).
        return format_html(
            '<input type="text" name="{}" value="{}" inputmode="numeric" size="3" class="orders-number" '
            'aria-label="{}">',
            name,
            digits(value),
            label,
        )
    return format_html(
        '<input type="number" name="{}" value="{}" min="{}" max="{}" step="1" inputmode="numeric" '
        'class="orders-number" aria-label="{}">',
        name,
        value,
        least,
        most,
        label,
    )


@register.simple_tag
def time_input(name: str, label: str):
    return format_html('<input type="datetime-local" name="{}" aria-label="{}">', name, label)
