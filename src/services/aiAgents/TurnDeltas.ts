/**
 * Streaming turns' reply text between nodes. The node running a turn
 * publishes each piece with PostgreSQL's NOTIFY (the database is the one
 * thing every node shares; the embedded database has it too); every node
 * LISTENs on the one channel from its start and hands the pieces to the
 * streams it holds, in process. Pieces are a courtesy: one lost (a broken
 * listening connection, a node that died mid-answer) only means the stream
 * shows that text with its final answer, which is the turn's stored result.
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Clock, Deferred, Effect, PubSub, Queue, Schedule, Schema, type Scope, Stream } from "effect"
import * as Crypto from "node:crypto"
import { pieces, TURN_DELTAS_CHANNEL, TurnDelta } from "../../domain/aiAgents/TurnDelta.js"

const decode = Schema.decodeUnknownOption(Schema.parseJson(TurnDelta))
const encode = Schema.encodeSync(Schema.parseJson(TurnDelta))

export class TurnDeltas extends Effect.Service<TurnDeltas>()("parley/services/aiAgents/TurnDeltas", {
  scoped: Effect.gen(function*() {
    const pg = yield* PgClient.PgClient
    const sql = yield* SqlClient.SqlClient
    const hub = yield* PubSub.unbounded<TurnDelta>()

    // Listen for the node's lifetime; a broken connection is listened on again a second later. A probe of
    // this node's own (not a delta) tells it that the listening has begun.
    const probe = `probe:${Crypto.randomUUID()}`
    const listening = yield* Deferred.make<void>()
    yield* pg.listen(TURN_DELTAS_CHANNEL).pipe(
      Stream.runForEach((payload) => {
        if (payload === probe) return Deferred.succeed(listening, undefined)
        const delta = decode(payload)
        return delta._tag === "Some" ? PubSub.publish(hub, delta.value) : Effect.void
      }),
      Effect.tapErrorCause((cause) => Effect.logWarning("Listening for streamed turn text failed", cause)),
      Effect.retry(Schedule.spaced("1 second")),
      Effect.forkScoped
    )
    // The node serves once it hears (streams started earlier would miss their first pieces); without an answer
    // in 10 s it serves anyway, its streams showing each reply when it ends.
    // (On the live clock: a test's TestClock, which stands still, must not hold a node's start.)
    yield* sql`SELECT pg_notify(${TURN_DELTAS_CHANNEL}, ${probe})`.pipe(
      Effect.zipRight(Deferred.await(listening).pipe(Effect.timeout("100 millis"))),
      Effect.retry({ times: 100 }),
      Effect.catchAllCause((cause) => Effect.logWarning("Streamed turn text is not heard yet", cause)),
      Effect.withClock(Clock.make())
    )

    /**
     * Publish one piece of a turn's reply, `offset` where it begins in its
     * step's text (in parts when long, numbered from `seq`); a failure is
     * logged, not raised.
     */
    const publish = (delta: Omit<TurnDelta, "seq" | "offset" | "delta">, seq: number, offset: number, text: string) =>
      Effect.forEach(
        pieces(text).map((piece, i, all) => ({
          ...delta,
          seq: seq + i,
          offset: offset + all.slice(0, i).reduce((length, before) => length + before.length, 0),
          delta: piece
        })),
        // pg_notify, not @effect/sql-pg's `notify` (0.53 sends `NOTIFY channel, $1`, which PostgreSQL refuses).
        (piece) => sql`SELECT pg_notify(${TURN_DELTAS_CHANNEL}, ${encode(piece)})`,
        { discard: true }
      ).pipe(
        Effect.catchAllCause((cause) => Effect.logWarning("A streamed turn's text could not be published", cause))
      )

    /** The pieces of one turn's reply from now on, for the scope. */
    const subscribe = (
      conversationId: string,
      idempotencyKey: string
    ): Effect.Effect<Queue.Dequeue<TurnDelta>, never, Scope.Scope> =>
      Effect.gen(function*() {
        const all = yield* PubSub.subscribe(hub)
        const mine = yield* Queue.unbounded<TurnDelta>()
        yield* Queue.take(all).pipe(
          Effect.flatMap((delta) =>
            delta.conversationId === conversationId && delta.idempotencyKey === idempotencyKey
              ? Queue.offer(mine, delta)
              : Effect.void
          ),
          Effect.forever,
          Effect.forkScoped
        )
        return mine
      })

    return { publish, subscribe } as const
  })
}) {}
