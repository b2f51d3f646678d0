// Playing as a guest: what a visitor who is not signed in meets first in the lobby —
// "Play the computer" and "Quick pairing" (casual), one click each: POST accounts/guest/
// makes a guest identity and logs this page's session in as it, then the match is made
// (or the pairing asked for). Signed in as a guest, the lobby offers "Create an account":
// registering while signed in as the guest keeps its matches and reviews (docs/api.md,
// "Follows, challenges, guests and notices").

import { API, api, defaultRules, features, levelsFor, request } from "./api.js";
import { _, f } from "./i18n.js";
import { newAccountBody, newAccountFields, renderWho, submit } from "./account.js";
import { attempt, go, h, reopen, session, toast } from "./common.js";

/** Sign this page in as a new guest; whether it worked (a refusal is toasted). */
async function becomeGuest() {
  const made = await attempt(() => api.post("accounts/guest/"));
  if (!made) return false;
  session.me = made.username;
  session.guest = true;
  renderWho();
  return true;
}

async function playTheComputer() {
  if (!session.me && !(await becomeGuest())) return;
  const offer = await features();
  const levels = offer.computer ? levelsFor(offer.computer, defaultRules()) : [];
  const body = { length: 1, computer: levels.length ? levels[0].level : "random" };
  const match = await attempt(() => api.post("matches/", body));
  if (match) go(`#/match/${match.id}`);
  else reopen();
}

async function quickPairing() {
  if (!session.me && !(await becomeGuest())) return;
  await features();   // the rule sets (GET rules/): the default one
  const answer = await attempt(() => request("POST", `${API}pairing/`, {
    rules: defaultRules(), length: 1, rated: false }));
  if (answer && answer.state === "paired") go(`#/match/${answer.match}`);
  else reopen();   // the lobby, signed in now, shows the pairing's wait
}

/** The guest's card: two buttons, each a whole game away from the lobby. */
export function guestPanel() {
  const busy = (fn) => async (event) => {
    const button = event.currentTarget;
    button.disabled = true;
    try { await fn(); } finally { button.disabled = false; }
  };
  return h("section", { class: "card guest", id: "guest", "aria-labelledby": "guest-h" },
    h("h2", { id: "guest-h" }, _("Play now, no account needed")),
    h("p", {}, _("You play as a guest: casual matches, never rated. "
                 + "Create an account later to keep them.")),
    h("p", { class: "guest-buttons" },
      h("button", { type: "button", class: "primary", id: "guest-computer",
                    onclick: busy(playTheComputer) }, _("Play the computer")),
      " ",
      h("button", { type: "button", id: "guest-pairing", onclick: busy(quickPairing) },
        _("Quick pairing"))));
}

/** Signed in as a guest: register this same account (its matches kept). */
export function upgradePanel(onDone) {
  const form = h("form", { class: "card", id: "upgrade-form", "aria-labelledby": "upgrade-h" },
    h("h2", { id: "upgrade-h" }, _("Create an account")),
    h("p", {}, f(_("You are playing as %(name)s. An account keeps your matches and "
                   + "reviews, and lets you play rated."), { name: session.me })),
    ...newAccountFields(),
    h("button", { type: "submit" }, _("Create an account")));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = newAccountBody(form);
    const made = await submit(form, () => api.post("accounts/register/", body));
    if (!made) return;
    session.me = made.username;
    session.guest = false;
    renderWho();
    toast(f(_("Welcome, %(name)s!"), { name: session.me }));
    onDone();
  });
  return form;
}
