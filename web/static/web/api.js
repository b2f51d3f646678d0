// The page's only door to the server: the public API under /api/v1/ (and the session
// endpoint of this app), with the session cookie. Every write carries the csrftoken
// cookie back as X-CSRFToken — read afresh each time, since logging in rotates it.

const root = document.getElementById("app");
export const API = root?.dataset.api || "/api/v1/";
export const SESSION = root?.dataset.session || "/play/session/";

// The API's colours (its ColorEnum, the server's nardy.SIDE_NAMES), White first.
export const SIDES = Object.freeze(["white", "black"]);
export const otherSide = (colour) => (colour === SIDES[0] ? SIDES[1] : SIDES[0]);

export class ApiError extends Error {
  constructor(status, body) {
    const error = body && body.error ? body.error : {};
    super(error.message || `HTTP ${status}`);
    this.status = status;
    this.code = error.code || "http_" + status;
    this.details = error.details || {};
  }
}

export function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

function newKey() {
  if (window.crypto && typeof window.crypto.randomUUID === "function") {
    return window.crypto.randomUUID();
  }
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The server's clock, from each answer's Date header (whole seconds): a countdown to
// state.deadline reads serverNow(), so a computer whose clock is off still counts right.
// Only an offset beyond the header's resolution is taken.
let skew = 0;

function noteServerTime(response) {
  const date = response.headers && response.headers.get("Date");
  const at = date ? Date.parse(date) : NaN;
  if (Number.isNaN(at)) return;
  const offset = at - Date.now();
  skew = Math.abs(offset) > 1500 ? offset : 0;
}

export function serverNow() {
  return Date.now() + skew;
}

/**
 * One call. A write the server could not finish (a 5xx or a broken connection) is sent
 * again with the same Idempotency-Key, so it happens at most once; with
 * expected_version in the body a stale retry is refused (409) instead of repeated.
 */
export async function request(method, url, body, { signal, retries = 2 } = {}) {
  const headers = { Accept: "application/json" };
  // The API's messages in the page's language (docs/api.md "Errors").
  const lang = document.documentElement.lang;
  if (lang) headers["Accept-Language"] = lang;
  if (method !== "GET") {
    headers["X-CSRFToken"] = csrfToken();
    headers["Content-Type"] = "application/json";
    if (url.startsWith(API)) headers["Idempotency-Key"] = newKey();
  }
  for (let attempt = 0; ; attempt++) {
    let response;
    try {
      response = await fetch(url, {
        method,
        headers,
        credentials: "same-origin",
        body: method === "GET" || body === undefined ? undefined : JSON.stringify(body),
        signal,
      });
    } catch (error) {
      if (signal && signal.aborted) throw error;
      if (attempt < retries) { await sleep(250 * (attempt + 1)); continue; }
      throw error;
    }
    if (response.status >= 500 && attempt < retries) {
      await sleep(250 * (attempt + 1));
      continue;
    }
    noteServerTime(response);
    if (response.status === 204) return null;
    let data = null;
    const text = await response.text();
    if (text) {
      try { data = JSON.parse(text); } catch { data = null; }
    }
    if (!response.ok) throw new ApiError(response.status, data);
    return data;
  }
}

export const api = {
  get: (path, opts) => request("GET", API + path, undefined, opts),
  post: (path, body = {}) => request("POST", API + path, body),
  patch: (path, body = {}) => request("PATCH", API + path, body),
  session: {
    get: () => request("GET", SESSION),
    login: (username, password) => request("POST", SESSION, { username, password }),
    logout: () => request("DELETE", SESSION),
  },
};

// What the server offers beyond the base contract (API.md "Additions"): read once from
// the OpenAPI schema and GET computer/, so controls for features the server does not
// have yet are simply not shown.
let featuresPromise = null;
// GET rules/: every rule set's facts (title, results, head, bar, …), by name, in the
// server's order; filled by features().
let ruleSets = null;

/** The facts of rule set `name` (GET rules/), or null before they are loaded. */
export function ruleSet(name) {
  return ruleSets ? ruleSets.get(name) || null : null;
}

/** Every rule set the server plays (GET rules/), the default first; [] if unknown. */
export function allRuleSets() {
  return ruleSets ? [...ruleSets.values()] : [];
}

/** The rule set a match is played by when none is asked for (GET rules/'s `default`). */
export function defaultRules() {
  const all = allRuleSets();
  const found = all.find((d) => d.default) || all[0];
  return found ? found.name : null;
}

async function loadRuleSets() {
  try {
    const list = await api.get("rules/");
    if (Array.isArray(list)) ruleSets = new Map(list.map((d) => [d.name, d]));
  } catch {
    ruleSets = null;  // an older server: no rule-set menu
  }
}

export function features() {
  if (!featuresPromise) featuresPromise = loadFeatures();
  return featuresPromise;
}

function resolve(schema, node) {
  let guard = 0;
  while (node && node.$ref && guard++ < 10) {
    const path = node.$ref.replace(/^#\//, "").split("/");
    node = path.reduce((at, key) => (at ? at[key] : undefined), schema);
  }
  return node;
}

function enumOf(schema, prop) {
  const node = resolve(schema, prop);
  if (!node) return null;
  if (Array.isArray(node.enum)) return node.enum.filter((v) => v !== null && v !== "");
  for (const key of ["allOf", "oneOf", "anyOf"]) {
    for (const part of node[key] || []) {
      const found = enumOf(schema, part);
      if (found && found.length) return found;
    }
  }
  return null;
}

async function loadFeatures() {
  const found = { rules: null, stakes: null, progression: null, computer: null,
                  turnSeconds: false, clocks: false, accountStream: false,
                  createFields: [] };
  try {
    const schema = await request("GET", API + "schema/?format=json");
    const paths = schema.paths || {};
    const create = Object.entries(paths).find(([p]) => /\/matches\/$/.test(p));
    const body = create && create[1].post && create[1].post.requestBody;
    const content = body && body.content && (body.content["application/json"]
                                             || Object.values(body.content)[0]);
    const input = content ? resolve(schema, content.schema) : null;
    const props = (input && input.properties) || {};
    found.createFields = Object.keys(props);
    await loadRuleSets();
    if (props.rules) {
      found.rules = allRuleSets().map((d) => d.name);
      if (!found.rules.length) found.rules = enumOf(schema, props.rules);
    }
    if (props.stakes) found.stakes = enumOf(schema, props.stakes) || ["none"];
    if (props.progression) found.progression = enumOf(schema, props.progression);
    found.turnSeconds = "turn_seconds" in props;
    const has = (re) => Object.keys(paths).some((p) => re.test(p));
    // Clocks: the create field and the claim action (abort comes with them).
    found.clocks = found.turnSeconds && has(/\/matches\/\{[^}]+\}\/claim\/$/);
    found.abort = has(/\/matches\/\{[^}]+\}\/abort\/$/);
    found.accountStream = has(/\/api\/v1\/stream\/$/);
    if (props.computer || paths["/api/v1/computer/"]) {
      found.computer = await loadComputer();
    }
  } catch {
    // No schema: the base contract only.
  }
  if (!ruleSets) await loadRuleSets();
  if (!found.computer) found.computer = await loadComputer();
  return found;
}

function levelOf(item) {
  return typeof item === "object" && item !== null
    ? { level: item.level ?? item.name ?? item.id, text: item.description || item.text || "",
        account: item.account || null, engine: item.engine || null }
    : { level: item, text: "", account: null, engine: null };
}

/**
 * The computer's levels, by rule set: GET computer/ answers
 * [{rules, levels: [{level, description, account, engine}]}] (docs/api.md); a flat list of
 * levels (an older shape) counts for every rule set, under "*".
 */
async function loadComputer() {
  try {
    const data = await api.get("computer/");
    const list = Array.isArray(data) ? data : data && (data.results || data.levels);
    const byRules = {};
    for (const item of list || []) {
      if (item && typeof item === "object" && Array.isArray(item.levels)) {
        byRules[item.rules || "*"] = item.levels.map(levelOf)
          .filter((l) => l.level !== undefined && l.level !== null);
      } else {
        const level = levelOf(item);
        if (level.level !== undefined && level.level !== null) {
          (byRules["*"] = byRules["*"] || []).push(level);
        }
      }
    }
    return Object.values(byRules).some((levels) => levels.length) ? byRules : null;
  } catch {
    return null;
  }
}

/** The levels that play `rules` (GET computer/ per rule set). */
export function levelsFor(computer, rules) {
  if (!computer) return [];
  return computer[rules] || computer["*"] || [];
}
