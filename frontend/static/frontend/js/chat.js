// Table talk beside the card table (and its replay, once the game is over): the seated players'
// messages, sent as free text or as quick phrases shown in each reader's language. New messages
// come from the game's stream (table.js passes its "chat" events on as "table:chat"); a slow poll
// covers a table whose stream is closed, such as a finished game's.
import { ApiError, getJson, postJson } from "./api.js";
import { h, updateRegion } from "./dom.js";
import { format, formatDateTime, gettext } from "./i18n.js";

// While the game runs its stream brings the messages, and the poll is a slow safety net; a finished
// game's table has no stream.
const POLL_LIVE_MS = 60000;
const POLL_OVER_MS = 20000;

function errorText(error) {
  const messages = {
    network: gettext("Could not reach the server. Check your connection and try again."),
    chat_off: gettext("Your table talk is limited to the quick phrases."),
    throttled: gettext("You are sending messages too fast; wait a moment."),
    empty_text: gettext("Write something first."),
    text_too_long: gettext("Shorten the message to 500 characters or fewer."),
    bad_character: gettext("The message holds a character that cannot be sent."),
  };
  return messages[error.code] || gettext("That did not work; try again.");
}

class Chat {
  constructor(root) {
    this.root = root;
    this.me = root.dataset.me;
    this.messages = new Map();
    this.phrases = {};
    this.list = root.querySelector("#chat-messages");
    this.error = root.querySelector("#chat-error");
  }

  async start() {
    try {
      for (const phrase of await getJson(this.root.dataset.phrasesUrl)) this.phrases[phrase.key] = phrase.text;
    } catch {
      // The phrases' buttons fall back to the texts the messages carry.
    }
    this.renderPhrases();
    const form = this.root.querySelector("#chat-form");
    if (form) {
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        const input = form.querySelector("textarea");
        const text = input.value.trim();
        if (text) this.send({ text }).then((sent) => sent && (input.value = ""));
      });
    }
    document.addEventListener("table:chat", (event) => this.add([event.detail.message]));
    await this.load();
    const live = this.root.dataset.live === "1";
    window.setInterval(() => document.hidden || this.load(), live ? POLL_LIVE_MS : POLL_OVER_MS);
  }

  renderPhrases() {
    const region = this.root.querySelector("#chat-phrases");
    updateRegion(region, Object.entries(this.phrases).map(([key, text]) =>
      h("button", { type: "button", class: "secondary", dataset: { phrase: key } }, text)));
    for (const button of region.querySelectorAll("button")) {
      button.addEventListener("click", () => this.send({ phrase: button.dataset.phrase }));
    }
  }

  // The whole talk, read again: a message a moderator has hidden since (or a muted player's) goes.
  async load() {
    try {
      const known = new Set(this.messages.keys());  // a message the stream brings meanwhile stays
      const messages = [];
      let url = this.root.dataset.chatUrl;
      let page = null;
      while (url) {
        page = await getJson(url);
        messages.push(...page.results);
        url = page.next;
      }
      const kept = new Set(messages.map((message) => message.id));
      for (const id of known) if (!kept.has(id)) this.messages.delete(id);
      this.add(messages, { force: true });
      this.showModeration(page.moderation || {});
    } catch {
      // The next poll tries again.
    }
  }

  showModeration({ warned_at: warnedAt, silenced_until: silencedUntil }) {
    const notes = [];
    if (warnedAt) {
      notes.push(h("p", { class: "error" }, format(gettext("A moderator warned you about your table talk on %(date)s."),
        { date: formatDateTime(warnedAt, this.root.dataset.timeZone) })));
    }
    if (silencedUntil) {
      notes.push(h("p", { class: "error" }, format(gettext("A moderator has limited your table talk to the quick phrases until %(date)s."),
        { date: formatDateTime(silencedUntil, this.root.dataset.timeZone) })));
    }
    updateRegion(this.root.querySelector("#chat-moderation"), notes);
  }

  async send(body) {
    this.error.textContent = "";
    try {
      const message = await postJson(this.root.dataset.chatUrl, body, { attempts: 1 });
      this.add([message]);
      return true;
    } catch (error) {
      this.error.textContent = errorText(error instanceof ApiError ? error : new ApiError(0, null));
      return false;
    }
  }

  add(messages, { force = false } = {}) {
    let added = force;
    for (const message of messages) {
      if (!this.messages.has(message.id)) added = true;
      this.messages.set(message.id, message);
    }
    if (!added) return;
    updateRegion(this.list, this.inOrder().map((message) => this.item(message)));
    this.list.scrollTop = this.list.scrollHeight;
  }

  inOrder() {
    return [...this.messages.values()].sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
  }

  item(message) {
    const mine = message.author === this.me;
    const text = message.phrase
      ? this.phrases[message.phrase] || message.phrase_text || message.phrase
      : message.text;
    const when = formatDateTime(message.created_at, this.root.dataset.timeZone);
    return h("li", { class: mine ? "chat-message mine" : "chat-message", dataset: { key: message.id } },
      h("span", { class: "chat-author" }, message.author), " ",
      h("time", { datetime: message.created_at, class: "help" }, when),
      // Always text, never markup: a link is shown as the letters it is made of.
      h("p", { class: message.phrase ? "chat-text phrase" : "chat-text", dir: "auto" }, text),
      message.hidden ? h("p", { class: "help chat-hidden" }, gettext("A moderator has hidden this message: only you still see it.")) : null,
      mine ? null : this.controls(message));
  }

  controls(message) {
    const report = h("button", { type: "button", class: "link chat-report" }, gettext("Report"));
    const mute = h("button", { type: "button", class: "link chat-mute" },
      format(gettext("Mute %(name)s"), { name: message.author }));
    report.addEventListener("click", () => this.askReason(message, report));
    mute.addEventListener("click", async () => {
      try {
        await postJson(`/api/v1/me/mutes/${encodeURIComponent(message.author)}/`, {});
        for (const [id, other] of this.messages) if (other.author === message.author) this.messages.delete(id);
        updateRegion(this.list, this.inOrder().map((m) => this.item(m)));
      } catch (error) {
        this.error.textContent = errorText(error);
      }
    });
    return h("span", { class: "chat-controls" }, report, " ", mute);
  }

  askReason(message, button) {
    const input = h("input", { type: "text", maxlength: "500", required: true, "aria-label": gettext("Why are you reporting this message?") });
    const form = h("form", { class: "chat-report-form" }, input, " ", h("button", { type: "submit" }, gettext("Send the report")));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        await postJson(`/api/v1/chat/${encodeURIComponent(message.id)}/report/`, { reason: input.value });
        form.replaceWith(h("span", { class: "help", role: "status" }, gettext("Thank you: the moderators will look at it.")));
      } catch (error) {
        this.error.textContent = errorText(error);
      }
    });
    button.replaceWith(form);
    input.focus();
  }
}

const root = document.getElementById("chat");
if (root) new Chat(root).start();
