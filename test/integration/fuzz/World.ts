/**
 * The world the fuzz suite attacks, made over HTTP as users make it: an owner
 * with an Assistant (a question with a pattern, a JSONata condition, an
 * intent), its deployment and embed token, a draft and a public conversation,
 * an import, an API token, an invitation, a colleague, and the callers: nobody,
 * the owner, a viewer of the owner's workspace, a member of another workspace,
 * an API token, and the embed token. Real ids fill the path parameters and
 * fields of their names, so requests reach real rows.
 */
import { HttpClientRequest, HttpServer } from "@effect/platform"
import { Effect } from "effect"
import { as, freshAddress, logIn, post, signUp, type TestAccount } from "../../support/Accounts.js"
import { assistantWith, deployed, startPublic } from "../../support/Deployments.js"
import { type Exchange, exchange } from "../../support/Http.js"
import { join } from "../../support/Members.js"

/** The kinds of caller, each with its own credentials (or none). */
export type CallerName = "anonymous" | "owner" | "viewer" | "stranger" | "apiToken" | "embed"

/** A caller: the headers that make a request theirs. Tokens are renewed when a fuzzed request ends them. */
export interface Caller {
  readonly name: CallerName
  readonly address: string
  readonly headers: () => Record<string, string>
}

const at = (x: number) => ({ x, y: 0 })

/** A pattern question, a text question checked by JSONata, and two ends: where hostile patterns would run. */
export const fuzzFlow = {
  nodes: [
    { id: "start", type: "start", position: at(0), data: {} },
    {
      id: "ask_code",
      type: "question",
      position: at(100),
      data: {
        prompt: "Your code?",
        variable: "code",
        validation: { kind: "regex", pattern: "^[A-Z]{3}-[0-9]{2,6}$" },
        maxAttempts: 3,
        reprompt: "Not a code."
      }
    },
    {
      id: "ask_text",
      type: "question",
      position: at(200),
      data: { prompt: "Anything else?", variable: "text", validation: { kind: "text" } }
    },
    {
      id: "check",
      type: "condition",
      position: at(300),
      data: { cases: [{ key: "word", expression: "$contains(vars.text, /^[a-z]+$/)" }] }
    },
    { id: "yes", type: "end", position: at(400), data: { message: "A word." } },
    { id: "no", type: "end", position: at(400), data: { message: "Not a word." } }
  ],
  edges: [
    { id: "e1", source: "start", target: "ask_code", kind: "next" },
    { id: "e2", source: "ask_code", target: "ask_text", kind: "answered" },
    { id: "e3", source: "ask_code", target: "no", kind: "fallback" },
    { id: "e4", source: "ask_text", target: "check", kind: "answered" },
    { id: "e5", source: "check", target: "yes", kind: "case", case: "word" },
    { id: "e6", source: "check", target: "no", kind: "fallback" }
  ]
}

const expectStatus = (what: string, status: number) => (answer: Exchange) =>
  answer.status === status
    ? Effect.succeed(answer)
    : Effect.dieMessage(`${what} answered ${answer.status}: ${answer.text.slice(0, 300)}`)

/** The world: the node's port, the callers, the real ids, and how to bring a caller back to life. */
export const makeWorld = Effect.gen(function*() {
  const port = ((yield* HttpServer.HttpServer).address as HttpServer.TcpAddress).port
  const owner = yield* signUp()
  const viewer = yield* join(owner, "viewer")
  const colleague = yield* join(owner, "editor")
  const stranger = yield* signUp()

  const agentId = yield* assistantWith(owner, fuzzFlow, {
    intents: [{ name: "greet", utterances: ["hello", "hi there", "good morning"] }]
  })
  const intents = yield* exchange(as(HttpClientRequest.get(`/v1/agents/${agentId}/intents`), owner))
  const intentId = (intents.json.items ?? intents.json)[0].id as string
  const deployment = yield* deployed(owner, agentId)
  const draftSession = yield* post("/v1/runtime/sessions", { agentId }, owner).pipe(
    Effect.flatMap(expectStatus("draft session", 201))
  )
  const publicSession = yield* startPublic({ token: deployment.token }).pipe(
    Effect.flatMap(expectStatus("public session", 201))
  )
  const imported = yield* post("/v1/imports/source", {
    format: "mermaid",
    content: "flowchart TD\n  A[Hello] --> B[Bye]",
    target: { kind: "new", name: "Fuzz import" }
  }, owner).pipe(Effect.flatMap(expectStatus("import", 201)))
  const newToken = (name: string) =>
    post("/v1/api-tokens", { name, role: "developer" }, owner).pipe(
      Effect.flatMap(expectStatus("api token", 201)),
      Effect.map((answer) => ({ id: answer.json.id as string, token: answer.json.token as string }))
    )
  const apiToken = { ...(yield* newToken("fuzz")) }
  const disposableToken = yield* newToken("fuzz-disposable")
  const invitation = yield* post("/v1/workspaces/invitations", {
    email: `invited-${owner.userId}@example.com`,
    role: "viewer"
  }, owner).pipe(Effect.flatMap(expectStatus("invitation", 201)))
  // A second session of the owner, for the routes that end a session by id.
  yield* logIn(owner)
  const sessions = yield* exchange(as(HttpClientRequest.get("/v1/auth/sessions"), owner))
  const otherSession = ((sessions.json.items ?? sessions.json) as ReadonlyArray<{ id: string; current: boolean }>)
    .find((session) => session.current !== true)?.id

  /** Real ids by field name, for bodies and query strings. */
  const byName: Record<string, string> = {
    agent_id: agentId,
    agentId,
    intent_id: intentId,
    intentId,
    node_id: "ask_code",
    nodeId: "ask_code",
    edge_id: "e1",
    edgeId: "e1",
    user_id: colleague.userId,
    userId: colleague.userId,
    invitation_id: invitation.json.id,
    invitationId: invitation.json.id,
    deploymentId: deployment.id,
    sessionId: draftSession.json.sessionId,
    workspaceId: owner.workspaceId
  }
  /** The resource an `{id}` names, by where it appears. */
  const byPath: ReadonlyArray<readonly [RegExp, string | undefined]> = [
    [/^\/v1\/deployments\//, deployment.id],
    [/^\/v1\/imports\//, imported.json.id],
    [/^\/v1\/runtime\/sessions\//, draftSession.json.sessionId],
    [/^\/v1\/public\/runtime\/sessions\//, publicSession.json.sessionId],
    [/^\/v1\/api-tokens\//, disposableToken.id],
    [/^\/v1\/auth\/sessions\//, otherSession]
  ]

  const tokens: Record<"owner" | "viewer" | "stranger", TestAccount & { token: string }> = {
    owner: { ...owner },
    viewer: { ...viewer },
    stranger: { ...stranger }
  }
  const userCaller = (name: "owner" | "viewer" | "stranger", workspaceId: string | undefined): Caller => ({
    name,
    address: tokens[name].address,
    headers: () => ({
      authorization: `Bearer ${tokens[name].token}`,
      ...(workspaceId === undefined ? {} : { "x-workspace-id": workspaceId })
    })
  })
  const callers: ReadonlyArray<Caller> = [
    { name: "anonymous", address: freshAddress(), headers: () => ({}) },
    userCaller("owner", owner.workspaceId),
    userCaller("viewer", owner.workspaceId),
    userCaller("stranger", undefined),
    { name: "apiToken", address: freshAddress(), headers: () => ({ authorization: `Bearer ${apiToken.token}` }) },
    { name: "embed", address: freshAddress(), headers: () => ({ authorization: `Bearer ${deployment.token}` }) }
  ]

  /**
   * Bring a caller back when a fuzzed request ended its credentials (a logout, sign-out everywhere, a
   * revoked token): sign in again, or make a new API token. The embed token cannot come back (a revoked
   * deployment stays revoked), which is why the suite runs the routes that end things last.
   */
  const revive = (caller: Caller) =>
    Effect.gen(function*() {
      if (caller.name === "owner" || caller.name === "viewer" || caller.name === "stranger") {
        const account = tokens[caller.name]
        const me = yield* exchange(as(HttpClientRequest.get("/v1/auth/me"), account))
        if (me.status === 401) account.token = (yield* logIn(account)).json.accessToken as string
      } else if (caller.name === "apiToken") {
        const probe = yield* exchange(as(HttpClientRequest.get("/v1/agents"), { token: apiToken.token }))
        if (probe.status === 401) Object.assign(apiToken, yield* newToken(`fuzz-${Date.now()}`))
      }
    })

  return {
    port,
    callers,
    agentId,
    embedToken: deployment.token,
    ownerHeaders: () => callers[1]!.headers(),
    known: (name: string): string | undefined => byName[name],
    knownInPath: (name: string, path: string): string | undefined =>
      name === "id" ? byPath.find(([prefix]) => prefix.test(path))?.[1] : byName[name],
    revive
  }
})

/** The world the suite runs in. */
export type World = Effect.Effect.Success<typeof makeWorld>
