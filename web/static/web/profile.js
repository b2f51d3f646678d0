// A player's profile                           #/players/<username>
//
// Their game-review averages over the last analysed games of each rule set (GET
// accounts/users/{name}/review/: error rate, the ×500 rating, the PR, marks per game,
// luck), their ratings (GET accounts/users/{name}/ratings/, with each rule set's graph) and their
// finished matches (GET matches/?player=&status=finished), each game linked to its replay
// (#/matches/<id>/replay/<n>, replay.js) and the match to its page.

import { api, features } from "./api.js";
import { _, f, ngettext } from "./i18n.js";
import { app, attempt, h, matchOutcome, matchTitle, rulesTitle } from "./common.js";
import { graph } from "./ratings.js";
import { followButton } from "./following.js";
import { verifyLink } from "./replay.js";

const LAST = 20;   // the newest analysed games of each rule set the averages count

const path = (name) => `accounts/users/${encodeURIComponent(name)}/`;

/** The averages' table: a row per rule set. */
export function reviewTable(review) {
  const rows = Object.entries(review.by_rules || {});
  if (!rows.length) return h("p", { class: "empty" }, _("No analysed games yet."));
  // On a phone the table scrolls sideways inside its card instead of being cut off.
  return h("div", { class: "table-scroll" }, h("table", { class: "review-averages" },
    h("thead", {}, h("tr", {},
      h("th", {}, _("Rules")), h("th", {}, _("Analysed games")), h("th", {}, _("Error rate")),
      h("th", {}, _("Rating (×500)")), h("th", {}, _("PR (performance rating)")),
      h("th", {}, _("Inaccuracies per game")),
      h("th", {}, _("Mistakes per game")), h("th", {}, _("Blunders per game")),
      h("th", {}, _("Luck per game")))),
    h("tbody", {}, rows.map(([rules, r]) => h("tr", { "data-rules": rules },
      h("td", {}, rulesTitle(rules)), h("td", {}, String(r.games)),
      h("td", {}, r.error_rate.toFixed(4)), h("td", { class: "rating" }, r.rating.toFixed(1)),
      // The PR only where the field engine reviewed (backgammon); older answers lack it.
      h("td", { class: "pr" }, typeof r.pr === "number" ? r.pr.toFixed(1) : "—"),
      h("td", {}, r.marks_per_game.inaccuracy.toFixed(2)),
      h("td", {}, r.marks_per_game.mistake.toFixed(2)),
      h("td", {}, r.marks_per_game.blunder.toFixed(2)),
      h("td", {}, (r.luck >= 0 ? "+" : "") + r.luck.toFixed(3)))))));
}

function ratingsSection(body) {
  const box = h("section", { class: "card", id: "profile-ratings", "aria-labelledby": "pr-h" },
                h("h2", { id: "pr-h" }, _("Player's ratings")));
  if (!body || !body.ratings || !body.ratings.length) {
    box.append(h("p", { class: "empty" }, _("No rated matches yet.")));
    return box;
  }
  for (const r of body.ratings) {
    box.append(h("p", {}, f(_("%(rules)s: %(rating)s ± %(deviation)s"), {
      rules: rulesTitle(r.rules), rating: r.rating.toFixed(0),
      deviation: r.deviation.toFixed(0) }) + (r.provisional ? ` (${_("provisional")})` : "")),
    r.history && r.history.length ? graph(r.history) : null);   // no empty graph's gap
  }
  return box;
}

function historySection(matches) {
  const box = h("section", { class: "card", id: "profile-history", "aria-labelledby": "ph-h" },
                h("h2", { id: "ph-h" }, _("Finished matches")));
  if (!matches.length) {
    box.append(h("p", { class: "empty" }, _("No finished matches yet.")));
    return box;
  }
  box.append(h("ul", {}, matches.map((m) => {
    const games = Math.max(1, (m.state && m.state.game) || 1);
    return h("li", { class: "match-row", "data-match": m.id },
      h("a", { href: `#/match/${m.id}` }, matchTitle(m)),
      h("span", { class: "status finished" }, m.winner ? matchOutcome(m) : ""),
      h("span", { class: "replays" }, _("Replays:"), " ",
        Array.from({ length: games }, (_unused, i) => h("a", {
          href: `#/matches/${m.id}/replay/${i + 1}`, class: "replay-link",
          "aria-label": f(_("Open the replay of game %(n)s"), { n: i + 1 }) }, String(i + 1)))),
      verifyLink(m.id));
  })));
  return box;
}

export function openProfile(username) {
  let stopped = false;
  const root = h("section", { class: "profile", "aria-label": f(_("Profile of %(name)s"),
                                                                { name: username }) },
                 h("p", { class: "empty" }, _("Loading the profile…")));
  app.replaceChildren(root);

  (async () => {
    await features();   // the rule sets' titles
    const [profile, review, ratings, finished] = await Promise.all([
      attempt(() => api.get(path(username)), { quiet: true }),
      attempt(() => api.get(`${path(username)}review/?last=${LAST}`), { quiet: true }),
      attempt(() => api.get(`${path(username)}ratings/`), { quiet: true }),
      attempt(() => api.get(`matches/?player=${encodeURIComponent(username)}&status=finished`),
              { quiet: true }),
    ]);
    if (stopped) return;
    if (!profile) {
      root.replaceChildren(h("h1", {}, username),
                           h("p", { class: "empty" }, _("No such player.")),
                           h("p", {}, h("a", { href: "#/" }, _("Lobby"))));
      return;
    }
    const shown = profile.display_name || profile.username || username;
    const stats = profile.stats || {};
    root.replaceChildren(
      h("h1", { id: "profile-name" }, shown), followButton(profile.username),
      h("p", { class: "profile-stats" }, ngettext(
        "%(count)s match played, %(won)s won", "%(count)s matches played, %(won)s won",
        stats.matches_played || 0, { won: stats.matches_won || 0 })),
      h("section", { class: "card", id: "profile-review", "aria-labelledby": "rv-h" },
        h("h2", { id: "rv-h" }, _("Review averages")),
        h("p", { class: "note" }, ngettext(
          "Averages over the last analysed game of each rule set (lower error rate and rating are better).",
          "Averages over the last %(count)s analysed games of each rule set (lower error rate and rating are better).",
          LAST)),
        review ? reviewTable(review) : h("p", { class: "empty" }, _("No analysed games yet."))),
      ratingsSection(ratings),
      historySection((finished && (finished.results || finished)) || []),
      h("p", {}, h("a", { href: "#/" }, _("Lobby"))));
  })();

  return { stop() { stopped = true; } };
}
