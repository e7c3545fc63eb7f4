// The advisor on the card table (games with advice on, which are never rated): on the player's
// turn, each legal action with its chance of losing a life (Scat) or the points to expect
// (Scattle), the advisor's choice first, and one sentence about it. The figures come from the
// cards this player has seen, as GET /api/v1/games/{id}/advice/ computes them.
import { cardLabel, cardLabels } from "./cards.js";
import { h, updateRegion } from "./dom.js";
import { format, gettext, ngettext, number } from "./i18n.js";

const ACTIONS = {
  draw_stock: () => gettext("Drawing from the stock"),
  draw_discard: () => gettext("Taking the discard"),
  knock: () => gettext("Knocking now"),
  stand: () => gettext("Standing"),
  throw_down: () => gettext("Throwing down"),
  scattle: () => gettext("Calling Scattle!"),
};

export function actionText(action) {
  if (ACTIONS[action.type]) return ACTIONS[action.type]();
  if (action.type === "discard") return format(gettext("Discarding %(card)s"), { card: cardLabel(action.card) });
  if (action.type === "meld") return format(gettext("Melding %(cards)s"), { cards: cardLabels(action.cards) });
  if (action.type === "lay_off") {
    return format(gettext("Laying %(card)s off on meld %(meld)s"), { card: cardLabel(action.card), meld: action.meld + 1 });
  }
  return action.type;
}

function percent(chance) {
  return number(chance, { style: "percent", maximumFractionDigits: 0 });
}

function points(value) {
  return number(value, { maximumFractionDigits: 1 });
}

export function figureText(advice, entry) {
  if (advice.measure === "loss_chance") {
    return format(gettext("you lose a life about %(percent)s of the time"), { percent: percent(entry.loss_chance) });
  }
  return format(gettext("about %(points)s points to expect"), { points: points(entry.expected_points) });
}

export function hintText(advice) {
  const best = advice.actions[advice.best];
  return format(gettext("%(action)s: %(figure)s."), { action: actionText(best.action), figure: figureText(advice, best) });
}

export function renderAdvice(region, advice) {
  if (!region) return;
  if (!advice) {
    updateRegion(region, []);
    return;
  }
  const value = (entry) => (advice.measure === "loss_chance" ? entry.loss_chance : -entry.expected_points);
  const ordered = advice.actions.map((entry, index) => ({ entry, index })).sort((a, b) => value(a.entry) - value(b.entry));
  const items = ordered.map(({ entry, index }) => h("li", { class: index === advice.best ? "best" : "" },
    format(gettext("%(action)s: %(figure)s"), { action: actionText(entry.action), figure: figureText(advice, entry) })));
  updateRegion(region, [
    h("h3", {}, gettext("Advice")),
    h("p", { class: "hint" }, hintText(advice)),
    h("ul", { class: "advice-list" }, items),
    h("p", { class: "help" }, format(gettext("From the cards you have seen, over %(samples)s deals of the others."),
      { samples: advice.samples })),
  ]);
}

function costText(review, turn) {
  if (turn.cost <= 0) return gettext("the best choice");
  if (review.measure === "loss_chance") {
    return format(gettext("%(percent)s more chance of losing a life"), { percent: percent(turn.cost) });
  }
  return format(gettext("about %(points)s points less"), { points: points(turn.cost) });
}

export function renderReview(region, review) {
  if (!region) return;
  region.closest("section").hidden = false;
  if (review.status !== "ready") {
    updateRegion(region, h("p", { class: "help" }, gettext("The review of your turns is being prepared…")));
    return;
  }
  if (!review.turns.length) {
    updateRegion(region, h("p", { class: "help" }, gettext("You had no choices to review in this game.")));
    return;
  }
  const costly = review.turns.filter((t) => t.costly).length;
  const items = review.turns.map((turn) => {
    const same = JSON.stringify(turn.best) === JSON.stringify(turn.taken);
    const text = same
      ? format(gettext("Move %(seq)s: %(taken)s, the advisor's choice too."), { seq: turn.seq, taken: actionText(turn.taken) })
      : format(gettext("Move %(seq)s: %(taken)s; the advisor: %(best)s (%(cost)s)."),
        { seq: turn.seq, taken: actionText(turn.taken), best: actionText(turn.best), cost: costText(review, turn) });
    // Each line opens the replay at that turn (table_history.js).
    const open = h("button", { type: "button", class: "link replay-at", dataset: { replayAt: String(turn.seq) },
      "aria-label": format(gettext("Show move %(seq)s in the replay"), { seq: turn.seq }) }, gettext("Replay"));
    return h("li", { class: turn.costly ? "costly" : "" }, turn.costly ? h("strong", {}, text) : text, " ", open);
  });
  const note = costly ? format(ngettext("Your costliest turn is in bold, judged from what you knew then.",
    "Your %(count)s costliest turns are in bold, judged from what you knew then.", costly), { count: costly }) : null;
  updateRegion(region, [note && h("p", { class: "help" }, note), h("ol", { class: "review-list" }, items)]);
}
