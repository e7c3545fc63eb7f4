// The signed-in player's own event stream (GET /api/v1/stream/), on every page: the notification
// badge follows it, and the page's other parts hear its events (the home page's dashboard, the
// table's "Next game").
// The badge counts the games with unread notices ("unread_games"), not the notices: the stream sends
// the counts ("notifications_read") after notices are read and after new ones are written.
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

// The page's parts that follow the player's news (home.js, table_next.js) hear it as "player:*" events.
function tell(name, detail) {
  document.dispatchEvent(new CustomEvent(`player:${name}`, { detail }));
}

async function refreshBadge() {
  try {
    const page = await getJson("/api/v1/notifications/");
    setBadge(page.unread_games);
  } catch {
    // Offline: the next poll, or the next event, tries again.
  }
}

async function refreshAll() {
  await refreshBadge();
  tell("reset", null);
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
      notification: (item) => tell("notification", item),
      notifications_read: (event) => {
        setBadge(event.unread_games);
        tell("unread", event);
      },
      game_summary: (summary) => tell("game", summary),
      reset: () => refreshAll(), // more was missed than the server keeps: start afresh
    },
    { onUnavailable: () => window.setTimeout(poll, FALLBACK_POLL_MS) },
  );
}

main();
