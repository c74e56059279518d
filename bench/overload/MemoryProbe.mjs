/**
 * Loaded into a benchmarked node (`NODE_OPTIONS="--expose-gc --import <this
 * file>"`), never into Parley itself: on SIGUSR2 the node runs a full garbage
 * collection and prints its memory as one line (prefixed with `MEMORY_LINE`
 * of `run.ts`), so the benchmark can tell memory that is still held from
 * garbage V8 has not collected yet.
 *
 * Plain JavaScript, so the node needs no TypeScript loader: with `--import tsx`
 * the node read the bundle's 24 MB source map and held about 490 MB more heap
 * at rest (590 MB instead of 100 MB), which the collector then had to mark
 * through the whole benchmark, unlike any node in production.
 */
import * as V8 from "node:v8"

process.on("SIGUSR2", () => {
  const before = process.memoryUsage().rss
  globalThis.gc?.()
  const usage = process.memoryUsage()
  const spaces = Object.fromEntries(
    V8.getHeapSpaceStatistics().map((space) => [space.space_name, {
      used: space.space_used_size,
      committed: space.physical_space_size
    }])
  )
  process.stderr.write(
    `overload-bench-memory ${JSON.stringify({ rssBeforeGc: before, ...usage, spaces, at: Date.now() })}\n`
  )
})
