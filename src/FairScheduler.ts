/**
 * The scheduler a Parley node runs its fibers on: Effect's, with a bound on
 * how long fibers may keep the event loop from its I/O.
 *
 * Effect's default scheduler runs ready fibers in microtasks, and lets a
 * fiber's runner go 2,048 microtask drains before it steps aside for a timer.
 * Node polls its sockets only between macrotasks, so while any fiber has work
 * (24 turns in flight, each several milliseconds of CPU), no request is read,
 * no database reply is parsed and no refusal is written: under overload the
 * event loop stalled for tens of milliseconds at a time, and a refusal that
 * costs a few microseconds at the node's front door (`http/FrontDoor.ts`)
 * reached its client hundreds of milliseconds late.
 *
 * This one runs ready fibers in microtasks for at most `sliceMillis`, then
 * continues them in a `setImmediate`, after Node has polled its sockets: a
 * request waits at most about one slice to be read. Priorities and the point
 * where a fiber yields (`FiberRef.currentMaxOpsBeforeYield`) are Effect's.
 */
import { Duration, Effect, Scheduler } from "effect"
import { SchedulerSlice } from "./config/Settings.js"

export class FairScheduler implements Scheduler.Scheduler {
  private readonly tasks = new Scheduler.PriorityBuckets()
  private running = false
  private sliceStarted = 0

  constructor(readonly sliceMillis: number) {}

  shouldYield(fiber: Parameters<Scheduler.Scheduler["shouldYield"]>[0]): number | false {
    return Scheduler.defaultScheduler.shouldYield(fiber)
  }

  scheduleTask(task: Scheduler.Task, priority: number): void {
    this.tasks.scheduleTask(task, priority)
    if (!this.running) {
      this.running = true
      this.sliceStarted = performance.now()
      queueMicrotask(this.drain)
    }
  }

  private readonly drain = (): void => {
    const buckets = this.tasks.buckets
    this.tasks.buckets = []
    for (const [, tasks] of buckets) {
      for (const task of tasks) task()
    }
    if (this.tasks.buckets.length === 0) {
      this.running = false
    } else if (performance.now() - this.sliceStarted < this.sliceMillis) {
      queueMicrotask(this.drain)
    } else {
      setImmediate(this.nextSlice)
    }
  }

  private readonly nextSlice = (): void => {
    this.sliceStarted = performance.now()
    this.drain()
  }
}

/** Runs `effect`, and every fiber it forks, on a `FairScheduler` with the configured slice (0: on Effect's). */
export const onFairScheduler = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(SchedulerSlice, (slice) => {
    const millis = Duration.toMillis(slice)
    return millis > 0 ? Effect.withScheduler(effect, new FairScheduler(millis)) : effect
  })
