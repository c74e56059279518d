/**
 * Accounts for tests, made the way a user makes them: over HTTP, with links
 * read from the development mailer's outbox. Each caller may have its own
 * client address (`X-Forwarded-For`, trusted by the test servers), so
 * per-address limits of one test do not spill into another.
 */
import { HttpClientRequest } from "@effect/platform"
import { Effect, Option } from "effect"
import { DevOutbox } from "../../src/providers/DevMailer.js"
import type { MailTag } from "../../src/providers/Mailer.js"
import { type Exchange, exchange, postRaw } from "./Http.js"

/** A strong password for test accounts. */
export const PASSWORD = "correct horse battery staple"

let counter = 0
/** A fresh address for a test account. */
export const freshEmail = (label = "user") => `${label}-${process.pid}-${++counter}-${Date.now()}@example.com`

/** A fresh client address, so per-address limits start at zero. */
export const freshAddress = () => `198.51.100.${(++counter % 250) + 1}`

/** Attach a client address (and optionally a bearer token and workspace) to a request. */
export const as = (
  request: HttpClientRequest.HttpClientRequest,
  caller: { readonly address?: string; readonly token?: string; readonly workspaceId?: string }
) =>
  request.pipe(
    caller.address === undefined ? (r) => r : HttpClientRequest.setHeader("x-forwarded-for", caller.address),
    caller.token === undefined ? (r) => r : HttpClientRequest.bearerToken(caller.token),
    caller.workspaceId === undefined ? (r) => r : HttpClientRequest.setHeader("x-workspace-id", caller.workspaceId)
  )

/** A JSON POST as a caller. */
export const post = (url: string, body: unknown, caller: Parameters<typeof as>[1] = {}) =>
  exchange(as(postRaw(url, JSON.stringify(body)), caller))

/** A signed-up account: its token, ids and the answer that created it. */
export interface TestAccount {
  readonly email: string
  readonly address: string
  readonly token: string
  readonly userId: string
  readonly workspaceId: string
  readonly signup: Exchange
}

/** The token in the latest link of a kind mailed to an address. */
export const mailedToken = (to: string, tag: MailTag) =>
  Effect.gen(function*() {
    const outbox = yield* DevOutbox
    const message = yield* outbox.latest(to, tag)
    if (Option.isNone(message)) return yield* Effect.dieMessage(`no ${tag} mail to ${to}`)
    return new URL(message.value.links[0]!).searchParams.get("token")!
  })

/** Sign up a new account (optionally verifying its email) and read its personal workspace. */
export const signUp = (options: { readonly email?: string; readonly verified?: boolean } = {}) =>
  Effect.gen(function*() {
    const email = options.email ?? freshEmail()
    const address = freshAddress()
    const signup = yield* post("/v1/auth/signup", { email, password: PASSWORD }, { address })
    if (signup.status !== 201) return yield* Effect.dieMessage(`signup answered ${signup.status}: ${signup.text}`)
    const token = signup.json.accessToken as string
    if (options.verified ?? true) {
      const verify = yield* post("/v1/auth/verify-email", { token: yield* mailedToken(email, "email-verification") }, {
        address
      })
      if (verify.status !== 204) return yield* Effect.dieMessage(`verify answered ${verify.status}: ${verify.text}`)
    }
    const me = yield* exchange(as(HttpClientRequest.get("/v1/auth/me"), { token, address }))
    return {
      email,
      address,
      token,
      userId: me.json.user.id as string,
      workspaceId: me.json.memberships[0].workspace.id as string,
      signup
    } satisfies TestAccount
  })

/** Sign in again (a new session) and answer its access token. */
export const logIn = (account: { readonly email: string; readonly address: string }) =>
  Effect.gen(function*() {
    const res = yield* post("/v1/auth/login", { email: account.email, password: PASSWORD }, {
      address: account.address
    })
    if (res.status !== 200) return yield* Effect.dieMessage(`login answered ${res.status}: ${res.text}`)
    return res
  })
