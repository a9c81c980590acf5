// Replay a finished game move by move.
import { api, esc, $ } from "./api.js";
import { dieSvg } from "./dice.js";
import { showVerdict } from "./fair.js";
import { checkGame } from "./fairness-seed.js";
import { setupLanguages, t } from "./i18n.js";
import { eventHtml } from "./moves.js";
import { sheetHtml } from "./sheet.js";
import { errorText, playerName } from "./labels.js";
import { winnersHtml } from "./results.js";

const id = Number(location.pathname.split("/").filter(Boolean).pop());
let replay = null;
let step = 0;
let playing = null;

function render() {
  if (!replay) return;
  const frame = replay.frames[step];
  const last = replay.frames.length - 1;
  const title = t("Table {code}, game {number}", { code: replay.table, number: replay.number });
  $("#title").textContent = title;
  document.title = `${t("Yacht")} · ${t("Replay")} · ${title}`;
  $("#step-text").innerHTML = String(
    step === last
      ? winnersHtml(replay.players.map(playerName), frame.totals, replay.winners)
      : frame.event
        ? eventHtml(frame.event, replay.players.map(playerName), frame.dice)
        : esc(t("Before the first roll")),
  );
  $("#step-label").textContent = t("Move {n} of {total}", { n: step, total: last });
  $("#step").max = String(last);
  $("#step").value = String(step);
  $("#dice").innerHTML = [0, 1, 2, 3, 4]
    .map((i) => {
      const held = frame.held.includes(i + 1);
      return `<span class="die${held ? " held" : ""}">${dieSvg(frame.dice ? frame.dice[i] : null)}<span class="held-tag">${esc(t("Held"))}</span></span>`;
    })
    .join("");
  $("#sheet").innerHTML = sheetHtml({
    rules: replay.rules,
    names: replay.players.map(playerName),
    sheets: frame.sheets,
    totals: frame.totals,
    current: frame.current,
    winners: step === last ? replay.winners : [],
  });
  $("#play").textContent = playing ? t("Pause") : t("Play");
}

function go(to) {
  step = Math.max(0, Math.min(replay.frames.length - 1, to));
  if (step === replay.frames.length - 1) stop();
  render();
}

function stop() {
  clearInterval(playing);
  playing = null;
}

async function main() {
  await setupLanguages($("#lang"), render);
  document.title = `${t("Yacht")} · ${t("Replay")}`;
  replay = await api(`api/games/${id}/replay`).catch((error) => {
    $("#title").textContent = errorText(error, { not_found: () => t("There is no finished game with this number.") });
    return null;
  });
  if (!replay) return;
  $("#first").onclick = () => go(0);
  $("#back").onclick = () => go(step - 1);
  $("#next").onclick = () => go(step + 1);
  $("#last").onclick = () => go(replay.frames.length - 1);
  $("#step").oninput = (event) => go(Number(event.target.value));
  $("#play").onclick = () => {
    if (playing) stop();
    else playing = setInterval(() => go(step + 1), 600);
    render();
  };
  $("#verify").onclick = async () => {
    $("#verdict").textContent = t("Checking…");
    const data = await api(`api/games/${id}`); // the full check: seed, rule, key against the seeds, every die
    showVerdict($("#verdict"), await checkGame(data, data.table?.code));
  };
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select")) return;
    if (event.key === "ArrowRight") go(step + 1);
    if (event.key === "ArrowLeft") go(step - 1);
  });
  render();
}

main();
