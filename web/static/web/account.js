// Who is signed in (the top bar's name and "Log out") and the log-in and registration
// forms of the lobby. Keeps `session.me` (common.js).

import { api } from "./api.js";
import { _, f } from "./i18n.js";
import { attempt, go, h, onAuthLost, reopen, session, toast } from "./common.js";

const who = document.getElementById("who");

export function renderWho() {
  who.replaceChildren();
  if (session.me) {
    who.append(h("span", { class: "me", "data-testid": "me" }, _("Signed in as"), " ",
                 h("strong", {}, session.me)),
               h("button", { type: "button", class: "link", id: "logout",
                             onclick: logout }, _("Log out")));
  }
}

export async function refreshWho() {
  const answer = await attempt(() => api.session.get(), { quiet: true });
  if (answer) session.me = answer.username;
  renderWho();
}
onAuthLost(refreshWho);

async function logout() {
  await attempt(() => api.session.logout());
  session.me = null;
  renderWho();
  go("#/");
  reopen();
}

function signedIn(answer, onDone, welcome = false) {
  session.me = answer.username;
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
    const answer = await attempt(() => api.session.login(data.get("username"),
                                                         data.get("password")));
    if (answer) signedIn(answer, onDone);
  });
  const registerForm = h("form", { class: "card", id: "register-form",
                                   "aria-labelledby": "register-h" },
    h("h2", { id: "register-h" }, _("New here? Register")),
    h("label", {}, _("Username"), h("input", { name: "username", autocomplete: "username",
                                               required: true })),
    h("label", {}, _("Password"), h("input", { name: "password", type: "password",
                                               autocomplete: "new-password", required: true })),
    h("label", {}, _("Email (optional)"), h("input", { name: "email", type: "email",
                                                       autocomplete: "email" })),
    h("button", { type: "submit" }, _("Register and log in")));
  registerForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    const data = new FormData(registerForm);
    const body = { username: data.get("username"), password: data.get("password") };
    if (data.get("email")) body.email = data.get("email");
    const made = await attempt(() => api.post("accounts/register/", body));
    if (!made) return;
    const answer = await attempt(() => api.session.login(body.username, body.password));
    if (answer) signedIn(answer, onDone, true);
  });
  return h("div", { class: "auth" }, loginForm, registerForm);
}
