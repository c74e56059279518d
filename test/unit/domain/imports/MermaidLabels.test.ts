/**
 * Mermaid labels as Mermaid reads them: in quotes (brackets and commas are
 * text), Markdown strings, and either running over several lines of the
 * source, which make one node with its whole label (line breaks kept in the
 * message, folded into spaces in the node's one-line label) and never extra
 * nodes or a lost link; `<br>` is a line break; a quote that never closes
 * joins nothing.
 */
import { describe, expect, it } from "@effect/vitest"
import { importMermaid } from "../../../../src/domain/imports/Mermaid.js"
import { codesOf, dataOf, edgesOf, mapped, nodesOf } from "./Conversions.js"

describe("Mermaid labels", () => {
  it("reads quoted node and link labels: brackets, commas and link-like text inside are text", () => {
    const result = mapped(importMermaid(`flowchart TD
  A["Hello, world (x) [y] {z}"] -->|"yes, go"| B("B --> not a link")
  A -- "it's -- fine" --> C{"Pick (one)"}`))
    expect(nodesOf(result).filter((n) => !n.startsWith("start"))).toEqual([
      "A message Hello, world (x) [y] {z}",
      "B message B --> not a link",
      "C message Pick (one)"
    ])
    expect(edgesOf(result)).toEqual(expect.arrayContaining(["A>B next \"yes, go\"", "A>C next \"it's -- fine\""]))
    expect(codesOf(result)).not.toContain("unreadable")
  })

  it("makes one node of a quoted label over several lines, its line breaks kept in the message", () => {
    const result = mapped(importMermaid(`flowchart TD
  A["Welcome to
     the shop,
     friend"] --> B
  B --> C`))
    expect(nodesOf(result)).toEqual([
      "start start Start",
      "A message Welcome to the shop, friend",
      "B message B",
      "C message C"
    ])
    expect(dataOf(result, "A")).toEqual({ text: "Welcome to\nthe shop,\nfriend", buttons: [] })
    expect(edgesOf(result)).toEqual(["A>B next", "B>C next", "start>A next"])
    expect(result.flow.nodes.find((n) => n.id === "A")!.label).toBe("Welcome to the shop, friend")
    expect(codesOf(result)).not.toContain("unreadable")
  })

  it("reads Markdown strings over several lines as their text, emphasis dropped and snake_case kept", () => {
    const result = mapped(importMermaid(`flowchart LR
  A["\`**Order** placed
  for _you_ and user_name\`"] --> B["\`one *line*\`"]`))
    expect(dataOf(result, "A").text).toBe("Order placed\nfor you and user_name")
    expect(dataOf(result, "B").text).toBe("one line")
    expect(edgesOf(result)).toContain("A>B next")
    expect(nodesOf(result)).toHaveLength(3)
  })

  it("keeps a link whose quoted label runs over lines, with its whole label, and the statement's line for warnings", () => {
    const result = mapped(importMermaid(`flowchart TD
  Q{Ready?} -- "yes,
  let's go" --> A
  Q -->|"no,
  later"| B
  A --o C`))
    expect(edgesOf(result)).toEqual(expect.arrayContaining([
      "Q>A intent:yes_let_s_go \"yes, let's go\"",
      "Q>B intent:no_later \"no, later\"",
      "A>C next"
    ]))
    expect(result.report.warnings.find((w) => w.message.includes("--o"))?.location?.line).toBe(6)
  })

  it("turns <br> and <br/> into line breaks, in quoted and bare labels", () => {
    const result = mapped(importMermaid(`flowchart TD
  A["one<br>two<br/>three"] --> B[four<br />five]
  B -->|six<br>seven| C`))
    expect(dataOf(result, "A").text).toBe("one\ntwo\nthree")
    expect(dataOf(result, "B").text).toBe("four\nfive")
    expect(edgesOf(result)).toContain("B>C next \"six seven\"")
  })

  it("ends a label's comment-free reading at its closing quote: %% inside quotes is text, after them a comment", () => {
    const result = mapped(importMermaid(`flowchart TD
  A["100%% sure;
  really"] --> B %% A --> Z`))
    expect(dataOf(result, "A").text).toBe("100%% sure;\nreally")
    expect(nodesOf(result).some((n) => n.startsWith("Z"))).toBe(false)
  })

  it("joins nothing for a quote that never closes, warning that line alone, and stays linear on many of them", () => {
    const result = mapped(importMermaid(`flowchart TD
  A["never closed --> B
  C --> D
  D --> E`))
    expect(edgesOf(result).filter((e) => !e.startsWith("start>"))).toEqual(["C>D next", "D>E next"])
    expect(result.report.warnings.filter((w) => w.code === "unreadable").map((w) => w.location?.line)).toEqual([2])

    const started = Date.now()
    const many = `flowchart TD\n${`X["open\n${"P --> Q\n".repeat(60)}`.repeat(500)}`
    mapped(importMermaid(many))
    expect(Date.now() - started).toBeLessThan(5_000)
  })
})
