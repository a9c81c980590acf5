// The inbox page: every correspondence game waiting on this player, the one due first on top.
import { esc, signedIn, tokens, $ } from "./api.js";
import { setupLanguages, t } from "./i18n.js";
import { onInbox, setSound, soundOn, startInbox } from "./inbox.js";
import { playerName, presetLabel } from "./labels.js";
import { left, when } from "./letters.js";
import { pushLanguage, setupPush } from "./push.js";

let shown = null;

function draw(inbox) {
  shown = inbox;
  document.title = `${t("Yacht")} · ${t("Inbox")}`;
  $("#inbox").innerHTML =
    inbox.games
      .map((g) => {
        if (g.token) tokens.set(g.code, g.seat, g.token); // the account's seat, opened on this device
        const scores = g.scores.map((s) => `${playerName(s.name || "")} ${s.total}`).join(", ");
        const against = t("Against {names}", { names: g.opponents.map(playerName).join(", ") });
        const due = g.seconds_left > 0 ? t("Time left: {time}", { time: left(g.seconds_left) }) : t("Due now: the bot moves for you soon");
        return (
          `<li><a href="t/${encodeURIComponent(g.code)}"><strong>${esc(against)}</strong></a>` +
          `<span class="muted">${esc(presetLabel(g.preset))} · <code>${esc(g.code)}</code> · ${esc(t("Round {round} of {rounds}", { round: g.round, rounds: g.rounds }))}</span>` +
          `<span>${esc(t("Points: {scores}", { scores }))}</span>` +
          `<span class="due${g.seconds_left < 3600 ? " urgent" : ""}">${esc(due)} · ${esc(t("Your move by {when}", { when: when(g.deadline) }))}</span></li>`
        );
      })
      .join("") || `<li class="muted">${esc(t("No game waits on you."))}</li>`;
}

async function main() {
  await setupLanguages($("#lang"), () => {
    if (shown) draw(shown);
    pushLanguage();
  });
  document.title = `${t("Yacht")} · ${t("Inbox")}`;
  const sound = $("#turn-sound");
  sound.checked = soundOn();
  sound.addEventListener("change", () => setSound(sound.checked));
  const me = await signedIn(); // first: the inbox's look then carries the CSRF token
  onInbox(draw);
  startInbox();
  await setupPush(me);
}

main();
