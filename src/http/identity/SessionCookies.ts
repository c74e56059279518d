/**
 * The cookies of a browser session (ASVS 3.3): `__Host-parley_access`
 * (Secure, HttpOnly, SameSite=Lax, Path=/) carries an access token that is
 * sent only in this header, and `__Secure-parley_refresh` (Secure, HttpOnly,
 * SameSite=Strict, Path=/v1/auth: it cannot use `__Host-`, which needs Path=/)
 * carries the refresh token, which never appears in a body. A sign-in also
 * sets the device cookie `__Host-parley_device` (Secure, HttpOnly,
 * SameSite=Strict, Path=/, a year), which sign-out leaves in place: it marks
 * the browser, not the session.
 */
import { HttpApp, HttpServerResponse } from "@effect/platform"
import { Duration, Effect } from "effect"
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_SECONDS } from "../../domain/identity/DeviceCookie.js"
import { REFRESH_COOKIE, REFRESH_COOKIE_PATH } from "../../domain/identity/Session.js"
import type { Issued } from "../../services/identity/Sessions.js"
import { ACCESS_COOKIE } from "../middleware/Authentication.js"

const access = { httpOnly: true, secure: true, sameSite: "lax", path: "/" } as const
const refresh = { httpOnly: true, secure: true, sameSite: "strict", path: REFRESH_COOKIE_PATH } as const

/** Set both cookies of a new or refreshed session on the response. */
export const setSessionCookies = (issued: Issued) =>
  HttpApp.appendPreResponseHandler((_request, response) =>
    Effect.orDie(HttpServerResponse.setCookies(response, [
      [ACCESS_COOKIE, issued.cookieAccessToken, { ...access, maxAge: Duration.seconds(issued.expiresIn) }],
      [REFRESH_COOKIE, issued.refreshToken, { ...refresh, maxAge: Duration.seconds(issued.refreshMaxAge) }]
    ]))
  )

/** Set the device cookie of a browser that just signed in (see `DeviceCookies`). */
export const setDeviceCookie = (value: string) =>
  HttpApp.appendPreResponseHandler((_request, response) =>
    Effect.orDie(HttpServerResponse.setCookie(response, DEVICE_COOKIE, value, {
      httpOnly: true,
      secure: true,
      sameSite: "strict",
      path: "/",
      maxAge: Duration.seconds(DEVICE_COOKIE_MAX_AGE_SECONDS)
    }))
  )

/** Expire both cookies (sign-out). */
export const clearSessionCookies = HttpApp.appendPreResponseHandler((_request, response) =>
  Effect.succeed(
    response.pipe(
      HttpServerResponse.expireCookie(ACCESS_COOKIE, access),
      HttpServerResponse.expireCookie(REFRESH_COOKIE, refresh)
    )
  )
)
