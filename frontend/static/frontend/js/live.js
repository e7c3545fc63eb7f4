// The signed-in player's own event stream (GET /api/v1/stream/), on every page: the notification
// badge follows it, and the home page's lists of games follow the summaries of the player's games.
// The badge counts the games with unread notices ("unread_games"), not the notices: a new notice
// may be about a game already counted, or replace an unread one, so the count is asked for again.
// The stream takes up after the last event the page was rendered with (its URL says which), so
// news that comes while the page loads is neither missed nor counted twice. Only when the stream
// cannot be opened at all do the page's parts poll instead.
import { getJson } from "./api.js";
import { number } from "./i18n.js";
import { openStream } from "./stream.js";

const FALLBACK_POLL_MS = 30000;

function setBadge(count) {
  const holder = document.getElementById("unread-badge");
  if (!holder) return;
  holder.dataset.unread = String(count);
  holder.hidden = count <= 0;
  const badge = holder.querySelector(".badge");
  if (badge && badge.firstChild) badge.firstChild.nodeValue = number(count);
}

// The home page's game lists, fetched anew as the server renders them.
let refreshing = null;
async function refreshHome() {
  if (!document.querySelector("[data-home-games]")) return;
  if (refreshing) return;
  refreshing = (async () => {
    try {
      const response = await fetch("/", { credentials: "same-origin", headers: { Accept: "text/html" } });
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      const fresh = page.querySelector("[data-home-games]");
      const current = document.querySelector("[data-home-games]");
      if (fresh && current) current.replaceWith(fresh);
    } catch {
      // The next summary, or the next visit, shows them.
    } finally {
      refreshing = null;
    }
  })();
}

async function refreshBadge() {
  try {
    const page = await getJson("/api/v1/notifications/");
    setBadge(page.unread_games);
  } catch {
    // Offline: the next poll, or the next event, tries again.
  }
}

// A burst of notices (a move that ends a game tells of the end and the next game) asks once.
let badgeTimer = null;
function refreshBadgeSoon() {
  window.clearTimeout(badgeTimer);
  badgeTimer = window.setTimeout(refreshBadge, 200);
}

async function refreshAll() {
  await refreshBadge();
  refreshHome();
}

async function poll() {
  await refreshAll();
  window.setTimeout(poll, FALLBACK_POLL_MS);
}

function main() {
  const script = document.querySelector("script[data-stream-url]");
  if (!script) return;
  openStream(
    script.dataset.streamUrl,
    {
      notification: (item) => item.read_at || refreshBadgeSoon(),
      notifications_read: (event) => setBadge(event.unread_games),
      game_summary: () => refreshHome(),
      reset: () => refreshAll(), // more was missed than the server keeps: start afresh
    },
    { onUnavailable: () => window.setTimeout(poll, FALLBACK_POLL_MS) },
  );
}

main();
