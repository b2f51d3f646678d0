// Ratings on the play page: quick pairing (a button with the waiting time) and the
// player's ratings with an inline SVG graph of each rule set's history.
import { API, defaultRules, request } from "./api.js";
import { rulesTitle } from "./common.js";
import { _, f } from "./i18n.js";

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
    box.append(el("p", {}, text), graph(r.history));
  }
  for (const e of body.computer_estimates) {
    box.append(el("p", {}, f(_("Against the computer in %(rules)s you play like ~%(rating)s."),
                            { rules: rulesTitle(e.rules), rating: e.rating })));
  }
  return box;
}

export function pairingPanel(go, rules = defaultRules(), length = 3) {
  const status = el("span", { class: "pairing-status", "aria-live": "polite" }, "");
  const button = el("button", { type: "button", class: "pairing" }, _("Quick pairing"));
  const box = el("p", { class: "pairing-box" }, button, " ", status);
  let timer = null;
  const stop = () => { clearTimeout(timer); timer = null; };
  function show(state) {
    if (state.state === "paired") { stop(); go(`#/match/${state.match}`); return; }
    if (state.state !== "waiting") { stop(); status.textContent = "";
      button.textContent = _("Quick pairing"); return; }
    button.textContent = _("Stop waiting");
    status.textContent = f(_("Waiting %(seconds)s s for an opponent…"),
                           { seconds: state.waiting_seconds });
    timer = setTimeout(async () => {
      if (!box.isConnected) return stop();
      try { show(await request("GET", `${API}pairing/`)); } catch { stop(); }
    }, 2000);
  }
  button.addEventListener("click", async () => {
    try {
      if (timer) { stop(); await request("DELETE", `${API}pairing/`); show({ state: "idle" }); }
      else show(await request("POST", `${API}pairing/`, { rules, length }));
    } catch (error) { status.textContent = error.message || String(error); }
  });
  request("GET", `${API}pairing/`).then(show, () => {});
  return box;
}
