/**
 * A process that counts AI tokens through a real `UsageMeter` on
 * `DATABASE_URL`, one input token every 10 ms for `argv[2]` (a workspace id),
 * and prints `recorded <n>` after each, synchronously, so a test that kills
 * it knows how much it counted. Run: `node --import tsx test/support/UsageMeterChild.ts <workspace>`.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import * as Fs from "node:fs"
import type { WorkspaceId } from "../../src/domain/identity/Ids.js"
import { SqlLive } from "../../src/persistence/Sql.js"
import { UsageMeter } from "../../src/services/workspace/UsageMeter.js"

const workspaceId = process.argv[2] as WorkspaceId

const program = Effect.gen(function*() {
  const meter = yield* UsageMeter
  Fs.writeSync(1, "ready\n")
  for (let recorded = 1;; recorded++) {
    yield* meter.record({ workspaceId, provider: "openai", model: "gpt-4o-mini", inputTokens: 1, outputTokens: 0 })
    Fs.writeSync(1, `recorded ${recorded}\n`)
    yield* Effect.sleep("10 millis")
  }
})

NodeRuntime.runMain(program.pipe(Effect.provide(UsageMeter.Default.pipe(Layer.provide(SqlLive)))))
