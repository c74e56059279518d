/**
 * Deployed Assistants for tests: an Assistant with a given draft, a
 * deployment of it made over HTTP (with its one-time embed token), and calls
 * to the public runtime as an embedding page makes them. Each comes raw (for
 * the files that check the wire, or send what the contract's schemas refuse)
 * and through the typed client (`...Typed`, `publicClientOf`).
 */
import { HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect, Redacted, Schema } from "effect"
import { AssistantCreate, type AssistantId } from "../../src/domain/assistants/Assistant.js"
import { FlowReplace } from "../../src/domain/assistants/Flow.js"
import { IntentCreate } from "../../src/domain/assistants/Intent.js"
import { DeploymentCreate } from "../../src/domain/deployments/Deployment.js"
import type { RuntimeSessionId } from "../../src/domain/runtime/RuntimeSession.js"
import { TurnInput } from "../../src/domain/runtime/Turn.js"
import { Api } from "../../src/http/Api.js"
import { as, post, type TestAccount } from "./Accounts.js"
import { exchange } from "./Http.js"
import { clientOf } from "./Members.js"

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

/** `assistantWith` through the typed client: the draft and the intents decoded with the contract's schemas. */
export const assistantWithTyped = (
  owner: TestAccount,
  graph: unknown,
  options: { readonly name?: string; readonly intents?: ReadonlyArray<unknown>; readonly nluThreshold?: number } = {}
) =>
  Effect.gen(function*() {
    const client = yield* clientOf(owner)
    const created = yield* client.assistants.create({
      payload: AssistantCreate.make({
        name: options.name ?? "Deployed",
        ...(options.nluThreshold === undefined ? {} : { nluThreshold: options.nluThreshold })
      })
    })
    const path = { agent_id: created.id }
    for (const intent of options.intents ?? []) {
      yield* client.assistants.createIntent({ path, payload: Schema.decodeUnknownSync(IntentCreate)(intent) })
    }
    yield* client.flows.replaceFlow({ path, headers: {}, payload: Schema.decodeUnknownSync(FlowReplace)(graph) })
    return created.id
  })

/** `deploy` through the typed client (in `workspaceId` when given): the deployment with its token and snippet. */
export const deployTyped = (
  owner: TestAccount,
  agentId: AssistantId,
  body: typeof DeploymentCreate.Encoded = { allowedOrigins: ["*"] },
  workspaceId?: string
) =>
  Effect.flatMap(clientOf(owner, workspaceId), (client) =>
    client.deployments.createForAgent({
      path: { agent_id: agentId },
      payload: Schema.decodeSync(DeploymentCreate)(body)
    }))

/** `deployed` through the typed client: the deployment's id and its embed token. */
export const deployedTyped = (
  owner: TestAccount,
  agentId: AssistantId,
  body: typeof DeploymentCreate.Encoded = { allowedOrigins: ["*"] }
) =>
  Effect.map(deployTyped(owner, agentId, body), (made) => ({
    id: made.deployment.id,
    token: Redacted.value(made.embedToken)
  }))

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

/**
 * The typed client of the public runtime as an embedding page calls it: the
 * embed token, and the origin when the page has one; nothing else (no client
 * address), the same request as `startPublic`, `turnPublic` and `readPublic`.
 */
export const publicClientOf = (page: Page) =>
  HttpApiClient.make(Api, {
    transformClient: (client) => client.pipe(HttpClient.mapRequest((request) => fromPage(request, page)))
  })

/**
 * `turnPublic` through a page's typed client: `body` decoded with `TurnInput`,
 * with an Idempotency-Key when given. The endpoint's two body shapes (`text`,
 * `payload`) are two request types of the client, so each is sent as the one it is.
 */
export const turnPublicTyped = (
  client: Effect.Effect.Success<ReturnType<typeof publicClientOf>>,
  sessionId: RuntimeSessionId,
  body: unknown,
  key?: string
) => {
  const input = Schema.decodeUnknownSync(TurnInput)(body)
  const path = { id: sessionId }
  const headers = key === undefined ? {} : { "idempotency-key": key }
  return "text" in input
    ? client.publicRuntime.sendTurn({ path, headers, payload: input })
    : client.publicRuntime.sendTurn({ path, headers, payload: input })
}
