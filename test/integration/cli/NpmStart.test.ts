/**
 * The README's first command as a user runs it: `npm start` bundles Parley
 * with esbuild and serves it on the embedded database (the other tests that
 * start `parley` run the bundle the global setup made; this one goes through
 * `scripts/start.mjs` itself). A package that cannot be bundled (tiktoken,
 * under Anthropic's tokenizer, reads its WebAssembly next to its module and
 * broke `npm start` for a day) fails here.
 * Past readiness it signs up and makes the settings' test call through the
 * language-model stack (the offline default), which loads every provider.
 */
import { describe, expect, it } from "@effect/vitest"
import { signUpAt } from "../../support/Conversations.js"
import { startBundled, withEmbeddedParley } from "../../support/ParleyProcess.js"

describe("npm start", () => {
  it(
    "bundles, serves on the embedded database, and answers a model call",
    () =>
      withEmbeddedParley(startBundled, 150_000, async ({ base }) => {
        const token = await signUpAt(base)
        const me =
          (await (await fetch(`${base}/v1/auth/me`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
            memberships: Array<{ workspace: { id: string } }>
          }
        const headers = {
          authorization: `Bearer ${token}`,
          "x-workspace-id": me.memberships[0].workspace.id,
          "content-type": "application/json"
        }
        const test = await fetch(`${base}/v1/workspaces/agent-llm/test`, { method: "POST", headers, body: "{}" })
        expect(test.status).toBe(200)
        expect(await test.json()).toMatchObject({ ok: true, provider: "offline", source: "default" })
      }),
    240_000
  )
})
