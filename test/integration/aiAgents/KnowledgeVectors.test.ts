/**
 * Hybrid knowledge retrieval over HTTP against the real database, with an
 * embeddings provider that is a fake OpenAI-compatible server computing real
 * (feature-hashed) vectors (`FakeEmbeddings.ts`): the settings' embeddings
 * connection (shown, validated), chunks embedded when indexed with the
 * model recorded, a query none of whose words is in the right document found
 * through its vector only with the provider; the provider failing leaves
 * documents `ready` and search lexical, and the sweep embeds what it missed
 * and re-embeds everything when the model changes. Then the optional rerank
 * by the agent's model (a fake OpenAI chat model): an answer it cannot read
 * leaves the fused order, a valid one reorders the passages.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import type { AiAgentKnowledgeId } from "../../../src/domain/aiAgents/Ids.js"
import { AiAgentKnowledgeCreate } from "../../../src/domain/aiAgents/Knowledge.js"
import { AiAgentToolCreate } from "../../../src/domain/aiAgents/Tool.js"
import { AgentLlmSettingsPatch } from "../../../src/domain/settings/AgentLlmSettings.js"
import { signUp, type TestAccount } from "../../support/Accounts.js"
import { makeFakeEmbeddings } from "../../support/FakeEmbeddings.js"
import { answer } from "../../support/FakeLlmServer.js"
import { makeFakeOpenAi } from "../../support/FakeOpenAi.js"
import { exchange, HttpClientRequest, postRaw } from "../../support/Http.js"
import { clientOf } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"
import { failureOf } from "../../support/TypedCaller.js"
import { agentRow } from "./AgentRows.js"

const noHeaders = { headers: {} } as const
const document = (body: Record<string, unknown>) => Schema.decodeUnknownSync(AiAgentKnowledgeCreate)(body)
const patchOf = (patch: unknown) => Schema.decodeUnknownSync(AgentLlmSettingsPatch)(patch)

interface Hit {
  readonly documentId: string
  readonly text: string
  readonly score: number
}

/** An agent with `knowledge_search` (these settings), and the calls the test makes on it. */
const agentWithSearch = (owner: TestAccount, settings: Record<string, unknown> = {}) =>
  Effect.gen(function*() {
    const client = yield* clientOf(owner)
    const agent = yield* agentRow(owner.workspaceId)
    const path = { slug: agent.slug }
    const tool = yield* client.aiAgentTools.create({
      path,
      payload: Schema.decodeUnknownSync(AiAgentToolCreate)({
        name: "knowledge_search",
        config: { kind: "builtin", builtin: "knowledge_search", settings }
      }),
      ...noHeaders
    })
    const upload = (title: string, content: string) =>
      Effect.gen(function*() {
        const created = yield* client.aiAgentKnowledge.create({
          path,
          payload: document({ kind: "markdown", title, content }),
          ...noHeaders
        })
        for (let attempt = 0; attempt < 200; attempt++) {
          const found = yield* client.aiAgentKnowledge.get({ path: { ...path, knowledge_id: created.id } })
          if (found.status === "ready" || found.status === "failed") return found
          yield* Effect.sleep("50 millis")
        }
        return yield* Effect.die(`document ${created.id} was never indexed`)
      })
    let turns = 0
    /** The playground's turn (`message`), answered with status and the knowledge_search results. */
    const turn = (message: string) =>
      Effect.map(
        exchange(
          postRaw(`/v1/ai-agents/${agent.slug}/playground`, JSON.stringify({ message })).pipe(
            HttpClientRequest.bearerToken(owner.token),
            HttpClientRequest.setHeader("idempotency-key", `turn-${++turns}`)
          )
        ),
        (answered) => {
          expect(answered.status).toBe(200)
          const call = answered.json.toolCalls[0]
          expect(call).toMatchObject({ name: "knowledge_search", status: "succeeded" })
          return call.result.results as Array<Hit>
        }
      )
    const search = (query: string) => turn(`/call knowledge_search ${JSON.stringify({ query })}`)
    /** The tool's test call (`POST …/tools/{tid}/test`) with this query: its results. */
    const tested = (query: string) =>
      Effect.map(
        client.aiAgentTools.test({ path: { ...path, tid: tool.id }, payload: { input: { query } as never } }),
        (result) => (result.output as unknown as { results: Array<Hit> }).results
      )
    return { client, agent, upload, turn, search, tested } as const
  })

/** The agent's vectors by model, and its chunks. */
const vectorCounts = (agentId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const models = yield* sql<{ model: string; count: number }>`SELECT model, count(*)::int AS count
      FROM ai_agent_knowledge_vectors WHERE agent_id = ${agentId} GROUP BY model ORDER BY model`
    const [chunks] = yield* sql<{ count: number }>`SELECT count(*)::int AS count FROM ai_agent_knowledge_chunks
      WHERE agent_id = ${agentId}`
    return { models: Object.fromEntries(models.map((row) => [row.model, row.count])), chunks: chunks!.count }
  }).pipe(Effect.orDie)

const vectorsOf = (documentId: AiAgentKnowledgeId) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql<{ model: string; bytes: number }>`SELECT model, octet_length(embedding) AS bytes
      FROM ai_agent_knowledge_vectors WHERE document_id = ${documentId} ORDER BY ordinal`
  }).pipe(Effect.orDie)

const returns = `# Returns

We refund every order within 30 days. The refund goes back to the card that paid.`
const shipping = `# Shipping

Parcels leave the warehouse every weekday at noon.`
const gifts = `# Gift cards

Gift cards never expire and work in every shop.`

layer(testServer({ PARLEY_TOOL_ALLOWED_HOSTS: "127.0.0.1/32" }), { excludeTestServices: true, timeout: 120_000 })(
  "AI agent knowledge with vectors",
  (it) => {
    it.scoped("vectors find what lexical search misses; a failing provider leaves search lexical", () =>
      Effect.gen(function*() {
        const fake = yield* makeFakeEmbeddings
        const owner = yield* signUp()
        const { agent, client, search, tested, upload } = yield* agentWithSearch(owner)
        const embeddings = (model: string) => ({ provider: "openai-compatible", baseUrl: fake.baseUrl, model })

        // The embeddings connection: validated (a provider without /embeddings is a 400 naming the field), shown.
        const refused = yield* failureOf(client.agentSettings.updateAgentLlm({
          payload: patchOf({ embeddings: { provider: "anthropic", model: "claude", apiKeySecret: "K" } })
        }))
        expect(refused._tag).toBe("SettingsInvalid")
        expect((refused as unknown as { problems: Array<{ field: string }> }).problems.map((p) => p.field))
          .toContain("embeddings.provider")
        expect((yield* client.agentSettings.getAgentLlm()).embeddings).toBeNull()
        const saved = yield* client.agentSettings.updateAgentLlm({
          payload: patchOf({ embeddings: embeddings("hash-1") })
        })
        expect(saved.embeddings).toMatchObject({
          provider: "openai-compatible",
          model: "hash-1",
          baseUrl: fake.baseUrl
        })
        expect(saved.primary).toBeNull()
        expect((yield* client.agentSettings.getAgentLlm()).embeddings).toMatchObject({ model: "hash-1" })

        // Indexing embeds each chunk (unit float32 vectors of 256 dimensions) with the model's name.
        const returnsDoc = yield* upload("Returns", returns)
        const shippingDoc = yield* upload("Shipping", shipping)
        expect([returnsDoc.status, shippingDoc.status]).toEqual(["ready", "ready"])
        const stored = yield* vectorsOf(returnsDoc.id)
        expect(stored.length).toBe(returnsDoc.chunkCount)
        expect(stored.every((vector) => vector.model === "hash-1" && vector.bytes === 256 * 4)).toBe(true)
        expect(fake.requests.some((request) => request.input.some((text) => text.includes("refund every order"))))
          .toBe(true)

        // "reimbursement" is no word of any document: only its vector (the concept "refund") finds Returns.
        const hybrid = yield* search("reimbursement")
        expect(hybrid[0]).toMatchObject({ documentId: returnsDoc.id })
        expect(hybrid[0]!.text).toContain("refund every order")
        expect(hybrid[0]!.score).toBeGreaterThan(0)
        // The tool's test call searches as the turn does.
        expect((yield* tested("reimbursement"))[0]).toMatchObject({ documentId: returnsDoc.id })
        // A word both rankings know still ranks its document first.
        expect((yield* search("parcels warehouse"))[0]!.documentId).toBe(shippingDoc.id)
        yield* client.agentSettings.updateAgentLlm({ payload: patchOf({ embeddings: null }) })
        expect(yield* search("reimbursement")).toEqual([])
        yield* client.agentSettings.updateAgentLlm({ payload: patchOf({ embeddings: embeddings("hash-1") }) })

        // The provider fails: a new document is still `ready` (no vectors) and searched lexically; queries too.
        fake.failing = true
        const giftsDoc = yield* upload("Gift cards", gifts)
        expect(giftsDoc).toMatchObject({ status: "ready", error: null })
        expect(giftsDoc.chunkCount).toBeGreaterThan(0)
        expect(yield* vectorsOf(giftsDoc.id)).toEqual([])
        expect((yield* search("gift cards"))[0]!.documentId).toBe(giftsDoc.id)
        expect((yield* search("voucher")).map((hit) => hit.documentId)).not.toContain(giftsDoc.id)

        // Back, with another model: the sweep embeds what was missed and re-embeds the rest with the new model.
        fake.failing = false
        yield* client.agentSettings.updateAgentLlm({ payload: patchOf({ embeddings: embeddings("hash-2") }) })
        let counts = yield* vectorCounts(agent.id)
        for (let waited = 0; waited < 45_000 && counts.models["hash-2"] !== counts.chunks; waited += 500) {
          yield* Effect.sleep("500 millis")
          counts = yield* vectorCounts(agent.id)
        }
        expect(counts.models).toEqual({ "hash-2": counts.chunks })
        const hash2 = fake.requests.filter((request) => request.model === "hash-2").flatMap((request) => request.input)
        // The embedded text is the chunk's heading path, then its text.
        expect(hash2).toContain("Gift cards\nGift cards never expire and work in every shop.")
        expect(hash2.some((text) => text.includes("refund every order"))).toBe(true)
        expect((yield* search("voucher"))[0]!.documentId).toBe(giftsDoc.id)
        expect((yield* search("reimbursement"))[0]!.documentId).toBe(returnsDoc.id)
      }))

    it.scoped("rerank: the agent's model orders the passages; an answer it cannot read leaves the fused order", () =>
      Effect.gen(function*() {
        const chat = yield* makeFakeOpenAi
        const owner = yield* signUp()
        const { client, turn, upload } = yield* agentWithSearch(owner, { rerank: true, topK: 3 })
        yield* client.agentSettings.updateAgentLlm({
          payload: patchOf({ primary: { provider: "openai-compatible", baseUrl: `${chat.origin}/v1`, model: "chat" } })
        })
        yield* upload("Policy", "# Policy\n\nA refund is paid within 30 days of the refund request.")
        yield* upload("Gift cards", "# Gift cards\n\nGift cards are not refunded.")
        yield* upload("Shops", "# Shops\n\nEvery shop can refund an order.")
        let rerankAnswer = "Passage two looks best to me."
        chat.respond((request) => {
          const messages = request.body.messages as Array<{ role: string; content: unknown }>
          if (String(messages[0]?.content).startsWith("You rank passages")) return answer({ text: rerankAnswer })
          if (messages.at(-1)?.role === "tool") return answer({ text: "Here is what I found." })
          return answer({ toolCalls: [{ name: "knowledge_search", input: { query: "refund" } }] })
        })
        const fused = yield* turn("How do refunds work?")
        expect(fused.length).toBe(3)
        const reranks = () =>
          chat.requests.filter((request) => String(request.body?.messages?.[0]?.content).startsWith("You rank"))
        expect(reranks().length).toBe(1)
        expect(reranks()[0]!.body.messages[1].content).toContain("Query: refund")

        rerankAnswer = "```json\n{\"order\": [3, 9, 1, 3]}\n```"
        const reranked = yield* turn("And again?")
        expect(reranked.map((hit) => hit.documentId)).toEqual(
          [fused[2]!, fused[0]!, fused[1]!].map((h) => h.documentId)
        )
        expect(reranks().length).toBe(2)
      }))
  }
)
