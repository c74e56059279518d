/**
 * The pages the links Parley mails open (verify an address, reset a
 * password, accept an invitation), so that an install with no front end of
 * its own is usable. Each is one static HTML document with an inline script
 * that reads the token from the address, removes it from the address bar and
 * history, and calls the API on the same origin; no token or user input is
 * ever written into the HTML by the server (nothing to inject), and the
 * page's Content-Security-Policy allows its own inline script by hash and
 * requests to Parley only (`SecurityHeaders`). A front end with pages of its
 * own points the links at them instead (`PARLEY_MAIL_LINK_URL`).
 */

const style = `
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { max-width: 28rem; margin: 4rem auto; padding: 0 1rem; line-height: 1.5; }
  h1 { font-size: 1.4rem; }
  label { display: block; margin: .8rem 0 .2rem; }
  input { width: 100%; box-sizing: border-box; padding: .5rem; font: inherit; }
  button { margin-top: 1rem; padding: .5rem 1rem; font: inherit; cursor: pointer; }
  [hidden] { display: none !important; }
  .status { margin-top: 1rem; padding: .6rem .8rem; border-radius: .3rem; }
  .ok { background: #e6f4ea; color: #0b5b25; }
  .error { background: #fce8e6; color: #8c1d18; }
`

/**
 * What every page's script starts with: the token taken out of the address,
 * a status line, and `call` (a JSON POST to the API answering `{ ok, status,
 * body }`, never throwing).
 */
const common = `
  const params = new URLSearchParams(location.search);
  const token = params.get("token") || "";
  history.replaceState(null, "", location.pathname);
  const $ = (id) => document.getElementById(id);
  const show = (text, ok) => {
    const status = $("status");
    status.textContent = text;
    status.className = "status " + (ok ? "ok" : "error");
    status.hidden = false;
  };
  const call = async (path, payload, accessToken) => {
    try {
      const headers = { "content-type": "application/json" };
      if (accessToken) headers.authorization = "Bearer " + accessToken;
      const response = await fetch("/v1" + path, { method: "POST", headers, body: JSON.stringify(payload) });
      const text = await response.text();
      let body = null;
      try { body = text ? JSON.parse(text) : null; } catch { body = null; }
      return { ok: response.ok, status: response.status, body };
    } catch {
      return { ok: false, status: 0, body: { message: "Parley could not be reached. Try again." } };
    }
  };
  const reason = (answer) =>
    (answer.body && typeof answer.body.message === "string" && answer.body.message) ||
    "The request failed (" + answer.status + ").";
  if (!token) show("This link is incomplete: open the whole link from the mail.", false);
`

const page = (title: string, body: string, script: string): string =>
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>${title} · Parley</title>
<style>${style}</style>
</head>
<body>
<h1>${title}</h1>
${body}
<p id="status" class="status" role="status" hidden></p>
<script>${common}${script}</script>
</body>
</html>
`

/** Confirms the address as soon as it opens. */
export const verifyEmailPage = page(
  "Confirm your email address",
  `<p id="working">Confirming…</p>`,
  `
  if (token) {
    call("/auth/verify-email", { token }).then((answer) => {
      $("working").hidden = true;
      if (answer.ok) show("Your email address is confirmed. You can close this page.", true);
      else show(reason(answer), false);
    });
  } else $("working").hidden = true;
`
)

/** A new password, typed twice. */
export const resetPasswordPage = page(
  "Choose a new password",
  `<form id="form">
<label for="password">New password</label>
<input id="password" type="password" autocomplete="new-password" required minlength="1">
<label for="again">The same again</label>
<input id="again" type="password" autocomplete="new-password" required>
<button type="submit">Set the password</button>
</form>`,
  `
  $("form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const password = $("password").value;
    if (password !== $("again").value) return show("The two passwords differ.", false);
    const answer = await call("/auth/reset-password", { token, password });
    if (answer.ok) {
      $("form").hidden = true;
      show("Your password is changed, and every session of the account signed out. Sign in with the new password.", true);
    } else show(reason(answer), false);
  });
`
)

/** Sign in (or sign up), answer an MFA code if the account has MFA, then accept. */
export const acceptInvitationPage = page(
  "Accept an invitation",
  `<p>Sign in with the address the invitation was sent to, or create an account with it.</p>
<form id="form">
<label for="email">Email</label>
<input id="email" type="email" autocomplete="email" required>
<label for="password">Password</label>
<input id="password" type="password" autocomplete="current-password" required>
<div id="mfa" hidden>
<label for="code">Code from your authenticator app</label>
<input id="code" inputmode="numeric" autocomplete="one-time-code">
</div>
<button type="submit" id="signin">Sign in and accept</button>
<button type="button" id="signup">Create an account and accept</button>
</form>`,
  `
  let challengeToken = null;
  const accept = async (accessToken) => {
    const answer = await call("/workspaces/invitations/accept", { token }, accessToken);
    if (answer.ok) {
      $("form").hidden = true;
      show("You joined the workspace as " + answer.body.role + ".", true);
    } else show(reason(answer), false);
  };
  const signedIn = async (answer) => {
    if (!answer.ok) return show(reason(answer), false);
    if (answer.body.mfaRequired) {
      challengeToken = answer.body.challengeToken;
      $("mfa").hidden = false;
      $("code").focus();
      return show("Enter the code from your authenticator app.", true);
    }
    await accept(answer.body.accessToken);
  };
  $("form").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (challengeToken) {
      return signedIn(await call("/auth/mfa/challenge", { challengeToken, code: $("code").value.trim() }));
    }
    await signedIn(await call("/auth/login", { email: $("email").value, password: $("password").value }));
  });
  $("signup").addEventListener("click", async () => {
    if (!$("form").reportValidity()) return;
    await signedIn(await call("/auth/signup", { email: $("email").value, password: $("password").value }));
  });
`
)
