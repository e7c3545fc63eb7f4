// Card codes ("QS", "TH") to spoken names, printed labels and self-made faces.
import { digits, format, pgettext } from "./i18n.js";
import { h, svg } from "./dom.js";

const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 }; // black, red, black, red: neighbours differ in colour
const RANK_ORDER = "A23456789TJQK";
const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };

let spriteUrl = "";

export function setSprite(url) {
  spriteUrl = url;
}

function rankName(rank) {
  // Context: the rank as it stands inside a card's name (some languages inflect it there).
  switch (rank) {
    case "A": return pgettext("rank in a card name", "ace");
    case "J": return pgettext("rank in a card name", "jack");
    case "Q": return pgettext("rank in a card name", "queen");
    case "K": return pgettext("rank in a card name", "king");
    case "T": return pgettext("rank in a card name", "10");
    case "2": return pgettext("rank in a card name", "2");
    case "3": return pgettext("rank in a card name", "3");
    case "4": return pgettext("rank in a card name", "4");
    case "5": return pgettext("rank in a card name", "5");
    case "6": return pgettext("rank in a card name", "6");
    case "7": return pgettext("rank in a card name", "7");
    case "8": return pgettext("rank in a card name", "8");
    case "9": return pgettext("rank in a card name", "9");
    default: return rank;
  }
}

function suitName(suit) {
  switch (suit) {
    case "S": return pgettext("suit in a card name", "spades");
    case "H": return pgettext("suit in a card name", "hearts");
    case "D": return pgettext("suit in a card name", "diamonds");
    case "C": return pgettext("suit in a card name", "clubs");
    default: return suit;
  }
}

// "queen of spades", "10 of hearts", "ace of diamonds".
export function cardName(code) {
  return format(pgettext("card name", "%(rank)s of %(suit)s"), { rank: rankName(code[0]), suit: suitName(code[1]) });
}

export function rankLabel(code) {
  return code[0] === "T" ? "10" : code[0];
}

// "Q♠", "10♥" ("۱۰♥" in Persian text; the printed faces keep their indices, as a real deck's do).
export function cardLabel(code) {
  return digits(rankLabel(code)) + SUIT_SYMBOLS[code[1]];
}

export function cardLabels(codes) {
  return codes.map(cardLabel).join(" ");
}

export function isRed(code) {
  return code[1] === "H" || code[1] === "D";
}

function suitIcon(suit, className) {
  return svg("svg", { class: className, "aria-hidden": "true", focusable: "false" },
    svg("use", { href: `${spriteUrl}#suit-${suit}` }));
}

// The printed face; it carries no name of its own (`aria-hidden`): the element around it does.
export function cardFace(code, size = "") {
  return h("span", { class: `face ${isRed(code) ? "red" : "black"} ${size}`.trim(), "aria-hidden": "true" },
    h("span", { class: "corner" }, h("span", { class: "rank" }, rankLabel(code)), suitIcon(code[1], "suit")),
    suitIcon(code[1], "pip"));
}

// A face that names itself, for cards that are not controls.
export function namedCard(code, label, size = "") {
  return h("span", { class: "card-img", role: "img", "aria-label": label ?? cardName(code) }, cardFace(code, size));
}

export function cardBack(size = "") {
  return h("span", { class: `face back ${size}`.trim(), "aria-hidden": "true" });
}

export function sortCards(cards, aceHigh) {
  const rank = (code) => {
    const index = RANK_ORDER.indexOf(code[0]);
    return aceHigh && code[0] === "A" ? 13 : index;
  };
  return [...cards].sort((a, b) => SUIT_ORDER[a[1]] - SUIT_ORDER[b[1]] || rank(a) - rank(b));
}
