/**
 * The signed public ingress of a chain over HTTP: a delivery signed with the
 * chain's Standard Webhooks secret starts a run whose input is the raw
 * payload (its `type` the event type); the same `webhook-id` again is refused
 * with the first run; a wrong or stale signature, a changed byte of the body,
 * a secret rotated away, and an unknown workspace or chain are all the same
 * 401, so none is revealed; several signatures (a sender rotating) pass when
 * one matches; a chain without public ingress answers 409 to a good delivery.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Duration, Effect, Schema } from "effect"
import { sign } from "../../../src/domain/webhooks/StandardWebhooks.js"
import { ChainCreate, ChainPatch } from "../../../src/domain/workflows/Chain.js"
import type { ChainRunId } from "../../../src/domain/workflows/Ids.js"
import { WorkflowCreate } from "../../../src/domain/workflows/Workflow.js"
import { WorkflowGraph } from "../../../src/domain/workflows/WorkflowGraph.js"
import { signUp } from "../../support/Accounts.js"
import { exchange, HttpClientRequest, postRaw } from "../../support/Http.js"
import { clientOf } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"

let count = 0
const at = (x: number) => ({ x, y: 0 })

/** A workspace with a chain of one published workflow that answers `{ type, order }` from its input. */
const setUp = (ingressEnabled: boolean) =>
  Effect.gen(function*() {
    const owner = yield* signUp()
    const client = yield* clientOf(owner)
    const workflow = yield* client.workflows.create({
      payload: Schema.decodeUnknownSync(WorkflowCreate)({
        name: "Echo",
        graph: Schema.decodeUnknownSync(WorkflowGraph)({
          nodes: [
            {
              id: "start",
              type: "trigger",
              position: at(0),
              data: { kind: "webhook", inputs: [{ name: "type", type: "string" }, { name: "order", type: "number" }] }
            },
            {
              id: "done",
              type: "output",
              position: at(200),
              data: { format: "json", expression: "{ \"type\": input.type, \"order\": input.order }" }
            }
          ],
          edges: [{ id: "e1", source: "start", target: "done" }]
        })
      })
    })
    yield* client.workflows.publish({ path: { id: workflow.id }, headers: {}, payload: { note: "" } })
    const slug = `ingress-${process.pid}-${++count}`
    const created = yield* client.chains.create({
      payload: Schema.decodeUnknownSync(ChainCreate)({
        slug,
        name: "Ingress",
        ingressEnabled,
        steps: [{ id: "echo", workflowId: workflow.id }]
      })
    })
    const sql = yield* SqlClient.SqlClient
    const [workspace] = yield* sql<{ slug: string }>`SELECT slug FROM workspaces WHERE id = ${owner.workspaceId}`
    return { client, slug, workspaceSlug: workspace!.slug, secret: created.ingressSecret }
  })

const deliver = (
  address: { readonly workspaceSlug: string; readonly slug: string },
  body: string,
  headers: { readonly id: string; readonly timestamp: number; readonly signature: string }
) =>
  exchange(
    postRaw(`/v1/public/workflow-chains/${address.workspaceSlug}/${address.slug}/ingress`, body).pipe(
      HttpClientRequest.setHeaders({
        "webhook-id": headers.id,
        "webhook-timestamp": String(headers.timestamp),
        "webhook-signature": headers.signature
      })
    )
  )

const signed = (secret: string, id: string, body: string, timestamp = Math.floor(Date.now() / 1000)) => ({
  id,
  timestamp,
  signature: sign(secret, { id, timestamp, body })
})

layer(testServer(), { excludeTestServices: true, timeout: 120_000 })("Public chain ingress", (it) => {
  it.effect("a signed delivery starts a run; its webhook-id again is refused with that run", () =>
    Effect.gen(function*() {
      const chain = yield* setUp(true)
      const body = JSON.stringify({ type: "order.created", order: 7 })
      const first = yield* deliver(chain, body, signed(chain.secret, "msg_1", body))
      expect(first.status, first.text).toBe(202)
      const accepted = first.json as { runId: ChainRunId; status: string }
      expect(accepted.status).toBe("queued")
      expect(Object.keys(accepted).sort()).toEqual(["runId", "status"])

      const replay = yield* deliver(chain, body, signed(chain.secret, "msg_1", body))
      expect(replay.status).toBe(409)
      expect(replay.json).toEqual(expect.objectContaining({ _tag: "IngressReplayed", runId: accepted.runId }))

      let run = yield* chain.client.chains.getRun({ path: { slug: chain.slug, run_id: accepted.runId } })
      for (let i = 0; i < 100 && run.status !== "succeeded" && run.status !== "failed"; i++) {
        yield* Effect.sleep(Duration.millis(200))
        run = yield* chain.client.chains.getRun({ path: { slug: chain.slug, run_id: accepted.runId } })
      }
      expect(run.status, JSON.stringify(run.error)).toBe("succeeded")
      expect(run.trigger).toBe("ingress")
      expect(run.eventType).toBe("order.created")
      expect(run.webhookId).toBe("msg_1")
      expect(run.startedBy).toBeNull()
      expect(run.output).toEqual({ type: "order.created", order: 7 })
      const page = yield* chain.client.chains.listRuns({ path: { slug: chain.slug }, urlParams: {} })
      expect(page.total).toBe(1)
    }))

  it.effect("wrong, stale, tampered, rotated-away and unknown all answer the same 401; no run starts", () =>
    Effect.gen(function*() {
      const chain = yield* setUp(true)
      const body = JSON.stringify({ type: "order.created", order: 1 })
      const now = Math.floor(Date.now() / 1000)
      const refusals = [
        yield* deliver(chain, body, signed("whsec_" + Buffer.alloc(32, 7).toString("base64"), "m1", body)),
        yield* deliver(chain, body, signed(chain.secret, "m2", body, now - 301)),
        yield* deliver(chain, body.replace("1", "2"), signed(chain.secret, "m3", body)),
        yield* deliver(chain, body, { ...signed(chain.secret, "m4", body), signature: "v1,garbage" }),
        yield* deliver(chain, body, { ...signed(chain.secret, "m5", body), signature: "" }),
        yield* deliver({ ...chain, slug: "no-such-chain" }, body, signed(chain.secret, "m6", body)),
        yield* deliver({ ...chain, workspaceSlug: "no-such-workspace" }, body, signed(chain.secret, "m7", body))
      ]
      for (const refusal of refusals) {
        expect(refusal.status, refusal.text).toBe(401)
        expect(refusal.json).toEqual(expect.objectContaining({ _tag: "InvalidSignature" }))
      }
      // An unknown chain reads exactly like a wrong signature.
      expect(refusals[5]!.json).toEqual(refusals[0]!.json)

      const rotated = yield* chain.client.chains.rotateIngressSecret({ path: { slug: chain.slug } })
      const old = yield* deliver(chain, body, signed(chain.secret, "m8", body))
      expect(old.status).toBe(401)
      const page = yield* chain.client.chains.listRuns({ path: { slug: chain.slug }, urlParams: {} })
      expect(page.total).toBe(0)

      // A sender rotating sends both signatures: one matching is enough.
      const both = signed(rotated.ingressSecret, "m9", body)
      const mixed = { ...both, signature: `${signed(chain.secret, "m9", body).signature} ${both.signature}` }
      const accepted = yield* deliver(chain, body, mixed)
      expect(accepted.status, accepted.text).toBe(202)
    }))

  it.effect("a chain without public ingress answers 409 to a good delivery, and starts nothing", () =>
    Effect.gen(function*() {
      const chain = yield* setUp(false)
      const body = JSON.stringify({ type: "order.created", order: 3 })
      const refused = yield* deliver(chain, body, signed(chain.secret, "off-1", body))
      expect(refused.status).toBe(409)
      expect(refused.json).toEqual(expect.objectContaining({ _tag: "ChainIngressDisabled" }))
      yield* chain.client.chains.update({
        path: { slug: chain.slug },
        headers: {},
        payload: Schema.decodeUnknownSync(ChainPatch)({ ingressEnabled: true })
      })
      const accepted = yield* deliver(chain, body, signed(chain.secret, "off-1", body))
      expect(accepted.status, accepted.text).toBe(202)
      const broken = yield* deliver(chain, "{\"type\": \"x\", \"order\": \"\\ud800", signed(chain.secret, "off-2", "{"))
      expect([400, 401]).toContain(broken.status)
    }))
})
