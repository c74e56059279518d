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
import { Clock, Effect, FiberRef, Metric, Schedule } from "effect"
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
  /** Room held for work on its way (see `Reservation`). */
  readonly reserved: number
  /** 0: no bound. */
  readonly limit: number
}

/** A request let in at the front door: what it holds until it is answered. */
export interface DoorPass {
  /** Gives back its permit of the requests gate (once). */
  readonly leave: () => void
  /** A turn's room in the turns gate, for its `admit` to claim. */
  readonly turn: Reservation | undefined
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

/**
 * Room held in a gate for work that has not reached it yet: a turn's request
 * let in at the node's front door (`http/FrontDoor.ts`), whose turn takes its
 * permit only after authentication and decoding. Until then the room counts as
 * taken, so a door that admits a burst in one go does not let in more turns
 * than the gate will take (each one beyond would be refused late, after the
 * work the door is there to save). The turn's `admit` claims it; the request's
 * end cancels it if nothing did. Either happens once.
 */
export class Reservation {
  private open = true
  constructor(private readonly onEnd: () => void) {}

  /** Turns the room into the permit of the `admit` that asks: `true` once, if not cancelled. */
  claim(): boolean {
    if (!this.open) return false
    this.open = false
    this.onEnd()
    return true
  }

  /** Gives the room back, unless it was claimed. */
  cancel(): void {
    this.claim()
  }
}

const makeGate = (name: GateName, limit: number, saturation: Saturation) => {
  let inFlight = 0
  let reserved = 0
  const admitted = Metric.tagged(admissionAdmitted, "gate", name)
  const rejected = Metric.tagged(admissionRejected, "gate", name)
  const gauge = Metric.tagged(admissionInFlight, "gate", name)
  const overloaded = new Overloaded({ retryAfterSeconds: RETRY_AFTER_SECONDS, message: messages[name](limit) })
  /** The reservation an `admit` of this fiber claims (see `Reservation`). */
  const reservationRef = FiberRef.unsafeMake<Reservation | undefined>(undefined)

  const full = () => limit > 0 && inFlight + reserved >= limit
  /** Counts a refusal at `now` (ms, as the Clock gives it) and returns it. */
  const refusedAt = (now: number): Overloaded => {
    saturation.refused(now)
    rejected.unsafeUpdate(1, [])
    return overloaded
  }
  const refuse = Effect.clockWith((clock) => Effect.fail(refusedAt(clock.unsafeCurrentTimeMillis())))
  const enter = () => {
    inFlight++
    admitted.unsafeUpdate(1, [])
    gauge.unsafeModify(1, [])
  }
  const leave = () => {
    inFlight--
    gauge.unsafeModify(-1, [])
  }

  /**
   * Runs `effect` holding one of the gate's permits, released however it ends
   * (success, failure, defect, interruption); a full gate fails at once with
   * `Overloaded` and runs nothing. A reservation in the fiber
   * (`withReservation`) becomes the permit, whatever the gate's load.
   */
  const admit = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | Overloaded, R> =>
    Effect.uninterruptibleMask((restore) =>
      Effect.flatMap(FiberRef.get(reservationRef), (reservation): Effect.Effect<A, E | Overloaded, R> => {
        if (reservation?.claim() !== true && full()) return refuse
        enter()
        return Effect.ensuring(restore(effect), Effect.sync(leave))
      })
    )

  /** Fails as `admit` would if the gate is full now, without taking a permit. */
  const check: Effect.Effect<void, Overloaded> = Effect.suspend(() => full() ? refuse : Effect.void)

  /**
   * A permit taken outside any fiber, for the node's front door: the function
   * that gives it back (once, however often it is called), or the refusal,
   * counted as `admit` counts it. `now` is the time in ms.
   */
  const enterNow = (now: number): (() => void) | Overloaded => {
    if (full()) return refusedAt(now)
    enter()
    let left = false
    return () => {
      if (left) return
      left = true
      leave()
    }
  }

  /** Room held for an `admit` to come (see `Reservation`), or the refusal, counted. */
  const reserveNow = (now: number): Reservation | Overloaded => {
    if (full()) return refusedAt(now)
    reserved++
    return new Reservation(() => reserved--)
  }

  /** Runs `effect` with `reservation` for its `admit` to claim. */
  const withReservation = (reservation: Reservation) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.locally(effect, reservationRef, reservation)

  /** Gives back the reservation in the fiber, if any and unclaimed: its work will not `admit`. */
  const forgoReservation: Effect.Effect<void> = Effect.flatMap(
    FiberRef.get(reservationRef),
    (reservation) => Effect.sync(() => reservation?.cancel())
  )

  const status = (): GateStatus => ({ inFlight, reserved, limit })
  return { admit, check, enterNow, reserveNow, withReservation, forgoReservation, status, limit }
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
       * The front door's admission (`http/FrontDoor.ts`), decided without a
       * fiber before a request becomes an Effect: a permit of the requests
       * gate, released by the function it returns once the request is
       * answered, and for a turn, room held in the turns gate for its
       * `admit` (`withTurnReservation`); or the refusal, counted as the
       * gates count theirs. `now` is the time in ms.
       */
      enterNow: (isTurn: boolean, now: number): DoorPass | Overloaded => {
        const leave = requests.enterNow(now)
        if (leave instanceof Overloaded) return leave
        if (!isTurn) return { leave, turn: undefined }
        const turn = turns.reserveNow(now)
        if (turn instanceof Overloaded) {
          leave()
          return turn
        }
        return { leave, turn }
      },
      /** Runs a turn's request with the room the door held for its turn. */
      withTurnReservation: turns.withReservation,
      /**
       * Gives back the room the door held for this request's turn: for a
       * request that joins a turn already running (a repeat of its key), which
       * takes no permit of its own. Held until the request ends, each waiting
       * repeat counted as one more turn, and a few clients retrying turns they
       * had given up on filled the gate with turns that were not there.
       */
      forgoTurn: turns.forgoReservation,
      status
    } as const
  })
}) {}
