// The match page's chat panel: the players' room and the spectators' room
// (GET/POST matches/{id}/chat/?room=…, docs/api.md "Chat and moderation"), beside the
// move log. A module of its own: match.js opens it once the match is read, pokes it when
// a `chat` event arrives and stops it with the page. Between pokes it reads the room
// now and then (spectators' lines are never match events), from the last line it has.
//
// The players see only their room while the match is under way; everyone else sees both
// (a tab each). A new account's links (`plain_links`) stay text; others' links open in a
// new tab with rel="nofollow ugc". A line flagged by the filter or hidden by a moderator
// is shown to its author only, marked so.

import { API, ApiError, request } from "./api.js";
import { attempt, button, explain, h, session } from "./common.js";
import { _, f } from "./i18n.js";

const POLL_MS = 5000;
const MAX_CHARS = 300;   // the server's default CHAT_MAX_CHARS; it says so if it is less
const LINK = /\b(https?:\/\/[^\s<>"]+)/g;

/** The chat panel of match `matchId`, drawn at the end of `host`; `getMatch()` is the
 *  match as last read (its players and status). Returns { poke(), stop() }. */
export function openChat(matchId, getMatch, host) {
  const panel = new ChatPanel(matchId, getMatch);
  host.append(panel.root);
  panel.start();
  return panel;
}

class ChatPanel {
  constructor(matchId, getMatch) {
    this.id = matchId;
    this.getMatch = getMatch;
    this.room = "players";
    this.last = 0;
    this.stopped = false;
    this.timer = null;
    this.reading = null;
    this.tabs = h("div", { class: "chat-tabs", role: "tablist", id: "chat-tabs" });
    this.lines = h("ol", { class: "chat-lines", id: "chat-lines", "aria-live": "polite",
                           "aria-label": _("Chat") });
    this.note = h("p", { class: "chat-note", id: "chat-note", hidden: true });
    this.input = h("input", { id: "chat-input", type: "text", maxlength: MAX_CHARS,
                              autocomplete: "off", "aria-label": _("Your message"),
                              placeholder: _("Say something…") });
    this.form = h("form", { class: "chat-form", id: "chat-form",
                            onsubmit: (e) => { e.preventDefault(); this.send(); } },
      this.input, h("button", { type: "submit", id: "chat-send" }, _("Send")));
    this.toggle = button("", () => this.setEnabled(!this.enabled),
                         { class: "chat-toggle", id: "chat-toggle" });
    this.root = h("section", { class: "chat", id: "chat", "aria-labelledby": "chat-h" },
      h("h2", { id: "chat-h" }, _("Chat")), this.tabs, this.lines, this.note, this.form,
      this.toggle);
    this.enabled = true;
  }

  start() {
    this.drawTabs();
    this.read();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** A `chat` event arrived, or the match changed: read now. */
  poke() {
    if (this.stopped) return;
    this.drawTabs();
    this.read();
  }

  mine() {
    const m = this.getMatch() || {};
    return Boolean(session.me) && (m.white === session.me || m.black === session.me);
  }

  /** The rooms this viewer reads: the players only theirs while the match runs. */
  rooms() {
    const m = this.getMatch() || {};
    const over = m.status === "finished" || m.status === "aborted";
    return this.mine() && !over ? ["players"] : ["players", "spectators"];
  }

  drawTabs() {
    const rooms = this.rooms();
    if (!rooms.includes(this.room)) this.switchTo(rooms[0]);
    const names = { players: _("Players"), spectators: _("Spectators") };
    this.tabs.hidden = rooms.length < 2;
    this.tabs.replaceChildren(...rooms.map((room) => button(names[room],
      () => this.switchTo(room), { role: "tab", "data-room": room,
                                   "aria-selected": room === this.room ? "true" : "false" })));
    // Who writes where: the players in theirs, everyone else among the spectators.
    const writes = Boolean(session.me) && (this.room === "players") === this.mine();
    this.form.hidden = !writes || !this.enabled;
  }

  switchTo(room) {
    if (room === this.room) return;
    this.room = room;
    this.last = 0;
    this.lines.replaceChildren();
    this.drawTabs();
    this.read();
  }

  async read() {
    clearTimeout(this.timer);
    if (this.stopped) return;
    const room = this.room;
    const url = `matches/${this.id}/chat/?room=${room}` + (this.last ? `&after=${this.last}` : "");
    const data = await attempt(() => request("GET", API + url), { quiet: true });
    if (this.stopped) return;
    if (data && room === this.room) {
      this.enabled = data.enabled;
      for (const line of data.lines) this.add(line);
      this.toggle.textContent = this.enabled ? _("Turn chat off") : _("Turn chat on");
      this.toggle.hidden = !session.me;
      this.note.hidden = this.enabled;
      this.note.textContent = this.enabled ? "" : _("You turned chat off.");
      this.drawTabs();
    }
    this.timer = setTimeout(() => this.read(), POLL_MS);
  }

  add(line) {
    if (line.id <= this.last) return;
    this.last = line.id;
    const own = line.by === session.me;
    const item = h("li", { class: `chat-line${line.flagged || line.hidden ? " withheld" : ""}`,
                           "data-line": line.id, "data-by": line.by },
      h("b", { class: "chat-by" }, line.by), " ", ...textParts(line));
    if (line.flagged || line.hidden) {
      item.append(" ", h("em", { class: "chat-withheld" },
        line.flagged ? _("(held by the filter: only you see it)")
          : _("(hidden by a moderator: only you see it)")));
    }
    if (session.me && !own) {
      item.append(" ", button("⚑", () => this.report(line, item),
        { class: "chat-report", title: _("Report this line"),
          "aria-label": f(_("Report the line of %(name)s"), { name: line.by }) }));
    }
    this.lines.append(item);
    this.lines.scrollTop = this.lines.scrollHeight;
  }

  async send() {
    const text = this.input.value.trim();
    if (!text) return;
    const url = `matches/${this.id}/chat/?room=${this.room}`;
    try {
      const line = await request("POST", API + url, { text });
      this.input.value = "";
      this.add(line);
    } catch (error) {
      this.showRefusal(error);
    }
  }

  showRefusal(error) {
    let text = explain(error);
    if (error instanceof ApiError && error.code === "chat_timeout" && error.details.until) {
      text = f(_("You are timed out of chat until %(time)s."),
               { time: new Date(error.details.until).toLocaleTimeString() });
    }
    this.note.textContent = text;
    this.note.hidden = false;
  }

  async report(line, item) {
    const done = await attempt(() => request("POST", API + `chat/${line.id}/report/`,
                                             { reason: "insult" }));
    if (done) {
      const mark = item.querySelector(".chat-report");
      if (mark) mark.replaceWith(h("em", { class: "chat-reported" }, _("reported")));
    }
  }

  async setEnabled(enabled) {
    const done = await attempt(() => request("PUT", API + "chat/options/", { enabled }));
    if (done) {
      this.last = 0;
      this.lines.replaceChildren();
      this.read();
    }
  }
}

/** The line's text as nodes: links clickable unless its author is a new account. */
function textParts(line) {
  if (line.plain_links) return [line.text];
  const parts = [];
  let at = 0;
  for (const found of line.text.matchAll(LINK)) {
    parts.push(line.text.slice(at, found.index));
    parts.push(h("a", { href: found[1], target: "_blank", rel: "nofollow ugc noopener" },
                 found[1]));
    at = found.index + found[1].length;
  }
  parts.push(line.text.slice(at));
  return parts.filter((part) => part !== "");
}
