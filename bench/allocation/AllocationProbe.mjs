/**
 * Loaded into a benchmarked node (`NODE_OPTIONS="--import <this file>"`),
 * never into Parley itself. SIGUSR2 starts and stops V8's sampling heap
 * profiler, twice:
 *
 * - the first time counting the objects the collector has already freed too
 *   (what is allocated, not what is held); the profile is written to the
 *   file named by `ALLOCATION_PROFILE`;
 * - the second time counting only what is still alive when it stops, after
 *   a full collection: what the work in flight holds, which the collector
 *   copies at each scavenge; written to the same name with `.held` added.
 */
import * as Fs from "node:fs"
import * as Inspector from "node:inspector"
import * as V8 from "node:v8"
import * as Vm from "node:vm"

V8.setFlagsFromString("--expose-gc")
const gc = Vm.runInNewContext("gc")
const session = new Inspector.Session()
session.connect()
const file = process.env.ALLOCATION_PROFILE ?? "allocation.heapprofile"
let cycle = 0
let sampling = false

process.on("SIGUSR2", () => {
  const held = cycle === 1
  if (!sampling) {
    sampling = true
    session.post("HeapProfiler.enable", () =>
      session.post("HeapProfiler.startSampling", {
        samplingInterval: held ? 1_024 : 16_384,
        includeObjectsCollectedByMajorGC: !held,
        includeObjectsCollectedByMinorGC: !held
      }))
    return
  }
  sampling = false
  cycle++
  if (held) gc()
  session.post("HeapProfiler.stopSampling", (error, result) => {
    if (error) process.stderr.write(`allocation probe: ${error.message}\n`)
    else Fs.writeFileSync(held ? `${file}.held` : file, JSON.stringify(result.profile))
  })
})
