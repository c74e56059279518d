import type { HttpApiEndpoint } from "@effect/platform"
import { OpenApi } from "@effect/platform"
import { Context, Option } from "effect"

type Operation = Parameters<Context.Tag.Service<OpenApi.Transform>>[0]

/**
 * Add a change to an endpoint's OpenAPI operation, after any change already
 * annotated (an endpoint holds one `OpenApi.Transform`, so they must compose).
 */
export const transformOperation =
  (f: (operation: Operation) => Operation) => <E extends HttpApiEndpoint.HttpApiEndpoint.Any>(endpoint: E): E => {
    const self = endpoint as unknown as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
    const previous = Context.getOption(self.annotations, OpenApi.Transform)
    return self.annotate(
      OpenApi.Transform,
      Option.match(previous, { onNone: () => f, onSome: (g) => (operation: Operation) => f(g(operation)) })
    ) as unknown as E
  }
