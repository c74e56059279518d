/**
 * PDF files and index languages of an AI agent's knowledge over HTTP. On a
 * node against the real PostgreSQL: a `pdf` document uploaded as base64 is
 * extracted on the server (headings, paragraphs, a hyphenated word joined),
 * its text shown by the detail, cited by `knowledge_search` in a playground
 * turn, and extracted again from a new `file` (a detail read while files
 * replace each other shows one file's status and text, never a mix); files that cannot be read
 * (garbage, truncated, password-protected, no text layer, a decompression
 * bomb) end `failed` with their reason while the node goes on serving; misplaced or oversized files
 * are 400s. A German document is found by an inflected German query only once
 * its `language` is `german`. Then the same through the bundle
 * (`.build/main.js`) on the embedded database (PGlite): pdf.js outside the
 * bundle, read in its thread (`pdfWorker.mjs` copied beside the bundle), and
 * the German configuration there.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { MAX_KNOWLEDGE_PDF_BYTES } from "../../../src/domain/aiAgents/Knowledge.js"
import { AiAgentToolCreate } from "../../../src/domain/aiAgents/Tool.js"
import { signUp, type TestAccount } from "../../support/Accounts.js"
import { signUpAt } from "../../support/Conversations.js"
import { exchange, HttpClientRequest, postRaw } from "../../support/Http.js"
import { clientOf } from "../../support/Members.js"
import { startParley, withEmbeddedParley } from "../../support/ParleyProcess.js"
import { handbookPdf, paragraphLines, pdfDocument, repeatedDeflate } from "../../support/PdfWriter.js"
import { testServer } from "../../support/TestServer.js"
import { agentRow } from "./AgentRows.js"
import { knowledgeDocuments } from "./KnowledgeDocuments.js"

const noHeaders = { headers: {} } as const
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64")

const handbookText = [
  "# Refund policy",
  "We refund every order within thirty days of delivery to the card that paid.",
  "## Card payments",
  "A credit card refund arrives within five business days; the zebra code is ZX-41.",
  "Bank transfers take longer.",
  "Clause 7: the ocelot liability ends after one year."
].join("\n\n")

const german = "Die Häuser der Altstadt wurden nach dem großen Brand aus Stein gebaut."

/** A signed-up owner's agent, its typed client, and the knowledge calls the tests make. */
const knowledgeOf = (owner: TestAccount) =>
  Effect.gen(function*() {
    const client = yield* clientOf(owner)
    const agent = yield* agentRow(owner.workspaceId)
    const { create, path, settled } = knowledgeDocuments(client, agent.slug)
    yield* client.aiAgentTools.create({
      path,
      payload: Schema.decodeUnknownSync(AiAgentToolCreate)({
        name: "knowledge_search",
        config: { kind: "builtin", builtin: "knowledge_search" }
      }),
      ...noHeaders
    })
    let turns = 0
    /** The citations `knowledge_search` returns for the query, in a playground turn of the offline model. */
    const search = (query: string) =>
      exchange(
        postRaw(
          `/v1/ai-agents/${agent.slug}/playground`,
          JSON.stringify({ message: `/call knowledge_search ${JSON.stringify({ query, limit: 3 })}` })
        ).pipe(
          HttpClientRequest.bearerToken(owner.token),
          HttpClientRequest.setHeader("idempotency-key", `search-${++turns}`)
        )
      ).pipe(Effect.map((answer) => {
        expect(answer.status).toBe(200)
        const call = answer.json.toolCalls[0]
        expect(call).toMatchObject({ name: "knowledge_search", status: "succeeded" })
        return call.result.results as Array<{ documentId: string; heading: string; start: number; end: number }>
      }))
    const raw = (method: "POST" | "PATCH", url: string, body: unknown) =>
      exchange(
        (method === "POST" ? HttpClientRequest.post(url) : HttpClientRequest.patch(url)).pipe(
          HttpClientRequest.bodyText(JSON.stringify(body), "application/json"),
          HttpClientRequest.bearerToken(owner.token)
        )
      )
    return { client, agent, path, create, settled, search, raw }
  })

layer(testServer(), { excludeTestServices: true, timeout: 120_000 })(
  "AI agent knowledge: PDF files and languages",
  (it) => {
    it.effect("a PDF's text is extracted on the server, cited by knowledge_search, and extracted again from a new file", () =>
      Effect.gen(function*() {
        const { client, create, path, search, settled } = yield* knowledgeOf(yield* signUp())
        const pdf = yield* create({ kind: "pdf", title: "Terms (PDF)", file: base64(handbookPdf()) })
        expect(pdf).toMatchObject({ kind: "pdf", status: "pending", language: "english", url: null })
        expect(pdf).not.toHaveProperty("file")
        const ready = yield* settled(pdf.id)
        expect(ready).toMatchObject({ status: "ready", error: null, content: handbookText })
        expect(ready.characterCount).toBe(handbookText.length)
        // Two sections: the title's paragraph, then "Card payments" with the rest (the second page included).
        expect(ready.chunkCount).toBe(2)

        const [top] = yield* search("zebra code")
        expect(top).toMatchObject({ documentId: pdf.id, heading: "Refund policy › Card payments" })
        expect(handbookText.slice(top!.start, top!.end)).toContain("ZX-41")
        expect((yield* search("delivery"))[0]).toMatchObject({ documentId: pdf.id, heading: "Refund policy" })

        // A new file: pending again, then the new text alone is searchable.
        const replaced = yield* client.aiAgentKnowledge.update({
          path: { ...path, knowledge_id: pdf.id },
          payload: { file: pdfDocument([paragraphLines(["The narwhal clause replaces every other term."], 780)]) },
          ...noHeaders
        })
        expect(replaced.status).toBe("pending")
        expect(yield* settled(pdf.id)).toMatchObject({
          status: "ready",
          content: "The narwhal clause replaces every other term.",
          chunkCount: 1
        })
        expect((yield* search("narwhal clause"))[0]!.documentId).toBe(pdf.id)
        expect(yield* search("zebra code")).toEqual([])
        // A re-index extracts the stored file again.
        yield* client.aiAgentKnowledge.update({
          path: { ...path, knowledge_id: pdf.id },
          payload: { reindex: true },
          ...noHeaders
        })
        expect(yield* settled(pdf.id)).toMatchObject({ status: "ready", chunkCount: 1 })
      }))

    it.effect("a read never pairs the status of one file with the text of another", () =>
      Effect.gen(function*() {
        // A read of the detail while an indexer stores a new file's text: the status, counts and
        // text must be of one moment. (It once read the text, then the row: the old text came with
        // the new file's `ready`.) Several clients read as fast as they can while files replace each other.
        const { client, create, path } = yield* knowledgeOf(yield* signUp())
        const textOf = (round: number) => `Round ${round}: the tapir clause number ${round} replaces the others.`
        const pdf = yield* create({
          kind: "pdf",
          title: "Rounds",
          file: base64(pdfDocument([paragraphLines([textOf(0)], 780)]))
        })
        const get = client.aiAgentKnowledge.get({ path: { ...path, knowledge_id: pdf.id } })
        const seen = { reads: 0, readyReads: 0 }
        for (let round = 1; round <= 12; round++) {
          yield* client.aiAgentKnowledge.update({
            path: { ...path, knowledge_id: pdf.id },
            payload: { file: pdfDocument([paragraphLines([textOf(round)], 780)]) },
            ...noHeaders
          })
          const readUntilReady = Effect.gen(function*() {
            for (let attempt = 0; attempt < 2_000; attempt++) {
              const found = yield* get
              seen.reads++
              if (found.status === "ready") {
                seen.readyReads++
                // Only this round's file can be ready: an older generation never stores its text.
                expect({ round, content: found.content, characterCount: found.characterCount }).toEqual({
                  round,
                  content: textOf(round),
                  characterCount: textOf(round).length
                })
                return
              }
              expect(found.status === "pending" || found.status === "indexing").toBe(true)
            }
            return yield* Effect.die(`round ${round} was never indexed`)
          })
          yield* Effect.all(Array.from({ length: 6 }, () => readUntilReady), { concurrency: "unbounded" })
        }
        expect(seen.readyReads).toBe(12 * 6)
        expect(seen.reads).toBeGreaterThan(seen.readyReads)
      }))

    it.effect("a file that cannot be read fails with its reason; the node goes on serving", () =>
      Effect.gen(function*() {
        const { client, create, path, settled } = yield* knowledgeOf(yield* signUp())
        const whole = handbookPdf()
        const files = {
          garbage: Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 251),
          truncated: whole.slice(0, Math.floor(whole.length / 2)),
          locked: pdfDocument([paragraphLines(["Secret terms."], 780)], { userPassword: "secret" }),
          scanned: pdfDocument([[{ rectangle: [72, 400, 300, 300] }]]),
          // 1 GiB of zeros in 1 MiB.
          bomb: pdfDocument([{ deflated: repeatedDeflate("\0", 1024 * 1024 * 1024) }])
        }
        const created = yield* Effect.forEach(
          Object.entries(files),
          ([title, bytes]) => create({ kind: "pdf", title, file: base64(bytes) })
        )
        const failed = yield* Effect.forEach(created, (doc) => settled(doc.id))
        expect(failed.map((doc) => [doc.title, doc.status, doc.error, doc.chunkCount, doc.content])).toEqual([
          ["garbage", "failed", "The file is not a PDF (it has no %PDF- header)", 0, null],
          ["truncated", "failed", "The PDF is corrupt or truncated: Invalid PDF structure.", 0, null],
          [
            "locked",
            "failed",
            "The PDF is protected by a password: upload a copy without password protection",
            0,
            null
          ],
          [
            "scanned",
            "failed",
            "The PDF has no text layer (a scanned PDF without text?): OCR is not supported",
            0,
            null
          ],
          ["bomb", "failed", "The PDF expands to more than 256 MiB when decompressed", 0, null]
        ])
        expect((yield* client.aiAgentKnowledge.list({ path, urlParams: { status: "failed" } })).total).toBe(5)
        const health = yield* exchange(HttpClientRequest.get("/health/ready"))
        expect(health.status).toBe(200)
      }))

    it.effect("a file only for pdf documents, within 7 MiB; content, url and file never mixed (400s)", () =>
      Effect.gen(function*() {
        const owner = yield* signUp()
        const { agent, client, create, path, raw } = yield* knowledgeOf(owner)
        const url = `/v1/ai-agents/${agent.slug}/knowledge`
        const file = base64(handbookPdf())
        const refusals = yield* Effect.forEach([
          { kind: "text", title: "t", content: "text", file },
          { kind: "pdf", title: "t", content: "text", file },
          { kind: "pdf", title: "t" },
          { kind: "pdf", title: "t", file: "" },
          { kind: "pdf", title: "t", file: "not base64!" },
          { kind: "pdf", title: "t", file: base64(new Uint8Array(MAX_KNOWLEDGE_PDF_BYTES + 1)) }
        ], (body) => raw("POST", url, body))
        for (const refused of refusals) expect(refused.status).toBe(400)
        expect(refusals[5]!.text).toContain("the file is larger than 7340032 bytes (7 MiB)")
        // At the limit, a file is taken (and, being no PDF, fails when indexed).
        const largest = yield* raw("POST", url, {
          kind: "pdf",
          title: "Largest",
          file: base64(new Uint8Array(MAX_KNOWLEDGE_PDF_BYTES))
        })
        expect(largest.status).toBe(201)

        const pdf = yield* create({ kind: "pdf", title: "Terms", file })
        const text = yield* create({ kind: "text", title: "Notes", content: "notes" })
        const noContent = yield* client.aiAgentKnowledge.update({
          path: { ...path, knowledge_id: pdf.id },
          payload: { content: "x" },
          ...noHeaders
        }).pipe(Effect.flip)
        expect(noContent).toMatchObject({ _tag: "AiAgentKnowledgeKindMismatch", field: "content", kind: "pdf" })
        const noFile = yield* client.aiAgentKnowledge.updateById({
          path,
          payload: { id: text.id, file: handbookPdf() },
          ...noHeaders
        }).pipe(Effect.flip)
        expect(noFile).toMatchObject({ _tag: "AiAgentKnowledgeKindMismatch", field: "file", kind: "text" })
      }))

    it.effect("language: a German document is found by an inflected German query once it is indexed in german", () =>
      Effect.gen(function*() {
        const { agent, client, create, path, raw, search, settled } = yield* knowledgeOf(yield* signUp())
        const doc = yield* create({ kind: "text", title: "Stadtgeschichte", content: german })
        expect(doc.language).toBe("english")
        yield* settled(doc.id)
        // "Haus" is the stem of "Häuser" in German; in English the two words share nothing.
        expect(yield* search("Haus")).toEqual([])
        const changed = yield* client.aiAgentKnowledge.update({
          path: { ...path, knowledge_id: doc.id },
          payload: { language: "german" },
          ...noHeaders
        })
        expect(changed).toMatchObject({ language: "german", status: "pending" })
        expect(yield* settled(doc.id)).toMatchObject({ status: "ready", language: "german" })
        expect((yield* search("Haus"))[0]!.documentId).toBe(doc.id)
        // The same language again changes nothing and indexes nothing.
        const same = yield* client.aiAgentKnowledge.update({
          path: { ...path, knowledge_id: doc.id },
          payload: { language: "german" },
          ...noHeaders
        })
        expect(same.status).toBe("ready")
        const created = yield* create({ kind: "markdown", title: "Notas", content: "# Casas", language: "spanish" })
        const list = yield* client.aiAgentKnowledge.list({ path, urlParams: {} })
        expect(list.items.map((item) => [item.id, item.language])).toEqual([[created.id, "spanish"], [
          doc.id,
          "german"
        ]])

        const url = `/v1/ai-agents/${agent.slug}/knowledge`
        const unknown = yield* raw("POST", url, { kind: "text", title: "t", content: "x", language: "klingon" })
        expect(unknown.status).toBe(400)
        expect(unknown.json.issues).toContainEqual(expect.objectContaining({
          path: ["language"],
          message: expect.stringContaining("one of arabic, armenian, basque")
        }))
        const patched = yield* raw("PATCH", `${url}/${doc.id}`, { language: "pg_catalog.german" })
        expect(patched.status).toBe(400)
        expect(patched.text).toContain("german, greek")
      }))

    it.effect(
      "the bundle on the embedded database extracts a PDF and indexes German",
      () =>
        Effect.promise(() =>
          withEmbeddedParley(startParley, 60_000, async ({ base }) => {
            const token = await signUpAt(base)
            const call = async (method: string, path: string, body?: unknown) => {
              const response = await fetch(`${base}${path}`, {
                method,
                headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
                ...(body === undefined ? {} : { body: JSON.stringify(body) }),
                signal: AbortSignal.timeout(30_000)
              })
              return { status: response.status, json: await response.json() as any }
            }
            const slug = `pdf-${process.pid}`
            expect((await call("POST", "/v1/ai-agents", { slug, name: "Docs", instructions: "Answer." })).status).toBe(
              201
            )
            const pdf = await call("POST", `/v1/ai-agents/${slug}/knowledge`, {
              kind: "pdf",
              title: "Terms",
              file: base64(handbookPdf())
            })
            const text = await call("POST", `/v1/ai-agents/${slug}/knowledge`, {
              kind: "text",
              title: "Stadt",
              content: german,
              language: "german"
            })
            expect([pdf.status, text.status]).toEqual([201, 201])
            const settled = async (id: string) => {
              for (let attempt = 0; attempt < 400; attempt++) {
                const found = await call("GET", `/v1/ai-agents/${slug}/knowledge/${id}`)
                if (found.json.status === "ready" || found.json.status === "failed") {
                  return found.json
                }
                await new Promise((resolve) => setTimeout(resolve, 50))
              }
              throw new Error(`document ${id} was never indexed`)
            }
            expect(await settled(pdf.json.id)).toMatchObject({ status: "ready", content: handbookText, chunkCount: 2 })
            expect(await settled(text.json.id)).toMatchObject({ status: "ready", language: "german" })
            await call("POST", `/v1/ai-agents/${slug}/tools`, {
              name: "knowledge_search",
              config: { kind: "builtin", builtin: "knowledge_search" }
            })
            const search = async (query: string, key: string) => {
              const response = await fetch(`${base}/v1/ai-agents/${slug}/playground`, {
                method: "POST",
                headers: {
                  authorization: `Bearer ${token}`,
                  "content-type": "application/json",
                  "idempotency-key": key
                },
                body: JSON.stringify({ message: `/call knowledge_search ${JSON.stringify({ query })}` }),
                signal: AbortSignal.timeout(30_000)
              })
              const answer = await response.json() as any
              return answer.toolCalls[0].result.results as Array<{ documentId: string }>
            }
            expect((await search("zebra code", "k-1"))[0]!.documentId).toBe(pdf.json.id)
            expect((await search("Haus", "k-2"))[0]!.documentId).toBe(text.json.id)
          })
        ),
      { timeout: 180_000 }
    )
  }
)
