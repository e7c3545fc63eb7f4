// The replay: the table as this viewer could see it after each move, rebuilt from the history's
// events (which the server has already stripped of what this viewer may not see).

export function initialBoard(game) {
  const n = game.num_seats;
  const state = game.state || {};
  const options = game.options || {};
  const board = {
    kind: game.kind,
    held: new Array(n).fill(game.kind === "scat" ? 3 : options.hand_size || 5),
    tokens: new Array(n).fill(options.initial_tokens ?? null),
    scores: new Array(n).fill(0),
    melds: Array.from({ length: n }, () => []),
    out: new Array(n).fill(false),
    hand: null,
    discard: null, // the whole pile, bottom first, once a deal has shown it
    stock: null,
  };
  // The opening events (version 0): the deal, and anything that happened before the first turn (a
  // hand that ended on a 31 and the next deal). The view's deal_events are the latest deal's.
  const opening = state.opening_events || [];
  const deal = opening.find((e) => e.type === "deal");
  if (deal && (deal.hand_no === undefined || deal.hand_no === 1)) {
    for (const event of opening) applyEvent(board, event, game.your_seat);
  }
  return board;
}

function removeCard(hand, card) {
  if (!hand) return;
  const index = hand.indexOf(card);
  if (index >= 0) hand.splice(index, 1);
}

export function applyEvent(board, event, viewer) {
  const seat = event.seat;
  const mine = seat !== undefined && seat === viewer;
  switch (event.type) {
    case "deal": {
      const hands = event.hands || [];
      board.hand = viewer !== null && hands[viewer] ? [...hands[viewer]] : null;
      board.held = [...(event.cards_held || event.hand_sizes || board.held)];
      board.discard = [event.up_card];
      board.stock = event.stock_count;
      break;
    }
    case "draw_stock":
      board.held[seat] += 1;
      if (board.stock !== null) board.stock -= 1;
      if (mine && board.hand && event.card) board.hand.push(event.card);
      break;
    case "draw_discard":
      board.held[seat] += 1;
      if (board.discard) board.discard = board.discard.slice(0, -1);
      if (mine && board.hand) board.hand.push(event.card);
      break;
    case "discard":
      board.held[seat] -= 1;
      board.discard = board.discard ? [...board.discard, event.card] : [null, event.card];
      if (mine) removeCard(board.hand, event.card);
      break;
    case "stock_rebuilt":
      board.stock = event.cards ?? event.count ?? board.stock;
      if (board.discard) board.discard = board.discard.slice(-1);
      break;
    case "meld":
      board.held[seat] -= event.cards.length;
      board.melds[seat] = [...board.melds[seat]];
      board.melds[seat][event.meld] = { kind: event.kind, cards: event.cards, points: event.points };
      board.scores[seat] = event.score;
      if (mine) event.cards.forEach((card) => removeCard(board.hand, card));
      break;
    case "lay_off":
      board.held[seat] -= 1;
      board.melds[seat] = [...board.melds[seat]];
      board.melds[seat][event.meld] = { ...board.melds[seat][event.meld], cards: event.cards, points: event.points };
      board.scores[seat] = event.score;
      if (mine) removeCard(board.hand, event.card);
      break;
    case "refill":
      board.held[seat] += event.count ?? 0;
      if (board.stock !== null) board.stock -= event.count ?? 0;
      if (mine && board.hand && event.cards) board.hand.push(...event.cards);
      break;
    case "life_lost":
      board.tokens[seat] = event.tokens;
      break;
    case "eliminated":
    case "resigned":
      board.out[seat] = true;
      if (event.type === "resigned") board.held[seat] = 0;
      break;
    case "game_over":
      if (event.tokens) board.tokens = [...event.tokens];
      if (event.scores) board.scores = [...event.scores];
      break;
    default:
      break;
  }
}

// Boards after 0, 1, ... moves.
export function boardsFor(game, moves) {
  const boards = [];
  let board = initialBoard(game);
  boards.push(clone(board));
  for (const move of moves) {
    board = clone(board);
    for (const event of move.events || []) applyEvent(board, event, game.your_seat);
    boards.push(board);
  }
  return boards;
}

function clone(board) {
  return {
    ...board,
    held: [...board.held],
    tokens: [...board.tokens],
    scores: [...board.scores],
    melds: board.melds.map((m) => [...m]),
    out: [...board.out],
    hand: board.hand ? [...board.hand] : null,
    discard: board.discard ? [...board.discard] : null,
  };
}
