/**
 * A setup file (vitest runs it before every test file): gives `it.effect`,
 * `it.scoped` and the rest of `@effect/vitest`'s methods back their own
 * definitions. `layer(...)` assigns its own testers onto vitest's shared `it`
 * (`Object.assign(V.it, ...)` in @effect/vitest 0.30's `layer`) and never
 * puts them back, so with files sharing one module cache (`isolate: false`),
 * every file after one that calls `layer` would run its `it.effect` tests in
 * that layer's runtime: without the test services (`excludeTestServices`,
 * "testClock.adjust is not a function"), or on its long-lived TestClock.
 */
import { it } from "@effect/vitest"

const METHODS = ["effect", "scoped", "live", "scopedLive", "flakyTest", "layer", "prop"] as const
const KEY = Symbol.for("parley/test/effect-vitest-methods")

type Saved = Partial<Record<(typeof METHODS)[number], unknown>>
const store = globalThis as { [KEY]?: Saved }

const saved: Saved = store[KEY] ??= Object.fromEntries(
  METHODS.map((name) => [name, (it as unknown as Record<string, unknown>)[name]])
)
Object.assign(it, saved)
