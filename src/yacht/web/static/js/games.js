// Finished games, newest first, each with a link to its replay.
import { api, esc, $ } from "./api.js";
import { language, setupLanguages, t } from "./i18n.js";
import { playerName, presetLabel } from "./labels.js";
import { nameHtml } from "./markup.js";

const PAGE = 20;
let offset = 0;

async function load() {
  document.title = `${t("Yacht")} · ${t("Finished games")}`;
  const games = await api(`api/games?limit=${PAGE}&offset=${offset}`);
  const when = new Intl.DateTimeFormat(language(), { dateStyle: "medium", timeStyle: "short" });
  $("#games").innerHTML =
    games
      .map((g) => {
        const players = g.players
          .map((name, i) => `${g.winners.includes(i) ? '<span class="winner-star" aria-hidden="true">★</span> ' : ""}${nameHtml(playerName(name))} ${g.totals[i]}`)
          .join(", ");
        const finished = g.finished_at ? when.format(new Date(g.finished_at)) : "";
        return (
          `<tr><td><code>${esc(g.table)}</code> #${g.number}</td><td>${esc(presetLabel(g.preset))}</td><td>${players}</td>` +
          `<td>${esc(finished)}</td><td><a href="games/${g.id}">${esc(t("Replay"))}</a></td></tr>`
        );
      })
      .join("") || `<tr><td colspan="5" class="muted">${esc(t("No finished games yet."))}</td></tr>`;
  $("#newer").disabled = offset === 0;
  $("#older").disabled = games.length < PAGE;
}

async function main() {
  await setupLanguages($("#lang"), load);
  $("#newer").addEventListener("click", () => {
    offset = Math.max(0, offset - PAGE);
    load();
  });
  $("#older").addEventListener("click", () => {
    offset += PAGE;
    load();
  });
  load();
}

main();
