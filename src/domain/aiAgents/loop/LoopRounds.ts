/**
 * A turn's stored steps checked against the layout `LoopStep.ts` describes
 * and grouped by model step: each model step with the tool steps of its calls
 * in call order. The store may hand the steps back in any order (parallel
 * tools are written as they finish), so they are put in index order first;
 * "out of order" means indexes that do not fit the layout, and that is a
 * `LoopCorrupt` value, never a throw: it is a defect of whoever recorded the
 * steps, and the turn cannot go on from them.
 */
import { Either, Schema } from "effect"
import type { LoopStep, ModelStep, ToolStep } from "./LoopStep.js"

/** A turn's recorded steps do not fit together (a gap, a stray tool step, a duplicate index); the message says where. */
export class LoopCorrupt extends Schema.TaggedError<LoopCorrupt>()("LoopCorrupt", { message: Schema.String }) {}

/** A model step and, by call position, the tool step of each of its calls (undefined: not run yet). */
export interface LoopRound {
  readonly model: ModelStep
  readonly results: ReadonlyArray<ToolStep | undefined>
}

const corrupt = (message: string) => Either.left(new LoopCorrupt({ message }))

/** The index the next model step takes after `round`, once all its calls have run. */
export const indexAfter = (round: LoopRound): number => round.model.index + round.model.toolCalls.length + 1

/** The steps as rounds, or why they do not fit together. */
export const readRounds = (steps: ReadonlyArray<LoopStep>): Either.Either<ReadonlyArray<LoopRound>, LoopCorrupt> => {
  const ordered = [...steps].sort((a, b) => a.index - b.index)
  const rounds: Array<{ readonly model: ModelStep; readonly results: Array<ToolStep | undefined> }> = []
  for (const [position, step] of ordered.entries()) {
    if (position > 0 && ordered[position - 1].index === step.index) return corrupt(`two steps have index ${step.index}`)
    const current = rounds.at(-1)
    if (step._tag === "ModelStep") {
      if (current !== undefined) {
        if (current.model.toolCalls.length === 0) {
          return corrupt(`model step ${step.index} follows the answer of model step ${current.model.index}`)
        }
        const missing = current.results.findIndex((result) => result === undefined)
        if (missing >= 0) {
          return corrupt(
            `model step ${step.index} comes before tool step ${current.model.index + missing + 1} ` +
              `(call ${current.model.toolCalls[missing].id}) of model step ${current.model.index}`
          )
        }
      }
      const expected = current === undefined ? 0 : indexAfter(current)
      if (step.index !== expected) return corrupt(`model step ${step.index} is where step ${expected} belongs`)
      const ids = step.toolCalls.map((call) => call.id)
      if (new Set(ids).size !== ids.length) return corrupt(`model step ${step.index} repeats a tool call id`)
      rounds.push({ model: step, results: step.toolCalls.map(() => undefined) })
      continue
    }
    if (current === undefined) return corrupt(`tool step ${step.index} comes before any model step`)
    const place = step.index - current.model.index - 1
    const call = current.model.toolCalls[place]
    if (call === undefined) {
      return corrupt(`tool step ${step.index} answers call ${step.callId}, which no model step made`)
    }
    if (call.id !== step.callId || call.name !== step.name) {
      return corrupt(
        `tool step ${step.index} answers call ${step.callId} (${step.name}), but model step ` +
          `${current.model.index} made call ${call.id} (${call.name}) there`
      )
    }
    current.results[place] = step
  }
  return Either.right(rounds)
}
