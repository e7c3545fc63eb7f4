// "Next game": once it is no longer the player's turn at this table (they moved, or opened a game that
// waits for someone else), the table offers the most urgent other game where it is their turn (GET
// /api/v1/me/games/?to_act=me: the earliest deadline first), says how many are waiting, and opens it
// with the key N (announced beside the link; never taken from a field being typed in). The offer
// follows this table (table_core.js sends "table:rendered") and the player's other games (live.js
// passes the player's stream's game summaries on as "player:game").
import { getJson } from "./api.js";
import { h, updateRegion } from "./dom.js";
import { format, gettext, language, listOf, ngettext } from "./i18n.js";

const MY_GAMES_URL = "/api/v1/me/games/?to_act=me";
const SHORTCUT = "n";
const REFRESH_DELAY_MS = 250; // a move brings several renders and summaries: one request for them all

const KIND_NAMES = { scat: () => gettext("Scat"), scattle: () => gettext("Scattle") };
const BOT_NAMES = {
  random: () => gettext("Computer (random)"),
  good: () => gettext("Computer (good)"),
  expert: () => gettext("Computer (expert)"),
};

function playerName(name) {
  const bot = /^bot \((\w+)\)$/.exec(name || "");
  if (bot) return (BOT_NAMES[bot[1]] || BOT_NAMES.random)();
  return name || gettext("open seat");
}

// "in 3 hours", "2 saat sonra", "۲ روز بعد": the language's own words for the time left.
function timeLeft(seconds) {
  const lang = language().split("-")[0];
  const units = [["day", 86400], ["hour", 3600], ["minute", 60]];
  const [unit, size] = units.find(([, length]) => seconds >= length) || units[units.length - 1];
  const options = { numeric: "always", ...(lang === "fa" ? { numberingSystem: "arabext" } : {}) };
  return new Intl.RelativeTimeFormat(lang, options).format(Math.max(1, Math.round(seconds / size)), unit);
}

function isTyping(target) {
  if (!(target instanceof Element)) return false;
  return Boolean(target.closest("input, textarea, select, [contenteditable=''], [contenteditable='true']"));
}

class NextGame {
  constructor(region, gameId, me) {
    this.region = region;
    this.gameId = gameId;
    this.me = me;
    this.offered = null; // the game the link opens
    this.shown = ""; // what the offer was made for, so that a render without news asks nothing
    this.timer = null;
    this.waiting = false;
  }

  start() {
    const root = document.getElementById("table");
    root.addEventListener("table:rendered", (event) => this.onTable(event.detail));
    document.addEventListener("player:game", (event) => {
      if (event.detail.game !== this.gameId && this.waiting) this.refreshSoon();
    });
    document.addEventListener("keydown", (event) => this.onKey(event));
  }

  onTable(game) {
    this.waiting = game.your_seat !== null && game.your_seat !== undefined && !game.is_your_turn;
    const shown = `${game.status}:${game.version}:${this.waiting}`;
    if (shown === this.shown) return;
    this.shown = shown;
    if (this.waiting) this.refreshSoon();
    else this.hide();
  }

  refreshSoon() {
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => this.refresh(), REFRESH_DELAY_MS);
  }

  async refresh() {
    let page;
    try {
      page = await getJson(MY_GAMES_URL);
    } catch {
      return; // the next change asks again
    }
    if (!this.waiting) return;
    const others = page.results.filter((game) => game.id !== this.gameId);
    const waiting = page.count - (page.results.length - others.length);
    this.show(others[0] || null, waiting);
  }

  hide() {
    this.offered = null;
    updateRegion(this.region, []);
  }

  show(next, waiting) {
    this.offered = next;
    if (!next) {
      updateRegion(this.region, h("p", { class: "help" }, gettext("No other game is waiting for your move.")));
      return;
    }
    const company = next.players.filter((name) => name !== this.me).map(playerName);
    const kind = (KIND_NAMES[next.kind] || (() => next.kind))();
    const label = format(gettext("Next game: %(game)s with %(players)s"), { game: kind, players: listOf(company) });
    const facts = [format(ngettext("%(count)s game is waiting for your move.", "%(count)s games are waiting for your move.",
      waiting), { count: waiting })];
    if (next.seconds_left !== null && next.seconds_left !== undefined) {
      facts.push(format(gettext("Deadline: %(when)s."), { when: timeLeft(next.seconds_left) }));
    }
    updateRegion(this.region, [
      h("a", { class: "button next-game-link", href: `/games/${next.id}/`, "aria-keyshortcuts": SHORTCUT,
        dataset: { key: "next-game" } }, label),
      h("p", { class: "help" }, facts.join(" "), " ",
        h("span", { class: "shortcut" }, gettext("Shortcut:"), " ", h("kbd", {}, "N"))),
    ]);
  }

  onKey(event) {
    if (!this.offered || event.key.toLowerCase() !== SHORTCUT) return;
    if (event.ctrlKey || event.metaKey || event.altKey || event.repeat || event.defaultPrevented) return;
    if (isTyping(event.target)) return;
    event.preventDefault();
    window.location.assign(`/games/${this.offered.id}/`);
  }
}

// The table's offer, for a seated player (the server renders the region only for them).
export function offerNextGame(root, game) {
  const region = document.getElementById("next-game");
  if (!region || game.your_seat === null || game.your_seat === undefined) return;
  const me = (game.seats.find((seat) => seat.index === game.your_seat) || {}).username;
  new NextGame(region, game.id, me).start();
}
