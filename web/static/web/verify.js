// /play/verify/: the dice of a match record recomputed in the browser.
// The same derivation as games/fairness.py, specified in docs/fairness.md
// (nard-dice-v1): Web Crypto's SHA-256 and HMAC-SHA-256, nothing downloaded.

const SCHEME = "nard-dice-v1";
const FORMAT = "nardy-match/1";
const ACCEPT_BELOW = 252;
const SIDES = ["white", "black"];
const te = new TextEncoder();
const root = document.getElementById("verify");
const API = root.dataset.api;
const gettext = window.gettext || ((text) => text);
const ngettext = window.ngettext || ((one, many, n) => (n === 1 ? one : many));
const interpolate = window.interpolate
  || ((text, values) => text.replace(/%\((\w+)\)s/g, (_, k) => String(values[k])));
const fmt = (text, values) => interpolate(text, values, true);

const hex = (bytes) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");

async function sha256Hex(bytes) {
  return hex(await crypto.subtle.digest("SHA-256", bytes));
}

export async function commitment(seed) {
  const tag = te.encode(`${SCHEME}:`);
  const joined = new Uint8Array(tag.length + seed.length);
  joined.set(tag);
  joined.set(seed, tag.length);
  return `${SCHEME}:${await sha256Hex(joined)}`;
}

async function seedDigest(playerSeed) {
  return playerSeed ? sha256Hex(te.encode(playerSeed)) : "";
}

export async function derive(key, matchId, game, kind, index, count, white, black) {
  const digests = [await seedDigest(white), await seedDigest(black)];
  const dice = [];
  for (let block = 0; dice.length < count; block += 1) {
    const message = [SCHEME, matchId, game, kind, index, ...digests, block].join("|");
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, te.encode(message)));
    for (const byte of mac) {
      if (byte < ACCEPT_BELOW) {
        dice.push((byte % 6) + 1);
        if (dice.length === count) break;
      }
    }
  }
  return dice;
}

function seedProblem(value) {
  if (typeof value !== "string") return "not_text";
  if (!value) return "empty";
  if ([...value].length > 128) return "too_long";
  if (/[\p{Cc}\p{Cs}]/u.test(value)) return "not_text";
  return null;
}

class NotARecord extends Error {}

const isInt = (v) => Number.isInteger(v);

function checkShape(record) {
  if (!record || typeof record !== "object" || Array.isArray(record)) {
    throw new NotARecord(gettext("not a match record: the JSON is not an object"));
  }
  if (record.format !== FORMAT) {
    throw new NotARecord(`${gettext("not a match record of format")} ${FORMAT}`);
  }
  if (!isInt(record.id) || !Array.isArray(record.games)) {
    throw new NotARecord(gettext("not a match record: no match id or no list of games"));
  }
  for (const game of record.games) {
    if (!game || typeof game !== "object" || !isInt(game.number) || !Array.isArray(game.turns)) {
      throw new NotARecord(gettext("not a match record: a game without a number or turns"));
    }
    for (const turn of game.turns) {
      if (!turn || !isInt(turn.number) || !Array.isArray(turn.dice) || !turn.dice.every(isInt)) {
        throw new NotARecord(gettext("not a match record: a turn without a number or dice"));
      }
    }
    for (const pair of game.roll_off || []) {
      if (!pair || !SIDES.every((s) => isInt(pair[s]))) {
        throw new NotARecord(gettext("not a match record: a roll-off without both dice"));
      }
    }
  }
  return record;
}

const diceText = (dice) => dice.join("-");

export async function verifyGame(matchId, game) {
  const number = game.number;
  const block = game.fairness;
  if (!block || !block.commitment) {
    return { number, status: "not committed", detail: gettext("no commitment (imported, or played before commitments)") };
  }
  if (block.scheme !== SCHEME) return { number, status: "mismatch", detail: gettext("unknown scheme") };
  if (!block.server_seed) return { number, status: "not revealed", detail: gettext("the game is not over: no seed yet") };
  if (!/^[0-9a-fA-F]{64}$/.test(block.server_seed)) {
    return { number, status: "mismatch", detail: gettext("the revealed seed is not 32 bytes of hexadecimal") };
  }
  const seed = new Uint8Array(block.server_seed.match(/../g).map((b) => parseInt(b, 16)));
  if ((await commitment(seed)) !== block.commitment) {
    return { number, status: "mismatch", detail: gettext("the revealed seed does not match the commitment") };
  }
  const seeds = block.player_seeds || {};
  const white = seeds.white ?? null;
  const black = seeds.black ?? null;
  for (const given of [white, black]) {
    if (given !== null && seedProblem(given)) {
      return { number, status: "mismatch", detail: gettext("a player's seed is not valid text") };
    }
  }
  const key = await crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  let checked = 0;
  const pairs = game.roll_off || [];
  for (let round = 0; round < pairs.length; round += 1) {
    for (let side = 0; side < 2; side += 1) {
      const [expected] = await derive(key, matchId, number, "roll-off", 2 * round + side, 1, white, black);
      const shown = pairs[round][SIDES[side]];
      if (shown !== expected) {
        return { number, status: "mismatch", checked,
          detail: `roll-off ${round + 1}, ${SIDES[side]}: ${gettext("the record says")} ${shown}, ${gettext("the seeds give")} ${expected}` };
      }
      checked += 1;
    }
  }
  const played = block.opening === "roll_off_played";
  for (const turn of game.turns) {
    let expected;
    let what = gettext("the seeds give");
    if (turn.number === 1 && played && pairs.length) {
      const last = pairs[pairs.length - 1];
      expected = last.white > last.black ? [last.white, last.black] : [last.black, last.white];
      what = gettext("the roll-off's dice");
    } else {
      expected = await derive(key, matchId, number, "turn", turn.number, 2, white, black);
    }
    if (diceText(turn.dice) !== diceText(expected)) {
      return { number, status: "mismatch", checked,
        detail: `turn ${turn.number}: ${gettext("the record says")} ${diceText(turn.dice)}, ${what} ${diceText(expected)}` };
    }
    checked += turn.dice.length;
  }
  return { number, status: "verified", dice: checked };
}

export async function verifyRecord(record) {
  const checked = checkShape(record);
  const games = [];
  for (const game of checked.games) {
    const report = await verifyGame(checked.id, game);
    games.push(report);
    if (report.status === "mismatch") break;
  }
  return { id: checked.id, games };
}

// --- the page ---------------------------------------------------------------------------

const verdict = document.getElementById("verdict");
const list = document.getElementById("games");

function show(text, kind) {
  verdict.textContent = text;
  verdict.className = `verdict ${kind}`;
  verdict.dataset.status = kind;
}

async function run(record) {
  list.replaceChildren();
  let report;
  try {
    report = await verifyRecord(record);
  } catch (error) {
    show(error instanceof NotARecord ? error.message : gettext("not a match record"), "error");
    return;
  }
  for (const game of report.games) {
    const item = document.createElement("li");
    item.dataset.status = game.status;
    item.textContent = game.status === "verified"
      ? fmt(ngettext("Game %(n)s: verified (%(count)s die)", "Game %(n)s: verified (%(count)s dice)",
                     game.dice), { n: game.number, count: game.dice })
      : `${gettext("Game")} ${game.number}: ${game.status === "mismatch" ? gettext("MISMATCH") : gettext(game.status)}: ${game.detail}`;
    list.append(item);
  }
  const bad = report.games.find((g) => g.status === "mismatch");
  const verified = report.games.filter((g) => g.status === "verified").length;
  if (bad) show(`${gettext("Match")} ${report.id}: ${gettext("MISMATCH in game")} ${bad.number}: ${bad.detail}`, "bad");
  else if (!verified) show(`${gettext("Match")} ${report.id}: ${gettext("nothing to check: no game is both committed and revealed")}`, "none");
  else {
    show(fmt(ngettext("Match %(id)s: %(count)s game verified", "Match %(id)s: %(count)s games verified",
                      verified), { id: report.id, count: verified }), "ok");
  }
}

document.getElementById("by-record").addEventListener("submit", (event) => {
  event.preventDefault();
  let record;
  try {
    record = JSON.parse(document.getElementById("record").value);
  } catch {
    show(gettext("not a match record: not JSON (paste the export's JSON form)"), "error");
    list.replaceChildren();
    return;
  }
  run(record);
});

/** The rule sets' titles by name (GET rules/), translated: the statistics' rows. */
async function ruleTitles() {
  try {
    const response = await fetch(`${API}rules/`, { headers: { Accept: "application/json" } });
    const list = response.ok ? await response.json() : [];
    return Object.fromEntries(list.map((d) => [d.name, gettext(d.title)]));
  } catch {
    return {};
  }
}

document.getElementById("by-id").addEventListener("submit", async (event) => {
  event.preventDefault();
  await verifyId(document.getElementById("match-id").value.trim());
});

async function verifyId(id) {
  if (!/^\d{1,18}$/.test(id)) {
    show(gettext("A match id is a number."), "error");
    return;
  }
  const response = await fetch(`${API}matches/${id}/export/?format=json`, { headers: { Accept: "application/json" } });
  if (!response.ok) {
    show(`${gettext("No such match")} (${response.status})`, "error");
    list.replaceChildren();
    return;
  }
  const record = await response.json();
  document.getElementById("record").value = JSON.stringify(record);
  await run(record);
}

// Linked from a finished game (the match page, the replay, the profile) as
// /play/verify/?match=<id>: that match is verified at once.
const linked = new URLSearchParams(location.search).get("match");
if (linked) {
  document.getElementById("match-id").value = linked;
  verifyId(linked.trim());
}

document.getElementById("by-player").addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = document.getElementById("player").value.trim();
  const box = document.getElementById("stats");
  const response = await fetch(`${API}accounts/users/${encodeURIComponent(name)}/dice/`, { headers: { Accept: "application/json" } });
  if (!response.ok) {
    box.textContent = `${gettext("No such player")} (${response.status})`;
    return;
  }
  const stats = await response.json();
  const table = document.createElement("table");
  table.id = "dice-stats";
  const head = ["", gettext("rolls"), "1", "2", "3", "4", "5", "6", gettext("doubles"),
    gettext("average pips"), gettext("p-value")];
  const row = (cells, tag = "td") => {
    const tr = document.createElement("tr");
    for (const cell of cells) {
      const td = document.createElement(tag);
      td.textContent = cell === null || cell === undefined ? "—" : String(cell);
      tr.append(td);
    }
    return tr;
  };
  table.append(row(head, "th"));
  const line = (label, s) => row([label, s.rolls, ...s.faces,
    `${s.doubles} (${s.doubles_expected})`, `${s.average_pips ?? "—"} (${s.expected_average_pips})`,
    s.p_value]);
  const titles = await ruleTitles();
  for (const [rules, summary] of Object.entries(stats.by_rules)) {
    const tr = line(titles[rules] || rules, summary);
    tr.dataset.rules = rules;
    table.append(tr);
  }
  table.append(line(gettext("all"), stats.all));
  box.replaceChildren(table);
});

root.dataset.ready = "1";
