/**
 * An AI agent's knowledge over HTTP against the real database: each document
 * kind (text, Markdown, HTML, PDF text, and a URL served by a loopback
 * server) indexed in the background until `ready`, a playground turn whose
 * model calls `knowledge_search` and gets a citation (document, heading,
 * offsets) in the tool result; a page that cannot be fetched is `failed`
 * with the reason; re-indexing on new content, disabled documents left out,
 * deletion taking the chunks; CRUD with the by-id forms, `If-Match`, kind
 * mismatches and taken URLs, roles and another workspace's agent.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { AiAgentKnowledgeCreate } from "../../../src/domain/aiAgents/Knowledge.js"
import { AiAgentToolCreate } from "../../../src/domain/aiAgents/Tool.js"
import { signUp } from "../../support/Accounts.js"
import { exchange, HttpClientRequest, postRaw } from "../../support/Http.js"
import { clientOf, join } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"
import { agentRow, revisionOf } from "./AgentRows.js"
import { knowledgeDocuments } from "./KnowledgeDocuments.js"

const noHeaders = { headers: {} } as const
const document = (body: Record<string, unknown>) => Schema.decodeUnknownSync(AiAgentKnowledgeCreate)(body)

const handbook = `# Refunds

We refund every order within 30 days of delivery.

## Card payments

Refunds to a credit card arrive within 5 business days; the zebra code is ZX-41.

# Shipping

Parcels leave the warehouse every weekday at noon.`

const page = `<html><head><title>Help</title><script>var secret = "never indexed"</script></head><body>
<h1>Opening hours</h1><p>The Lisbon office opens at 9:00 on weekdays.</p>
<h2>Holidays</h2><p>On public holidays the quokka hotline is closed.</p></body></html>`

/** A loopback page server: `/help` answers HTML, `/missing` 404. */
const pageServer = Effect.acquireRelease(
  Effect.async<Http.Server>((resume) => {
    const server = Http.createServer((request, response) => {
      if (request.url === "/help") {
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page)
      } else {
        response.writeHead(404, { "content-type": "text/plain" }).end("no")
      }
    })
    server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
  }),
  (server) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
).pipe(Effect.map((server) => (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`))

layer(testServer({ PARLEY_TOOL_ALLOWED_HOSTS: "127.0.0.1/32" }), { excludeTestServices: true, timeout: 60_000 })(
  "AI agent knowledge",
  (it) => {
    it.scoped("every kind is indexed in the background; the agent cites a chunk through knowledge_search", () =>
      Effect.gen(function*() {
        const urlOf = yield* pageServer
        const owner = yield* signUp()
        const client = yield* clientOf(owner)
        const agent = yield* agentRow(owner.workspaceId)
        const { create, path, settled } = knowledgeDocuments(client, agent.slug)

        const markdown = yield* create({ kind: "markdown", title: "Handbook", content: handbook })
        expect(markdown).toMatchObject({ status: "pending", chunkCount: 0, indexedAt: null, url: null })
        expect(markdown).not.toHaveProperty("content")
        const text = yield* create({ kind: "text", title: "Notes", content: "The walrus discount is 12 percent." })
        const pdf = yield* create({ kind: "pdf-text", title: "Terms (PDF)", content: "Clause 7: ocelot liability." })
        const html = yield* create({ kind: "html", title: "Help page", content: page })
        const url = yield* create({ kind: "url", title: "Help online", url: urlOf("/help") })
        const broken = yield* create({ kind: "url", title: "Gone", url: urlOf("/missing") })

        const ready = yield* Effect.all([markdown, text, pdf, html, url].map((doc) => settled(doc.id)))
        for (const doc of ready) expect(doc).toMatchObject({ status: "ready", error: null })
        const [md, , , htmlDone, urlDone] = ready
        expect(md).toMatchObject({ characterCount: handbook.length, chunkCount: 3, content: handbook })
        expect(md!.indexedAt).not.toBeNull()
        expect(htmlDone!.chunkCount).toBe(2)
        // A url's text is the page as fetched, headings kept, the script left out.
        expect(urlDone!.content).toContain("# Opening hours")
        expect(urlDone!.content).not.toContain("never indexed")
        const failed = yield* settled(broken.id)
        expect(failed).toMatchObject({ status: "failed", chunkCount: 0 })
        expect(failed.error).toContain("404")

        // The agent searches its knowledge; the tool result carries the citation.
        yield* client.aiAgentTools.create({
          path,
          payload: Schema.decodeUnknownSync(AiAgentToolCreate)({
            name: "knowledge_search",
            config: { kind: "builtin", builtin: "knowledge_search" }
          }),
          ...noHeaders
        })
        const turn = (message: string, key: string) =>
          exchange(
            postRaw(`/v1/ai-agents/${agent.slug}/playground`, JSON.stringify({ message })).pipe(
              HttpClientRequest.bearerToken(owner.token),
              HttpClientRequest.setHeader("idempotency-key", key)
            )
          )
        const answered = yield* turn(`/call knowledge_search {"query":"how long do card refunds take"}`, "k-1")
        expect(answered.status).toBe(200)
        const call = answered.json.toolCalls[0]
        expect(call).toMatchObject({ name: "knowledge_search", status: "succeeded" })
        const top = call.result.results[0]
        expect(top).toMatchObject({ documentId: markdown.id, title: "Handbook", heading: "Refunds › Card payments" })
        expect(handbook.slice(top.start, top.end)).toContain("5 business days")
        expect(top.score).toBeGreaterThan(0)
        expect(answered.json.message.content).toContain("5 business days")
        // Lexical matches across kinds: a rare word finds its document.
        const search = (query: string, key: string) =>
          Effect.map(
            turn(`/call knowledge_search ${JSON.stringify({ query, limit: 2 })}`, key),
            (answer) => answer.json.toolCalls[0].result.results as Array<{ documentId: string; heading: string }>
          )
        expect((yield* search("quokka hotline", "k-2"))[0]).toMatchObject({ heading: "Opening hours › Holidays" })
        expect((yield* search("ocelot", "k-3"))[0]!.documentId).toBe(pdf.id)
        expect((yield* search("walrus discount", "k-4"))[0]!.documentId).toBe(text.id)

        // New content is indexed again; a disabled document is left out of search.
        const changed = yield* client.aiAgentKnowledge.update({
          path: { ...path, knowledge_id: text.id },
          payload: { content: "The narwhal discount is 15 percent." },
          ...noHeaders
        })
        expect(changed.status).toBe("pending")
        expect((yield* settled(text.id)).status).toBe("ready")
        expect((yield* search("narwhal", "k-5"))[0]!.documentId).toBe(text.id)
        expect((yield* search("walrus", "k-6")).map((hit) => hit.documentId)).not.toContain(text.id)
        yield* client.aiAgentKnowledge.updateById({ path, payload: { id: pdf.id, enabled: false }, ...noHeaders })
        expect((yield* search("ocelot", "k-7")).map((hit) => hit.documentId)).not.toContain(pdf.id)

        // Deleting a document takes its chunks.
        yield* client.aiAgentKnowledge.delete({ path: { ...path, knowledge_id: markdown.id }, ...noHeaders })
        const sql = yield* SqlClient.SqlClient
        const [left] = yield* sql<{ count: number }>`SELECT count(*)::int AS count FROM ai_agent_knowledge_chunks
          WHERE document_id = ${markdown.id}`
        expect(left!.count).toBe(0)
      }))

    it.effect("CRUD: newest first, filters, by-id forms, If-Match, kind mismatches, taken URLs, reindex", () =>
      Effect.gen(function*() {
        const owner = yield* signUp()
        const client = yield* clientOf(owner)
        const agent = yield* agentRow(owner.workspaceId)
        const path = { slug: agent.slug }
        const a = yield* client.aiAgentKnowledge.create({
          path,
          payload: document({ kind: "text", title: "Alpha notes", content: "alpha" }),
          headers: { "if-match": 1 as never }
        })
        expect(yield* revisionOf(agent.id)).toBe(2)
        // The search tool may be narrowed to the agent's own documents, not to others.
        const narrowed = (knowledgeIds: ReadonlyArray<string>) =>
          client.aiAgentTools.create({
            path,
            payload: Schema.decodeUnknownSync(AiAgentToolCreate)({
              name: "knowledge_search",
              config: { kind: "builtin", builtin: "knowledge_search", settings: { knowledgeIds } }
            }),
            ...noHeaders
          })
        const foreign = yield* narrowed(["0190c7a0-0000-7000-8000-00000000feed"]).pipe(Effect.flip)
        expect(foreign._tag).toBe("AiAgentToolInvalid")
        yield* narrowed([a.id])
        expect(yield* revisionOf(agent.id)).toBe(3)
        const stale = yield* client.aiAgentKnowledge.create({
          path,
          payload: document({ kind: "text", title: "Beta", content: "beta" }),
          headers: { "if-match": 1 as never }
        }).pipe(Effect.flip)
        expect(stale).toMatchObject({ _tag: "RevisionConflict", expected: 1, actual: 3 })
        const b = yield* client.aiAgentKnowledge.create({
          path,
          payload: document({ kind: "url", title: "Beta page", url: "https://docs.example.com/beta" }),
          ...noHeaders
        })
        const taken = yield* client.aiAgentKnowledge.create({
          path,
          payload: document({ kind: "url", title: "Again", url: "https://docs.example.com/beta" }),
          ...noHeaders
        }).pipe(Effect.flip)
        expect(taken).toMatchObject({ _tag: "AiAgentKnowledgeUrlTaken" })
        const list = yield* client.aiAgentKnowledge.list({ path, urlParams: {} })
        expect(list.items.map((item) => item.id)).toEqual([b.id, a.id])
        expect(list.items[0]).not.toHaveProperty("content")
        const byKind = yield* client.aiAgentKnowledge.list({ path, urlParams: { kind: "url" } })
        expect(byKind.items.map((item) => item.id)).toEqual([b.id])
        const byTitle = yield* client.aiAgentKnowledge.list({ path, urlParams: { q: "ALPHA" } })
        expect(byTitle.items.map((item) => item.id)).toEqual([a.id])
        const noContent = yield* client.aiAgentKnowledge.update({
          path: { ...path, knowledge_id: b.id },
          payload: { content: "x" },
          ...noHeaders
        }).pipe(Effect.flip)
        expect(noContent).toMatchObject({ _tag: "AiAgentKnowledgeKindMismatch", field: "content", kind: "url" })
        const noUrl = yield* client.aiAgentKnowledge.updateById({
          path,
          payload: { id: a.id, url: "https://x.example/" },
          ...noHeaders
        }).pipe(Effect.flip)
        expect(noUrl).toMatchObject({ _tag: "AiAgentKnowledgeKindMismatch", field: "url" })
        const renamed = yield* client.aiAgentKnowledge.updateById({
          path,
          payload: { id: a.id, title: "Alpha", reindex: true },
          ...noHeaders
        })
        expect(renamed).toMatchObject({ title: "Alpha", status: "pending" })
        const detail = yield* client.aiAgentKnowledge.get({ path: { ...path, knowledge_id: a.id } })
        expect(detail.content).toBe("alpha")
        yield* client.aiAgentKnowledge.deleteById({ path, urlParams: { id: b.id }, ...noHeaders })
        const gone = yield* client.aiAgentKnowledge.get({ path: { ...path, knowledge_id: b.id } }).pipe(Effect.flip)
        expect(gone._tag).toBe("AiAgentKnowledgeNotFound")
        const again = yield* client.aiAgentKnowledge.deleteById({ path, urlParams: { id: b.id }, ...noHeaders }).pipe(
          Effect.flip
        )
        expect(again._tag).toBe("AiAgentKnowledgeNotFound")
        const badKind = yield* exchange(
          postRaw(
            `/v1/ai-agents/${agent.slug}/knowledge`,
            JSON.stringify({ kind: "text", title: "t", url: "https://x.example/" })
          ).pipe(HttpClientRequest.bearerToken(owner.token))
        )
        expect(badKind.status).toBe(400)
        // Writes bumped the revision once each (the refused ones not at all): a, the tool, b, update, delete.
        expect(yield* revisionOf(agent.id)).toBe(6)
      }))

    it.effect("roles: a viewer reads, an editor writes; another workspace sees no agent and no document", () =>
      Effect.gen(function*() {
        const owner = yield* signUp()
        const agent = yield* agentRow(owner.workspaceId)
        const path = { slug: agent.slug }
        const mine = yield* (yield* clientOf(owner)).aiAgentKnowledge.create({
          path,
          payload: document({ kind: "text", title: "Mine", content: "ours" }),
          ...noHeaders
        })
        const viewer = yield* clientOf(yield* join(owner, "viewer"), owner.workspaceId)
        expect((yield* viewer.aiAgentKnowledge.list({ path, urlParams: {} })).total).toBe(1)
        const refused = yield* viewer.aiAgentKnowledge.create({
          path,
          payload: document({ kind: "text", title: "V", content: "v" }),
          ...noHeaders
        }).pipe(Effect.flip)
        expect(refused).toMatchObject({ _tag: "Forbidden", capability: "ai-agent.write" })
        const editor = yield* clientOf(yield* join(owner, "editor"), owner.workspaceId)
        yield* editor.aiAgentKnowledge.create({
          path,
          payload: document({ kind: "text", title: "E", content: "e" }),
          ...noHeaders
        })
        const stranger = yield* signUp()
        const theirs = yield* clientOf(stranger)
        const theirAgent = yield* agentRow(stranger.workspaceId)
        const notFound = yield* theirs.aiAgentKnowledge.get({ path: { ...path, knowledge_id: mine.id } }).pipe(
          Effect.flip
        )
        expect(notFound._tag).toBe("AiAgentNotFound")
        const crossed = yield* theirs.aiAgentKnowledge.updateById({
          path: { slug: theirAgent.slug },
          payload: { id: mine.id, title: "stolen" },
          ...noHeaders
        }).pipe(Effect.flip)
        expect(crossed._tag).toBe("AiAgentKnowledgeNotFound")
        const deleted = yield* theirs.aiAgentKnowledge.deleteById({
          path: { slug: theirAgent.slug },
          urlParams: { id: mine.id },
          ...noHeaders
        }).pipe(Effect.flip)
        expect(deleted._tag).toBe("AiAgentKnowledgeNotFound")
        expect(yield* (yield* clientOf(owner)).aiAgentKnowledge.get({ path: { ...path, knowledge_id: mine.id } }))
          .toMatchObject({ title: "Mine" })
      }))
  }
)
