// Leaderboards, route #/leaderboards/<rules> (#/leaderboards: the default rule set): the
// top players of a rule set (GET leaderboards/{rules}/ `players`: rank, player, rating ± deviation,
// rated matches), a tab per rule set, each name linking to its profile; the signed-in
// player's own row marked.

import { allRuleSets, api, defaultRules, features } from "./api.js";
import { app, attempt, h, rulesTitle, session } from "./common.js";
import { _, f } from "./i18n.js";

/** The route of rule set `rules`' leaderboard. */
export const leaderboardHash = (rules) => `#/leaderboards/${rules}`;

export function openLeaderboard(wanted) {
  let stopped = false;
  const body = h("div", { id: "leaderboard-body", "aria-live": "polite" },
                 h("p", { class: "empty" }, _("Loading…")));
  const tabs = h("nav", { class: "leaderboard-tabs", id: "leaderboard-tabs",
                          "aria-label": _("Rule sets") });
  const title = h("h2", { id: "leaderboard-h" }, _("Leaderboard"));
  app.replaceChildren(h("section", { class: "card leaderboard", id: "leaderboard",
                                     "aria-labelledby": "leaderboard-h" },
                        title, tabs, body));

  (async () => {
    await features();   // the rule sets and their titles (GET rules/)
    const rules = wanted || defaultRules();
    if (stopped) return;
    title.textContent = f(_("Leaderboard: %(rules)s"), { rules: rulesTitle(rules) });
    tabs.replaceChildren(...allRuleSets().map((d) => h("a", {
      href: leaderboardHash(d.name), "data-rules": d.name,
      "aria-current": d.name === rules ? "page" : null }, rulesTitle(d.name))));
    const board = await attempt(() => api.get(`leaderboards/${encodeURIComponent(rules)}/`));
    if (stopped) return;
    const rows = board && (board.players || []);
    if (!rows) { body.replaceChildren(h("p", { class: "empty" }, _("No such rule set."))); return; }
    if (!rows.length) {
      body.replaceChildren(h("p", { class: "empty" }, _("Nobody is ranked in this rule set "
        + "yet: a player is ranked after a few rated matches.")));
      return;
    }
    body.replaceChildren(h("div", { class: "table-scroll" }, h("table", {
      class: "leaderboard-table", id: "leaderboard-table", "data-rules": rules },
      h("thead", {}, h("tr", {}, [_("Rank"), _("Player"), _("Rating"), _("Rated matches")]
        .map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, rows.map((r) => h("tr", {
        "data-player": r.username, class: r.username === session.me ? "me" : null },
        h("td", {}, String(r.rank)),
        h("td", {}, h("a", { href: `#/players/${encodeURIComponent(r.username)}` },
                      r.username)),
        h("td", {}, `${Math.round(r.rating)} ± ${Math.round(r.deviation)}`),
        h("td", {}, String(r.matches))))))));
  })();

  return { stop() { stopped = true; } };
}
