import { type Context, Effect, Layer } from "effect"
import { freshDatabase } from "./TestDatabase.js"
import { testServer } from "./TestServer.js"

/** Two nodes on one fresh database; run an effect against either. */
export const twoNodes = Effect.gen(function*() {
  const { url } = yield* freshDatabase
  const a = yield* Layer.build(testServer({ DATABASE_URL: url }))
  const b = yield* Layer.build(testServer({ DATABASE_URL: url }))
  return {
    onA: <X, E, R>(effect: Effect.Effect<X, E, R>) => Effect.provide(effect, a as Context.Context<R>),
    onB: <X, E, R>(effect: Effect.Effect<X, E, R>) => Effect.provide(effect, b as Context.Context<R>)
  }
})
