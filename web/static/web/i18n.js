// The page's texts in its language: Django's JavaScript catalogue (/play/jsi18n/, from
// web/locale/*/LC_MESSAGES/djangojs.po) defines the globals gettext, ngettext and
// interpolate before the modules run. Without it (a module imported on its own) the
// English source texts are shown.

const django = globalThis.django || {};

/** A text: `_("Roll")`. */
export function _(text) {
  return django.gettext ? django.gettext(text) : text;
}

/** A text with named values: `f(_("Game %(n)s"), { n: 2 })`. */
export function f(text, values) {
  return String(text).replace(/%\(([a-z_]+)\)s/g, (all, name) =>
    (name in values ? String(values[name]) : all));
}

/** A counted text: `ngettext("%(count)s point", "%(count)s points", n)`; `count` is n. */
export function ngettext(singular, plural, count, values = {}) {
  const text = django.ngettext ? django.ngettext(singular, plural, count)
    : count === 1 ? singular : plural;
  return f(text, { count, ...values });
}

/** The side's name, capitalised: "White" / "Black". */
export function side(colour) {
  return colour === "white" ? _("White") : colour === "black" ? _("Black") : colour || "";
}

export const language = document.documentElement.lang || "en";
