// Drawing the table page from the state: panels, turn, dice, controls, hints, card, sheet,
// seats, log, results; and what a new move makes felt.
import { esc, setHtml, show, url, $ } from "./api.js";
import { cardHtml } from "./card.js";
import { reasonText } from "./coach.js";
import { dieSvg } from "./dice.js";
import { beep, celebrate, markScore } from "./effects.js";
import { categoryLabel, duration, number, percent, t } from "./i18n.js";
import { nameHtml, tHtml } from "./markup.js";
import { logHtml, startHtml, whenMovesLoaded } from "./moves.js";
import { panelsHtml, seatsHtml } from "./panels.js";
import { renderFair, renderResults } from "./results.js";
import { sheetHtml } from "./sheet.js";
import { S, controlling, names, seatsMine } from "./state.js";
import { renderTogether } from "./together.js";

const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)").matches;
export const phone = matchMedia("(max-width: 700px)"); // the own card replaces the sheet's buttons
let shownRoll = -1;
let timerHandle = null;
let drawnRoll = null; // the dice markup on screen (the tumble changes faces under it)
whenMovesLoaded(() => render(S.table)); // the game's earlier moves, read once

export function render(before) {
  if (!S.table || S.missing) return;
  const focused = document.activeElement;
  const focusKey = focused && (focused.id || focused.dataset.key);
  const wasPlaying = focused && focused.closest && focused.closest("#board, #sheet, #card") !== null;
  const g = S.table.game;
  const seat = controlling();
  const canScore = seat !== null && S.waiting === null;
  document.title = `${t("Yacht")} · ${S.table.code}`;
  $("#code-chip").textContent = S.table.code;
  const rated = $("#rated-chip");
  if (rated) {
    show(rated, !!S.table.rated);
    rated.href = url(`leaderboard?rules=${encodeURIComponent(S.table.rules.name)}`);
  }
  $("#table-title").textContent = t("Yacht table {code}", { code: S.table.code });
  renderInvite();
  renderJoin();
  setHtml($("#players"), panelsHtml(S.table, names(), seatsMine()));
  renderTurn();
  renderDice(before);
  renderControls();
  renderHints();
  renderCard(canScore);
  setHtml($("#sheet"), sheetHtml({
    rules: S.table.rules,
    names: names(),
    sheets: g.sheets,
    totals: g.totals,
    current: g.current,
    potentials: g.potentials,
    canScore: canScore && !phone.matches,
    mine: seatsMine(),
    winners: g.winners,
  }));
  showCurrentColumn();
  renderSeats();
  setHtml($("#log"), logHtml(g, names(), S.table.start_rule));
  renderFair($("#fair"), S.table);
  const results = $("#results");
  show(results, g.status === "finished");
  show($("#board"), g.status !== "finished");
  if (g.status === "finished") {
    renderResults(results, S.table, names(), seatsMine());
  }
  renderTogether(names());
  document.body.classList.toggle("my-turn", seat !== null);
  announce(before);
  if (focusKey) {
    const again = document.getElementById(focusKey) || document.querySelector(`[data-key="${focusKey}"]`);
    if (again && again !== document.activeElement && !again.disabled) again.focus();
  }
  // A keyboard player's focus never drops to the page: after scoring it goes to Roll when the
  // next turn is theirs, else to the turn line (and on to Roll when their turn comes).
  const lost = document.activeElement === document.body || !document.activeElement;
  if ((lost && wasPlaying) || document.activeElement === $("#turn")) {
    if (!$("#roll").disabled && !$("#roll").hidden) $("#roll").focus();
    else if (lost) $("#turn").focus();
  }
}

// The own card (phones): the seat on turn if it is ours, else our first seat.
function renderCard(canScore) {
  const box = $("#card");
  const g = S.table.game;
  const ours = [...seatsMine()];
  const seat = controlling() ?? ours[0];
  if (!phone.matches || seat === undefined || g.status !== "playing") {
    show(box, false);
    setHtml(box, "");
    return;
  }
  show(box, true);
  setHtml(box, cardHtml({
    rules: S.table.rules,
    seat,
    name: names()[seat],
    sheet: g.sheets[seat],
    total: g.totals[seat],
    potentials: seat === g.current ? g.potentials : {},
    canScore: canScore && seat === g.current,
  }));
}

// New moves since the last render: a written score lights up its box and total, a Yacht is
// celebrated, and (when the player turned sound on) rolls and scores are heard.
function announce(before) {
  const g = S.table.game;
  if (!before || before.game.number !== g.number) return;
  const fresh = g.recent.filter((e) => e.version > before.game.version);
  for (const e of fresh) {
    if (e.action === "roll") beep("roll");
    if (!e.action.startsWith("score ")) continue;
    const category = e.action.split(" ")[1];
    markScore(e.seat, category);
    if (category === "yacht" && e.points > 0) {
      celebrate($("#celebrate"), names()[e.seat], e.points);
      beep("yacht");
    } else {
      beep("score");
    }
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
  const waitingForPlayers = S.table.game.status === "waiting";
  const invite = $("#invite");
  const join = $("#join");
  const inviteFirst = seatsMine().size > 0; // seated: ask friends; not yet: take a seat
  if (inviteFirst !== (invite.compareDocumentPosition(join) === Node.DOCUMENT_POSITION_FOLLOWING)) {
    invite.parentNode.insertBefore(inviteFirst ? invite : join, inviteFirst ? join : invite);
  }
  show($("#invite"), waitingForPlayers);
  $("#invite-link").value = url(`t/${encodeURIComponent(S.table.code)}`);
  $("#invite-code").textContent = S.table.code;
}

function renderJoin() {
  const free = S.table.seats.filter((s) => !s.taken);
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
  const g = S.table.game;
  const el = $("#turn");
  const allNames = names();
  let html; // markup: the player's name isolated
  if (g.status === "waiting") {
    html = esc(t("Waiting for players (free seats: {n})", { n: S.table.seats.filter((s) => !s.taken).length }));
  } else if (g.status === "finished") {
    html = esc(t("Game over"));
  } else {
    const name = nameHtml(allNames[g.current]);
    const round = esc(t("Round {round} of {rounds}", { round: g.round, rounds: g.rounds }));
    if (controlling() !== null) {
      const who = seatsMine().size > 1 ? tHtml("Your turn, {name}", { name }) : esc(t("Your turn"));
      // what to do: left out on a phone, where the card shows it
      const what = `: ${
        !g.dice
          ? t("roll the dice")
          : g.rolls_left > 0
            ? t("hold dice and roll again, or pick a category")
            : t("pick a category")
      }`;
      html = `${round} · ${who}<span class="what">${esc(what)}</span>`;
    } else if (S.table.seats[g.current].kind === "bot") {
      html = `${round} · ${tHtml("{name} (bot) is playing", { name })}`;
    } else {
      html = `${round} · ${tHtml("{name}'s turn", { name })}`;
    }
  }
  setHtml(el, html);
  el.classList.toggle("mine", controlling() !== null);
  const start = g.status === "playing" && g.round === 1 ? startHtml(S.table.start_rule, g.start_rolls, g.first, allNames) : "";
  setHtml($("#start-note"), String(start));
  show($("#start-note"), start !== "");
  renderTimer();
}

function renderTimer() {
  const el = $("#timer");
  clearInterval(timerHandle);
  const deadline = S.table.game.status === "playing" ? S.table.game.deadline : null;
  show(el, deadline !== null);
  if (deadline === null) return;
  const tick = () => {
    const left = Math.max(0, Math.ceil(deadline - Date.now() / 1000));
    el.textContent = t("Time left: {time}", { time: duration(left) });
    el.classList.toggle("urgent", left <= 10);
    for (const clock of document.querySelectorAll(".panel .clock")) {
      clock.textContent = duration(left);
      clock.classList.toggle("urgent", left <= 10);
    }
  };
  tick();
  timerHandle = setInterval(tick, 1000);
}

function lastRoll(g) {
  const last = g.recent[g.recent.length - 1];
  return last && last.action === "roll" ? last.version : -1;
}

function renderDice(before) {
  const g = S.table.game;
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
  const g = S.table.game;
  const seat = controlling();
  const rollButton = $("#roll");
  // Not disabled while a move is on its way (a roll then waits its turn): a disabled button
  // would drop the keyboard's focus to the page.
  rollButton.disabled = seat === null || g.rolls_left === 0;
  const again = g.dice && seat !== null; // another player's dice are not "again" for us
  setHtml(rollButton, `<span>${esc(again ? t("Roll again") : t("Roll"))}</span> <kbd>R</kbd>`);
  show(rollButton, seatsMine().size > 0 || g.status === "waiting");
  const rolls = $("#rolls");
  const watching = seatsMine().size === 0 && g.status === "playing";
  const roll = g.status === "playing" && g.dice ? t("Roll {n} of 3", { n: g.rolls_used }) : "";
  rolls.textContent = watching ? [t("You are watching."), roll].filter(Boolean).join(" ") : roll;
  const hintButton = $("#hint");
  show(hintButton, S.table.hints && seat !== null && !!g.dice);
  hintButton.disabled = S.waiting !== null;
  show($("#keys"), seat !== null);
}

function optionText(option) {
  if (option.action === "keep") {
    return option.keep.length ? t("Keep {dice} and roll", { dice: option.keep.join(" ") }) : t("Roll all five again");
  }
  return t("Score {points} in {category}", { points: option.points, category: categoryLabel(option.category) });
}

export function renderHints() {
  $("#hint").setAttribute("aria-busy", String(S.hintAsked !== null));
  const box = $("#hints");
  const g = S.table?.game;
  if (!S.hint || !g || S.hint.version !== g.version || controlling() === null) {
    setHtml(box, "");
    show(box, false);
    return;
  }
  show(box, true);
  // With opponents every option carries its chance of winning (best first by it).
  const win = S.hint.options.some((o) => typeof o.win_probability === "number");
  const items = S.hint.options
    .map(
      (o, i) =>
        `<li class="${i === 0 ? "best" : ""}"><span>${esc(optionText(o))}</span>` +
        `<span class="expected" title="${esc(t("expected final total"))}">${number(o.expected_total, 1)}</span>` +
        (win
          ? `<span class="chance" title="${esc(t("chance of winning"))}">${percent(o.win_probability, 1)}</span>`
          : "") +
        "</li>",
    )
    .join("");
  const title = win ? t("Best options (chance of winning, expected final total)") : t("Best options (expected final total)");
  const exactText = S.hint.solved
    ? t("The chances are exact: two-player Yacht is solved.")
    : t("The chances are exact: the endgame is solved.");
  const exact = win && (S.hint.exact || S.hint.solved) ? `<p class="exact">${esc(exactText)}</p>` : "";
  const close = `<button type="button" class="close" id="hints-close" aria-label="${esc(t("Close the hints"))}">×</button>`;
  setHtml(box, `<div class="hints-head"><h3>${esc(title)}</h3>${close}</div><ol>${items}</ol>${exact}${whyHtml(S.hint.options)}`);
  box.querySelector("details.why")?.addEventListener("toggle", (event) => {
    whyOpen = event.target.open;
  });
}

// The coach in words, folded under the options so the panel stays short on a phone: what each
// keep plays for and how each option differs from the best (yacht.strategy.explain).
let whyOpen = false;
function whyHtml(options) {
  const rows = options
    .filter((o) => o.reasons && o.reasons.length)
    .map((o) => `<li>${o.reasons.map((r) => `<span>${esc(reasonText(r))}</span>`).join(" ")}</li>`)
    .join("");
  if (!rows) return "";
  return `<details class="why"${whyOpen ? " open" : ""}><summary>${esc(t("Why?"))}</summary><ul>${rows}</ul></details>`;
}

function renderSeats() {
  const chosen = {};
  for (const select of document.querySelectorAll("[data-level-for]")) chosen[select.dataset.levelFor] = select.value;
  setHtml($("#seats"), seatsHtml(S.table, names(), seatsMine(), S.botLevels, chosen));
}
