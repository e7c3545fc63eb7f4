// The installable app: every page registers the service worker, which shows pushed notifications
// and the offline page. A browser without service workers simply goes without.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((error) => {
    console.warn("Slowhand: the service worker did not register", error);
  });
}
