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
 * This one lets fibers run for at most `sliceMillis` of each turn of the event
 * loop (all the I/O callbacks of a turn share it: a burst of database replies
 * does not buy each its own slice), then continues them in a `setImmediate`,
 * which runs once Node has polled its sockets again: a request waits about
 * one slice, plus the I/O callbacks' own work, to be read. Priorities and the
 * point where a fiber yields (`FiberRef.currentMaxOpsBeforeYield`) are
 * Effect's.
 */
import { Duration, Effect, Scheduler } from "effect"
import { SchedulerSlice } from "./config/Settings.js"

export class FairScheduler implements Scheduler.Scheduler {
  private readonly tasks = new Scheduler.PriorityBuckets()
  /** A drain is queued, running, or waiting for the event loop's next turn. */
  private running = false
  /** The drain stopped for the event loop and goes on in `turn`. */
  private waiting = false
  /** A `turn` is scheduled: the event loop has not come round since fibers last ran. */
  private turnPending = false
  /** When the event loop last came round (or fibers started after an idle turn). */
  private sliceStarted = 0

  constructor(readonly sliceMillis: number) {}

  shouldYield(fiber: Parameters<Scheduler.Scheduler["shouldYield"]>[0]): number | false {
    return Scheduler.defaultScheduler.shouldYield(fiber)
  }

  scheduleTask(task: Scheduler.Task, priority: number): void {
    this.tasks.scheduleTask(task, priority)
    if (this.running) return
    this.running = true
    // Fibers that ran since the loop last came round (in other I/O callbacks of this turn) used the same slice.
    if (!this.turnPending) this.sliceStarted = performance.now()
    queueMicrotask(this.drain)
  }

  private readonly drain = (): void => {
    if (performance.now() - this.sliceStarted >= this.sliceMillis) {
      this.waiting = true
      this.awaitTurn()
      return
    }
    const buckets = this.tasks.buckets
    this.tasks.buckets = []
    for (const [, tasks] of buckets) {
      for (const task of tasks) task()
    }
    this.awaitTurn()
    if (this.tasks.buckets.length === 0) this.running = false
    else queueMicrotask(this.drain)
  }

  /** Notes when the event loop next comes round: `setImmediate` runs right after Node polls its sockets. */
  private awaitTurn(): void {
    if (this.turnPending) return
    this.turnPending = true
    setImmediate(this.turn)
  }

  private readonly turn = (): void => {
    this.turnPending = false
    this.sliceStarted = performance.now()
    if (!this.waiting) return
    this.waiting = false
    this.drain()
  }
}

/** Runs `effect`, and every fiber it forks, on a `FairScheduler` with the configured slice (0: on Effect's). */
export const onFairScheduler = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(SchedulerSlice, (slice) => {
    const millis = Duration.toMillis(slice)
    return millis > 0 ? Effect.withScheduler(effect, new FairScheduler(millis)) : effect
  })
