/**
 * The authorization matrix: every authenticated route of the contract, asked
 * by each role of a workspace, by an owner whose email is unverified, by a
 * member of another workspace naming this one, and by nobody, with the exact
 * status each must get. A route added without a declared access fails here;
 * so does any route that lets a stranger reach another workspace.
 */
import { HttpApi, HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Either, Option, Schema } from "effect"
import { capabilities, type Capability, holds, type Role } from "../../../src/domain/Capability.js"
import { Api } from "../../../src/http/Api.js"
import { notBuiltGroups } from "../../../src/http/ApiLive.js"
import { Authentication } from "../../../src/http/middleware/Authentication.js"
import { notBuiltRoutes } from "../../../src/http/NotImplementedHttp.js"
import { RequiredAccess } from "../../../src/http/RequiredAccess.js"
import { as, freshEmail, logIn, PASSWORD, post, signUp, type TestAccount } from "../../support/Accounts.js"
import { exchange } from "../../support/Http.js"
import { join } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"

interface Route {
  readonly operation: string
  readonly group: string
  readonly method: string
  readonly path: string
  readonly access: Option.Option<string>
  readonly pathSchema: Option.Option<Schema.Schema.AnyNoContext>
  readonly payloadSchema: Option.Option<Schema.Schema.AnyNoContext>
  readonly urlParamsSchema: Option.Option<Schema.Schema.AnyNoContext>
}

const routes: Array<Route> = []
HttpApi.reflect(Api, {
  onGroup() {},
  onEndpoint({ endpoint, group, middleware }) {
    if (![...middleware].some((tag) => tag.key === Authentication.key)) return
    routes.push({
      operation: `${group.identifier}.${endpoint.name}`,
      group: group.identifier,
      method: endpoint.method,
      path: endpoint.path,
      access: Context.getOption(endpoint.annotations, RequiredAccess),
      pathSchema: endpoint.pathSchema as unknown as Option.Option<Schema.Schema.AnyNoContext>,
      payloadSchema: endpoint.payloadSchema as unknown as Option.Option<Schema.Schema.AnyNoContext>,
      urlParamsSchema: endpoint.urlParamsSchema as unknown as Option.Option<Schema.Schema.AnyNoContext>
    })
  }
})

let matrixAgents = 0
const SAMPLE_ID = "0190c7a0-0000-7000-8000-000000000000"
const sampleParams: Record<string, string> = {
  slug: "support-bot",
  convo_slug: SAMPLE_ID,
  vid: "1",
  version_id: "1",
  kind: "webhook"
}
const pathParams = (path: string) =>
  Object.fromEntries([...path.matchAll(/:(\w+)/g)].map(([, name]) => [name!, sampleParams[name!] ?? SAMPLE_ID]))
const concrete = (path: string) => path.replace(/:(\w+)/g, (_, name: string) => sampleParams[name] ?? SAMPLE_ID)

let unique = 0
/** A valid body for each built route, and what an allowed caller gets for it. */
const builtProbes: Record<
  string,
  { readonly body?: () => unknown; readonly query?: string; readonly status: number; readonly tag?: string }
> = {
  "account.me": { status: 200 },
  "account.listSessions": { status: 200 },
  "account.deleteSession": { status: 404, tag: "SessionNotFound" },
  "account.reauthenticate": { body: () => ({ password: PASSWORD }), status: 200 },
  "account.changePassword": {
    body: () => ({ currentPassword: "not the password at all", newPassword: "a different strong passphrase" }),
    status: 401,
    tag: "InvalidCredentials"
  },
  "mfa.enroll": { body: () => ({ password: PASSWORD }), status: 200 },
  "mfa.verify": { body: () => ({ code: "000000" }), status: 401, tag: "InvalidMfaCode" },
  "mfa.disable": { body: () => ({ password: PASSWORD, code: "000000" }), status: 409, tag: "MfaNotEnabled" },
  "workspaces.list": { status: 200 },
  "workspaces.create": { body: () => ({ name: "Matrix", slug: `matrix-${Date.now()}-${++unique}` }), status: 201 },
  "members.list": { status: 200 },
  "members.changeRole": { body: () => ({ role: "viewer" }), status: 404, tag: "MemberNotFound" },
  "members.remove": { status: 404, tag: "MemberNotFound" },
  "invitations.create": { body: () => ({ email: freshEmail("invitee"), role: "viewer" }), status: 201 },
  "invitations.list": { status: 200 },
  "invitations.revoke": { status: 404, tag: "InvitationNotFound" },
  "invitations.accept": { body: () => ({ token: "not-a-real-invitation-token" }), status: 400, tag: "InvalidToken" },
  "apiTokens.list": { status: 200 },
  "apiTokens.create": { body: () => ({ name: `matrix-${++unique}`, role: "viewer" }), status: 201 },
  "apiTokens.delete": { status: 404, tag: "ApiTokenNotFound" },
  "audit.list": { status: 200 },
  "assistants.list": { status: 200 },
  "assistants.create": { body: () => ({ name: "Matrix" }), status: 201 },
  "assistants.get": { status: 404, tag: "AssistantNotFound" },
  "assistants.update": { body: () => ({ name: "Renamed" }), status: 404, tag: "AssistantNotFound" },
  "assistants.delete": { status: 404, tag: "AssistantNotFound" },
  "assistants.listIntents": { status: 404, tag: "AssistantNotFound" },
  "assistants.createIntent": {
    body: () => ({ name: "greet", utterances: ["hello"] }),
    status: 404,
    tag: "AssistantNotFound"
  },
  "assistants.updateIntent": { body: () => ({ name: "greet" }), status: 404, tag: "AssistantNotFound" },
  "assistants.deleteIntent": { status: 404, tag: "AssistantNotFound" },
  "flows.getFlow": { status: 404, tag: "AssistantNotFound" },
  "flows.replaceFlow": { body: () => ({ nodes: [], edges: [] }), status: 404, tag: "AssistantNotFound" },
  "flows.createNode": {
    body: () => ({ type: "end", position: { x: 0, y: 0 }, data: {} }),
    status: 404,
    tag: "AssistantNotFound"
  },
  "flows.updateNode": { body: () => ({ label: "Renamed" }), status: 404, tag: "AssistantNotFound" },
  "flows.deleteNode": { status: 404, tag: "AssistantNotFound" },
  "flows.createEdge": {
    body: () => ({ source: "start", target: "end", kind: "next" }),
    status: 404,
    tag: "AssistantNotFound"
  },
  "flows.deleteEdge": { status: 404, tag: "AssistantNotFound" },
  "flows.repairNode": { body: () => ({ nodeId: "start" }), status: 404, tag: "AssistantNotFound" },
  "flows.repairFlow": { body: () => ({}), status: 404, tag: "AssistantNotFound" },
  "flows.getAnalysis": { status: 404, tag: "AssistantNotFound" },
  "flows.exportFlow": { query: "?format=parley", status: 404, tag: "AssistantNotFound" },
  "imports.importDrawio": {
    body: () => ({ xml: "<mxGraphModel/>", target: { kind: "replace", agentId: SAMPLE_ID } }),
    status: 404,
    tag: "AssistantNotFound"
  },
  "imports.importSource": {
    body: () => ({ format: "mermaid", content: "flowchart TD", target: { kind: "replace", agentId: SAMPLE_ID } }),
    status: 404,
    tag: "AssistantNotFound"
  },
  "imports.list": { status: 200 },
  "imports.get": { status: 404, tag: "ImportNotFound" },
  "runtime.startSession": { body: () => ({ agentId: SAMPLE_ID }), status: 404, tag: "AssistantNotFound" },
  "runtime.sendTurn": { body: () => ({ text: "hello" }), status: 404, tag: "RuntimeSessionNotFound" },
  "runtime.getSession": { status: 404, tag: "RuntimeSessionNotFound" },
  "deployments.createForAgent": { body: () => ({ allowedOrigins: ["*"] }), status: 404, tag: "AssistantNotFound" },
  "deployments.create": {
    body: () => ({ agentId: SAMPLE_ID, allowedOrigins: ["*"] }),
    status: 404,
    tag: "AssistantNotFound"
  },
  "deployments.list": { status: 200 },
  "deployments.get": { status: 404, tag: "DeploymentNotFound" },
  "deployments.revoke": { status: 404, tag: "DeploymentNotFound" },
  "assistantAnalytics.getAnalytics": { status: 404, tag: "AssistantNotFound" },
  "agentSettings.getAgentLlm": { status: 200 },
  "agentSettings.updateAgentLlm": { body: () => ({ primary: null }), status: 200 },
  // The offline default answers without a network.
  "agentSettings.testAgentLlm": { body: () => ({}), status: 200 },
  "agentSettings.agentLlmInfo": { status: 200 },
  "agentSettings.llmConfig": { status: 200 },
  "agentSettings.getAgentOps": { status: 200 },
  "agentSettings.updateAgentOps": { body: () => ({}), status: 200 },
  "secrets.list": { status: 200 },
  "secrets.create": { body: () => ({ name: `MATRIX_${++unique}`, value: "matrix value" }), status: 201 },
  "secrets.rotate": { body: () => ({ value: "rotated value" }), status: 404, tag: "SecretNotFound" },
  "secrets.delete": { status: 404, tag: "SecretNotFound" },
  "workspaceTools.list": { status: 200 },
  "workspaceTools.create": {
    body: () => ({
      name: `matrix_${++unique}`,
      description: "A matrix tool",
      inputSchema: { type: "object" },
      method: "GET",
      url: "https://api.example.com/matrix"
    }),
    status: 201
  },
  "workspaceTools.get": { status: 404, tag: "WorkspaceToolNotFound" },
  "workspaceTools.update": { body: () => ({ timeoutSeconds: 5 }), status: 404, tag: "WorkspaceToolNotFound" },
  "workspaceTools.delete": { status: 404, tag: "WorkspaceToolNotFound" },
  "workspaceTools.test": { body: () => ({ input: {} }), status: 404, tag: "WorkspaceToolNotFound" },
  "aiAgentConversations.listConversations": { status: 404, tag: "AiAgentNotFound" },
  "aiAgentConversations.getConversation": { status: 404, tag: "AiAgentNotFound" },
  "aiAgentConversations.getAnalytics": { query: "?days=7", status: 404, tag: "AiAgentNotFound" },
  "aiAgents.list": { status: 200 },
  "aiAgents.create": {
    body: () => ({ slug: `matrix-agent-${process.pid}-${++matrixAgents}`, name: "Matrix agent" }),
    status: 201
  },
  "aiAgents.get": { status: 404, tag: "AiAgentNotFound" },
  "aiAgents.update": { body: () => ({ name: "Renamed" }), status: 404, tag: "AiAgentNotFound" },
  "aiAgents.delete": { status: 404, tag: "AiAgentNotFound" },
  "aiAgents.deriveTasks": { body: () => ({ description: "Answer questions about orders." }), status: 200 },
  "aiAgents.deriveAgentTasks": {
    body: () => ({ description: "Answer questions." }),
    status: 404,
    tag: "AiAgentNotFound"
  },
  "aiAgents.playground": { body: () => ({ message: "hello" }), status: 404, tag: "AiAgentNotFound" },
  // The sample slug names no agent: every allowed call of an agent's tasks or tools is its 404.
  "aiAgentTasks.list": { status: 404, tag: "AiAgentNotFound" },
  "aiAgentTasks.create": {
    body: () => ({ title: "Matrix task", goal: "g", successCriteria: ["done"] }),
    status: 404,
    tag: "AiAgentNotFound"
  },
  "aiAgentTasks.get": { status: 404, tag: "AiAgentNotFound" },
  "aiAgentTasks.update": { body: () => ({ title: "Renamed" }), status: 404, tag: "AiAgentNotFound" },
  "aiAgentTasks.delete": { status: 404, tag: "AiAgentNotFound" },
  "aiAgentTasks.updateById": { body: () => ({ id: SAMPLE_ID, title: "Renamed" }), status: 404, tag: "AiAgentNotFound" },
  "aiAgentTasks.deleteById": { query: `?id=${SAMPLE_ID}`, status: 404, tag: "AiAgentNotFound" },
  "aiAgentTools.list": { status: 404, tag: "AiAgentNotFound" },
  "aiAgentTools.create": {
    body: () => ({ name: "matrix_memo", config: { kind: "builtin", builtin: "remember" } }),
    status: 404,
    tag: "AiAgentNotFound"
  },
  "aiAgentTools.get": { status: 404, tag: "AiAgentNotFound" },
  "aiAgentTools.update": { body: () => ({ enabled: false }), status: 404, tag: "AiAgentNotFound" },
  "aiAgentTools.delete": { status: 404, tag: "AiAgentNotFound" },
  "aiAgentTools.updateById": { body: () => ({ id: SAMPLE_ID, enabled: false }), status: 404, tag: "AiAgentNotFound" },
  "aiAgentTools.deleteById": { query: `?id=${SAMPLE_ID}`, status: 404, tag: "AiAgentNotFound" },
  "aiAgentTools.test": { body: () => ({ input: {} }), status: 404, tag: "AiAgentNotFound" },
  "aiAgentMemory.list": { status: 404, tag: "AiAgentNotFound" },
  "aiAgentMemory.create": { body: () => ({ scope: "agent", content: "A fact" }), status: 404, tag: "AiAgentNotFound" },
  "aiAgentMemory.get": { status: 404, tag: "AiAgentNotFound" },
  "aiAgentMemory.update": { body: () => ({ content: "Changed" }), status: 404, tag: "AiAgentNotFound" },
  "aiAgentMemory.delete": { status: 404, tag: "AiAgentNotFound" },
  "aiAgentMemory.updateById": {
    body: () => ({ id: SAMPLE_ID, content: "Changed" }),
    status: 404,
    tag: "AiAgentNotFound"
  },
  "aiAgentMemory.deleteById": { query: `?id=${SAMPLE_ID}`, status: 404, tag: "AiAgentNotFound" },
  "aiAgentKnowledge.list": { status: 404, tag: "AiAgentNotFound" },
  "aiAgentKnowledge.create": {
    body: () => ({ kind: "text", title: "Matrix document", content: "Refunds take five days." }),
    status: 404,
    tag: "AiAgentNotFound"
  },
  "aiAgentKnowledge.get": { status: 404, tag: "AiAgentNotFound" },
  "aiAgentKnowledge.update": { body: () => ({ enabled: false }), status: 404, tag: "AiAgentNotFound" },
  "aiAgentKnowledge.delete": { status: 404, tag: "AiAgentNotFound" },
  "aiAgentKnowledge.updateById": {
    body: () => ({ id: SAMPLE_ID, enabled: false }),
    status: 404,
    tag: "AiAgentNotFound"
  },
  "aiAgentKnowledge.deleteById": { query: `?id=${SAMPLE_ID}`, status: 404, tag: "AiAgentNotFound" },
  "aiAgentGuardrails.list": { status: 404, tag: "AiAgentNotFound" },
  "aiAgentGuardrails.create": {
    body: () => ({ name: "matrix", stage: "input", rule: { kind: "max-length", maxCharacters: 100 }, action: "block" }),
    status: 404,
    tag: "AiAgentNotFound"
  },
  "aiAgentGuardrails.get": { status: 404, tag: "AiAgentNotFound" },
  "aiAgentGuardrails.update": { body: () => ({ enabled: false }), status: 404, tag: "AiAgentNotFound" },
  "aiAgentGuardrails.delete": { status: 404, tag: "AiAgentNotFound" },
  "aiAgentGuardrails.updateById": {
    body: () => ({ id: SAMPLE_ID, enabled: false }),
    status: 404,
    tag: "AiAgentNotFound"
  },
  "aiAgentGuardrails.deleteById": { query: `?id=${SAMPLE_ID}`, status: 404, tag: "AiAgentNotFound" },
  "aiAgentEvals.list": { status: 404, tag: "AiAgentNotFound" },
  "aiAgentEvals.create": {
    body: () => ({
      name: "Matrix case",
      conversation: [{ role: "user", content: "Hi" }],
      expectations: [{ kind: "contains", value: "Hi" }]
    }),
    status: 404,
    tag: "AiAgentNotFound"
  },
  "aiAgentEvals.get": { status: 404, tag: "AiAgentNotFound" },
  "aiAgentEvals.update": { body: () => ({ enabled: false }), status: 404, tag: "AiAgentNotFound" },
  "aiAgentEvals.delete": { status: 404, tag: "AiAgentNotFound" },
  "aiAgentEvals.updateById": { body: () => ({ id: SAMPLE_ID, enabled: false }), status: 404, tag: "AiAgentNotFound" },
  "aiAgentEvals.deleteById": { query: `?id=${SAMPLE_ID}`, status: 404, tag: "AiAgentNotFound" },
  "aiAgentEvals.run": { body: () => ({}), status: 404, tag: "AiAgentNotFound" },
  "aiAgentEvals.runSuite": { body: () => ({}), status: 404, tag: "AiAgentNotFound" },
  "aiAgentEvals.listEvalRuns": { status: 404, tag: "AiAgentNotFound" },
  "aiAgentReleases.publish": { body: () => ({}), status: 404, tag: "AiAgentNotFound" },
  "aiAgentReleases.rotatePublicToken": { status: 404, tag: "AiAgentNotFound" },
  "aiAgentReleases.getEmbed": { status: 404, tag: "AiAgentNotFound" },
  "aiAgentReleases.listVersions": { status: 404, tag: "AiAgentNotFound" },
  "aiAgentReleases.rollback": { status: 404, tag: "AiAgentNotFound" },
  "aiAgentReleases.listAuditEvents": { status: 404, tag: "AiAgentNotFound" },
  "aiAgentDrafts.list": { status: 200 },
  "aiAgentDrafts.create": { body: () => ({ name: "Matrix draft" }), status: 201 },
  "aiAgentDrafts.get": { status: 404, tag: "AiAgentDraftNotFound" },
  "aiAgentDrafts.update": { body: () => ({ name: "Renamed" }), status: 404, tag: "AiAgentDraftNotFound" },
  "aiAgentDrafts.delete": { status: 404, tag: "AiAgentDraftNotFound" },
  "workflows.list": { status: 200 },
  "workflows.create": { body: () => ({ name: "Matrix workflow" }), status: 201 },
  "workflows.get": { status: 404, tag: "WorkflowNotFound" },
  "workflows.update": { body: () => ({ name: "Renamed" }), status: 404, tag: "WorkflowNotFound" },
  "workflows.delete": { status: 404, tag: "WorkflowNotFound" },
  "workflows.replaceGraph": { body: () => ({ nodes: [], edges: [] }), status: 404, tag: "WorkflowNotFound" },
  "workflows.validatePublish": { status: 404, tag: "WorkflowNotFound" },
  "workflows.publish": { body: () => ({}), status: 404, tag: "WorkflowNotFound" },
  "workflows.listVersions": { status: 404, tag: "WorkflowNotFound" },
  "workflows.restoreVersion": { status: 404, tag: "WorkflowNotFound" },
  "workflowSimulator.startSession": { body: () => ({}), status: 404, tag: "WorkflowNotFound" },
  "workflowSimulator.sendTurn": { body: () => ({ text: "hello" }), status: 404, tag: "WorkflowSimSessionNotFound" },
  "workflowSimulator.listSessions": { status: 404, tag: "WorkflowNotFound" },
  "chains.list": { status: 200 },
  "chains.create": {
    body: () => ({ slug: `matrix-chain-${process.pid}-${++matrixAgents}`, name: "Matrix chain" }),
    status: 201
  },
  "chains.get": { status: 404, tag: "ChainNotFound" },
  "chains.update": { body: () => ({ name: "Renamed" }), status: 404, tag: "ChainNotFound" },
  "chains.delete": { status: 404, tag: "ChainNotFound" },
  "chains.rotateIngressSecret": { status: 404, tag: "ChainNotFound" },
  "chains.run": { body: () => ({ input: {} }), status: 404, tag: "ChainNotFound" },
  "chains.ingress": { body: () => ({ type: "order.created" }), status: 404, tag: "ChainNotFound" },
  "chains.listRuns": { status: 404, tag: "ChainNotFound" },
  "chains.getRun": { status: 404, tag: "ChainNotFound" },
  "chains.resumeRun": { body: () => ({ payload: null }), status: 404, tag: "ChainNotFound" },
  "chains.cancelRun": { status: 404, tag: "ChainNotFound" },
  "usage.usage": { query: "?period=week", status: 200 },
  "usage.billingStatus": { status: 200 },
  "support.reportError": { body: () => ({ message: "The matrix met an error" }), status: 202 },
  // Run last: they end sessions (logout ends a fresh one; revoke-sessions ends the caller's others).
  "auth.logout": { status: 204 },
  "auth.revokeSessions": { query: "?keepCurrent=true", status: 200 }
}
const runsLast = new Set(["auth.logout", "auth.revokeSessions"])

const notBuilt = new Set(notBuiltRoutes)

/** What an allowed caller gets from an unbuilt route sent `{}`: a 400 if that does not decode, else the 501. */
const unbuiltStatus = (route: Route): number => {
  const decodes = (schema: Option.Option<Schema.Schema.AnyNoContext>, value: unknown) =>
    Option.match(schema, { onNone: () => true, onSome: (s) => Either.isRight(Schema.decodeUnknownEither(s)(value)) })
  if (!decodes(route.pathSchema, pathParams(route.path))) return 400
  if (!decodes(route.urlParamsSchema, {})) return 400
  const hasBody = !["GET", "DELETE"].includes(route.method)
  if (hasBody && !decodes(route.payloadSchema, {})) return 400
  return 501
}

type Caller =
  | { readonly kind: "anonymous" }
  | { readonly kind: "member"; readonly role: Role; readonly account: TestAccount; readonly verified: boolean }
  | { readonly kind: "stranger"; readonly account: TestAccount }

/** The status a caller must get from a route, with the error's tag where one is fixed. */
const expected = (route: Route, caller: Caller): { status: number; tag?: string } => {
  if (caller.kind === "anonymous") return { status: 401, tag: "Unauthenticated" }
  if (caller.kind === "stranger") return { status: 404, tag: "WorkspaceNotFound" }
  const access = Option.getOrThrow(route.access)
  if (access !== "account") {
    if (!holds(caller.role, access as Capability)) return { status: 403, tag: "Forbidden" }
    if (capabilities[access as Capability].verifiedEmail && !caller.verified) {
      return { status: 403, tag: "EmailNotVerified" }
    }
  }
  if ((notBuiltGroups as ReadonlyArray<string>).includes(route.group) || notBuilt.has(route.operation)) {
    const status = unbuiltStatus(route)
    return status === 501 ? { status, tag: "NotImplemented" } : { status }
  }
  const probe = builtProbes[route.operation]
  if (probe === undefined) throw new Error(`no probe for the built route ${route.operation}: add one`)
  return probe.tag === undefined ? { status: probe.status } : { status: probe.status, tag: probe.tag }
}

layer(testServer(), { excludeTestServices: true })("authorization", (it) => {
  it("covers every authenticated route with a declared access", () => {
    expect(routes.length).toBeGreaterThan(150)
    expect(routes.filter((route) => Option.isNone(route.access)).map((route) => route.operation)).toEqual([])
  })

  it.effect("answers each caller of each route with the exact status of its role", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const workspaceId = owner.workspaceId
      const unverified = yield* signUp({ verified: false })
      const stranger = yield* signUp()
      const callers: Array<Caller> = [
        { kind: "anonymous" },
        { kind: "member", role: "owner", account: owner, verified: true },
        ...(yield* Effect.forEach(["viewer", "editor", "developer", "admin"] as const, (role) =>
          Effect.map(join(owner, role), (account): Caller => ({ kind: "member", role, account, verified: true })))),
        { kind: "member", role: "owner", account: unverified, verified: false },
        { kind: "stranger", account: stranger }
      ]
      const ordered = [
        ...routes.filter((r) =>
          !runsLast.has(r.operation)
        ),
        ...routes.filter((r) => runsLast.has(r.operation))
      ]
      const mismatches: Array<string> = []
      for (const caller of callers) {
        for (const route of ordered) {
          const want = expected(route, caller)
          const probe = builtProbes[route.operation]
          const body = probe?.body?.() ?? {}
          const selected = caller.kind === "anonymous"
            ? {}
            : caller.kind === "stranger"
            ? { token: caller.account.token, workspaceId, address: caller.account.address }
            : {
              token: route.operation === "auth.logout"
                ? (yield* logIn(caller.account)).json.accessToken as string
                : caller.account.token,
              // Members act in the owner's workspace; the unverified owner in their own.
              workspaceId: caller.verified ? workspaceId : caller.account.workspaceId,
              address: caller.account.address
            }
          const url = concrete(route.path) + (probe?.query ?? "")
          const request = ["GET", "DELETE"].includes(route.method)
            ? HttpClientRequest.make(route.method as "GET")(url)
            : HttpClientRequest.make(route.method as "POST")(url).pipe(HttpClientRequest.bodyUnsafeJson(body))
          const res = yield* exchange(as(request, selected))
          const who = caller.kind === "member" ? `${caller.role}${caller.verified ? "" : " (unverified)"}` : caller.kind
          if (res.status !== want.status || (want.tag !== undefined && res.json?._tag !== want.tag)) {
            mismatches.push(
              `${route.method} ${route.path} as ${who}: want ${want.status} ${want.tag ?? ""}, got ${res.status} ${
                res.text.slice(0, 160)
              }`
            )
          }
          if (
            res.status === 403 && want.tag === "Forbidden" &&
            res.json?.capability !== route.access.pipe(Option.getOrUndefined)
          ) {
            mismatches.push(`${route.method} ${route.path} as ${who}: the 403 does not name the capability`)
          }
        }
      }
      expect(mismatches).toEqual([])
    }), 240_000)

  it.effect("a member of another workspace cannot reach this workspace's data by id", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const created = yield* post("/v1/api-tokens", { name: "ours", role: "viewer" }, { token: owner.token })
      const tokenId = created.json.id as string
      const stranger = yield* signUp()
      // In their own workspace, the stranger names our resources by id: none is found, nothing changes.
      const revoke = yield* exchange(as(HttpClientRequest.del(`/v1/api-tokens/${tokenId}`), { token: stranger.token }))
      expect(revoke.status).toBe(404)
      const demote = yield* exchange(as(
        HttpClientRequest.patch(`/v1/workspaces/members/${owner.userId}`).pipe(
          HttpClientRequest.bodyUnsafeJson({ role: "viewer" })
        ),
        { token: stranger.token }
      ))
      expect(demote.status).toBe(404)
      const apiToken = created.json.token as string
      expect((yield* exchange(as(HttpClientRequest.get("/v1/workspaces/members"), { token: apiToken }))).status).toBe(
        200
      )
      const theirs = yield* exchange(as(HttpClientRequest.get("/v1/workspaces/members"), { token: stranger.token }))
      expect(theirs.json.items.map((member: { userId: string }) => member.userId)).toEqual([stranger.userId])
      const audit = yield* exchange(as(HttpClientRequest.get("/v1/audit"), { token: stranger.token }))
      expect(JSON.stringify(audit.json)).not.toContain(owner.userId)
    }))

  it.effect("an API token acts in its own workspace with its role, and stops at once when revoked", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const created = yield* post("/v1/api-tokens", { name: "automation", role: "editor" }, { token: owner.token })
      expect(created.status).toBe(201)
      const token = created.json.token as string
      expect(token).toMatch(/^pat_/)
      expect(created.json.hint).toBe(token.slice(0, 10))
      const listed = yield* exchange(as(HttpClientRequest.get("/v1/api-tokens"), { token: owner.token }))
      expect(listed.text).not.toContain(token)
      expect((yield* exchange(as(HttpClientRequest.get("/v1/workspaces/members"), { token }))).status).toBe(200)
      // An editor's token cannot manage members, nor act on an account route, nor name another workspace.
      const manage = yield* post("/v1/workspaces/invitations", { email: freshEmail(), role: "viewer" }, { token })
      expect(manage.json).toMatchObject({ _tag: "Forbidden", capability: "member.manage" })
      expect((yield* exchange(as(HttpClientRequest.get("/v1/auth/me"), { token }))).status).toBe(403)
      const elsewhere = yield* exchange(
        as(HttpClientRequest.get("/v1/workspaces/members"), {
          token,
          workspaceId: "0190c7a0-0000-7000-8000-000000000001"
        })
      )
      expect(elsewhere.status).toBe(404)
      const over = yield* post("/v1/api-tokens", { name: "too-strong", role: "owner" }, {
        token: (yield* join(owner, "admin")).token,
        workspaceId: owner.workspaceId
      })
      expect(over.json._tag).toBe("OwnerOnly")
      const revoked = yield* exchange(
        as(HttpClientRequest.del(`/v1/api-tokens/${created.json.id}`), { token: owner.token })
      )
      expect(revoked.status).toBe(204)
      expect((yield* exchange(as(HttpClientRequest.get("/v1/workspaces/members"), { token }))).status).toBe(401)
    }))
})
