// Names the server sends as ids, in the reader's language: bot levels, default bot names, presets,
// error codes.
import { language, pgettext, t } from "./i18n.js";

const LEVELS = {
  random: () => pgettext("bot", "random"),
  greedy: () => t("greedy"),
  easy: () => t("easy"),
  medium: () => t("medium"),
  hard: () => t("hard"),
  optimal: () => t("optimal"),
  winner: () => t("winner"),
};

const BOTS = {
  random: () => t("Random bot"),
  greedy: () => t("Greedy bot"),
  easy: () => t("Easy bot"),
  medium: () => t("Medium bot"),
  hard: () => t("Hard bot"),
  optimal: () => t("Optimal bot"),
  winner: () => t("Winner bot"),
};

const PRESETS = {
  traditional: () => [t("Traditional"), t("Traditional Yacht (1938): no bonuses, Four of a Kind counts four dice.")],
  "all-dice-four": () => [t("Four of a Kind counts all dice"), t("Traditional, but Four of a Kind scores the sum of all five dice.")],
  knizia: () => [t("Knizia (OpenSpiel)"), t("Four of a Kind scores all five dice; five of a kind is also a Full House.")],
  clubhouse: () => [t("Clubhouse"), t("Modern Yacht Dice: 35 bonus at 63 in Ones to Sixes, small and big straights, Full House and Four of a Kind score all dice.")],
};

const ERRORS = {
  stale_version: () => t("The game had moved on; your view is up to date now."),
  not_your_turn: () => t("It is not your turn."),
  bad_token: () => t("This browser does not hold that seat."),
  spectator: () => t("Spectators watch; take a seat to play."),
  illegal: () => t("Not allowed now."),
  invalid: () => t("That request was not understood."),
  not_started: () => t("The game starts when every seat is taken."),
  game_over: () => t("The game is over."),
  seat_taken: () => t("That seat is taken."),
  hints_off: () => t("This table plays without hints."),
  not_found: () => t("There is no table with this code."),
  busy: () => t("The server is busy; try again."),
  rate_limited: () => t("Too many requests; wait a moment and try again."),
  unavailable: () => t("The server lost its database; try again in a moment."),
  unauthorized: () => t("Wrong name or password, or not signed in."),
  name_taken: () => t("That name is taken."),
  csrf: () => t("Reload the page and try again."),
};

// An error from the server in the reader's language: its code's text, then why, when the server
// could say it in this language (the rules' reasons come as `detail`); in English the server's
// own words say what was wrong with a request.
export function errorText(error, known = ERRORS) {
  const found = known[error.code] || ERRORS[error.code];
  const text = found ? found() : t("Something went wrong.");
  if (error.detail) return `${text} ${error.detail}`;
  const detail = error.code === "illegal" || error.code === "invalid";
  return detail && language() === "en" && error.message ? `${text} ${error.message}` : text;
}

export function levelLabel(level) {
  const target = /^target:(\d+)$/.exec(level || "");
  if (target) return t("aims at {points}", { points: target[1] });
  return LEVELS[level] ? LEVELS[level]() : level;
}

// A seat's name: a bot keeping the server's default English name ("Medium bot 2") is named in
// the reader's language; a name somebody typed stays as typed.
export function seatName(seat) {
  return seat.name ? playerName(seat.name) : t("Seat {n}", { n: seat.seat + 1 });
}

export function playerName(name) {
  const m = /^([A-Z][a-z]+) bot(?: (\d+))?$/.exec(name || "");
  const bot = m && BOTS[m[1].toLowerCase()];
  if (!bot) return name;
  return m[2] ? `${bot()} ${m[2]}` : bot();
}

export function presetLabel(name) {
  return PRESETS[name] ? PRESETS[name]()[0] : name;
}

export function presetDescription(name, fallback = "") {
  return PRESETS[name] ? PRESETS[name]()[1] : fallback;
}
