// The table page: seats, live game over a WebSocket, actions, hints, results.
import { followAccount } from "./account.js";
import { api, show, tokens, url, $ } from "./api.js";
import { setupSound } from "./effects.js";
import { contribute, seedFor } from "./fairness-seed.js";
import { categoryLabel, language, setupLanguages, t } from "./i18n.js";
import { errorText } from "./labels.js";
import { S, code, controlling, seatsMine } from "./state.js";
import { startInbox } from "./inbox.js";
import { showLetters } from "./letters.js";
import { closeWarning, coachAnswered, coached, coachForgets, renderCoachSetting, setupCoachSetting, syncCoach } from "./live-coach.js";
import { helloSeats, movedElsewhere } from "./together.js";
import { phone, render, renderHints } from "./view.js";

let socket = null;
let backoff = 400;

// --- connection -----------------------------------------------------------------------------

function connect() {
  const address = new URL(url(`ws/tables/${encodeURIComponent(code)}`));
  address.protocol = address.protocol === "https:" ? "wss:" : "ws:";
  address.searchParams.set("lang", language()); // the rules' reasons for a refusal in it
  socket = new WebSocket(address);
  socket.addEventListener("open", () => {
    backoff = 400;
    setConnection(true);
    hello();
  });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => {
    setConnection(false);
    S.waiting = null;
    S.hintAsked = null; // its answer went with the socket
    coachForgets();
    clearQueue();
    if (event.code === 4404) showMissing();
    else setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 8000);
  });
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(message));
    return true;
  }
  toast(t("Reconnecting…"));
  return false;
}

function hello() {
  const seats = helloSeats();
  const name = localStorage.getItem("yacht:name"); // a watcher is shown by the name they gave
  send({ type: "hello", seats, ...(seats.length || !name ? {} : { name }) });
}

let online = false;
// What the server said it lacks (its `notice` messages): a lost database refuses moves, a lost
// Redis delays the moves made through the server's other processes. A new socket starts clean:
// the server repeats whatever is still missing.
const lacking = { database: false, redis: false };

function setConnection(live) {
  online = live;
  if (live) lacking.database = lacking.redis = false;
  showConnection();
}

function showConnection() {
  const el = $("#conn");
  let text = online ? t("Live") : t("Reconnecting…");
  if (lacking.database) text = t("The server lost its database, retrying…");
  else if (online && lacking.redis) text = t("Live; moves from other players are delayed");
  el.textContent = text;
  el.className = `conn ${online && !lacking.database ? "online" : "offline"}`;
}

function receive(message) {
  if (message.type === "state") {
    if (S.table && message.table.revision < S.table.revision) return;
    const before = S.table;
    S.table = message.table;
    const g = S.table.game;
    if (!before || before.game.version !== g.version || before.game.number !== g.number) {
      S.waiting = null;
      if (S.hint && (S.hint.version !== g.version || before?.game.number !== g.number)) S.hint = null;
      if (S.hintAsked && (S.hintAsked.version !== g.version || S.hintAsked.number !== g.number)) {
        // The hint on its way is for a position that has moved on: ask for this one instead.
        S.hintAsked = null;
        if (controlling() !== null && g.dice) askHint();
      }
    }
    if (S.waiting === null) sentHeld = null;
    if (zeroAsked && (!before || before.game.version !== g.version)) closeZero(); // moved on
    if (before && before.game.version !== g.version && $("#coach-warning").open) closeWarning(false, () => {});
    render(before);
    renderCoachSetting();
    showLetters(before);
    flushQueue();
    contribute(S.table, S.mine, send);
    syncCoach();
  } else if (message.type === "welcome") {
    tokens.keep(code, [...message.seats, ...S.elsewhere]); // played elsewhere, still ours
    S.mine = tokens.get(code);
    if (S.table) render(S.table);
  } else if (message.type === "hint") {
    if (S.hintAsked?.ref === message.ref) S.hintAsked = null;
    // An answer for a position that has moved on is dropped (the new one's is on its way).
    if (S.table && message.version === S.table.game.version) S.hint = message;
    renderHints();
    keepCardInView();
  } else if (message.type === "coach") {
    coachAnswered(message, toast, errorText);
  } else if (message.type === "elsewhere") {
    movedElsewhere(message);
    if (S.table) render(S.table);
  } else if (message.type === "notice") {
    lacking[message.kind] = !message.ok;
    showConnection();
  } else if (message.type === "error") {
    if (coachAnswered(message, toast, errorText)) return;
    if (S.hintAsked?.ref === message.ref) S.hintAsked = null;
    S.waiting = null;
    clearQueue();
    showError(message, handRefused(message));
    if (S.table) render(S.table);
  }
}

function showError(error, why = "") {
  toast(why ? `${errorText(error)} ${why}` : errorText(error));
  if (error.code === "not_found") showMissing();
}

// No S.table has this code: say so, point to the lobby, and stop trying to connect.
function showMissing() {
  S.missing = true;
  show($("#missing"), true);
  for (const id of ["#join", "#invite", "#results", "#play", "#side", "#conn"]) show($(id), false);
  $("#turn").textContent = "";
  document.title = `${t("Yacht")} · ${t("No such table")}`;
  $("#table-title").textContent = t("Yacht");
}

let toastHandle = null;
function toast(text) {
  const el = $("#toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastHandle);
  toastHandle = setTimeout(() => (el.hidden = true), 4000);
}

// --- actions --------------------------------------------------------------------------------

function act(action) {
  const seat = controlling();
  if (seat === null || S.waiting !== null) return;
  const g = S.table.game;
  const message = { type: "action", seat, token: S.mine[seat], game: g.number, version: g.version, action };
  if (send(message)) {
    S.waiting = g.version;
    sentHeld = action.kind === "hold" ? action.positions : null;
    render(S.table);
  }
}

// Keys pressed while an action is on its way are queued, not dropped: the holds asked for and
// a roll are sent, in that order, once the server has answered.
let queuedHeld = null;
let queuedRoll = false;
let sentHeld = null; // the held dice of a hold on its way

function clearQueue() {
  queuedHeld = null;
  queuedRoll = false;
  sentHeld = null;
}

function flushQueue() {
  if (S.waiting !== null || !S.table) return;
  const g = S.table.game;
  if (queuedHeld !== null) {
    const want = [...queuedHeld].sort();
    queuedHeld = null;
    if (g.dice && g.rolls_left > 0 && want.join() !== [...g.held].sort().join()) {
      act({ kind: "hold", positions: want });
      return;
    }
  }
  if (queuedRoll) {
    queuedRoll = false;
    roll();
  }
}

function roll() {
  const g = S.table?.game;
  if (!g || g.rolls_left === 0 || controlling() === null) return;
  if (S.waiting !== null) queuedRoll = true;
  else coached({ kind: "roll" }, () => act({ kind: "roll" }));
}

function toggle(position) {
  const g = S.table?.game;
  if (!g || !g.dice || g.rolls_left === 0 || controlling() === null) return;
  const held = new Set(queuedHeld ?? sentHeld ?? g.held);
  if (held.has(position)) held.delete(position);
  else held.add(position);
  if (S.waiting !== null) queuedHeld = held;
  else act({ kind: "hold", positions: [...held].sort() });
}

// A zero is written only when asked twice, as the terminal game asks "Score 0?": one slip of
// the finger would otherwise spend a box for the rest of the game.
let zeroAsked = null;

// With the live coach on, a costly score asks first; then a zero asks too.
function score(category) {
  if (S.waiting === null) coached({ kind: "score", category }, () => scoreChecked(category));
}

function scoreChecked(category) {
  const g = S.table?.game;
  if (g && g.potentials?.[category] === 0 && controlling() !== null) {
    zeroAsked = category;
    $("#zero-text").textContent = t("Score 0 in {category}? The box is then used up.", {
      category: categoryLabel(category),
    });
    $("#zero-yes").textContent = t("Score 0");
    $("#zero").showModal();
    return;
  }
  act({ kind: "score", category });
}

function closeZero(confirmed = false) {
  const category = zeroAsked;
  zeroAsked = null;
  if ($("#zero").open) $("#zero").close();
  if (confirmed && category) act({ kind: "score", category });
}

function closeHints() {
  S.hint = null;
  renderHints();
  keepCardInView();
  $("#hint").focus();
}

// On a phone the hints come up as a sheet over the bottom of the screen: the page grows by its
// height and scrolls so that the last boxes of the card show above it, none hidden under it.
function keepCardInView() {
  const sheet = $("#hints");
  const over = !sheet.hidden && getComputedStyle(sheet).position === "fixed";
  if (!over) {
    document.body.style.removeProperty("--hints-height");
    return;
  }
  const top = sheet.getBoundingClientRect().top;
  document.body.style.setProperty("--hints-height", `${Math.ceil(innerHeight - top)}px`);
  const boxes = [...document.querySelectorAll("#card .box")];
  const lowest = Math.max(...boxes.map((b) => b.getBoundingClientRect().bottom));
  if (boxes.length && lowest > top - 6) window.scrollBy({ top: lowest - top + 6, behavior: "instant" });
}

let hints = 0; // numbers the hints asked, so an answer or error finds its question

function askHint() {
  const seat = controlling();
  const g = S.table?.game;
  if (seat === null || !g.dice) return;
  if (S.hintAsked?.number === g.number && S.hintAsked.version === g.version) return; // on its way
  const ref = `hint-${++hints}`;
  if (send({ type: "hint", seat, token: S.mine[seat], ref })) {
    S.hintAsked = { number: g.number, version: g.version, ref };
    renderHints();
  }
}

async function join(seat) {
  const input = $("#join-name");
  const name = input.value.trim();
  if (!name) {
    input.focus();
    toast(t("Type your name first."));
    return;
  }
  try {
    const seed = seedFor(code, S.table.game.number, S.table.game.commitment); // fair dice rule 2
    const joined = await api(`api/tables/${code}/join`, { method: "POST", body: { seat, name, seed } });
    tokens.set(code, joined.seat, joined.token);
    localStorage.setItem("yacht:name", name);
    S.mine = tokens.get(code);
    input.value = "";
    hello();
    receive({ type: "state", table: joined.table });
  } catch (error) {
    showError(error);
  }
}

// Handing another player's seat to a bot is refused until the game has waited on them long
// enough: the refusal says why in every language (in English the server's own words do).
let handAsked = 0;

function handRefused(error) {
  const asked = handAsked;
  handAsked = 0;
  if (!asked || Date.now() - asked > 10_000 || error.code !== "illegal" || error.detail) return "";
  if (language() === "en" && error.message) return "";
  return t("A bot may take an away player's seat once the game has waited on them for a minute, or when their turn clock runs out.");
}

function handToBot(seat) {
  const by = seatsMine().has(seat) ? seat : [...seatsMine()][0];
  if (by === undefined) return;
  if (seat === by && !confirm(t("Leave this seat? A bot will play it from now on."))) return;
  const message = { type: "hand_to_bot", seat, by, token: S.mine[by] };
  const level = document.querySelector(`[data-level-for="${seat}"]`)?.value;
  if (level) message.bot = level; // only a player leaving picks the level
  if (send(message) && seat !== by) handAsked = Date.now();
}

// Back from the bot: the seat is ours to play again, and this connection counts us present.
function takeBack(seat) {
  if (!S.mine[seat]) return;
  if (send({ type: "take_back", seat, token: S.mine[seat] })) hello();
}

// --- wiring ---------------------------------------------------------------------------------

document.addEventListener("click", (event) => {
  const target = event.target.closest("button");
  if (!target || target.disabled) return;
  if (target.dataset.pos) toggle(Number(target.dataset.pos));
  else if (target.dataset.category) score(target.dataset.category);
  else if (target.dataset.join) join(Number(target.dataset.join));
  else if (target.dataset.hand) handToBot(Number(target.dataset.hand));
  else if (target.dataset.takeBack) takeBack(Number(target.dataset.takeBack));
  else if (target.id === "roll" && S.waiting === null) roll(); // a double click rolls once
  else if (target.id === "hint") askHint();
  else if (target.id === "hints-close") closeHints();
  else if (target.id === "zero-yes") closeZero(true);
  else if (target.id === "zero-no") closeZero();
  else if (target.id === "coach-go") closeWarning(true, toast);
  else if (target.id === "coach-back") closeWarning(false, toast);
  else if (target.id === "copy-link") {
    navigator.clipboard?.writeText($("#invite-link").value).then(() => toast(t("Link copied.")));
  }
});

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || $("#zero").open || $("#coach-warning").open) return;
  if (event.key === "Escape" && S.hint) {
    closeHints();
    return;
  }
  if (event.target.closest("input, select, textarea")) return;
  if (/^[1-5]$/.test(event.key)) {
    toggle(Number(event.key));
    event.preventDefault();
  } else if ((event.key === "h" || event.key === "H") && !$("#hint").hidden) {
    askHint();
    event.preventDefault();
  } else if (event.key === "r" || event.key === "R" || (event.key === " " && !event.target.closest("button"))) {
    roll();
    event.preventDefault();
  }
});

async function main() {
  S.send = send;
  const drawSound = setupSound($("#sound"));
  await setupLanguages($("#lang"), () => {
    showConnection();
    drawSound();
    render(S.table);
    renderCoachSetting();
  });
  drawSound();
  phone.addEventListener("change", () => render(S.table));
  $("#zero").addEventListener("close", () => (zeroAsked = null));
  $("#coach-warning").addEventListener("cancel", (event) => {
    event.preventDefault(); // Esc takes the move back, as the button does
    closeWarning(false, toast);
  });
  setupCoachSetting(() => {
    renderCoachSetting();
    syncCoach();
  });
  api("api/bots").then((levels) => (S.botLevels = levels)).catch(() => {});
  if (!code) {
    location.href = url("./");
    return;
  }
  $("#code-chip").textContent = code;
  await followAccount(code); // signed in: the account's seats here, taken on any device
  S.mine = tokens.get(code);
  connect();
  startInbox();
}

main();
