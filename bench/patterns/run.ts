/**
 * The patterns benchmark: how long one search takes with the engine authors'
 * patterns run on (`UserPattern`, RE2 through re2js), next to the native
 * `RegExp` they ran on before, for hostile patterns (catastrophic for a
 * backtracking engine) and ordinary ones, on texts of 1,000, 10,000 and
 * 100,000 characters. Two operations each: a search (the first match and its
 * groups, as slots and JSONata's `$match` make it) and a whole-text test (as
 * a question's validation makes it).
 *
 * `RegExp` runs in a child process killed after `BUDGET_MS`, so a
 * catastrophic pattern cannot hang the benchmark; a size is skipped once a
 * smaller one ran out of budget. The RE2 side runs in this process, without
 * the work bound (`MAX_MATCH_WORK`) so the figures show the engine itself.
 * Each figure is the median of 3 runs after one warm-up run on the same text
 * (the RegExp warm-up included, so a pattern that times out did so on its
 * first run). No database.
 * Run with `npm run bench:patterns`.
 */
import { Either } from "effect"
import { spawnSync } from "node:child_process"
import { cpus, loadavg } from "node:os"
import { compileUserPattern, type UserPattern } from "../../src/domain/patterns/UserPattern.js"

const BUDGET_MS = 2_000
const SIZES = [1_000, 10_000, 100_000]

interface Case {
  readonly name: string
  readonly pattern: string
  /** A text of `size` characters: for a hostile pattern, one that does not match (the slow case). */
  readonly text: (size: number) => string
  readonly hostile: boolean
  /** Flags for both engines (ECMAScript has no inline `(?i)`). */
  readonly flags?: string
}

const fill = (unit: string, size: number, tail = "") =>
  unit.repeat(Math.ceil(size / unit.length)).slice(0, size - tail.length) + tail

const EMAIL =
  "^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$"

const CASES: ReadonlyArray<Case> = [
  { name: "nested plus", pattern: "(a+)+$", text: (n) => fill("a", n, "!"), hostile: true },
  { name: "alternation of equals", pattern: "(a|a)*b", text: (n) => fill("a", n), hostile: true },
  { name: "words and spaces", pattern: "(\\w+\\s?)*$", text: (n) => fill("word ", n, "!"), hostile: true },
  { name: "digits star", pattern: "^(\\d+)*$", text: (n) => fill("1", n, "x"), hostile: true },
  { name: "twenty wildcards", pattern: "(.*a){20}", text: (n) => fill("a", 19) + fill("b", n - 19), hostile: true },
  { name: "x+x+", pattern: "(x+x+)+y", text: (n) => fill("x", n), hostile: true },
  { name: "nested alternations", pattern: "((a|b|ab)*|c)*d", text: (n) => fill("ab", n), hostile: true },
  { name: "classic email", pattern: EMAIL, text: (n) => fill("a", n, "!"), hostile: true },
  {
    name: "order number",
    pattern: "[A-Z]{2}-\\d{5}",
    text: (n) => fill("my order is late ", n, "AB-12345"),
    hostile: false
  },
  {
    name: "email in text",
    pattern: "[\\w.+-]+@[\\w-]+\\.[\\w.]+",
    text: (n) => fill("write to me ", n, "ann@example.com"),
    hostile: false
  },
  {
    name: "greeting",
    pattern: "\\b(hello|hi|hey)\\b",
    flags: "i",
    text: (n) => fill("well then ", n, "Hello"),
    hostile: false
  },
  { name: "yes or no", pattern: "^(?:yes|no)$", text: (n) => fill("y", n), hostile: false }
]

type Operation = "search" | "whole"

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/**
 * One native `RegExp` search in a child process, like the RE2 side: the
 * median of 3 runs after a warm-up, in milliseconds (of the runs that ended
 * within the budget; the warm-up's alone when only it did), or `undefined`
 * when not even the warm-up ended.
 */
const nativeMillis = (pattern: string, flags: string, text: string, operation: Operation): number | undefined => {
  const program = `
    const { pattern, flags, text, operation } = JSON.parse(require("node:fs").readFileSync(0, "utf8"))
    const regex = new RegExp(operation === "whole" ? "^(?:" + pattern + ")$" : pattern, flags)
    for (let index = 0; index < 4; index++) {
      const started = performance.now()
      regex.exec(text)
      require("node:fs").writeSync(1, (performance.now() - started) + "\\n")
    }
  `
  const child = spawnSync(process.execPath, ["-e", program], {
    input: JSON.stringify({ pattern, flags, text, operation }),
    timeout: BUDGET_MS,
    killSignal: "SIGKILL",
    encoding: "utf8"
  })
  if (child.status !== 0 && child.signal !== "SIGKILL") {
    throw new Error(`RegExp /${pattern}/${flags} failed: ${child.stderr}`)
  }
  const runs = child.stdout.split("\n").filter((line) => line !== "").map(Number)
  return runs.length === 0 ? undefined : runs.length === 1 ? runs[0] : median(runs.slice(1))
}

/** One search or whole-text test on RE2: the median of 3 runs after a warm-up. */
const linearMillis = (pattern: UserPattern, whole: UserPattern, text: string, operation: Operation): number => {
  const run = () => operation === "whole" ? whole.search(text, 0) : pattern.search(text, 0)
  run()
  const runs: Array<number> = []
  for (let index = 0; index < 3; index++) {
    const started = performance.now()
    run()
    runs.push(performance.now() - started)
  }
  return median(runs)
}

const compiled = (source: string, flags: string): UserPattern => {
  const pattern = compileUserPattern(source, flags)
  if (Either.isLeft(pattern)) throw new Error(`/${source}/: ${pattern.left}`)
  return pattern.right
}

const format = (millis: number | undefined) =>
  millis === undefined ? `> ${BUDGET_MS / 1000} s` : millis < 1 ? `${millis.toFixed(2)} ms` : `${millis.toFixed(0)} ms`

const main = () => {
  console.log(
    `patterns benchmark: ${cpus().length} CPUs (${cpus()[0]?.model ?? "unknown"}), Node ${process.version}, ` +
      `load average ${loadavg().map((load) => load.toFixed(2)).join(" ")}`
  )
  console.log(`RegExp in a child process killed after ${BUDGET_MS} ms; RE2 (re2js) median of 3 after a warm-up\n`)
  console.log("| pattern | kind | operation | size | RegExp | RE2 | RE2 program size |")
  console.log("|---|---|---|---|---|---|---|")
  for (const { flags = "", hostile, name, pattern, text } of CASES) {
    const linear = compiled(pattern, flags)
    const whole = compiled(`^(?:${pattern})$`, flags)
    for (const operation of ["search", "whole"] as const) {
      let overBudget = false
      for (const size of SIZES) {
        const input = text(size)
        const skipped: boolean = overBudget
        const native: number | undefined = skipped ? undefined : nativeMillis(pattern, flags, input, operation)
        overBudget ||= native === undefined
        const ours = linearMillis(linear, whole, input, operation)
        console.log(
          `| \`/${pattern.length > 40 ? `${pattern.slice(0, 37)}...` : pattern}/${flags}\` (${name}) | ` +
            `${hostile ? "hostile" : "ordinary"} | ${operation} | ${size.toLocaleString("en")} | ` +
            `${skipped ? "not run" : format(native)} | ${format(ours)} | ` +
            `${(operation === "whole" ? whole : linear).size} |`
        )
      }
    }
  }
}

main()
