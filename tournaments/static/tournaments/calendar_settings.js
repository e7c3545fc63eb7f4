// The settings page's calendar section: shows the secret address and makes a new one, through the API.
import { ApiError, getJson, postJson } from "../frontend/js/api.js";
import { gettext } from "../frontend/js/i18n.js";

async function main() {
  const section = document.getElementById("calendar");
  if (!section) return;
  const field = document.getElementById("calendar-url");
  const note = document.getElementById("calendar-note");
  const api = section.dataset.apiUrl;
  const fail = (error) => {
    note.textContent = error instanceof ApiError ? error.message : gettext("Something went wrong; try again.");
  };
  try {
    field.value = (await getJson(api)).url;
  } catch (error) {
    fail(error);
  }
  document.getElementById("calendar-rotate").addEventListener("click", async (event) => {
    event.target.disabled = true;
    try {
      field.value = (await postJson(api, {})).url;
      note.textContent = gettext("A new address is made; the old one no longer works.");
    } catch (error) {
      fail(error);
    } finally {
      event.target.disabled = false;
    }
  });
}

main();
