/**
 * The production shape forms a cluster, without Docker: three `parley serve`
 * processes get exactly the environment `docker-compose.yml` gives its three
 * nodes (the anchors merged, the `${VAR}` references filled in as an
 * operator's shell would), with this machine standing in for the compose
 * network. Each service name becomes a loopback address of its own
 * (`parley-1..3` → 127.0.0.2..4; all of 127/8 reaches lo on Linux), `postgres`
 * becomes the test's database, and `0.0.0.0`, which in a container means the
 * container's own interfaces, becomes the node's own address. The HTTP port
 * and the runner port are the same on every node, as in compose, on distinct
 * addresses. A conversation owned by each node then answers through the two
 * others, so every node reached every other node's runner at the address it
 * advertised.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import { parse } from "yaml"
import { portIsFree } from "../../../scripts/cluster/Nodes.js"
import { echoAssistant, readSession, sendTurn, startSession } from "../../support/Conversations.js"
import { localCluster } from "../../support/LocalCluster.js"
import { freePort } from "../../support/ParleyProcess.js"
import { connectedClient, freshDatabase } from "../../support/TestDatabase.js"
import { codeAt, settledNow } from "../../support/TotpCodes.js"

const read = (path: string) => Fs.readFileSync(new URL(`../../../${path}`, import.meta.url), "utf8")

/**
 * Compose's interpolation: `$$`, `$VAR`, `${VAR}`, and `${VAR:-default}`,
 * `${VAR-default}`, `${VAR:?error}`, `${VAR?error}`, `${VAR:+other}`,
 * `${VAR+other}` (with the colon, an empty value counts as unset).
 */
const interpolate = (value: string, variables: Readonly<Record<string, string>>): string =>
  value.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (match, braced: string | undefined, operator: string | undefined, argument: string, bare: string | undefined) => {
      if (match === "$$") return "$"
      const name = (braced ?? bare)!
      const given = variables[name]
      if (operator === undefined) return given ?? ""
      const unset = given === undefined || (operator.startsWith(":") && given === "")
      switch (operator.slice(-1)) {
        case "-":
          return unset ? argument : given!
        case "?":
          if (unset) throw new Error(`compose refuses to start: ${name}: ${argument}`)
          return given!
        default:
          return unset ? "" : argument
      }
    }
  )

const compose = parse(read("docker-compose.yml"), { merge: true })
const services: Record<string, any> = compose.services

/** What an operator exports before `docker compose up` (the file's header). */
const operatorShell = {
  POSTGRES_PASSWORD: Crypto.randomBytes(16).toString("hex"),
  METRICS_TOKEN: Crypto.randomBytes(32).toString("hex"),
  PARLEY_MASTER_KEY: Crypto.randomBytes(32).toString("base64"),
  PARLEY_JWT_PRIVATE_KEY: Crypto.generateKeyPairSync("ed25519").privateKey.export({ format: "pem", type: "pkcs8" })
    .toString()
}

/** A service's environment as compose hands it to the container. */
const environmentOf = (service: string, variables: Readonly<Record<string, string>>): Record<string, string> => {
  const environment = services[service].environment
  expect(Array.isArray(environment), `${service}'s environment is a mapping`).toBe(false)
  return Object.fromEntries(
    Object.entries(environment as Record<string, unknown>).map(([name, value]) => [
      name,
      interpolate(String(value), variables)
    ])
  )
}

const NODES = ["parley-1", "parley-2", "parley-3"]
const loopback = (node: string) => `127.0.0.${NODES.indexOf(node) + 2}`

/** A port free on every one of these addresses. */
const portFreeOn = async (hosts: ReadonlyArray<string>, besides: ReadonlyArray<number> = []): Promise<number> => {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await freePort()
    if (!besides.includes(port) && (await Promise.all(hosts.map((host) => portIsFree(port, host)))).every(Boolean)) {
      return port
    }
  }
  throw new Error(`no port free on ${hosts.join(", ")}`)
}

/** POST or GET JSON with a bearer token; the status and the body. */
const call = async (url: string, body?: unknown, token?: string) => {
  const response = await fetch(url, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000)
  })
  const text = await response.text()
  return { status: response.status, json: text === "" ? null : JSON.parse(text) }
}

describe("the compose file's production shape", () => {
  it("names the nodes, their ports and their health as one", () => {
    expect(Object.keys(services).filter((name) => name.startsWith("parley-")).sort()).toEqual(NODES)
    const shell = { ...operatorShell, PARLEY_SMTP_URL: "smtp://mail.example.com:587" }
    for (const node of NODES) {
      const environment = environmentOf(node, shell)
      expect(environment["PARLEY_RUNNER_HOST"], node).toBe(node)
      expect(environment["PARLEY_RUNNER_LISTEN_HOST"], node).toBe("0.0.0.0")
      expect(environment["PARLEY_HOST"], node).toBe("0.0.0.0")
      // Only nginx publishes a port: the runner protocol has no authentication.
      expect(services[node].ports, node).toBeUndefined()
      // Docker's health check asks the node itself for readiness, on its HTTP port.
      expect(services[node].healthcheck.test.join(" ")).toContain(
        `http://127.0.0.1:${environment["PORT"]}/health/ready`
      )
      // Long enough to finish the requests in flight (30 s) and leave the cluster (20 s).
      expect(services[node].stop_grace_period).toBe("60s")
    }
    const published = Object.values(services).flatMap((service: any) => service.ports ?? []).map(String)
    expect(published).toEqual(["8080:80"])
    // nginx sends to every node, at the port each serves.
    const upstream = [...read("deploy/nginx.conf").matchAll(/^\s*server ([\w.-]+):(\d+)\b/gm)]
      .map(([, host, port]) => `${host}:${port}`)
    expect(upstream.sort()).toEqual(NODES.map((node) => `${node}:${environmentOf(node, shell)["PORT"]}`))
  })

  it("refuses to start without the secrets the header asks for", () => {
    expect(() => environmentOf("parley-1", {})).toThrow(/POSTGRES_PASSWORD/)
  })

  it.scopedLive(
    "forms a cluster in which a conversation owned by one node answers through the others",
    () =>
      Effect.gen(function*() {
        const database = yield* freshDatabase
        const hosts = NODES.map(loopback)
        const httpPort = yield* Effect.promise(() => portFreeOn(hosts))
        const runnerPort = yield* Effect.promise(() => portFreeOn(hosts, [httpPort]))
        // Nothing listens there: mail (the sign-up's verification) fails in the background, and nothing waits for it.
        const smtpPort = yield* Effect.promise(() => portFreeOn(["127.0.0.1"], [httpPort, runnerPort]))
        const shell = { ...operatorShell, PARLEY_SMTP_URL: `smtp://127.0.0.1:${smtpPort}` }
        const postgres = environmentOf("postgres", shell)

        /** One node's environment, moved from the compose network onto this machine. */
        const onThisMachine = (node: string): Record<string, string> =>
          Object.fromEntries(
            Object.entries(environmentOf(node, shell)).map(([name, value]) => {
              if (name === "PORT") return [name, String(httpPort)]
              if (name === "PARLEY_RUNNER_PORT") return [name, String(runnerPort)]
              if (value === "0.0.0.0") return [name, loopback(node)]
              if (NODES.includes(value)) return [name, loopback(value)]
              if (name === "DATABASE_URL") {
                // The compose database, as the postgres service defines it; here, the test's database.
                const url = new URL(value)
                expect([url.hostname, url.port, url.username, url.password, url.pathname]).toEqual([
                  "postgres",
                  "5432",
                  postgres["POSTGRES_USER"],
                  postgres["POSTGRES_PASSWORD"],
                  `/${postgres["POSTGRES_DB"]}`
                ])
                return [name, database.url]
              }
              return [name, value]
            })
          )
        const environments = NODES.map(onThisMachine)
        expect(environments.map((environment) => environment["PARLEY_ENV"])).toEqual(NODES.map(() => "production"))

        const cluster = yield* localCluster({
          nodes: NODES.length,
          databaseUrl: database.url,
          // `parley migrate` before the nodes start seals nothing, but runs under the nodes' key all the same.
          env: { PARLEY_MASTER_KEY: operatorShell.PARLEY_MASTER_KEY },
          environments
        })
        const pg = yield* connectedClient(database.url)
        const advertised = hosts.map((host) => `${host}:${runnerPort}`)
        expect(cluster.nodes.map((node) => node.url)).toEqual(hosts.map((host) => `http://${host}:${httpPort}`))

        // Every node registered at its compose address, one port on three addresses, and the others find it healthy.
        const runners = yield* Effect.promise(() =>
          pg.query<{ address: string; healthy: boolean }>(
            `SELECT address, healthy FROM cluster_runners ORDER BY address`
          )
        )
        expect(runners.rows).toEqual(advertised.map((address) => ({ address, healthy: true })))

        // Production asks every user for a second factor before they act in a workspace.
        const [first] = cluster.nodes
        const password = "correct horse battery staple"
        const signup = yield* Effect.promise(() =>
          call(`${first!.url}/v1/auth/signup`, { email: `compose-${process.pid}@example.com`, password })
        )
        expect(signup.status, JSON.stringify(signup.json)).toBe(201)
        const token: string = signup.json.accessToken
        const enrol = yield* Effect.promise(() => call(`${first!.url}/v1/auth/mfa/enroll`, { password }, token))
        expect(enrol.status, JSON.stringify(enrol.json)).toBe(200)
        const code = yield* codeAt(enrol.json.secret, yield* settledNow)
        const verified = yield* Effect.promise(() => call(`${first!.url}/v1/auth/mfa/verify`, { code }, token))
        expect(verified.status, JSON.stringify(verified.json)).toBe(200)

        const result = yield* Effect.promise(async () => {
          const agentId = await echoAssistant(first!.url, token)
          // Conversations until each node owns one (a session's shard decides its owner).
          const ownedBy = new Map<string, string>()
          for (let i = 0; i < 90 && ownedBy.size < NODES.length; i++) {
            const node = cluster.nodes[i % NODES.length]!
            const sessionId = await startSession(node.url, token, agentId)
            const opened = await sendTurn(node.url, token, sessionId, `${sessionId}-1`, "hello")
            if (opened.status !== 200) {
              throw new Error(`turn 1 answered ${opened.status}: ${JSON.stringify(opened.json)}`)
            }
            const owner = await pg.query<{ owner_runner: string }>(
              `SELECT owner_runner FROM runtime_sessions WHERE id = $1`,
              [sessionId]
            )
            const runner = owner.rows[0]!.owner_runner
            if (!ownedBy.has(runner)) ownedBy.set(runner, sessionId)
          }

          // Each owner's conversation takes a turn through each of the two other nodes, and reads the same everywhere.
          const crossings: Array<{ owner: string; through: string; ms: number }> = []
          for (const [owner, sessionId] of ownedBy) {
            const others = cluster.nodes.filter((node) => node.url !== `http://${owner.split(":")[0]}:${httpPort}`)
            expect(others).toHaveLength(2)
            for (const [k, node] of others.entries()) {
              const started = Date.now()
              const answer = await sendTurn(node.url, token, sessionId, `${sessionId}-${k + 2}`, `through ${node.url}`)
              expect(answer.status, JSON.stringify(answer.json)).toBe(200)
              expect(answer.json.turn).toBe(k + 2)
              crossings.push({ owner, through: node.url, ms: Date.now() - started })
            }
          }
          const transcripts = await Promise.all(
            [...ownedBy].flatMap(([owner, sessionId]) =>
              cluster.nodes.map(async (node) => ({
                owner,
                sessionId,
                transcript: (await readSession(node.url, token, sessionId)).transcript
              }))
            )
          )
          const turns = await pg.query<{ session_id: string; turn: number; runner: string }>(
            `SELECT session_id, turn, runner FROM runtime_turns WHERE session_id = ANY($1) AND turn > 0`,
            [[...ownedBy.values()]]
          )
          return { ownedBy, crossings, transcripts, turns: turns.rows }
        })

        expect([...result.ownedBy.keys()].sort()).toEqual(advertised)
        for (const { owner, sessionId, transcript } of result.transcripts) {
          const through = result.crossings.filter((crossing) => crossing.owner === owner).map((c) => c.through)
          expect(
            transcript.filter((entry: any) => entry.role === "user").map((entry: any) => entry.input.text),
            sessionId
          )
            .toEqual(["hello", ...through.map((url) => `through ${url}`)])
          expect(
            transcript.filter((entry: any) => entry.role === "bot" && entry.turn > 0).map((entry: any) =>
              entry.messages[0].text
            )
          ).toEqual(["You said: hello", ...through.map((url) => `You said: through ${url}`)])
        }
        // Every turn ran on its conversation's owner, whichever node the request came to.
        for (const row of result.turns) {
          expect(row.runner, `${row.session_id} turn ${row.turn}`).toBe(
            [...result.ownedBy].find(([, sessionId]) => sessionId === row.session_id)![0]
          )
        }
        expect(result.turns).toHaveLength(3 * NODES.length)
        const slowest = Math.max(...result.crossings.map((crossing) => crossing.ms))
        console.log(
          `compose shape: ${result.crossings.length} turns through a node other than the owner, slowest ${slowest} ms`
        )
      }),
    300_000
  )
})
