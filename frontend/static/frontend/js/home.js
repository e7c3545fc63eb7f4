// The home page's dashboard follows the player's own stream (live.js passes its events on as
// "player:*" events): when one of their games changes or the unread counts move (a notice written or
// read: an invitation sent or withdrawn), the page asks the server for itself again and swaps in the parts
// that changed, keeping the focus on the link it was on. A change in the number of games awaiting the
// player is announced.
import { announce } from "./dom.js";

let running = false;
let again = false;

function sameLink(part, focused) {
  if (!(focused instanceof HTMLAnchorElement)) return null;
  return [...part.querySelectorAll("a[href]")].find((link) => link.getAttribute("href") === focused.getAttribute("href"));
}

// Swap `part` for `fresh`, the focus kept on the same link (or on the part's heading) when it was inside.
function swap(part, fresh) {
  const focused = document.activeElement;
  const hadFocus = focused && part.contains(focused);
  part.replaceWith(fresh);
  if (!hadFocus) return;
  const link = sameLink(fresh, focused);
  if (link) {
    link.focus();
    return;
  }
  const heading = fresh.querySelector("h2");
  if (heading) {
    heading.tabIndex = -1;
    heading.focus();
  }
}

async function refreshOnce() {
  const response = await fetch("/", { credentials: "same-origin", headers: { Accept: "text/html" } });
  if (!response.ok) return;
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  const fresh = page.querySelector("[data-home-games]");
  const current = document.querySelector("[data-home-games]");
  if (!fresh || !current) return;
  const announcement = current.querySelector("#awaiting")?.dataset.announce;
  const ids = (root) => [...root.querySelectorAll("[data-dashboard-part]")].map((part) => part.id).join(" ");
  if (ids(fresh) !== ids(current)) {
    swap(current, document.adoptNode(fresh)); // a part came or went: the whole dashboard
  } else {
    for (const part of fresh.querySelectorAll("[data-dashboard-part]")) {
      const shown = document.getElementById(part.id);
      if (shown && !shown.isEqualNode(part)) swap(shown, document.adoptNode(part));
    }
  }
  const awaiting = document.querySelector("#awaiting");
  if (awaiting && awaiting.dataset.announce !== announcement) {
    announce(document.getElementById("dashboard-news"), awaiting.dataset.announce);
  }
}

// One request at a time; news during it asks once more when it is done.
async function refresh() {
  if (running) {
    again = true;
    return;
  }
  running = true;
  try {
    do {
      again = false;
      await refreshOnce();
    } while (again);
  } catch {
    // The next event, or the next visit, shows the games.
  } finally {
    running = false;
  }
}

// "player:unread" follows every notice written or read (an invitation sent or withdrawn among them).
for (const name of ["player:game", "player:unread", "player:reset"]) {
  document.addEventListener(name, () => refresh());
}
