// An account, optional: the lobby's sign-up, sign-in and sign-out panel, and a signed-in
// player's seats at a table, fetched on any device (docs/web/accounts.md).
import { ACCOUNT, api, esc, setCsrf, show, signedIn, tokens, $ } from "./api.js";
import { t } from "./i18n.js";
import { errorText } from "./labels.js";
import { forgetDevice } from "./push.js";

function render(me, recovery = null) {
  show($("#account-out"), !me);
  show($("#account-in"), Boolean(me));
  $("#account-name").textContent = me ? me.name : "";
  $("#account-profile").setAttribute("href", me ? `@/${encodeURIComponent(me.name)}` : "./");
  const rated = $("#rated-row"); // a rated table is opened signed in
  if (rated) {
    show(rated, Boolean(me));
    if (!me && $("#rated").checked) $("#rated").click(); // unticked, hints allowed again
  }
  const shown = $("#recovery");
  show(shown, Boolean(recovery));
  shown.innerHTML = recovery
    ? `${esc(t("Your recovery code, shown only this once: write it down. It is the only way back in if you forget your password."))} <code>${esc(recovery)}</code>`
    : "";
}

// Signed up or in: the seats this browser held as a guest become the account's.
async function entered(me) {
  setCsrf(me.csrf_token);
  localStorage.setItem(ACCOUNT, me.name);
  const held = Object.fromEntries(Object.entries(tokens.all()).slice(-50));
  if (Object.keys(held).length) await api("api/me/seats", { method: "POST", body: held }).catch(() => {});
}

export async function setupAccount(toast) {
  render(await signedIn());
  $("#account-out").addEventListener("submit", async (event) => {
    event.preventDefault();
    const up = event.submitter?.value === "up";
    const body = { name: $("#account-user").value.trim(), password: $("#account-password").value };
    try {
      const me = await api(up ? "api/accounts" : "api/session", { method: "POST", body });
      await entered(me);
      $("#account-password").value = "";
      render(me, up ? me.recovery_code : null);
      if (!$("#name").value) $("#name").value = me.name;
    } catch (error) {
      toast(errorText(error));
    }
  });
  $("#sign-out").addEventListener("click", async () => {
    await forgetDevice().catch(() => {}); // before the session ends: the DELETE needs it
    await api("api/session", { method: "DELETE" }).catch(() => {});
    localStorage.removeItem(ACCOUNT);
    setCsrf(null);
    render(null);
  });
}

// At a table: a signed-in player's seats there (taken on another device) are this browser's too.
export async function followAccount(code) {
  if (!(await signedIn())) return;
  try {
    const mine = await api(`api/tables/${encodeURIComponent(code)}/mine`);
    for (const [seat, token] of Object.entries(mine.seats)) tokens.set(code, Number(seat), token);
  } catch {
    /* no such table: the page says so when it connects */
  }
}
