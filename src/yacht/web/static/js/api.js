// REST calls, seat tokens kept in this browser, and small DOM helpers.
import { language } from "./i18n.js";

export class ApiError extends Error {
  constructor(code, message, status, detail) {
    super(message);
    this.code = code;
    this.status = status;
    this.detail = detail; // the rules' reason in the page's language, when the server had one
  }
}

// The game may be served under a sub-path (https://example.org/yacht/): the server writes it into
// each page's <base href>, and every URL a script makes is relative to that base (no leading "/").
export function url(path) {
  return new URL(path, document.baseURI).href;
}

// A signed-in browser's CSRF token (GET /api/me gives it): every change it makes carries it.
let csrf = null;

export function setCsrf(token) {
  csrf = token || null;
}

export async function api(path, { method = "GET", body, headers = {} } = {}) {
  const init = { method, headers: { "Accept-Language": language(), ...headers } };
  if (csrf && method !== "GET") init.headers["X-CSRF-Token"] = csrf;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(url(path), init);
  const data = await response.json().catch(() => ({}));
  if (!response.ok)
    throw new ApiError(data.code || "error", data.message || response.statusText, response.status, data.detail);
  return data;
}

// The seats this browser holds at each table: {code: {seat: token}} in localStorage.
const TOKENS = "yacht:tokens";

function allTokens() {
  try {
    return JSON.parse(localStorage.getItem(TOKENS) || "{}");
  } catch {
    return {};
  }
}

export const tokens = {
  get(code) {
    return allTokens()[code] || {};
  },
  all() {
    return allTokens();
  },
  set(code, seat, token) {
    const all = allTokens();
    all[code] = { ...(all[code] || {}), [seat]: token };
    localStorage.setItem(TOKENS, JSON.stringify(all));
  },
  keep(code, seats) {
    const all = allTokens();
    const mine = all[code] || {};
    all[code] = Object.fromEntries(Object.entries(mine).filter(([s]) => seats.includes(Number(s))));
    localStorage.setItem(TOKENS, JSON.stringify(all));
  },
};

export function esc(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

export function $(selector, root = document) {
  return root.querySelector(selector);
}

export function show(el, visible) {
  el.hidden = !visible;
}

// Replace an element's markup only when it changed, so a click or focus in progress is not
// lost to a re-render that would draw the same thing.
const drawn = new WeakMap();
export function setHtml(el, html) {
  if (drawn.get(el) === html) return false;
  drawn.set(el, html);
  el.innerHTML = html;
  return true;
}

// The name this browser signed in as (the session itself is an HttpOnly cookie no script reads).
export const ACCOUNT = "yacht:account";

// The signed-in player ({name, created, csrf_token}), asked of the server only when this browser
// signed in (a guest's pages never ask); null when not, or no longer, signed in.
export async function signedIn() {
  if (!localStorage.getItem(ACCOUNT)) return null;
  try {
    const me = await api("api/me");
    setCsrf(me.csrf_token);
    localStorage.setItem(ACCOUNT, me.name);
    return me;
  } catch {
    localStorage.removeItem(ACCOUNT);
    setCsrf(null);
    return null;
  }
}
