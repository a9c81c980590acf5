// The table page: seats, live game over a WebSocket, actions, hints, results.
import { api, esc, setHtml, show, tokens, $ } from "./api.js";
import { dieSvg, smallDice } from "./dice.js";
import { categoryLabel, setupLanguages, t } from "./i18n.js";
import { renderFair, renderResults } from "./results.js";
import { eventText, sheetHtml } from "./sheet.js";

const code = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "").toUpperCase();
const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)").matches;
let table = null;
let mine = tokens.get(code); // {seat: token} held by this browser
let socket = null;
let backoff = 400;
let waiting = null; // the version an action was sent on, until the answer comes
let hint = null;
let shownRoll = -1;
let botLevels = ["random", "greedy", "easy", "medium", "hard", "optimal"];
let timerHandle = null;
let drawnRoll = null; // the dice markup on screen (the tumble changes faces under it)

const ERRORS = {
  stale_version: () => t("The game had moved on; your view is up to date now."),
  not_your_turn: () => t("It is not your turn."),
  bad_token: () => t("This browser does not hold that seat."),
  spectator: () => t("Spectators watch; take a seat to play."),
  illegal: () => t("Not allowed now."),
  invalid: () => t("That request was not understood."),
  not_started: () => t("The game starts when every seat is taken."),
  game_over: () => t("The game is over."),
  seat_taken: () => t("That seat is taken."),
  hints_off: () => t("This table plays without hints."),
  not_found: () => t("There is no table with this code."),
  busy: () => t("The server is busy; try again."),
};

const seatsMine = () => new Set(Object.keys(mine).map(Number));
const names = () => table.seats.map((s) => s.name || t("Seat {n}", { n: s.seat + 1 }));

function controlling() {
  const g = table?.game;
  if (!g || g.status !== "playing" || g.current === null) return null;
  return mine[g.current] ? g.current : null;
}

// --- connection -----------------------------------------------------------------------------

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(code)}`);
  socket.addEventListener("open", () => {
    backoff = 400;
    setConnection(true);
    hello();
  });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => {
    setConnection(false);
    waiting = null;
    clearQueue();
    if (event.code !== 4404) setTimeout(connect, backoff);
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
  const seats = Object.entries(mine).map(([seat, token]) => ({ seat: Number(seat), token }));
  send({ type: "hello", seats });
}

let online = false;

function setConnection(live) {
  online = live;
  const el = $("#conn");
  el.textContent = online ? t("Live") : t("Reconnecting…");
  el.className = `conn ${online ? "online" : "offline"}`;
}

function receive(message) {
  if (message.type === "state") {
    if (table && message.table.revision < table.revision) return;
    const before = table;
    table = message.table;
    const g = table.game;
    if (!before || before.game.version !== g.version || before.game.number !== g.number) {
      waiting = null;
      if (hint && (hint.version !== g.version || before?.game.number !== g.number)) hint = null;
    }
    if (waiting === null) sentHeld = null;
    render(before);
    flushQueue();
  } else if (message.type === "welcome") {
    tokens.keep(code, message.seats);
    mine = tokens.get(code);
    if (table) render(table);
  } else if (message.type === "hint") {
    hint = message;
    renderHints();
  } else if (message.type === "error") {
    waiting = null;
    clearQueue();
    showError(message);
    if (table) render(table);
  }
}

function showError(error) {
  const text = (ERRORS[error.code] || (() => t("Something went wrong.")))();
  toast(error.code === "illegal" || error.code === "invalid" ? `${text} ${error.message}` : text);
  if (error.code === "not_found") {
    $("#turn").textContent = text;
  }
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
  if (seat === null || waiting !== null) return;
  const g = table.game;
  const message = { type: "action", seat, token: mine[seat], game: g.number, version: g.version, action };
  if (send(message)) {
    waiting = g.version;
    sentHeld = action.kind === "hold" ? action.positions : null;
    render(table);
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
  if (waiting !== null || !table) return;
  const g = table.game;
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
  const g = table?.game;
  if (!g || g.rolls_left === 0 || controlling() === null) return;
  if (waiting !== null) queuedRoll = true;
  else act({ kind: "roll" });
}

function toggle(position) {
  const g = table?.game;
  if (!g || !g.dice || g.rolls_left === 0 || controlling() === null) return;
  const held = new Set(queuedHeld ?? sentHeld ?? g.held);
  if (held.has(position)) held.delete(position);
  else held.add(position);
  if (waiting !== null) queuedHeld = held;
  else act({ kind: "hold", positions: [...held].sort() });
}

function score(category) {
  act({ kind: "score", category });
}

function askHint() {
  const seat = controlling();
  if (seat !== null) send({ type: "hint", seat, token: mine[seat] });
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
    const joined = await api(`/api/tables/${code}/join`, { method: "POST", body: { seat, name } });
    tokens.set(code, joined.seat, joined.token);
    localStorage.setItem("yacht:name", name);
    mine = tokens.get(code);
    input.value = "";
    hello();
    receive({ type: "state", table: joined.table });
  } catch (error) {
    showError(error);
  }
}

function handToBot(seat) {
  const by = seatsMine().has(seat) ? seat : [...seatsMine()][0];
  if (by === undefined) return;
  if (seat === by && !confirm(t("Leave this seat? A bot will play it from now on."))) return;
  const bot = $("#bot-level")?.value || "medium";
  send({ type: "hand_to_bot", seat, bot, by, token: mine[by] });
}

function rematch() {
  const seat = [...seatsMine()][0];
  if (seat !== undefined) send({ type: "rematch", seat, token: mine[seat], game: table.game.number });
}

// --- rendering ------------------------------------------------------------------------------

function render(before) {
  if (!table) return;
  const focused = document.activeElement;
  const focusKey = focused && (focused.id || focused.dataset.key);
  const g = table.game;
  document.title = `${t("Yacht")} · ${table.code}`;
  $("#code-chip").textContent = table.code;
  renderInvite();
  renderJoin();
  renderTurn();
  renderDice(before);
  renderControls();
  renderHints();
  setHtml($("#sheet"), sheetHtml({
    rules: table.rules,
    names: names(),
    sheets: g.sheets,
    totals: g.totals,
    current: g.current,
    potentials: g.potentials,
    canScore: controlling() !== null && waiting === null,
    mine: seatsMine(),
    winners: g.winners,
  }));
  showCurrentColumn();
  renderSeats();
  renderLog();
  renderFair($("#fair"), table);
  const results = $("#results");
  show(results, g.status === "finished");
  show($("#board"), g.status !== "finished");
  if (g.status === "finished") {
    renderResults(results, table, names(), seatsMine(), rematch);
  }
  document.body.classList.toggle("my-turn", controlling() !== null);
  if (focusKey) {
    const again = document.getElementById(focusKey) || document.querySelector(`[data-key="${focusKey}"]`);
    if (again && again !== document.activeElement && !again.disabled) again.focus();
  }
}

// With many players on a narrow screen the sheet scrolls sideways: keep the column of the
// player on turn in view (the category names stay put).
function showCurrentColumn() {
  const box = $("#sheet");
  const th = box.querySelector("thead th.current");
  if (!th || box.scrollWidth <= box.clientWidth) return;
  const fixed = box.querySelector("thead th").offsetWidth;
  const left = th.offsetLeft;
  const right = left + th.offsetWidth;
  if (left < box.scrollLeft + fixed) box.scrollLeft = left - fixed;
  else if (right > box.scrollLeft + box.clientWidth) box.scrollLeft = right - box.clientWidth;
}

function renderInvite() {
  const waitingForPlayers = table.game.status === "waiting";
  const invite = $("#invite");
  const join = $("#join");
  const inviteFirst = seatsMine().size > 0; // seated: ask friends; not yet: take a seat
  if (inviteFirst !== (invite.compareDocumentPosition(join) === Node.DOCUMENT_POSITION_FOLLOWING)) {
    invite.parentNode.insertBefore(inviteFirst ? invite : join, inviteFirst ? join : invite);
  }
  show($("#invite"), waitingForPlayers);
  $("#invite-link").value = `${location.origin}${table.invite_path}`;
  $("#invite-code").textContent = table.code;
}

function renderJoin() {
  const free = table.seats.filter((s) => !s.taken);
  show($("#join"), free.length > 0);
  const seated = seatsMine().size > 0;
  $("#join-title").textContent = seated ? t("Another player on this device?") : t("Take a seat");
  show($("#join-watch"), !seated);
  const input = $("#join-name");
  if (!input.value && localStorage.getItem("yacht:name") && seatsMine().size === 0) {
    input.value = localStorage.getItem("yacht:name");
  }
  setHtml($("#free-seats"), free
    .map(
      (s) =>
        `<li><button type="button" class="primary" data-key="join-${s.seat}" data-join="${s.seat}">` +
        `${esc(t("Join seat {n}", { n: s.seat + 1 }))}</button></li>`,
    )
    .join(""));
}

function renderTurn() {
  const g = table.game;
  const el = $("#turn");
  const allNames = names();
  let text;
  if (g.status === "waiting") {
    text = t("Waiting for players (free seats: {n})", { n: table.seats.filter((s) => !s.taken).length });
  } else if (g.status === "finished") {
    text = t("Game over");
  } else {
    const name = allNames[g.current];
    const round = t("Round {round} of {rounds}", { round: g.round, rounds: g.rounds });
    if (controlling() !== null) {
      const who = seatsMine().size > 1 ? t("Your turn, {name}", { name }) : t("Your turn");
      const what = !g.dice
        ? t("roll the dice")
        : g.rolls_left > 0
          ? t("hold dice and roll again, or pick a category")
          : t("pick a category");
      text = `${round} · ${who}: ${what}`;
    } else if (table.seats[g.current].kind === "bot") {
      text = `${round} · ${t("{name} (bot) is playing", { name })}`;
    } else {
      text = `${round} · ${t("{name}'s turn", { name })}`;
    }
  }
  el.textContent = text;
  el.classList.toggle("mine", controlling() !== null);
  renderTimer();
}

function renderTimer() {
  const el = $("#timer");
  clearInterval(timerHandle);
  const deadline = table.game.status === "playing" ? table.game.deadline : null;
  show(el, deadline !== null);
  if (deadline === null) return;
  const tick = () => {
    const left = Math.max(0, Math.ceil(deadline - Date.now() / 1000));
    el.textContent = t("Time left: {s} s", { s: left });
    el.classList.toggle("urgent", left <= 10);
  };
  tick();
  timerHandle = setInterval(tick, 1000);
}

function lastRoll(g) {
  const last = g.recent[g.recent.length - 1];
  return last && last.action === "roll" ? last.version : -1;
}

function renderDice(before) {
  const g = table.game;
  const can = controlling() !== null && g.dice && g.rolls_left > 0;
  const rolled = lastRoll(g);
  const animate = before && rolled > shownRoll && !reducedMotion;
  shownRoll = Math.max(shownRoll, rolled);
  const box = $("#dice");
  const html = [0, 1, 2, 3, 4]
    .map((i) => {
      const face = g.dice ? g.dice[i] : null;
      const held = g.held.includes(i + 1);
      const label = face
        ? t("Die {n}: {face}", { n: i + 1, face }) + (held ? `, ${t("held")}` : "")
        : t("Die {n}: not rolled yet", { n: i + 1 });
      const rolling = animate && !held ? " rolling" : "";
      return (
        `<button type="button" class="die${held ? " held" : ""}${rolling}" data-key="die-${i + 1}" data-pos="${i + 1}" ` +
        `aria-pressed="${held}" aria-label="${esc(label)}"${can ? "" : " disabled"}>` +
        `${dieSvg(face)}<span class="held-tag" aria-hidden="true">${esc(t("Held"))}</span></button>`
      );
    })
    .join("");
  if (animate) drawnRoll = null; // draw the tumble even if the faces repeat
  if (html === drawnRoll) return;
  drawnRoll = html;
  box.innerHTML = html;
  if (animate) tumble([...box.querySelectorAll(".die.rolling")], g.dice);
}

function tumble(buttons, faces) {
  let steps = 0;
  const timer = setInterval(() => {
    steps += 1;
    for (const button of buttons) {
      const i = Number(button.dataset.pos) - 1;
      const face = steps >= 6 ? faces[i] : 1 + Math.floor(Math.random() * 6);
      button.querySelector("svg").outerHTML = dieSvg(face);
      if (steps >= 6) button.classList.remove("rolling");
    }
    if (steps >= 6) clearInterval(timer);
  }, 70);
}

function renderControls() {
  const g = table.game;
  const seat = controlling();
  const rollButton = $("#roll");
  rollButton.disabled = seat === null || g.rolls_left === 0 || waiting !== null;
  setHtml(rollButton, `<span>${esc(g.dice ? t("Roll again") : t("Roll"))}</span> <kbd>R</kbd>`);
  show(rollButton, seatsMine().size > 0 || g.status === "waiting");
  const rolls = $("#rolls");
  const watching = seatsMine().size === 0 && g.status === "playing";
  const roll = g.status === "playing" && g.dice ? t("Roll {n} of 3", { n: g.rolls_used }) : "";
  rolls.textContent = watching ? [t("You are watching."), roll].filter(Boolean).join(" ") : roll;
  const hintButton = $("#hint");
  show(hintButton, table.hints && seat !== null && !!g.dice);
  hintButton.disabled = waiting !== null;
  show($("#keys"), seat !== null);
}

function optionText(option) {
  if (option.action === "keep") {
    return option.keep.length ? t("Keep {dice} and roll", { dice: option.keep.join(" ") }) : t("Roll all five again");
  }
  return t("Score {points} in {category}", { points: option.points, category: categoryLabel(option.category) });
}

function renderHints() {
  const box = $("#hints");
  const g = table?.game;
  if (!hint || !g || hint.version !== g.version || controlling() === null) {
    setHtml(box, "");
    return;
  }
  // With opponents every option carries its chance of winning (best first by it).
  const win = hint.options.some((o) => typeof o.win_probability === "number");
  const items = hint.options
    .map(
      (o, i) =>
        `<li class="${i === 0 ? "best" : ""}"><span>${esc(optionText(o))}</span>` +
        `<span class="expected" title="${esc(t("expected final total"))}">${o.expected_total.toFixed(1)}</span>` +
        (win
          ? `<span class="chance" title="${esc(t("chance of winning"))}">${(100 * o.win_probability).toFixed(1)}%</span>`
          : "") +
        "</li>",
    )
    .join("");
  const title = win ? t("Best options (chance of winning, expected final total)") : t("Best options (expected final total)");
  const exact = win && hint.exact ? `<p class="exact">${esc(t("The chances are exact: the endgame is solved."))}</p>` : "";
  setHtml(box, `<h3>${esc(title)}</h3><ol>${items}</ol>${exact}`);
}

function renderSeats() {
  const g = table.game;
  const ours = seatsMine();
  const canHand = ours.size > 0 && g.status !== "finished";
  let anyButton = false;
  const items = table.seats.map((s) => {
    const name = s.name || t("Seat {n}", { n: s.seat + 1 });
    const tags = [];
    if (s.kind === "bot") tags.push(t("bot: {level}", { level: s.bot }));
    else if (!s.taken) tags.push(t("free"));
    if (ours.has(s.seat)) tags.push(t("you"));
    const state = s.kind === "bot" ? "bot" : s.connected ? "online" : s.taken ? "away" : "free";
    const stateLabel = { bot: t("bot"), online: t("connected"), away: t("not connected"), free: t("free") }[state];
    let button = "";
    if (canHand && s.kind === "human" && s.taken) {
      if (ours.has(s.seat)) {
        button = `<button type="button" class="link" data-key="hand-${s.seat}" data-hand="${s.seat}">${esc(t("Leave: a bot plays for me"))}</button>`;
      } else if (!s.connected) {
        button = `<button type="button" class="link" data-key="hand-${s.seat}" data-hand="${s.seat}">${esc(t("Hand to a bot"))}</button>`;
      }
    }
    anyButton ||= button !== "";
    const current = g.current === s.seat && g.status === "playing" ? " current" : "";
    return (
      `<li class="seat${current}"><span class="dot ${state}" role="img" aria-label="${esc(stateLabel)}"></span>` +
      `<span class="seat-name">${esc(name)}</span> <span class="tags">${esc(tags.join(" · "))}</span>` +
      `<span class="seat-total">${g.totals[s.seat]}</span>${button}</li>`
    );
  });
  const levels = anyButton
    ? `<label class="field inline"><span>${esc(t("Bot level"))}</span><select id="bot-level">${botLevels
        .map((l) => `<option${l === "medium" ? " selected" : ""}>${esc(l)}</option>`)
        .join("")}</select></label>`
    : "";
  const level = $("#bot-level")?.value;
  if (setHtml($("#seats"), items.join("") + (levels ? `<li class="levels">${levels}</li>` : "")) && level) {
    $("#bot-level").value = level;
  }
}

function renderLog() {
  const g = table.game;
  const allNames = names();
  setHtml($("#log"), g.recent
    .slice()
    .reverse()
    .map((e) => `<li>${esc(eventText(e, allNames))}${e.dice && e.action === "roll" ? smallDice(e.dice) : ""}</li>`)
    .join("") || `<li class="muted">${esc(t("No moves yet."))}</li>`);
}

// --- wiring ---------------------------------------------------------------------------------

document.addEventListener("click", (event) => {
  const target = event.target.closest("button");
  if (!target || target.disabled) return;
  if (target.dataset.pos) toggle(Number(target.dataset.pos));
  else if (target.dataset.category) score(target.dataset.category);
  else if (target.dataset.join) join(Number(target.dataset.join));
  else if (target.dataset.hand) handToBot(Number(target.dataset.hand));
  else if (target.id === "roll") roll();
  else if (target.id === "hint") askHint();
  else if (target.id === "copy-link") {
    navigator.clipboard?.writeText($("#invite-link").value).then(() => toast(t("Link copied.")));
  }
});

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest("input, select, textarea")) return;
  if (/^[1-5]$/.test(event.key)) {
    toggle(Number(event.key));
    event.preventDefault();
  } else if (event.key === "r" || event.key === "R" || (event.key === " " && !event.target.closest("button"))) {
    roll();
    event.preventDefault();
  }
});

async function main() {
  await setupLanguages($("#lang"), () => {
    setConnection(online);
    render(table);
  });
  api("/api/bots").then((levels) => (botLevels = levels)).catch(() => {});
  if (!code) {
    location.href = "/";
    return;
  }
  $("#code-chip").textContent = code;
  connect();
}

main();
