/**
 * Loaded into a benchmarked node (`NODE_OPTIONS="--expose-gc --import tsx
 * --import <this file>"`), never into Parley itself: on SIGUSR2 the node runs a
 * full garbage collection and prints its memory as one line, so the benchmark
 * can tell memory that is still held from garbage V8 has not collected yet.
 */
import * as V8 from "node:v8"

/** The line's prefix, for the benchmark to find it in the node's output. */
export const MEMORY_LINE = "overload-bench-memory "

process.on("SIGUSR2", () => {
  const before = process.memoryUsage().rss
  ;(globalThis as { gc?: () => void }).gc?.()
  const usage = process.memoryUsage()
  const spaces = Object.fromEntries(
    V8.getHeapSpaceStatistics().map((space) => [space.space_name, {
      used: space.space_used_size,
      committed: space.physical_space_size
    }])
  )
  process.stderr.write(
    `${MEMORY_LINE}${JSON.stringify({ rssBeforeGc: before, ...usage, spaces, at: Date.now() })}\n`
  )
})
