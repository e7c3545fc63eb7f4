// The card table's moves: the action buttons, sending a move or a resignation, and recovering from a refusal.
import { getJson, newIdempotencyKey, postJson } from "./api.js";
import { cardLabel, cardLabels, cardName } from "./cards.js";
import { announce, h, updateRegion } from "./dom.js";
import { describeMove } from "./events.js";
import { format, gettext, language } from "./i18n.js";

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

// Lent to the Table (table_core.js).
export const sendingMoves = {
  async act(action) {
    if (this.busy || !this.game.is_your_turn) return;
    this.setBusy(true);
    this.showError("");
    try {
      const result = await postJson(this.root.dataset.movesUrl, { action, version: this.game.version },
        { idempotencyKey: newIdempotencyKey() });
      if (action.type === "meld" || action.type === "discard") this.selected = [];
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
  },

  // Resigning asks first, in the action bar: "Resign" opens the question, its answer resigns or goes back.
  async resign(step = "") {
    if (this.busy) return;
    if (step !== "confirm") {
      this.confirmingResign = step === "";
      this.renderActions();
      const target = this.region.actions.querySelector(this.confirmingResign ? '[data-resign="cancel"]' : "[data-resign]");
      if (target) target.focus();
      return;
    }
    this.confirmingResign = false;
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
  },

  async recover(error) {
    if (error.status === 409 || error.status === 403 || error.code === "network") {
      try {
        await this.update(await getJson(this.root.dataset.gameUrl));
      } catch {
        // Still offline: the next poll tries again.
      }
    }
    this.showError(errorText(error));
  },

  setBusy(busy) {
    this.busy = busy;
    this.root.setAttribute("aria-busy", busy ? "true" : "false");
  },

  // After a move the pressed button may be gone; put the focus where the next move starts.
  restoreFocus() {
    const focused = document.activeElement;
    if (focused && focused !== document.body && this.root.contains(focused)) return;
    const target = this.game.is_your_turn
      ? this.region.actions.querySelector("button:not([data-resign])") || this.region.hand.querySelector("button.discard")
        || this.region.hand.querySelector("button")
      : null;
    (target || this.region.status).focus();
  },

  showError(text) {
    this.region.error.textContent = text;
  },

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
    const discard = g.is_your_turn ? this.selectedDiscard() : null;
    if (discard) {
      // A tapped card is discarded from the action bar, first among the buttons.
      buttons.unshift(h("button", { type: "button", class: "action discard-selected",
        "aria-label": format(gettext("Discard the selected card, %(card)s"), { card: cardName(discard.card) }),
        dataset: { key: "discard-selected", action: JSON.stringify(discard) } },
      format(gettext("Discard %(card)s"), { card: cardLabel(discard.card) })));
    }
    const me = g.your_seat === null ? null : this.seat(g.your_seat);
    const stillIn = me && !(me.public || {}).eliminated && (me.public || {}).in_game !== false;
    if (g.status === "active" && stillIn && this.confirmingResign) {
      extra.unshift(h("div", { class: "resign-question", role: "group", "aria-labelledby": "resign-question" },
        h("p", { id: "resign-question" }, gettext("Resign this game? This cannot be undone.")),
        h("button", { type: "button", class: "danger", dataset: { key: "resign-confirm", resign: "confirm" } },
          gettext("Yes, resign")),
        h("button", { type: "button", class: "secondary", dataset: { key: "resign-cancel", resign: "cancel" } },
          gettext("Keep playing"))));
    } else if (g.status === "active" && stillIn) {
      buttons.push(h("button", { type: "button", class: "danger resign", dataset: { key: "resign", resign: "" } },
        gettext("Resign")));
    }
    updateRegion(this.region.actions, [h("div", { class: "buttons" }, buttons), extra]);
  },
};
