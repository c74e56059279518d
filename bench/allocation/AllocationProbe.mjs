/**
 * Loaded into a benchmarked node (`NODE_OPTIONS="--import <this file>"`),
 * never into Parley itself: the first SIGUSR2 starts V8's sampling heap
 * profiler, counting objects the collector has already freed too (so it
 * measures what is allocated, not what is held); the second stops it and
 * writes the profile to the file named by `ALLOCATION_PROFILE`.
 */
import * as Fs from "node:fs"
import * as Inspector from "node:inspector"

const session = new Inspector.Session()
session.connect()
let sampling = false

process.on("SIGUSR2", () => {
  if (!sampling) {
    sampling = true
    session.post("HeapProfiler.enable", () =>
      session.post("HeapProfiler.startSampling", {
        samplingInterval: 16_384,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true
      }))
    return
  }
  sampling = false
  session.post("HeapProfiler.stopSampling", (error, result) => {
    if (error) process.stderr.write(`allocation probe: ${error.message}\n`)
    else Fs.writeFileSync(process.env.ALLOCATION_PROFILE ?? "allocation.heapprofile", JSON.stringify(result.profile))
  })
})
