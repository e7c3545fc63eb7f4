// The engine's events in words: "Bob knocked", "You drew the queen of spades from the stock".
// Every sentence has a "you" form and a third-person form, because many languages inflect
// the verb by person and a name cannot simply replace "you".
import { cardLabels, cardName } from "./cards.js";
import { format, gettext, listOf, ngettext, number } from "./i18n.js";

// ctx: { viewer: seat index or null, nameOf(seat) -> display name }
export function describeEvent(event, ctx) {
  const you = event.seat !== undefined && event.seat !== null && event.seat === ctx.viewer;
  const name = event.seat !== undefined && event.seat !== null ? ctx.nameOf(event.seat) : "";
  const card = event.card ? cardName(event.card) : "";
  switch (event.type) {
    case "deal":
      return describeDeal(event, ctx);
    case "draw_stock":
      if (you && event.card) return format(gettext("You drew the %(card)s from the stock."), { card });
      if (you) return gettext("You drew from the stock.");
      return format(gettext("%(name)s drew from the stock."), { name });
    case "draw_discard":
      if (you) return format(gettext("You took the %(card)s from the discard pile."), { card });
      return format(gettext("%(name)s took the %(card)s from the discard pile."), { name, card });
    case "discard":
      if (you) return format(gettext("You discarded the %(card)s."), { card });
      return format(gettext("%(name)s discarded the %(card)s."), { name, card });
    case "knock":
      return you ? gettext("You knocked.") : format(gettext("%(name)s knocked."), { name });
    case "stand":
      return you ? gettext("You stood.") : format(gettext("%(name)s stood."), { name });
    case "throw_down":
      return you ? gettext("You threw down.") : format(gettext("%(name)s threw down."), { name });
    case "stock_rebuilt": {
      const count = event.cards ?? event.count ?? 0;
      return format(ngettext("The discard pile became the new stock (%(count)s card).",
        "The discard pile became the new stock (%(count)s cards).", count), { count });
    }
    case "thirty_one":
      if (event.on_deal) {
        return you ? gettext("You were dealt 31!") : format(gettext("%(name)s was dealt 31!"), { name });
      }
      return you ? gettext("You have 31!") : format(gettext("%(name)s has 31!"), { name });
    case "showdown":
      return describeShowdown(event, ctx);
    case "life_lost":
      return describeLifeLost(event, you, name);
    case "eliminated":
      if (event.reason === "resignation") return null; // the "resigned" event has said it
      return you ? gettext("You are out of the game.") : format(gettext("%(name)s is out of the game."), { name });
    case "hand_void":
      if (event.reason === "stock_exhausted") return gettext("The stock ran out: the hand is void and nobody loses.");
      return gettext("Everyone would be out: the hand is played again.");
    case "resigned":
      return you ? gettext("You resigned.") : format(gettext("%(name)s resigned."), { name });
    case "idle_rounds":
      return format(ngettext("%(rounds)s full round without a meld.", "%(rounds)s full rounds without a meld.",
        event.rounds), { rounds: event.rounds });
    case "meld": {
      const values = { name, cards: cardLabels(event.cards), points: event.points, score: event.score };
      if (you) {
        return format(ngettext("You melded %(cards)s for %(points)s point (score %(score)s).",
          "You melded %(cards)s for %(points)s points (score %(score)s).", event.points), values);
      }
      return format(ngettext("%(name)s melded %(cards)s for %(points)s point (score %(score)s).",
        "%(name)s melded %(cards)s for %(points)s points (score %(score)s).", event.points), values);
    }
    case "lay_off": {
      const values = { name, card, meld: event.meld + 1, gained: event.gained, score: event.score };
      if (you) return format(gettext("You laid the %(card)s off on meld %(meld)s (+%(gained)s, score %(score)s)."), values);
      return format(gettext("%(name)s laid the %(card)s off on meld %(meld)s (+%(gained)s, score %(score)s)."), values);
    }
    case "scattle":
      return you ? gettext("You called Scattle!") : format(gettext("%(name)s called Scattle!"), { name });
    case "refill": {
      const count = event.count ?? (event.cards ? event.cards.length : 0);
      if (you && event.cards) {
        return format(gettext("You refilled your hand with %(cards)s."), { cards: event.cards.map(cardName).join(", ") });
      }
      return format(ngettext("%(name)s drew %(count)s card to refill the hand.",
        "%(name)s drew %(count)s cards to refill the hand.", count), { name, count });
    }
    case "game_over":
      return describeGameOver(event, ctx);
    default:
      return null;
  }
}

function describeDeal(event, ctx) {
  const upCard = event.up_card ? cardName(event.up_card) : "";
  if (event.hand_no !== undefined) {
    const values = { hand: event.hand_no, dealer: ctx.nameOf(event.dealer), card: upCard };
    if (event.dealer === ctx.viewer) return format(gettext("Hand %(hand)s: you dealt; the %(card)s is turned up."), values);
    return format(gettext("Hand %(hand)s: %(dealer)s dealt; the %(card)s is turned up."), values);
  }
  const values = { name: ctx.nameOf(event.first_player), card: upCard };
  if (event.first_player === ctx.viewer) return format(gettext("The cards are dealt; you play first. The %(card)s is turned up."), values);
  return format(gettext("The cards are dealt; %(name)s plays first. The %(card)s is turned up."), values);
}

function describeShowdown(event, ctx) {
  const parts = [];
  (event.values || []).forEach((value, seat) => {
    if (value === null || value === undefined) return;
    parts.push(format(gettext("%(name)s %(value)s"), { name: ctx.nameOf(seat), value: formatValue(value) }));
  });
  const list = listOf(parts);
  if (event.thrown_down) return format(gettext("Throw-down showdown: %(list)s."), { list });
  if (event.reason === "round_limit") return format(gettext("Nobody knocked within the round limit. Showdown: %(list)s."), { list });
  return format(gettext("Showdown: %(list)s."), { list });
}

function describeLifeLost(event, you, name) {
  const values = { name, lives: event.lives, tokens: event.tokens };
  let text;
  if (you) {
    text = format(ngettext("You lost %(lives)s life (%(tokens)s left).", "You lost %(lives)s lives (%(tokens)s left).",
      event.lives), values);
  } else {
    text = format(ngettext("%(name)s lost %(lives)s life (%(tokens)s left).",
      "%(name)s lost %(lives)s lives (%(tokens)s left).", event.lives), values);
  }
  if (event.on_the_county) {
    text += " " + (you ? gettext("You are on the county.") : format(gettext("%(name)s is on the county."), { name }));
  }
  return text;
}

export function reasonText(reason, ctx, outcome) {
  switch (reason) {
    case "last_player": return gettext("Only one player is left.");
    case "hand_limit": return gettext("The last hand of the game has been played: places go by tokens left.");
    case "resignation": {
      // Said to the winner, the one who resigned, and spectators alike: name who did not resign.
      const winner = outcome && outcome.winners && outcome.winners.length === 1 ? outcome.winners[0] : null;
      if (winner === null || winner === ctx.viewer) return gettext("Everyone else resigned.");
      return format(gettext("Everyone but %(name)s resigned."), { name: ctx.nameOf(winner) });
    }
    case "scattle": return gettext("Scattle! was called: the game ends.");
    case "target": {
      const winner = outcome && outcome.winners && outcome.winners.length ? outcome.winners[0] : null;
      if (winner === null) return gettext("A player reached the target score.");
      if (winner === ctx.viewer) return gettext("You reached the target score.");
      return format(gettext("%(name)s reached the target score."), { name: ctx.nameOf(winner) });
    }
    case "exhaustion": return gettext("The stock ran out and cannot be rebuilt: the game ends.");
    case "stalemate": return gettext("Nobody has melded for too long: the game ends.");
    default: return "";
  }
}

export function winnersText(winners, ctx) {
  if (!winners || !winners.length) return "";
  if (winners.length === 1) {
    if (winners[0] === ctx.viewer) return gettext("You win!");
    return format(gettext("%(name)s wins."), { name: ctx.nameOf(winners[0]) });
  }
  const names = listOf(winners.map((seat) => (seat === ctx.viewer ? gettext("you") : ctx.nameOf(seat))));
  return format(gettext("%(names)s share first place."), { names });
}

function describeGameOver(event, ctx) {
  return [gettext("Game over."), reasonText(event.reason, ctx, event), winnersText(event.winners, ctx)]
    .filter(Boolean).join(" ");
}

export function formatValue(value) {
  if (value === 30.5) return `${number(30)}½`;
  return number(value);
}

// One history entry (a move with its events) as sentences.
export function describeMove(move, ctx) {
  const sentences = [];
  if (move.by_server === "timeout") {
    const you = move.seat === ctx.viewer;
    sentences.push(you ? gettext("Your time ran out; the server played for you.")
      : format(gettext("Time ran out for %(name)s; the server played."), { name: ctx.nameOf(move.seat) }));
  }
  if (move.by_server === "standing_order") {
    sentences.push(move.seat === ctx.viewer ? gettext("Your standing orders played this move.")
      : format(gettext("%(name)s's standing orders played this move."), { name: ctx.nameOf(move.seat) }));
  }
  for (const event of move.events || []) {
    const text = describeEvent(event, ctx);
    if (text) sentences.push(text);
  }
  return sentences;
}
