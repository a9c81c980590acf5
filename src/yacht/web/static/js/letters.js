// Correspondence games: dates and times left as the player reads them (their language and their
// own time zone), the table page's "move due by" line, and the inbox's signals kept up to date.
import { $, show } from "./api.js";
import { language, t } from "./i18n.js";
import { refresh } from "./inbox.js";
import { S, controlling } from "./state.js";

// A deadline (Unix seconds) in the reader's time zone, with the zone's name: "Fri 4 Dec, 18:30 EET".
export function when(deadline) {
  return new Intl.DateTimeFormat(language(), {
    weekday: "short",
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
  }).format(new Date(deadline * 1000));
}

// Seconds left as two units at most: "1 day 3 hr", "5 hr 20 min", "12 min".
export function left(seconds) {
  const unit = (n, u) => new Intl.NumberFormat(language(), { style: "unit", unit: u, unitDisplay: "short" }).format(n);
  const s = Math.max(0, Math.floor(seconds));
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  if (days) return hours ? `${unit(days, "day")} ${unit(hours, "hour")}` : unit(days, "day");
  if (hours) return minutes ? `${unit(hours, "hour")} ${unit(minutes, "minute")}` : unit(hours, "hour");
  return unit(minutes, "minute");
}

// The table page, after each state: the deadline of the seat on turn, and the inbox asked again
// when the turn came to (or left) this browser's seat.
export function showLetters(before) {
  const el = $("#letters");
  if (!el || !S.table) return;
  const g = S.table.game;
  const seat = g.status === "playing" && g.current !== null ? S.table.seats[g.current] : null;
  const deadline = S.table.move_days && seat ? seat.deadline : null;
  show(el, Boolean(deadline));
  if (deadline) {
    el.textContent = controlling() !== null ? t("Your move by {when}", { when: when(deadline) }) : t("Move due by {when}", { when: when(deadline) });
  }
  if (S.table.move_days && before && (before.game.current !== g.current || before.game.number !== g.number)) refresh();
}
