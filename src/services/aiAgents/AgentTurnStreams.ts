/**
 * The `?stream=true` form of conversation turns (playground and public):
 * `text/event-stream` instead of JSON. The turn is sent to its entity
 * exactly as the JSON form sends it (so it runs once however often it is
 * asked, and goes on if the client leaves), marked as streaming: the node
 * running it publishes its reply's text as the model writes it
 * (`TurnDeltas`, through the database, so any node can serve the stream of a
 * turn another node runs), and this node sends each piece as a
 * `message.delta` at once. The turn's steps are read back as they are stored
 * (every 200 ms, and before the text of a later model step): a model step's
 * text, as far as its pieces did not show it, then its `tool.call` events,
 * and a tool step's `tool.result` (tool events on the playground only). The
 * reply's own step waits for the turn's end, so its pieces show it as it is
 * written; then whatever they did not show (all of it, for a repeat
 * answered from storage) is one more `message.delta`, and `message.done`
 * carries what the JSON form answers. If a node died mid-answer and its
 * successor wrote a step again, the stream shows no more text and
 * `message.done` is the reply. A failure after the stream began is an
 * `error` event. A comment line every 15 s keeps proxies from closing an
 * idle stream. Every other event has an id (`TurnStreamEvents`); given the
 * last one a lost stream showed (`Last-Event-ID`), the stream leaves out
 * what it showed.
 *
 * Failures before the turn is sent (a bad request, an unknown agent or
 * conversation) are ordinary HTTP errors.
 */
import { Cause, Effect, Either, Fiber, Option, Queue, Schema, Stream } from "effect"
import type { TurnGuardrailEvent } from "../../domain/aiAgents/AgentTurn.js"
import type { AgentTurnOutcome } from "../../domain/aiAgents/AgentTurnOutcome.js"
import { AgentTurnRequest, inputOf } from "../../domain/aiAgents/AgentTurnRequest.js"
import { visibleOutcomes } from "../../domain/aiAgents/guardrails/VisibleOutcomes.js"
import type { AiAgentToolId } from "../../domain/aiAgents/Ids.js"
import { LoopStep } from "../../domain/aiAgents/loop/LoopStep.js"
import { PlaygroundResult } from "../../domain/aiAgents/Playground.js"
import { PublicTurnResult } from "../../domain/aiAgents/PublicTurn.js"
import {
  emptyView,
  remainder,
  resumedView,
  seeDelta,
  type Seen,
  seeStoredText,
  type TurnDelta
} from "../../domain/aiAgents/TurnDelta.js"
import {
  DONE_EVENT_ID,
  inputEventId,
  resumeAt,
  type ResumePoint,
  SSE_HEARTBEAT,
  sseFrame,
  stepEvents,
  textEventId,
  toolEventId
} from "../../domain/aiAgents/TurnStreamEvents.js"
import { AgentConversationRepo } from "../../persistence/aiAgents/AgentConversationRepo.js"
import { Admission } from "../Admission.js"
import { AgentTurns, type PreparedTurn } from "./AgentTurns.js"
import { TurnDeltas } from "./TurnDeltas.js"

const POLL = "200 millis"
const HEARTBEAT = "15 seconds"

const decodeStep = Schema.decodeUnknownEither(LoopStep)
const encodePlayground = Schema.encodeSync(PlaygroundResult)
const encodePublic = Schema.encodeSync(PublicTurnResult)

const decodeRequest = Schema.decodeUnknownOption(AgentTurnRequest)

/** What a stream needs of its stored turn: its number, its tools and the guardrail hits on its message. */
interface StreamedTurn {
  readonly number: number
  /** The agent tools of the turn's snapshot, by name (built-ins have none): what `tool.call` events name as `toolId`. */
  readonly toolIds: ReadonlyMap<string, AiAgentToolId>
  /** The input guardrails' hits on the user's message (the entity judges it alike). */
  readonly inputEvents: ReadonlyArray<TurnGuardrailEvent>
}

const streamedTurn = (number: number, request: unknown): StreamedTurn =>
  Option.match(decodeRequest(request), {
    onNone: () => ({ number, toolIds: new Map(), inputEvents: [] }),
    onSome: (request) => ({
      number,
      toolIds: new Map(
        request.snapshot.tools.flatMap((tool) => tool.config.kind === "builtin" ? [] : [[tool.name, tool.id] as const])
      ),
      inputEvents: inputOf(request).events
    })
  })

/** The `error` event's code for a failure the JSON form would answer. */
const errorCode = (tag: string): "UpstreamFailed" | "Timeout" | "Overloaded" | "InternalError" =>
  tag === "UpstreamFailed"
    ? "UpstreamFailed"
    : tag === "NotReady"
    ? "Timeout"
    : tag === "Overloaded"
    ? "Overloaded"
    : "InternalError"

export class AgentTurnStreams extends Effect.Service<AgentTurnStreams>()(
  "parley/services/aiAgents/AgentTurnStreams",
  {
    effect: Effect.gen(function*() {
      const turns = yield* AgentTurns
      const deltas = yield* TurnDeltas
      const admission = yield* Admission
      const repo = yield* AgentConversationRepo

      /**
       * The frames of a prepared turn, ending after `message.done` or
       * `error`; from `resume` on when the client sent `Last-Event-ID`.
       */
      const frames = <A>(
        prepared: PreparedTurn<A>,
        showTools: boolean,
        encode: (result: A) => unknown,
        resume: ResumePoint | undefined
      ): Stream.Stream<string> =>
        Stream.unwrapScoped(Effect.gen(function*() {
          const payload = { ...prepared.payload, stream: true }
          const queue = yield* Queue.unbounded<string | null>()
          // One writer at a time: the stored steps' events and the reply's pieces keep their order.
          const lock = yield* Effect.makeSemaphore(1)
          // Listening before the turn is sent, so that no piece of its reply is missed.
          const pieces = yield* deltas.subscribe(payload.conversationId, payload.idempotencyKey)
          const sent = yield* Effect.forkScoped(Effect.either(turns.send(payload)))
          /** The last step read: steps 0 to `read` have been (steps are numbered from 0). */
          let read = -1
          let turn: StreamedTurn | undefined
          // A public stream shows each notice once.
          const noticed = new Set<string>()

          /**
           * The `guardrail` frames of hits not yet seen: the events on the
           * playground, the notices the end user may see otherwise; the `n`th
           * hit's id is `idOf(n)` whichever were seen.
           */
          const guardrailFrames = (
            events: ReadonlyArray<TurnGuardrailEvent>,
            idOf: (n: number) => string,
            seen: (n: number) => boolean
          ) =>
            Effect.forEach(events, (event, n) => {
              if (seen(n)) return Effect.void
              if (showTools) {
                return Effect.asVoid(queue.offer(sseFrame("guardrail", { type: "guardrail", ...event }, idOf(n))))
              }
              return Effect.forEach(visibleOutcomes([event]), (outcome) => {
                const key = `${outcome.stage}/${outcome.action}/${outcome.notice}`
                if (noticed.has(key)) return Effect.void
                noticed.add(key)
                return Effect.asVoid(queue.offer(sseFrame("guardrail", { type: "guardrail", ...outcome }, idOf(n))))
              }, { discard: true })
            }, { discard: true })

          /** Find the stored turn once; its message's guardrail hits are the stream's first events. */
          const findTurn = Effect.gen(function*() {
            if (turn !== undefined) return turn
            const found = yield* repo.turnByKey(payload.conversationId, payload.idempotencyKey)
            // Another body under this key is not this request's turn (the entity refuses it).
            if (Option.isNone(found) || found.value.bodyHash !== payload.bodyHash) return undefined
            turn = streamedTurn(found.value.turn, found.value.request)
            yield* guardrailFrames(turn.inputEvents, inputEventId, (n) => resume?.sawInputEvent(n) === true)
            return turn
          })
          let view = resume === undefined ? emptyView : resumedView(resume.textStep, resume.textShown)

          const showText = (step: number, seen: Seen) =>
            Effect.suspend(() => {
              view = seen.view
              return seen.text === ""
                ? Effect.void
                : queue.offer(
                  sseFrame("message.delta", { type: "message.delta", delta: seen.text }, textEventId(step, view.shown))
                )
            })

          /**
           * Offer the events of the steps stored since the last look: a model
           * step's text (what its pieces did not show), then its tool events.
           * The reply's own step (no tool calls: the last) waits for the turn's
           * end (`final`), so that its pieces, which may still be on their way,
           * show it as it was written.
           */
          const newSteps = (final: boolean) =>
            Effect.gen(function*() {
              const found = yield* findTurn
              if (found === undefined) return
              const { number, toolIds } = found
              for (const row of yield* repo.stepsAfter(payload.conversationId, number, read)) {
                // Parallel tool calls are stored as they finish: a step after a gap waits for the gap to fill.
                if (row.step !== read + 1) break
                const step = decodeStep(row.data)
                if (
                  !final && Either.isRight(step) && step.right._tag === "ModelStep" && step.right.toolCalls.length === 0
                ) {
                  break
                }
                read = row.step
                if (Either.isLeft(step)) continue
                if (step.right._tag === "ModelStep") {
                  yield* showText(row.step, seeStoredText(view, row.step, row.epoch, step.right.text))
                }
                const events = showTools ? stepEvents(step.right, (name) => toolIds.get(name) ?? null) : []
                for (const [n, event] of events.entries()) {
                  if (resume?.sawToolEvent(row.step, n)) continue
                  yield* queue.offer(sseFrame(event.type, event, toolEventId(row.step, n)))
                }
                // The step's guardrail hits follow its tool events, numbered after them.
                const first = events.length
                yield* guardrailFrames(
                  step.right.guardrailEvents ?? [],
                  (k) => toolEventId(row.step, first + k),
                  (k) => resume?.sawToolEvent(row.step, first + k) === true
                )
              }
            })

          /**
           * Show one piece of the reply: first the steps stored before its
           * model step (they were stored before that step began), then the text.
           */
          const showPiece = (delta: TurnDelta) =>
            Effect.gen(function*() {
              yield* findTurn
              if (delta.step > read + 1) yield* newSteps(false)
              yield* showText(delta.step, seeDelta(view, delta))
            })

          // The pieces as they come; a piece taken is shown even if the forwarder is stopped meanwhile.
          const forwarder = yield* Effect.uninterruptibleMask((restore) =>
            Effect.flatMap(restore(Queue.take(pieces)), (delta) => lock.withPermits(1)(showPiece(delta)))
          ).pipe(Effect.forever, Effect.forkScoped)

          const end = (result: Either.Either<AgentTurnOutcome, { readonly _tag: string; readonly message: string }>) =>
            Either.match(result, {
              onLeft: (failure) =>
                queue.offer(sseFrame("error", {
                  type: "error",
                  code: errorCode(failure._tag),
                  message: failure.message,
                  traceId: payload.traceId
                })),
              onRight: (outcome) =>
                Effect.gen(function*() {
                  const answer = prepared.answer(outcome)
                  // What the last step's text did not show of the reply (a handoff's words when it had none).
                  const rest = remainder(view, outcome.message.content)
                  if (rest !== "") {
                    yield* queue.offer(
                      sseFrame(
                        "message.delta",
                        { type: "message.delta", delta: rest },
                        textEventId(
                          Math.max(view.step, 0),
                          Math.min(view.shown, outcome.message.content.length) +
                            rest.length
                        )
                      )
                    )
                  }
                  yield* queue.offer(
                    sseFrame("message.done", { type: "message.done", result: encode(answer) }, DONE_EVENT_ID)
                  )
                })
            })

          yield* Effect.gen(function*() {
            while (true) {
              const done = yield* Fiber.poll(sent)
              if (Option.isSome(done)) {
                // The pieces that came before the answer are shown, then the stored steps fill in what they did not.
                yield* Fiber.interrupt(forwarder)
                yield* Effect.forEach(yield* Queue.takeAll(pieces), showPiece, { discard: true })
                yield* newSteps(true)
                const exit = done.value
                if (exit._tag === "Success") {
                  yield* end(exit.value)
                } else {
                  yield* Effect.logError("A streamed agent turn failed unexpectedly", exit.cause)
                  yield* end(Either.left({ _tag: "InternalError", message: "The turn failed unexpectedly" }))
                }
                return
              }
              yield* lock.withPermits(1)(newSteps(false))
              // The turn's end or the next look at the stored steps, whichever is first.
              yield* Effect.raceFirst(Effect.asVoid(Fiber.await(sent)), Effect.sleep(POLL))
            }
          }).pipe(
            Effect.catchAllCause((cause) =>
              Cause.isInterruptedOnly(cause) ? Effect.void : Effect.zipRight(
                Effect.logError("A turn stream failed", cause),
                end(Either.left({ _tag: "InternalError", message: "The stream failed unexpectedly" }))
              )
            ),
            Effect.ensuring(queue.offer(null)),
            Effect.forkScoped
          )

          const main = Stream.fromQueue(queue).pipe(Stream.takeWhile((frame): frame is string => frame !== null))
          const heartbeat = Stream.tick(HEARTBEAT).pipe(Stream.drop(1), Stream.as(SSE_HEARTBEAT))
          return Stream.merge(main, heartbeat, { haltStrategy: "left" })
        }))

      /**
       * A prepared turn as a stream, after the event `lastEventId` names. A
       * full turns gate refuses before the stream begins (a plain 503); a
       * refusal in the race after is an event.
       */
      const streamed = <A, E, R>(
        prepare: Effect.Effect<PreparedTurn<A>, E, R>,
        showTools: boolean,
        encode: (result: A) => unknown,
        lastEventId: string | undefined
      ) =>
        Effect.zipRight(
          admission.checkTurn,
          Effect.map(prepare, (prepared) => frames(prepared, showTools, encode, resumeAt(lastEventId)))
        )

      /** A playground conversation turn as a stream (the request checked and the conversation found first). */
      const playground = (lastEventId: string | undefined, ...args: Parameters<typeof turns.preparePlayground>) =>
        streamed(turns.preparePlayground(...args), true, encodePlayground, lastEventId)

      /** A public turn as a stream: no tool events. */
      const publicTurn = (lastEventId: string | undefined, ...args: Parameters<typeof turns.preparePublic>) =>
        streamed(turns.preparePublic(...args), false, encodePublic, lastEventId)

      /**
       * A stateless transcript run as a stream: it runs first (its failures are
       * HTTP errors), then its tool calls, reply and result are sent at once.
       */
      const transcript = (...args: Parameters<typeof turns.playground>) =>
        Effect.map(turns.playground(...args), (result) =>
          Stream.fromIterable([
            ...result.toolCalls.flatMap((call) => [
              sseFrame("tool.call", {
                type: "tool.call",
                id: call.id,
                name: call.name,
                toolId: call.toolId,
                arguments: call.arguments
              }),
              sseFrame("tool.result", {
                type: "tool.result",
                id: call.id,
                name: call.name,
                status: call.status,
                result: call.result,
                error: call.error,
                durationMs: call.durationMs
              })
            ]),
            ...(result.message.content === ""
              ? []
              : [sseFrame("message.delta", { type: "message.delta", delta: result.message.content })]),
            sseFrame("message.done", { type: "message.done", result: encodePlayground(result) })
          ]))

      return { playground, publicTurn, transcript } as const
    })
  }
) {}
