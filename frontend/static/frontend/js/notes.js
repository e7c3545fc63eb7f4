// Beside a seated player's table: their private note on the game, and a finished game's rematch.
import { ApiError, getJson, postJson } from "./api.js";
import { gettext } from "./i18n.js";

async function putJson(url, body) {
  const meta = document.querySelector('meta[name="csrf-token"]');
  const response = await fetch(url, {
    method: "PUT",
    credentials: "same-origin",
    headers: { Accept: "application/json", "Content-Type": "application/json", "X-CSRFToken": meta ? meta.content : "" },
    body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

async function startNote(root) {
  const input = root.querySelector("#note-text");
  const status = root.querySelector("#note-status");
  try {
    input.value = (await getJson(root.dataset.noteUrl)).text;
  } catch {
    status.textContent = gettext("Could not reach the server. Check your connection and try again.");
  }
  root.querySelector("#note-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await putJson(root.dataset.noteUrl, { text: input.value });
      status.textContent = gettext("Note saved.");
    } catch (error) {
      status.textContent = error instanceof ApiError && error.code === "text_too_long"
        ? gettext("Shorten the note to 2,000 characters or fewer.")
        : gettext("That did not work; try again.");
    }
  });
}

function startRematch(button) {
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const game = await postJson(button.dataset.rematchUrl, {}, { attempts: 1 });
      window.location.assign(`/games/${encodeURIComponent(game.id)}/`);
    } catch {
      button.disabled = false;
      document.getElementById("rematch-error").textContent = gettext("That did not work; try again.");
    }
  });
}

const note = document.getElementById("note");
if (note) startNote(note);
const rematch = document.getElementById("rematch-button");
if (rematch) startRematch(rematch);
