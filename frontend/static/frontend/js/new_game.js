// The new-game form shows the rules of the chosen game only, and the fields of the chosen time
// control. Without this script every fieldset shows, and the server reads only the chosen ones.
// The others are hidden, not disabled: they are sent all the same, so that a page redrawn after
// an error keeps what they held.
// It also says what Scattle's "auto" decks and target will be for the seats chosen.
import { format, gettext, ngettext, parseNumber } from "./i18n.js";

function autoNote(form) {
  const note = document.getElementById("scattle-auto-note");
  const table = document.getElementById("scattle-auto-table");
  if (!note || !table) return () => {};
  const rows = JSON.parse(table.textContent);
  const seats = form.elements.namedItem("seats");
  const decks = form.elements.namedItem("scattle-deck_count");
  const target = form.elements.namedItem("scattle-target_score");
  return () => {
    const row = rows.find((r) => r.seats === parseNumber(seats.value));
    const deckChoice = decks ? JSON.parse(decks.value) : "auto";
    if (!row || (deckChoice !== "auto" && !(String(deckChoice) in row.target_by_decks))) {
      note.textContent = gettext("Scattle takes 2 to 6 players with one deck, up to 8 with two.");
      return;
    }
    const deckCount = deckChoice === "auto" ? row.deck_count : deckChoice;
    const points = row.target_by_decks[String(deckCount)];
    const targetAuto = !target || target.value.trim().toLowerCase() === "auto";
    const parts = [];
    if (deckChoice === "auto") {
      parts.push(format(ngettext("automatic decks: %(count)s deck", "automatic decks: %(count)s decks", deckCount), { count: deckCount }));
    }
    if (targetAuto) parts.push(format(gettext("automatic target: %(points)s points"), { points }));
    note.textContent = parts.length
      ? format(ngettext("With %(count)s player, %(what)s.", "With %(count)s players, %(what)s.", row.seats), {
          count: row.seats,
          what: parts.join(gettext(" and ")),
        })
      : "";
  };
}

function main() {
  const form = document.getElementById("new-game-form");
  if (!form) return;
  const kind = form.elements.namedItem("kind");
  const timeControl = form.elements.namedItem("time_control");
  const sync = () => {
    for (const fieldset of form.querySelectorAll("fieldset[data-kind]")) {
      fieldset.hidden = fieldset.dataset.kind !== kind.value;
    }
    for (const block of form.querySelectorAll("[data-time-control]")) {
      block.hidden = block.dataset.timeControl !== timeControl.value;
    }
  };
  kind.addEventListener("change", sync);
  timeControl.addEventListener("change", sync);
  sync();
  const explainAuto = autoNote(form);
  for (const name of ["seats", "scattle-deck_count", "scattle-target_score"]) {
    const control = form.elements.namedItem(name);
    if (control) control.addEventListener("input", explainAuto);
    if (control) control.addEventListener("change", explainAuto);
  }
  explainAuto();
}

main();
