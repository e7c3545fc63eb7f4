// The card table's core: the game as the page knows it, its moves, its regions and what redraws them.
import { getAllPages, postJson } from "./api.js";
import { announce } from "./dom.js";
import { describeMove } from "./events.js";
import { format, gettext } from "./i18n.js";
import { adviceAndReview } from "./table_advice.js";
import { boardRendering, countdownText } from "./table_board.js";
import { handAndSelection } from "./table_hand.js";
import { historyAndReplay } from "./table_history.js";
import { streamAndPolling } from "./table_stream.js";
import { sendingMoves } from "./table_moves.js";
import { gameResults } from "./table_results.js";

const BOT_LABELS = {
  random: () => gettext("Computer (random)"),
  good: () => gettext("Computer (good)"),
  expert: () => gettext("Computer (expert)"),
};

// One game on the page, shown as the API gives it; news from the stream or a poll never overwrites
// the answer to a move being sent. Its methods live with the part of the table they serve, each
// part's module lending them to this class (at the end), so that `this` is the table in all of them.
export class Table {
  constructor(root, game) {
    this.root = root;
    this.game = game;
    this.moves = [];
    this.movesReady = false;
    this.movesChain = Promise.resolve();
    this.selected = [];
    this.busy = false;
    this.pollTimer = null;
    this.stream = null; // the game's EventSource while it is open
    this.deadlineAt = null;
    this.replay = null; // { index, playing }
    this.replayTimer = null;
    this.confirmingResign = false;
    this.timeZone = root.dataset.timeZone || undefined;
    // How the page names seated players (the server's "Name (@username)"), by seat index.
    const seatNames = document.getElementById("seat-names");
    this.seatNames = seatNames ? JSON.parse(seatNames.textContent) : {};
    const byId = (id) => document.getElementById(id);
    this.region = {
      status: byId("status"),
      error: byId("error"),
      players: byId("players"),
      piles: byId("piles"),
      hand: byId("hand"),
      actions: byId("actions"),
      advice: byId("advice"),
      review: byId("review"),
      latest: byId("latest"),
      showdown: byId("showdown"),
      ranking: byId("ranking"),
      history: byId("history"),
      replay: byId("replay"),
      announcer: byId("announcer"),
    };
  }

  seat(index) {
    return this.game.seats.find((s) => s.index === index) || null;
  }

  nameOf(index) {
    const seat = this.seat(index);
    if (!seat) return format(gettext("seat %(number)s"), { number: index + 1 });
    if (seat.is_bot) return (BOT_LABELS[seat.bot_level] || BOT_LABELS.random)();
    const named = this.seatNames[index];
    if (named && named.username === seat.username) return named.label;
    return seat.display_name || seat.username || gettext("open seat");
  }

  get ctx() {
    return { viewer: this.game.your_seat, nameOf: (seat) => this.nameOf(seat) };
  }

  get state() {
    return this.game.state || {};
  }

  start() {
    for (const name of ["hand", "actions", "replay", "review"]) {
      this.region[name].addEventListener("click", (event) => this.onClick(event));
    }
    this.region.replay.addEventListener("keydown", (event) => this.onReplayKey(event));
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden && !this.stream) this.schedulePoll(0);
    });
    this.setDeadline();
    this.render();
    this.loadMoves().then(() => this.renderHistoryParts());
    window.setInterval(() => this.tick(), 1000);
    if (this.isLive()) this.follow();
  }

  async update(fresh, { announceNews = false, afterAction = false } = {}) {
    const wasMyTurn = this.game.is_your_turn;
    const lastSeq = this.lastSeq();
    if (fresh.version !== this.game.version) this.showError(""); // an old refusal no longer applies
    this.game = fresh;
    this.setDeadline();
    this.pruneSelection();
    this.render();
    if (afterAction) this.restoreFocus();
    await this.loadMoves();
    this.renderHistoryParts();
    if (announceNews) {
      const sentences = this.moves.filter((m) => m.seq > lastSeq).flatMap((m) => describeMove(m, this.ctx));
      if (fresh.is_your_turn && !wasMyTurn) sentences.push(gettext("It is your turn."));
      announce(this.region.announcer, sentences.join(" "));
      // The player sees the news here: the notifications about it need not wait in the badge.
      if (fresh.your_seat !== null && !document.hidden) this.markNotificationsRead();
    }
    if (!this.isLive()) window.clearTimeout(this.pollTimer);
  }

  async markNotificationsRead() {
    try {
      await postJson("/api/v1/notifications/read/", { game: this.game.id });
    } catch {
      // The badge stays as it was; opening the game page again clears it.
    }
  }

  lastSeq() {
    return this.moves.length ? this.moves[this.moves.length - 1].seq : 0;
  }

  // One loader at a time, each continuing where the last one stopped.
  loadMoves() {
    this.movesChain = this.movesChain.then(async () => {
      if (this.game.status === "open") return;
      const after = this.lastSeq();
      if (this.movesReady && after >= this.game.version) return;
      try {
        const fresh = await getAllPages(`${this.root.dataset.movesUrl}?after=${after}`);
        const known = new Set(this.moves.map((m) => m.seq));
        this.moves.push(...fresh.filter((m) => !known.has(m.seq)));
        this.moves.sort((a, b) => a.seq - b.seq);
        this.movesReady = true;
      } catch {
        // The history is shown again after the next change; the table itself is unaffected.
      }
    });
    return this.movesChain;
  }

  setDeadline() {
    const left = this.game.seconds_left;
    this.deadlineAt = this.game.status === "active" && left !== null && left !== undefined ? Date.now() + left * 1000 : null;
  }

  secondsLeft() {
    return this.deadlineAt === null ? null : Math.max(0, Math.round((this.deadlineAt - Date.now()) / 1000));
  }

  tick() {
    const clock = document.getElementById("countdown");
    const left = this.secondsLeft();
    // At zero the regular poll brings the server's move for the absent player.
    if (clock && left !== null) clock.textContent = countdownText(left);
  }

  onClick(event) {
    const button = event.target.closest("button");
    if (!button) return;
    if (button.dataset.action) this.act(JSON.parse(button.dataset.action));
    else if (button.dataset.toggle) this.toggle(button.dataset.toggle);
    else if (button.dataset.meld !== undefined) this.meldSelected();
    else if (button.dataset.clear !== undefined) this.clearSelection();
    else if (button.dataset.resign !== undefined) this.resign(button.dataset.resign);
    else if (button.dataset.replay) this.replayControl(button.dataset.replay);
    else if (button.dataset.replayAt) this.replayAt(Number(button.dataset.replayAt));
  }

  render() {
    this.root.classList.toggle("my-turn", Boolean(this.game.is_your_turn));
    this.root.classList.remove("status-open", "status-active", "status-finished", "status-aborted");
    this.root.classList.add(`status-${this.game.status}`);
    this.renderStatus();
    this.renderPlayers();
    this.renderPiles();
    this.renderHand();
    this.renderActions();
    this.renderAdvice();
    this.renderShowdown();
    this.renderRanking();
    this.loadReview();
    this.root.dispatchEvent(new CustomEvent("table:rendered", { detail: this.game })); // table_next.js
  }

  renderHistoryParts() {
    this.renderHand(); // the card drawn this turn is known from the history
    this.renderLatest();
    this.renderHistory();
    this.renderReplay();
  }
}

Object.assign(Table.prototype, streamAndPolling, sendingMoves, handAndSelection, boardRendering, historyAndReplay,
  gameResults, adviceAndReview);
