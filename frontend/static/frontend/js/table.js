// The card table: renders the game as the API gives it, sends moves, follows the game's event
// stream (polling only when the stream cannot be opened), and never lets news overtake a move
// that is being sent.
import { renderAdvice, renderReview } from "./advice.js";
import { ApiError, getAllPages, getJson, newIdempotencyKey, postJson } from "./api.js";
import { cardBack, cardFace, cardLabel, cardLabels, cardName, namedCard, setSprite, sortCards } from "./cards.js";
import { announce, h, updateRegion } from "./dom.js";
import { describeEvent, describeMove, formatValue, reasonText, winnersText } from "./events.js";
import { digits, format, formatDateTime, gettext, language, listOf, ngettext, number, pgettext } from "./i18n.js";
import { boardsFor } from "./replay.js";
import { openStream } from "./stream.js";

const POLL_VISIBLE_MS = 2000;
const POLL_HIDDEN_MS = 15000;
const REPLAY_STEP_MS = 1200;
const LATEST_MAX = 8;

const BOT_LABELS = {
  random: () => gettext("Computer (random)"),
  good: () => gettext("Computer (good)"),
  expert: () => gettext("Computer (expert)"),
};

const ACTION_LABELS = {
  draw_stock: () => gettext("Draw from stock"),
  draw_discard: () => gettext("Take discard"),
  knock: () => gettext("Knock"),
  stand: () => gettext("Stand"),
  throw_down: () => gettext("Throw down"),
};

export function errorText(error) {
  const messages = {
    network: gettext("Could not reach the server. Check your connection and try again."),
    stale_version: gettext("The game has moved on; here is the table as it is now."),
    not_your_turn: gettext("It is not your turn."),
    not_seated: gettext("You do not have a seat in this game."),
    game_over: gettext("This game is over."),
    game_not_started: gettext("The game has not started yet."),
    illegal_action: gettext("The rules do not allow that move now."),
    wrong_phase: gettext("That move does not fit this part of your turn."),
    card_not_in_hand: gettext("That card is not in your hand."),
    bad_card: gettext("That is not a card."),
    bad_action: gettext("The move was not understood."),
    throttled: gettext("Too many requests; wait a moment and try again."),
    not_authenticated: gettext("Your session has ended; log in again."),
    not_found: gettext("There is no such game, or you may not see it."),
  };
  if (language().startsWith("en") && error.code !== "network" && error.message) return error.message;
  return messages[error.code] || gettext("That did not work; try again.");
}

class Table {
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

  // --- names -------------------------------------------------------------------------------

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

  // --- life cycle --------------------------------------------------------------------------

  start() {
    for (const name of ["hand", "actions", "replay"]) {
      this.region[name].addEventListener("click", (event) => this.onClick(event));
    }
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden && !this.stream) this.schedulePoll(0);
    });
    this.setDeadline();
    this.render();
    this.loadMoves().then(() => this.renderHistoryParts());
    window.setInterval(() => this.tick(), 1000);
    if (this.isLive()) this.follow();
  }

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
  }

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
  }

  isLive() {
    return this.game.status === "active" || this.game.status === "open";
  }

  schedulePoll(delay) {
    window.clearTimeout(this.pollTimer);
    if (!this.isLive() || this.stream) return;
    this.pollTimer = window.setTimeout(() => this.poll(), delay);
  }

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

  // --- clock -------------------------------------------------------------------------------

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

  // --- acting ------------------------------------------------------------------------------

  onClick(event) {
    const button = event.target.closest("button");
    if (!button) return;
    if (button.dataset.action) this.act(JSON.parse(button.dataset.action));
    else if (button.dataset.toggle) this.toggle(button.dataset.toggle);
    else if (button.dataset.meld !== undefined) this.meldSelected();
    else if (button.dataset.clear !== undefined) this.clearSelection();
    else if (button.dataset.resign !== undefined) this.resign();
    else if (button.dataset.replay) this.replayControl(button.dataset.replay);
  }

  async act(action) {
    if (this.busy || !this.game.is_your_turn) return;
    this.setBusy(true);
    this.showError("");
    try {
      const result = await postJson(this.root.dataset.movesUrl, { action, version: this.game.version },
        { idempotencyKey: newIdempotencyKey() });
      if (action.type === "meld") this.selected = [];
      this.busy = false;
      await this.update(result.game, { afterAction: true });
      announce(this.region.announcer, [...describeMove(result.move, this.ctx),
        ...(result.game.is_your_turn ? [] : [this.turnSentence()])].join(" "));
    } catch (error) {
      this.busy = false;
      await this.recover(error);
    } finally {
      this.setBusy(false);
      this.restoreFocus();
    }
  }

  async resign() {
    if (this.busy || !window.confirm(gettext("Resign this game? This cannot be undone."))) return;
    this.setBusy(true);
    try {
      const fresh = await postJson(this.root.dataset.resignUrl, {});
      this.busy = false;
      await this.update(fresh, { afterAction: true });
    } catch (error) {
      this.busy = false;
      await this.recover(error);
    } finally {
      this.setBusy(false);
      this.restoreFocus();
    }
  }

  async recover(error) {
    if (error.status === 409 || error.status === 403 || error.code === "network") {
      try {
        await this.update(await getJson(this.root.dataset.gameUrl));
      } catch {
        // Still offline: the next poll tries again.
      }
    }
    this.showError(errorText(error));
  }

  setBusy(busy) {
    this.busy = busy;
    this.root.setAttribute("aria-busy", busy ? "true" : "false");
  }

  // After a move the pressed button may be gone; put the focus where the next move starts.
  restoreFocus() {
    const focused = document.activeElement;
    if (focused && focused !== document.body && this.root.contains(focused)) return;
    const target = this.game.is_your_turn
      ? this.region.actions.querySelector("button:not([data-resign])") || this.region.hand.querySelector("button")
      : null;
    (target || this.region.status).focus();
  }

  showError(text) {
    this.region.error.textContent = text;
  }

  // --- Scattle's selection -----------------------------------------------------------------

  toggle(key) {
    const at = this.selected.indexOf(key);
    if (at >= 0) this.selected.splice(at, 1);
    else this.selected.push(key);
    this.renderHand();
    this.renderActions();
  }

  clearSelection() {
    this.selected = [];
    this.renderHand();
    this.renderActions();
  }

  pruneSelection() {
    const keys = new Set(this.handEntries().map((entry) => entry.key));
    this.selected = this.selected.filter((key) => keys.has(key));
  }

  selectedCards() {
    return this.selected.map((key) => key.split("#")[0]);
  }

  legalMeld(cards) {
    const wanted = [...cards].sort().join(",");
    return this.game.legal_actions.find((a) => a.type === "meld" && [...a.cards].sort().join(",") === wanted) || null;
  }

  meldSelected() {
    const cards = this.selectedCards();
    const meld = this.legalMeld(cards);
    if (!meld) {
      this.showError(cards.length < 3 ? gettext("Select at least three cards that form a group or a run, then press Meld.")
        : gettext("The selected cards do not form a meld you may lay."));
      return;
    }
    this.act({ type: "meld", cards: meld.cards });
  }

  // --- rendering ---------------------------------------------------------------------------

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
  }

  // A player's review of the finished game, computed in the background after its end.
  loadReview(delay = 0) {
    const g = this.game;
    if (g.status !== "finished" || g.your_seat === null || this.reviewLoading || this.review) return;
    this.reviewLoading = true;
    window.setTimeout(async () => {
      try {
        const review = await getJson(this.root.dataset.reviewUrl);
        if (review.status === "ready") this.review = review;
        renderReview(this.region.review, review);
        this.reviewLoading = false;
        if (review.status !== "ready") this.loadReview(Math.min(30000, Math.max(3000, delay * 2)));
      } catch {
        this.reviewLoading = false; // no review for this viewer (or offline): the section stays hidden
      }
    }, delay);
  }

  // Fetched once per position, on the player's turn in a game with advice on.
  renderAdvice() {
    const g = this.game;
    if (!g.advice || !g.is_your_turn) {
      this.advice = null;
      renderAdvice(this.region.advice, null);
      return;
    }
    if (this.advice && this.advice.version === g.version) {
      renderAdvice(this.region.advice, this.advice);
      return;
    }
    if (this.adviceAsked === g.version) return;
    this.adviceAsked = g.version;
    getJson(this.root.dataset.adviceUrl).then((advice) => {
      if (advice.version !== this.game.version) return;
      this.advice = advice;
      renderAdvice(this.region.advice, advice);
    }).catch((error) => {
      this.adviceAsked = null; // the next render asks again
      // Held back for load (429, 503): ask again after a pause, while the position stands.
      if (error.status === 429 || error.status === 503) setTimeout(() => this.renderAdvice(), 3000);
    });
  }

  renderHistoryParts() {
    this.renderHand(); // the card drawn this turn is known from the history
    this.renderLatest();
    this.renderHistory();
    this.renderReplay();
  }

  turnSentence() {
    const g = this.game;
    if (g.status !== "active" || g.to_act === null) return "";
    if (g.is_your_turn) return gettext("It is your turn.");
    return format(gettext("Waiting for %(name)s."), { name: this.nameOf(g.to_act) });
  }

  phaseHint() {
    const phase = this.state.phase;
    if (this.game.kind === "scat") {
      if (phase === "must_discard") return gettext("Discard a card.");
      return this.game.legal_actions.some((a) => a.type === "knock")
        ? gettext("Draw a card, or knock.") : gettext("Draw a card.");
    }
    if (phase === "play") return gettext("Meld if you can, then discard a card to end your turn.");
    return gettext("Draw a card.");
  }

  renderStatus() {
    const g = this.game;
    const st = this.state;
    const lines = [];
    if (g.status === "active") {
      if (g.is_your_turn) {
        lines.push(h("p", { class: "turn mine" }, h("strong", {}, gettext("Your turn.")), " ", this.phaseHint()));
      } else if (g.to_act !== null) {
        lines.push(h("p", { class: "turn" }, this.turnSentence()));
      }
      const left = this.secondsLeft();
      if (left !== null) {
        lines.push(h("p", { class: "clock" }, gettext("Time left:"), " ",
          h("time", { id: "countdown", datetime: g.deadline }, countdownText(left)), " ",
          h("span", { class: "help" }, format(gettext("(until %(time)s)"), { time: this.localTime(g.deadline) }))));
      } else if (g.to_act !== null) {
        lines.push(h("p", { class: "clock help" }, gettext("The clock is stopped while the player is away.")));
      }
    } else if (g.status === "finished") {
      lines.push(h("p", { class: "turn" }, h("strong", {}, gettext("The game is over."))));
    }
    if (g.your_seat === null) lines.push(h("p", { class: "help" }, gettext("You are watching this game.")));
    const facts = [];
    if (g.kind === "scat") {
      if (st.hand_no) facts.push(format(gettext("Hand %(number)s"), { number: st.hand_no }));
      if (st.kitty) facts.push(format(ngettext("kitty: %(count)s token", "kitty: %(count)s tokens", st.kitty), { count: st.kitty }));
      if (st.hand_value !== null && st.hand_value !== undefined && g.status === "active" && (g.hand || []).length) {
        facts.push(format(gettext("your hand is worth %(value)s"), { value: formatValue(st.hand_value) }));
      }
    } else if (g.options && g.options.target_score) {
      facts.push(format(gettext("first to %(score)s points wins"), { score: g.options.target_score }));
    }
    if (facts.length) lines.push(h("p", { class: "facts" }, listOf(facts)));
    updateRegion(this.region.status, lines);
    this.region.status.setAttribute("tabindex", "-1");
  }

  localTime(iso) {
    return formatDateTime(iso, this.timeZone);
  }

  renderPlayers() {
    const g = this.game;
    const items = g.seats.map((seat) => {
      const facts = seat.public || {};
      const toAct = g.status === "active" && g.to_act === seat.index;
      const out = facts.in_game === false;
      const badges = [];
      if (seat.index === g.your_seat) badges.push(gettext("you"));
      if (facts.is_dealer) badges.push(gettext("dealer"));
      if (facts.is_knocker) badges.push(gettext("knocked"));
      if (toAct) badges.push(gettext("to play"));
      if (seat.resigned || facts.resigned) badges.push(gettext("resigned"));
      else if (facts.eliminated) badges.push(gettext("out"));
      if (seat.place) badges.push(format(gettext("place %(place)s"), { place: seat.place }));
      const held = facts.cards_held ?? 0;
      const parts = [
        h("div", { class: "seat-head" }, h("span", { class: "name" }, this.nameOf(seat.index)),
          badges.map((text) => h("span", { class: "tag" }, text))),
        h("div", { class: "held", role: "img",
          "aria-label": format(ngettext("%(count)s card in hand", "%(count)s cards in hand", held), { count: held }) },
        Array.from({ length: Math.min(held, 8) }, () => cardBack("tiny")),
        h("span", { class: "count", "aria-hidden": "true" }, number(held))),
      ];
      if (g.time_bank && g.status === "active" && seat.bank_remaining !== null && seat.bank_remaining !== undefined) {
        // What each bank held when its player's last turn ended; the turn running counts down in the status.
        parts.push(h("p", { class: "bank" }, seat.bank_remaining > 0
          ? format(gettext("Time bank: %(time)s"), { time: countdownText(seat.bank_remaining) })
          : gettext("Time bank empty")));
      }
      if (g.kind === "scat") {
        const tokens = facts.tokens ?? 0;
        // Once the game is over the winner holds the kitty too: tokens, as the final ranking counts them.
        const held = g.status === "finished"
          ? ngettext("%(count)s token", "%(count)s tokens", tokens)
          : ngettext("%(count)s life", "%(count)s lives", tokens);
        parts.push(h("p", { class: "lives" }, format(held, { count: tokens }),
          facts.on_the_county ? [" · ", gettext("on the county")] : null));
      } else {
        parts.push(h("p", { class: "score" }, format(ngettext("%(count)s point", "%(count)s points", facts.score ?? 0),
          { count: facts.score ?? 0 })));
        parts.push(this.meldList(facts.melds || []));
      }
      return h("li", { class: `seat${toAct ? " to-act" : ""}${out ? " out" : ""}${seat.index === g.your_seat ? " me" : ""}` },
        parts);
    });
    updateRegion(this.region.players, items);
  }

  meldList(melds) {
    if (!melds.length) return null;
    return h("ul", { class: "melds" }, melds.map((meld, index) => {
      const kind = meld.kind === "group" ? gettext("group") : gettext("run");
      const label = format(ngettext("Meld %(number)s, %(kind)s: %(cards)s; %(points)s point",
        "Meld %(number)s, %(kind)s: %(cards)s; %(points)s points", meld.points),
      { number: index + 1, kind, cards: listOf(meld.cards.map(cardName)), points: meld.points });
      return h("li", { class: "meld", role: "img", "aria-label": label },
        h("span", { class: "meld-no", "aria-hidden": "true" }, number(index + 1)),
        meld.cards.map((code) => cardFace(code, "small")),
        h("span", { class: "points", "aria-hidden": "true" }, `+${meld.points}`));
    }));
  }

  renderPiles() {
    const st = this.state;
    const stock = st.stock_count ?? 0;
    const pile = (st.discard_pile || []).length;
    const top = st.discard_top;
    updateRegion(this.region.piles, [
      h("div", { class: "pile stock" },
        h("div", { class: "pile-cards" }, stock ? cardBack("big") : h("span", { class: "face empty big", "aria-hidden": "true" })),
        h("p", {}, format(ngettext("Stock: %(count)s card", "Stock: %(count)s cards", stock), { count: stock }))),
      h("div", { class: "pile discard" },
        h("div", { class: "pile-cards" }, top
          ? namedCard(top, format(gettext("Top of the discard pile: %(card)s"), { card: cardName(top) }), "big")
          : h("span", { class: "face empty big", "aria-hidden": "true" })),
        h("p", {}, format(ngettext("Discard pile: %(count)s card", "Discard pile: %(count)s cards", pile), { count: pile }))),
    ]);
  }

  // The hand in display order, each card with a key that tells twin cards (two decks) apart.
  handEntries() {
    const hand = this.game.hand || [];
    const seen = {};
    return sortCards(hand, this.game.kind === "scat").map((code) => {
      const copy = seen[code] ?? 0;
      seen[code] = copy + 1;
      return { code, copy, key: `${code}#${copy}` };
    });
  }

  drawnThisTurn() {
    const st = this.state;
    const g = this.game;
    if (!g.is_your_turn || !["must_discard", "play"].includes(st.phase)) return null;
    if (st.taken_from_discard) return st.taken_from_discard;
    for (let i = this.moves.length - 1; i >= 0; i--) {
      const move = this.moves[i];
      if (move.seat !== g.your_seat) break;
      const draw = (move.events || []).find((e) => e.type === "draw_stock" && e.seat === g.your_seat);
      if (draw) return draw.card;
    }
    return null;
  }

  renderHand() {
    const g = this.game;
    const region = this.region.hand;
    if (g.your_seat === null) {
      updateRegion(region, h("p", { class: "help" }, gettext("You are watching: you hold no cards.")));
      return;
    }
    const entries = this.handEntries();
    if (!entries.length) {
      updateRegion(region, h("p", { class: "help" }, gettext("You hold no cards.")));
      return;
    }
    const discardable = new Set(g.legal_actions.filter((a) => a.type === "discard").map((a) => a.card));
    const toggles = g.kind === "scattle" && g.is_your_turn && this.state.phase === "play";
    const drawn = this.drawnThisTurn();
    let drawnMarked = false;
    const items = entries.map(({ code, copy, key }) => {
      const name = copy === 0 ? cardName(code) : format(gettext("%(card)s, second copy"), { card: cardName(code) });
      const pressed = this.selected.includes(key);
      const card = toggles
        ? h("button", { type: "button", class: "card-toggle", "aria-pressed": pressed ? "true" : "false",
          "aria-label": name, dataset: { key: `toggle:${key}`, toggle: key } }, cardFace(code))
        : h("span", { class: "card-img", role: "img", "aria-label": name }, cardFace(code));
      const isDrawn = !drawnMarked && code === drawn;
      if (isDrawn) drawnMarked = true;
      const discard = copy === 0 && discardable.has(code)
        ? h("button", { type: "button", class: "discard",
          "aria-label": format(gettext("Discard %(card)s"), { card: cardName(code) }),
          dataset: { key: `discard:${code}`, action: JSON.stringify({ type: "discard", card: code }) } },
        gettext("Discard"))
        : null;
      return h("li", { class: `hand-card${pressed ? " selected" : ""}${isDrawn ? " drawn" : ""}` },
        card, isDrawn ? h("span", { class: "tag new" }, gettext("new")) : null, discard);
    });
    updateRegion(region, h("ul", { class: "hand" }, items));
  }

  renderActions() {
    const g = this.game;
    const buttons = [];
    const extra = [];
    if (g.is_your_turn) {
      for (const action of g.legal_actions) {
        const label = ACTION_LABELS[action.type];
        if (label) {
          buttons.push(h("button", { type: "button", class: `action ${action.type}`,
            dataset: { key: `action:${action.type}`, action: JSON.stringify(action) } }, label()));
        } else if (action.type === "lay_off") {
          const values = { card: cardName(action.card), meld: action.meld + 1 };
          buttons.push(h("button", { type: "button", class: "action lay-off",
            "aria-label": format(gettext("Lay off %(card)s on meld %(meld)s"), values),
            dataset: { key: `layoff:${action.card}:${action.meld}`, action: JSON.stringify(action) } },
          format(gettext("Lay off %(card)s on meld %(meld)s"), { card: cardLabel(action.card), meld: action.meld + 1 })));
        }
      }
      if (g.kind === "scattle" && this.state.phase === "play") {
        buttons.unshift(h("button", { type: "button", class: "action meld", dataset: { key: "meld", meld: "" } },
          gettext("Meld")));
        const cards = this.selectedCards();
        const possible = g.legal_actions.filter((a) => a.type === "meld");
        let note;
        if (!cards.length) {
          note = possible.length ? gettext("Select the cards of a meld, then press Meld.")
            : gettext("No meld in your hand: discard a card.");
        } else {
          note = format(gettext("Selected: %(cards)s."), { cards: cardLabels(cards) }) + " "
            + (this.legalMeld(cards) ? gettext("This is a meld.") : gettext("Not a meld yet."));
        }
        extra.push(h("p", { class: "help selection" }, note));
        if (possible.length) {
          extra.push(h("p", { class: "help" }, format(gettext("Melds in your hand: %(melds)s"),
            { melds: possible.map((a) => cardLabels(a.cards)).join(" · ") })));
        }
        if (cards.length) {
          buttons.push(h("button", { type: "button", class: "secondary", dataset: { key: "clear", clear: "" } },
            gettext("Clear selection")));
        }
      }
    }
    const me = g.your_seat === null ? null : this.seat(g.your_seat);
    const stillIn = me && !(me.public || {}).eliminated && (me.public || {}).in_game !== false;
    if (g.status === "active" && stillIn) {
      buttons.push(h("button", { type: "button", class: "danger resign", dataset: { key: "resign", resign: "" } },
        gettext("Resign")));
    }
    updateRegion(this.region.actions, [h("div", { class: "buttons" }, buttons), extra]);
  }

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
  }

  dealSentences() {
    return (this.state.opening_events || []).map((event) => describeEvent(event, this.ctx)).filter(Boolean);
  }

  openingDealShown() {
    // The opening events (version 0) start with hand 1's deal (a first-edition Scat game knows them
    // only while hand 1 lasts: then they are empty).
    const deal = (this.state.opening_events || [])[0];
    return Boolean(deal) && (deal.hand_no === undefined || deal.hand_no === 1);
  }

  renderHistory() {
    const items = [];
    if (this.openingDealShown()) {
      items.push(h("li", { class: "deal", value: "0" }, this.dealSentences().join(" ")));
    }
    for (const move of this.moves) {
      items.push(h("li", { value: String(move.seq), class: this.replay && this.replay.index === move.seq ? "current" : "" },
        describeMove(move, this.ctx).join(" ")));
    }
    updateRegion(this.region.history, items);
  }

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
  }

  stopReplayTimer() {
    window.clearInterval(this.replayTimer);
    this.replayTimer = null;
    if (this.replay) this.replay.playing = false;
  }

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
        h("p", {}, top ? format(gettext("Top of the discard pile: %(card)s"), { card: cardLabel(top) }) : null,
          board.stock !== null ? [" · ", format(ngettext("Stock: %(count)s card", "Stock: %(count)s cards", board.stock),
            { count: board.stock })] : null),
        board.hand ? h("p", {}, format(gettext("Your hand: %(cards)s"), { cards: cardLabels(board.hand) || "—" })) : null,
        h("ul", { class: "replay-seats" }, seats)),
    ]);
  }

  renderShowdown() {
    const g = this.game;
    const section = document.getElementById("showdown-section");
    const showdown = this.state.last_showdown;
    if (!showdown) {
      section.hidden = true;
      return;
    }
    section.hidden = false;
    const rows = [];
    let caption;
    if (g.kind === "scat") {
      caption = this.scatShowdownCaption(showdown);
      showdown.hands.forEach((hand, seat) => {
        if (!hand) return;
        const lost = (showdown.lives_lost || [])[seat] ?? 0;
        const value = showdown.values[seat];
        const facts = [];
        if (value !== null && value !== undefined) {
          facts.push(format(gettext("hand value %(value)s"), { value: formatValue(value) }));
        }
        facts.push(lost ? format(ngettext("lost %(count)s life", "lost %(count)s lives", lost), { count: lost })
          : gettext("lost nothing"));
        rows.push({ seat, hand, facts });
      });
    } else {
      const outcome = g.outcome || this.state.outcome || {};
      caption = gettext("The hands at the end of the game");
      showdown.hands.forEach((hand, seat) => {
        if (!hand) return;
        const facts = [
          format(gettext("melds %(points)s"), { points: (outcome.meld_scores || [])[seat] ?? 0 }),
          format(gettext("deadwood %(points)s"), { points: (showdown.deadwood || [])[seat] ?? 0 }),
          format(gettext("final score %(points)s"), { points: (outcome.scores || [])[seat] ?? 0 }),
        ];
        rows.push({ seat, hand, facts });
      });
    }
    updateRegion(this.region.showdown, [
      h("p", { class: "caption" }, caption),
      h("ul", { class: "showdown-list" }, rows.map(({ seat, hand, facts }) => h("li", {},
        h("p", {}, h("strong", {}, this.nameOf(seat)), ": ", listOf(facts)),
        this.cardsCell(hand)))),
    ]);
  }

  scatShowdownCaption(showdown) {
    const hand = showdown.hand_no;
    const knocker = showdown.knocker;
    let text;
    if (showdown.kind === "thirty_one") text = gettext("a player made 31");
    else if (showdown.kind === "thirty_one_on_deal") text = gettext("31 on the deal");
    else if (showdown.kind === "throw_down") {
      text = format(gettext("%(name)s threw down"), { name: knocker === null ? "?" : this.nameOf(knocker) });
    } else if (knocker !== null && knocker !== undefined) {
      text = format(gettext("after %(name)s knocked"), { name: this.nameOf(knocker) });
    } else text = gettext("showdown");
    let caption = format(gettext("Hand %(number)s: %(what)s"), { number: hand, what: text });
    if (showdown.void) caption += " " + gettext("(void: nobody lost)");
    return caption;
  }

  cardsCell(hand) {
    if (!hand.length) return gettext("none");
    return h("span", { class: "card-img row", role: "img", "aria-label": listOf(hand.map(cardName)) },
      hand.map((code) => cardFace(code, "small")));
  }

  renderRanking() {
    const g = this.game;
    const section = document.getElementById("ranking-section");
    const outcome = g.outcome;
    if (!outcome || g.status !== "finished") {
      section.hidden = true;
      return;
    }
    section.hidden = false;
    const order = g.seats.map((s) => s.index).sort((a, b) => outcome.places[a] - outcome.places[b]);
    const rows = order.map((seat) => {
      let detail;
      if (g.kind === "scat") {
        const tokens = (outcome.tokens || [])[seat] ?? 0;
        detail = format(ngettext("%(count)s token", "%(count)s tokens", tokens), { count: tokens });
      } else {
        const score = (outcome.scores || [])[seat] ?? 0;
        detail = format(ngettext("%(count)s point", "%(count)s points", score), { count: score });
      }
      return h("li", { class: outcome.places[seat] === 1 ? "winner" : "" },
        h("span", { class: "place" }, format(pgettext("ranking", "%(place)s."), { place: outcome.places[seat] })), " ",
        h("strong", {}, this.nameOf(seat)), seat === g.your_seat ? [" (", gettext("you"), ")"] : null, " — ", detail);
    });
    updateRegion(this.region.ranking, [
      h("p", {}, [reasonText(outcome.reason, this.ctx, outcome), winnersText(outcome.winners, this.ctx)].filter(Boolean).join(" ")),
      h("ul", { class: "ranking" }, rows),
      h("p", {}, h("a", { href: `/games/new/?again=${encodeURIComponent(g.id)}` }, gettext("Play again")), " · ", h("a", { href: "/games/" }, gettext("Back to the lobby"))),
    ]);
  }
}

export function countdownText(seconds) {
  const days = Math.floor(seconds / 86400);
  const rest = seconds % 86400;
  const hh = String(Math.floor(rest / 3600)).padStart(2, "0");
  const mm = String(Math.floor((rest % 3600) / 60)).padStart(2, "0");
  const ss = String(rest % 60).padStart(2, "0");
  const clock = digits(`${hh}:${mm}:${ss}`);
  if (!days) return clock;
  return `${format(ngettext("%(count)s day", "%(count)s days", days), { count: days })} ${clock}`;
}

// The waiting room is rendered by the server; here it only watches (on the game's stream, or by
// polling when the stream cannot be opened) for players joining or the start, and reloads to show
// the change (unless a one-time invitation link is on screen).
function watchWaitingRoom(root, game) {
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

function main() {
  const root = document.getElementById("table");
  const data = document.getElementById("game-data");
  if (!root || !data) return;
  setSprite(root.dataset.sprite);
  const game = JSON.parse(data.textContent);
  if (game.status === "open") {
    watchWaitingRoom(root, game);
    return;
  }
  if (game.status === "aborted") return;
  new Table(root, game).start();
}

main();
