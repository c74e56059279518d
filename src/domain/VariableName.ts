import { Schema } from "effect"

/**
 * The name of a variable: of an Assistant conversation, a workflow run, or an
 * AI agent's instructions (`{{name}}`). 1 to 64 of A-Z, a-z, 0-9 and `_`, not
 * starting with a digit, so it reads the same in a template and in a JSONata
 * expression (`vars.<name>`).
 */
export const VariableName = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, {
    message: () => "a variable name is 1 to 64 characters of A-Z, a-z, 0-9 and '_', not starting with a digit"
  }),
  Schema.annotations({ identifier: "VariableName", examples: ["email" as never] })
)
export type VariableName = typeof VariableName.Type
