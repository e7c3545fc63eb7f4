// The new-game form shows the rules of the chosen game only, and the fields of the chosen time
// control. Without this script every fieldset shows, and the server reads only the chosen ones.
function main() {
  const form = document.getElementById("new-game-form");
  if (!form) return;
  const kind = form.elements.namedItem("kind");
  const timeControl = form.elements.namedItem("time_control");
  const sync = () => {
    for (const fieldset of form.querySelectorAll("fieldset[data-kind]")) {
      const shown = fieldset.dataset.kind === kind.value;
      fieldset.hidden = !shown;
      fieldset.disabled = !shown;
    }
    for (const block of form.querySelectorAll("[data-time-control]")) {
      const shown = block.dataset.timeControl === timeControl.value;
      block.hidden = !shown;
      for (const control of block.querySelectorAll("select, input")) control.disabled = !shown;
    }
  };
  kind.addEventListener("change", sync);
  timeControl.addEventListener("change", sync);
  sync();
}

main();
