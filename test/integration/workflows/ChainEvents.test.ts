/**
 * A chain's run events over real HTTP: a run that pauses and then succeeds
 * posts `chain.run.paused` and `chain.run.succeeded` to the chain's
 * `eventsUrl`, each a Standard Webhooks delivery that verifies with the
 * chain's secret over the exact body received, with ids that tell the two
 * apart; a receiver that fails does not hold up or fail the run.
 */
import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Schema } from "effect"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { verify } from "../../../src/domain/webhooks/StandardWebhooks.js"
import { ChainCreate } from "../../../src/domain/workflows/Chain.js"
import type { ChainRunId } from "../../../src/domain/workflows/Ids.js"
import { WorkflowCreate } from "../../../src/domain/workflows/Workflow.js"
import { WorkflowGraph } from "../../../src/domain/workflows/WorkflowGraph.js"
import { signUp } from "../../support/Accounts.js"
import { clientOf } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"

interface Received {
  readonly headers: Http.IncomingHttpHeaders
  readonly body: string
}

/** A loopback receiver of events that answers `status()` and keeps what it got. */
const receiver = (status: () => number) =>
  Effect.acquireRelease(
    Effect.async<{ readonly url: string; readonly received: Array<Received>; readonly server: Http.Server }>(
      (resume) => {
        const received: Array<Received> = []
        const server = Http.createServer((request, response) => {
          const chunks: Array<Buffer> = []
          request.on("data", (chunk: Buffer) => chunks.push(chunk))
          request.on("end", () => {
            received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") })
            response.writeHead(status()).end()
          })
        })
        server.listen(0, "127.0.0.1", () =>
          resume(Effect.succeed({
            url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`,
            received,
            server
          })))
      }
    ),
    ({ server }) => Effect.async<void>((resume) => void server.close(() => resume(Effect.void)))
  )

const at = (x: number) => ({ x, y: 0 })

layer(testServer({ PARLEY_TOOL_ALLOWED_HOSTS: "127.0.0.1/32" }), { excludeTestServices: true, timeout: 120_000 })(
  "Chain run events",
  (it) => {
    it.scoped("a paused and then finished run posts two signed events the chain's secret verifies", () =>
      Effect.gen(function*() {
        const events = yield* receiver(() => 204)
        const client = yield* clientOf(yield* signUp())
        const workflow = yield* client.workflows.create({
          payload: Schema.decodeUnknownSync(WorkflowCreate)({
            name: "Approve",
            graph: Schema.decodeUnknownSync(WorkflowGraph)({
              nodes: [
                { id: "start", type: "trigger", position: at(0), data: { kind: "chain" } },
                { id: "ok", type: "wait", position: at(100), data: { for: "approval" } },
                { id: "done", type: "output", position: at(200), data: { format: "json", expression: "\"done\"" } }
              ],
              edges: [
                { id: "e1", source: "start", target: "ok" },
                { id: "e2", source: "ok", target: "done", sourceHandle: "approved" },
                { id: "e3", source: "ok", target: "done", sourceHandle: "rejected" }
              ]
            })
          })
        })
        yield* client.workflows.publish({ path: { id: workflow.id }, headers: {}, payload: { note: "" } })
        const slug = `events-${process.pid}`
        const chain = yield* client.chains.create({
          payload: Schema.decodeUnknownSync(ChainCreate)({
            slug,
            name: "Events",
            eventsUrl: events.url,
            steps: [{ id: "approve", workflowId: workflow.id }]
          })
        })
        expect(chain.eventsUrl).toBe(events.url)
        const run = yield* client.chains.run({ path: { slug }, headers: {}, payload: { input: {} } })
        const waitFor = (count: number) =>
          Effect.gen(function*() {
            for (let i = 0; i < 150 && events.received.length < count; i++) yield* Effect.sleep(Duration.millis(100))
          })
        yield* waitFor(1)
        yield* client.chains.resumeRun({
          path: { slug, run_id: run.id as ChainRunId },
          headers: {},
          payload: { payload: { approved: true } }
        })
        yield* waitFor(2)
        expect(events.received).toHaveLength(2)
        const bodies = events.received.map((event) => JSON.parse(event.body))
        expect(bodies.map((body) => body.type)).toEqual(["chain.run.paused", "chain.run.succeeded"])
        expect(bodies[0].data).toEqual(expect.objectContaining({ runId: run.id, chainSlug: slug, status: "paused" }))
        expect(bodies[0].data.waitingFor).toEqual([expect.objectContaining({ kind: "approval", nodeId: "ok" })])
        expect(bodies[1].data).toEqual(expect.objectContaining({ runId: run.id, status: "succeeded", output: "done" }))
        const ids = events.received.map((event) => event.headers["webhook-id"])
        expect(new Set(ids).size).toBe(2)
        for (const event of events.received) {
          const content = {
            id: String(event.headers["webhook-id"]),
            timestamp: Number(event.headers["webhook-timestamp"]),
            body: event.body
          }
          const options = { secrets: [chain.ingressSecret], nowSeconds: Math.floor(Date.now() / 1000) }
          expect(verify(content, String(event.headers["webhook-signature"]), options)).toBeUndefined()
        }
      }))

    it.scoped("a receiver that fails does not hold up the run", () =>
      Effect.gen(function*() {
        const events = yield* receiver(() => 500)
        const client = yield* clientOf(yield* signUp())
        const workflow = yield* client.workflows.create({
          payload: Schema.decodeUnknownSync(WorkflowCreate)({
            name: "Quick",
            graph: Schema.decodeUnknownSync(WorkflowGraph)({
              nodes: [
                { id: "start", type: "trigger", position: at(0), data: { kind: "chain" } },
                { id: "done", type: "output", position: at(200), data: { format: "json", expression: "1" } }
              ],
              edges: [{ id: "e1", source: "start", target: "done" }]
            })
          })
        })
        yield* client.workflows.publish({ path: { id: workflow.id }, headers: {}, payload: { note: "" } })
        const slug = `failing-events-${process.pid}`
        yield* client.chains.create({
          payload: Schema.decodeUnknownSync(ChainCreate)({
            slug,
            name: "Failing events",
            eventsUrl: events.url,
            steps: [{ id: "one", workflowId: workflow.id }]
          })
        })
        const run = yield* client.chains.run({ path: { slug }, headers: {}, payload: { input: {} } })
        let status = run.status
        for (let i = 0; i < 150 && status !== "succeeded" && status !== "failed"; i++) {
          yield* Effect.sleep(Duration.millis(100))
          status = (yield* client.chains.getRun({ path: { slug, run_id: run.id } })).status
        }
        expect(status).toBe("succeeded")
        // Three tries (after 1 s and 2 s), all with the same id, then given up.
        for (let i = 0; i < 60 && events.received.length < 3; i++) yield* Effect.sleep(Duration.millis(100))
        expect(events.received).toHaveLength(3)
        expect(new Set(events.received.map((event) => event.headers["webhook-id"])).size).toBe(1)
      }))
  }
)
