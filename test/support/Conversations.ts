/**
 * A chat client over plain HTTP, as an application would write one, for the
 * tests and benchmarks that run Parley as separate processes: sign up, make
 * an Assistant that echoes, start sessions and send turns, retrying a turn
 * with the same idempotency key until some node answers it.
 */
import * as Crypto from "node:crypto"

/** What a node answered. */
export interface Answer {
  readonly status: number
  readonly json: any
}

const call = async (
  url: string,
  init: { readonly method?: string; readonly token?: string; readonly body?: unknown; readonly key?: string },
  timeoutMs = 30_000
): Promise<Answer> => {
  const headers: Record<string, string> = {}
  if (init.body !== undefined) headers["content-type"] = "application/json"
  if (init.token !== undefined) headers["authorization"] = `Bearer ${init.token}`
  if (init.key !== undefined) headers["idempotency-key"] = init.key
  const response = await fetch(url, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    signal: AbortSignal.timeout(timeoutMs)
  })
  const text = await response.text()
  return { status: response.status, json: text === "" ? null : JSON.parse(text) }
}

const expectStatus = (what: string, answer: Answer, status: number) => {
  if (answer.status !== status) throw new Error(`${what} answered ${answer.status}: ${JSON.stringify(answer.json)}`)
  return answer.json
}

/** Sign up a fresh account on a node; its access token (15 minutes). */
export const signUpAt = async (baseUrl: string): Promise<string> => {
  const email = `chat-${process.pid}-${Crypto.randomBytes(4).toString("hex")}@example.com`
  const body = expectStatus(
    "signup",
    await call(`${baseUrl}/v1/auth/signup`, { body: { email, password: "correct horse battery staple" } }),
    201
  )
  return body.accessToken as string
}

const at = (x: number) => ({ x, y: 0 })

/** A flow that greets, then echoes every message back and asks again, forever. */
export const echoFlow = {
  nodes: [
    { id: "start", type: "start", position: at(0), data: {} },
    { id: "hello", type: "message", position: at(200), data: { text: "Hi! Say anything." } },
    {
      id: "ask",
      type: "question",
      position: at(400),
      data: { prompt: "Go on.", variable: "said", validation: { kind: "text" } }
    },
    { id: "echo", type: "message", position: at(600), data: { text: "You said: {{said}}" } },
    { id: "again", type: "jump", position: at(800), data: { target: { kind: "node", nodeId: "ask" } } }
  ],
  edges: [
    { id: "e1", source: "start", target: "hello", kind: "next" },
    { id: "e2", source: "hello", target: "ask", kind: "next" },
    { id: "e3", source: "ask", target: "echo", kind: "answered" },
    { id: "e4", source: "echo", target: "again", kind: "next" }
  ]
}

/** Create an Assistant whose draft is `echoFlow`; its id. */
export const echoAssistant = async (baseUrl: string, token: string): Promise<string> => {
  const agent = expectStatus(
    "create assistant",
    await call(`${baseUrl}/v1/agents`, { token, body: { name: "Echo" } }),
    201
  )
  expectStatus(
    "put flow",
    await call(`${baseUrl}/v1/agents/${agent.id}/flow`, { method: "PUT", token, body: echoFlow }),
    200
  )
  return agent.id as string
}

/** Start a session on the Assistant's draft; its id. */
export const startSession = async (baseUrl: string, token: string, agentId: string): Promise<string> => {
  const reply = expectStatus(
    "start session",
    await call(`${baseUrl}/v1/runtime/sessions`, { token, body: { agentId } }),
    201
  )
  return reply.sessionId as string
}

/** Send one turn to one node. */
export const sendTurn = (
  baseUrl: string,
  token: string,
  sessionId: string,
  key: string,
  text: string,
  timeoutMs = 30_000
): Promise<Answer> =>
  call(`${baseUrl}/v1/runtime/sessions/${sessionId}/turns`, { token, key, body: { text } }, timeoutMs)

/** Read a session with its transcript. */
export const readSession = async (baseUrl: string, token: string, sessionId: string) =>
  expectStatus("read session", await call(`${baseUrl}/v1/runtime/sessions/${sessionId}`, { token }), 200)

/** One acknowledged turn: what the client sent, what it was told, and when. */
export interface Acknowledged {
  readonly key: string
  readonly text: string
  readonly turn: number
  readonly attempts: number
  readonly at: number
  /** When (ms since the epoch) and to which node its first attempt went. */
  readonly firstSent: { readonly at: number; readonly url: string }
}

/**
 * Send a turn as a real client does: to the next node in `urls()` (the
 * live nodes, as a load balancer would pick), and on a refused connection, a
 * time-out or a 5xx, again with the same key to the next one, until
 * `deadline`.
 */
export const sendUntilAnswered = async (
  urls: () => ReadonlyArray<string>,
  token: string,
  sessionId: string,
  key: string,
  text: string,
  deadline: number,
  first = 0
): Promise<Acknowledged> => {
  let attempts = 0
  let last = "no attempt"
  let firstSent: Acknowledged["firstSent"] | undefined
  while (Date.now() < deadline) {
    const live = urls()
    const url = live[(first + attempts) % live.length]!
    attempts++
    firstSent ??= { at: Date.now(), url }
    try {
      const answer = await sendTurn(url, token, sessionId, key, text, 10_000)
      if (answer.status === 200) return { key, text, turn: answer.json.turn, attempts, at: Date.now(), firstSent }
      last = `${answer.status} ${JSON.stringify(answer.json)}`
      if (answer.status < 500) throw new Error(`turn ${key} was refused: ${last}`)
    } catch (error) {
      if (error instanceof Error && error.message.startsWith(`turn ${key} was refused`)) throw error
      last = String(error)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`turn ${key} of ${sessionId} was never answered (last: ${last})`)
}
