/**
 * Admission control: a node takes on a bounded amount of work at once and
 * refuses the rest at once (`503 Overloaded` with `Retry-After`), instead of
 * queueing it in memory until its clients give up. Offered twice what it can
 * do, a node without a bound spent its time on turns whose clients had left
 * and held every queued request's fiber and body (issue 10, §4); with one, it
 * runs what it admitted at full speed and says "not now" to the rest in
 * microseconds, so clients retry elsewhere or later.
 *
 * Two gates, each a setting: turns in flight (held by a turn until it ends,
 * whatever became of the request that sent it), and HTTP requests in flight
 * (a cheap outer bound, taken before authentication or reading a body).
 * Neither waits for a permit: a full gate refuses. Refusals also tell
 * readiness that the node is saturated (see `Saturation`), so a balancer
 * steers new clients away while it is.
 */
import { Clock, Effect, Metric, Schedule } from "effect"
import { AdmissionSettings } from "../config/Settings.js"
import { Overloaded } from "../domain/HttpErrors.js"
import { collectGarbage } from "../observability/GarbageCollection.js"
import {
  admissionAdmitted,
  admissionInFlight,
  admissionLimit,
  admissionRejected,
  admissionSaturated
} from "../observability/Metrics.js"

/** What a gate bounds. */
export type GateName = "turns" | "requests"

/** What a refused client is told to wait: about how long a busy node needs to drain what it admitted. */
export const RETRY_AFTER_SECONDS = 1

/**
 * The node is saturated once it refused `SATURATION_REFUSALS` within
 * `SATURATION_WINDOW_MILLIS`, and stays so until `SATURATION_CALM_MILLIS`
 * pass without a refusal. The two conditions differ on purpose (hysteresis):
 * a burst that overflows the bound for a moment refuses a few and leaves
 * readiness alone, a sustained overload refuses hundreds a second and turns
 * it within milliseconds, and it turns back only after a calm longer than a
 * flicker.
 */
export const SATURATION_REFUSALS = 10
export const SATURATION_WINDOW_MILLIS = 1_000
export const SATURATION_CALM_MILLIS = 2_000

/**
 * When a saturation ends, a full garbage collection gives back what the
 * overload allocated (see `GarbageCollection.ts`); at most one this often, so
 * an overload that comes and goes costs one pause now and then.
 */
const COLLECTION_SPACING_MILLIS = 60_000

/** Whether the node is saturated, as readiness and `/metrics` report it. */
class Saturation {
  /** The times of the last `SATURATION_REFUSALS` refusals, a ring; `next` is the oldest. */
  private readonly refusals: Array<number> = Array.from({ length: SATURATION_REFUSALS }, () => -Infinity)
  private next = 0
  private since: number | undefined

  refused(now: number): void {
    this.refusals[this.next] = now
    this.next = (this.next + 1) % SATURATION_REFUSALS
    if (this.since === undefined && now - this.refusals[this.next]! <= SATURATION_WINDOW_MILLIS) this.since = now
  }

  /** Since when the node is saturated, or `undefined`. */
  sinceAt(now: number): number | undefined {
    const last = this.refusals[(this.next + SATURATION_REFUSALS - 1) % SATURATION_REFUSALS]!
    if (this.since !== undefined && now - last >= SATURATION_CALM_MILLIS) this.since = undefined
    return this.since
  }

  /** Refusals within the window before `now`, counted up to `SATURATION_REFUSALS`. */
  recentAt(now: number): number {
    return this.refusals.filter((at) => now - at <= SATURATION_WINDOW_MILLIS).length
  }
}

/** One gate's figures. */
export interface GateStatus {
  readonly inFlight: number
  /** 0: no bound. */
  readonly limit: number
}

/** The node's load as admission control sees it. */
export interface AdmissionStatus {
  readonly saturated: boolean
  /** Refusals in the last second, counted up to `SATURATION_REFUSALS`. */
  readonly recentRefusals: number
  readonly turns: GateStatus
  readonly requests: GateStatus
}

const messages: Record<GateName, (limit: number) => string> = {
  turns: (limit) =>
    `This node is running all the turns it admits at once (${limit}); nothing was done: ` +
    `retry after ${RETRY_AFTER_SECONDS} s with the same Idempotency-Key`,
  requests: (limit) =>
    `This node is handling all the requests it admits at once (${limit}); nothing was done: ` +
    `retry after ${RETRY_AFTER_SECONDS} s`
}

const makeGate = (name: GateName, limit: number, saturation: Saturation) => {
  let inFlight = 0
  const admitted = Metric.tagged(admissionAdmitted, "gate", name)
  const rejected = Metric.tagged(admissionRejected, "gate", name)
  const gauge = Metric.tagged(admissionInFlight, "gate", name)
  const overloaded = new Overloaded({ retryAfterSeconds: RETRY_AFTER_SECONDS, message: messages[name](limit) })

  const refuse = Effect.clockWith((clock) => {
    saturation.refused(clock.unsafeCurrentTimeMillis())
    return Effect.zipRight(Metric.increment(rejected), Effect.fail(overloaded))
  })
  const full = () => limit > 0 && inFlight >= limit
  const release = Effect.suspend(() => {
    inFlight--
    return Metric.incrementBy(gauge, -1)
  })

  /**
   * Runs `effect` holding one of the gate's permits, released however it ends
   * (success, failure, defect, interruption); a full gate fails at once with
   * `Overloaded` and runs nothing.
   */
  const admit = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | Overloaded, R> =>
    Effect.uninterruptibleMask((restore) =>
      Effect.suspend((): Effect.Effect<A, E | Overloaded, R> => {
        if (full()) return refuse
        inFlight++
        return Effect.zipRight(
          Effect.zipRight(Metric.increment(admitted), Metric.increment(gauge)),
          Effect.ensuring(restore(effect), release)
        )
      })
    )

  /** Fails as `admit` would if the gate is full now, without taking a permit. */
  const check: Effect.Effect<void, Overloaded> = Effect.suspend(() => full() ? refuse : Effect.void)

  /**
   * `check` outside any fiber, for the node's front door (`FrontDoor.ts`):
   * the refusal, counted as `check` counts it, or `undefined` when the gate
   * has room. `now` is the time in ms, as the Clock gives it.
   */
  const refusalNow = (now: number): Overloaded | undefined => {
    if (!full()) return undefined
    saturation.refused(now)
    rejected.unsafeUpdate(1, [])
    return overloaded
  }

  const status = (): GateStatus => ({ inFlight, limit })
  return { admit, check, refusalNow, status, limit }
}

export class Admission extends Effect.Service<Admission>()("parley/services/Admission", {
  scoped: Effect.gen(function*() {
    const settings = yield* AdmissionSettings
    const saturation = new Saturation()
    const turns = makeGate("turns", settings.maxTurnsInFlight, saturation)
    const requests = makeGate("requests", settings.maxRequestsInFlight, saturation)

    const status = Effect.clockWith((clock) =>
      Effect.sync((): AdmissionStatus => {
        const now = clock.unsafeCurrentTimeMillis()
        return {
          saturated: saturation.sinceAt(now) !== undefined,
          recentRefusals: saturation.recentAt(now),
          turns: turns.status(),
          requests: requests.status()
        }
      })
    )

    yield* Metric.set(Metric.tagged(admissionLimit, "gate", "turns"), turns.limit)
    yield* Metric.set(Metric.tagged(admissionLimit, "gate", "requests"), requests.limit)
    let wasSaturated = false
    let collectedAt = -Infinity
    const afterSaturation = Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      if (now - collectedAt < COLLECTION_SPACING_MILLIS) return
      collectedAt = now
      const collected = yield* collectGarbage
      yield* Effect.logInfo("Saturation is over: collected the garbage of the overload").pipe(
        Effect.annotateLogs({
          rssMegabytes: [collected.rssBefore, collected.rssAfter].map((bytes) => Math.round(bytes / 1048576)),
          heapUsedMegabytes: [collected.heapUsedBefore, collected.heapUsedAfter].map((bytes) =>
            Math.round(bytes / 1048576)
          ),
          pauseMillis: Math.round(collected.millis)
        })
      )
    })

    // Saturation ends by the passing of time, not by an event: it is looked at a few times a second.
    yield* status.pipe(
      Effect.flatMap(({ saturated }) => {
        const ended = wasSaturated && !saturated
        wasSaturated = saturated
        return Effect.zipRight(
          Metric.set(admissionSaturated, saturated ? 1 : 0),
          ended ? afterSaturation : Effect.void
        )
      }),
      Effect.repeat(Schedule.spaced("250 millis")),
      Effect.forkScoped
    )

    return {
      /** A turn, holding a permit of the turns gate until it ends. */
      admit: turns.admit,
      /**
       * Refuses a turn at once, as `admit` would, if the turns gate is full
       * now: the HTTP edge asks before authenticating and reading a turn's
       * request, so a refusal costs next to nothing. A turn it lets through
       * still takes its permit with `admit`.
       */
      checkTurn: turns.check,
      /** An HTTP request, holding a permit of the requests gate until it is answered. */
      admitRequest: requests.admit,
      /**
       * What `admitRequest` and then, for a turn, `checkTurn` would refuse
       * now, decided without a fiber: a node's front door answers it before
       * the request becomes an Effect at all (`FrontDoor.ts`). Takes no
       * permit: a request it lets through still takes its own.
       */
      refusalNow: (isTurn: boolean, now: number): Overloaded | undefined =>
        requests.refusalNow(now) ?? (isTurn ? turns.refusalNow(now) : undefined),
      status
    } as const
  })
}) {}
