import { Schema } from "effect"

/** A shared HTTP tool of a workspace, referenced by AI agents, flows and workflows. */
export const WorkspaceToolId = Schema.UUID.pipe(Schema.brand("WorkspaceToolId"))
export type WorkspaceToolId = typeof WorkspaceToolId.Type

/** A secret in the workspace vault. */
export const SecretId = Schema.UUID.pipe(Schema.brand("SecretId"))
export type SecretId = typeof SecretId.Type

/**
 * The name by which configuration refers to a vault secret (`OPENAI_KEY`,
 * `ZENDESK_TOKEN`); the value is resolved server-side and never returned.
 */
export const SecretName = Schema.String.pipe(
  Schema.pattern(/^[A-Z][A-Z0-9_]{0,63}$/, {
    message: () => "a secret name is 1 to 64 characters of A-Z, 0-9 and '_', starting with a letter"
  }),
  Schema.annotations({ identifier: "SecretName", examples: ["OPENAI_KEY"] })
)
export type SecretName = typeof SecretName.Type

/** A demo or contact-sales request sent through the public lead form. */
export const LeadId = Schema.UUID.pipe(Schema.brand("LeadId"))
export type LeadId = typeof LeadId.Type

/** One error report sent by a UI. */
export const ErrorReportId = Schema.UUID.pipe(Schema.brand("ErrorReportId"))
export type ErrorReportId = typeof ErrorReportId.Type
