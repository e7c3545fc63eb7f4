// The tournament pages: the lists (/tournaments/) and one tournament (/tournaments/{id}/). Everything
// they show and do goes through the REST API, as any client's would.
import { ApiError, getJson, postJson } from "../frontend/js/api.js";
import { h, updateRegion } from "../frontend/js/dom.js";
import { format, formatDateTime, gettext, language, listOf, ngettext, number, parseNumber } from "../frontend/js/i18n.js";

const POLL_MS = 10000;
const KINDS = { scat: gettext("Scat (31)"), scattle: gettext("Scattle!") };
// The API names a computer player "bot (level)"; the page names it as the card table does.
const BOT_NAMES = {
  random: () => gettext("Computer (random)"),
  good: () => gettext("Computer (good)"),
  expert: () => gettext("Computer (expert)"),
};
const shownName = (name) => {
  const bot = /^bot \((\w+)\)$/.exec(name);
  return bot && BOT_NAMES[bot[1]] ? BOT_NAMES[bot[1]]() : name;
};
const FORMATS = { swiss: gettext("Swiss"), round_robin: gettext("round robin") };

function when(iso) {
  return iso ? formatDateTime(iso) : "";
}

function duration(seconds) {
  const day = 86400;
  const hour = 3600;
  if (seconds % day === 0) return format(ngettext("%(count)s day", "%(count)s days", seconds / day), { count: seconds / day });
  if (seconds % hour === 0) return format(ngettext("%(count)s hour", "%(count)s hours", seconds / hour), { count: seconds / hour });
  const minutes = Math.round(seconds / 60);
  return format(ngettext("%(count)s minute", "%(count)s minutes", minutes), { count: minutes });
}

function timeLabel(t) {
  if (t.time_bank) return format(gettext("time bank of %(time)s"), { time: duration(t.time_bank.initial) });
  return format(gettext("%(time)s a move"), { time: duration(t.move_time_limit) });
}

function facts(t) {
  const parts = [
    KINDS[t.kind] || t.kind,
    FORMATS[t.format] || t.format,
    format(gettext("tables of %(count)s"), { count: t.table_size }),
    timeLabel(t),
    format(gettext("%(count)s of %(max)s players"), { count: t.player_count, max: t.max_players }),
  ];
  if (t.status === "open" && t.starts_at) parts.push(format(gettext("starts %(when)s"), { when: when(t.starts_at) }));
  if (t.status === "running") parts.push(format(gettext("round %(round)s of %(rounds)s"), { round: t.current_round, rounds: t.round_count }));
  if (t.cancelled) parts.push(gettext("cancelled"));
  return parts.join(" · ");
}

// The API explains a refusal in English. Other readers get the page's own sentence for its code,
// or the field at fault named by its label.
const REFUSALS = {
  bad_name: () => gettext("Give the tournament a name."),
  bad_table_size: () => gettext("Scat tables seat 2 to 9 players, Scattle tables 2 to 8; a round robin is played at tables of two."),
  bad_rounds: () => gettext("A Swiss tournament has 1 to 50 rounds."),
  bad_max_players: () => gettext("A Swiss tournament takes 2 to 1,000 players, a round robin 2 to 30."),
  bad_starts_at: () => gettext("The start must be in the future, at most a year ahead."),
  bad_option: () => gettext("These rules options do not fit the tables."),
  tournament_not_open: () => gettext("The tournament is no longer open."),
  already_entered: () => gettext("You are already in this tournament."),
  tournament_full: () => gettext("The tournament is full."),
  not_entered: () => gettext("You are not in this tournament."),
  not_creator: () => gettext("Only the tournament's creator can do that."),
  not_enough_players: () => gettext("A tournament needs at least two players."),
  already_withdrawn: () => gettext("You have already withdrawn."),
  not_running: () => gettext("Only a running tournament can be withdrawn from."),
};

function refusal(error) {
  if (!(error instanceof ApiError) || error.status === 0 || error.status >= 500) {
    return gettext("Something went wrong; try again.");
  }
  const form = document.getElementById("new-tournament");
  const field = Object.keys(error.details || {}).map((name) => form && form.elements.namedItem(name)).find(Boolean);
  // The API's own words name its fields ("name: This field may not be blank."): a field of the form is named
  // by the form's sentence or label instead, in English too.
  if (language().startsWith("en") && !field) return error.message;
  if (REFUSALS[error.code]) return REFUSALS[error.code]();
  if (field && field.name === "name") return REFUSALS.bad_name();
  const label = field && field.labels && field.labels[0];
  return label ? format(gettext("Check “%(field)s”."), { field: label.textContent.trim() }) : gettext("That is not possible now.");
}

// A refused field's own sentence, whatever words the API used for it ("name: This field may not be blank.").
const FIELD_REFUSALS = {
  name: "bad_name", table_size: "bad_table_size", rounds: "bad_rounds", max_players: "bad_max_players",
  starts_at: "bad_starts_at",
};

// Each refused field of the form says why beside itself, and is marked invalid for screen readers.
function showFieldErrors(form, error) {
  for (const old of form.querySelectorAll(".field-error")) old.remove();
  for (const input of form.querySelectorAll("[aria-invalid]")) {
    input.removeAttribute("aria-invalid");
    input.removeAttribute("aria-describedby");
  }
  if (!(error instanceof ApiError) || !error.details) return;
  for (const name of Object.keys(error.details)) {
    const input = form.elements.namedItem(name);
    if (!input || !input.id) continue;
    const code = FIELD_REFUSALS[name] === undefined ? error.code : FIELD_REFUSALS[name];
    const text = REFUSALS[code] ? REFUSALS[code]() : refusal(error);
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", `${input.id}-error`);
    input.closest(".field").append(h("p", { class: "error field-error", id: `${input.id}-error`, text }));
  }
}

function showError(error) {
  const region = document.getElementById("error");
  if (region) region.textContent = refusal(error);
}

function tournamentUrl(id) {
  return `/tournaments/${encodeURIComponent(id)}/`;
}

// --- the lists -------------------------------------------------------------------------------

async function join(api, t) {
  try {
    await postJson(`${api}${encodeURIComponent(t.id)}/join/`, {});
    window.location.assign(tournamentUrl(t.id));
  } catch (error) {
    showError(error);
  }
}

function listRow(api, t, signedIn) {
  const row = h("li", { class: "game-row" }, h("a", { class: "game-link", href: tournamentUrl(t.id), text: t.name }), h("span", { class: "facts", text: facts(t) }));
  if (t.status === "open" && t.entered) row.append(h("span", { class: "tag", text: gettext("entered") }));
  if (t.status === "open" && signedIn && !t.entered && t.player_count < t.max_players) {
    const button = h("button", { type: "button", "aria-label": format(gettext("Join %(name)s"), { name: t.name }), text: gettext("Join") });
    button.addEventListener("click", () => {
      button.disabled = true;
      join(api, t).finally(() => {
        button.disabled = false;
      });
    });
    row.append(button);
  }
  return row;
}

async function showLists(root) {
  const api = root.dataset.apiUrl;
  const signedIn = Boolean(root.dataset.signedIn);
  for (const status of ["open", "running", "finished"]) {
    const region = root.querySelector(`[data-list="${status}"]`);
    try {
      const page = await getJson(`${api}?status=${status}`);
      const rows = page.results.map((t) => listRow(api, t, signedIn));
      region.replaceChildren(...(rows.length ? rows : [h("li", { class: "help", text: gettext("None.") })]));
    } catch (error) {
      showError(error);
    }
  }
}

function newTournamentForm(root) {
  const form = document.getElementById("new-tournament");
  if (!form) return;
  const field = (name) => form.elements.namedItem(name);
  // A round robin is played at tables of two.
  field("format").addEventListener("change", () => {
    if (field("format").value === "round_robin") field("table_size").value = number(2);
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = {
      name: field("name").value.trim(),
      kind: field("kind").value,
      format: field("format").value,
      table_size: parseNumber(field("table_size").value),
      max_players: parseNumber(field("max_players").value),
      move_time_limit: Number(field("move_time_limit").value),
      timeout_policy: field("timeout_policy").value,
      vacation: field("vacation").value,
      bots_fill: field("bots_fill").checked,
    };
    if (body.format === "swiss") body.rounds = parseNumber(field("rounds").value);
    if (field("starts_at").value) body.starts_at = new Date(field("starts_at").value).toISOString();
    const submit = form.querySelector("button[type=submit]");
    submit.disabled = true;
    try {
      const created = await postJson(root.dataset.apiUrl, body);
      window.location.assign(tournamentUrl(created.id));
    } catch (error) {
      showError(error);
      showFieldErrors(form, error);
    } finally {
      submit.disabled = false;
    }
  });
}

// --- one tournament --------------------------------------------------------------------------

function statusText(t) {
  if (t.cancelled && t.cancel_reason === "creator") return format(gettext("Called off by %(name)s."), { name: t.creator });
  if (t.cancelled) return gettext("Cancelled: too few players had entered when it was due to start.");
  if (t.status === "open") {
    const start = t.starts_at ? format(gettext("It starts %(when)s."), { when: when(t.starts_at) }) : format(gettext("It starts when %(name)s starts it."), { name: t.creator });
    return `${format(gettext("Open for entries: %(count)s of %(max)s players."), { count: t.player_count, max: t.max_players })} ${start}`;
  }
  if (t.status === "running") return format(gettext("Round %(round)s of %(rounds)s is being played."), { round: t.current_round, rounds: t.round_count });
  return gettext("Finished.");
}

function yourPart(t, me) {
  if (!t.you.entered || t.status !== "running") return null;
  if (t.you.withdrawn) return h("p", { text: gettext("You have withdrawn.") });
  if (t.you.table) {
    return h("p", { class: "your-table" }, h("a", { href: `/games/${encodeURIComponent(t.you.table)}/`, text: format(gettext("Your table in round %(round)s"), { round: t.current_round }) }));
  }
  const current = t.rounds.find((r) => r.number === t.current_round);
  if (current && current.byes.includes(me)) return h("p", { text: gettext("You sit this round out with a bye.") });
  return null;
}

function actionButtons(root, t, reload) {
  const api = root.dataset.apiUrl;
  if (!root.dataset.signedIn) {
    return t.status === "open" ? [h("a", { class: "button", href: root.dataset.loginUrl, text: gettext("Log in to join") })] : [];
  }
  const send = async (path, button) => {
    button.disabled = true;
    try {
      await postJson(`${api}${path}/`, {});
      document.getElementById("error").textContent = "";
      await reload();
    } catch (error) {
      showError(error);
    } finally {
      button.disabled = false;
    }
  };
  // What cannot be undone is asked in the page (as the card table asks before resigning), not in a
  // browser dialog: the question, the step itself, and a way back that has the focus.
  const act = (path, label, { confirmText, confirmLabel, style } = {}) => {
    const button = h("button", { type: "button", class: style || null, text: label, "data-key": path });
    button.addEventListener("click", () => {
      if (!confirmText) {
        send(path, button);
        return;
      }
      const region = document.getElementById("actions");
      const back = h("button", { type: "button", class: "secondary", text: gettext("Go back") });
      const yes = h("button", { type: "button", class: style || null, text: confirmLabel });
      back.addEventListener("click", () => updateRegion(region, actionButtons(root, t, reload)));
      yes.addEventListener("click", () => send(path, yes));
      updateRegion(region, [h("p", { class: "confirm-question", text: confirmText }), yes, " ", back]);
      back.focus();
    });
    return button;
  };
  const buttons = [];
  if (t.status === "open") {
    if (!t.you.entered && t.player_count < t.max_players) buttons.push(act("join", gettext("Join")));
    if (t.you.entered) buttons.push(act("leave", gettext("Leave"), { style: "secondary" }));
    if (t.you.is_creator) {
      buttons.push(act("start", gettext("Start now")));
      buttons.push(act("cancel", gettext("Call off the tournament"), { style: "danger", confirmText: gettext("Call off the tournament? It will not be played, and the players entered are told."), confirmLabel: gettext("Yes, call it off") }));
    }
  } else if (t.status === "running" && t.you.entered && !t.you.withdrawn) {
    buttons.push(act("withdraw", gettext("Withdraw"), { style: "danger", confirmText: gettext("Withdraw from the tournament? Your running games are resigned."), confirmLabel: gettext("Yes, withdraw") }));
  }
  return buttons;
}

function standingsTable(t, me) {
  if (!t.standings.length) return h("p", { class: "help", text: gettext("Nobody has entered yet.") });
  const head = h(
    "tr",
    null,
    h("th", { scope: "col", class: "number", text: gettext("Place") }),
    h("th", { scope: "col", text: gettext("Player") }),
    h("th", { scope: "col", class: "number", text: gettext("Points") }),
    h("th", { scope: "col", class: "number", text: gettext("Games") }),
    h("th", { scope: "col", class: "number", text: gettext("Byes") }),
    h("th", { scope: "col", class: "number", text: gettext("Opponents' points") }),
  );
  const rows = t.standings.map((row) =>
    h(
      "tr",
      { class: row.player === me ? "me" : null },
      h("td", { class: "number", text: number(row.place) }),
      h("td", { text: row.withdrawn ? format(gettext("%(name)s (withdrawn)"), { name: row.player }) : row.player }),
      h("td", { class: "number", text: number(row.points) }),
      h("td", { class: "number", text: number(row.games) }),
      h("td", { class: "number", text: number(row.byes) }),
      h("td", { class: "number", text: number(row.opponents_points) }),
    ),
  );
  return h("div", { class: "standings-wrap" }, h("table", { class: "standings" }, h("thead", null, head), h("tbody", null, rows)));
}

function roundsList(t, me) {
  if (!t.rounds.length) return h("p", { class: "help", text: gettext("No round has started yet.") });
  return [...t.rounds].reverse().map((r) => {
    const times = r.finished_at
      ? format(gettext("started %(start)s, finished %(end)s"), { start: when(r.started_at), end: when(r.finished_at) })
      : format(gettext("started %(start)s, expected to end by %(end)s"), { start: when(r.started_at), end: when(r.expected_end) });
    const tables = r.tables.map((table) =>
      h(
        "li",
        { class: table.players.includes(me) ? "mine" : null },
        h("a", { href: `/games/${encodeURIComponent(table.game)}/`, text: format(gettext("Table %(number)s"), { number: table.number }) }),
        ": ",
        listOf(table.players.map(shownName)),
        table.status === "finished" ? ` · ${gettext("finished")}` : "",
      ),
    );
    return h(
      "div",
      { class: "round" },
      h("h3", { text: format(gettext("Round %(round)s"), { round: r.number }) }),
      h("p", { class: "help", text: times }),
      h("ul", { class: "tables" }, tables),
      r.byes.length ? h("p", { text: format(gettext("Byes: %(names)s"), { names: listOf(r.byes) }) }) : null,
    );
  });
}

async function showTournament(root) {
  const me = root.dataset.username || null;
  let timer = null;
  const reload = async () => {
    window.clearTimeout(timer);
    try {
      const t = await getJson(root.dataset.apiUrl);
      updateRegion(document.getElementById("status"), [h("p", { text: statusText(t) }), yourPart(t, me)]);
      const actions = document.getElementById("actions");
      // A question being asked stays until it is answered; the buttons follow afterwards.
      if (!actions.querySelector(".confirm-question")) updateRegion(actions, actionButtons(root, t, reload));
      updateRegion(document.getElementById("standings"), standingsTable(t, me));
      updateRegion(document.getElementById("rounds"), roundsList(t, me));
      if (t.status !== "finished") timer = window.setTimeout(reload, POLL_MS);
    } catch (error) {
      showError(error);
      timer = window.setTimeout(reload, POLL_MS);
    }
  };
  await reload();
}

const list = document.getElementById("tournament-list");
if (list) {
  showLists(list);
  newTournamentForm(list);
}
const one = document.getElementById("tournament");
if (one) showTournament(one);
