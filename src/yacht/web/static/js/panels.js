// Around the table: a panel per player on the table surface (name, total, connection, clock),
// and the Seats card with its hand-to-bot buttons, each with the level of the bot it would call.
import { esc } from "./api.js";
import { nameHtml } from "./markup.js";
import { t } from "./i18n.js";
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
  return table.seats
    .map((s) => {
      const name = names[s.seat];
      const tags = [];
      if (s.kind === "bot") tags.push(t("bot: {level}", { level: levelLabel(s.bot) }));
      else if (!s.taken) tags.push(t("free"));
      if (ours.has(s.seat)) tags.push(t("you"));
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
      } else if (canHand && s.kind === "human" && s.taken && !s.connected) {
        // An away player's seat goes to the medium bot; only its player picks another level.
        hand =
          `<span class="hand"><button type="button" class="link" data-key="hand-${s.seat}" data-hand="${s.seat}">` +
          `${esc(t("Hand to a bot ({level})", { level: levelLabel("medium") }))}</button></span>`;
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
