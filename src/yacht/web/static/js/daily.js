// The daily game (/daily): today's game on the same dice for everyone, its result with a share
// text that gives no dice away, the day's ranking, and the days' commitments and revealed seed.
import { api, esc, signedIn, $ } from "./api.js";
import { dieSvg } from "./dice.js";
import { applyStatic, categoryLabel, number, setupLanguages, t } from "./i18n.js";
import { errorText, presetLabel } from "./labels.js";
import { nameHtml } from "./markup.js";

const GUEST = "yacht:daily-guest";
const CATEGORY_ORDER = ["ones", "twos", "threes", "fours", "fives", "sixes"];
let me = null;
let days = null;
let game = null;
let board = null;
let presets = [];
let held = new Set();
let busy = false;
let started = false; // the board shows once the player starts or resumes the game
const asked = new URLSearchParams(location.search).get("rules") || "traditional";
let preset = asked;

// A guest's browser is known by a random token of its own (its daily attempt is unofficial).
function guestToken() {
  let token = localStorage.getItem(GUEST);
  if (!token || !/^[A-Za-z0-9_-]{16,64}$/.test(token)) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    token = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem(GUEST, token);
  }
  return token;
}

function call(path, options = {}) {
  const headers = me ? {} : { "X-Yacht-Guest": guestToken() };
  return api(path, { ...options, headers });
}

function showError(error) {
  const el = $("#daily-error");
  el.hidden = !error;
  el.textContent = error ? errorText(error) : "";
}

function squares(points, best) {
  const filled = best > 0 ? Math.round((5 * points) / best) : 0;
  return "■".repeat(filled) + "□".repeat(5 - filled);
}

function orderOf(categories) {
  const upper = CATEGORY_ORDER.filter((c) => c in categories);
  return [...upper, ...Object.keys(categories).filter((c) => !CATEGORY_ORDER.includes(c))];
}

// The share text: the day, the total and the skill figure, then a line per category of how it
// scored against its best (five squares); no die is in it.
function shareText() {
  const lines = [
    t("Yacht daily {day} ({preset})", { day: game.day, preset: presetLabel(game.preset) }),
    t("{total} points, {loss} points lost per decision", { total: number(game.total), loss: number(game.skill, 2) }),
  ];
  for (const c of orderOf(game.best)) lines.push(`${squares(game.sheet[c] ?? 0, game.best[c])} ${categoryLabel(c)}`);
  return lines.join("\n");
}

function renderIntro() {
  document.title = `${t("Yacht")} · ${t("Daily game")}`;
  $("#daily-about").textContent = t(
    "One game a day on the same dice for everyone, the day being the UTC day. The ranking is by points lost per decision: knowing the dice does not help you there.",
  );
  const select = $("#preset");
  select.innerHTML = presets.map((p) => `<option value="${esc(p.name)}">${esc(presetLabel(p.name))}</option>`).join("");
  select.value = preset;
  const start = $("#daily-start");
  if (!days) return;
  start.hidden = game !== null && (game.status === "finished" || started);
  start.textContent = game ? t("Resume today's game") : t("Play today's game");
  let status;
  if (!game) status = me ? t("You have not played today's game yet.") : t("As a guest your result is unofficial: sign in to be ranked.");
  else if (game.status === "finished") status = t("You have played today's game. The next one starts at midnight UTC.");
  else status = t("Your game is in progress.");
  $("#daily-status").textContent = status;
}

function renderGame() {
  $("#daily-board").hidden = !(game && game.status !== "finished" && started);
  if (!game) return;
  $("#daily-board").dataset.version = game.version; // what a test waits on
  $("#board-title").textContent = t("Round {round} of {rounds}", { round: game.round, rounds: Object.keys(game.best).length });
  const dice = game.dice || [0, 0, 0, 0, 0];
  $("#dice").innerHTML = dice
    .map((face, i) => {
      const slot = i + 1;
      const label = face ? t("Die {n}: {face}", { n: slot, face }) : t("Die {n}: not rolled yet", { n: slot });
      const disabled = !game.dice || game.rolls_left === 0 ? " disabled" : "";
      return `<button type="button" class="die${held.has(slot) ? " held" : ""}" data-slot="${slot}" aria-pressed="${held.has(slot)}" aria-label="${esc(label)}"${disabled}>${dieSvg(face)}</button>`;
    })
    .join("");
  const roll = $("#roll");
  roll.textContent = t("Roll ({left} left)", { left: game.rolls_left });
  roll.disabled = game.rolls_left === 0 || busy;
  $("#sheet-name").innerHTML = game.official ? nameHtml(game.name).html : esc(t("Guest"));
  $("#sheet tbody").innerHTML = orderOf(game.best)
    .map((c) => {
      const label = esc(categoryLabel(c));
      let cell;
      if (c in game.sheet) cell = esc(number(game.sheet[c]));
      else if (c in game.potentials)
        cell = `<button type="button" class="box" data-score="${esc(c)}" aria-label="${esc(t("Score {points} in {category}", { points: game.potentials[c], category: categoryLabel(c) }))}">${esc(number(game.potentials[c]))}</button>`;
      else cell = "";
      return `<tr><th scope="row">${label}</th><td>${cell}</td></tr>`;
    })
    .join("") + `<tr class="sum"><th scope="row">${esc(t("Total"))}</th><td>${esc(number(game.total))}</td></tr>`;
}

function renderResult() {
  const section = $("#daily-result");
  section.hidden = !(game && game.status === "finished");
  if (section.hidden) return;
  const lines = [
    t("Total: {total}", { total: number(game.total) }),
    t("Points lost per decision: {loss} (lower is better)", { loss: number(game.skill, 2) }),
  ];
  if (board && board.optimal !== null) lines.push(t("The optimal player scored {total} on the same dice.", { total: number(board.optimal) }));
  if (!game.official) lines.push(t("Unofficial: played as a guest."));
  if (days && days.streak) lines.push(t("Days in a row: {n}", { n: number(days.streak) }));
  $("#result-lines").innerHTML = lines.map((l) => `<li>${esc(l)}</li>`).join("");
  $("#share-text").textContent = shareText();
}

function renderRanking() {
  if (!board) return;
  $("#ranking-note").textContent =
    board.optimal !== null
      ? t("Signed-in players who finished, by points lost per decision. The optimal player scored {total} on these dice.", { total: number(board.optimal) })
      : t("Signed-in players who finished, by points lost per decision.");
  $("#ranking").innerHTML =
    board.players
      .map(
        (p) =>
          `<tr${p.you ? ' class="you"' : ""}><td class="num">${p.rank}</td><td><a href="@/${encodeURIComponent(p.name)}">${nameHtml(p.name).html}</a></td>` +
          `<td class="num">${esc(number(p.skill, 2))}</td><td class="num">${esc(number(p.total))}</td></tr>`,
      )
      .join("") || `<tr><td colspan="4" class="muted">${esc(t("Nobody has finished today's game yet."))}</td></tr>`;
}

function renderFair() {
  if (!days) return;
  const rows = [
    [t("Today's commitment"), days.today.commitment],
    [t("Tomorrow's commitment"), days.tomorrow.commitment],
    [t("Yesterday's seed"), days.yesterday.seed],
  ];
  $("#fair").innerHTML = rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join("");
  $("#fair-how").textContent = t(
    "Each day's commitment is published before the day starts and its seed after it ends. Download a daily game once its day is over and check it:",
  );
  $("#verify-command").textContent = `yacht verify GAME.json --commitment ${days.yesterday.commitment}`;
  const link = $("#yesterday-game");
  link.hidden = !days.yesterday_game;
  if (days.yesterday_game) {
    link.href = `api/daily/games/${days.yesterday_game}/file`;
    link.download = `yacht-daily-${days.yesterday.day}.json`;
  }
}

function render() {
  applyStatic();
  renderIntro();
  renderGame();
  renderResult();
  renderRanking();
  renderFair();
}

async function loadBoard() {
  board = await call(`api/daily/ranking?preset=${encodeURIComponent(preset)}`);
}

async function load() {
  days = await call(`api/daily?preset=${encodeURIComponent(preset)}`);
  game = days.mine;
  started = game !== null;
  held = new Set(game && game.held ? game.held : []);
  await loadBoard();
  render();
}

async function act(action) {
  if (busy || !game) return;
  busy = true;
  try {
    game = await call(`api/daily/games/${game.id}/action`, { method: "POST", body: { action, version: game.version } });
    showError(null);
  } catch (error) {
    showError(error);
    days = await call(`api/daily?preset=${encodeURIComponent(preset)}`);
    game = days.mine;
  } finally {
    busy = false;
  }
  return game;
}

async function roll() {
  const want = [...held].sort();
  if (game.dice && want.join(" ") !== [...game.held].sort().join(" ")) {
    if (!(await act(`hold ${want.join(" ")}`.trim()))) return;
  }
  await act("roll");
  held = new Set(game.held);
  render();
}

async function score(category) {
  await act(`score ${category}`);
  held = new Set();
  if (game.status === "finished") {
    days = await call(`api/daily?preset=${encodeURIComponent(preset)}`);
    await loadBoard();
  }
  render();
}

async function main() {
  await setupLanguages($("#lang"), render);
  me = await signedIn();
  presets = await api("api/presets");
  if (!presets.some((p) => p.name === preset)) preset = "traditional";
  await load();
  $("#preset").addEventListener("change", async (event) => {
    preset = event.target.value;
    history.replaceState(null, "", `daily?rules=${encodeURIComponent(preset)}`);
    await load();
  });
  $("#daily-start").addEventListener("click", async () => {
    try {
      game = await call("api/daily", { method: "POST", body: { preset } });
      started = true;
      held = new Set(game.held);
      showError(null);
    } catch (error) {
      showError(error);
    }
    render();
  });
  $("#roll").addEventListener("click", roll);
  $("#dice").addEventListener("click", (event) => {
    const die = event.target.closest("button[data-slot]");
    if (!die || die.disabled) return;
    const slot = Number(die.dataset.slot);
    if (held.has(slot)) held.delete(slot);
    else held.add(slot);
    renderGame();
  });
  $("#sheet").addEventListener("click", (event) => {
    const box = event.target.closest("button[data-score]");
    if (box) score(box.dataset.score);
  });
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.target.closest("input, select, textarea")) return;
    if (!game || game.status === "finished" || $("#daily-board").hidden || busy) return;
    const key = event.key.toLowerCase();
    if (key === " " && event.target.closest("button")) return; // the button's own press
    if (key >= "1" && key <= "5") {
      $("#dice").querySelectorAll("button")[Number(key) - 1].click();
    } else if ((key === "r" || key === " ") && !$("#roll").disabled) {
      event.preventDefault();
      $("#roll").click();
    }
  });
  $("#share").addEventListener("click", async () => {
    const text = shareText();
    try {
      await navigator.clipboard.writeText(text);
      $("#share-done").textContent = t("Copied.");
    } catch {
      $("#share-done").textContent = t("Select the text above and copy it.");
    }
  });
}

main();
