import { Effect } from "effect"
import { localCluster } from "../../test/support/LocalCluster.js"
import { emptyDatabase } from "../../test/support/TestDatabase.js"
import { agentTarget, post } from "../support/Agents.js"
import { benchNodeEnv } from "../support/Parley.js"

const prog = Effect.gen(function*() {
  const { url: databaseUrl } = yield* emptyDatabase
  const cluster = yield* localCluster({
    nodes: 1,
    databaseUrl,
    env: { ...benchNodeEnv(), PARLEY_X: "1" }
  })
  const url = cluster.nodes[0]!.url
  const target = yield* agentTarget(url, databaseUrl, 20)
  const send = (n: number, run: string) => post(`${url}/v1/ai-agents/${target.slug}/playground`, {
    message: `question ${n}`, conversationId: target.conversations[n % 20]
  }, { authorization: `Bearer ${target.token}`, "idempotency-key": `${run}-${n}` })
  yield* Effect.promise(async () => {
    for (let n = 0; n < 5; n++) await send(n, "warm")
    const t = performance.now()
    for (let n = 0; n < 20; n++) await send(n, "seq")
    console.log("per turn ms", ((performance.now() - t) / 600).toFixed(1))
  })
})
Effect.runPromise(Effect.scoped(prog)).then(() => console.log("done"))
