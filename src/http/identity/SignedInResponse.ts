import { Effect, Redacted } from "effect"
import type { SignedIn } from "../../domain/identity/Login.js"
import { CurrentPrincipal } from "../../domain/identity/Principal.js"
import { Accounts } from "../../services/identity/Accounts.js"
import { DeviceCookies } from "../../services/identity/DeviceCookies.js"
import type { Issued } from "../../services/identity/Sessions.js"
import { setDeviceCookie, setSessionCookies } from "./SessionCookies.js"

/** The answer of a finished sign-in: tokens and user in the body, the session cookies set. */
export const signedIn = (issued: Issued) =>
  Effect.gen(function*() {
    const accounts = yield* Accounts
    const user = yield* accounts.profile(issued.userId)
    yield* setSessionCookies(issued)
    return {
      _tag: "SignedIn",
      mfaRequired: false,
      accessToken: Redacted.make(issued.accessToken),
      tokenType: "Bearer",
      expiresIn: issued.expiresIn,
      user
    } satisfies SignedIn
  })

/** The answer of a login that proved every factor: `signedIn`, and this browser's device cookie renewed. */
export const loggedIn = (issued: Issued) =>
  Effect.gen(function*() {
    const devices = yield* DeviceCookies
    yield* setDeviceCookie(yield* devices.issue(issued.userId))
    return yield* signedIn(issued)
  })

/** The signed-in user of an account route (the middleware admits only users to those). */
export const currentUser = Effect.flatMap(CurrentPrincipal, (principal) =>
  principal._tag === "User"
    ? Effect.succeed(principal)
    : Effect.dieMessage("An account route was reached by an API token; the middleware must refuse that"))
