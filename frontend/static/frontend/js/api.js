// The same REST API third-party clients use, with the page's session and CSRF token.

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.message) || `HTTP ${status}`);
    this.status = status;
    this.code = (body && body.code) || (status === 0 ? "network" : "error");
    this.details = (body && body.details) || {};
  }
}

function csrfToken() {
  const meta = document.querySelector('meta[name="csrf-token"]');
  return meta ? meta.content : "";
}

// An Idempotency-Key per click: a retried request never becomes a second move.
export function newIdempotencyKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

const sleep = (ms) => new Promise((resolve) => window.setTimeout(resolve, ms));

async function request(url, { method = "GET", body, headers = {} } = {}) {
  const init = {
    method,
    credentials: "same-origin",
    headers: { Accept: "application/json", ...headers },
  };
  if (method !== "GET") {
    init.headers["Content-Type"] = "application/json";
    init.headers["X-CSRFToken"] = csrfToken();
    init.body = JSON.stringify(body ?? {});
  }
  const response = await fetch(url, init);
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export function getJson(url) {
  return request(url);
}

// POST with retries on network failure only; the same key makes the retries safe.
export async function postJson(url, body, { idempotencyKey, attempts = 3 } = {}) {
  const headers = idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {};
  for (let attempt = 1; ; attempt++) {
    try {
      return await request(url, { method: "POST", body, headers });
    } catch (error) {
      const transient = !(error instanceof ApiError) || error.status >= 500 || error.status === 429;
      if (!transient || attempt >= attempts) {
        throw error instanceof ApiError ? error : new ApiError(0, null);
      }
      await sleep(400 * 2 ** (attempt - 1));
    }
  }
}

// Every page of a paginated list.
export async function getAllPages(url) {
  const results = [];
  let next = url;
  while (next) {
    const page = await getJson(next);
    results.push(...page.results);
    next = page.next;
  }
  return results;
}
