// Around the table: a panel per player on the table surface (name, total, connection, clock),
// and the Seats card with its hand-to-bot buttons, each with the level of the bot it would call.
import { esc } from "./api.js";
import { nameHtml } from "./markup.js";
import { duration, t } from "./i18n.js";
import { levelLabel } from "./labels.js";

function seatState(s) {
  const state = s.kind === "bot" ? "bot" : s.connected ? "online" : s.taken ? "away" : "free";
  const label = { bot: t("bot"), online: t("connected"), away: t("not connected"), free: t("free") }[state];
  return [state, label];
}

export function panelsHtml(table, names, ours) {
  const g = table.game;
  return table.seats
    .map((s) => {
      const [state, label] = seatState(s);
      const current = g.status === "playing" && g.current === s.seat;
      const winner = g.status === "finished" && g.winners.includes(s.seat);
      const cls = ["panel", current ? "current" : "", winner ? "winner" : "", ours.has(s.seat) ? "mine" : ""];
      const clock = current && g.deadline ? `<span class="clock" data-deadline="${g.deadline}"></span>` : "";
      const what = s.kind === "bot" ? t("bot: {level}", { level: levelLabel(s.bot) }) : ours.has(s.seat) ? t("you") : "";
      return (
        `<li class="${cls.join(" ").trim()}" data-seat="${s.seat}"${current ? ' aria-current="true"' : ""}>` +
        `<span class="dot ${state}" role="img" aria-label="${esc(label)}"></span>` +
        `<span class="panel-name">${nameHtml(names[s.seat])}</span>` +
        (what ? `<span class="panel-tag">${esc(what)}</span>` : "") +
        `<span class="panel-total" data-seat="${s.seat}">${g.totals[s.seat]}</span>${clock}</li>`
      );
    })
    .join("");
}

// levels: the bot levels; chosen: {seat: level} picked in the selects before this render.
export function seatsHtml(table, names, ours, levels, chosen) {
  const g = table.game;
  const canHand = ours.size > 0 && g.status !== "finished";
  noteMove(table);
  return table.seats
    .map((s) => {
      const name = names[s.seat];
      const at = handAt(table, s);
      const tags = [];
      if (s.kind === "bot") tags.push(t("bot: {level}", { level: levelLabel(s.bot) }));
      else if (!s.taken) tags.push(t("free"));
      if (ours.has(s.seat)) tags.push(t("you"));
      if ((g.coach || []).some((m) => m.seat === s.seat)) tags.push(t("with the live coach"));
      const [state, label] = seatState(s);
      let hand = "";
      if (canHand && s.kind === "human" && s.taken && ours.has(s.seat)) {
        // Leaving: this player picks the bot that plays on, beside the button.
        const pick = chosen[s.seat] || "medium";
        const options = levels
          .map((l) => `<option value="${esc(l)}"${l === pick ? " selected" : ""}>${esc(levelLabel(l))}</option>`)
          .join("");
        hand =
          `<span class="hand"><button type="button" class="link" data-key="hand-${s.seat}" data-hand="${s.seat}">${esc(t("Leave: a bot plays for me"))}</button>` +
          `<select data-key="level-${s.seat}" data-level-for="${s.seat}" aria-label="${esc(t("Bot level for {name}'s seat", { name }))}">${options}</select></span>`;
      } else if (canHand && at !== null && g.status === "playing" && g.current === s.seat) {
        // An away player's seat goes to the medium bot (only its player picks another level),
        // once the game has waited on them long enough: until then the button counts down.
        const left = secondsLeft(at);
        const wait = left > 0 ? ` data-hand-at="${at}" disabled` : "";
        hand =
          `<span class="hand"><button type="button" class="link" data-key="hand-${s.seat}" data-hand="${s.seat}"${wait}>` +
          `${esc(handText(left))}</button></span>`;
        if (left > 0) startCountdown();
      }
      if (s.kind === "bot" && ours.has(s.seat)) {
        // This browser's seat, played by a bot (its holder left, or was away): the token
        // takes it back at any time.
        hand =
          `<span class="hand"><button type="button" class="secondary" data-key="take-${s.seat}" data-take-back="${s.seat}">` +
          `${esc(t("Take back my seat"))}</button></span>`;
      }
      const current = g.current === s.seat && g.status === "playing" ? " current" : "";
      return (
        `<li class="seat${current}"><span class="dot ${state}" role="img" aria-label="${esc(label)}"></span>` +
        `<span class="seat-name">${nameHtml(name)}</span> <span class="tags">${esc(tags.join(" · "))}</span>` +
        `<span class="seat-total">${g.totals[s.seat]}</span>${hand}</li>`
      );
    })
    .join("");
}

// When another player may hand an away player's seat to a bot: the server allows it once the game
// has waited GRACE seconds on the seat with no sign of its holder (or the turn clock ran out). It
// counts from its own notes, made a moment before this page hears of them, so counting from what
// this page saw never offers the button early; a page opened later waits the whole time again.
const GRACE = 60;
const quietSince = new Map(); // "CODE:seat" -> when this page saw the seat's holder go
let lastMove = { key: "", at: 0 };

function noteMove(table) {
  const key = `${table.code}:${table.game.number}:${table.game.version}`;
  if (lastMove.key !== key) lastMove = { key, at: Date.now() };
}

// The moment (ms) the seat may be handed to a bot, or null while its holder is here.
function handAt(table, s) {
  const id = `${table.code}:${s.seat}`;
  if (s.kind !== "human" || !s.taken || s.connected) {
    quietSince.delete(id);
    return null;
  }
  if (!quietSince.has(id)) quietSince.set(id, Date.now());
  const at = Math.max(quietSince.get(id), lastMove.at) + GRACE * 1000;
  const deadline = table.game.deadline;
  return deadline ? Math.min(at, Math.ceil(deadline * 1000)) : at;
}

function secondsLeft(at) {
  return Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

function handText(left) {
  return left > 0
    ? t("Hand to a bot in {time}", { time: duration(left) })
    : t("Hand to a bot ({level})", { level: levelLabel("medium") });
}

let countdown = null;

function startCountdown() {
  if (countdown === null) countdown = setInterval(tick, 1000);
}

function tick() {
  const waiting = document.querySelectorAll("button[data-hand-at]");
  for (const button of waiting) {
    const left = secondsLeft(Number(button.dataset.handAt));
    button.textContent = handText(left);
    if (left === 0) {
      button.removeAttribute("data-hand-at");
      button.disabled = false;
    }
  }
  if (waiting.length === 0) {
    clearInterval(countdown);
    countdown = null;
  }
}
