import { HttpApi } from "@effect/platform"
import { Context, Option } from "effect"
import type { Access } from "../domain/Capability.js"
import { Api } from "./Api.js"
import { RequiredAccess } from "./RequiredAccess.js"

/**
 * The access each route requires, by `METHOD path` as the router matched it
 * (`GET /v1/agents/:agent_id`), read once from the contract's annotations.
 */
export const routeAccess: ReadonlyMap<string, Access> = (() => {
  const map = new Map<string, Access>()
  HttpApi.reflect(Api, {
    onGroup() {},
    onEndpoint({ endpoint }) {
      const access = Context.getOption(endpoint.annotations, RequiredAccess)
      if (Option.isSome(access)) map.set(`${endpoint.method} ${endpoint.path}`, access.value)
    }
  })
  return map
})()
