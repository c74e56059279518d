/**
 * The AI agent the agent and guardrail benchmarks load: an account (its
 * email verified in place), an agent without tools, and playground
 * conversations started on it.
 */
import { Effect } from "effect"
import { signUpAt } from "../../test/support/Conversations.js"
import { answer } from "../../test/support/FakeLlmServer.js"
import { makeFakeOpenAi } from "../../test/support/FakeOpenAi.js"
import { localCluster } from "../../test/support/LocalCluster.js"
import { connectedClient, emptyDatabase } from "../../test/support/TestDatabase.js"
import { benchNodeEnv } from "./Parley.js"

export const post = async (url: string, body: unknown, headers: Record<string, string>) => {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body)
  })
  const text = await response.text()
  if (response.status >= 300) throw new Error(`${url} answered ${response.status}: ${text}`)
  return JSON.parse(text)
}

/** An account (its email verified in place) with an agent without tools; `conversations` playground conversations. */
export const agentTarget = (
  url: string,
  databaseUrl: string,
  conversations: number,
  slug = "bench-agent"
) =>
  Effect.gen(function*() {
    const pg = yield* connectedClient(databaseUrl)
    const token = yield* Effect.promise(() => signUpAt(url))
    yield* Effect.promise(() => pg.query(`UPDATE users SET email_verified_at = now()`))
    const auth = { authorization: `Bearer ${token}` }
    yield* Effect.promise(() =>
      post(`${url}/v1/ai-agents`, { slug, name: "Bench", instructions: "Answer briefly." }, auth)
    )
    const ids = yield* Effect.forEach(
      Array.from({ length: conversations }, (_, i) => i),
      (i) =>
        Effect.promise(() =>
          post(`${url}/v1/ai-agents/${slug}/playground`, { message: `hello ${i}` }, {
            ...auth,
            "idempotency-key": `start-${i}`
          })
        ).pipe(Effect.map((result) => result.conversationId as string)),
      { concurrency: 5 }
    )
    return { url, token, slug, conversations: ids }
  })

export type AgentTarget = Effect.Effect.Success<ReturnType<typeof agentTarget>>

/**
 * One streamed playground turn of `agent`: the time from `fake` writing its
 * first token to this process reading the first `message.delta` (both
 * clocks are this process's).
 */
export const firstDeltaGap = async (
  fake: { readonly firstByteSentAt: ReadonlyArray<number> },
  agent: AgentTarget,
  key: string,
  message: string,
  conversationId: string
): Promise<number> => {
  const tokensBefore = fake.firstByteSentAt.length
  const response = await fetch(`${agent.url}/v1/ai-agents/${agent.slug}/playground?stream=true`, {
    method: "POST",
    headers: { authorization: `Bearer ${agent.token}`, "content-type": "application/json", "idempotency-key": key },
    body: JSON.stringify({ message, conversationId })
  })
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let text = ""
  let firstDelta: number | undefined
  while (true) {
    const chunk = await reader.read()
    if (chunk.done) break
    text += decoder.decode(chunk.value, { stream: true })
    if (firstDelta === undefined && text.includes("event: message.delta")) firstDelta = performance.now()
  }
  const firstToken = fake.firstByteSentAt[tokensBefore]
  if (firstDelta === undefined || firstToken === undefined) throw new Error(`${key}: no delta or no token`)
  return firstDelta - firstToken
}

/**
 * One node (a fresh database) whose model is a fake OpenAI server answering
 * `text` after `delayMs`, streamed word by word: the node's URL, its
 * database and the fake.
 */
export const fakeModelNode = (text: string, delayMs: number) =>
  Effect.gen(function*() {
    const fake = yield* makeFakeOpenAi
    fake.respond(() => answer({ text, delayMs }))
    const { url: databaseUrl } = yield* emptyDatabase
    const cluster = yield* localCluster({
      nodes: 1,
      databaseUrl,
      env: {
        ...benchNodeEnv(),
        PARLEY_LLM_PROVIDER: "openai-compatible",
        PARLEY_LLM_MODEL: "bench-model",
        PARLEY_LLM_BASE_URL: `${fake.origin}/v1`,
        PARLEY_LLM_API_KEY: "sk-bench",
        // The fake is on loopback, which outbound calls may not reach unless allowed.
        PARLEY_TOOL_ALLOWED_HOSTS: "127.0.0.1/32"
      }
    })
    return { url: cluster.nodes[0]!.url, databaseUrl, fake }
  })
