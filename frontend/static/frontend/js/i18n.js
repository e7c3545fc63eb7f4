// Translations come from Django's JavaScript catalog (/jsi18n/), loaded as a classic script
// before the modules run; without it, the English text shows.
const catalog = globalThis.django;

export function gettext(text) {
  return catalog ? catalog.gettext(text) : text;
}

export function ngettext(singular, plural, count) {
  if (catalog) return catalog.ngettext(singular, plural, count);
  return count === 1 ? singular : plural;
}

export function pgettext(context, text) {
  return catalog ? catalog.pgettext(context, text) : text;
}

// Fills "%(name)s" placeholders; values are inserted as text, never as markup.
export function format(template, values) {
  return template.replace(/%\((\w+)\)s/g, (match, key) => (key in values ? String(values[key]) : match));
}

export function listOf(items) {
  return items.join(pgettext("list separator", ", "));
}

export function language() {
  return document.documentElement.lang || "en";
}
