// "Notify me on this device": asks the browser's permission, subscribes it to the site's push
// messages with the server's VAPID key, and registers the subscription through the API.
import { ApiError, getJson, postJson } from "./api.js";
import { gettext } from "./i18n.js";

const supported = () => "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4);
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

// A name the player recognises in their list of devices; they can remove it there.
function deviceName() {
  const platform = (navigator.userAgentData && navigator.userAgentData.platform) || navigator.platform || "";
  const browser = /Firefox\//.test(navigator.userAgent) ? "Firefox" : /Edg\//.test(navigator.userAgent) ? "Edge" : /Chrom/.test(navigator.userAgent) ? "Chrome" : /Safari\//.test(navigator.userAgent) ? "Safari" : gettext("Browser");
  return platform ? `${browser}, ${platform}` : browser;
}

async function subscribe(control, status) {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") {
    status.textContent = gettext("Notifications are blocked for this site in your browser's settings.");
    return;
  }
  const { public_key: key } = await getJson(control.dataset.pushKeyUrl);
  const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(() => navigator.serviceWorker.ready);
  let subscription = await registration.pushManager.getSubscription();
  if (!subscription) {
    subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  }
  const json = subscription.toJSON();
  await postJson(control.dataset.subscriptionsUrl, { endpoint: json.endpoint, keys: json.keys, name: deviceName() });
  status.textContent = gettext("This device will be notified.");
  if (control.dataset.reload) window.location.reload();
}

export function setUpPushControl(control) {
  const button = control.querySelector("button.push-subscribe");
  const status = control.querySelector(".push-status");
  if (!supported()) {
    button.disabled = true;
    status.textContent = gettext("This browser cannot receive notifications from websites.");
    return;
  }
  if (Notification.permission === "denied") {
    status.textContent = gettext("Notifications are blocked for this site in your browser's settings.");
  }
  button.addEventListener("click", async () => {
    button.disabled = true;
    status.textContent = gettext("Asking your browser…");
    try {
      await subscribe(control, status);
    } catch (error) {
      status.textContent = error instanceof ApiError ? error.message : gettext("This browser could not subscribe to notifications.");
    } finally {
      button.disabled = false;
    }
  });
}

for (const control of document.querySelectorAll(".push-control")) setUpPushControl(control);
