/**
 * validate-publish: every problem of a draft graph, without publishing. Pure
 * and total: the graph is read as it is (a draft may be half-built), nothing
 * throws, and the work is near-linear in the graph (bounded by `MAX_NODES`,
 * `MAX_EDGES` and the check budget of its expressions). Problems come in a
 * fixed order (see `Problems.ordered`). What each check reports, and why at
 * its severity, is written at the top of its file:
 *
 * - Shape: trigger, output, dangling edges, unknown handles;
 * - Branches: missing branches, joins, loop bodies;
 * - Reachability and Cycles: unreachable nodes, dead ends, unbounded cycles;
 * - CompiledFields, ExpressionTypeChecks, Variables, VariableOrder,
 *   OutputSchemas: expressions, templates and the variables they read;
 * - References: tools, secrets, agents and the language model.
 */
import type { PublishProblem } from "../PublishProblem.js"
import type { WorkflowGraph } from "../WorkflowGraph.js"
import { branchesProblems } from "./Branches.js"
import { makeCheckBudget } from "./CheckBudget.js"
import { compileFields } from "./CompiledFields.js"
import { cycleProblems } from "./Cycles.js"
import { declarationsOf } from "./Declarations.js"
import { expressionTypeProblems } from "./ExpressionTypeChecks.js"
import { outputSchemaProblems } from "./OutputSchemas.js"
import { ordered } from "./Problems.js"
import { reachabilityProblems } from "./Reachability.js"
import { referenceProblems } from "./References.js"
import { shapeProblems } from "./Shape.js"
import { topologyOf } from "./Topology.js"
import { variableOrderProblems } from "./VariableOrder.js"
import { unknownVariableProblems } from "./Variables.js"
import type { WorkflowReferences } from "./WorkflowReferences.js"

/** Every problem of `graph` against the workspace's `references`: errors block publishing, warnings do not. */
export const validateWorkflow = (
  graph: WorkflowGraph,
  references: WorkflowReferences
): ReadonlyArray<PublishProblem> => {
  const topology = topologyOf(graph)
  const declarations = declarationsOf(topology)
  const compiled = compileFields(topology.nodes, makeCheckBudget())
  return ordered(
    [
      ...shapeProblems(topology),
      ...branchesProblems(topology),
      ...reachabilityProblems(topology),
      ...cycleProblems(topology),
      ...compiled.problems,
      ...expressionTypeProblems(topology.nodes, compiled.fields, declarations),
      ...unknownVariableProblems(topology, declarations, compiled.fields),
      ...variableOrderProblems(topology, declarations, compiled.fields),
      ...outputSchemaProblems(topology.nodes),
      ...referenceProblems(topology.nodes, references)
    ],
    topology.order
  )
}
