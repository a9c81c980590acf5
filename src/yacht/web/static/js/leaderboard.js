// A preset's leaderboard (/leaderboard?rules=P): the best 100 ratings of players rated in the
// last 30 days, each name linking to its profile ("?" after a provisional rating).
import { api, esc, url, $ } from "./api.js";
import { number, setupLanguages, t } from "./i18n.js";
import { presetLabel } from "./labels.js";
import { nameHtml } from "./markup.js";

let presets = [];
let board = null;
const asked = new URLSearchParams(location.search).get("rules") || "traditional";

function render() {
  document.title = `${t("Yacht")} · ${t("Leaderboard")}`;
  const select = $("#preset");
  select.innerHTML = presets.map((p) => `<option value="${esc(p.name)}">${esc(presetLabel(p.name))}</option>`).join("");
  if (board) select.value = board.preset;
  if (!board) return;
  $("#board-note").textContent = t("Players rated in the last {days} days, by the rating they are very likely above. A ? marks a provisional rating (fewer than 10 rated games).", { days: board.active_days });
  const provisional = esc(t("provisional: fewer than 10 rated games"));
  $("#board").innerHTML =
    board.players
      .map(
        (p) =>
          `<tr><td class="num">${p.rank}</td><td><a href="@/${encodeURIComponent(p.name)}">${nameHtml(p.name).html}</a></td>` +
          `<td class="num">${Number(p.rating.shown)}${p.rating.provisional ? `<abbr class="provisional" title="${provisional}">?</abbr>` : ""}</td>` +
          `<td class="num">${esc(number(p.rating.games))}</td></tr>`,
      )
      .join("") || `<tr><td colspan="4" class="muted">${esc(t("No rated games in the last {days} days.", { days: board.active_days }))}</td></tr>`;
}

async function load(rules) {
  board = await api(`api/leaderboard?rules=${encodeURIComponent(rules)}`);
  render();
}

async function main() {
  await setupLanguages($("#lang"), render);
  presets = await api("api/presets");
  render();
  $("#preset").addEventListener("change", (event) => {
    const rules = event.target.value;
    history.replaceState(null, "", url(`leaderboard?rules=${encodeURIComponent(rules)}`));
    load(rules);
  });
  const known = presets.some((p) => p.name === asked);
  await load(known ? asked : "traditional");
}

main();
