// The people around a table: the rematch everyone agrees to and the series score, who is
// watching, a seat open in another tab or device, and sharing the invitation.
import { esc, setHtml, show, url, $ } from "./api.js";
import { t } from "./i18n.js";
import { nameHtml, namesHtml, tHtml, tnHtml } from "./markup.js";
import { S, seatsMine } from "./state.js";

// The wins per seat across the table's games, as markup; "" before the first game is over.
export function seriesHtml(table, names) {
  const wins = table.game.series || [];
  if (!wins.some((n) => n > 0)) return "";
  const score = table.seats.map((s) => `${nameHtml(names[s.seat])} <strong>${wins[s.seat] ?? 0}</strong>`);
  return `<span class="label">${esc(t("Series"))}</span> ${score.join(" · ")}`;
}

// Under the results: propose a rematch, or answer one; who agreed and who is still asked.
export function rematchHtml(table, names, mine) {
  const g = table.game;
  const offer = g.rematch;
  const asked = offer && offer.waiting.length > 0;
  const ours = [...mine].filter((seat) => table.seats[seat]?.kind !== "bot");
  const open = ours.filter((seat) => asked && offer.waiting.includes(seat));
  const parts = [];
  if (asked) {
    const by = nameHtml(names[offer.by]);
    const waiting = namesHtml(offer.waiting.map((s) => names[s]));
    const text = offer.by !== null && mine.has(offer.by) && !open.length
      ? tHtml("You asked for a rematch. Waiting for {names}.", { names: waiting })
      : tHtml("{name} wants a rematch.", { name: by });
    parts.push(`<p class="offer" role="status">${text}</p>`);
    if (open.length) {
      parts.push(
        `<div class="actions"><button type="button" class="primary" id="rematch-yes" data-rematch="yes">${esc(t("Accept"))}</button>` +
          `<button type="button" class="secondary" id="rematch-no" data-rematch="no">${esc(t("Decline"))}</button></div>`,
      );
    } else if (ours.length) {
      parts.push(`<button type="button" class="secondary" id="rematch-no" data-rematch="no">${esc(t("Withdraw"))}</button>`);
    }
  } else {
    if (offer && offer.declined !== null) {
      const name = nameHtml(names[offer.declined]);
      const text = offer.declined === offer.by
        ? tHtml("{name} withdrew the rematch.", { name })
        : tHtml("{name} declined the rematch.", { name });
      parts.push(`<p class="offer muted" role="status">${text}</p>`);
    }
    if (ours.length) {
      parts.push(`<button type="button" class="primary" id="rematch" data-rematch="yes">${esc(t("Rematch with the same seats"))}</button>`);
    }
  }
  return parts.join("");
}

// Who watches without a seat: how many, and the names they gave.
export function watchersHtml(table) {
  const w = table.watchers;
  if (!w || w.count === 0) return "";
  const count = tnHtml("{n} watching", "{n} watching", w.count);
  const named = w.names.length ? `: ${namesHtml(w.names)}` : "";
  const eye =
    '<svg class="eye" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">' +
    '<path fill="currentColor" d="M12 5C6.5 5 2.3 9.6 1 12c1.3 2.4 5.5 7 11 7s9.7-4.6 11-7c-1.3-2.4-5.5-7-11-7zm0 11.5a4.5 4.5 0 1 1 0-9 4.5 4.5 0 0 1 0 9zm0-2.5a2 2 0 1 0 0-4 2 2 0 0 0 0 4z"/></svg>';
  return `${eye} ${count}${named}`;
}

// A seat this page held is played from another tab or device now: say which, and offer it back.
export function elsewhereHtml() {
  const device = S.elsewhereDevice;
  if (!device) return "";
  const which = device.browser && device.system
    ? t("{browser} on {system}", device)
    : device.browser || device.system || t("another device");
  return (
    `<p>${esc(t("Your seat is open in another tab or device ({device}). Moves from this page are off.", { device: which }))}</p>` +
    `<button type="button" class="primary" id="play-here">${esc(t("Play here"))}</button>`
  );
}

export function renderTogether(names) {
  const table = S.table;
  const finished = table.game.status === "finished";
  const box = $("#rematch-box");
  if (box) setHtml(box, finished ? rematchHtml(table, names, seatsMine()) : "");
  const series = seriesHtml(table, names);
  setHtml($("#series"), series);
  show($("#series"), series !== "");
  const watching = watchersHtml(table);
  setHtml($("#watching"), watching);
  show($("#watching"), watching !== "");
  const elsewhere = elsewhereHtml();
  setHtml($("#elsewhere"), elsewhere);
  show($("#elsewhere"), elsewhere !== "");
  show($("#share-link"), typeof navigator.share === "function");
}

// The server's word that another connection took seats this page held.
export function movedElsewhere(message) {
  for (const seat of message.seats) S.elsewhere.add(seat);
  S.elsewhereDevice = { browser: message.browser, system: message.system };
}

// The seats to announce in a hello: all this browser holds but those played elsewhere now
// (a reconnect must not take them back unasked).
export function helloSeats() {
  return Object.entries(S.mine)
    .filter(([seat]) => !S.elsewhere.has(Number(seat)))
    .map(([seat, token]) => ({ seat: Number(seat), token }));
}

function playHere() {
  S.elsewhere.clear();
  S.elsewhereDevice = null;
  const seats = Object.entries(S.mine).map(([seat, token]) => ({ seat: Number(seat), token }));
  S.send({ type: "hello", seats });
}

function answer(agree) {
  const g = S.table?.game;
  if (!g || g.status !== "finished") return;
  const waiting = g.rematch?.waiting ?? [];
  const people = [...seatsMine()].filter((seat) => S.table.seats[seat]?.kind !== "bot");
  // Each seat of this browser answers for itself (two players on one device both agree).
  const seats = agree ? people.filter((seat) => !waiting.length || waiting.includes(seat)) : people.slice(0, 1);
  for (const seat of seats) S.send({ type: "rematch", seat, token: S.mine[seat], game: g.number, agree });
}

// The invitation through the phone's own share sheet; the link is copied where there is none.
async function share() {
  const link = url(`t/${encodeURIComponent(S.table.code)}`);
  try {
    await navigator.share({ title: t("Yacht table {code}", { code: S.table.code }), url: link });
  } catch {
    // dismissed, or refused: the Copy button beside it still works
  }
}

document.addEventListener("click", (event) => {
  const target = event.target.closest("button");
  if (!target || target.disabled) return;
  if (target.dataset.rematch) answer(target.dataset.rematch === "yes");
  else if (target.id === "play-here") playHere();
  else if (target.id === "share-link") share();
});
