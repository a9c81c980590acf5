// The lobby: open a table (then take its first person's seat), or join one by code.
import { setupAccount } from "./account.js";
import { api, esc, tokens, url, $ } from "./api.js";
import { seedFor } from "./fairness-seed.js";
import { duration, setupLanguages, t } from "./i18n.js";
import { errorText, levelLabel, playerName, presetDescription, presetLabel } from "./labels.js";
import { startInbox } from "./inbox.js";
import { namesHtml } from "./markup.js";

let levels = ["random", "greedy", "easy", "medium", "hard", "optimal"];
let presets = [];

function toast(text) {
  const el = $("#toast");
  el.textContent = text;
  el.hidden = false;
  setTimeout(() => (el.hidden = true), 5000);
}

function seatSpecs() {
  const count = Number($("#seat-count").value);
  const list = $("#seat-specs");
  const before = [...list.querySelectorAll("select")].map((s) => s.value);
  const options = (value) =>
    `<option value="human"${value === "human" ? " selected" : ""}>${esc(t("a person"))}</option>` +
    levels
      .map((l) => `<option value="bot:${l}"${value === `bot:${l}` ? " selected" : ""}>${esc(t("bot: {level}", { level: levelLabel(l) }))}</option>`)
      .join("");
  list.innerHTML = Array.from({ length: count }, (_, i) => {
    const value = before[i] || (i === 0 ? "human" : i === 1 ? "human" : "bot:medium");
    const label = i === 0 ? t("Seat {n} (you)", { n: 1 }) : t("Seat {n}", { n: i + 1 });
    return `<li><label class="field inline"><span>${esc(label)}</span><select data-seat="${i}">${options(value)}</select></label></li>`;
  }).join("");
}

// The rules to choose from, named in the reader's language, the chosen one described below.
function presetOptions() {
  const select = $("#preset");
  const value = select.value;
  select.innerHTML = presets
    .map((p) => `<option value="${esc(p.name)}">${esc(presetLabel(p.name))}</option>`)
    .join("");
  if (value) select.value = value;
  describePreset();
}

function describePreset() {
  const chosen = presets.find((p) => p.name === $("#preset").value);
  $("#preset-about").textContent = chosen ? presetDescription(chosen.name, chosen.description) : "";
}

async function create(event) {
  event.preventDefault();
  const name = $("#name").value.trim();
  const specs = [...$("#seat-specs").querySelectorAll("select")].map((s) =>
    s.value === "human" ? { kind: "human" } : { kind: "bot", bot: s.value.slice(4) },
  );
  const humans = specs.map((s, i) => (s.kind === "human" ? i : -1)).filter((i) => i >= 0);
  if (humans.length && !name) {
    $("#name").focus();
    toast(t("Type your name first."));
    return;
  }
  const body = {
    preset: $("#preset").value,
    seats: specs,
    hints: $("#hints").checked,
    turn_seconds: $("#timer").value && !$("#move-days").value ? Number($("#timer").value) : null,
    ...correspondence(),
    start: $("#start").value,
    private: $("#private").checked,
    rated: !$("#rated-row").hidden && $("#rated").checked,
  };
  try {
    const table = await api("api/tables", { method: "POST", body });
    if (humans.length) {
      // the opener gives a seed too, made now that the table's commitment is out (fair dice)
      const seed = seedFor(table.code, table.game.number, table.game.commitment);
      const joined = await api(`api/tables/${table.code}/join`, { method: "POST", body: { seat: humans[0], name, seed } });
      tokens.set(table.code, joined.seat, joined.token);
      localStorage.setItem("yacht:name", name);
    }
    location.href = url(`t/${encodeURIComponent(table.code)}`);
  } catch (error) {
    toast(errorText(error));
  }
}

async function openTables() {
  try {
    const tables = await api("api/tables");
    $("#open-tables").innerHTML =
      tables
        .map(
          (tb) =>
            `<li><a href="t/${tb.code}"><strong>${tb.code}</strong> · ${esc(presetLabel(tb.preset))} · ` +
            `${namesHtml(tb.seats.map((s) => (s.name ? playerName(s.name) : "—")))}</a> ` +
            `<span class="muted">${esc(t("Free seats: {n}", { n: tb.free_seats }))}</span></li>`,
        )
        .join("") || `<li class="muted">${esc(t("No open tables right now."))}</li>`;
  } catch {
    /* the list is a convenience */
  }
}

// A correspondence table's settings: days per move, and the missed moves before the bot keeps a seat.
function correspondence() {
  const days = $("#move-days").value;
  if (!days) return {};
  const missed = Math.round(Number($("#missed-moves").value));
  return { move_days: Number(days), missed_moves: missed >= 1 && missed <= 10 ? missed : 3 };
}

// Days per move take the place of the turn timer (a table has one clock or the other).
function clockChoice() {
  const days = Boolean($("#move-days").value);
  $("#missed-row").hidden = !days;
  $("#timer").disabled = days;
}

// The turn timer's choices in the language's units ("30 сек", "2 min").
function timerOptions() {
  for (const option of $("#timer").options) if (option.value) option.textContent = duration(Number(option.value));
}

async function main() {
  await setupLanguages($("#lang"), () => {
    timerOptions();
    seatSpecs();
    presetOptions();
    openTables();
  });
  timerOptions();
  await setupAccount(toast);
  // A rated table plays without hints (account.js shows the choice to a signed-in player).
  $("#rated").addEventListener("change", () => {
    const rated = $("#rated").checked;
    $("#hints").disabled = rated;
    if (rated) $("#hints").checked = false;
  });
  if (!$("#name").value) $("#name").value = localStorage.getItem("yacht:name") || ""; // keep what was typed
  const [known, bots] = await Promise.all([api("api/presets"), api("api/bots")]);
  levels = bots;
  presets = known;
  presetOptions();
  $("#preset").addEventListener("change", describePreset);
  seatSpecs();
  $("#seat-count").addEventListener("change", seatSpecs);
  $("#create").addEventListener("submit", create);
  $("#move-days").addEventListener("change", clockChoice);
  clockChoice();
  $("#open").disabled = false; // ready: the forms are handled here, not sent by the browser
  $("#go").disabled = false;
  $("#join-code").addEventListener("submit", (event) => {
    event.preventDefault();
    const code = $("#code").value.trim().toUpperCase();
    if (code) location.href = url(`t/${encodeURIComponent(code)}`);
  });
  openTables();
  startInbox();
}

main();
