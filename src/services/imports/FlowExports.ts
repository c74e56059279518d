/**
 * `GET /flow/export`: the draft (flow and intents, of one revision) as a
 * draw.io diagram, a Mermaid flowchart or a Parley document.
 */
import { Effect } from "effect"
import type { AssistantId } from "../../domain/assistants/Assistant.js"
import type { FlowExport, FlowExportFormat } from "../../domain/assistants/FlowExport.js"
import { exportDrawio } from "../../domain/exports/DrawioExport.js"
import { exportMermaid } from "../../domain/exports/MermaidExport.js"
import { exportParley } from "../../domain/exports/ParleyExport.js"
import type { WorkspaceId } from "../../domain/identity/Ids.js"
import { Assistants } from "../assistants/Assistants.js"

const fileStem = (name: string) =>
  name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60) || "assistant"

export class FlowExports extends Effect.Service<FlowExports>()("parley/services/FlowExports", {
  effect: Effect.gen(function*() {
    const assistants = yield* Assistants
    const exportFlow = Effect.fn("FlowExports.export")(
      function*(workspaceId: WorkspaceId, agentId: AssistantId, format: FlowExportFormat) {
        const { assistant, flow, intents } = yield* assistants.draftOf(workspaceId, agentId)
        const stem = fileStem(assistant.name)
        switch (format) {
          case "drawio":
            return {
              format,
              revision: flow.revision,
              contentType: "application/vnd.jgraph.mxfile",
              fileName: `${stem}.drawio`,
              content: exportDrawio(flow, assistant.name)
            } satisfies FlowExport
          case "mermaid":
            return {
              format,
              revision: flow.revision,
              contentType: "text/vnd.mermaid",
              fileName: `${stem}.mmd`,
              content: exportMermaid(flow)
            } satisfies FlowExport
          case "parley":
            return {
              format,
              revision: flow.revision,
              contentType: "application/json",
              fileName: `${stem}.parley.json`,
              content: exportParley(assistant, flow, intents)
            } satisfies FlowExport
        }
      }
    )
    return { exportFlow } as const
  })
}) {}
