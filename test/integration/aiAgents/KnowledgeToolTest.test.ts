/**
 * The test call of an agent's `knowledge_search` tool over HTTP against the
 * real database: it searches the draft's documents once they are `ready` and
 * answers the citations with the query and limit searched; a query that
 * matches nothing finds an empty list; the tool's `knowledgeIds` narrow the
 * search, a disabled document is left out, and arguments that are no search
 * are a 400. The documents are written for this test.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import type { KnowledgeCitation } from "../../../src/domain/aiAgents/knowledge/KnowledgeCitation.js"
import { AiAgentToolCreate, AiAgentToolPatch } from "../../../src/domain/aiAgents/Tool.js"
import { signUp } from "../../support/Accounts.js"
import { clientOf } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"
import { agentRow } from "./AgentRows.js"
import { knowledgeDocuments } from "./KnowledgeDocuments.js"

const noHeaders = { headers: {} } as const

const handbook = `# Refunds

We refund every order within 30 days of delivery.

## Card payments

Refunds to a credit card arrive within 5 business days; the zebra code is ZX-41.

# Shipping

Parcels leave the warehouse every weekday at noon.`

const notes = "The walrus discount is 12 percent for members of the aquarium club."

layer(testServer(), { excludeTestServices: true, timeout: 60_000 })("the knowledge_search tool's test call", (it) => {
  it.effect("searches the draft's ready documents and answers citations; nothing relevant is an empty list", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const client = yield* clientOf(owner)
      const agent = yield* agentRow(owner.workspaceId)
      const { create, path, settled } = knowledgeDocuments(client, agent.slug)
      const markdown = yield* create({ kind: "markdown", title: "Handbook", content: handbook })
      const text = yield* create({ kind: "text", title: "Notes", content: notes })
      expect((yield* settled(markdown.id)).status).toBe("ready")
      expect((yield* settled(text.id)).status).toBe("ready")

      const tool = yield* client.aiAgentTools.create({
        path,
        payload: Schema.decodeUnknownSync(AiAgentToolCreate)({
          name: "knowledge_search",
          config: { kind: "builtin", builtin: "knowledge_search" }
        }),
        ...noHeaders
      })
      const test = (input: Record<string, unknown>) =>
        client.aiAgentTools.test({ path: { ...path, tid: tool.id }, payload: { input: input as never } })
      const resultsOf = (output: unknown) => (output as { results: Array<KnowledgeCitation> }).results

      const found = yield* test({ query: "how long do card refunds take" })
      expect(found).toMatchObject({
        ok: true,
        toolId: tool.id,
        name: "knowledge_search",
        kind: "builtin",
        request: null,
        response: null,
        error: null,
        output: { query: "how long do card refunds take", limit: 5 }
      })
      expect(found.latencyMs).toBeGreaterThanOrEqual(0)
      const [top] = resultsOf(found.output)
      expect(top).toMatchObject({ documentId: markdown.id, title: "Handbook", heading: "Refunds › Card payments" })
      expect(handbook.slice(top!.start, top!.end)).toContain("5 business days")
      expect(top!.score).toBeGreaterThan(0)
      const walrus = yield* test({ query: "walrus discount", limit: 1 })
      expect(walrus.output).toMatchObject({ limit: 1 })
      expect(resultsOf(walrus.output).map((hit) => hit.documentId)).toEqual([text.id])

      // Nothing relevant: an empty list, not an error.
      const nothing = yield* test({ query: "qqqq vvvv" })
      expect(nothing).toMatchObject({ ok: true, output: { query: "qqqq vvvv", limit: 5, results: [] } })

      // The tool's own documents only, when it names some; a disabled document is not searched.
      yield* client.aiAgentTools.update({
        path: { ...path, tid: tool.id },
        payload: Schema.decodeUnknownSync(AiAgentToolPatch)({
          config: { kind: "builtin", builtin: "knowledge_search", settings: { knowledgeIds: [text.id] } }
        }),
        ...noHeaders
      })
      expect(resultsOf((yield* test({ query: "card refunds" })).output)).toEqual([])
      expect(resultsOf((yield* test({ query: "walrus" })).output).map((hit) => hit.documentId)).toEqual([text.id])
      yield* client.aiAgentKnowledge.update({
        path: { ...path, knowledge_id: text.id },
        payload: { enabled: false },
        ...noHeaders
      })
      expect(resultsOf((yield* test({ query: "walrus" })).output)).toEqual([])

      // Arguments that are no search.
      const blank = yield* test({ query: "   " }).pipe(Effect.flip)
      expect(blank._tag).toBe("AiAgentToolInputInvalid")
      const tooMany = yield* test({ query: "refunds", limit: 50 }).pipe(Effect.flip)
      expect(tooMany._tag).toBe("AiAgentToolInputInvalid")
      const missing = yield* test({}).pipe(Effect.flip)
      expect(missing._tag).toBe("AiAgentToolInputInvalid")
    }))
})
