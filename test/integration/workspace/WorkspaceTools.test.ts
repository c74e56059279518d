/**
 * Shared HTTP tools over HTTP against the real database and a loopback echo
 * server: CRUD and its typed errors, another workspace's ids, and the test
 * call: the secret reaches the server and is masked in what Parley returns;
 * refused (before any connection) without the allow-list; a redirect to a
 * private address, a time-out, an oversize answer, a redirect loop and
 * hostile input each answered by their typed error.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { WorkspaceToolId } from "../../../src/domain/workspace/Ids.js"
import { signUp } from "../../support/Accounts.js"
import { echoServer } from "../../support/EchoServer.js"
import { clientOf } from "../../support/Members.js"
import { testServer } from "../../support/TestServer.js"
import { freshValue, secretCreate } from "../../support/Vault.js"

let count = 0
const fresh = (label: string) => `${label}_${process.pid}_${++count}`

const tool = (url: string, more: Record<string, unknown> = {}) =>
  ({
    name: fresh("lookup"),
    description: "Looks an order up",
    inputSchema: {
      type: "object" as const,
      properties: { orderId: { type: "string", maxLength: 64, pattern: "^[A-Za-z0-9-]+$" }, note: { type: "string" } },
      required: ["orderId"]
    },
    method: "GET" as const,
    url,
    headers: {},
    query: {},
    body: null,
    timeoutSeconds: 10,
    maxResponseBytes: 1_048_576,
    allowedDomains: [],
    ...more
  }) as never

layer(testServer({ PARLEY_TOOL_ALLOWED_HOSTS: "127.0.0.1/32" }), { excludeTestServices: true })(
  "workspace tools",
  (it) => {
    it.effect("are created, read, listed, changed and deleted; names are unique; bad definitions are typed 400s", () =>
      Effect.gen(function*() {
        const owner = yield* signUp()
        const client = yield* clientOf(owner)
        const created = yield* client.workspaceTools.create({
          payload: tool("https://api.example.com/orders/{{input.orderId}}")
        })
        expect(created).toMatchObject({ method: "GET", timeoutSeconds: 10, maxResponseBytes: 1_048_576, headers: {} })
        expect(yield* client.workspaceTools.get({ path: { tool_id: created.id } })).toEqual(created)
        const page = yield* client.workspaceTools.list({ urlParams: { q: created.name.toUpperCase() } })
        expect(page.items.map((item) => item.id)).toEqual([created.id])
        const taken = yield* client.workspaceTools.create({
          payload: { ...(tool("https://x.example/") as object), name: created.name } as never
        }).pipe(Effect.flip)
        expect(taken._tag).toBe("WorkspaceToolNameTaken")
        const changed = yield* client.workspaceTools.update({
          path: { tool_id: created.id },
          payload: { timeoutSeconds: 5 }
        })
        expect(changed.timeoutSeconds).toBe(5)
        const withBody = yield* client.workspaceTools.update({
          path: { tool_id: created.id },
          payload: { body: { kind: "text", contentType: "text/plain", template: "x" } }
        }).pipe(Effect.flip)
        expect(withBody._tag).toBe("WorkspaceToolInvalid")
        const unknownInput = yield* client.workspaceTools.create({
          payload: tool("https://x.example/{{input.missing}}")
        }).pipe(Effect.flip)
        expect(unknownInput).toMatchObject({ _tag: "WorkspaceToolInvalid", problems: [{ field: "url" }] })
        const keyword = yield* client.workspaceTools.create({
          payload: { ...(tool("https://x.example/") as object), inputSchema: { type: "object", oneOf: [] } } as never
        }).pipe(Effect.flip)
        expect(keyword).toMatchObject({ _tag: "WorkspaceToolInvalid", problems: [{ field: "inputSchema.oneOf" }] })
        const missing = yield* client.workspaceTools.create({
          payload: tool("https://x.example/", {
            headers: { authorization: { secret: "NO_SUCH_SECRET_X", prefix: "Bearer " } }
          })
        }).pipe(Effect.flip)
        expect(missing._tag).toBe("SecretReferenceMissing")
        const stranger = yield* clientOf(yield* signUp())
        const foreign = yield* stranger.workspaceTools.get({ path: { tool_id: created.id } }).pipe(Effect.flip)
        expect(foreign._tag).toBe("WorkspaceToolNotFound")
        yield* client.workspaceTools.delete({ path: { tool_id: created.id }, urlParams: { force: false } })
        const gone = yield* client.workspaceTools.get({ path: { tool_id: created.id } }).pipe(Effect.flip)
        expect(gone._tag).toBe("WorkspaceToolNotFound")
      }))

    it.scoped("a test call: the secret reaches the server and is masked in the answer, also where it is echoed", () =>
      Effect.gen(function*() {
        const server = yield* echoServer
        const owner = yield* signUp()
        const client = yield* clientOf(owner)
        const secret = fresh("CRM_KEY").toUpperCase()
        const value = freshValue("crm")
        yield* client.secrets.create({ payload: secretCreate(secret, value) })
        const created = yield* client.workspaceTools.create({
          payload: tool(server.url("/echo?order={{input.orderId}}"), {
            headers: { authorization: { secret, prefix: "Bearer " } },
            query: { key: { secret } }
          })
        })
        const result = yield* client.workspaceTools.test({
          path: { tool_id: created.id },
          payload: { input: { orderId: "A-1" } }
        })
        expect(result).toMatchObject({ ok: true, response: { status: 200 }, request: { secretsUsed: [secret] } })
        expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${value}`)
        expect(server.requests.at(-1)?.url).toContain(encodeURIComponent(value))
        expect(JSON.stringify(result)).not.toContain(value)
        expect(result.request.headers["authorization"]).toBe("Bearer ••••")
        expect(result.response.headers["x-echo-authorization"]).toBe("Bearer ••••")
      }))

    it.scoped("failures: redirect to a private address, time-out, oversize, redirect loop, hostile input", () =>
      Effect.gen(function*() {
        const server = yield* echoServer
        const client = yield* clientOf(yield* signUp())
        const run = (
          path: string,
          input: Record<string, unknown> = { orderId: "A-1" },
          more: Record<string, unknown> = {}
        ) =>
          Effect.flatMap(
            client.workspaceTools.create({ payload: tool(server.url(path), more) }),
            (created) =>
              client.workspaceTools.test({
                path: { tool_id: created.id as WorkspaceToolId },
                payload: { input: input as never }
              })
          )
        const privateHop = yield* run(`/redirect?to=${encodeURIComponent("http://169.254.169.254/latest")}`).pipe(
          Effect.flip
        )
        expect(privateHop._tag).toBe("UpstreamFailed")
        const slow = yield* run("/slow?ms=3000", undefined, { timeoutSeconds: 1 }).pipe(Effect.flip)
        expect(slow._tag).toBe("Timeout")
        const big = yield* run("/big?bytes=300000", undefined, { maxResponseBytes: 1000 })
        expect(big).toMatchObject({ ok: false, error: { kind: "response-too-large" } })
        const loop = yield* run("/loop").pipe(Effect.flip)
        expect(loop).toMatchObject({ _tag: "UpstreamFailed" })
        const badInput = yield* run("/echo", { orderId: "A\u0000" }).pipe(Effect.flip)
        // the server refuses NUL and broken Unicode in any body before the tool sees it
        expect(["InvalidText", "ToolInputInvalid"]).toContain(badInput._tag)
        const surrogate = yield* run("/echo", { orderId: "A", note: "\uD800x" }).pipe(Effect.flip)
        expect(["InvalidText", "ToolInputInvalid"]).toContain(surrogate._tag)
        const huge = yield* run("/echo", { orderId: "x".repeat(100_000) }).pipe(Effect.flip)
        expect(huge._tag).toBe("ToolInputInvalid")
        const wrongType = yield* run("/echo", { orderId: 5 }).pipe(Effect.flip)
        expect(wrongType).toMatchObject({ _tag: "ToolInputInvalid", problems: [{ pointer: "/orderId" }] })
      }))

    it.effect("a tool naming a secret and the secret's delete, racing: never a tool left naming a deleted secret", () =>
      Effect.gen(function*() {
        const owner = yield* signUp()
        const client = yield* clientOf(owner)
        const outcomes = { toolFirst: 0, deleteFirst: 0 }
        for (let round = 0; round < 12; round++) {
          const secret = fresh("RACE").toUpperCase()
          const stored = yield* client.secrets.create({ payload: secretCreate(secret, freshValue("race")) })
          const [created, deleted] = yield* Effect.all([
            Effect.either(client.workspaceTools.create({
              payload: tool("https://api.example.com/", { headers: { authorization: { secret, prefix: "Bearer " } } })
            })),
            Effect.either(client.secrets.delete({ path: { secret_id: stored.id }, urlParams: { force: false } }))
          ], { concurrency: 2 })
          // Exactly one wins: the tool (and the delete is refused naming it) or the delete (and the tool is refused).
          if (created._tag === "Right") {
            expect(deleted).toMatchObject({ _tag: "Left", left: { _tag: "SecretInUse" } })
            outcomes.toolFirst++
          } else {
            expect(created.left._tag).toBe("SecretReferenceMissing")
            expect(deleted._tag).toBe("Right")
            outcomes.deleteFirst++
          }
        }
        expect(outcomes.toolFirst + outcomes.deleteFirst).toBe(12)
      }))
  }
)

layer(testServer(), { excludeTestServices: true })("workspace tools without the allow-list", (it) => {
  it.scoped("a loopback tool is refused before any connection is made", () =>
    Effect.gen(function*() {
      const server = yield* echoServer
      const client = yield* clientOf(yield* signUp())
      const created = yield* client.workspaceTools.create({ payload: tool(server.url("/echo")) })
      const refused = yield* client.workspaceTools.test({
        path: { tool_id: created.id },
        payload: { input: { orderId: "A" } }
      })
        .pipe(Effect.flip)
      expect(refused).toMatchObject({ _tag: "UpstreamFailed" })
      expect(server.connections()).toBe(0)
    }))
})
