/**
 * What an eval case must satisfy beyond its schema, checked when it is
 * written: each `regex` compiles on Parley's linear-time engine with its
 * flags, and each `json-schema` uses the JSON Schema subset Parley validates
 * (the tools' input schema subset, `ToolInputSchemaRules.ts`). Each problem
 * names its field (`expectations.2.pattern`).
 */
import type { FieldProblem } from "../../FieldProblem.js"
import { patternRefusal } from "../../patterns/UserPattern.js"
import { schemaProblems } from "../../workspace/ToolInputSchemaRules.js"
import type { EvalExpectation } from "../EvalExpectation.js"

/** The problems of a case's expectations (empty when none). */
export const evalCaseProblems = (expectations: ReadonlyArray<EvalExpectation>): ReadonlyArray<FieldProblem> =>
  expectations.flatMap((expectation, index): ReadonlyArray<FieldProblem> => {
    switch (expectation.kind) {
      case "regex": {
        const refusal = patternRefusal(expectation.pattern, expectation.flags)
        return refusal === undefined
          ? []
          : [{ field: `expectations.${index}.pattern`, message: `the pattern cannot be used: ${refusal}` }]
      }
      case "json-schema":
        return schemaProblems(expectation.schema, `expectations.${index}.schema`)
      default:
        return []
    }
  })
