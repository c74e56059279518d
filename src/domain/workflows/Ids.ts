import { Schema } from "effect"

/** A graph workflow (the seed's `{id}` under `/v1/workflows`). */
export const WorkflowId = Schema.UUID.pipe(Schema.brand("WorkflowId"))
export type WorkflowId = typeof WorkflowId.Type

/** A published, immutable version of a graph workflow, counted from 1 per workflow. */
export const WorkflowVersionNumber = Schema.Number.pipe(
  Schema.int(),
  Schema.positive(),
  Schema.brand("WorkflowVersionNumber")
)
export type WorkflowVersionNumber = typeof WorkflowVersionNumber.Type

/** The `{version_id}` path parameter: a version number in its string form. */
export const WorkflowVersionParam = Schema.NumberFromString.pipe(Schema.compose(WorkflowVersionNumber))

const localId = (brand: string, what: string, example: string) =>
  Schema.String.pipe(
    Schema.pattern(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, {
      message: () => `${what} is 1 to 64 characters of A-Z, a-z, 0-9, '_' and '-', starting with a letter or digit`
    }),
    Schema.brand(brand),
    Schema.annotations({ identifier: brand, examples: [example as never] })
  )

/** A node of a workflow graph, unique within the graph and chosen by the editor (a UUID fits too). */
export const WorkflowNodeId = localId("WorkflowNodeId", "a node id", "fetch_order")
export type WorkflowNodeId = typeof WorkflowNodeId.Type

/** An edge of a workflow graph, unique within the graph. */
export const WorkflowEdgeId = localId("WorkflowEdgeId", "an edge id", "fetch_order-to-notify")
export type WorkflowEdgeId = typeof WorkflowEdgeId.Type

/** A simulator session: one conversational run of a workflow's draft (the `WorkflowSimSession` entity). */
export const WorkflowSimSessionId = Schema.UUID.pipe(Schema.brand("WorkflowSimSessionId"))
export type WorkflowSimSessionId = typeof WorkflowSimSessionId.Type

/** A workflow chain's row id; the API addresses chains by slug, runs and steps keep this id. */
export const ChainId = Schema.UUID.pipe(Schema.brand("ChainId"))
export type ChainId = typeof ChainId.Type

/** A step of a chain, unique within the chain; `next` and run logs refer to it. */
export const ChainStepId = localId("ChainStepId", "a step id", "triage")
export type ChainStepId = typeof ChainStepId.Type

/** One run of a chain (the seed's `{run_id}`): a durable workflow on the cluster. */
export const ChainRunId = Schema.UUID.pipe(Schema.brand("ChainRunId"))
export type ChainRunId = typeof ChainRunId.Type
