// The your-turn signals of an open tab: how many correspondence games wait on this player, in the
// page header ("Inbox 2"), the tab title ("(2) Yacht"), a badge on the favicon, and a short sound
// (off unless the player turned it on) when a turn comes to them.
//
// The count comes from the inbox (POST api/inbox with the seat tokens this browser holds; a
// signed-in browser's session adds the account's seats on every device). A light poll, not a
// socket: the page's socket watches one table, the inbox spans them all, and moves of days need
// no second-by-second news. It asks once a minute, less often (up to every 5 minutes) while
// nothing changes, backs off further after errors, and asks at once when the tab comes back into
// view or the table's own socket says the turn came to this player (refresh()).
import { api, setCsrf, signedIn, tokens } from "./api.js";

export const SOUND = "yacht:turn-sound";
const FIRST = 60_000;
const MOST = 300_000;
const MOST_AFTER_ERRORS = 600_000;
const TABLES = 50; // the most tables one inbox request names (the newest the browser holds)

let last = null; // the inbox as last seen
let wait = FIRST;
let timer = null;
const listeners = [];

export function soundOn() {
  return localStorage.getItem(SOUND) === "on";
}

export function setSound(on) {
  localStorage.setItem(SOUND, on ? "on" : "off");
}

function heldTokens() {
  const all = tokens.all();
  return Object.fromEntries(Object.entries(all).filter(([, seats]) => Object.keys(seats || {}).length).slice(-TABLES));
}

// The inbox now ({count, games}); the signed-in player's CSRF token is asked for once if needed.
export async function fetchInbox() {
  try {
    return await api("api/inbox", { method: "POST", body: heldTokens() });
  } catch (error) {
    if (error.code !== "csrf") throw error;
    const me = await signedIn();
    if (!me) setCsrf(null);
    return api("api/inbox", { method: "POST", body: heldTokens() });
  }
}

// Call fn(inbox) with every inbox seen (the inbox page draws its list from it).
export function onInbox(fn) {
  listeners.push(fn);
  if (last) fn(last);
}

function key(inbox) {
  return inbox.games.map((g) => `${g.code}:${g.seat}:${g.deadline}`).join(",");
}

async function look() {
  clearTimeout(timer);
  let inbox = null;
  try {
    inbox = await fetchInbox();
  } catch {
    wait = Math.min(MOST_AFTER_ERRORS, wait * 2);
  }
  if (inbox) {
    const changed = !last || key(inbox) !== key(last);
    const more = last !== null && inbox.games.some((g) => !last.games.some((o) => o.code === g.code && o.seat === g.seat));
    wait = changed ? FIRST : Math.min(MOST, Math.round(wait * 1.5));
    last = inbox;
    showCount(inbox.count);
    if (more) chime();
    for (const fn of listeners) fn(inbox);
  }
  timer = setTimeout(look, wait);
}

// Look again now (the table's socket saw the turn come to this player, or a move was made).
export function refresh() {
  wait = FIRST;
  look();
}

let started = false;

export function startInbox() {
  if (started) return;
  started = true;
  watchTitle();
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refresh();
  });
  look();
}

// --- the signals --------------------------------------------------------------------------

let count = 0;
const PREFIX = /^\(\d+\) /;

function showCount(n) {
  count = n;
  for (const badge of document.querySelectorAll("[data-inbox-count]")) {
    badge.textContent = n ? String(n) : "";
    badge.hidden = !n;
  }
  // the table page's header has no room to spare on a phone: its link shows only with a count
  for (const link of document.querySelectorAll("[data-inbox-link]")) link.hidden = !n;
  retitle();
  badgeIcon(n);
}

function retitle() {
  const bare = document.title.replace(PREFIX, "");
  const wanted = count ? `(${count}) ${bare}` : bare;
  if (document.title !== wanted) document.title = wanted;
}

// Pages set their own titles as they go: keep the count in front of whatever they set.
function watchTitle() {
  const title = document.querySelector("title");
  if (title) new MutationObserver(retitle).observe(title, { childList: true, characterData: true, subtree: true });
}

let plainIcon = null;
let iconImage = null;

function badgeIcon(n) {
  const link = document.querySelector('link[rel="icon"]');
  if (!link) return;
  if (plainIcon === null) plainIcon = link.href;
  if (!n) {
    link.href = plainIcon;
    return;
  }
  const draw = () => {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 64;
    const ctx = canvas.getContext("2d");
    if (!ctx) return;
    ctx.drawImage(iconImage, 0, 0, 64, 64);
    ctx.fillStyle = "#d62828";
    ctx.beginPath();
    ctx.arc(44, 20, 20, 0, 2 * Math.PI);
    ctx.fill();
    ctx.fillStyle = "#ffffff";
    ctx.font = "bold 28px sans-serif";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(n > 9 ? "9+" : String(n), 44, 22);
    link.type = "image/png";
    link.href = canvas.toDataURL("image/png");
  };
  if (iconImage && iconImage.complete) return draw();
  iconImage = new Image();
  iconImage.onload = draw;
  iconImage.src = plainIcon;
}

// Two short notes, made here (no sound file): only when the player turned the sound on.
export function chime() {
  if (!soundOn()) return;
  try {
    const audio = new AudioContext();
    for (const [i, freq] of [660, 880].entries()) {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = freq;
      gain.gain.setValueAtTime(0.15, audio.currentTime + i * 0.18);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + i * 0.18 + 0.16);
      tone.connect(gain).connect(audio.destination);
      tone.start(audio.currentTime + i * 0.18);
      tone.stop(audio.currentTime + i * 0.18 + 0.17);
    }
    setTimeout(() => audio.close(), 800);
  } catch {
    /* no audio here: the title and the badge say it */
  }
}
