/**
 * Deployed Assistants for tests: an Assistant with a given draft, a
 * deployment of it made over HTTP (with its one-time embed token), and calls
 * to the public runtime as an embedding page makes them.
 */
import { HttpClientRequest } from "@effect/platform"
import { Effect } from "effect"
import { as, post, type TestAccount } from "./Accounts.js"
import { exchange } from "./Http.js"

/** A new Assistant of the owner's workspace whose draft is `graph` (and `intents`); its id. */
export const assistantWith = (
  owner: TestAccount,
  graph: unknown,
  options: { readonly name?: string; readonly intents?: ReadonlyArray<unknown>; readonly nluThreshold?: number } = {}
) =>
  Effect.gen(function*() {
    const created = yield* post("/v1/agents", {
      name: options.name ?? "Deployed",
      ...(options.nluThreshold === undefined ? {} : { nluThreshold: options.nluThreshold })
    }, owner)
    if (created.status !== 201) return yield* Effect.dieMessage(`create answered ${created.status}: ${created.text}`)
    const agentId = created.json.id as string
    for (const intent of options.intents ?? []) {
      const made = yield* post(`/v1/agents/${agentId}/intents`, intent, owner)
      if (made.status !== 201) return yield* Effect.dieMessage(`intent answered ${made.status}: ${made.text}`)
    }
    const replaced = yield* replaceFlow(owner, agentId, graph)
    if (replaced.status !== 200) return yield* Effect.dieMessage(`flow answered ${replaced.status}: ${replaced.text}`)
    return agentId
  })

/** Replace an Assistant's draft flow. */
export const replaceFlow = (owner: TestAccount, agentId: string, graph: unknown) =>
  exchange(as(
    HttpClientRequest.put(`/v1/agents/${agentId}/flow`).pipe(HttpClientRequest.bodyUnsafeJson(graph)),
    owner
  ))

/** `POST /v1/agents/{id}/deployments`. */
export const deploy = (owner: TestAccount, agentId: string, body: unknown = { allowedOrigins: ["*"] }) =>
  post(`/v1/agents/${agentId}/deployments`, body, owner)

/** A live deployment of the Assistant; its id and its embed token. */
export const deployed = (owner: TestAccount, agentId: string, body: unknown = { allowedOrigins: ["*"] }) =>
  Effect.gen(function*() {
    const made = yield* deploy(owner, agentId, body)
    if (made.status !== 201) return yield* Effect.dieMessage(`deploy answered ${made.status}: ${made.text}`)
    return { id: made.json.deployment.id as string, token: made.json.embedToken as string }
  })

/** What an embedding page sends: the embed token, and its origin when it has one. */
export interface Page {
  readonly token?: string
  readonly origin?: string
}

const fromPage = (request: HttpClientRequest.HttpClientRequest, page: Page) =>
  request.pipe(
    page.token === undefined ? (r) => r : HttpClientRequest.bearerToken(page.token),
    page.origin === undefined ? (r) => r : HttpClientRequest.setHeader("origin", page.origin)
  )

/** `POST /v1/public/runtime/sessions`. */
export const startPublic = (page: Page, body: unknown = {}) =>
  exchange(fromPage(
    HttpClientRequest.post("/v1/public/runtime/sessions").pipe(HttpClientRequest.bodyUnsafeJson(body)),
    page
  ))

/** `POST /v1/public/runtime/sessions/{id}/turns`, with an Idempotency-Key when given. */
export const turnPublic = (page: Page, sessionId: string, body: unknown, key?: string) =>
  exchange(fromPage(
    HttpClientRequest.post(`/v1/public/runtime/sessions/${sessionId}/turns`).pipe(
      HttpClientRequest.bodyUnsafeJson(body),
      key === undefined ? (r) => r : HttpClientRequest.setHeader("idempotency-key", key)
    ),
    page
  ))

/** `GET /v1/public/runtime/sessions/{id}`. */
export const readPublic = (page: Page, sessionId: string) =>
  exchange(fromPage(HttpClientRequest.get(`/v1/public/runtime/sessions/${sessionId}`), page))
