/**
 * Chain runs over HTTP against the real database, on the embedded cluster's
 * workflow engine: a run of a published workflow that succeeds with its
 * output; the same Idempotency-Key answering the same run (another body a
 * 409); a step whose workflow has a model (offline), a published agent, a
 * switch, a loop, a parallel with its join and an input node; a run that pauses on an approval, refuses a malformed decision,
 * resumes once (a second resume is a 409, the same key's repeat the run) and
 * follows the decision; a run that fails at its second step and, once a fixed
 * version is published, is resumed from that step without running the first
 * again; a paused run cancelled; a chain that cannot run refused with its
 * reasons; the authenticated ingress with its event in the run's input.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Schema } from "effect"
import { AiAgentCreate } from "../../../src/domain/aiAgents/AiAgent.js"
import { ChainCreate } from "../../../src/domain/workflows/Chain.js"
import type { ChainRunId, WorkflowId } from "../../../src/domain/workflows/Ids.js"
import { WorkflowCreate } from "../../../src/domain/workflows/Workflow.js"
import { WorkflowGraph } from "../../../src/domain/workflows/WorkflowGraph.js"
import { signUp } from "../../support/Accounts.js"
import { clientOf } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"

type Client = Effect.Effect.Success<ReturnType<typeof clientOf>>

let count = 0
const slugOf = (label: string) => `${label}-${process.pid}-${++count}`
const at = (x: number) => ({ x, y: 0 })
const edge = (source: string, target: string, sourceHandle?: string) => ({
  id: `${source}-${sourceHandle ?? "out"}-${target}`,
  source,
  target,
  ...(sourceHandle === undefined ? {} : { sourceHandle })
})
const trigger = (inputs: ReadonlyArray<Record<string, unknown>> = []) => ({
  id: "start",
  type: "trigger",
  position: at(0),
  data: { kind: "chain", inputs }
})
const jsonOutput = (id: string, expression: string) => ({
  id,
  type: "output",
  position: at(400),
  data: { format: "json", expression }
})

/** A published workflow of `nodes` and `edges`; its id. */
const published = (client: Client, nodes: ReadonlyArray<unknown>, edges: ReadonlyArray<unknown>) =>
  Effect.gen(function*() {
    const workflow = yield* client.workflows.create({
      payload: Schema.decodeUnknownSync(WorkflowCreate)({
        name: "Step",
        graph: Schema.decodeUnknownSync(WorkflowGraph)({ nodes, edges })
      })
    })
    yield* client.workflows.publish({ path: { id: workflow.id }, headers: {}, payload: { note: "" } })
    return workflow.id
  })

/** Reads the run until it is in one of `statuses` (at most 30 s). */
const until = (client: Client, slug: string, runId: ChainRunId, statuses: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    for (let attempt = 0; attempt < 150; attempt++) {
      const run = yield* client.chains.getRun({ path: { slug, run_id: runId } })
      if (statuses.includes(run.status)) return run
      yield* Effect.sleep(Duration.millis(200))
    }
    return yield* client.chains.getRun({ path: { slug, run_id: runId } })
  })

const chainOf = (client: Client, steps: ReadonlyArray<Record<string, unknown>>) =>
  Effect.gen(function*() {
    const slug = slugOf("run")
    yield* client.chains.create({
      payload: Schema.decodeUnknownSync(ChainCreate)({ slug, name: "Runs", steps })
    })
    return slug
  })

layer(testServer(), { excludeTestServices: true, timeout: 120_000 })("Chain runs", (it) => {
  it.effect("a run succeeds with its output; the same key answers the same run, another body a 409", () =>
    Effect.gen(function*() {
      const client = yield* clientOf(yield* signUp())
      const double = yield* published(client, [
        trigger([{ name: "amount", type: "number" }]),
        {
          id: "calc",
          type: "transform",
          position: at(200),
          data: { expression: "input.amount * 2", outputVariable: "total" }
        },
        jsonOutput("done", "{ \"total\": vars.total }")
      ], [edge("start", "calc"), edge("calc", "done")])
      const label = yield* published(client, [
        trigger([{ name: "total", type: "number" }]),
        jsonOutput("done", "{ \"label\": \"total \" & $string(input.total) }")
      ], [edge("start", "done")])
      const slug = yield* chainOf(client, [{ id: "double", workflowId: double }, { id: "label", workflowId: label }])

      const headers = { "idempotency-key": "run-1" }
      const started = yield* client.chains.run({ path: { slug }, headers, payload: { input: { amount: 21 } } })
      expect(["queued", "running", "succeeded"]).toContain(started.status)
      expect(started.trigger).toBe("manual")
      const done = yield* until(client, slug, started.id, ["succeeded", "failed"])
      expect(done.status, JSON.stringify(done.error)).toBe("succeeded")
      expect(done.output).toEqual({ label: "total 42" })
      expect(done.steps.map((step) => [step.stepId, step.status, step.output])).toEqual([
        ["double", "succeeded", { total: 42 }],
        ["label", "succeeded", { label: "total 42" }]
      ])
      expect(done.steps[0]!.workflowVersion).toBe(1)

      const again = yield* client.chains.run({ path: { slug }, headers, payload: { input: { amount: 21 } } })
      expect(again.id).toBe(started.id)
      const reused = yield* Effect.flip(
        client.chains.run({ path: { slug }, headers, payload: { input: { amount: 1 } } })
      )
      expect(reused._tag).toBe("IdempotencyKeyReused")
      const page = yield* client.chains.listRuns({ path: { slug }, urlParams: {} })
      expect(page.total).toBe(1)
    }))

  it.effect("a run pauses on an approval, resumes once, and follows the decision", () =>
    Effect.gen(function*() {
      const client = yield* clientOf(yield* signUp())
      const approval = yield* published(client, [
        trigger(),
        { id: "approve", type: "wait", position: at(200), data: { for: "approval", prompt: "Refund?" } },
        jsonOutput("yes", "\"approved\""),
        jsonOutput("no", "\"rejected\"")
      ], [edge("start", "approve"), edge("approve", "yes", "approved"), edge("approve", "no", "rejected")])
      const slug = yield* chainOf(client, [{ id: "ask", workflowId: approval }])
      const started = yield* client.chains.run({ path: { slug }, headers: {}, payload: { input: {} } })
      const paused = yield* until(client, slug, started.id, ["paused", "failed", "succeeded"])
      expect(paused.status, JSON.stringify(paused.error)).toBe("paused")
      expect(paused.waitingFor).toEqual([
        expect.objectContaining({ kind: "approval", nodeId: "approve", stepId: "ask", prompt: "Refund?" })
      ])
      expect(paused.steps.map((step) => step.status)).toEqual(["paused"])

      const path = { slug, run_id: started.id }
      const malformed = yield* Effect.flip(
        client.chains.resumeRun({ path, headers: {}, payload: { payload: { yes: 1 } } })
      )
      expect(malformed._tag).toBe("ValidationFailed")
      const wrongNode = yield* Effect.flip(
        client.chains.resumeRun({
          path,
          headers: {},
          payload: { payload: { approved: true }, nodeId: "elsewhere" as never }
        })
      )
      expect(wrongNode._tag).toBe("ValidationFailed")

      const key = { "idempotency-key": "approve-1" }
      const resumed = yield* client.chains.resumeRun({ path, headers: key, payload: { payload: { approved: false } } })
      expect(resumed.status).not.toBe("paused")
      const repeat = yield* client.chains.resumeRun({ path, headers: key, payload: { payload: { approved: false } } })
      expect(repeat.id).toBe(started.id)
      const second = yield* Effect.flip(
        client.chains.resumeRun({ path, headers: {}, payload: { payload: { approved: true } } })
      )
      expect(second._tag).toBe("ChainRunNotPaused")

      const done = yield* until(client, slug, started.id, ["succeeded", "failed"])
      expect(done.status, JSON.stringify(done.error)).toBe("succeeded")
      expect(done.output).toBe("rejected")
    }))

  it.effect("a step whose workflow uses a model, an agent, a switch, a loop, a parallel and an input runs to its end", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const agentSlug = slugOf("helper")
      yield* client.aiAgents.create({
        payload: Schema.decodeUnknownSync(AiAgentCreate)({ slug: agentSlug, name: "Helper", instructions: "Help." })
      })
      yield* client.aiAgentReleases.publish({ path: { slug: agentSlug }, payload: {}, headers: {} })
      const node = (id: string, type: string, x: number, data: Record<string, unknown>) => ({
        id,
        type,
        position: at(x),
        data
      })
      const everything = yield* published(client, [
        trigger([{ name: "items", type: "array" }]),
        node("summary", "llm", 100, { prompt: "Summarise {{ input.items }}", outputVariable: "summary" }),
        node("ask", "ai-agent", 200, {
          agentSlug,
          message: "Where is {{ input.items[0] }}?",
          outputVariable: "answer"
        }),
        node("count", "switch", 300, { expression: "$count(input.items)", cases: [{ name: "three", value: 3 }] }),
        node("each", "loop", 400, { over: "input.items", collect: "item & \"!\"", outputVariable: "shouted" }),
        node("upper", "transform", 450, { expression: "$uppercase(item)", outputVariable: "last" }),
        node("fan", "parallel", 500, {}),
        node("left", "transform", 550, { expression: "1", outputVariable: "a" }),
        node("right", "transform", 550, { expression: "2", outputVariable: "b" }),
        node("meet", "join", 600, { wait: "all" }),
        node("name", "input", 700, { prompt: "Your name?", variable: "name" }),
        jsonOutput(
          "done",
          "{ \"summary\": $type(vars.summary), \"agent\": vars.answer.outcome, \"shouted\": vars.shouted, \"last\": vars.last, \"a\": vars.a, \"b\": vars.b, \"name\": vars.name }"
        ),
        jsonOutput("other", "\"not three\"")
      ], [
        edge("start", "summary"),
        edge("summary", "ask"),
        edge("ask", "count"),
        edge("count", "each", "three"),
        edge("count", "other", "default"),
        edge("each", "upper", "body"),
        edge("upper", "each"),
        edge("each", "fan", "done"),
        edge("fan", "left"),
        edge("fan", "right"),
        edge("left", "meet"),
        edge("right", "meet"),
        edge("meet", "name"),
        edge("name", "done")
      ])
      const slug = yield* chainOf(client, [{ id: "all", workflowId: everything }])
      const started = yield* client.chains.run({
        path: { slug },
        headers: {},
        payload: { input: { items: ["a", "b", "c"] } }
      })
      const paused = yield* until(client, slug, started.id, ["paused", "failed", "succeeded"])
      expect(paused.status, JSON.stringify(paused.error)).toBe("paused")
      expect(paused.waitingFor).toEqual([
        expect.objectContaining({ kind: "input", nodeId: "name", prompt: "Your name?" })
      ])
      yield* client.chains.resumeRun({ path: { slug, run_id: started.id }, headers: {}, payload: { payload: "Ada" } })
      const done = yield* until(client, slug, started.id, ["succeeded", "failed"])
      expect(done.status, JSON.stringify(done.error)).toBe("succeeded")
      expect(done.output).toEqual({
        summary: "string",
        agent: "answered",
        shouted: ["a!", "b!", "c!"],
        last: "C",
        a: 1,
        b: 2,
        name: "Ada"
      })
    }))

  it.effect("a resume cut off after its claim is completed by its repeat with the same key", () =>
    Effect.gen(function*() {
      const client = yield* clientOf(yield* signUp())
      const approval = yield* published(client, [
        trigger(),
        { id: "approve", type: "wait", position: at(200), data: { for: "approval" } },
        jsonOutput("yes", "\"approved\""),
        jsonOutput("no", "\"rejected\"")
      ], [edge("start", "approve"), edge("approve", "yes", "approved"), edge("approve", "no", "rejected")])
      const slug = yield* chainOf(client, [{ id: "ask", workflowId: approval }])
      const started = yield* client.chains.run({ path: { slug }, headers: {}, payload: { input: {} } })
      yield* until(client, slug, started.id, ["paused"])
      // The first resume claimed the wait and died before completing it (what ChainRunRepo.claimWait writes).
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE chain_runs SET status = 'running', waiting_for = '[]'::jsonb, resume_key = 'cut-off',
          resume_payload = ${JSON.stringify({ payload: { approved: true } })}::jsonb
        WHERE id = ${started.id}`
      const stuck = yield* client.chains.getRun({ path: { slug, run_id: started.id } })
      expect(stuck.status).toBe("running")
      yield* client.chains.resumeRun({
        path: { slug, run_id: started.id },
        headers: { "idempotency-key": "cut-off" },
        payload: { payload: { approved: true } }
      })
      const done = yield* until(client, slug, started.id, ["succeeded", "failed"])
      expect(done.status, JSON.stringify(done.error)).toBe("succeeded")
      expect(done.output).toBe("approved")
    }))

  it.effect("a run failed at its second step resumes from it once fixed; the first step does not run again", () =>
    Effect.gen(function*() {
      const client = yield* clientOf(yield* signUp())
      const first = yield* published(client, [trigger(), jsonOutput("done", "{ \"ok\": true }")], [
        edge("start", "done")
      ])
      const brokenGraph = Schema.decodeUnknownSync(WorkflowGraph)({
        nodes: [trigger(), jsonOutput("done", "$error(\"the upstream is down\")")],
        edges: [edge("start", "done")]
      })
      const second = yield* client.workflows.create({
        payload: Schema.decodeUnknownSync(WorkflowCreate)({ name: "Flaky", graph: brokenGraph })
      })
      yield* client.workflows.publish({ path: { id: second.id }, headers: {}, payload: { note: "" } })
      const slug = yield* chainOf(client, [
        { id: "first", workflowId: first },
        { id: "second", workflowId: second.id, maxAttempts: 1 }
      ])
      const started = yield* client.chains.run({ path: { slug }, headers: {}, payload: { input: {} } })
      const failed = yield* until(client, slug, started.id, ["failed", "succeeded"])
      expect(failed.status).toBe("failed")
      expect(failed.error).toEqual(expect.objectContaining({ code: "step-failed", stepId: "second" }))
      expect(failed.error?.message).toContain("the upstream is down")
      expect(failed.generation).toBe(1)

      // The cause is fixed: version 2 of the second workflow is live.
      const fixed = yield* client.workflows.replaceGraph({
        path: { id: second.id },
        headers: {},
        payload: Schema.decodeUnknownSync(WorkflowGraph)({
          nodes: [trigger([{ name: "ok", type: "boolean" }]), jsonOutput("done", "{ \"second\": input.ok }")],
          edges: [edge("start", "done")]
        })
      })
      yield* client.workflows.publish({ path: { id: fixed.id as WorkflowId }, headers: {}, payload: { note: "fix" } })

      const resumed = yield* client.chains.resumeRun({
        path: { slug, run_id: started.id },
        headers: {},
        payload: { payload: null }
      })
      expect(resumed.generation).toBe(2)
      const done = yield* until(client, slug, started.id, ["succeeded", "failed"])
      expect(done.status, JSON.stringify(done.error)).toBe("succeeded")
      expect(done.output).toEqual({ second: true })
      expect(done.steps.map((step) => [step.stepId, step.attempt, step.status, step.workflowVersion])).toEqual([
        ["first", 1, "succeeded", 1],
        ["second", 1, "failed", 1],
        ["second", 2, "succeeded", 2]
      ])
    }))

  it.effect("a paused run is cancelled once; a chain that cannot run is refused with its reasons", () =>
    Effect.gen(function*() {
      const client = yield* clientOf(yield* signUp())
      const waiting = yield* published(client, [
        trigger(),
        { id: "hold", type: "wait", position: at(200), data: { for: "event", event: "order.paid" } },
        jsonOutput("done", "\"paid\"")
      ], [edge("start", "hold"), edge("hold", "done")])
      const slug = yield* chainOf(client, [{ id: "hold", workflowId: waiting }])
      const started = yield* client.chains.run({ path: { slug }, headers: {}, payload: { input: {} } })
      yield* until(client, slug, started.id, ["paused"])
      const inUse = yield* Effect.flip(client.workflows.delete({ path: { id: waiting } }))
      expect(inUse._tag).toBe("WorkflowInUse")
      expect(inUse._tag === "WorkflowInUse" && inUse.chains).toEqual([slug])
      const cancelled = yield* client.chains.cancelRun({ path: { slug, run_id: started.id } })
      expect(cancelled.status).toBe("cancelled")
      const again = yield* Effect.flip(client.chains.cancelRun({ path: { slug, run_id: started.id } }))
      expect(again._tag).toBe("ChainRunFinished")
      const detail = yield* client.chains.getRun({ path: { slug, run_id: started.id } })
      expect(detail.steps.map((step) => step.status)).toEqual(["cancelled"])
      // No run under way any more: the workflow can go (the chain's step then names a workflow it lacks).
      yield* client.workflows.delete({ path: { id: waiting } })
      const gone = yield* Effect.flip(client.chains.run({ path: { slug }, headers: {}, payload: { input: {} } }))
      expect(gone._tag === "ChainNotRunnable" && gone.problems.map((problem) => problem.code)).toEqual([
        "workflow-missing"
      ])

      const draft = yield* client.workflows.create({
        payload: Schema.decodeUnknownSync(WorkflowCreate)({ name: "Draft" })
      })
      const unrunnable = yield* chainOf(client, [{ id: "draft", workflowId: draft.id }])
      const refused = yield* Effect.flip(
        client.chains.run({ path: { slug: unrunnable }, headers: {}, payload: { input: {} } })
      )
      expect(refused._tag).toBe("ChainNotRunnable")
      expect(refused._tag === "ChainNotRunnable" && refused.problems.map((problem) => problem.code)).toEqual([
        "workflow-not-published"
      ])
      const empty = yield* chainOf(client, [])
      const none = yield* Effect.flip(client.chains.run({ path: { slug: empty }, headers: {}, payload: { input: {} } }))
      expect(none._tag === "ChainNotRunnable" && none.problems.map((problem) => problem.code)).toEqual(["no-steps"])
    }))

  it.effect("the authenticated ingress starts a run with the event as its input", () =>
    Effect.gen(function*() {
      const client = yield* clientOf(yield* signUp())
      const echo = yield* published(client, [
        trigger([{ name: "type", type: "string" }, { name: "data", type: "object" }]),
        jsonOutput("done", "{ \"type\": input.type, \"id\": input.data.id }")
      ], [edge("start", "done")])
      const slug = yield* chainOf(client, [{ id: "echo", workflowId: echo }])
      const started = yield* client.chains.ingress({
        path: { slug },
        headers: {},
        payload: { type: "order.created", data: { id: 7 } }
      })
      expect(started.trigger).toBe("ingress")
      expect(started.eventType).toBe("order.created")
      const done = yield* until(client, slug, started.id, ["succeeded", "failed"])
      expect(done.status, JSON.stringify(done.error)).toBe("succeeded")
      expect(done.output).toEqual({ type: "order.created", id: 7 })
    }))
})
