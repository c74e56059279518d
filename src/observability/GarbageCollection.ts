/**
 * A full garbage collection on demand, for the one moment it pays: right after
 * an overload. What a saturated node allocated for the requests it handled is
 * garbage once the overload is over, but much of it was promoted to V8's old
 * generation, and an idle node allocates too little to trigger the next major
 * collection for minutes: measured on one node, RSS was still 37% above its
 * pre-load value a minute after a 2× overload and came back only after about
 * 110 s, at the first major collection; the live heap had grown by 10 MB
 * (bench/overload, docs/OPERATIONS.md). V8 offers `gc` only behind its
 * `--expose-gc` flag: the flag is set at run time, and a new context, which
 * reads it, hands the function over.
 */
import { Effect } from "effect"
import * as V8 from "node:v8"
import * as Vm from "node:vm"

let gc: (() => void) | undefined

const fullCollection = (): void => {
  if (gc === undefined) {
    const exposed = (globalThis as { gc?: () => void }).gc
    if (exposed === undefined) V8.setFlagsFromString("--expose-gc")
    gc = exposed ?? (Vm.runInNewContext("gc") as () => void)
  }
  gc()
}

/** What a collection left: the process's resident memory and V8's heap, before and after, in bytes. */
export interface Collected {
  readonly rssBefore: number
  readonly rssAfter: number
  readonly heapUsedBefore: number
  readonly heapUsedAfter: number
  readonly millis: number
}

/** Runs a full (major) collection of the whole heap, pausing the process for its duration (tens of ms). */
export const collectGarbage: Effect.Effect<Collected> = Effect.sync(() => {
  const before = process.memoryUsage()
  const started = performance.now()
  fullCollection()
  const millis = performance.now() - started
  const after = process.memoryUsage()
  return {
    rssBefore: before.rss,
    rssAfter: after.rss,
    heapUsedBefore: before.heapUsed,
    heapUsedAfter: after.heapUsed,
    millis
  }
})
