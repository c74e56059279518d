/** Helpers for import tests: call the import routes as a client would. */
import { HttpClientRequest } from "@effect/platform"
import { as, type TestAccount } from "../../support/Accounts.js"
import { exchange } from "../../support/Http.js"

export const postJson = (account: TestAccount, url: string, body: unknown) =>
  exchange(as(HttpClientRequest.post(url).pipe(HttpClientRequest.bodyUnsafeJson(body)), account))

export const getJson = (account: TestAccount, url: string) => exchange(as(HttpClientRequest.get(url), account))

export const newTarget = (name: string) => ({ kind: "new", name })
