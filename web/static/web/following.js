// Following players: the lobby's card of those you follow (GET accounts/me/following/),
// each online or not, with "Watch" for each match it plays (one click to its board) and
// "Challenge" (the new-match form set to invite it, your options to choose); and the
// Follow / Unfollow button of a player's profile (POST/DELETE accounts/users/{name}/follow/).

import { API, api, request } from "./api.js";
import { _ } from "./i18n.js";
import { attempt, h, session } from "./common.js";

const url = (name) => `accounts/users/${encodeURIComponent(name)}/follow/`;

/** Sets the lobby's new-match form to invite `name` and brings it into view. */
function challenge(name) {
  const mode = document.getElementById("create-mode");
  const opponent = document.getElementById("create-opponent");
  if (!mode || !opponent) return;
  mode.value = "invite";
  mode.dispatchEvent(new Event("change", { bubbles: true }));
  opponent.value = name;
  document.getElementById("create-form").scrollIntoView({ block: "nearest" });
  document.getElementById("create-submit").focus();
}

/** The lobby's card of the players you follow (an empty box when you follow nobody). */
export function followingPanel() {
  const box = h("section", { class: "card", id: "following", "aria-labelledby": "following-h" },
                h("h2", { id: "following-h" }, _("Players you follow")));
  (async () => {
    const rows = await attempt(() => api.get("accounts/me/following/"), { quiet: true });
    if (!rows) return;
    if (!rows.length) {
      box.append(h("p", { class: "empty" }, _("You follow nobody yet: follow players from "
                                              + "their profiles.")));
      return;
    }
    box.append(h("ul", {}, rows.map((p) => h("li", { class: "followed",
                                                    "data-player": p.username },
      h("a", { href: `#/players/${encodeURIComponent(p.username)}`, class: "player-link" },
        p.display_name || p.username),
      " ", h("span", { class: p.online ? "online" : "offline" },
             p.online ? _("● online") : _("offline")),
      ...p.playing.map((id) => h("a", { href: `#/match/${id}`, class: "watch-link" },
                                 _("Watch"))),
      " ", h("button", { type: "button", class: "link challenge",
                         onclick: () => challenge(p.username) }, _("Challenge"))))));
  })();
  return box;
}

/** Follow / Unfollow on a player's profile; nothing for yourself or when signed out. */
export function followButton(username) {
  if (!session.me || username === session.me) return "";
  const button = h("button", { type: "button", id: "follow-button", hidden: true }, "");
  let following = false;
  const show = () => {
    button.textContent = following ? _("Unfollow") : _("Follow");
    button.setAttribute("aria-pressed", String(following));
    button.hidden = false;
  };
  button.addEventListener("click", async () => {
    const done = await attempt(() => (following
      ? request("DELETE", API + url(username)) : api.post(url(username))));
    if (done !== undefined) { following = !following; show(); }
  });
  attempt(() => api.get("accounts/me/following/"), { quiet: true }).then((rows) => {
    following = Boolean(rows && rows.some((p) => p.username.toLowerCase()
                                                 === username.toLowerCase()));
    show();
  });
  return button;
}
