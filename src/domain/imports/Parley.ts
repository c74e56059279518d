/**
 * Parley's own document (`format: "parley"`): read strictly against
 * `ParleyDocument`, then checked like every other import.
 */
import { Either, Schema } from "effect"
import { ParleyDocument } from "../assistants/ParleyDocument.js"
import { type Conversion, finishDraft, schemaProblem, unreadable } from "./ImportDraft.js"
import { makeReportBuilder } from "./ImportReportBuilder.js"

const decode = Schema.decodeUnknownEither(ParleyDocument)

export const importParley = (content: string, file?: string): Conversion => {
  const location = file === undefined ? {} : { location: { file } }
  let json: unknown
  try {
    json = JSON.parse(content)
  } catch (error) {
    return unreadable([{ code: "unreadable", message: `Not JSON: ${(error as Error).message}`, ...location }])
  }
  const version = (json as { version?: unknown } | null)?.version
  if (typeof version === "number" && version !== 1) {
    return unreadable([{
      code: "unreadable",
      message: `Parley document version ${version} is not known (1 is)`,
      ...location
    }])
  }
  const document = decode(json, { onExcessProperty: "error" })
  if (Either.isLeft(document)) {
    return unreadable([{
      code: "unreadable",
      message: `Not a Parley document: ${schemaProblem(document.left)}`,
      ...location
    }])
  }
  const report = makeReportBuilder()
  const { flow, intents } = document.right
  return finishDraft(
    {
      nodes: flow.nodes,
      edges: flow.edges.map(({ id, label, source, target, ...route }) => ({
        id,
        source,
        target,
        label,
        route: route as Record<string, string>
      })),
      subflows: flow.subflows,
      intents
    },
    report
  )
}
