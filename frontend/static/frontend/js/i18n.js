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

// Fills "%(name)s" placeholders; values are inserted as text, never as markup, and numbers as the
// page's language writes them (Persian digits on a Persian page).
export function format(template, values) {
  return template.replace(/%\((\w+)\)s/g, (match, key) => {
    if (!(key in values)) return match;
    const value = values[key];
    return typeof value === "number" ? number(value) : String(value);
  });
}

export function listOf(items) {
  return items.join(pgettext("list separator", ", "));
}

export function language() {
  return document.documentElement.lang || "en";
}

// Numbers and dates: one way per language, the same as the server writes them (frontend/l10n.py):
// Persian in Persian digits and the Solar Hijri calendar, Turkish and English in the Gregorian one.
const CALENDARS = { fa: "persian" };
const NUMBERING = { fa: "arabext" };

function locale() {
  const lang = language().split("-")[0];
  return { lang, calendar: CALENDARS[lang] || "gregory", numberingSystem: NUMBERING[lang] || "latn" };
}

export function number(value, options = {}) {
  const { lang, numberingSystem } = locale();
  return new Intl.NumberFormat(lang, { numberingSystem, ...options }).format(value);
}

// A text made of figures (a clock such as "01:05:00") in the language's digits.
export function digits(text) {
  const zero = number(0).charCodeAt(0);
  return String(text).replace(/[0-9]/g, (digit) => String.fromCharCode(zero + Number(digit)));
}

// What a reader typed, in either digit system (and with the Persian separators), as Number() reads it.
export function parseNumber(text) {
  return Number(String(text)
    .replace(/[\u06f0-\u06f9]/g, (digit) => String(digit.charCodeAt(0) - 0x06f0))
    .replace(/[\u0660-\u0669]/g, (digit) => String(digit.charCodeAt(0) - 0x0660))
    .replace(/\u066b/g, ".").replace(/\u066c/g, ""));
}

// One reader, one clock: without a zone of its own, a time is shown in the zone the server writes the page's
// times in (the player's setting), not the browser's.
function dateTimeFormat(options, timeZone = document.documentElement.dataset.timeZone || undefined) {
  const { lang, calendar, numberingSystem } = locale();
  try {
    return new Intl.DateTimeFormat(lang, { calendar, numberingSystem, timeZone, ...options });
  } catch {  // a time zone this browser does not know: its own
    return new Intl.DateTimeFormat(lang, { calendar, numberingSystem, ...options });
  }
}

// "Dec 4, 2026, 2:05 PM", "4 Ara 2026 14:05", "۱۳ آذر ۱۴۰۵، ۱۴:۰۵"; in `timeZone` when given.
export function formatDateTime(iso, timeZone) {
  return dateTimeFormat({ dateStyle: "medium", timeStyle: "short" }, timeZone).format(new Date(iso));
}

export function formatDate(iso, timeZone) {
  return dateTimeFormat({ dateStyle: "medium" }, timeZone).format(new Date(iso));
}
