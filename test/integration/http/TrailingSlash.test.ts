/**
 * Found by the contract fuzz suite (`test/integration/fuzz`): the API's router ignores a
 * trailing slash, but the media-type check matched paths strictly, so
 * `POST /v1/auth/login/` read a cross-site form and signed a visitor in (the
 * login CSRF the check exists to close). And a multipart body whose
 * Content-Type has no boundary made the parser throw: a 500 instead of a 400.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { as, freshAddress, PASSWORD, signUp } from "../../support/Accounts.js"
import { exchange, postRaw } from "../../support/Http.js"
import { testServer } from "../../support/TestServer.js"

layer(testServer(), { excludeTestServices: true })("route matching and multipart boundaries", (it) => {
  it.effect("a trailing slash does not get a form past the media-type check", () =>
    Effect.gen(function*() {
      const account = yield* signUp()
      const form = `email=${encodeURIComponent(account.email)}&password=${encodeURIComponent(PASSWORD)}`
      for (const path of ["/v1/auth/login", "/v1/auth/login/", "/v1/auth/login//", "/V1/AUTH/LOGIN/"]) {
        for (
          const contentType of ["application/x-www-form-urlencoded", "text/plain", "multipart/form-data; boundary=x"]
        ) {
          const res = yield* exchange(as(postRaw(path, form, contentType), { address: freshAddress() }))
          expect({ path, contentType, status: res.status, tag: res.json?._tag }).toEqual({
            path,
            contentType,
            status: 415,
            tag: "UnsupportedMediaType"
          })
        }
      }
    }))

  it.effect("a multipart body without a usable boundary is a 400 MalformedBody", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      for (
        const contentType of [
          "multipart/form-data",
          "multipart/form-data; boundary=",
          "multipart/form-data; boundary=\"\"",
          "multipart/form-data;boundary",
          "multipart/form-data; charset=utf-8; =x; boundary=x"
        ]
      ) {
        const res = yield* exchange(as(postRaw("/v1/imports/source", "--x\r\n\r\n", contentType), owner))
        expect({ contentType, status: res.status, tag: res.json?._tag }).toEqual({
          contentType,
          status: 400,
          tag: "MalformedBody"
        })
      }
    }))
})
