// The notices (GET/POST accounts/me/notifications/): the unread count in the top bar and,
// under it, the newest notices — a challenge with Accept and Decline, a finished review
// with its link — marked read when the list is opened. The lobby's account stream calls
// noticeHeard() on a `notice` item; elsewhere the count is read every 30 s.

import { api } from "./api.js";
import { _, f, ngettext } from "./i18n.js";
import { attempt, go, h, session, toast } from "./common.js";

const EVERY = 30000;   // ms between two reads of the count
let box = null;
let count = null;
let list = null;
let toggle = null;
let timer = null;
let shown = [];        // the notices the list shows, newest first

function mount() {
  if (box) return;
  count = h("span", { class: "notice-count", id: "notice-count", "data-testid": "notice-count" }, "");
  toggle = h("button", { type: "button", class: "link notices-toggle", id: "notices-toggle",
                         "aria-expanded": "false", "aria-controls": "notice-list",
                         onclick: () => (list.hidden ? openList() : closeList()) },
             _("Notices"), " ", count);
  list = h("div", { class: "notice-list", id: "notice-list", role: "region",
                    "aria-label": _("Notices") });
  list.hidden = true;
  box = h("div", { class: "notices", id: "notices" }, toggle, list);
  const who = document.getElementById("who");
  if (who) who.after(box);
  else document.body.prepend(box);
}

function text(notice) {
  const d = notice.data || {};
  switch (notice.kind) {
    case "challenge":
      return ngettext("%(name)s challenges you to a %(count)s-point match.",
                      "%(name)s challenges you to a %(count)s-point match.", d.length || 1,
                      { name: d.by });
    case "review_finished":
      return f(_("The review of match %(match)s is ready."), { match: d.match });
    case "tournament_started":
      return d.name ? f(_("The tournament %(name)s has started."), { name: d.name })
        : _("A tournament you joined has started.");
    case "moderation_decision":
      return _("The moderators have decided on your report.");
    default:
      return _("Something happened on your account.");
  }
}

function actions(notice) {
  const d = notice.data || {};
  const post = (path, then) => async () => {
    const answer = await attempt(() => api.post(path, {}));
    if (answer !== undefined) { closeList(); then(answer); }
  };
  if (notice.kind === "challenge" && d.match) {
    return [h("button", { type: "button", class: "primary notice-accept",
                          onclick: post(`matches/${d.match}/join/`,
                                        () => go(`#/match/${d.match}`)) }, _("Accept")),
            h("button", { type: "button", class: "notice-decline",
                          onclick: post(`matches/${d.match}/decline/`,
                                        () => toast(_("Challenge declined."))) },
              _("Decline"))];
  }
  if (notice.kind === "review_finished" && d.match) {
    return [h("a", { href: `#/matches/${d.match}/replay/1`, onclick: closeList },
              _("Open the review"))];
  }
  return [];
}

function draw(answer) {
  shown = answer.results;
  count.textContent = answer.unread ? String(answer.unread) : "";
  count.hidden = !answer.unread;
  toggle.setAttribute("aria-label", f(_("Notices: %(count)s unread"), { count: answer.unread }));
  list.replaceChildren(shown.length
    ? h("ul", {}, shown.map((n) => h("li", { class: n.read_at ? "notice" : "notice unread",
                                             "data-kind": n.kind, "data-notice": n.id },
        h("span", { class: "notice-text" }, text(n)), " ", ...actions(n))))
    : h("p", { class: "empty" }, _("No notices.")));
}

/** Read the count and the newest notices again (and again in 30 s). */
export async function refreshNotices() {
  mount();
  clearTimeout(timer);
  box.hidden = !session.me;
  if (!session.me) { closeList(); return; }
  const answer = await attempt(() => api.get("accounts/me/notifications/?limit=20"),
                               { quiet: true });
  if (answer && session.me) draw(answer);
  timer = setTimeout(refreshNotices, EVERY);
}

/** The account stream brought a `notice`: show it now. */
export function noticeHeard() {
  refreshNotices();
}

async function openList() {
  list.hidden = false;
  toggle.setAttribute("aria-expanded", "true");
  const unread = shown.filter((n) => !n.read_at).map((n) => n.id);
  if (!unread.length) return;
  const marked = await attempt(() => api.post("accounts/me/notifications/", { ids: unread }),
                               { quiet: true });
  if (marked) {
    count.textContent = marked.unread ? String(marked.unread) : "";
    count.hidden = !marked.unread;
    toggle.setAttribute("aria-label", f(_("Notices: %(count)s unread"), { count: marked.unread }));
  }
}

function closeList() {
  if (!list) return;
  list.hidden = true;
  toggle.setAttribute("aria-expanded", "false");
}
