// A match's events as they happen, from the best channel the server has:
//   1. the stream, GET matches/{id}/stream/ (Server-Sent Events, session cookie);
//   2. where there is none, the long poll GET events/?after=N&wait=25;
//   3. a server that ignores `wait` answers at once, so an empty answer that came back
//      quickly is followed by a short pause: plain polling of events/?after=N.
// Every channel resumes from the last seq seen (Last-Event-ID or ?after=), so a cut
// loses nothing; the status says "live" or "reconnecting" meanwhile.

import { API, api } from "./api.js";

const EVENT_TYPES = [
  "match_created", "joined", "game_start", "roll_off", "roll", "step", "pass", "game_over",
  "resign", "resign_offer", "resign_answer", "match_over", "aborted", "cancelled",
  "declined", "offer", "accept", "refuse",
  "claim", "rematch", "your_turn", "presence", "clock", "message", "chat",
];
const WAIT = 25;
const POLL_PAUSE = 500;      // ms between plain polls
const OPEN_TIMEOUT = 5000;   // ms for a stream to open
const BRIEF_STREAM = 10000;  // ms: a stream that ends sooner is not reopened
// A back-off pause that wake() ends at once (the network came back, the tab is shown).
const waiting = new Set();
const sleep = (ms) => new Promise((resolve) => {
  const done = () => { clearTimeout(timer); waiting.delete(done); resolve(); };
  const timer = setTimeout(done, ms);
  waiting.add(done);
});

/** End every back-off pause now. */
export function wake() {
  for (const done of [...waiting]) done();
}

export class MatchLive {
  constructor(matchId, { after = 0, onEvents = () => {}, onStatus = () => {} } = {}) {
    this.matchId = matchId;
    this.seq = after;
    this.onEvents = onEvents;
    this.onStatus = onStatus;
    this.stopped = false;
    this.source = null;
    this.abort = null;
    this.mode = null;
    this.status = null;
    this.cuts = 0;         // cut() calls: an answer to a read begun before one is stale
  }

  setStatus(status) {
    if (status === this.status) return;
    this.status = status;
    this.onStatus(status, this.mode);
  }

  start() {
    if (typeof EventSource === "function" && !window.__nardNoStream) this.openStream();
    else this.poll();
  }

  stop() {
    this.stopped = true;
    if (this.source) this.source.close();
    if (this.abort) this.abort.abort();
  }

  deliver(events) {
    const fresh = events.filter((e) => e && typeof e.seq === "number" && e.seq > this.seq)
                        .sort((a, b) => a.seq - b.seq);
    if (!fresh.length) return;
    this.seq = fresh[fresh.length - 1].seq;
    this.onEvents(fresh);
  }

  openStream() {
    this.mode = "stream";
    this.opened = 0;
    const url = `${API}matches/${this.matchId}/stream/?after=${this.seq}`;
    const source = this.source = new EventSource(url, { withCredentials: true });
    const receive = (message) => {
      let event;
      try { event = JSON.parse(message.data); } catch { return; }
      if (event && typeof event.seq !== "number" && message.lastEventId) {
        event.seq = Number(message.lastEventId);
      }
      this.deliver([event]);
    };
    source.onmessage = receive;
    for (const type of EVENT_TYPES) source.addEventListener(type, receive);
    // A stream that never opens (a server that cannot hold it) is no stream.
    this.openTimer = setTimeout(() => {
      if (!this.opened && !this.stopped) { source.close(); this.poll(); }
    }, OPEN_TIMEOUT);
    source.onopen = () => {
      this.opened = Date.now();
      clearTimeout(this.openTimer);
      this.setStatus("live");
    };
    source.onerror = () => this.streamEnded(source, false);
  }

  /** The stream `source` failed or ended (`cut`: the browser went offline). */
  streamEnded(source, cut) {
    if (this.stopped || source !== this.source) return;
    clearTimeout(this.openTimer);
    source.close();
    this.source = null;
    if (!this.opened && !cut) {
      // No stream here (404, or not an event stream): fall back to the long poll.
      this.poll();
      return;
    }
    // The stream ended: a cut, or a server that answers what it has and closes (one
    // that cannot hold streams). Catch up with one plain read; a stream that lived
    // only briefly is not worth reopening, the long poll takes over.
    const brief = !cut && Date.now() - this.opened < BRIEF_STREAM;
    this.setStatus("reconnecting");
    this.catchUp().then(() => {
      if (this.stopped) return;
      if (brief) this.poll();
      else this.openStream();
    });
  }

  /** The browser went offline: whatever is in flight may be answered
   * from before the cut, so no answer now says "live"; the channel is read again from
   * the last seq, with back-off until wake() (the network is back). */
  cut() {
    if (this.stopped) return;
    this.cuts += 1;
    this.setStatus("reconnecting");
    if (this.abort) this.abort.abort();
    if (this.source) this.streamEnded(this.source, true);
  }

  /** One read of events/ after the last seq, retried until the server answers. */
  async catchUp() {
    for (let failures = 0; !this.stopped; failures++) {
      const cuts = this.cuts;
      try {
        const events = await api.get(`matches/${this.matchId}/events/?after=${this.seq}`,
                                     { retries: 0 });
        this.deliver(Array.isArray(events) ? events : (events && events.results) || []);
        if (cuts !== this.cuts || navigator.onLine === false) throw new Error("cut");
        this.setStatus("live");
        return;
      } catch {
        this.setStatus("reconnecting");
        await sleep(Math.min(8000, 500 * 2 ** Math.min(failures, 4)));
      }
    }
  }

  async poll() {
    this.mode = "poll";
    let failures = 0;
    while (!this.stopped) {
      const began = Date.now();
      const cuts = this.cuts;
      // Not known to be live yet (the first read, or after a failure): a read answered
      // at once says so, rather than a long poll held for WAIT s on a quiet match.
      const quick = this.status !== "live";
      this.abort = new AbortController();
      try {
        const events = await api.get(
          `matches/${this.matchId}/events/?after=${this.seq}${quick ? "" : `&wait=${WAIT}`}`,
          { signal: this.abort.signal, retries: 0 });
        const list = Array.isArray(events) ? events : (events && events.results) || [];
        this.deliver(list);
        if (cuts !== this.cuts || navigator.onLine === false) throw new Error("cut");
        failures = 0;
        this.setStatus("live");
        if (!quick && !list.length && Date.now() - began < (WAIT * 1000) / 2) {
          // The server does not hold the request (no `wait`): poll plainly.
          this.mode = "polling";
          await sleep(POLL_PAUSE);
        }
      } catch (error) {
        if (this.stopped) return;
        failures += 1;
        this.setStatus("reconnecting");
        await sleep(Math.min(8000, 500 * 2 ** Math.min(failures, 4)));
      }
    }
  }
}
