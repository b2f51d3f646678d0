// Ratings on the play page: quick pairing (a button with the waiting time) and the
// player's ratings with an inline SVG graph of each rule set's history.
import { API, defaultRules, features, request } from "./api.js";
import { CLOCKS, SOUND, beep, rulesTitle, session, store, stored, toast } from "./common.js";
import { _, f, ngettext } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...children);
  return node;
}

/** "+12.4" / "−9.8": a rating change as the end of a match shows it. */
export function changeText(change) {
  return change >= 0 ? `+${change.toFixed(1)}` : `\u2212${Math.abs(change).toFixed(1)}`;
}

/** The `ratings` of a `match_over` event, as one sentence for the player of `colour`. */
export function matchOverText(ratings, colour) {
  const mine = ratings && ratings[colour];
  if (!mine) return "";
  return f(_("Your rating: %(after)s (%(change)s)"),
           { after: mine.after.toFixed(1), change: changeText(mine.change) });
}

export function graph(history) {
  const width = 320, height = 80;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "rating-graph");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", _("Rating history"));
  const points = [history.length ? history[0].before : 1500, ...history.map((h) => h.after)];
  const low = Math.min(...points) - 10, high = Math.max(...points) + 10;
  const x = (i) => (points.length > 1 ? (i * width) / (points.length - 1) : width / 2);
  const y = (r) => height - ((r - low) * height) / (high - low);
  const line = document.createElementNS(SVG, "polyline");
  line.setAttribute("points", points.map((r, i) => `${x(i).toFixed(1)},${y(r).toFixed(1)}`)
    .join(" "));
  line.setAttribute("fill", "none");
  line.setAttribute("stroke", "currentColor");
  line.setAttribute("stroke-width", "2");
  svg.append(line);
  return svg;
}

export async function ratingsPanel(username) {
  const box = el("section", { class: "ratings", "aria-label": _("Your ratings") },
                 el("h2", {}, _("Your ratings")));
  let body;
  try {
    body = await request("GET", `${API}accounts/users/${encodeURIComponent(username)}/ratings/`);
  } catch { return box; }
  if (!body.ratings.length) box.append(el("p", {}, _("No rated matches yet.")));
  for (const r of body.ratings) {
    const text = f(_("%(rules)s: %(rating)s ± %(deviation)s"), {
      rules: rulesTitle(r.rules), rating: r.rating.toFixed(0), deviation: r.deviation.toFixed(0) })
      + (r.provisional ? ` (${_("provisional")})` : "")
      + (r.rank ? ` — ${f(_("rank %(rank)s"), { rank: r.rank })}` : "");
    box.append(el("p", {}, text));
    if (r.history && r.history.length) box.append(graph(r.history));   // no empty gap
  }
  for (const e of body.computer_estimates) {
    box.append(el("p", {}, f(_("Against the computer in %(rules)s you play like ~%(rating)s."),
                            { rules: rulesTitle(e.rules), rating: e.rating })));
  }
  return box;
}

// The quick pairing's choices, remembered in this browser (JSON of the POST's body).
export const PAIRING_CHOICES = "nard.pairing";
const PAIRING_LENGTHS = [1, 3, 5, 7];

/** "Long Nardy · 3 points · rated · 1 min a turn": the choices as the button shows them. */
export function pairingText(choice) {
  const clock = CLOCKS.find(([v]) => String(v) === String(choice.turn_seconds || ""));
  return [rulesTitle(choice.rules),
          ngettext("%(count)s point", "%(count)s points", choice.length),
          choice.rated ? _("rated") : _("casual"),
          choice.turn_seconds && clock ? clock[1] : null].filter(Boolean).join(" · ");
}

function storedChoice(offer) {
  const fallback = { rules: defaultRules(), length: 3, rated: true, turn_seconds: null };
  let kept = {};
  try { kept = JSON.parse(stored(PAIRING_CHOICES) || "{}") || {}; } catch { kept = {}; }
  const choice = { ...fallback, ...kept };
  if (!(offer.rules || [fallback.rules]).includes(choice.rules)) choice.rules = fallback.rules;
  if (!PAIRING_LENGTHS.includes(Number(choice.length))) choice.length = fallback.length;
  choice.length = Number(choice.length);
  choice.rated = choice.rated !== false;
  if (!offer.turnSeconds || !CLOCKS.some(([v]) => String(v) === String(choice.turn_seconds || ""))) {
    choice.turn_seconds = null;
  }
  return choice;
}

/** The quick pairing: its choices (rule set, length, rated or casual, clock) in a
 *  folded box, shown on the button and remembered; the button asks (POST pairing/) or
 *  stops waiting. While it waits it looks again every 2 s; when the wait ends because
 *  another player's request paired us (the account stream's `paired` is the lobby's:
 *  this is for a lobby without the stream), the new active match is opened. */
export async function pairingPanel(go) {
  const offer = await features();
  const choice = storedChoice(offer);
  const status = el("span", { class: "pairing-status", "aria-live": "polite" }, "");
  const button = el("button", { type: "button", class: "pairing", id: "pairing" });
  const select = (name, values) => {
    const node = el("select", { id: `pairing-${name}`, name });
    for (const [value, text] of values) {
      const option = el("option", { value: String(value) }, text);
      node.append(option);
    }
    node.value = String(choice[name] ?? "");
    return node;
  };
  const fields = [
    offer.rules ? [_("Rules"), select("rules", offer.rules.map((r) => [r, rulesTitle(r)]))]
      : null,
    [_("Length"), select("length", PAIRING_LENGTHS.map((n) => [n, ngettext(
      "%(count)s point", "%(count)s points", n)]))],
    [_("Rated"), select("rated", [["true", _("rated")], ["false", _("casual")]])],
    offer.turnSeconds ? [_("Clock"), select("turn_seconds", CLOCKS)] : null,
  ].filter(Boolean);
  const choices = el("details", { class: "pairing-choices" }, el("summary", {}, _("Choices")),
                     ...fields.map(([label, control]) => el("label", {}, label, " ", control)));
  const box = el("div", { class: "pairing-box card" }, button, " ", status, choices);
  const label = () => f(_("Quick pairing: %(choice)s"), { choice: pairingText(choice) });
  button.textContent = label();
  choices.addEventListener("change", (event) => {
    const { name, value } = event.target;
    if (name === "length") choice.length = Number(value);
    else if (name === "rated") choice.rated = value === "true";
    else if (name === "turn_seconds") choice.turn_seconds = value ? Number(value) : null;
    else choice[name] = value;
    store(PAIRING_CHOICES, JSON.stringify(choice));
    if (!timer) button.textContent = label();
  });
  let timer = null;
  let before = null;   // our active matches when the wait began
  const stop = () => { clearTimeout(timer); timer = null; };
  const active = async () => {
    const page = await request("GET", `${API}matches/?player=${encodeURIComponent(
      session.me || "")}&status=active`);
    return (page && (page.results || page)) || [];
  };
  const activeIds = async () => (await active()).map((m) => m.id);
  async function ended(matchId = null) {
    // The wait ended without our asking: another player's request paired us (the
    // server may name the match: GET pairing/ answers `paired` for a while).
    if (!before && matchId === null) return;
    const found = await active();
    const made = (matchId !== null ? found.filter((m) => m.id === matchId)
      : found.filter((m) => !before.includes(m.id))).sort((a, b) => b.id - a.id)[0];
    before = null;
    if (!made && matchId !== null) { go(`#/match/${matchId}`); return; }
    if (!made || !box.isConnected) return;
    const opponent = made.white === session.me ? made.black : made.white;
    toast(f(_("Paired with %(name)s: %(choice)s."), {
      name: opponent || "?", choice: pairingText(made) }));
    if (stored(SOUND) === "1") beep();
    go(`#/match/${made.id}`);
  }
  function show(state) {
    if (state.state === "paired") {
      const wasWaiting = timer !== null || before !== null;
      stop();
      if (wasWaiting) ended(state.match).catch(() => go(`#/match/${state.match}`));
      else go(`#/match/${state.match}`);
      return;
    }
    if (state.state !== "waiting") {
      const wasWaiting = timer !== null;
      stop(); status.textContent = ""; button.textContent = label();
      choices.querySelectorAll("select").forEach((s) => { s.disabled = false; });
      if (wasWaiting) ended().catch(() => {});
      return;
    }
    button.textContent = _("Stop waiting");
    choices.querySelectorAll("select").forEach((s) => { s.disabled = true; });
    status.textContent = f(_("Waiting %(seconds)s s for an opponent…"),
                           { seconds: state.waiting_seconds });
    clearTimeout(timer);
    timer = setTimeout(async () => {
      if (!box.isConnected) return stop();
      try { show(await request("GET", `${API}pairing/`)); } catch { stop(); }
    }, 2000);
  }
  button.addEventListener("click", async () => {
    if (button.disabled) return;
    button.disabled = true;
    try {
      if (timer) { stop(); before = null; await request("DELETE", `${API}pairing/`);
                   show({ state: "idle" }); }
      else {
        before = await activeIds().catch(() => null);
        const body = { rules: choice.rules, length: choice.length, rated: choice.rated };
        if (choice.turn_seconds) body.turn_seconds = choice.turn_seconds;
        show(await request("POST", `${API}pairing/`, body));
      }
    } catch (error) { status.textContent = error.message || String(error); }
    finally { button.disabled = false; }
  });
  request("GET", `${API}pairing/`).then(async (state) => {
    if (state.state === "waiting") {
      before = await activeIds().catch(() => null);
      for (const [name, value] of Object.entries(state.options || {})) {
        if (name in choice && value !== undefined) choice[name] = value;
      }
    }
    show(state);
  }, () => {});
  return box;
}
