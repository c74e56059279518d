/**
 * The baseline of the turn benchmark: a bare Node `http` server that answers
 * `POST /v1/runtime/sessions/{id}/turns` with the transaction a turn needs at
 * the least (move the session on, store the turn under its idempotency key,
 * in one transaction; `pg`, a pool of 10 like a node's) and a small JSON
 * reply. No framework, no authentication, no cluster: what the database and
 * the HTTP stack cost on this machine.
 *
 * Started by `run.ts` as its own process, with DATABASE_URL, PORT (0: any)
 * and SESSIONS in the environment: it makes its tables and that many sessions,
 * then prints `listening <port>`.
 */
import * as Http from "node:http"
import type * as Net from "node:net"
import Pg from "pg"

const schema = [
  `CREATE TABLE bench_sessions (
    id uuid PRIMARY KEY,
    turn integer NOT NULL DEFAULT 0,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE bench_turns (
    session_id uuid NOT NULL REFERENCES bench_sessions(id),
    turn integer NOT NULL,
    idempotency_key text NOT NULL,
    input jsonb NOT NULL,
    reply jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (session_id, turn),
    UNIQUE (session_id, idempotency_key)
  )`,
  `INSERT INTO bench_sessions (id) SELECT gen_random_uuid() FROM generate_series(1, $1::integer)`
]

const route = /^\/v1\/runtime\/sessions\/([0-9a-f-]{36})\/turns$/

const main = async () => {
  const pool = new Pg.Pool({ connectionString: process.env["DATABASE_URL"], max: 10 })
  for (const statement of schema) {
    await pool.query(statement, statement.includes("$1") ? [Number(process.env["SESSIONS"] ?? 200)] : [])
  }

  const turn = async (sessionId: string, key: string, text: string) => {
    const client = await pool.connect()
    try {
      await client.query("BEGIN")
      const moved = await client.query<{ turn: number }>(
        "UPDATE bench_sessions SET turn = turn + 1, updated_at = now() WHERE id = $1 RETURNING turn",
        [sessionId]
      )
      const number = moved.rows[0]!.turn
      const reply = { sessionId, turn: number, messages: [{ type: "text", text: `You said: ${text}` }] }
      await client.query(
        "INSERT INTO bench_turns (session_id, turn, idempotency_key, input, reply) VALUES ($1, $2, $3, $4, $5)",
        [sessionId, number, key, JSON.stringify({ text }), JSON.stringify(reply)]
      )
      await client.query("COMMIT")
      return reply
    } catch (error) {
      await client.query("ROLLBACK")
      throw error
    } finally {
      client.release()
    }
  }

  const answer = (response: Http.ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body)
    response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
    response.end(text)
  }

  const server = Http.createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const match = route.exec(request.url ?? "")
      const key = request.headers["idempotency-key"]
      if (request.method !== "POST" || match === null || typeof key !== "string") {
        return answer(response, 404, { error: "not found" })
      }
      const { text } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { text: string }
      turn(match[1]!, key, text).then(
        (reply) => answer(response, 200, reply),
        (error) => answer(response, 500, { error: String(error) })
      )
    })
  })
  server.keepAliveTimeout = 65_000
  server.listen(Number(process.env["PORT"] ?? 0), "127.0.0.1", () => {
    console.log(`listening ${(server.address() as Net.AddressInfo).port}`)
  })
  process.on("SIGTERM", () => {
    server.close(() => pool.end().then(() => process.exit(0)))
    server.closeAllConnections()
  })
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
