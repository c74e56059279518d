/**
 * A flow as an uncompressed draw.io file: the main flow on the first page,
 * each sub-flow on a page of its own, shapes by node type at the nodes'
 * positions. Each cell is an `<object>` whose `parley` attribute carries the
 * node's type and data or the edge's route, so an import gives the same graph
 * back; draw.io keeps such attributes when the diagram is edited.
 */
import type { Flow } from "../assistants/Flow.js"
import type { FlowNode } from "../assistants/FlowNode.js"
import { edgeText, nodeText, routeOf } from "./NodeSummary.js"

const styles: Record<FlowNode["type"], string> = {
  start: "ellipse;whiteSpace=wrap;html=1;fillColor=#d5e8d4;",
  end: "ellipse;shape=doubleEllipse;whiteSpace=wrap;html=1;fillColor=#f8cecc;",
  message: "rounded=1;whiteSpace=wrap;html=1;",
  question: "shape=manualInput;whiteSpace=wrap;html=1;",
  "intent-router": "rhombus;whiteSpace=wrap;html=1;fillColor=#e1d5e7;",
  condition: "rhombus;whiteSpace=wrap;html=1;fillColor=#fff2cc;",
  "set-variable": "shape=process;whiteSpace=wrap;html=1;",
  http: "shape=process;whiteSpace=wrap;html=1;fillColor=#dae8fc;",
  ai: "shape=hexagon;whiteSpace=wrap;html=1;fillColor=#dae8fc;",
  handoff: "shape=step;whiteSpace=wrap;html=1;fillColor=#ffe6cc;",
  jump: "shape=offPageConnector;whiteSpace=wrap;html=1;"
}

const escape = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(
    /\n/g,
    "&#10;"
  )

const page = (id: string, name: string, meta: unknown, nodes: ReadonlyArray<FlowNode>, flow: Pick<Flow, "edges">) => {
  const ids = new Set(nodes.map((node) => node.id))
  const cells = [`<mxCell id="${id}-root" />`, `<mxCell id="${id}-layer" parent="${id}-root" />`]
  for (const node of nodes) {
    const meta = { id: node.id, type: node.type, label: node.label, data: node.data }
    cells.push(
      `<object id="${node.id}" label="${escape(nodeText(node))}" parley="${escape(JSON.stringify(meta))}">` +
        `<mxCell style="${styles[node.type]}" vertex="1" parent="${id}-layer">` +
        `<mxGeometry x="${node.position.x}" y="${node.position.y}" width="160" height="60" as="geometry" />` +
        `</mxCell></object>`
    )
  }
  for (const edge of flow.edges.filter((e) => ids.has(e.source) && ids.has(e.target))) {
    const meta = { id: edge.id, ...routeOf(edge), label: edge.label }
    cells.push(
      `<object id="${edge.id}" label="${escape(edgeText(edge))}" parley="${escape(JSON.stringify(meta))}">` +
        `<mxCell style="edgeStyle=orthogonalEdgeStyle;rounded=0;html=1;" edge="1" parent="${id}-layer" source="${edge.source}" target="${edge.target}">` +
        `<mxGeometry relative="1" as="geometry" /></mxCell></object>`
    )
  }
  return `  <diagram id="${escape(id)}" name="${escape(name)}"${
    meta === undefined ? "" : ` parley="${escape(JSON.stringify(meta))}"`
  }>\n` +
    `    <mxGraphModel grid="1" gridSize="10" page="1"><root>\n      ${
      cells.join("\n      ")
    }\n    </root></mxGraphModel>\n  </diagram>`
}

export const exportDrawio = (flow: Pick<Flow, "nodes" | "edges" | "subflows">, title: string): string => {
  const pages = [
    page("main", title, undefined, flow.nodes.filter((n) => n.subflow === undefined), flow),
    ...flow.subflows.map((subflow) =>
      page(subflow.id, subflow.name, subflow, flow.nodes.filter((n) => n.subflow === subflow.id), flow)
    )
  ]
  return `<mxfile host="parley" type="device">\n${pages.join("\n")}\n</mxfile>\n`
}
