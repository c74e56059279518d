/**
 * The benchmark's three-step chain as a plain Node + `pg` program, the
 * baseline of `run.ts`: the same work per step (the JSONata transforms of
 * the chain's two transform workflows, the same POST to the loopback step
 * tool with an `idempotency-key`), and one row written per step (autocommit,
 * each its own WAL flush), between a run row inserted first and updated last.
 * No cluster, no activities, no step log beyond those rows.
 */
import jsonata from "jsonata"
import * as Crypto from "node:crypto"
import type Pg from "pg"

/** The chain's steps as the benchmark publishes them: what each transform computes, and the tool's step name. */
export const DOUBLE = "input.amount * 2"
export const LABEL = "\"call \" & $string(input.answer.call)"
export const TOOL_STEP = "notify"

/** The baseline's tables, in the benchmark's own database. */
export const createBaselineTables = (pg: Pg.Client) =>
  pg.query(`
    CREATE TABLE bench_runs (id uuid PRIMARY KEY, status text NOT NULL, input jsonb NOT NULL, output jsonb,
      created_at timestamptz NOT NULL, finished_at timestamptz);
    CREATE TABLE bench_steps (run_id uuid NOT NULL REFERENCES bench_runs (id), step int NOT NULL, output jsonb,
      finished_at timestamptz NOT NULL, PRIMARY KEY (run_id, step));
  `)

/** The three steps' own work, and the same steps with a row written per step. */
export const baseline = (pool: Pg.Pool, toolUrl: string) => {
  const double = jsonata(DOUBLE)
  const label = jsonata(LABEL)
  const call = async (key: string) => {
    const response = await fetch(toolUrl, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": key },
      body: JSON.stringify({ step: TOOL_STEP })
    })
    if (response.status !== 200) throw new Error(`the step tool answered ${response.status}`)
    return response.json()
  }

  /** The steps alone, as the chain's workflows compute them: each step's output is the next one's input. */
  const work = async (
    input: { amount: number },
    key: string,
    written?: (step: number, output: unknown) => Promise<void>
  ) => {
    const first = { value: await double.evaluate({ input }) }
    await written?.(1, first)
    const second = { step: TOOL_STEP, answer: await call(`${key}/2`) }
    await written?.(2, second)
    const third = { value: await label.evaluate({ input: second }) }
    await written?.(3, third)
    return third
  }

  /** One run: its row, the steps with one row each, its end. */
  const run = async (input: { amount: number }) => {
    const id = Crypto.randomUUID()
    await pool.query(
      `INSERT INTO bench_runs (id, status, input, created_at) VALUES ($1, 'running', $2, now())`,
      [id, JSON.stringify(input)]
    )
    const output = await work(
      input,
      id,
      (step, out) =>
        pool.query(`INSERT INTO bench_steps (run_id, step, output, finished_at) VALUES ($1, $2, $3, now())`, [
          id,
          step,
          JSON.stringify(out)
        ]).then(() => undefined)
    )
    await pool.query(`UPDATE bench_runs SET status = 'succeeded', output = $2, finished_at = now() WHERE id = $1`, [
      id,
      JSON.stringify(output)
    ])
    return output
  }

  return { work: (input: { amount: number }) => work(input, Crypto.randomUUID()), run } as const
}
