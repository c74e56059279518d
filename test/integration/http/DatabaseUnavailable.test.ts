/**
 * A request whose statement the database ends (here: its connection
 * terminated by an operator while it waits on a lock, as a failover or an
 * administrator's restart does) is answered 503 `NotReady` with `Retry-After`
 * and the SQLSTATE, never 500; the node's pool recovers and the same request
 * then succeeds, with nothing stored lost.
 */
import { HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Deferred, Effect, Fiber } from "effect"
import { as, post, signUp } from "../../support/Accounts.js"
import { exchange } from "../../support/Http.js"
import { testServer } from "../../support/TestServer.js"

layer(testServer(), { excludeTestServices: true })("a database that cannot answer", (it) => {
  it.effect("a statement ended by the database is a 503 with Retry-After, and the retry succeeds", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const owner = yield* signUp()
      const caller = { token: owner.token, address: owner.address, workspaceId: owner.workspaceId }
      const created = yield* post("/v1/agents", { name: "Kept" }, caller)
      expect(created.status).toBe(201)
      const list = () => exchange(as(HttpClientRequest.get("/v1/agents"), caller))

      const locked = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      // One of the node's own connections holds the table, so the listing waits on the lock.
      const holder = yield* sql.withTransaction(
        Effect.gen(function*() {
          yield* sql`LOCK TABLE assistants IN ACCESS EXCLUSIVE MODE`
          yield* Deferred.succeed(locked, undefined)
          yield* Deferred.await(release)
        })
      ).pipe(Effect.fork)
      yield* Deferred.await(locked)
      const request = yield* Effect.fork(list())

      // Wait until the listing's statement waits on the lock, then end its connection.
      let ended = 0
      for (let attempt = 0; attempt < 200 && ended === 0; attempt++) {
        yield* Effect.sleep("25 millis")
        const rows = yield* sql<{ ended: boolean }>`
          SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%FROM assistants%'`
        ended = rows.filter((row) => row.ended).length
      }
      expect(ended).toBe(1)
      const refused = yield* Fiber.join(request)
      expect(refused.status).toBe(503)
      expect(refused.json._tag).toBe("NotReady")
      expect(refused.json.checks.database).toEqual({ ok: false, detail: "SQLSTATE 57P01" })
      expect(refused.headers["retry-after"]).toBe("1")
      expect(refused.text).not.toContain("terminating connection")

      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(holder)
      const again = yield* list()
      expect(again.status).toBe(200)
      expect(again.json.items.map((item: { name: string }) => item.name)).toContain("Kept")
    }))
})
