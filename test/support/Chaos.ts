/**
 * Clients and checks for tests and benchmarks that break a running cluster
 * from outside: conversations whose clients give up on some attempts after a
 * few milliseconds and retry with the same key (as the docs tell them to), and
 * the checks that nothing was lost, repeated or reordered (`exactlyOnce`) and
 * that every turn was written by the owner of its session at the time
 * (`fenced`).
 */
import type Pg from "pg"
import { type Acknowledged, readSession } from "./Conversations.js"

/** A small seeded generator (mulberry32), so a failing run can be replayed. */
export const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/** What became of one attempt to send a turn. */
export type Attempt =
  | { readonly kind: "abandoned" }
  | { readonly kind: "answered"; readonly status: number; readonly body: any }
  | { readonly kind: "failed"; readonly error: string }

/**
 * One attempt to send a turn: abandoned by the client after `abandonAfterMs`
 * when given (the connection is closed mid-request), else waited for up to
 * `timeoutMs`.
 */
export const attemptTurn = async (
  url: string,
  token: string,
  sessionId: string,
  key: string,
  text: string,
  options: { readonly abandonAfterMs?: number | undefined; readonly timeoutMs?: number } = {}
): Promise<Attempt> => {
  const controller = new AbortController()
  const abandon = options.abandonAfterMs
  const timer = setTimeout(() => controller.abort(), abandon ?? options.timeoutMs ?? 20_000)
  try {
    const response = await fetch(`${url}/v1/runtime/sessions/${sessionId}/turns`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}`, "idempotency-key": key },
      body: JSON.stringify({ text }),
      signal: controller.signal
    })
    const body = await response.text()
    return { kind: "answered", status: response.status, body: body === "" ? null : JSON.parse(body) }
  } catch (error) {
    if (controller.signal.aborted && abandon !== undefined) return { kind: "abandoned" }
    return { kind: "failed", error: String(error) }
  } finally {
    clearTimeout(timer)
  }
}

/** Conversations kept busy by clients that abandon some attempts and retry every turn until it is answered. */
export interface Chatter {
  readonly acknowledged: ReadonlyMap<string, ReadonlyArray<Acknowledged>>
  /** Attempts that completed with an answer other than 200, or failed, per key: what a client was told. */
  readonly refusals: ReadonlyArray<{ readonly key: string; readonly at: number; readonly what: string }>
  /** Turns never answered before their deadline (a test fails on any). */
  readonly unanswered: ReadonlyArray<string>
  readonly abandoned: () => number
  /** Stop after each client's current turn; resolves when all have stopped. */
  readonly stop: () => Promise<void>
}

/**
 * Start a client per session: each sends turn after turn (`pauseMs` apart),
 * to `live()` nodes (its own first, the next on a failure), abandoning the
 * first attempt of a turn after 0–50 ms with probability `abandonRate` (and up
 * to two more after it), then waiting for an answer (up to `timeoutMs`) and
 * retrying with the same key until one is a 200 or `turnDeadlineMs` passes.
 */
export const chatter = (options: {
  readonly live: () => ReadonlyArray<string>
  readonly token: string
  readonly sessions: ReadonlyArray<string>
  readonly seed: number
  readonly abandonRate: number
  readonly pauseMs: number
  readonly timeoutMs: number
  readonly turnDeadlineMs: number
}): Chatter => {
  const acknowledged = new Map<string, Array<Acknowledged>>(options.sessions.map((id) => [id, []]))
  const refusals: Array<{ key: string; at: number; what: string }> = []
  const unanswered: Array<string> = []
  let abandoned = 0
  let stopping = false
  const clients = options.sessions.map(async (sessionId, i) => {
    const next = random(options.seed * 100_003 + i)
    const acks = acknowledged.get(sessionId)!
    while (!stopping) {
      const turn = acks.length + 1
      const key = `${sessionId}-${turn}`
      const text = `message ${turn}`
      const deadline = Date.now() + options.turnDeadlineMs
      const abandonments = next() < options.abandonRate ? 1 + Math.floor(next() * 3) : 0
      let attempts = 0
      let answer: number | undefined
      let firstSent: Acknowledged["firstSent"] | undefined
      while (answer === undefined && Date.now() < deadline) {
        const live = options.live()
        const url = live[(i + attempts) % live.length]!
        attempts++
        firstSent ??= { at: Date.now(), url }
        const abandon = attempts <= abandonments ? Math.floor(next() * 51) : undefined
        const result = await attemptTurn(url, options.token, sessionId, key, text, {
          abandonAfterMs: abandon,
          timeoutMs: options.timeoutMs
        })
        if (result.kind === "abandoned") {
          abandoned++
        } else if (result.kind === "answered" && result.status === 200) {
          answer = result.body.turn as number
        } else {
          const what = result.kind === "failed" ? result.error : `${result.status} ${JSON.stringify(result.body)}`
          refusals.push({ key, at: Date.now(), what })
          await new Promise((resolve) => setTimeout(resolve, 100))
        }
      }
      if (answer === undefined) {
        unanswered.push(key)
        return
      }
      acks.push({ key, text, turn: answer, attempts, at: Date.now(), firstSent: firstSent! })
      await new Promise((resolve) => setTimeout(resolve, options.pauseMs))
    }
  })
  return {
    acknowledged,
    refusals,
    unanswered,
    abandoned: () => abandoned,
    stop: async () => {
      stopping = true
      await Promise.all(clients)
    }
  }
}

/** Every acknowledged turn in its transcript once and in order, and nothing else; the problems found, if any. */
export const exactlyOnce = async (
  urls: ReadonlyArray<string>,
  token: string,
  acknowledged: ReadonlyMap<string, ReadonlyArray<Acknowledged>>
): Promise<Array<string>> => {
  const problems: Array<string> = []
  await Promise.all([...acknowledged].map(async ([sessionId, acks], i) => {
    const { session, transcript } = await readSession(urls[i % urls.length]!, token, sessionId)
    const users = transcript.filter((entry: any) => entry.role === "user")
    const echoes = transcript
      .filter((entry: any) => entry.role === "bot" && entry.turn > 0)
      .map((entry: any) => entry.messages[0].text)
    const same = (a: ReadonlyArray<unknown>, b: ReadonlyArray<unknown>) =>
      a.length === b.length && a.every((x, k) => x === b[k])
    if (!same(acks.map((ack) => ack.turn), acks.map((_, k) => k + 1))) {
      problems.push(`${sessionId}: acknowledged turn numbers are not 1..${acks.length}`)
    }
    if (!same(users.map((entry: any) => entry.idempotencyKey), acks.map((ack) => ack.key))) {
      problems.push(`${sessionId}: the transcript's turns are not the acknowledged ones, once each, in order`)
    }
    if (!same(users.map((entry: any) => entry.input.text), acks.map((ack) => ack.text))) {
      problems.push(`${sessionId}: the transcript's texts are not the ones sent`)
    }
    if (!same(echoes, acks.map((ack) => `You said: ${ack.text}`))) {
      problems.push(`${sessionId}: the replies are not one echo per acknowledged turn`)
    }
    if (session.turn !== acks.length) {
      problems.push(`${sessionId}: at turn ${session.turn}, ${acks.length} acknowledged`)
    }
  }))
  return problems
}

/** A stored turn with who wrote it, under which epoch, and when (the database's clock). */
export interface StoredTurn {
  readonly session_id: string
  readonly turn: number
  readonly epoch: number
  readonly runner: string | null
  readonly created_at: Date
}

/**
 * Along each transcript the owner epoch never goes back, and each turn was
 * written by that epoch's owner (the runner recorded when it was claimed).
 */
export const fenced = async (pg: Pg.Client) => {
  const turns = await pg.query<StoredTurn>(
    `SELECT session_id, turn, epoch, runner, created_at FROM runtime_turns WHERE turn > 0 ORDER BY session_id, turn`
  )
  const owners = await pg.query<{ session_id: string; epoch: number; runner: string; activated_at: Date }>(
    `SELECT session_id, epoch, runner, activated_at FROM runtime_session_owners`
  )
  const ownerOf = new Map(owners.rows.map((row) => [`${row.session_id}/${row.epoch}`, row]))
  const problems: Array<string> = []
  turns.rows.forEach((row, k) => {
    const previous = turns.rows[k - 1]
    if (previous?.session_id === row.session_id && row.epoch < previous.epoch) {
      problems.push(`${row.session_id}: turn ${row.turn} was written under an older epoch than turn ${previous.turn}`)
    }
    if (ownerOf.get(`${row.session_id}/${row.epoch}`)?.runner !== row.runner) {
      problems.push(`${row.session_id}: turn ${row.turn} was written by ${row.runner}, not epoch ${row.epoch}'s owner`)
    }
  })
  return { turns: turns.rows, owners: ownerOf, problems }
}

/** A percentile of `values` (nearest rank). */
export const percentile = (values: ReadonlyArray<number>, p: number): number => {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}
