// The page that plays on this device (/play, docs/web/offline.md): 1-6 players, people taking
// turns on one device and bots, a game saved in IndexedDB after every move and taken up again
// when the page opens; hints and the review from the solver in the browser. It registers the
// app's service worker and offers a new version only between games.
import { ACCOUNT, api, esc, setCsrf } from "./api.js";
import { dieSvg, smallDice } from "./dice.js";
import { applyStatic, categoryLabel, number, setupLanguages, t, tn } from "./i18n.js";
import { levelLabel, playerName, presetLabel, seatName } from "./labels.js";
import { nameHtml, tnHtml } from "./markup.js";
import * as game from "./offline-game.js";
import { refreshOutlook, setupOutlook } from "./play-outlook.js";
import { loadIndex, loadSolver } from "./solver.js";

const DB = "yacht-offline";
const STORE = "games";
// A bot is named as the server names it ("Hard bot"), and shown in the reader's language.
const botName = (kind) => `${kind[0].toUpperCase()}${kind.slice(1)} bot`;
const $ = (id) => document.getElementById(id);

let index = null;
let solver = null;
let current = null;
let busy = false;
let waiting = null; // a new service worker, ready once no game is in progress

// --- IndexedDB: one store of games, keyed by id -------------------------------------------
function openDb() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "id" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function transact(mode, work) {
  const db = await openDb();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const request = work(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request?.result);
      tx.onerror = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

const save = (g) => transact("readwrite", (store) => store.put(g));
const allGames = () => transact("readonly", (store) => store.getAll());

// --- the solver of the game's preset ------------------------------------------------------
async function solverFor(preset) {
  if (!solver || solver.name !== preset) solver = await loadSolver(preset, undefined, index);
  return solver;
}

// --- setup ----------------------------------------------------------------------------------
function seatRow(i, kind) {
  const kinds = game.KINDS.map((k) => {
    const label = k === "human" ? t("a person") : t("bot: {level}", { level: levelLabel(k) });
    return `<option value="${k}"${k === kind ? " selected" : ""}>${esc(label)}</option>`;
  }).join("");
  const name = esc(seatName({ seat: i }));
  return (
    `<li class="seat-spec"><label class="field inline"><span>${name}</span>` +
    `<select data-seat="${i}">${kinds}</select></label></li>`
  );
}

function renderSeats() {
  const n = Number($("seat-count").value);
  const kinds = [...document.querySelectorAll("#seats select")].map((s) => s.value);
  $("seats").innerHTML = Array.from({ length: n }, (_, i) => seatRow(i, kinds[i] ?? (i === 0 ? "human" : "optimal"))).join("");
}

function renderPresets() {
  const chosen = $("preset").value || "traditional";
  $("preset").innerHTML = index.presets
    .map((p) => `<option value="${esc(p.name)}"${p.name === chosen ? " selected" : ""}>${esc(presetLabel(p.name))}</option>`)
    .join("");
}

async function start(event) {
  event.preventDefault();
  const kinds = [...document.querySelectorAll("#seats select")].map((s) => s.value);
  // A person is named by the seat, a bot as the server names it ("Optimal bot 3" when two
  // play); both are shown in the reader's language.
  const players = kinds.map((kind, i) => {
    if (kind === "human") return { name: "", kind };
    const twice = kinds.filter((k) => k === kind).length > 1;
    return { name: twice ? `${botName(kind)} ${i + 1}` : botName(kind), kind };
  });
  $("setup-error").hidden = true;
  try {
    await solverFor($("preset").value);
  } catch {
    // a preset whose tables were never fetched online (clubhouse's are 2 MiB, not precached)
    $("setup-error").textContent = t("These rules are not on this device yet: play them once with the network on.");
    $("setup-error").hidden = false;
    return;
  }
  current = game.newGame($("preset").value, players, localStorage.getItem(ACCOUNT));
  await save(current);
  render();
  await advance();
}

// --- the game -------------------------------------------------------------------------------
function name(seat) {
  const player = current.players[seat];
  return player.kind === "human" ? seatName({ seat }) : playerName(player.name);
}

function renderDice() {
  const g = current;
  const canHold = g.dice && g.rollsUsed < 3 && !game.isBotTurn(g) && !g.finished;
  $("dice").innerHTML = [0, 1, 2, 3, 4]
    .map((i) => {
      const face = g.dice ? g.dice[i] : 0;
      const held = g.dice && g.held[i];
      const label = face ? t("Die {n}: {face}", { n: i + 1, face }) + (held ? `, ${t("held")}` : "") : t("Die {n}: not rolled yet", { n: i + 1 });
      return (
        `<button type="button" class="die${held ? " held" : ""}" data-slot="${i}" aria-pressed="${held ? "true" : "false"}"` +
        `${canHold ? "" : " disabled"} aria-label="${esc(label)}">${dieSvg(face)}</button>`
      );
    })
    .join("");
}

function optionText(option) {
  if (option.action === "keep") return option.keep.length ? t("keep {dice}", { dice: option.keep.join(" ") }) : t("reroll all");
  return t("Score {points} in {category}", { points: option.points, category: categoryLabel(option.category) });
}

function banked(seat) {
  return game.total(solver, current.sheets[seat]);
}

function renderHints() {
  const ranked = game.options(solver, current);
  if (!ranked) return;
  const base = banked(current.player);
  const rows = ranked.options
    .slice(0, 3)
    .map((o) => `<li><span>${esc(optionText(o))}</span> <strong>${esc(number(base + o.expected, 1))}</strong></li>`)
    .join("");
  $("hints").innerHTML = `<h2>${esc(t("Best options (expected final total)"))}</h2><ol class="hint-list">${rows}</ol>`;
  $("hints").hidden = false;
}

function renderSheet() {
  const g = current;
  const mine = !g.finished && !game.isBotTurn(g) && g.dice ? game.possible(solver, g) : {};
  const head = g.players.map((_, i) => `<th scope="col"${i === g.player && !g.finished ? ' class="now"' : ""}>${nameHtml(name(i))}</th>`).join("");
  const rows = solver.categories.map((c) => {
    const cells = g.players.map((_, seat) => {
      const value = g.sheets[seat][c];
      if (value !== undefined) return `<td>${value}</td>`;
      if (seat === g.player && c in mine) {
        const label = t("Score {points} in {category}", { points: mine[c], category: categoryLabel(c) });
        return `<td><button type="button" class="box" data-category="${c}"${busy ? " disabled" : ""} aria-label="${esc(label)}">${mine[c]}</button></td>`;
      }
      return "<td></td>";
    });
    return `<tr><th scope="row">${esc(categoryLabel(c))}</th>${cells.join("")}</tr>`;
  });
  const line = (label, value) => `<tr class="sum"><th scope="row">${esc(label)}</th>${g.players.map((_, s) => `<td>${value(s)}</td>`).join("")}</tr>`;
  if (solver.hasBonus) {
    rows.splice(6, 0, line(t("Upper total"), (s) => game.upperTotal(solver, g.sheets[s])), line(t("Bonus"), (s) => game.bonusOf(solver, g.sheets[s])));
  }
  rows.push(line(t("Total"), (s) => banked(s)));
  $("sheet").classList.toggle("fit", g.players.length <= 3);
  $("sheet").innerHTML = `<thead><tr><th scope="col">${esc(t("Category"))}</th>${head}</tr></thead><tbody>${rows.join("")}</tbody>`;
}

function winnerHtml() {
  const totals = game.totals(solver, current);
  const won = game.winners(solver, current);
  const points = totals[won[0]];
  if (won.length === 1) return tnHtml("{name} wins with {n} point!", "{name} wins with {n} points!", points, { name: nameHtml(name(won[0])) });
  return tnHtml("Shared win: {names} with {n} point each!", "Shared win: {names} with {n} points each!", points, {
    names: won.map((w) => nameHtml(name(w))).join(" & "),
  });
}

function decisionHtml(d) {
  return (
    `<li><strong>${esc(t("Turn {turn}: lost {loss}", { turn: d.turn, loss: number(d.loss, 2) }))}</strong><br>` +
    `${smallDice(d.dice)} <span class="muted">${esc(t("Roll {n} of 3", { n: d.roll }))}</span><br>` +
    `${esc(t("{name} took: {option}", { name: name(d.seat), option: optionText(d.taken) }))}; ` +
    `${esc(t("Best: {option}", { option: optionText(d.best) }))}</li>`
  );
}

// Per player the points lost to the solver's choices: the three biggest losses, and every
// decision that lost points under a disclosure.
function renderReview() {
  const lost = game.losses(current);
  const blocks = current.players.map((_, seat) => {
    const mine = current.decisions.filter((d) => d.seat === seat && d.loss > 0.005);
    const biggest = [...mine].sort((a, b) => b.loss - a.loss).slice(0, 3);
    const summary = mine.length ? t("Points lost: {loss}", { loss: number(lost[seat], 2) }) : t("The best play.");
    const every = mine.length > biggest.length
      ? `<details><summary>${esc(t("Every decision"))}</summary><ol class="decisions">${mine.map(decisionHtml).join("")}</ol></details>`
      : "";
    const top = biggest.length ? `<ol class="decisions">${biggest.map(decisionHtml).join("")}</ol>` : "";
    return `<section class="review-seat"><h3>${nameHtml(name(seat))}</h3><p>${esc(summary)}</p>${top}${every}</section>`;
  });
  $("winner").innerHTML = winnerHtml();
  $("review").innerHTML = blocks.join("");
}

function renderStatus() {
  const g = current;
  if (g.finished) {
    $("status").textContent = t("Game over");
    $("round").textContent = "";
    return;
  }
  const who = name(g.player);
  const people = g.players.filter((p) => p.kind === "human").length;
  let status;
  if (game.isBotTurn(g)) status = t("{name} (bot) is playing", { name: who });
  else status = people > 1 ? t("Your turn, {name}", { name: who }) : t("Your turn");
  $("status").textContent = status;
  const round = t("Round {round} of {rounds}", { round: g.round + 1, rounds: game.ROUNDS });
  const step = !g.dice ? t("roll the dice") : g.rollsUsed < 3 ? t("hold dice and roll again, or pick a category") : t("pick a category");
  $("round").textContent = `${round} · ${g.dice ? t("Roll {n} of 3", { n: g.rollsUsed }) + " · " : ""}${step}`;
}

function render() {
  const playing = current && !current.finished;
  $("setup").hidden = Boolean(current);
  $("game").hidden = !current;
  $("sheet-card").hidden = !current;
  $("results").hidden = !(current && current.finished);
  if (!current) return;
  renderStatus();
  $("dice").hidden = current.finished;
  $("actions").hidden = current.finished;
  renderDice();
  const mine = playing && !game.isBotTurn(current);
  $("roll").disabled = !mine || busy || current.rollsUsed >= 3 || (current.dice && current.held.every(Boolean));
  $("roll").textContent = current.dice ? t("Roll again") : t("Roll");
  $("hint").disabled = !mine || busy || !current.dice;
  if ($("hints").hidden === false && (!mine || !current.dice)) $("hints").hidden = true;
  renderSheet();
  if (current.finished) renderReview();
  $("outlook").hidden = !playing;
  refreshOutlook();
  renderSyncNote();
  offerUpdate();
}

// The person to move, for the outlook's worker (play-outlook.js); on a bot's turn the outlook
// keeps what it showed.
function outlookPosition() {
  if (!current || current.finished || !solver || game.isBotTurn(current)) return null;
  const sheet = current.sheets[current.player];
  return {
    index,
    preset: current.preset,
    seat: current.player,
    values: solver.values,
    used: solver.categories.reduce((mask, c, i) => (c in sheet ? mask | (1 << i) : mask), 0),
    upper: solver.hasBonus ? game.upperTotal(solver, sheet) : 0,
    dice: current.dice ? [...current.dice] : null,
    rollsLeft: game.rollsLeft(current),
    banked: banked(current.player),
  };
}

// A move by a person, then the bots' moves until it is a person's turn or the game is over.
async function act(move) {
  if (busy || !current || current.finished) return;
  busy = true;
  try {
    $("hints").hidden = true;
    render(); // the controls are off until the move is made and saved: no double taps
    await move();
    await save(current);
  } finally {
    busy = false;
  }
  render();
  await advance();
  if (current?.finished) sync();
}

function botDelay() {
  const given = Number(localStorage.getItem("yacht:bot-delay"));
  return Number.isFinite(given) && localStorage.getItem("yacht:bot-delay") !== null ? given : 350;
}

// A bot's moves are drawn at most once a frame: moves made between two frames draw once.
let drawing = false;
function drawSoon() {
  if (drawing) return;
  drawing = true;
  requestAnimationFrame(() => {
    drawing = false;
    render();
  });
}

async function advance() {
  if (busy) return;
  busy = true;
  try {
    while (current && game.isBotTurn(current)) {
      await new Promise((resolve) => setTimeout(resolve, botDelay()));
      await game.botMove(solver, current);
      await save(current);
      drawSoon();
    }
  } finally {
    busy = false;
  }
  render();
}

// --- sync: finished games into the signed-in player's history ---------------------------------
// A game goes to the account signed in on this device when it started, once the network is back
// and that account is signed in here; the server replays it and stores it once however often it
// is sent (the page's id for the game), so a reload mid-send stores nothing twice. Each request
// stays under the server's 64 KiB body limit and its 10 games.
const BATCH_BYTES = 60000;
const BATCH_GAMES = 10;
let syncing = false;

function batches(records) {
  const out = [];
  let batch = [];
  let bytes = 0;
  for (const record of records) {
    const size = JSON.stringify(record).length;
    if (batch.length && (bytes + size > BATCH_BYTES || batch.length === BATCH_GAMES)) {
      out.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(record);
    bytes += size;
  }
  if (batch.length) out.push(batch);
  return out;
}

async function sync() {
  if (syncing || !navigator.onLine) return;
  syncing = true;
  try {
    const waiting = (await allGames()).filter((g) => g.finished && g.account && !g.synced && !g.refused);
    if (!waiting.length) return;
    let me;
    try {
      me = await api("api/me");
    } catch {
      return; // no network after all, or not signed in: the games wait
    }
    setCsrf(me.csrf_token);
    const records = [];
    for (const g of waiting.filter((g) => g.account === me.name)) {
      const rules = { preset: index.presets.find((p) => p.name === g.preset), categories: index.categories };
      const record = rules.preset ? game.syncRecord(rules, g) : null;
      if (record) records.push({ game: g, record });
    }
    let stored = 0;
    for (const batch of batches(records.map((r) => r.record))) {
      let answer;
      try {
        answer = await api("api/me/offline-games", { method: "POST", body: { games: batch } });
      } catch {
        return; // offline again, signed out, or too many sends: the games wait for the next try
      }
      for (const result of answer.games) {
        const g = records.find((r) => r.game.id === result.id).game;
        if (result.status === "refused") g.refused = result.reason;
        else g.synced = result.record;
        if (result.status === "stored") stored += 1;
        await save(g);
        if (current && current.id === g.id) current = g;
      }
    }
    if (stored) {
      $("sync-status").textContent = tn("{n} game played offline is now in your profile.", "{n} games played offline are now in your profile.", stored);
      $("sync-status").hidden = false;
    }
    render();
  } finally {
    syncing = false;
  }
}

function renderSyncNote() {
  const g = current;
  const note = $("sync-note");
  note.hidden = !(g && g.finished && g.account);
  if (note.hidden) return;
  note.textContent = g.synced
    ? t("This game is in your profile as played offline: not rated, and not counted in your figures.")
    : t("This game goes to your profile when the network is back, as played offline: not rated, and not counted in your figures.");
}

// --- the new version, offered between games -------------------------------------------------
function offerUpdate() {
  if (!waiting) return;
  const between = !current || current.finished;
  $("update").hidden = false;
  $("update-text").textContent = between ? t("A new version is ready.") : t("A new version is ready: it loads after this game.");
  $("update-now").hidden = !between;
}

async function registerWorker() {
  if (!("serviceWorker" in navigator)) return;
  const registration = await navigator.serviceWorker.register(new URL("sw.js", document.baseURI));
  const found = (worker) => {
    if (!worker) return;
    const ready = () => {
      if (worker.state === "installed" && navigator.serviceWorker.controller) {
        waiting = worker;
        offerUpdate();
      }
    };
    worker.addEventListener("statechange", ready);
    ready();
  };
  found(registration.waiting);
  registration.addEventListener("updatefound", () => found(registration.installing));
  let reloading = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (reloading || !waiting) return;
    reloading = true;
    location.reload();
  });
}

// Every action has a key, as at a table: 1-5 hold a die, R or Space rolls, H asks for a hint,
// Esc closes it.
function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || event.target.closest("input, select, textarea")) return;
  if (!current || current.finished || game.isBotTurn(current) || busy) return;
  const key = event.key.toLowerCase();
  if (key === " " && event.target.closest("button")) return; // the button's own press
  if (key >= "1" && key <= "5") {
    $("dice").querySelectorAll("button")[Number(key) - 1].click();
  } else if ((key === "r" || key === " ") && !$("roll").disabled) {
    event.preventDefault();
    $("roll").click();
  } else if (key === "h" && !$("hint").disabled) {
    renderHints();
  } else if (key === "escape") {
    $("hints").hidden = true;
  }
}

// --- wiring -----------------------------------------------------------------------------------
async function main() {
  await setupLanguages($("lang"), () => {
    if (index) renderPresets();
    renderSeats();
    render();
  });
  index = await loadIndex();
  renderPresets();
  renderSeats();
  const games = (await allGames()).sort((a, b) => b.updated - a.updated);
  current = games[0] ?? null;
  if (current) await solverFor(current.preset);
  setupOutlook(outlookPosition);
  $("seat-count").addEventListener("change", renderSeats);
  $("new-game").addEventListener("submit", start);
  $("roll").addEventListener("click", () => act(() => game.roll(solver, current)));
  $("hint").addEventListener("click", renderHints);
  $("dice").addEventListener("click", (event) => {
    const die = event.target.closest("button[data-slot]");
    if (!die || busy) return;
    game.toggle(current, Number(die.dataset.slot));
    save(current);
    render();
  });
  $("sheet").addEventListener("click", (event) => {
    const box = event.target.closest("button[data-category]");
    if (box) act(() => game.score(solver, current, box.dataset.category));
  });
  $("again").addEventListener("click", () => {
    current = null;
    $("update").hidden = true;
    render();
    $("setup").hidden = false;
  });
  $("update-now").addEventListener("click", () => waiting?.postMessage("skip-waiting"));
  document.addEventListener("keydown", onKey);
  // The browser's own install offer, as a button of the page (Chromium's beforeinstallprompt).
  let offer = null;
  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault();
    offer = event;
    $("install").hidden = false;
  });
  $("install").addEventListener("click", async () => {
    $("install").hidden = true;
    await offer?.prompt();
    offer = null;
  });
  applyStatic();
  render();
  if (!current) $("setup").hidden = false;
  document.body.dataset.ready = "true";
  registerWorker().catch(() => {}); // no worker (a private window): the page still plays
  window.addEventListener("online", () => sync());
  sync();
  await advance();
  if (current?.finished) sync();
}

main();
