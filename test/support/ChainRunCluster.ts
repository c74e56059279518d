/**
 * Chain runs on nodes started as processes (`LocalCluster`), for the
 * durability tests and the workflow benchmark: a loopback tool server that
 * counts every call by its `idempotency-key` (and every chain run event it
 * receives by its `webhook-id`) and answers each as told (at once, a 500, or
 * held open until released), published workflows built over
 * HTTP through the typed client (a call to that tool, a JSONata transform, an
 * approval), chains of them, and the node whose runner executes a run (the
 * owner of the shard its workflow execution lives on).
 */
import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Duration, Effect, Schema } from "effect"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import type Pg from "pg"
import { executionIdOf } from "../../src/actors/ChainRunWorkflow.js"
import { ChainCreate } from "../../src/domain/workflows/Chain.js"
import type { ChainRunId } from "../../src/domain/workflows/Ids.js"
import { WorkflowCreate } from "../../src/domain/workflows/Workflow.js"
import { WorkflowGraph } from "../../src/domain/workflows/WorkflowGraph.js"
import { WorkspaceToolCreate } from "../../src/domain/workspace/WorkspaceTool.js"
import { Api } from "../../src/http/Api.js"
import type { ClusterNode } from "./LocalCluster.js"

/**
 * One call the tool server received: the step named in its body (an event's type), its `idempotency-key` (an
 * event's `webhook-id`), when it arrived (`performance.now()`).
 */
export interface ToolCall {
  readonly step: string
  readonly key: string
  readonly at: number
}

/** How the server answers a call: 200 at once, 500 at once, or not until `release`. */
export type ToolAnswer = "ok" | "fail" | "hold"

/** A loopback tool server counting calls by idempotency key. */
export interface StepTool {
  readonly origin: string
  readonly calls: ReadonlyArray<ToolCall>
  /** Decides each call's answer; `seen` is how many calls with its key came before it. Default: always "ok". */
  answer: (call: ToolCall, seen: number) => ToolAnswer
  /** The first call from now on that matches. */
  readonly next: (match: (call: ToolCall) => boolean) => Promise<ToolCall>
  /** Answer every held call (200); calls whose caller is gone are dropped. */
  readonly release: () => void
  /** The calls with this key. */
  readonly callsOf: (key: string) => ReadonlyArray<ToolCall>
}

/** A `StepTool` on 127.0.0.1, closed with the scope. */
export const stepTool = Effect.acquireRelease(
  Effect.async<{ server: Http.Server; tool: StepTool }>((resume) => {
    const calls: Array<ToolCall> = []
    const held: Array<Http.ServerResponse> = []
    const waiting: Array<{ match: (call: ToolCall) => boolean; resolve: (call: ToolCall) => void }> = []
    const reply = (response: Http.ServerResponse, status: number, body: unknown) => {
      if (response.destroyed || response.writableEnded) return
      response.writeHead(status, { "content-type": "application/json" })
      response.end(JSON.stringify(body))
    }
    let origin = ""
    const tool: StepTool = {
      get origin() {
        return origin
      },
      calls,
      answer: () => "ok",
      next: (match) => new Promise((resolve) => waiting.push({ match, resolve })),
      release: () => {
        for (const response of held.splice(0)) reply(response, 200, { released: true })
      },
      callsOf: (key) => calls.filter((call) => call.key === key)
    }
    const server = Http.createServer((request, response) => {
      let body = ""
      request.on("data", (chunk) => (body += chunk))
      request.on("end", () => {
        const parsed = body === "" ? {} : JSON.parse(body)
        // A tool call names its step and carries an idempotency-key; a chain run event its type and a webhook-id.
        const call: ToolCall = {
          step: String(parsed.step ?? parsed.type ?? ""),
          key: String(request.headers["idempotency-key"] ?? request.headers["webhook-id"] ?? ""),
          at: performance.now()
        }
        const seen = tool.callsOf(call.key).length
        calls.push(call)
        for (const waiter of waiting.filter((waiter) => waiter.match(call))) {
          waiting.splice(waiting.indexOf(waiter), 1)
          waiter.resolve(call)
        }
        const answer = tool.answer(call, seen)
        if (answer === "hold") held.push(response)
        else if (answer === "fail") reply(response, 500, { error: `step ${call.step} is down` })
        else reply(response, 200, { step: call.step, call: calls.length })
      })
    })
    server.listen(0, "127.0.0.1", () => {
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      resume(Effect.succeed({ server, tool }))
    })
  }),
  ({ server }) =>
    Effect.async<void>((resume) => {
      server.closeAllConnections()
      server.close(() => resume(Effect.void))
    })
).pipe(Effect.map(({ tool }) => tool))

/** The typed client of an account on one node. */
export const clientAt = (url: string, token: string) =>
  HttpApiClient.make(Api, {
    baseUrl: url,
    transformClient: (client) => client.pipe(HttpClient.mapRequest(HttpClientRequest.bearerToken(token)))
  }).pipe(Effect.provide(FetchHttpClient.layer))

export type ChainClient = Effect.Effect.Success<ReturnType<typeof clientAt>>

const at = (x: number) => ({ x, y: 0 })
const edge = (source: string, target: string, sourceHandle?: string) => ({
  id: `${source}-${sourceHandle ?? "out"}-${target}`,
  source,
  target,
  ...(sourceHandle === undefined ? {} : { sourceHandle })
})
/** A trigger declaring these inputs (name and JSON type). */
const trigger = (inputs: ReadonlyArray<readonly [string, string]>) => ({
  id: "start",
  type: "trigger",
  position: at(0),
  data: { kind: "chain", inputs: inputs.map(([name, type]) => ({ name, type })) }
})
const output = (id: string, expression: string) => ({
  id,
  type: "output",
  position: at(600),
  data: { format: "json", expression }
})
/** An http node calling the step tool with `{ step }`. */
const call = (id: string, toolId: string, step: string) => ({
  id,
  type: "http",
  position: at(200),
  data: { toolId, inputMapping: { step: JSON.stringify(step) }, outputVariable: id }
})

/** The workspace tool posting `{ step }` to the step tool. */
export const createStepTool = (client: ChainClient, tool: StepTool) =>
  client.workspaceTools.create({
    payload: Schema.decodeUnknownSync(WorkspaceToolCreate)({
      name: "step_call",
      description: "Tells the step server which step runs",
      inputSchema: { type: "object", properties: { step: { type: "string" } }, required: ["step"] },
      method: "POST",
      url: `${tool.origin}/step`,
      headers: {},
      query: {},
      body: { kind: "json", template: { step: "{{input.step}}" } },
      timeoutSeconds: 60,
      maxResponseBytes: 65536,
      allowedDomains: []
    })
  }).pipe(Effect.map((created) => created.id as string))

/** Creates and publishes a workflow of these nodes and edges after a trigger declaring `inputs`; its id. */
export const publishedWorkflow = (
  client: ChainClient,
  name: string,
  nodes: ReadonlyArray<unknown>,
  edges: ReadonlyArray<unknown>,
  inputs: ReadonlyArray<readonly [string, string]> = []
) =>
  Effect.gen(function*() {
    const workflow = yield* client.workflows.create({
      payload: Schema.decodeUnknownSync(WorkflowCreate)({
        name,
        graph: Schema.decodeUnknownSync(WorkflowGraph)({ nodes: [trigger(inputs), ...nodes], edges })
      })
    })
    yield* client.workflows.publish({ path: { id: workflow.id }, headers: {}, payload: { note: "" } })
    return workflow.id as string
  })

/** A workflow that calls the step tool once as `step`; its output `{ step, answer }`. */
export const callWorkflow = (client: ChainClient, toolId: string, step: string) =>
  publishedWorkflow(client, `Call ${step}`, [
    call("call", toolId, step),
    output("done", `{ "step": ${JSON.stringify(step)}, "answer": vars.call.body }`)
  ], [edge("start", "call"), edge("call", "done")])

/** A workflow of one JSONata transform of its input (declaring `inputs`); its output `{ value }`. */
export const transformWorkflow = (
  client: ChainClient,
  name: string,
  expression: string,
  inputs: ReadonlyArray<readonly [string, string]>
) =>
  publishedWorkflow(
    client,
    name,
    [
      { id: "calc", type: "transform", position: at(200), data: { expression, outputVariable: "value" } },
      output("done", "{ \"value\": vars.value }")
    ],
    [edge("start", "calc"), edge("calc", "done")],
    inputs
  )

/**
 * A workflow that calls the tool as `before`, waits for an approval, then
 * calls it as `after` when approved; its output `approved` or `rejected`.
 */
export const approvalWorkflow = (client: ChainClient, toolId: string) =>
  publishedWorkflow(client, "Approval", [
    call("before", toolId, "before"),
    { id: "approve", type: "wait", position: at(300), data: { for: "approval", prompt: "Go on?" } },
    call("after", toolId, "after"),
    output("yes", "\"approved\""),
    output("no", "\"rejected\"")
  ], [
    edge("start", "before"),
    edge("before", "approve"),
    edge("approve", "after", "approved"),
    edge("after", "yes"),
    edge("approve", "no", "rejected")
  ])

let chains = 0
/** A chain of these steps (`{ id, workflowId, ... }`) with `more` of its fields (an `eventsUrl`); its slug. */
export const createChain = (
  client: ChainClient,
  steps: ReadonlyArray<Record<string, unknown>>,
  more: Record<string, unknown> = {}
) =>
  Effect.gen(function*() {
    const slug = `chain-${process.pid}-${++chains}`
    yield* client.chains.create({
      payload: Schema.decodeUnknownSync(ChainCreate)({ slug, name: slug, steps, ...more })
    })
    return slug
  })

/** Reads the run (with its step log) until its status is one of `statuses`, every 100 ms, for at most `timeout`. */
export const untilStatus = (
  client: ChainClient,
  slug: string,
  runId: ChainRunId,
  statuses: ReadonlyArray<string>,
  timeout: Duration.DurationInput = Duration.seconds(60)
) =>
  Effect.gen(function*() {
    const deadline = Date.now() + Duration.toMillis(timeout)
    while (true) {
      const run = yield* client.chains.getRun({ path: { slug, run_id: runId } })
      if (statuses.includes(run.status) || Date.now() > deadline) return run
      yield* Effect.sleep(Duration.millis(100))
    }
  })

/** The runner address (`host:port`) holding the shard of a run's workflow execution, if it is held. */
export const runnerOfRun = (pg: Pg.Client, runId: ChainRunId, generation = 1) =>
  Effect.gen(function*() {
    const executionId = yield* executionIdOf(runId, generation)
    const rows = yield* Effect.promise(() =>
      pg.query<{ address: string }>(
        `SELECT l.address FROM cluster_messages m JOIN cluster_locks l ON l.shard_id = m.shard_id
         WHERE m.entity_type = 'Workflow/ChainRun' AND m.entity_id = $1 LIMIT 1`,
        [executionId]
      )
    )
    return rows.rows[0]?.address
  })

/** The node of the cluster whose runner executes the run now. */
export const nodeOfRun = (pg: Pg.Client, nodes: ReadonlyArray<ClusterNode>, runId: ChainRunId, generation = 1) =>
  Effect.map(
    runnerOfRun(pg, runId, generation),
    (address) => nodes.find((node) => address === `127.0.0.1:${node.runnerPort}`)
  )
