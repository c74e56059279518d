/**
 * The links Parley mails open pages Parley serves, in a real browser
 * (Debian's Chromium): the verification link confirms the address, the reset
 * link sets a new password, the invitation link lets a new invitee sign up
 * and join, and an existing one sign in and join. Each page takes the token
 * out of the address bar, runs under its strict Content-Security-Policy
 * without a violation, and says what went wrong when the token is spent.
 */
import { HttpClientRequest, HttpServer } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { Page } from "playwright-core"
import { DevOutbox } from "../../../src/providers/DevMailer.js"
import type { MailTag } from "../../../src/providers/Mailer.js"
import { as, freshEmail, PASSWORD, post, signUp } from "../../support/Accounts.js"
import { chromiumContext } from "../../support/Chromium.js"
import { exchange } from "../../support/Http.js"
import { testServer } from "../../support/TestServer.js"

/** The latest link of a kind mailed to `to`, aimed at this test node (its public URL is not its address). */
const mailedLink = (to: string, tag: MailTag) =>
  Effect.gen(function*() {
    const message = yield* (yield* DevOutbox).latest(to, tag)
    if (Option.isNone(message)) return yield* Effect.dieMessage(`no ${tag} mail to ${to}`)
    const link = new URL(message.value.links[0]!)
    const address = (yield* HttpServer.HttpServer).address as HttpServer.TcpAddress
    return `http://127.0.0.1:${address.port}${link.pathname}${link.search}`
  })

/**
 * A browser page that records script errors and the console's errors, but for
 * the answers the pages expect (a spent token's 4xx is the page's to explain).
 */
const browserPage = Effect.gen(function*() {
  const context = yield* chromiumContext
  const page = yield* Effect.promise(() => context.newPage())
  const problems: Array<string> = []
  page.on("pageerror", (error) => problems.push(error.message))
  page.on("console", (message) => {
    if (
      message.type() === "error" &&
      !/^Failed to load resource: the server responded with a status of 4/.test(message.text())
    ) {
      problems.push(message.text())
    }
  })
  // Everything the page asked for: nothing but itself and the API (no favicon, nothing from outside).
  const requested: Array<string> = []
  page.on("request", (request) => requested.push(new URL(request.url()).pathname))
  return { page, problems, requested }
})

const statusOf = (page: Page) =>
  Effect.promise(async () => {
    const status = page.locator("#status")
    await status.waitFor({ state: "visible" })
    return { text: await status.textContent() ?? "", ok: (await status.getAttribute("class"))!.includes("ok") }
  })

layer(testServer(), { excludeTestServices: true, timeout: "120 seconds" })("the pages mailed links open", (it) => {
  it.scoped("the verification link confirms the address, once", () =>
    Effect.gen(function*() {
      const account = yield* signUp({ verified: false })
      const link = yield* mailedLink(account.email, "email-verification")
      const { page, problems, requested } = yield* browserPage
      const response = yield* Effect.promise(() => page.goto(link))
      const policy = response!.headers()["content-security-policy"]!
      // Its own inline script by hash, nothing else: no 'unsafe-inline', no eval, no other origin.
      const scripts = policy.split(";").map((directive) => directive.trim()).find((d) => d.startsWith("script-src"))!
      expect(scripts).toMatch(/^script-src 'sha256-[A-Za-z0-9+/=]+' 'wasm-unsafe-eval'$/)
      expect(policy).toContain("connect-src 'self'")
      expect(yield* statusOf(page)).toEqual({
        text: "Your email address is confirmed. You can close this page.",
        ok: true
      })
      // The token left the address bar (and the history entry).
      expect(page.url()).not.toContain("token")
      const me = yield* exchange(as(HttpClientRequest.get("/v1/auth/me"), account))
      expect(me.json.user.emailVerified).toBe(true)

      // The same link again: spent, and the page says so.
      yield* Effect.promise(() => page.goto(link))
      const again = yield* statusOf(page)
      expect(again.ok).toBe(false)
      expect(again.text.length).toBeGreaterThan(10)
      expect(problems).toEqual([])
      expect(new Set(requested)).toEqual(new Set(["/verify-email", "/v1/auth/verify-email"]))
    }))

  it.scoped("the reset link sets a new password, and a mistyped one is caught on the page", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      expect((yield* post("/v1/auth/forgot-password", { email: account.email }, account)).status).toBe(202)
      const link = yield* mailedLink(account.email, "password-reset")
      const { page, problems } = yield* browserPage
      const newPassword = "a brand new passphrase for parley"
      yield* Effect.promise(async () => {
        await page.goto(link)
        await page.getByLabel("New password").fill(newPassword)
        await page.getByLabel("The same again").fill("something else entirely")
        await page.getByRole("button", { name: "Set the password" }).click()
      })
      expect(yield* statusOf(page)).toEqual({ text: "The two passwords differ.", ok: false })
      yield* Effect.promise(async () => {
        await page.getByLabel("The same again").fill(newPassword)
        await page.getByRole("button", { name: "Set the password" }).click()
        await page.getByText("Your password is changed").waitFor()
      })
      expect(page.url()).not.toContain("token")
      const oldLogin = yield* post("/v1/auth/login", { email: account.email, password: PASSWORD }, account)
      expect(oldLogin.status).toBe(401)
      const newLogin = yield* post("/v1/auth/login", { email: account.email, password: newPassword }, account)
      expect(newLogin.status).toBe(200)
      expect(problems).toEqual([])
    }))

  it.scoped("the invitation link lets a new invitee sign up and join, and a member of another workspace sign in", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const newcomer = freshEmail("newcomer")
      const existing = yield* signUp()
      for (const [email, role] of [[newcomer, "editor"], [existing.email, "viewer"]] as const) {
        const invited = yield* post("/v1/workspaces/invitations", { email, role }, owner)
        expect(invited.status).toBe(201)
      }

      const { page, problems } = yield* browserPage
      const newcomerLink = yield* mailedLink(newcomer, "invitation")
      yield* Effect.promise(async () => {
        await page.goto(newcomerLink)
        await page.getByLabel("Email").fill(newcomer)
        await page.getByLabel("Password").fill("the newcomer's own passphrase")
        await page.getByRole("button", { name: "Create an account and accept" }).click()
      })
      expect(yield* statusOf(page)).toEqual({ text: "You joined the workspace as editor.", ok: true })

      const existingLink = yield* mailedLink(existing.email, "invitation")
      yield* Effect.promise(async () => {
        await page.goto(existingLink)
        await page.getByLabel("Email").fill(existing.email)
        await page.getByLabel("Password").fill(PASSWORD)
        await page.getByRole("button", { name: "Sign in and accept" }).click()
      })
      expect(yield* statusOf(page)).toEqual({ text: "You joined the workspace as viewer.", ok: true })

      const members = yield* exchange(
        as(HttpClientRequest.get("/v1/workspaces/members"), owner).pipe(
          HttpClientRequest.setHeader("x-workspace-id", owner.workspaceId)
        )
      )
      const listed = members.json.items as Array<{ email: string; role: string }>
      const roles = Object.fromEntries(listed.map((member) => [member.email, member.role]))
      expect(roles[newcomer]).toBe("editor")
      expect(roles[existing.email]).toBe("viewer")
      expect(problems).toEqual([])
    }))
})
