// The card table's board: the status line and clock, the players' seats and the piles.
import { cardBack, cardFace, cardName, namedCard } from "./cards.js";
import { h, updateRegion } from "./dom.js";
import { formatValue } from "./events.js";
import { digits, format, formatDate, formatDateTime, gettext, listOf, ngettext, number } from "./i18n.js";

// Lent to the Table (table_core.js).
export const boardRendering = {
  turnSentence() {
    const g = this.game;
    if (g.status !== "active" || g.to_act === null) return "";
    if (g.is_your_turn) return gettext("It is your turn.");
    return format(gettext("Waiting for %(name)s."), { name: this.nameOf(g.to_act) });
  },

  phaseHint() {
    const phase = this.state.phase;
    if (this.game.kind === "scat") {
      if (phase === "must_discard") return gettext("Discard a card.");
      return this.game.legal_actions.some((a) => a.type === "knock")
        ? gettext("Draw a card, or knock.") : gettext("Draw a card.");
    }
    if (phase === "play") return gettext("Meld if you can, then discard a card to end your turn.");
    return gettext("Draw a card.");
  },

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
        const awayUntil = (this.seat(g.to_act) || {}).on_vacation_until;
        lines.push(h("p", { class: "clock help" }, awayUntil
          ? format(gettext("The clock is stopped: %(name)s is on vacation until %(date)s."),
            { name: this.nameOf(g.to_act), date: formatDate(awayUntil, this.timeZone) })
          : gettext("The clock is stopped while the player is away.")));
      }
    } else if (g.status === "finished") {
      lines.push(h("p", { class: "turn" }, h("strong", {}, gettext("The game is over."))));
      if (g.kind === "scat") {
        // The seats now count tokens, not lives: say why, where the change shows.
        lines.push(h("p", { class: "help kitty-note" }, gettext(
          "Each life lost paid a token into the kitty; the winner takes the kitty, so the seats and the ranking now count tokens.")));
      }
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
    // No deadline to put in a calendar while the clock is stopped.
    const calendarLink = document.getElementById("deadline-calendar");
    if (calendarLink) calendarLink.hidden = g.status !== "active" || !g.deadline;
  },

  localTime(iso) {
    return formatDateTime(iso, this.timeZone);
  },

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
      const away = seat.on_vacation_until && g.status === "active"
        ? h("p", { class: "away" }, format(gettext("on vacation until %(date)s"),
          { date: formatDate(seat.on_vacation_until, this.timeZone) }))
        : null;
      const parts = [
        h("div", { class: "seat-head" }, h("span", { class: "name" }, this.nameOf(seat.index)),
          badges.map((text) => h("span", { class: "tag" }, text))),
        h("div", { class: "held", role: "img",
          "aria-label": format(ngettext("%(count)s card in hand", "%(count)s cards in hand", held), { count: held }) },
        Array.from({ length: Math.min(held, 8) }, () => cardBack("tiny")),
        h("span", { class: "count", "aria-hidden": "true" }, number(held))),
        away,
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
  },

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
  },

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
  },
};

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
