// The card table's results: the hands shown down at the end of a hand and the final ranking.
import { getJson } from "./api.js";
import { cardFace, cardName } from "./cards.js";
import { h, updateRegion } from "./dom.js";
import { formatValue, reasonText, winnersText } from "./events.js";
import { format, gettext, listOf, ngettext, number, pgettext } from "./i18n.js";

// Lent to the Table (table_core.js).
export const gameResults = {
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
  },

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
  },

  cardsCell(hand) {
    if (!hand.length) return gettext("none");
    return h("span", { class: "card-img row", role: "img", "aria-label": listOf(hand.map(cardName)) },
      hand.map((code) => cardFace(code, "small")));
  },

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
        h("strong", {}, this.nameOf(seat)), seat === g.your_seat ? [" (", gettext("you"), ")"] : null, " — ", detail,
        this.ratingChangeText(seat));
    });
    // A tournament pairs its own rounds: its games lead back to it, not to a game like this one.
    const tournamentUrl = this.root.dataset.tournamentUrl;
    const onwards = tournamentUrl
      ? [h("a", { href: tournamentUrl }, gettext("Back to the tournament"))]
      : [h("a", { href: `/games/new/?again=${encodeURIComponent(g.id)}` }, gettext("Play again")), " · ",
        h("a", { href: "/games/" }, gettext("Back to the lobby"))];
    updateRegion(this.region.ranking, [
      h("p", {}, [reasonText(outcome.reason, this.ctx, outcome), winnersText(outcome.winners, this.ctx)].filter(Boolean).join(" ")),
      h("ul", { class: "ranking" }, rows),
      h("p", { class: "onwards" }, onwards),
    ]);
    this.loadRatingChanges();
  },

  // A rated game's ratings before and after, asked for once the game is over.
  loadRatingChanges() {
    if (!this.game.rated || this.ratingChanges || this.ratingChangesAsked) return;
    this.ratingChangesAsked = true;
    getJson(this.root.dataset.ratingsUrl).then((body) => {
      this.ratingChanges = new Map(body.changes.map((change) => [change.seat, change]));
      if (this.ratingChanges.size) this.renderRanking();
    }).catch(() => {
      this.ratingChangesAsked = false; // offline: asked again at the next redraw
    });
  },

  ratingChangeText(seat) {
    const change = this.ratingChanges && this.ratingChanges.get(seat);
    if (!change) return null;
    const shown = (rating) => (rating.shown === null ? "?" : number(rating.shown));
    const { before, after } = change;
    let text = format(gettext("rating %(before)s → %(after)s"), { before: shown(before), after: shown(after) });
    if (before.shown !== null && after.shown !== null) {
      const delta = after.shown - before.shown;
      text += ` (${delta > 0 ? "+" : delta < 0 ? "−" : "±"}${number(Math.abs(delta))})`;
    }
    return h("span", { class: "rating-change" }, " · ", text);
  },
};
