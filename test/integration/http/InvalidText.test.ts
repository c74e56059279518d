/**
 * Text Parley cannot store (a NUL character, a lone surrogate, bytes that are
 * not UTF-8) is a typed 400 naming the field, wherever it is sent: a body value
 * or key, a form field, a multipart field, a query parameter, a path
 * parameter; on public, authenticated and embed-token routes alike, and on
 * every route of the contract. Nothing of such a request is stored. JSON nested
 * deeper than the bound is a fast 400 before authentication. Well-formed
 * astral characters (emoji) pass and round-trip, and an import of emoji
 * labels is cut on character boundaries.
 */
import { HttpClientRequest, HttpServer } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { strToU8, zipSync } from "fflate"
import * as Net from "node:net"
import { MAX_JSON_DEPTH } from "../../../src/domain/JsonDepth.js"
import { as, post, signUp, type TestAccount } from "../../support/Accounts.js"
import { echoFlow } from "../../support/Conversations.js"
import { assistantWith, deployed, readPublic, replaceFlow, startPublic, turnPublic } from "../../support/Deployments.js"
import { exchange, postRaw } from "../../support/Http.js"
import { stringsIn } from "../../support/JsonStrings.js"
import { testServer } from "../../support/TestServer.js"

const NUL = "\u0000"
const HIGH = "\ud800"
const LOW = "\udc00"
const flaws = [
  { text: `a${NUL}b`, reason: "nul-character" },
  { text: `a${HIGH}b`, reason: "lone-surrogate" },
  { text: `a${LOW}b`, reason: "lone-surrogate" }
] as const

/** A string holding no lone surrogate: each surrogate is half of a pair. */
const wellFormed = (text: string) =>
  !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text) && !text.includes(NUL)

const expectInvalid = (res: { status: number; json: any; text: string }, field: string, reason: string) => {
  expect(res.status, res.text).toBe(400)
  expect(res.json).toMatchObject({ _tag: "InvalidText", field, reason })
  expect(res.json.message).toContain("cannot store")
}

const getAs = (account: TestAccount, url: string) => exchange(as(HttpClientRequest.get(url), account))

const jsonRequest = (method: string, url: string, body: unknown) =>
  HttpClientRequest.make(method as "POST")(url).pipe(HttpClientRequest.bodyUnsafeJson(body))

/** Bytes sent as they are over a socket to the test server; the status line of the answer. */
const sendRaw = (bytes: Uint8Array) =>
  Effect.flatMap(HttpServer.HttpServer, (server) =>
    Effect.async<string>((resume) => {
      const { port } = server.address as HttpServer.TcpAddress
      let answer = ""
      const socket = Net.connect(port, "127.0.0.1", () => socket.write(bytes))
      socket.on("data", (chunk) => (answer += chunk.toString("latin1")))
      socket.on("close", () => resume(Effect.succeed(answer)))
      socket.on("error", () => resume(Effect.succeed(answer)))
    }))

const cell = (id: string, value: string, style: string, y: number) =>
  `<mxCell id="${id}" value="${value}" style="${style}" vertex="1" parent="1"><mxGeometry x="0" y="${y}" width="80" height="40" as="geometry"/></mxCell>`
const edge = (id: string, source: string, target: string, value = "") =>
  `<mxCell id="${id}" value="${value}" edge="1" parent="1" source="${source}" target="${target}"><mxGeometry relative="1" as="geometry"/></mxCell>`

layer(testServer(), { excludeTestServices: true, timeout: 180_000 })("text Parley cannot store", (it) => {
  it.effect("in a body value: a typed 400 naming the field, on public, authenticated and unauthenticated calls", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      for (const { reason, text } of flaws) {
        expectInvalid(
          yield* post("/v1/auth/signup", { email: `x${text}@example.com`, password: "correct horse battery" }),
          "body.email",
          reason
        )
        expectInvalid(yield* post("/v1/agents", { name: text }, owner), "body.name", reason)
        // Before authentication: the caller is not known yet.
        expectInvalid(yield* post("/v1/agents", { name: text }), "body.name", reason)
        // A key, nested.
        expectInvalid(
          yield* post("/v1/agents", { name: "Fine", extra: { [`k${text}`]: 1 } }, owner),
          `body.extra[${JSON.stringify(`k${text}`)}]`,
          reason
        )
      }
      expect((yield* getAs(owner, "/v1/agents")).json.total).toBe(0)
    }))

  it.effect("a flow PUT with a bad string deep in a node leaves the stored flow and its revision unchanged", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const agentId = yield* assistantWith(owner, echoFlow)
      const before = yield* getAs(owner, `/v1/agents/${agentId}/flow`)
      for (const { reason, text } of flaws) {
        const nodes = echoFlow.nodes.map((node) => node.id === "echo" ? { ...node, data: { text } } : node)
        const refused = yield* replaceFlow(owner, agentId, { ...echoFlow, nodes })
        expectInvalid(refused, "body.nodes[3].data.text", reason)
      }
      const after = yield* getAs(owner, `/v1/agents/${agentId}/flow`)
      expect(after.json).toEqual(before.json)
    }))

  it.effect("in a query parameter, its name, or a path parameter; percent-escapes that are not UTF-8", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      expectInvalid(yield* getAs(owner, "/v1/imports?format=%00"), "query.format", "nul-character")
      expectInvalid(yield* getAs(owner, "/v1/imports?limit=5&q=a%00b"), "query.q", "nul-character")
      // U+D800 as UTF-8 would be ED A0 80: not UTF-8, so no lone surrogate can arrive escaped.
      expectInvalid(yield* getAs(owner, "/v1/imports?format=%ED%A0%80"), "query.format", "invalid-utf-8")
      expectInvalid(yield* getAs(owner, "/v1/imports?format=%FF"), "query.format", "invalid-utf-8")
      expectInvalid(yield* getAs(owner, "/v1/imports?a%00b=1"), `query["a%00b"]`, "nul-character")
      expectInvalid(yield* getAs(owner, "/v1/agents/%00"), "path.agent_id", "nul-character")
      expectInvalid(yield* getAs(owner, "/v1/agents/x%ED%A0%80/flow"), "path.agent_id", "invalid-utf-8")
      expectInvalid(yield* exchange(HttpClientRequest.get("/v1/agents/%00")), "path.agent_id", "nul-character")
      // A path that is no route is still refused for what it holds.
      expectInvalid(yield* getAs(owner, "/v1/nowhere/%00"), "path", "nul-character")
      // Escapes of well-formed text, and a stray `%`, pass as before.
      expect((yield* getAs(owner, "/v1/imports?format=%F0%9F%98%80")).json._tag).toBe("HttpApiDecodeError")
      expect((yield* getAs(owner, "/v1/imports?format=100%")).json._tag).toBe("HttpApiDecodeError")
      expect((yield* getAs(owner, "/v1/agents?limit=5")).status).toBe(200)
    }))

  it.effect("in a header: NUL never reaches Parley (Node refuses it), other bytes are stored as Latin-1 text", () =>
    Effect.gen(function*() {
      const signup = (userAgent: Uint8Array) => {
        const body = strToU8(
          JSON.stringify({
            email: `raw-${Date.now()}-${Math.random()}@example.com`,
            password: "correct horse battery staple"
          })
        )
        return sendRaw(Buffer.concat([
          strToU8(
            `POST /v1/auth/signup HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\nUser-Agent: `
          ),
          userAgent,
          strToU8("\r\n\r\n"),
          body
        ]))
      }
      expect(yield* signup(Uint8Array.from([0x61, 0x00, 0x62]))).toMatch(/^HTTP\/1\.1 400 /)
      // ED A0 80 is U+D800 in CESU-8: Node reads header bytes as Latin-1, which is storable.
      expect(yield* signup(Uint8Array.from([0xed, 0xa0, 0x80, 0xf0, 0x9f, 0x98, 0x80]))).toMatch(/^HTTP\/1\.1 201 /)
    }))

  it.effect("bytes that are not UTF-8 in a JSON body, and a form field, are refused", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const bytes = Buffer.concat([strToU8(`{"name":"a`), Uint8Array.from([0xed, 0xa0, 0x80]), strToU8(`"}`)])
      const res = yield* exchange(as(
        HttpClientRequest.post("/v1/agents").pipe(HttpClientRequest.bodyUint8Array(bytes, "application/json")),
        owner
      ))
      expectInvalid(res, "body", "invalid-utf-8")
      // A provider's form post (refused before its route is even looked up).
      const form = (body: string) =>
        exchange(
          postRaw(
            "/v1/public/channels/twilio/0190c7a0-0000-7000-8000-000000000000",
            body,
            "application/x-www-form-urlencoded"
          )
        )
      expectInvalid(yield* form("From=%2B1555&Body=hi%00"), "body.Body", "nul-character")
      expectInvalid(yield* form("Body=%C3"), "body.Body", "invalid-utf-8")
      expect((yield* getAs(owner, "/v1/agents")).json.total).toBe(0)
    }))

  it.effect("a public turn with an embed token: a 400 at once, nothing added to the session, which goes on", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const { token } = yield* deployed(owner, yield* assistantWith(owner, echoFlow))
      const started = yield* startPublic({ token })
      expect(started.status, started.text).toBe(201)
      const sessionId = started.json.sessionId as string
      const before = yield* readPublic({ token }, sessionId)
      for (const { reason, text } of flaws) {
        const startedAt = Date.now()
        expectInvalid(
          yield* turnPublic({ token }, sessionId, { text }, `key-${reason}-${text.length}`),
          "body.text",
          reason
        )
        expect(Date.now() - startedAt).toBeLessThan(5_000)
      }
      expectInvalid(
        yield* turnPublic({ token }, `${sessionId}%00`, { text: "hi" }),
        "path.id",
        "nul-character"
      )
      expect((yield* readPublic({ token }, sessionId)).json).toEqual(before.json)
      const next = yield* turnPublic({ token }, sessionId, { text: "hello 😀" }, "key-fine")
      expect(next.status, next.text).toBe(200)
      expect(JSON.stringify(next.json)).toContain("You said: hello 😀")
    }))

  it.effect("a multipart import: a bad form field is refused; a NUL inside a zipped file is replaced, with a warning", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const domain = `version: "3.1"\nintents: [greet]\nresponses:\n  utter_greet:\n  - text: "Hi\\0 there"\n`
      const nlu = `version: "3.1"\nnlu:\n- intent: greet\n  examples: |\n    - hel${NUL}lo\n    - hey\n`
      const stories = `version: "3.1"\nstories:\n- story: hi\n  steps:\n  - intent: greet\n  - action: utter_greet\n`
      const zip = zipSync({
        "bot/domain.yml": strToU8(domain),
        "bot/data/nlu.yml": strToU8(nlu),
        "bot/data/stories.yml": strToU8(stories)
      })
      const upload = (fields: Record<string, string>) => {
        const form = new FormData()
        for (const [key, value] of Object.entries(fields)) form.append(key, value)
        form.append("archive", new Blob([zip], { type: "application/zip" }), "bot.zip")
        return exchange(
          as(HttpClientRequest.post("/v1/imports/source").pipe(HttpClientRequest.bodyFormData(form)), owner)
        )
      }
      for (const { reason, text } of flaws.slice(0, 1)) {
        expectInvalid(yield* upload({ format: "rasa", name: text }), "body.name", reason)
      }
      expect((yield* getAs(owner, "/v1/imports")).json.total).toBe(0)

      const imported = yield* upload({ format: "rasa", name: "Zipped" })
      expect(imported.status, imported.text).toBe(201)
      expect(imported.json.report.warnings).toContainEqual(expect.objectContaining({ code: "unstorable-text" }))
      const intents = yield* getAs(owner, `/v1/agents/${imported.json.agentId}/intents`)
      expect(intents.json.items[0].utterances).toContain("hel\uFFFDlo")
      const flow = yield* getAs(owner, `/v1/agents/${imported.json.agentId}/flow`)
      expect(JSON.stringify(flow.json)).toContain("Hi\uFFFD there")
    }))

  it.effect("JSON nested deeper than the bound is a fast 400, before authentication too; at the bound it decodes", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const bodies = {
        "arrays 10k": "[".repeat(10_000) + "]".repeat(10_000),
        "arrays 100k": "[".repeat(100_000) + "]".repeat(100_000),
        "objects 10k": `{"a":`.repeat(10_000) + "1" + "}".repeat(10_000),
        "objects 100k": `{"a":`.repeat(100_000) + "1" + "}".repeat(100_000),
        "1 MiB of unclosed objects": `{"a":`.repeat(Math.floor(1024 * 1024 / 5)),
        [`${MAX_JSON_DEPTH + 1} levels`]: `{"name":` + "[".repeat(MAX_JSON_DEPTH) + "]".repeat(MAX_JSON_DEPTH) + "}"
      }
      for (const [label, body] of Object.entries(bodies)) {
        for (const caller of [owner, {}]) {
          for (const url of ["/v1/agents", "/v1/auth/signup", "/v1/public/runtime/sessions"]) {
            const startedAt = Date.now()
            const res = yield* exchange(as(postRaw(url, body), caller))
            expect(res.status, `${label} ${url}: ${res.text}`).toBe(400)
            expect(res.json._tag).toBe("MalformedBody")
            expect(Date.now() - startedAt, label).toBeLessThan(5_000)
          }
        }
      }
      expect((yield* exchange(as(postRaw("/v1/agents", bodies["arrays 100k"]), owner))).json.message).toContain(
        `nested deeper than ${MAX_JSON_DEPTH} levels`
      )
      // Brackets inside strings are text, not nesting.
      expect((yield* post("/v1/agents", { name: "[".repeat(100) }, owner)).status).toBe(201)
      // At the bound, the schema's own answer: a typed 400, not a 500.
      const atBound = `{"name":` + "[".repeat(MAX_JSON_DEPTH - 1) + "]".repeat(MAX_JSON_DEPTH - 1) + "}"
      const decoded = yield* exchange(as(postRaw("/v1/agents", atBound), owner))
      expect(decoded.status).toBe(400)
      expect(decoded.json._tag).toBe("HttpApiDecodeError")
    }))

  it.effect("emoji and other astral characters pass and round-trip", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const name = "Café 😀 𝄞 中文 👩‍👩‍👧"
      const created = yield* post("/v1/agents", { name, description: "🎉".repeat(100) }, owner)
      expect(created.status, created.text).toBe(201)
      const read = yield* getAs(owner, `/v1/agents/${created.json.id}`)
      expect(read.json.name).toBe(name)
      expect(read.json.description).toBe("🎉".repeat(100))
      const graph = {
        ...echoFlow,
        nodes: echoFlow.nodes.map((node) => node.id === "hello" ? { ...node, data: { text: "Hi 🌍𝄞!" } } : node)
      }
      expect((yield* replaceFlow(owner, created.json.id, graph)).status).toBe(200)
      const flow = yield* getAs(owner, `/v1/agents/${created.json.id}/flow`)
      expect(flow.json.nodes.find((node: any) => node.id === "hello").data.text).toBe("Hi 🌍𝄞!")
      expect((yield* getAs(owner, `/v1/agents?limit=5&q=${encodeURIComponent("😀")}`)).status).toBe(200)
    }))

  it.effect("a draw.io diagram of long emoji labels imports, its texts cut between characters", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const emoji = "😀".repeat(300)
      const xml = `<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>${cell("s", "Start", "ellipse;", 0)}${
        cell("m", emoji, "rounded=1;", 100)
      }${cell("q", `${emoji}?`, "rhombus;", 200)}${cell("e", "End", "ellipse;", 300)}${edge("c1", "s", "m")}${
        edge("c2", "m", "q")
      }${edge("c3", "q", "e", emoji)}</root></mxGraphModel>`
      const res = yield* post("/v1/imports/drawio", { xml, target: { kind: "new", name: "Emoji" } }, owner)
      expect(res.status, res.text).toBe(201)
      const flow = yield* getAs(owner, `/v1/agents/${res.json.agentId}/flow`)
      const texts = [...stringsIn(res.json), ...stringsIn(flow.json)]
      expect(texts.filter((text) => !wellFormed(text))).toEqual([])
      const labels = flow.json.nodes.map((node: any) => node.label).filter((label: unknown) => label !== undefined)
      expect(labels.some((label: string) => label.startsWith("😀😀") && label.endsWith("…"))).toBe(true)
    }))

  it.effect("every route of the contract refuses a NUL in a query parameter, a body key and each path parameter", () =>
    Effect.gen(function*() {
      const owner = yield* signUp()
      const document = (yield* exchange(HttpClientRequest.get("/openapi.json"))).json
      const problems: Array<string> = []
      let probed = 0
      for (const [template, operations] of Object.entries<Record<string, unknown>>(document.paths)) {
        const parameters = [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!)
        const url = (bad?: string) =>
          template.replace(
            /\{([^}]+)\}/g,
            (_, name) => (name === bad ? "x%00" : "0190c7a0-0000-7000-8000-000000000000")
          )
        for (const method of Object.keys(operations).filter((m) => m !== "parameters")) {
          const verb = method.toUpperCase()
          const attempts: Array<[string, HttpClientRequest.HttpClientRequest, string]> = [
            ["query", HttpClientRequest.make(verb as "GET")(`${url()}?probe=a%00`), "query.probe"],
            ...parameters.map((name): [string, HttpClientRequest.HttpClientRequest, string] => [
              `path ${name}`,
              HttpClientRequest.make(verb as "GET")(url(name)),
              `path.${name}`
            ])
          ]
          if (["POST", "PUT", "PATCH"].includes(verb)) {
            attempts.push([
              "body key",
              jsonRequest(verb, url(), { [`k${HIGH}`]: 1 }),
              `body[${JSON.stringify(`k${HIGH}`)}]`
            ])
          }
          for (const [what, request, field] of attempts) {
            for (const caller of [owner, {}]) {
              const res = yield* exchange(as(request, caller))
              probed++
              if (res.status !== 400 || res.json?._tag !== "InvalidText" || res.json.field !== field) {
                problems.push(`${verb} ${template} (${what}): ${res.status} ${res.text.slice(0, 120)}`)
              }
            }
          }
        }
      }
      expect(problems).toEqual([])
      expect(probed).toBeGreaterThan(400)
    }))
})
