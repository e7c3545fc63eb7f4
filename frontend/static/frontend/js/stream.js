// An event stream with the fallback every page shares. EventSource reconnects by itself after a
// break, sending the last event's id (Last-Event-ID), and the server sends what was missed. A
// stream that cannot be opened (refused, answered with something else, or silent because a proxy
// holds it back) is given up, and the page polls instead.
const OPEN_TIMEOUT_MS = 8000;

export function openStream(url, listeners, { onOpen = () => {}, onUnavailable }) {
  if (typeof EventSource === "undefined") {
    onUnavailable();
    return null;
  }
  const source = new EventSource(url);
  let opened = false;
  let givenUp = false;
  const giveUp = () => {
    if (givenUp) return;
    givenUp = true;
    source.close();
    onUnavailable();
  };
  const timer = window.setTimeout(() => opened || giveUp(), OPEN_TIMEOUT_MS);
  source.addEventListener("open", () => {
    opened = true;
    window.clearTimeout(timer);
    onOpen(source);
  });
  for (const [name, listener] of Object.entries(listeners)) {
    source.addEventListener(name, (message) => listener(JSON.parse(message.data), source));
  }
  source.addEventListener("error", () => {
    if (source.readyState === EventSource.CLOSED || !opened) giveUp();
  });
  return source;
}
