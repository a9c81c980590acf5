// What this browser knows of its table, shared by the page's modules: the last state, the
// seats it holds, an action on its way, the hint shown.
import { tokens } from "./api.js";
import { seatName } from "./labels.js";

export const code = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "").toUpperCase();

export const S = {
  table: null,
  mine: tokens.get(code), // {seat: token} held by this browser
  waiting: null, // the version an action was sent on, until the answer comes
  hint: null,
  hintAsked: null, // {number, version, ref} of the hint on its way, until its answer or error
  botLevels: ["random", "greedy", "easy", "medium", "hard", "optimal"],
  missing: false, // no table has this code
  send: () => false, // a message to the server over the table's socket
  elsewhere: new Set(), // seats of ours a newer tab or device plays now: not played from here
  elsewhereDevice: null, // {browser, system} of that tab or device
};

export const seatsMine = () => new Set(Object.keys(S.mine).map(Number));
export const names = () => S.table.seats.map(seatName);

// The seat on turn when this browser holds it (and no bot plays it for us), else null.
export function controlling() {
  const g = S.table?.game;
  if (!g || g.status !== "playing" || g.current === null) return null;
  if (S.elsewhere.has(g.current)) return null;
  return S.mine[g.current] && S.table.seats[g.current].kind !== "bot" ? g.current : null;
}
