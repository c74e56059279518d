import { Schema } from "effect"

/**
 * One broken rule of a request that passed its schema (a rule across fields,
 * or one that needs other resources), with the dotted path of the field it concerns.
 */
export const FieldProblem = Schema.Struct({
  field: Schema.String,
  message: Schema.String
}).annotations({ identifier: "FieldProblem" })
export type FieldProblem = typeof FieldProblem.Type
