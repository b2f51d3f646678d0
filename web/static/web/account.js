// Who is signed in (the top bar's name and "Log out") and the log-in and registration
// forms of the lobby. Keeps `session.me` (common.js).

import { ApiError, api } from "./api.js";
import { _, f } from "./i18n.js";
import { attempt, explain, go, h, onAuthLost, reopen, session, toast } from "./common.js";
import { refreshNotices } from "./notices.js";

const who = document.getElementById("who");

export function renderWho() {
  who.replaceChildren();
  if (session.me) {
    // The name opens the player's own profile.
    who.append(h("span", { class: "me", "data-testid": "me" },
                 h("span", { class: "me-label" }, _("Signed in as"), " "),
                 h("a", { href: `#/players/${encodeURIComponent(session.me)}`, id: "me-link",
                          class: "me-link" }, h("strong", {}, session.me)),
                 session.guest ? h("span", { class: "me-guest" }, " ", _("(guest)")) : ""),
               h("button", { type: "button", class: "link", id: "logout",
                             onclick: logout }, _("Log out")));
  }
  refreshNotices();
}

export async function refreshWho() {
  const answer = await attempt(() => api.session.get(), { quiet: true });
  if (answer) { session.me = answer.username; session.guest = Boolean(answer.is_guest); }
  renderWho();
}
onAuthLost(refreshWho);

async function logout() {
  await attempt(() => api.session.logout());
  session.me = null;
  session.guest = false;
  renderWho();
  go("#/");
  reopen();
}

/** `fn()`'s answer; a refusal is written beside the fields it names (`details.<field>`,
 *  in the API's language), the rest of it under the form — not only a
 *  toast. The first field in error takes the focus. One request at a time: the form's
 *  button is disabled while it is in flight (a double click or a second Enter would
 *  send the password twice, and the second answer — "too many passwords at once" —
 *  would hide the first's "Invalid username or password."). */
export async function submit(form, fn) {
  if (form.dataset.busy === "true") return undefined;
  const buttons = [...form.querySelectorAll("button[type=submit]")];
  form.dataset.busy = "true";
  form.setAttribute("aria-busy", "true");
  for (const b of buttons) b.disabled = true;
  try {
    return await submitOnce(form, fn);
  } finally {
    delete form.dataset.busy;
    form.removeAttribute("aria-busy");
    for (const b of buttons) b.disabled = false;
  }
}

async function submitOnce(form, fn) {
  for (const old of form.querySelectorAll(".field-error, .form-error")) old.remove();
  for (const input of form.querySelectorAll("[aria-invalid]")) {
    input.removeAttribute("aria-invalid");
    input.removeAttribute("aria-describedby");
  }
  try {
    return await fn();
  } catch (error) {
    if (!(error instanceof ApiError)) { toast(explain(error), "error"); return undefined; }
    let first = null;
    const rest = [];
    for (const [name, messages] of Object.entries(error.details || {})) {
      const input = Array.isArray(messages) && form.querySelector(`[name="${name}"]`);
      if (!input) { if (Array.isArray(messages)) rest.push(...messages); continue; }
      const id = `${form.id}-${name}-error`;
      input.after(h("span", { class: "field-error", id, "data-field": name },
                    messages.join(" ")));
      input.setAttribute("aria-invalid", "true");
      input.setAttribute("aria-describedby", id);
      first = first || input;
    }
    if (!first || rest.length) {
      form.append(h("p", { class: "form-error", role: "alert" },
                    first ? rest.join(" ") : explain(error)));
    }
    if (first) first.focus();
    return undefined;
  }
}

/** A new account's fields: username, password and the optional email (registering, or a
 *  guest keeping its account). */
export function newAccountFields() {
  return [
    h("label", {}, _("Username"), h("input", { name: "username", autocomplete: "username",
                                               required: true })),
    h("label", {}, _("Password"), h("input", { name: "password", type: "password",
                                               autocomplete: "new-password", required: true })),
    h("label", {}, _("Email (optional)"), h("input", { name: "email", type: "email",
                                                       autocomplete: "email" }))];
}

/** `POST accounts/register/`'s body from a form of those fields. */
export function newAccountBody(form) {
  const data = new FormData(form);
  const body = { username: data.get("username"), password: data.get("password") };
  if (data.get("email")) body.email = data.get("email");
  return body;
}

function signedIn(answer, onDone, welcome = false) {
  session.me = answer.username;
  session.guest = Boolean(answer.is_guest);
  renderWho();
  if (welcome) toast(f(_("Welcome, %(name)s!"), { name: session.me }));
  onDone();
}

/** The log-in and registration forms; `onDone()` once signed in. */
export function authForms(onDone) {
  const loginForm = h("form", { class: "card", id: "login-form", "aria-labelledby": "login-h" },
    h("h2", { id: "login-h" }, _("Log in")),
    h("label", {}, _("Username"), h("input", { name: "username", autocomplete: "username",
                                               required: true })),
    h("label", {}, _("Password"), h("input", { name: "password", type: "password",
                                               autocomplete: "current-password",
                                               required: true })),
    h("button", { type: "submit" }, _("Log in")));
  loginForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    const data = new FormData(loginForm);
    const answer = await submit(loginForm, () => api.session.login(data.get("username"),
                                                                   data.get("password")));
    if (answer) signedIn(answer, onDone);
  });
  const registerForm = h("form", { class: "card", id: "register-form",
                                   "aria-labelledby": "register-h" },
    h("h2", { id: "register-h" }, _("New here? Register")),
    ...newAccountFields(),
    h("button", { type: "submit" }, _("Register and log in")));
  registerForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = newAccountBody(registerForm);
    const made = await submit(registerForm, async () => {
      const account = await api.post("accounts/register/", body);
      return account && api.session.login(body.username, body.password);
    });
    if (!made) return;
    const answer = made;
    if (answer) signedIn(answer, onDone, true);
  });
  return h("div", { class: "auth" }, loginForm, registerForm);
}
