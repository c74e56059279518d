/**
 * A Scripted Assistant's whole life on the zero-install default (embedded
 * PGlite, one node), as a new user meets it after `npm start`: an Assistant
 * exported as a Parley document and imported back as a new one, a Rasa bot
 * and a draw.io diagram imported, the flow analysed, the copy deployed, a
 * visitor's conversation through the public runtime with its embed token,
 * and the analytics of it (the address verified by the link the development
 * mailer logs). Every statement of imports, deployments and the
 * public runtime runs here on PGlite, which the other tests (on PostgreSQL
 * 15) do not cover.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Fs from "node:fs"
import { echoAssistant, signUpAt } from "../../support/Conversations.js"
import { corpus, corpusFiles } from "../../support/Fixtures.js"
import { startParley, withEmbeddedParley } from "../../support/ParleyProcess.js"

const SHOP = "https://shop.example.com"

/** A JSON request to the node; its status and body. */
const request = async (
  url: string,
  init: { method?: string; token?: string; body?: unknown; origin?: string; key?: string } = {}
) => {
  const headers: Record<string, string> = {}
  if (init.body !== undefined) headers["content-type"] = "application/json"
  if (init.token !== undefined) headers["authorization"] = `Bearer ${init.token}`
  if (init.origin !== undefined) headers["origin"] = init.origin
  if (init.key !== undefined) headers["idempotency-key"] = init.key
  const response = await fetch(url, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) })
  })
  const text = await response.text()
  return { status: response.status, json: text === "" ? null : JSON.parse(text) }
}

describe("Assistants on the embedded default", () => {
  it(
    "import, analyse, deploy, converse in public and read the analytics, all on PGlite",
    () =>
      withEmbeddedParley(startParley, 90_000, async ({ base, node }) => {
        const token = await signUpAt(base)
        // Deploying needs a verified address: follow the link the development mailer logged, as a user would.
        const verifyLink = /\/verify-email\?token=([^"\s\\]+)/
        const deadline = Date.now() + 15_000
        while (!verifyLink.test(node.output()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
        const link = verifyLink.exec(node.output())
        expect(link).not.toBeNull()
        const verified = await request(`${base}/v1/auth/verify-email`, {
          body: { token: decodeURIComponent(link![1]!) }
        })
        expect(verified.status).toBe(204)

        // Export an Assistant as a Parley document and import it back as a new one.
        const original = await echoAssistant(base, token)
        const exported = await request(`${base}/v1/agents/${original}/flow/export?format=parley`, { token })
        expect(exported.status).toBe(200)
        const imported = await request(`${base}/v1/imports/source`, {
          token,
          body: { format: "parley", content: exported.json.content, target: { kind: "new", name: "Echo copy" } }
        })
        expect(imported.status).toBe(201)
        expect(imported.json.status).toBe("succeeded")
        const agentId = imported.json.agentId as string

        // A Rasa project and a compressed draw.io diagram import too, with their reports.
        const rasa = await request(`${base}/v1/imports/source`, {
          token,
          body: { format: "rasa", files: corpusFiles("sources/rasa/moodbot"), target: { kind: "new", name: "Moodbot" } }
        })
        expect(rasa.status).toBe(201)
        const drawio = await request(`${base}/v1/imports/drawio`, {
          token,
          body: {
            xml: Fs.readFileSync(corpus("drawio/templates__basic__flowchart.xml"), "utf8"),
            target: { kind: "new", name: "Diagram" }
          }
        })
        expect(drawio.status).toBe(201)
        const history = await request(`${base}/v1/imports`, { token })
        expect(history.json.items).toHaveLength(3)

        // The copy analyses clean, deploys, and a visitor talks to it from an allowed page.
        const analysis = await request(`${base}/v1/agents/${agentId}/flow/analysis`, { token })
        expect(analysis.status).toBe(200)
        expect(analysis.json.deployable).toBe(true)
        const deployment = await request(`${base}/v1/deployments`, {
          token,
          body: { agentId, allowedOrigins: [SHOP] }
        })
        expect(deployment.status).toBe(201)
        const embedToken = deployment.json.embedToken as string
        expect(embedToken.startsWith("cdp_")).toBe(true)

        const started = await request(`${base}/v1/public/runtime/sessions`, {
          token: embedToken,
          origin: SHOP,
          body: {}
        })
        expect(started.status).toBe(201)
        const sessionId = started.json.sessionId as string
        const turn = (key: string, text: string) =>
          request(`${base}/v1/public/runtime/sessions/${sessionId}/turns`, {
            token: embedToken,
            origin: SHOP,
            key,
            body: { text }
          })
        const first = await turn("visitor-1", "hello there")
        expect(first.status).toBe(200)
        expect(JSON.stringify(first.json.messages)).toContain("You said: hello there")
        // The same key again is the same turn, not a second one.
        expect((await turn("visitor-1", "hello there")).json.turn).toBe(first.json.turn)
        expect((await turn("visitor-2", "and again")).json.turn).toBe(first.json.turn + 1)
        expect((await request(`${base}/v1/public/runtime/sessions`, { token: embedToken, body: {} })).status).toBe(403)

        const analytics = await request(`${base}/v1/agents/${agentId}/analytics?days=7`, { token })
        expect(analytics.status).toBe(200)
        expect(analytics.json).toMatchObject({ sessions: 1, turns: 2 })

        // Revoking stops the token at once.
        expect(
          (await request(`${base}/v1/deployments/${deployment.json.deployment.id}/revoke`, { token, body: {} })).status
        )
          .toBe(200)
        expect((await turn("visitor-3", "still there?")).status).toBe(401)
      }),
    240_000
  )
})
