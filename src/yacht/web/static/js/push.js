// Notifications that reach a closed tab (docs/web/notifications.md): an opt-in per device on the
// inbox page, off until ticked. The browser's permission is asked only on that click; the
// subscription (PushSubscription.toJSON(), the page's language and the kinds ticked) goes to
// POST /api/push/subscriptions, and unticking deletes it on the server and in the browser.
// The app's service worker (sw.js) shows the messages and opens the table on a click.
import { api, show, $ } from "./api.js";
import { language, t } from "./i18n.js";
import { errorText } from "./labels.js";

const KINDS = "yacht:push-kinds"; // the kinds this device wants, {turn, near, end}
let registration = null;

function kinds() {
  const boxes = document.querySelectorAll("#push-kinds input[data-kind]");
  return Object.fromEntries([...boxes].map((box) => [box.dataset.kind, box.checked]));
}

// The line under the switch, written again in a new language when the page's changes.
let noted = () => "";

function note(text) {
  noted = typeof text === "function" ? text : () => text;
  $("#push-note").textContent = noted();
}

function bytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

async function current() {
  return registration ? registration.pushManager.getSubscription() : null;
}

async function send(subscription) {
  const json = subscription.toJSON();
  await api("api/push/subscriptions", {
    method: "POST",
    body: {
      endpoint: json.endpoint,
      expirationTime: json.expirationTime ?? null,
      keys: json.keys,
      lang: language(),
      kinds: kinds(),
    },
  });
}

async function turnOn() {
  if ((await Notification.requestPermission()) !== "granted") {
    note(() => t("Notifications are blocked for this site: allow them in the browser's settings."));
    return false;
  }
  const { key } = await api("api/push/key");
  const subscription =
    (await current()) ||
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes(key) }));
  await send(subscription);
  note(() => t("This device will be notified."));
  return true;
}

async function forget(subscription) {
  await api("api/push/subscriptions", { method: "DELETE", body: { endpoint: subscription.endpoint } }).catch(
    (error) => {
      if (error.code !== "not_found") throw error;
    },
  );
  await subscription.unsubscribe();
}

async function turnOff() {
  const subscription = await current();
  if (subscription) await forget(subscription);
  note("");
}

// Signing out (the lobby's account panel): this device stops getting the account's messages,
// so whoever uses the browser next is not told of the account's games.
export async function forgetDevice() {
  if (!("serviceWorker" in navigator)) return;
  const found = await navigator.serviceWorker.getRegistration(document.baseURI);
  const subscription = found && (await found.pushManager.getSubscription());
  if (subscription) await forget(subscription);
}

// The page's language changed: the line under the switch and the messages follow it.
export async function pushLanguage() {
  if ($("#push-note")) note(noted);
  const subscription = $("#push-on")?.checked ? await current() : null;
  if (subscription) await send(subscription).catch(() => {});
}

// me: the signed-in player (signedIn()), or null for a guest.
export async function setupPush(me) {
  const on = $("#push-on");
  if (!on) return;
  const saved = JSON.parse(localStorage.getItem(KINDS) || "{}");
  for (const box of document.querySelectorAll("#push-kinds input[data-kind]")) {
    if (box.dataset.kind in saved) box.checked = Boolean(saved[box.dataset.kind]);
  }
  if (!("serviceWorker" in navigator && "PushManager" in window && "Notification" in window)) {
    note(() => t("This browser cannot show notifications."));
    return;
  }
  if (!me) {
    note(() => t("Sign in to be notified on this device."));
    return;
  }
  registration = await navigator.serviceWorker.register(new URL("sw.js", document.baseURI));
  on.checked = Boolean(await current()) && Notification.permission === "granted";
  on.disabled = false;
  show($("#push-kinds"), on.checked);
  on.addEventListener("change", async () => {
    on.disabled = true;
    try {
      on.checked = on.checked ? await turnOn() : (await turnOff(), false);
    } catch (error) {
      on.checked = Boolean(await current());
      note(() => (error.code ? errorText(error) : t("Notifications could not be turned on in this browser.")));
    }
    show($("#push-kinds"), on.checked);
    on.disabled = false;
  });
  $("#push-kinds").addEventListener("change", async () => {
    localStorage.setItem(KINDS, JSON.stringify(kinds()));
    const subscription = await current();
    if (subscription) await send(subscription).catch((error) => note(() => errorText(error)));
  });
}
