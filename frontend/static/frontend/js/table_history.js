// The card table's history: the latest moves, the whole move list and the step-by-step replay.
import { cardLabels, cardName, namedCard } from "./cards.js";
import { h, updateRegion } from "./dom.js";
import { describeEvent, describeMove } from "./events.js";
import { format, gettext, listOf, ngettext } from "./i18n.js";
import { boardsFor } from "./replay.js";

const REPLAY_STEP_MS = 1200;
const LATEST_MAX = 8;

// Lent to the Table (table_core.js).
export const historyAndReplay = {
  renderLatest() {
    const g = this.game;
    let moves = this.moves;
    let start = 0;
    if (g.your_seat !== null) {
      // What happened since your own last move (and that move itself).
      for (let i = moves.length - 1; i >= 0; i--) {
        if (moves[i].seat === g.your_seat && moves[i].by_server !== "bot") {
          start = i;
          break;
        }
      }
    }
    moves = moves.slice(Math.max(start, moves.length - LATEST_MAX));
    const items = moves.map((move) => h("li", {}, describeMove(move, this.ctx).join(" ")));
    if (!items.length) items.push(...this.dealSentences().map((text) => h("li", {}, text)));
    updateRegion(this.region.latest, items);
  },

  dealSentences() {
    return (this.state.opening_events || []).map((event) => describeEvent(event, this.ctx)).filter(Boolean);
  },

  openingDealShown() {
    // The opening events (version 0) start with hand 1's deal (a first-edition Scat game knows them
    // only while hand 1 lasts: then they are empty).
    const deal = (this.state.opening_events || [])[0];
    return Boolean(deal) && (deal.hand_no === undefined || deal.hand_no === 1);
  },

  renderHistory() {
    const list = this.region.history;
    // The newest move stays in view unless the reader has scrolled back to an older one.
    const atEnd = !this.historyShown || list.scrollHeight - list.scrollTop - list.clientHeight < 8;
    this.historyShown = true;
    const items = [];
    if (this.openingDealShown()) {
      items.push(h("li", { class: "deal", value: "0" }, this.dealSentences().join(" ")));
    }
    for (const move of this.moves) {
      items.push(h("li", { value: String(move.seq), class: this.replay && this.replay.index === move.seq ? "current" : "" },
        describeMove(move, this.ctx).join(" ")));
    }
    updateRegion(list, items);
    const current = list.querySelector("li.current");
    if (current) list.scrollTop = current.offsetTop - list.clientHeight / 2;
    else if (atEnd) list.scrollTop = list.scrollHeight;
  },

  replayControl(command) {
    const total = this.moves.length;
    if (command === "open") this.replay = { index: 0, playing: false };
    if (!this.replay) return;
    const r = this.replay;
    if (command === "close") {
      this.stopReplayTimer();
      this.replay = null;
    } else if (command === "first") r.index = 0;
    else if (command === "previous") r.index = Math.max(0, r.index - 1);
    else if (command === "next") r.index = Math.min(total, r.index + 1);
    else if (command === "last") r.index = total;
    else if (command === "play") {
      r.playing = true;
      if (r.index >= total) r.index = 0;
      this.replayTimer = window.setInterval(() => {
        if (!this.replay || this.replay.index >= this.moves.length) {
          this.stopReplayTimer();
        } else {
          this.replay.index += 1;
        }
        this.renderReplay();
        this.renderHistory();
      }, REPLAY_STEP_MS);
    } else if (command === "pause") this.stopReplayTimer();
    this.renderReplay();
    this.renderHistory();
    if (command === "open" || command === "close") {
      const target = this.region.replay.querySelector(command === "open" ? '[data-replay="next"]' : '[data-replay="open"]');
      if (target) target.focus();
    }
  },

  // A line of the review opens the replay where that move was chosen: before it, with the hand as it was.
  replayAt(seq) {
    const at = this.moves.findIndex((move) => move.seq === seq);
    if (at < 0) return;
    this.stopReplayTimer();
    this.replay = { index: at, playing: false };
    this.renderReplay();
    this.renderHistory();
    const target = this.region.replay.querySelector('[data-replay="next"]');
    if (target) {
      target.focus();
      this.region.replay.scrollIntoView({ block: "nearest" });
    }
  },

  // The arrow keys step through the replay (in the reading direction), Home and End go to its ends.
  onReplayKey(event) {
    if (!this.replay || event.altKey || event.ctrlKey || event.metaKey) return;
    const rtl = document.documentElement.dir === "rtl";
    const commands = { Home: "first", End: "last", ArrowLeft: rtl ? "next" : "previous", ArrowRight: rtl ? "previous" : "next" };
    const command = commands[event.key];
    if (!command) return;
    event.preventDefault();
    this.replayControl(command);
  },

  stopReplayTimer() {
    window.clearInterval(this.replayTimer);
    this.replayTimer = null;
    if (this.replay) this.replay.playing = false;
  },

  renderReplay() {
    const region = this.region.replay;
    const total = this.moves.length;
    const button = (command, label, attrs = {}) => h("button", { type: "button", class: "secondary",
      dataset: { key: `replay:${command}`, replay: command }, ...attrs }, label);
    if (!this.replay) {
      updateRegion(region, total ? button("open", gettext("Replay the moves")) : null);
      return;
    }
    const r = this.replay;
    const boards = boardsFor(this.game, this.moves);
    const board = boards[Math.min(r.index, boards.length - 1)];
    const move = r.index > 0 ? this.moves[r.index - 1] : null;
    const position = r.index === 0 ? gettext("Before the first move")
      : format(gettext("After move %(number)s of %(total)s"), { number: r.index, total });
    const sentences = move ? describeMove(move, this.ctx) : this.dealSentences();
    const top = board.discard && board.discard.length ? board.discard[board.discard.length - 1] : null;
    const seats = this.game.seats.map((seat) => {
      const i = seat.index;
      const bits = [format(ngettext("%(count)s card", "%(count)s cards", board.held[i]), { count: board.held[i] })];
      if (board.kind === "scat") {
        if (board.tokens[i] !== null) {
          bits.push(format(ngettext("%(count)s life", "%(count)s lives", board.tokens[i]), { count: board.tokens[i] }));
        }
      } else {
        bits.push(format(ngettext("%(count)s point", "%(count)s points", board.scores[i]), { count: board.scores[i] }));
      }
      if (board.out[i]) bits.push(gettext("out"));
      return h("li", {}, h("strong", {}, this.nameOf(i)), ": ", listOf(bits),
        board.kind === "scattle" ? this.meldList(board.melds[i].filter(Boolean)) : null);
    });
    updateRegion(region, [
      h("div", { class: "replay-controls", role: "group", "aria-label": gettext("Replay") },
        button("first", gettext("First"), { "aria-label": gettext("Back to the start") }),
        button("previous", gettext("Previous move")),
        r.playing ? button("pause", gettext("Pause")) : button("play", gettext("Play")),
        button("next", gettext("Next move")),
        button("last", gettext("Last"), { "aria-label": gettext("To the last move") }),
        button("close", gettext("Close replay"))),
      h("div", { class: "replay-board", "aria-live": "polite" },
        h("p", {}, h("strong", {}, position)),
        h("p", {}, sentences.join(" ")),
        // The cards as they lay: the top of the discard pile, and the viewer's own hand.
        h("div", { class: "replay-cards" },
          top ? h("p", {}, namedCard(top, format(gettext("Top of the discard pile: %(card)s"), { card: cardName(top) }), "small"),
            " ", h("span", { "aria-hidden": "true" }, gettext("Discard pile"))) : null,
          board.stock !== null ? h("p", {}, format(ngettext("Stock: %(count)s card", "Stock: %(count)s cards", board.stock),
            { count: board.stock })) : null),
        board.hand ? h("div", { class: "replay-hand" },
          h("p", {}, format(gettext("Your hand: %(cards)s"), { cards: cardLabels(board.hand) || "—" })),
          h("p", { class: "card-img row", "aria-hidden": "true" }, board.hand.map((code) => namedCard(code, "", "small"))))
          : null,
        h("ul", { class: "replay-seats" }, seats)),
    ]);
  },
};
