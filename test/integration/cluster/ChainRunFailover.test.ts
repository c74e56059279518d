/**
 * Chain runs are durable on a real three-node cluster (the launcher's
 * processes, one PostgreSQL database). Every step's workflow calls a loopback
 * tool server that counts calls by their `idempotency-key`:
 *
 * - the node running a run is killed with SIGKILL while a step's call is held
 *   open; the run finishes on another node, the steps completed before did
 *   not run again, the interrupted call was made once more under the same key
 *   (so its receiver can drop it), and the time from the kill to that call is
 *   printed;
 * - a run paused on an approval survives stopping every node and starting
 *   them again, and resumes through `/resume` on any node;
 * - a run that failed at its third step (its tool answered 500) is resumed
 *   once the tool is fixed: steps one and two do not run again, step three
 *   does, under a new key, and succeeds;
 * - the node running a run dies while it sends the run's end event to the
 *   chain's `eventsUrl`: the event is sent again, under the same `webhook-id`.
 */
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect } from "effect"
import type Pg from "pg"
import type { ChainRunId } from "../../../src/domain/workflows/Ids.js"
import {
  approvalWorkflow,
  callWorkflow,
  type ChainClient,
  clientAt,
  createChain,
  createStepTool,
  nodeOfRun,
  type StepTool,
  stepTool,
  untilStatus
} from "../../support/ChainRunCluster.js"
import { signUpAt } from "../../support/Conversations.js"
import { type ClusterNode, localCluster } from "../../support/LocalCluster.js"
import { connectedClient, freshDatabase } from "../../support/TestDatabase.js"

/** The tool server is on loopback, which outbound calls may not reach unless allowed. */
const NODE_ENV = { PARLEY_TOOL_ALLOWED_HOSTS: "127.0.0.1/32" }

/** A promise's value, or a failure naming what did not happen within `seconds`. */
const within = <A>(promise: Promise<A>, seconds: number, what: string) =>
  Effect.promise(() => promise).pipe(
    Effect.timeoutFail({ duration: Duration.seconds(seconds), onTimeout: () => new Error(`${what} (${seconds} s)`) }),
    Effect.orDie
  )

/** Three nodes with the step tool reachable, an account, its typed client on each node, and the tool. */
const setUp = Effect.gen(function*() {
  const startedAt = performance.now()
  const tool = yield* stepTool
  const { url: databaseUrl } = yield* freshDatabase
  const cluster = yield* localCluster({ nodes: 3, databaseUrl, env: NODE_ENV })
  const pg = yield* connectedClient(databaseUrl)
  const token = yield* Effect.promise(() => signUpAt(cluster.nodes[0]!.url))
  // Publishing needs a verified email; the link went to a node's log, so the test verifies it in place.
  yield* Effect.promise(() => pg.query(`UPDATE users SET email_verified_at = now()`))
  const clients = yield* Effect.forEach(cluster.nodes, (node) => clientAt(node.url, token))
  const toolId = yield* createStepTool(clients[0]!, tool)
  return { tool, cluster, pg, clients, toolId, startedAt }
})

/** How many calls each step made, and under how many keys. */
const callsByStep = (tool: StepTool) => {
  const count: Record<string, { calls: number; keys: number }> = {}
  for (const step of new Set(tool.calls.map((call) => call.step))) {
    const calls = tool.calls.filter((call) => call.step === step)
    count[step] = { calls: calls.length, keys: new Set(calls.map((call) => call.key)).size }
  }
  return count
}

/** The node executions traced in each attempt's log, by step and attempt. */
const tracedNodes = (pg: Pg.Client, runId: ChainRunId) =>
  Effect.promise(() =>
    pg.query<{ step_id: string; attempt: number; nodes: Array<{ key: string; nodeId: string }> }>(
      `SELECT step_id, attempt, nodes FROM chain_run_steps WHERE run_id = $1 ORDER BY started_at, step_id, attempt`,
      [runId]
    )
  ).pipe(
    Effect.map((result) =>
      result.rows.map((row) => [row.step_id, row.attempt, row.nodes.map((node) => node.nodeId)] as const)
    )
  )

const stepLog = (run: { readonly steps: ReadonlyArray<{ stepId: string; attempt: number; status: string }> }) =>
  run.steps.map((step) => [step.stepId, step.attempt, step.status])

const elapsed = (startedAt: number) => `${((performance.now() - startedAt) / 1000).toFixed(1)} s`

describe("chain runs on a three-node cluster", () => {
  it.scopedLive(
    "a run whose node is killed mid-step finishes elsewhere; only the step in flight ran again",
    () =>
      Effect.gen(function*() {
        const { clients, cluster, pg, startedAt, tool, toolId } = yield* setUp
        const client = clients[0]!
        const steps = ["before", "held", "after"]
        const workflows = yield* Effect.forEach(steps, (step) => callWorkflow(client, toolId, step))
        const slug = yield* createChain(client, steps.map((id, i) => ({ id, workflowId: workflows[i] })))

        // The first call of `held` is held open: the step is in flight when its node dies.
        tool.answer = (call, seen) => (call.step === "held" && seen === 0 ? "hold" : "ok")
        const heldCall = tool.next((call) => call.step === "held")
        const run = yield* client.chains.run({ path: { slug }, headers: {}, payload: { input: {} } })
        const first = yield* within(heldCall, 60, "the held step was never called")
        const victim: ClusterNode | undefined = yield* nodeOfRun(pg, cluster.nodes, run.id)
        if (victim === undefined) return yield* Effect.dieMessage(`no node holds the shard of run ${run.id}`)
        const again = tool.next((call) => call.key === first.key)
        const killedAt = performance.now()
        victim.kill("SIGKILL")
        yield* Effect.promise(() => victim.exited)
        tool.release()

        const second = yield* within(again, 60, "the interrupted step never ran again")
        const recoveryMs = second.at - killedAt
        const survivors = cluster.nodes.filter((node) => node !== victim)
        const live = clients[cluster.nodes.indexOf(survivors[0]!)]!
        const done = yield* untilStatus(live, slug, run.id, ["succeeded", "failed"])
        const owner = yield* nodeOfRun(pg, cluster.nodes, run.id)

        expect(done.status, JSON.stringify(done.error)).toBe("succeeded")
        expect(done.output).toEqual({ step: "after", answer: expect.objectContaining({ step: "after" }) })
        // The steps completed before the kill ran once; the one in flight twice, both times under one key.
        expect(callsByStep(tool)).toEqual({
          before: { calls: 1, keys: 1 },
          held: { calls: 2, keys: 1 },
          after: { calls: 1, keys: 1 }
        })
        expect(tool.callsOf(first.key)).toHaveLength(2)
        expect(second.at).toBeGreaterThan(killedAt)
        // The replay is no new attempt: each step has one, succeeded, and each node execution traced once.
        expect(stepLog(done)).toEqual([["before", 1, "succeeded"], ["held", 1, "succeeded"], ["after", 1, "succeeded"]])
        expect(yield* tracedNodes(pg, run.id)).toEqual(
          steps.map((step) => [step, 1, ["start", "call", "done"]])
        )
        // The run's execution now lives on a node still running.
        expect(owner).toBeDefined()
        expect(owner).not.toBe(victim)
        console.log(
          `chain-run failover: node ${victim.index} killed in step "held"; the step ran again on node ${owner?.index} ` +
            `${recoveryMs.toFixed(0)} ms after the kill (same idempotency-key); test took ${elapsed(startedAt)}`
        )
      }),
    240_000
  )

  it.scopedLive(
    "a run paused on an approval survives a full restart and resumes on any node",
    () =>
      Effect.gen(function*() {
        const { clients, cluster, startedAt, tool, toolId } = yield* setUp
        const client = clients[0]!
        const approval = yield* approvalWorkflow(client, toolId)
        const tail = yield* callWorkflow(client, toolId, "tail")
        const slug = yield* createChain(client, [{ id: "ask", workflowId: approval }, { id: "tail", workflowId: tail }])
        const run = yield* client.chains.run({ path: { slug }, headers: {}, payload: { input: {} } })
        const paused = yield* untilStatus(client, slug, run.id, ["paused", "failed", "succeeded"])
        expect(paused.status, JSON.stringify(paused.error)).toBe("paused")

        // Every node stops, then every node starts again.
        for (const node of cluster.nodes) node.kill("SIGTERM")
        yield* Effect.promise(() => Promise.all(cluster.nodes.map((node) => node.exited)))
        const restartedAt = performance.now()
        yield* Effect.promise(() => Promise.all(cluster.nodes.map((node) => node.restart())))
        const restartMs = performance.now() - restartedAt

        const still = yield* clients[2]!.chains.getRun({ path: { slug, run_id: run.id } })
        expect(still.status).toBe("paused")
        expect(still.waitingFor).toEqual(paused.waitingFor)
        expect(still.waitingFor).toEqual([
          expect.objectContaining({ kind: "approval", nodeId: "approve", stepId: "ask" })
        ])
        const resumed = yield* clients[1]!.chains.resumeRun({
          path: { slug, run_id: run.id },
          headers: {},
          payload: { payload: { approved: true } }
        })
        expect(resumed.status).not.toBe("paused")
        const done = yield* untilStatus(clients[2]!, slug, run.id, ["succeeded", "failed"])

        expect(done.status, JSON.stringify(done.error)).toBe("succeeded")
        expect(done.output).toEqual({ step: "tail", answer: expect.objectContaining({ step: "tail" }) })
        expect(done.steps.find((step) => step.stepId === "ask")?.output).toBe("approved")
        // The call made before the pause was not made again after the restart.
        expect(callsByStep(tool)).toEqual({
          before: { calls: 1, keys: 1 },
          after: { calls: 1, keys: 1 },
          tail: { calls: 1, keys: 1 }
        })
        expect(stepLog(done)).toEqual([["ask", 1, "succeeded"], ["tail", 1, "succeeded"]])
        console.log(
          `chain-run restart: the cluster was ready again ${
            (restartMs / 1000).toFixed(1)
          } s after every node stopped; ` +
            `test took ${elapsed(startedAt)}`
        )
      }),
    240_000
  )

  it.scopedLive(
    "a run failed at step 3 resumes from step 3 once fixed; steps 1 and 2 do not run again",
    () =>
      Effect.gen(function*() {
        const { clients, pg, startedAt, tool, toolId } = yield* setUp
        const client: ChainClient = clients[0]!
        const steps = ["one", "two", "three"]
        const workflows = yield* Effect.forEach(steps, (step) => callWorkflow(client, toolId, step))
        const slug = yield* createChain(
          client,
          steps.map((id, i) => ({ id, workflowId: workflows[i], ...(id === "three" ? { maxAttempts: 1 } : {}) }))
        )
        let broken = true
        tool.answer = (call) => (call.step === "three" && broken ? "fail" : "ok")

        const run = yield* client.chains.run({ path: { slug }, headers: {}, payload: { input: {} } })
        const failed = yield* untilStatus(clients[1]!, slug, run.id, ["failed", "succeeded"])
        expect(failed.status).toBe("failed")
        expect(failed.error).toEqual(expect.objectContaining({ code: "step-failed", stepId: "three" }))
        expect(callsByStep(tool)).toEqual({
          one: { calls: 1, keys: 1 },
          two: { calls: 1, keys: 1 },
          three: { calls: 1, keys: 1 }
        })

        // The cause is fixed; the run is resumed on another node than the one that started it.
        broken = false
        const resumed = yield* clients[1]!.chains.resumeRun({
          path: { slug, run_id: run.id },
          headers: {},
          payload: { payload: null }
        })
        expect(resumed.generation).toBe(2)
        const done = yield* untilStatus(clients[2]!, slug, run.id, ["succeeded", "failed"])

        expect(done.status, JSON.stringify(done.error)).toBe("succeeded")
        expect(done.output).toEqual({ step: "three", answer: expect.objectContaining({ step: "three" }) })
        // Steps one and two ran once; three ran again under a new key (a new attempt), and succeeded.
        expect(callsByStep(tool)).toEqual({
          one: { calls: 1, keys: 1 },
          two: { calls: 1, keys: 1 },
          three: { calls: 2, keys: 2 }
        })
        expect(stepLog(done)).toEqual([
          ["one", 1, "succeeded"],
          ["two", 1, "succeeded"],
          ["three", 1, "failed"],
          ["three", 2, "succeeded"]
        ])
        expect((yield* tracedNodes(pg, run.id)).map(([step, attempt]) => [step, attempt])).toEqual([
          ["one", 1],
          ["two", 1],
          ["three", 1],
          ["three", 2]
        ])
        console.log(`chain-run resume from a failed step: test took ${elapsed(startedAt)}`)
      }),
    240_000
  )

  it.scopedLive(
    "the run's end event cut off by a kill is sent again under the same webhook-id",
    () =>
      Effect.gen(function*() {
        const { clients, cluster, pg, startedAt, tool, toolId } = yield* setUp
        const client = clients[0]!
        const only = yield* callWorkflow(client, toolId, "only")
        const slug = yield* createChain(client, [{ id: "only", workflowId: only }], {
          eventsUrl: `${tool.origin}/events`
        })
        // The first delivery of the run's end is held open: the node running the run dies while sending it.
        tool.answer = (call, seen) => (call.step === "chain.run.succeeded" && seen === 0 ? "hold" : "ok")
        const sent = tool.next((call) => call.step === "chain.run.succeeded")
        const run = yield* client.chains.run({ path: { slug }, headers: {}, payload: { input: {} } })
        const first = yield* within(sent, 60, "the end event was never sent")
        const victim = yield* nodeOfRun(pg, cluster.nodes, run.id)
        if (victim === undefined) return yield* Effect.dieMessage(`no node holds the shard of run ${run.id}`)
        const again = tool.next((call) => call.key === first.key)
        victim.kill("SIGKILL")
        yield* Effect.promise(() => victim.exited)
        tool.release()

        yield* within(again, 60, "the end event was never sent again")
        const live = clients[cluster.nodes.findIndex((node) => node !== victim)]!
        const done = yield* live.chains.getRun({ path: { slug, run_id: run.id } })
        expect(done.status).toBe("succeeded")
        expect(first.key).toMatch(new RegExp(`^run_${run.id}_1_chain\\.run\\.succeeded`))
        expect(tool.callsOf(first.key)).toHaveLength(2)
        expect(callsByStep(tool)["only"]).toEqual({ calls: 1, keys: 1 })
        console.log(`chain-run end event after a kill: test took ${elapsed(startedAt)}`)
      }),
    240_000
  )
})
