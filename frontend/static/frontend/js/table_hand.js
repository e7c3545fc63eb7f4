// The card table's hand: the player's cards, the card just drawn, and Scattle's selection of a meld.
import { cardFace, cardName, sortCards } from "./cards.js";
import { h, updateRegion } from "./dom.js";
import { format, gettext } from "./i18n.js";

// Lent to the Table (table_core.js).
export const handAndSelection = {
  // Scattle selects the cards of a meld; elsewhere a tap selects the one card to discard.
  toggle(key) {
    const at = this.selected.indexOf(key);
    if (at >= 0) this.selected.splice(at, 1);
    else if (this.game.kind === "scattle") this.selected.push(key);
    else this.selected = [key];
    this.renderHand();
    this.renderActions();
  },

  clearSelection() {
    this.selected = [];
    this.renderHand();
    this.renderActions();
  },

  pruneSelection() {
    const keys = new Set(this.handEntries().map((entry) => entry.key));
    this.selected = this.selected.filter((key) => keys.has(key));
  },

  selectedCards() {
    return this.selected.map((key) => key.split("#")[0]);
  },

  // The discard of the one card selected, when the rules allow it now.
  selectedDiscard() {
    const cards = this.selectedCards();
    if (cards.length !== 1) return null;
    return this.game.legal_actions.find((a) => a.type === "discard" && a.card === cards[0]) || null;
  },

  legalMeld(cards) {
    const wanted = [...cards].sort().join(",");
    return this.game.legal_actions.find((a) => a.type === "meld" && [...a.cards].sort().join(",") === wanted) || null;
  },

  meldSelected() {
    const cards = this.selectedCards();
    const meld = this.legalMeld(cards);
    if (!meld) {
      this.showError(cards.length < 3 ? gettext("Select at least three cards that form a group or a run, then press Meld.")
        : gettext("The selected cards do not form a meld you may lay."));
      return;
    }
    this.act({ type: "meld", cards: meld.cards });
  },

  // The hand in display order, each card with a key that tells twin cards (two decks) apart.
  handEntries() {
    const hand = this.game.hand || [];
    const seen = {};
    return sortCards(hand, this.game.kind === "scat").map((code) => {
      const copy = seen[code] ?? 0;
      seen[code] = copy + 1;
      return { code, copy, key: `${code}#${copy}` };
    });
  },

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
  },

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
    const toggles = g.is_your_turn && ((g.kind === "scattle" && this.state.phase === "play") || discardable.size > 0);
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
  },
};
