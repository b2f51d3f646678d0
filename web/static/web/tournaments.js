// /play/tournaments/: the list (running, upcoming, finished) and the form that creates
// one; /play/tournaments/<id>/: one tournament — its standings, its matches (one click
// to watch), the bracket of a knock-out, a countdown, join/withdraw/pause/start — live on
// its stream (GET tournaments/{id}/stream/), and the player's own account stream, whose
// `paired` (with this tournament) takes them to the board at once.
import { API, allRuleSets, features, request, ruleSet } from "./api.js";
import { _, f } from "./i18n.js";

const root = document.getElementById("tournaments");
const me = root.dataset.me || null;
const id = root.dataset.tournament ? Number(root.dataset.tournament) : null;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "onclick") node.addEventListener("click", v);
    else node.setAttribute(k, v);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

const SYSTEMS = { arena: () => _("Arena"), swiss: () => _("Swiss"), knockout: () => _("Knock-out") };
const STATUSES = { created: () => _("Not started"), started: () => _("Under way"),
  finished: () => _("Finished") };
const systemName = (s) => (SYSTEMS[s] ? SYSTEMS[s]() : s);
// A rule set's title from GET rules/ (api.js, loaded by features()), in the page's language.
const rulesName = (r) => {
  const d = ruleSet(r);
  return d ? _(d.title) : r;
};

/** The create form's rule-set menu: every rule set the server plays, the default first. */
function ruleSetOptions() {
  const menu = document.querySelector("select[name=rules]");
  if (!menu) return;
  menu.replaceChildren(...allRuleSets().map((d) => el("option", { value: d.name }, _(d.title))));
}

function facts(t) {
  const parts = [systemName(t.system), rulesName(t.rules),
    f(_("%(n)s-point matches"), { n: t.length }), t.rated ? _("rated") : _("casual"),
    f(_("%(n)s players"), { n: t.players })];
  if (t.system === "arena" && t.minutes) parts.push(f(_("%(n)s minutes"), { n: t.minutes }));
  if (t.system === "swiss" && t.rounds) parts.push(f(_("%(n)s rounds"), { n: t.rounds }));
  return parts.join(" · ");
}

// --- the list -----------------------------------------------------------------------------

async function showList() {
  const body = await request("GET", `${API}tournaments/`);
  for (const key of ["running", "upcoming", "finished"]) {
    const list = document.getElementById(key);
    list.replaceChildren(...body[key].map((t) => el("li", {},
      el("a", { href: `/play/tournaments/${t.id}/` }, t.name), " — ", facts(t))));
    if (!body[key].length) list.append(el("li", { class: "empty" }, _("None")));
  }
}

function createForm() {
  const form = document.getElementById("create");
  if (!form) return;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const system = data.get("system");
    const body = { name: data.get("name"), system, rules: data.get("rules") || undefined,
      length: Number(data.get("length")), rated: data.get("rated") === "on",
      max_players: Number(data.get("max_players")) };
    if (system === "arena") body.minutes = Number(data.get("minutes"));
    if (system === "swiss") body.rounds = Number(data.get("rounds"));
    try {
      const made = await request("POST", `${API}tournaments/`, body);
      location.href = `/play/tournaments/${made.id}/`;
    } catch (error) {
      document.getElementById("create-error").textContent = error.message;
    }
  });
}

// --- one tournament -----------------------------------------------------------------------

let state = null;

function countdown() {
  const node = document.getElementById("t-countdown");
  if (!state) return;
  const target = state.status === "created" ? state.starts_at
    : state.status === "started" ? state.ends_at : null;
  if (!target) {
    node.textContent = STATUSES[state.status]();
    return;
  }
  const left = Math.max(0, Math.round((new Date(target) - Date.now()) / 1000));
  const text = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  node.textContent = state.status === "created" ? f(_("Starts in %(t)s"), { t: text })
    : f(_("Ends in %(t)s"), { t: text });
}

async function act(action, body) {
  const error = document.getElementById("t-error");
  error.textContent = "";
  try {
    state = await request("POST", `${API}tournaments/${id}/${action}/`, body || {});
    render();
  } catch (err) {
    error.textContent = err.message;
  }
}

function actions() {
  const node = document.getElementById("t-actions");
  const buttons = [];
  if (me && state.status !== "finished") {
    const playing = state.me && !state.me.withdrawn;
    if (!playing && (state.status === "created" || state.system === "arena")) {
      buttons.push(el("button", { id: "t-join", onclick: () => act("join") }, _("Join")));
    }
    if (playing) {
      buttons.push(el("button", { id: "t-withdraw", onclick: () => act("withdraw") },
        _("Withdraw")));
    }
    if (playing && state.system === "arena" && state.status === "started") {
      const paused = state.me.paused;
      buttons.push(el("button", { id: "t-pause", onclick: () => act("pause", { paused: !paused }) },
        paused ? _("Resume") : _("Pause")));
    }
    if (state.status === "created" && state.created_by === me) {
      buttons.push(el("button", { id: "t-start", onclick: () => act("start") }, _("Start")));
    }
  }
  node.replaceChildren(...buttons);
}

function standings() {
  const tbody = document.querySelector("#t-standings tbody");
  const swiss = state.system === "swiss";
  document.getElementById("t-tiebreaks").hidden = !swiss;
  tbody.replaceChildren(...state.standings.map((row) => el("tr",
    { class: row.username === me ? "mine" : "" },
    el("td", {}, String(row.rank)),
    el("td", {}, row.username, row.computer ? ` (${_("computer")})` : "",
      row.withdrawn ? ` — ${_("withdrawn")}` : "", row.paused ? ` — ${_("paused")}` : ""),
    el("td", {}, String(row.score)),
    el("td", { hidden: swiss ? null : "" }, swiss
      ? `${_("Buchholz")} ${row.buchholz} · ${_("S-B")} ${row.sonneborn_berger}` : ""),
    el("td", {}, String(row.played)))));
}

function matchItem(m) {
  const who = m.black ? `${m.white} — ${m.black}` : f(_("%(name)s: bye"), { name: m.white });
  const result = m.winner ? f(_("won by %(name)s"), { name: m.winner }) : _("playing");
  return el("li", { class: `t-match ${m.status}` },
    f(_("Round %(n)s"), { n: m.round }), ": ", who, " · ", result,
    m.id && m.status === "active"
      ? el("a", { href: `/play/#/match/${m.id}`, class: "watch" }, ` ${_("Watch")}`) : null);
}

function bracket() {
  const node = document.getElementById("t-bracket");
  if (state.system !== "knockout") { node.replaceChildren(); return; }
  const rounds = {};
  for (const m of state.matches) (rounds[m.round] ||= []).push(m);
  node.replaceChildren(...Object.keys(rounds).map((n) => el("div", { class: "bracket-round" },
    el("h3", {}, f(_("Round %(n)s"), { n })),
    ...rounds[n].map((m) => el("div", { class: "bracket-match" },
      el("span", { class: m.winner === m.white ? "won" : "" }, m.white),
      el("span", { class: m.winner && m.winner === m.black ? "won" : "" }, m.black || _("bye")),
      m.third_place ? el("small", {}, _("third place")) : null)))));
}

function render() {
  document.getElementById("t-name").textContent = state.name;
  document.title = state.name;
  document.getElementById("t-facts").textContent =
    `${facts(state)} · ${STATUSES[state.status]()}`;
  countdown();
  actions();
  standings();
  bracket();
  const list = [...state.matches].reverse();
  document.getElementById("t-matches").replaceChildren(...list.map(matchItem));
}

let pending = null;
async function reload() {
  if (pending) return;
  pending = (async () => {
    try {
      state = await request("GET", `${API}tournaments/${id}/`);
      render();
    } finally {
      pending = null;
    }
  })();
}

function follow() {
  const stream = new EventSource(`${API}tournaments/${id}/stream/?after=${state.last_event}`);
  const refresh = () => reload();
  for (const type of ["joined", "withdrawn", "removed", "paused", "resumed", "started",
    "round", "paired", "bye", "match_over", "standings", "finished"]) {
    stream.addEventListener(type, refresh);
  }
  stream.addEventListener("finished", () => stream.close());
  // Paired: the player's match is made — to the board at once (the account stream's
  // `paired` says the same where the server streams live).
  const toBoard = (data) => {
    if (me && (data.white === me || data.black === me)) location.href = `/play/#/match/${data.match}`;
  };
  stream.addEventListener("paired", (event) => toBoard(JSON.parse(event.data).data));
  if (me) {  // the player's own stream: paired in this tournament → to the board
    const mine = new EventSource(`${API}stream/`);
    mine.addEventListener("paired", (event) => {
      const data = JSON.parse(event.data);
      if (data.tournament === id) location.href = `/play/#/match/${data.match}`;
    });
    addEventListener("pagehide", () => mine.close());
  }
}

async function showOne() {
  state = await request("GET", `${API}tournaments/${id}/`);
  render();
  setInterval(countdown, 1000);
  follow();
}

// The rule sets' facts (GET rules/, for their titles and the form's menu) load beside
// the page: the form takes its submit at once (left out, `rules` is the default).
const ruleSetsLoaded = features().catch(() => null);
if (id) ruleSetsLoaded.then(showOne);
else {
  createForm();
  ruleSetsLoaded.then(() => { ruleSetOptions(); showList(); });
}
