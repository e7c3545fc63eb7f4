// Standing orders on the card table: the player's current orders in plain sentences, what they
// played, a Cancel button, ready-made sets in one click and a form for one's own. Everything goes
// through GET/PUT/DELETE /api/v1/games/{id}/orders/, as any client's would.
import { ApiError, getJson } from "../frontend/js/api.js";
import { cardLabel, cardLabels } from "../frontend/js/cards.js";
import { announce, h, updateRegion } from "../frontend/js/dom.js";
import { format, formatDateTime, gettext, ngettext, parseNumber, pgettext } from "../frontend/js/i18n.js";

const PLAYED_SHOWN = 10;

function csrfToken() {
  const meta = document.querySelector('meta[name="csrf-token"]');
  return meta ? meta.content : "";
}

async function send(url, method, body) {
  const response = await fetch(url, {
    method,
    credentials: "same-origin",
    headers: { Accept: "application/json", "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 204) return null;
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

// --- orders as sentences --------------------------------------------------------------------------

export function conditionText(name, value) {
  switch (name) {
    case "discard_is":
      return format(gettext("the discard is %(card)s"), { card: cardLabel(value) });
    case "discard_in":
      return format(gettext("the discard is one of %(cards)s"), { cards: cardLabels(value) });
    case "phase":
      return value === "turn_start" || value === "draw" ? gettext("my turn is starting") : gettext("I have drawn");
    case "discard_raises_to":
      return format(gettext("taking the discard gives a hand worth at least %(value)s"), { value });
    case "discard_makes_31":
      return value ? gettext("taking the discard makes 31") : gettext("taking the discard does not make 31");
    case "discard_completes_meld":
      return value ? gettext("the discard completes a meld") : gettext("the discard completes no meld");
    case "hand_at_least":
      return format(gettext("my hand is worth at least %(value)s"), { value });
    case "stock_at_least":
      return format(gettext("the stock holds at least %(count)s cards"), { count: value });
    case "someone_knocked":
      return value ? gettext("someone has knocked") : gettext("nobody has knocked");
    case "lives_at_least":
      return format(gettext("I have at least %(count)s lives"), { count: value });
    case "points_at_least":
      return format(gettext("I have at least %(count)s points"), { count: value });
    default:
      return name;
  }
}

export function orderActionText(action) {
  if (action.policy === "best_discard") return gettext("throw the card I need least");
  if (action.policy === "lay_all_melds") return gettext("lay every meld I hold");
  if (action.policy === "good") return gettext("play as the good computer player would");
  switch (action.type) {
    case "draw_stock":
      return gettext("draw from the stock");
    case "draw_discard":
      return gettext("take the discard");
    case "knock":
      return gettext("knock");
    case "stand":
      return gettext("stand");
    case "throw_down":
      return gettext("throw down");
    case "discard":
      return format(gettext("throw %(card)s"), { card: cardLabel(action.card) });
    case "meld":
      return format(gettext("meld %(cards)s"), { cards: cardLabels(action.cards) });
    case "lay_off":
      return format(gettext("lay %(card)s off on meld %(meld)s"), { card: cardLabel(action.card), meld: action.meld + 1 });
    default:
      return action.type || "";
  }
}

export function ruleText(rule) {
  const action = orderActionText(rule.do);
  const names = Object.keys(rule.when || {});
  if (!names.length) return format(gettext("Always: %(action)s."), { action });
  const conditions = names.map((name) => conditionText(name, rule.when[name]));
  const joined = conditions.join(pgettext("between conditions", " and "));
  return format(gettext("When %(conditions)s: %(action)s."), { conditions: joined, action });
}

function limitText(orders) {
  const limit = orders.limit || {};
  if (limit.turns) {
    return format(ngettext("For my next %(count)s turn.", "For my next %(count)s turns.", limit.turns), {
      count: limit.turns,
    });
  }
  if (limit.until) return format(gettext("Until %(time)s."), { time: formatDateTime(limit.until) });
  return gettext("Until I play a move myself.");
}

const ENDED = {
  limit: () => gettext("Ended: their limit was reached."),
  hand_move: () => gettext("Ended: you played a move yourself."),
  game_over: () => gettext("Ended: the game is over."),
};

// --- the panel ------------------------------------------------------------------------------------

class OrdersPanel {
  constructor(root) {
    this.root = root;
    this.url = root.dataset.ordersUrl;
    this.kind = root.dataset.kind;
    this.current = root.querySelector("#orders-current");
    this.error = root.querySelector("#orders-error");
    this.announcer = document.getElementById("announcer") || this.current;
    this.orders = null;
    this.current.addEventListener("click", (event) => {
      if (event.target.closest('[data-key="orders-cancel"]')) this.cancel();
    });
    root.querySelectorAll("[data-preset]").forEach((button) => {
      button.addEventListener("click", () => this.save({ preset: button.dataset.preset, limit: { until_i_move: true } }));
    });
    const form = root.querySelector("#orders-form");
    if (form) {
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        const body = this.fromForm(form);
        if (body) this.save(body);
      });
    }
    // The orders play as the table moves on: read them again when the history grows.
    const history = document.getElementById("history");
    if (history) {
      let timer = null;
      new MutationObserver(() => {
        window.clearTimeout(timer);
        // Only orders in force change as the table moves; with none, there is nothing to read again.
        if (this.orders?.active) timer = window.setTimeout(() => this.load(), 400);
      }).observe(history, { childList: true });
    }
    // The page says whether there are orders, so that a player without any asks for none (a 404).
    if (this.root.dataset.hasOrders) this.load();
    else this.show(null);
  }

  async load() {
    try {
      this.show(await getJson(this.url));
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) this.show(null);
    }
  }

  show(orders) {
    this.orders = orders;
    if (!orders) {
      updateRegion(this.current, [h("p", { class: "help" }, gettext("You have no standing orders in this game."))]);
      return;
    }
    const played = (orders.played || []).slice(-PLAYED_SHOWN); // the latest, oldest first
    const status = orders.active ? gettext("In force.") : (ENDED[orders.ended] || (() => ""))();
    updateRegion(this.current, [
      h("h3", {}, gettext("Your orders")),
      h("ol", { class: "orders-rules" }, ...orders.rules.map((rule) => h("li", {}, ruleText(rule)))),
      h("p", {}, `${limitText(orders)} ${status}`),
      h(
        "p",
        { class: "help" },
        format(ngettext("%(count)s turn played by order.", "%(count)s turns played by order.", orders.turns_played), {
          count: orders.turns_played,
        }),
      ),
      h("h4", {}, gettext("What they played")),
      played.length
        ? h(
            "ol",
            { class: "event-list orders-played" },
            ...played.map((entry) =>
              h("li", {}, format(gettext("Move %(version)s: %(action)s"), { version: entry.version, action: orderActionText(entry.action) })),
            ),
          )
        : h("p", { class: "help" }, gettext("Nothing yet.")),
      h("button", { type: "button", class: "danger", "data-key": "orders-cancel" }, gettext("Cancel the orders")),
    ]);
  }

  fromForm(form) {
    const data = new FormData(form);
    let rules;
    if (data.get("plan") === "good") {
      rules = [{ when: {}, do: { policy: "good" } }];
    } else if (this.kind === "scat") {
      const calm = data.get("last_turn") ? {} : { someone_knocked: false };
      rules = [];
      if (data.get("knock")) {
        const at = parseNumber(data.get("knock_at"));
        rules.push({ when: { phase: "turn_start", someone_knocked: false, hand_at_least: at }, do: { type: "knock" } });
      }
      rules.push({ when: { phase: "must_discard" }, do: { policy: "best_discard" } });
      rules.push({ when: { ...calm, discard_makes_31: true }, do: { type: "draw_discard" } });
      rules.push({ when: { ...calm, discard_raises_to: parseNumber(data.get("take")) }, do: { type: "draw_discard" } });
      rules.push({ when: { ...calm, phase: "turn_start" }, do: { type: "draw_stock" } });
    } else {
      rules = [];
      if (data.get("take")) rules.push({ when: { phase: "draw", discard_completes_meld: true }, do: { type: "draw_discard" } });
      rules.push({ when: { phase: "draw" }, do: { type: "draw_stock" } });
      if (data.get("lay")) rules.push({ when: { phase: "play" }, do: { policy: "lay_all_melds" } });
      rules.push({ when: { phase: "play" }, do: { policy: "best_discard" } });
    }
    const kind = data.get("limit");
    let limit;
    if (kind === "turns") limit = { turns: parseNumber(data.get("turns")) };
    else if (kind === "until") {
      const when = new Date(String(data.get("until") || ""));
      if (Number.isNaN(when.getTime())) {
        this.fail(gettext("Choose until when the orders hold."));
        form.querySelector('[name="until"]').focus();
        return null;
      }
      limit = { until: when.toISOString() };
    } else limit = { until_i_move: true };
    return { rules, limit };
  }

  fail(text) {
    updateRegion(this.error, text ? [text] : []);
  }

  async save(body) {
    this.fail("");
    try {
      this.show(await send(this.url, "PUT", body));
      announce(this.announcer, gettext("Your orders are given."));
    } catch (error) {
      this.fail(format(gettext("The orders were not given: %(reason)s"), { reason: error.message }));
    }
  }

  async cancel() {
    this.fail("");
    try {
      await send(this.url, "DELETE");
      this.show(null);
      announce(this.announcer, gettext("Your orders are cancelled."));
      const first = this.root.querySelector("[data-preset]");
      if (first) first.focus();
    } catch (error) {
      this.fail(format(gettext("The orders were not cancelled: %(reason)s"), { reason: error.message }));
    }
  }
}

const root = document.getElementById("orders");
if (root) new OrdersPanel(root);
