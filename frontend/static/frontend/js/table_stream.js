// The card table's news: the game's event stream, polling when it cannot be opened, and the waiting room.
import { ApiError, getJson } from "./api.js";
import { h } from "./dom.js";
import { gettext } from "./i18n.js";
import { openStream } from "./stream.js";

const POLL_VISIBLE_MS = 2000;
const POLL_HIDDEN_MS = 15000;

// Lent to the Table (table_core.js): following the game, by stream or by polling.
export const streamAndPolling = {
  // The game's events (see stream.js): polling takes over only for a stream that cannot be opened.
  follow() {
    openStream(
      this.root.dataset.streamUrl,
      {
        game: (detail) => this.onStreamed(detail),
        move: (event) => {
          if (!this.moves.some((m) => m.seq === event.move.seq)) {
            this.moves.push(event.move);
            this.moves.sort((a, b) => a.seq - b.seq);
          }
          if (event.detail) this.onStreamed(event.detail);
        },
        chat: (event) => document.dispatchEvent(new CustomEvent("table:chat", { detail: event })),
      },
      {
        onOpen: (source) => {
          this.stream = source;
          window.clearTimeout(this.pollTimer);
        },
        onUnavailable: () => {
          this.stream = null;
          this.schedulePoll(0);
        },
      },
    );
  },

  async onStreamed(fresh) {
    // A move sent meanwhile has the newer answer: this one must not overwrite it.
    if (this.busy || fresh.version < this.game.version) return;
    if (fresh.version !== this.game.version || fresh.status !== this.game.status) {
      await this.update(fresh, { announceNews: true });
    } else {
      this.game = fresh;
      this.setDeadline();
      this.render();
    }
    if (!this.isLive() && this.stream) {
      this.stream.close();
      this.stream = null;
    }
  },

  isLive() {
    return this.game.status === "active" || this.game.status === "open";
  },

  schedulePoll(delay) {
    window.clearTimeout(this.pollTimer);
    if (!this.isLive() || this.stream) return;
    this.pollTimer = window.setTimeout(() => this.poll(), delay);
  },

  async poll() {
    const next = () => this.schedulePoll(document.hidden ? POLL_HIDDEN_MS : POLL_VISIBLE_MS);
    if (this.busy) return next();
    try {
      const fresh = await getJson(this.root.dataset.gameUrl);
      // A move sent meanwhile has the newer answer: this one must not overwrite it.
      if (!this.busy && fresh.version >= this.game.version) {
        if (fresh.version !== this.game.version || fresh.status !== this.game.status) {
          await this.update(fresh, { announceNews: true });
        } else {
          this.game.seconds_left = fresh.seconds_left;
          this.game.deadline = fresh.deadline;
          this.setDeadline();
        }
      }
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.status === 403)) return undefined;
    }
    return next();
  },
};

// The waiting room is rendered by the server; here it only watches (on the game's stream, or by
// polling when the stream cannot be opened) for players joining or the start, and reloads to show
// the change (unless a one-time invitation link is on screen).
export function watchWaitingRoom(root, game) {
  const signature = (g) => JSON.stringify([g.status, g.version, g.seats.map((s) => [s.username, s.invited, s.reserved])]);
  const known = signature(game);
  const note = document.getElementById("waiting-note");
  const changed = (fresh) => {
    if (signature(fresh) === known) return false;
    if (root.dataset.inviteShown) {
      note.replaceChildren(gettext("Players have joined or the game has started."), " ",
        h("a", { href: window.location.pathname }, gettext("Show the table")));
      return true;
    }
    window.location.reload();
    return true;
  };
  const check = async () => {
    try {
      if (changed(await getJson(root.dataset.gameUrl))) return;
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.status === 403)) return;
    }
    window.setTimeout(check, document.hidden ? POLL_HIDDEN_MS : POLL_VISIBLE_MS);
  };
  openStream(
    root.dataset.streamUrl,
    { game: (fresh, source) => changed(fresh) && source.close() },
    { onUnavailable: () => window.setTimeout(check, 0) },
  );
}
