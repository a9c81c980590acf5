// A player's profile (/@/{name}): per preset the figures over all their finished games, the skill
// figure ("played like an N-point player") over the last reviewed games with the bots' marks,
// the rating over its games, and their games at public tables with links to replay and review.
// The player's own profile also shows their daily streaks (api/me/daily: private, so asked for
// only when the signed-in player is the one shown).
// The name comes from the address and every text from the server is escaped (esc, nameHtml).
import { ApiError, api, esc, signedIn, $ } from "./api.js";
import { language, number, percent, setupLanguages, t, tn } from "./i18n.js";
import { levelLabel, presetLabel } from "./labels.js";
import { nameHtml, tHtml } from "./markup.js";
import { runningMean, trendSvg } from "./trend.js";

const wanted = decodeURIComponent(location.pathname.split("/@/").slice(1).join("/@/"));
const path = `api/players/${encodeURIComponent(wanted)}`;
let profile = null;
let preset = null;
let games = [];
let next = null;
let streaks = null;

const ratingText = (r) => `${r.shown}${r.provisional ? "?" : ""}`; // no grouping: 1658, as lichess shows it

function figure(term, value, note = "") {
  return `<div><dt>${esc(term)}</dt><dd>${value}${note ? ` <span class="muted">${note}</span>` : ""}</dd></div>`;
}

function renderFigures(p) {
  const rows = [
    figure(t("Games"), esc(number(p.games))),
    figure(t("Wins"), esc(number(p.wins))),
    figure(t("Average total"), esc(number(p.average, 1))),
    figure(t("Best total"), esc(number(p.best))),
    figure(t("Yachts"), esc(number(p.yachts))),
  ];
  if (p.accuracy !== null) {
    rows.push(figure(t("Accuracy"), esc(percent(p.accuracy / 100, 1))));
    rows.push(figure(t("Points lost per decision"), esc(number(p.loss_per_decision, 2))));
  }
  if (p.rating) {
    const note = p.rating.provisional ? esc(t("provisional: fewer than 10 rated games")) : "";
    rows.push(figure(t("Rating"), `<strong class="rating">${esc(ratingText(p.rating))}</strong>`, note));
  }
  $("#figures").innerHTML = rows.join("");
}

function renderStreaks() {
  $("#daily-card").hidden = !streaks;
  if (!streaks) return;
  $("#daily-figures").innerHTML = [
    figure(t("Days in a row now"), esc(number(streaks.current))),
    figure(t("Most days in a row"), esc(number(streaks.best))),
    figure(t("Days played"), esc(number(streaks.days))),
  ].join("");
  const presets = streaks.presets || [];
  $("#daily-presets-box").hidden = presets.length < 2; // one preset: the figures above are its
  $("#daily-presets").innerHTML = presets
    .map(
      (p) =>
        `<tr><td>${esc(presetLabel(p.preset))}</td><td class="num">${esc(number(p.current))}</td>` +
        `<td class="num">${esc(number(p.best))}</td></tr>`,
    )
    .join("");
}

function renderSkill(p) {
  const s = p.skill;
  $("#skill-card").hidden = !s;
  if (!s) return;
  const head = tHtml("Played like a {n}-point player", { n: number(s.played_like, 1) }).html;
  const over =
    s.standard_error === null
      ? tn("over the last {n} reviewed game", "over the last {n} reviewed games", s.games)
      : `± ${number(s.standard_error, 1)}, ${tn("over the last {n} reviewed game", "over the last {n} reviewed games", s.games)}`;
  const values = s.series.map((g) => g.played_like);
  const levels = s.marks.map((m) => ({ value: m.played_like, label: levelLabel(m.bot) }));
  const chart = trendSvg({
    points: values,
    line: runningMean(values, s.window),
    levels,
    label: t("Skill figure per reviewed game, with the mean of the last 20"),
    xLabel: t("reviewed games"),
  });
  const marks = s.marks.length
    ? `<p class="muted">${esc(t("Dashed lines: the bots' own figures."))} ${esc(t("Best possible: {n}.", { n: number(s.optimum, 1) }))}</p>`
    : `<p class="muted">${esc(t("Best possible: {n}.", { n: number(s.optimum, 1) }))}</p>`;
  $("#skill").innerHTML =
    `<p class="headline">${head}</p><p class="muted">${esc(over)}</p>` +
    `<p class="muted">${esc(t("The dice do not move this figure: it is the best possible mean total minus the expected points the choices made gave up."))}</p>` +
    chart +
    marks;
}

function renderRating(p) {
  const history = p.history;
  $("#rating-card").hidden = history.length === 0;
  if (!history.length) return;
  const values = history.map((h) => h.shown);
  $("#rating").innerHTML =
    `<p class="headline"><strong>${esc(ratingText(p.rating))}</strong> <span class="muted">${esc(
      tn("{n} rated game", "{n} rated games", p.rating.games),
    )}</span></p>` +
    trendSvg({ points: values, label: t("Rating after each rated game"), xLabel: t("rated games"), format: String });
}

function gameRows() {
  const when = new Intl.DateTimeFormat(language(), { dateStyle: "medium", timeStyle: "short" });
  return (
    games
      .map((g) => {
        const rated = g.rated ? ` <span class="code-chip rated-chip">${esc(t("rated"))}</span>` : "";
        return (
          `<tr><td><a href="games/${Number(g.id)}" title="${esc(t("Replay and review"))}">${esc(when.format(new Date(g.finished_at)))}` +
          `<span class="sr-only"> ${esc(t("Replay and review"))}</span></a></td><td>${esc(presetLabel(g.preset))}${rated}</td>` +
          `<td>${esc(t("{rank} of {players}", { rank: g.rank, players: g.players }))}</td><td class="num">${esc(number(g.total))}</td></tr>`
        );
      })
      .join("") || `<tr><td colspan="4" class="muted">${esc(t("No games at public tables yet."))}</td></tr>`
  );
}

// Games the player synced from /play: listed apart, marked offline, counted in no figure.
function renderOffline() {
  const list = profile.offline || [];
  $("#offline-card").hidden = !list.length;
  if (!list.length) return;
  const when = new Intl.DateTimeFormat(language(), { dateStyle: "medium", timeStyle: "short" });
  const chip = `<span class="code-chip rated-chip offline-chip">${esc(t("offline"))}</span>`;
  $("#offline-count").textContent = tn("{n} game played offline", "{n} games played offline", profile.offline_games);
  $("#offline-games").innerHTML = list
    .map(
      (g) =>
        `<tr><td>${esc(when.format(new Date(g.finished_at)))}</td><td>${esc(presetLabel(g.preset))} ${chip}</td>` +
        `<td>${esc(t("{rank} of {players}", { rank: g.rank, players: g.players }))}</td><td class="num">${esc(number(g.total))}</td></tr>`,
    )
    .join("");
}

function render() {
  document.title = `${t("Yacht")} · ${profile ? profile.name : wanted}`;
  if (!profile) return;
  $("#player-name").innerHTML = nameHtml(profile.name).html;
  const since = new Intl.DateTimeFormat(language(), { dateStyle: "long" }).format(new Date(profile.created));
  $("#player-since").textContent = t("Playing since {date}", { date: since });
  const select = $("#preset");
  select.innerHTML = profile.presets
    .map((p) => `<option value="${esc(p.preset)}">${esc(presetLabel(p.preset))}</option>`)
    .join("");
  select.value = preset;
  $("#preset-pick").hidden = profile.presets.length < 2;
  const p = profile.presets.find((x) => x.preset === preset);
  $("#no-games").hidden = Boolean(p) || profile.offline_games > 0; // the offline card lists them
  $("#figures").hidden = !p;
  if (p) {
    renderFigures(p);
    renderRating(p);
  } else {
    $("#rating-card").hidden = true;
  }
  renderSkill(p || { skill: null });
  renderStreaks();
  $("#games").innerHTML = gameRows();
  $("#more").hidden = !next;
  renderOffline();
}

async function more() {
  const page = await api(`${path}/games${next ? `?before=${encodeURIComponent(next)}` : ""}`);
  games = games.concat(page.games);
  next = page.next;
  $("#list-card").hidden = !profile.presets.length; // no games at all: the card above says so
  render();
}

async function main() {
  await setupLanguages($("#lang"), render);
  $("#player-name").textContent = wanted;
  try {
    profile = await api(path);
  } catch (error) {
    if (!(error instanceof ApiError) || (error.status !== 404 && error.status !== 422)) throw error;
    $("#missing").hidden = false;
    $("#profile").removeAttribute("aria-busy");
    render();
    return;
  }
  preset = profile.presets.length ? profile.presets[0].preset : null;
  $("#preset").addEventListener("change", (event) => {
    preset = event.target.value;
    render();
  });
  $("#more").addEventListener("click", more);
  const me = await signedIn();
  if (me && me.name === profile.name) streaks = await api("api/me/daily").catch(() => null);
  render();
  $("#profile").removeAttribute("aria-busy");
  await more();
}

main();
