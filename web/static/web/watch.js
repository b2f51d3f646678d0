// Watch, route #/watch: the live games anyone may watch — every
// active match (GET matches/?status=active, readable without an account), with its
// players, rule set, length and score — each opening the match page, where a viewer who
// is not a player is a spectator (White's side of the board, no controls, the match's
// stream live). The list is read again every few seconds.

import { api, features } from "./api.js";
import { app, h, matchTitle, session } from "./common.js";
import { _, f } from "./i18n.js";

const REFRESH_MS = 10000;
const PAGE_SIZE = 50;

/** One live match: "#12 alice v bob · Long Nardy · 3 pts", the score, a Watch link. */
function row(m, me) {
  const score = m.score || { white: 0, black: 0 };
  const playing = me && (m.white === me || m.black === me);
  return h("li", { class: "match-row watch-row", "data-match": m.id },
    h("span", { class: "watch-title" }, matchTitle(m)),
    h("span", { class: "status active watch-score",
                "data-score": `${score.white}-${score.black}` },
      f(_("score %(white)s–%(black)s"), score)),
    h("span", { class: "buttons" }, h("a", { class: "button primary", href: `#/match/${m.id}`,
                                             "data-watch": m.id },
                                          playing ? _("Play") : _("Watch"))));
}

export function openWatch() {
  const root = app, me = session.me;
  let stopped = false;
  let timer = null;
  const list = h("div", { id: "watch-list", "aria-live": "polite" });
  root.replaceChildren(h("section", { class: "card watch", id: "watch",
                                      "aria-labelledby": "watch-h" },
    h("h2", { id: "watch-h" }, _("Live games")),
    h("p", { class: "intro" }, _("Games being played now: open one to watch it live.")),
    list));

  async function refresh() {
    clearTimeout(timer);
    await features();   // the rule sets' titles
    let page = null;
    try {
      page = await api.get(`matches/?status=active&page_size=${PAGE_SIZE}`);
    } catch { /* shown below, tried again */ }
    if (stopped) return;
    const matches = page ? page.results || page : null;
    list.replaceChildren(matches === null
      ? h("p", { class: "empty" }, _("The server could not be reached."))
      : matches.length ? h("ul", {}, matches.map((m) => row(m, me)))
        : h("p", { class: "empty", id: "watch-empty" }, _("No live games right now.")));
    list.dataset.count = matches ? String(matches.length) : "";
    timer = setTimeout(refresh, REFRESH_MS);
  }

  refresh();
  return { stop() { stopped = true; clearTimeout(timer); } };
}
