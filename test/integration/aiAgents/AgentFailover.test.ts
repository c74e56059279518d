/**
 * An AI agent's turn survives the death of the node running it. Three real
 * nodes (the launcher's processes, one database); the model is the fake
 * OpenAI server, the tool a loopback server counting each Idempotency-Key.
 * A public turn asks the model, which calls `lookup`; the tool answers; the
 * model's next request (the one carrying that result) is held, and the node
 * owning the conversation is killed with SIGKILL while it waits. The client
 * retries with the same key on the nodes still alive, as a widget does; the
 * turn finishes on another node, which resumes it from the stored steps:
 * the completed tool call is not made again, the next one is made once, and
 * the stored conversation holds each step once and in order, those after
 * the kill under a newer owner epoch.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { signUpAt } from "../../support/Conversations.js"
import { answer, type FakeRequest, hang } from "../../support/FakeLlmServer.js"
import { makeFakeOpenAi } from "../../support/FakeOpenAi.js"
import { localCluster } from "../../support/LocalCluster.js"
import { connectedClient, freshDatabase } from "../../support/TestDatabase.js"
import { toolServer } from "../../support/ToolServer.js"

const post = async (url: string, body: unknown, headers: Record<string, string> = {}) => {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000)
  })
  const text = await response.text()
  return { status: response.status, json: text === "" ? null : JSON.parse(text) }
}

const created = async (url: string, body: unknown, token: string) => {
  const answer = await post(url, body, { authorization: `Bearer ${token}` })
  if (answer.status !== 200 && answer.status !== 201) {
    throw new Error(`${url} answered ${answer.status}: ${JSON.stringify(answer.json)}`)
  }
  return answer.json
}

/** Tool results the request carries: how far into the turn the model is. */
const toolResultsIn = (request: FakeRequest): number =>
  (request.body?.messages ?? []).filter((message: { role?: string }) => message.role === "tool").length

describe("an AI agent's turn on a three-node cluster", () => {
  it.scopedLive(
    "finishes on another node when the one running it is killed, no tool called twice",
    () =>
      Effect.gen(function*() {
        const fake = yield* makeFakeOpenAi
        const tools = yield* toolServer
        const { url: databaseUrl } = yield* freshDatabase
        const cluster = yield* localCluster({
          nodes: 3,
          databaseUrl,
          env: {
            PARLEY_LLM_PROVIDER: "openai-compatible",
            PARLEY_LLM_MODEL: "agent-model",
            PARLEY_LLM_BASE_URL: `${fake.origin}/v1`,
            PARLEY_LLM_API_KEY: "sk-failover-test",
            PARLEY_TOOL_ALLOWED_HOSTS: "127.0.0.1/32"
          }
        })
        const pg = yield* connectedClient(databaseUrl)

        // The model: look up A1; then (held the first time) look up B2; then answer.
        let held: (() => void) | undefined
        const heldNow = new Promise<void>((resolve) => (held = resolve))
        let holding = true
        fake.respond((request) => {
          const results = toolResultsIn(request)
          if (results === 0) return answer({ toolCalls: [{ id: "call_a", name: "lookup", input: { orderId: "A1" } }] })
          if (results === 1) {
            if (holding) {
              holding = false
              held!()
              return hang
            }
            return answer({ toolCalls: [{ id: "call_b", name: "lookup", input: { orderId: "B2" } }] })
          }
          return answer({ text: "Both orders are on their way." })
        })

        const result = yield* Effect.promise(async () => {
          const urls = cluster.nodes.map((node) => node.url)
          const token = await signUpAt(urls[0]!)
          // Publishing needs a verified email; the link went to a node's log, so the test verifies it in place.
          await pg.query(`UPDATE users SET email_verified_at = now()`)
          const slug = `failover-${process.pid}`
          await created(`${urls[0]}/v1/ai-agents`, { slug, name: "Orders", instructions: "Look orders up." }, token)
          await created(`${urls[0]}/v1/ai-agents/${slug}/tools`, {
            name: "lookup",
            description: "Look an order up",
            config: {
              kind: "http",
              inputSchema: { type: "object", properties: { orderId: { type: "string" } }, required: ["orderId"] },
              method: "POST",
              url: `${tools.origin}/ok/lookup`,
              body: { kind: "json", template: { orderId: "{{input.orderId}}" } },
              timeoutSeconds: 5
            }
          }, token)
          const release = await created(`${urls[0]}/v1/ai-agents/${slug}/publish`, {}, token)
          const publicToken = release.publicToken as string

          // The widget's turn, retried with the same key on a live node when its node fails.
          let live = urls
          const key = "failover-turn-1"
          const deadline = Date.now() + 90_000
          let attempts = 0
          const send = async () => {
            let last = "no attempt"
            while (Date.now() < deadline) {
              const url = live[attempts++ % live.length]!
              try {
                const answer = await post(`${url}/v1/public/ai-agents/${publicToken}/turn`, {
                  message: "Where are my orders A1 and B2?",
                  endUserId: "shopper-1"
                }, { "idempotency-key": key })
                if (answer.status === 200) return answer.json
                last = `${answer.status} ${JSON.stringify(answer.json)}`
                if (answer.status < 500) throw new Error(`the turn was refused: ${last}`)
              } catch (error) {
                if (error instanceof Error && error.message.startsWith("the turn was refused")) throw error
                last = String(error)
              }
              await new Promise((resolve) => setTimeout(resolve, 200))
            }
            throw new Error(`the turn was never answered (last: ${last})`)
          }
          const answered = send()

          // The model's second request is waiting: the first tool call is stored. Kill the conversation's owner.
          await heldNow
          const owner = await pg.query<{ owner_runner: string; owner_epoch: number }>(
            `SELECT owner_runner, owner_epoch FROM ai_agent_conversations WHERE agent_id =
             (SELECT id FROM ai_agents WHERE slug = $1)`,
            [slug]
          )
          const victim = cluster.nodes.find((node) => owner.rows[0]?.owner_runner === `127.0.0.1:${node.runnerPort}`)
          if (victim === undefined) throw new Error(`no node owns the conversation: ${JSON.stringify(owner.rows)}`)
          const callsBeforeKill = tools.calls.length
          const killedAt = Date.now()
          victim.kill("SIGKILL")
          live = urls.filter((url) => url !== victim.url)

          const reply = await answered
          const answeredAfterMs = Date.now() - killedAt
          const steps = await pg.query<{ turn: number; step: number; kind: string; epoch: number }>(
            `SELECT turn, step, kind, epoch FROM ai_agent_steps WHERE conversation_id = $1 ORDER BY turn, step`,
            [reply.conversationId]
          )
          const turns = await pg.query<{ turn: number; status: string; idempotency_key: string }>(
            `SELECT turn, status, idempotency_key FROM ai_agent_turns WHERE conversation_id = $1 ORDER BY turn`,
            [reply.conversationId]
          )
          // The same key once more, on another live node: the stored turn, no third model round.
          const modelRequests = fake.requests.length
          const again = await post(`${live[1 % live.length]}/v1/public/ai-agents/${publicToken}/turn`, {
            message: "Where are my orders A1 and B2?",
            endUserId: "shopper-1"
          }, { "idempotency-key": key })
          return {
            reply,
            again,
            answeredAfterMs,
            callsBeforeKill,
            epochBefore: owner.rows[0]!.owner_epoch,
            steps: steps.rows,
            turns: turns.rows,
            modelRequestsBefore: modelRequests,
            modelRequestsAfter: fake.requests.length
          }
        })

        expect(result.reply).toMatchObject({
          outcome: "answered",
          message: { content: "Both orders are on their way." }
        })
        // Before the kill the tool had been called once (A1); in all, A1 and B2 once each, under distinct keys.
        expect(result.callsBeforeKill).toBe(1)
        expect(tools.calls.map((call) => JSON.parse(call.body).orderId)).toEqual(["A1", "B2"])
        const keys = tools.calls.map((call) => call.key)
        expect(keys.every((key) => typeof key === "string" && key.length > 0)).toBe(true)
        expect(new Set(keys).size).toBe(2)

        // One turn, answered; its steps once each and in order: model, tool, model, tool, model.
        expect(result.turns).toEqual([{ turn: 1, status: "done", idempotency_key: "failover-turn-1" }])
        expect(result.steps.map((row) => [row.turn, row.step, row.kind])).toEqual([
          [1, 0, "model"],
          [1, 1, "tool"],
          [1, 2, "model"],
          [1, 3, "tool"],
          [1, 4, "model"]
        ])
        // The first two were written by the killed node; the rest by the new owner, under a newer epoch.
        expect(result.steps.slice(0, 2).every((row) => row.epoch === result.epochBefore)).toBe(true)
        expect(result.steps.slice(2).every((row) => row.epoch > result.epochBefore)).toBe(true)

        // A repeat of the key answers the stored turn without asking the model again.
        expect(result.again.status).toBe(200)
        expect(result.again.json).toEqual(result.reply)
        expect(result.modelRequestsAfter).toBe(result.modelRequestsBefore)
        console.log(`agent failover: the turn was answered ${result.answeredAfterMs} ms after its node was killed`)
      }),
    240_000
  )
})
