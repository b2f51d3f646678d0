// The play page's router: which screen the location's hash opens. Each screen is a
// module of its own; it talks only to the public API (api.js) and, for a match, its
// event channel (live.js); the board (board.js) draws and takes the player's steps.
//
//   common.js      h(), the toast, errors explained, storage, the tables of texts
//   account.js     who is signed in, the log-in and registration forms
//   lobby.js       the lobby                                   #/ (and anything else)
//   match.js       a match around the board                    #/match/<id>
//     match-log.js, match-texts.js   its log and its texts (pure functions)
//   ratings.js     quick pairing and the ratings panel (lobby), rating changes (match)
//   replay.js      a finished game stepped, with its review     #/matches/<id>/replay/<n>
//   watch.js       the live games to watch                      #/watch
//   profile.js     a player's review averages, ratings, finished matches  #/players/<name>
//   leaderboard.js the top players of a rule set               #/leaderboards/<rules>
//
// ROUTES — to add a screen, import its `open…` function and add one line to the table,
// before the lobby's: `[pattern, (...groups) => openScreen(...)]`, for example
//   [/^#\/matches\/(\d+)\/replay\/(\d+)/, (id, n) => openReplay(Number(id), Number(n))],
//   [/^#\/players\/([^/]+)/, (name) => openProfile(decodeURIComponent(name))],
// The first pattern that matches the hash wins (the lobby, last, takes every other
// hash); its capture groups are passed as strings, in order. An `open…` function draws
// into `app` (common.js) and returns the view, an object with `stop()` (called when the
// hash changes: close streams, clear timers).
// Links are plain `href="#/…"`; code navigates with common.js `go(hash)`, and
// `reopen()` opens the current hash's screen again.

import { renderWho } from "./account.js";
import { openLobby } from "./lobby.js";
import { openMatch } from "./match.js";
import { openReplay } from "./replay.js";
import { openWatch } from "./watch.js";
import { openProfile } from "./profile.js";
import { openLeaderboard } from "./leaderboard.js";

const ROUTES = [
  [/^#\/match\/(\d+)/, (id) => openMatch(Number(id))],
  [/^#\/matches\/(\d+)\/replay\/(\d+)/, (id, n) => openReplay(Number(id), Number(n))],
  [/^#\/watch/, () => openWatch()],
  [/^#\/players\/([^/]+)/, (name) => openProfile(decodeURIComponent(name))],
  [/^#\/leaderboards(?:\/([a-z_]+))?/, (rules) => openLeaderboard(rules || null)],
  [/.*/, () => openLobby()],
];

let current = null;   // the open view: { stop() }

function route() {
  if (current) current.stop();
  current = null;
  for (const [pattern, open] of ROUTES) {
    const found = location.hash.match(pattern);
    if (found) {
      current = open(...found.slice(1));
      return;
    }
  }
}

window.addEventListener("hashchange", route);

renderWho();
route();

// The language links keep the open view (the match in the hash) across the reload.
for (const link of document.querySelectorAll("#languages a[data-lang]")) {
  link.addEventListener("click", () => {
    link.href = `?lang=${link.dataset.lang}${location.hash}`;
  });
}
