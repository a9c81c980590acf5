// What makes a move felt: the box and the total lighting up when a score is written, a Yacht
// celebrated (a banner; confetti only without prefers-reduced-motion), and short sounds that
// stay off until the player turns them on.
import { esc } from "./api.js";
import { nameHtml, tnHtml } from "./markup.js";
import { categoryLabel, t } from "./i18n.js";

const SOUND = "yacht:sound";
const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;
let audio = null;
const SPEAKER = '<path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor"/>';
const SPEAKER_ON = `<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">${SPEAKER}<path d="M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" stroke="currentColor" stroke-width="2" fill="none"/></svg>`;
const SPEAKER_OFF = `<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">${SPEAKER}<path d="M16 9l5 6M21 9l-5 6" stroke="currentColor" stroke-width="2"/></svg>`;

export function soundOn() {
  return localStorage.getItem(SOUND) === "on";
}

// The toggle in the top bar: a button whose pressed state is the setting.
export function setupSound(button) {
  const draw = () => {
    const on = soundOn();
    button.setAttribute("aria-pressed", String(on));
    button.setAttribute("aria-label", t("Sound"));
    button.title = t("Sound");
    button.innerHTML = on ? SPEAKER_ON : SPEAKER_OFF;
  };
  button.addEventListener("click", () => {
    localStorage.setItem(SOUND, soundOn() ? "off" : "on");
    draw();
    if (soundOn()) beep("score");
  });
  draw();
  return draw;
}

const TONES = { roll: [[180, 0.05], [140, 0.05], [220, 0.06]], score: [[660, 0.09], [880, 0.12]], yacht: [[523, 0.1], [659, 0.1], [784, 0.1], [1047, 0.25]] };

export function beep(kind) {
  if (!soundOn()) return;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  audio ||= new Context();
  let at = audio.currentTime;
  for (const [frequency, length] of TONES[kind] || []) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = frequency;
    osc.type = kind === "roll" ? "triangle" : "sine";
    gain.gain.setValueAtTime(0.12, at);
    gain.gain.exponentialRampToValueAtTime(0.001, at + length);
    osc.connect(gain).connect(audio.destination);
    osc.start(at);
    osc.stop(at + length);
    at += length;
  }
}

// Light up what a score changed: its box in the card and the sheet, and the player's totals.
export function markScore(seat, category) {
  const selectors = [
    `.box.filled[data-seat="${seat}"][data-category="${category}"]`,
    `.sheet td.filled[data-seat="${seat}"][data-category="${category}"]`,
    `.panel-total[data-seat="${seat}"]`,
    `.card-total[data-seat="${seat}"]`,
  ];
  for (const el of document.querySelectorAll(selectors.join(","))) {
    el.classList.remove("just-scored");
    void el.offsetWidth; // restart the animation
    el.classList.add("just-scored");
  }
}

// A Yacht: a banner that says so (announced), with falling confetti unless motion is reduced.
export function celebrate(box, name, points) {
  box.innerHTML =
    `<div class="yacht-banner"><strong>${esc(categoryLabel("yacht"))}!</strong>` +
    `<span>${tnHtml("{name} scores {n} point", "{name} scores {n} points", points, { name: nameHtml(name) })}</span></div>`;
  // Each piece's place through the CSSOM: the pages' policy allows no style attribute.
  for (let i = 0; !reducedMotion() && i < 24; i++) {
    const piece = document.createElement("i");
    piece.style.setProperty("--i", String(i));
    piece.style.setProperty("--x", String((i * 37) % 100));
    box.append(piece);
  }
  box.hidden = false;
  clearTimeout(box._timer);
  box._timer = setTimeout(() => (box.hidden = true), 2600);
}
