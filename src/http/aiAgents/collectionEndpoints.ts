/**
 * The seven endpoints every collection of an AI agent's draft has (DESIGN.md
 * §4): list and create on `/ai-agents/{slug}/<collection>`; get, update and
 * delete on `/ai-agents/{slug}/<collection>/{<item param>}`; and, as the seed
 * lists, update and delete on the collection path itself, naming the item by
 * `id` in the body (PATCH) or the query (DELETE). Each group adds its own
 * errors and extra operations to these.
 */
import { HttpApiEndpoint, OpenApi } from "@effect/platform"
import type { HttpMethod } from "@effect/platform"
import { Schema } from "effect"
import { AiAgentNotFound } from "../../domain/aiAgents/AiAgent.js"
import type { Capability } from "../../domain/Capability.js"
import { Page } from "../../domain/Pagination.js"
import { IfMatchHeaders, RevisionConflict } from "../../domain/Revision.js"
import { Slug } from "../../domain/Slug.js"
import { requires } from "../RequiredAccess.js"

/** The path of every route under one agent: its slug. */
export const AgentPath = Schema.Struct({ slug: Slug })

/** What a collection is made of: its path, item id and parameter, item schemas and not-found error. */
export interface CollectionSpec<
  ItemParam extends string,
  Id,
  Item,
  Detail,
  ListQuery,
  Create,
  Patch,
  PatchById,
  NotFound
> {
  /** The path segment under `/ai-agents/{slug}`, e.g. `tasks`. */
  readonly path: string
  /** The name of the item path parameter, e.g. `task_id` (the seed's `tid` and `eid` for tools and evals). */
  readonly itemParam: ItemParam
  readonly id: Id
  /** Singular and plural nouns for the operation summaries (`task`, `tasks`). */
  readonly noun: readonly [singular: string, plural: string]
  readonly item: Item
  /** What `GET /{item param}` answers; usually `item`. */
  readonly detail: Detail
  readonly listParams: ListQuery
  readonly create: Create
  readonly patch: Patch
  readonly patchById: PatchById
  readonly notFound: NotFound
  /** The capability that writes need; `ai-agent.write` unless the collection is more sensitive. */
  readonly writeAccess?: Capability
}

type StringRecord = Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

/** The endpoints of one collection, typed by its schemas. */
export const collectionEndpoints = <
  const ItemParam extends string,
  Id extends Schema.Schema<any, string>,
  Item extends Schema.Schema.Any,
  Detail extends Schema.Schema.Any,
  ListQuery extends Schema.Schema<any, StringRecord>,
  Create extends Schema.Schema.Any,
  Patch extends Schema.Schema.Any,
  PatchById extends Schema.Schema.Any,
  NotFound extends Schema.Schema.Any
>(spec: CollectionSpec<ItemParam, Id, Item, Detail, ListQuery, Create, Patch, PatchById, NotFound>) => {
  const collection = `/ai-agents/:slug/${spec.path}` as const
  const single = `${collection}/:${spec.itemParam}` as const
  // The generic checks of `setPath`/`setUrlParams` cannot see through `Id`; a branded UUID encodes to a string.
  type ItemPath = Schema.Struct<{ readonly slug: typeof Slug } & { readonly [K in ItemParam]: Id }>
  const ItemPath = Schema.Struct({ slug: Slug, [spec.itemParam]: spec.id }) as unknown as
    & ItemPath
    & HttpApiEndpoint.HttpApiEndpoint.ValidatePath<ItemPath>
  type ByIdParams = Schema.Struct<{ readonly id: Id }>
  const ByIdParams = Schema.Struct({ id: spec.id }) as unknown as
    & ByIdParams
    & HttpApiEndpoint.HttpApiEndpoint.ValidateUrlParams<ByIdParams>
  const [one, many] = spec.noun
  return {
    list: HttpApiEndpoint.get("list", collection)
      .setPath(AgentPath)
      .setUrlParams(spec.listParams as ListQuery & HttpApiEndpoint.HttpApiEndpoint.ValidateUrlParams<ListQuery>)
      .addSuccess(Page(spec.item))
      .addError(AiAgentNotFound)
      .annotate(OpenApi.Summary, `List the agent's ${many}`)
      .pipe(requires("ai-agent.read")),
    create: HttpApiEndpoint.post("create", collection)
      .setPath(AgentPath)
      .setPayload(spec.create)
      .addSuccess(spec.item, { status: 201 })
      .addError(AiAgentNotFound)
      .annotate(OpenApi.Summary, `Add a ${one}`)
      .pipe(requires(spec.writeAccess ?? "ai-agent.write")),
    get: HttpApiEndpoint.get("get", single)
      .setPath<ItemPath>(ItemPath)
      .addSuccess(spec.detail)
      .addError(AiAgentNotFound)
      .addError(spec.notFound)
      .annotate(OpenApi.Summary, `Get a ${one}`)
      .pipe(requires("ai-agent.read")),
    update: HttpApiEndpoint.patch("update", single)
      .setPath<ItemPath>(ItemPath)
      .setPayload(spec.patch)
      .addSuccess(spec.item)
      .addError(AiAgentNotFound)
      .addError(spec.notFound)
      .annotate(OpenApi.Summary, `Update a ${one}`)
      .pipe(requires(spec.writeAccess ?? "ai-agent.write")),
    delete: HttpApiEndpoint.del("delete", single)
      .setPath<ItemPath>(ItemPath)
      .addError(AiAgentNotFound)
      .addError(spec.notFound)
      .annotate(OpenApi.Summary, `Delete a ${one}`)
      .pipe(requires(spec.writeAccess ?? "ai-agent.write")),
    updateById: HttpApiEndpoint.patch("updateById", collection)
      .setPath(AgentPath)
      .setPayload(spec.patchById)
      .addSuccess(spec.item)
      .addError(AiAgentNotFound)
      .addError(spec.notFound)
      .annotate(OpenApi.Summary, `Update a ${one} named by id in the body`)
      .annotate(OpenApi.Description, `The same as \`PATCH /ai-agents/{slug}/${spec.path}/{${spec.itemParam}}\`.`)
      .pipe(requires(spec.writeAccess ?? "ai-agent.write")),
    deleteById: HttpApiEndpoint.del("deleteById", collection)
      .setPath(AgentPath)
      .setUrlParams<ByIdParams>(ByIdParams)
      .addError(AiAgentNotFound)
      .addError(spec.notFound)
      .annotate(OpenApi.Summary, `Delete a ${one} named by ?id=`)
      .annotate(OpenApi.Description, `The same as \`DELETE /ai-agents/{slug}/${spec.path}/{${spec.itemParam}}\`.`)
      .pipe(requires(spec.writeAccess ?? "ai-agent.write"))
  }
}

/**
 * A write to the agent's draft: it may send `If-Match: <revision>` (the
 * agent's revision) and answers 409 `RevisionConflict` when that is stale.
 */
export const draftWrite = <
  Name extends string,
  Method extends HttpMethod.HttpMethod,
  Path,
  UrlParams,
  Payload,
  Success,
  Error,
  R,
  RE
>(
  endpoint: HttpApiEndpoint.HttpApiEndpoint<Name, Method, Path, UrlParams, Payload, never, Success, Error, R, RE>
) => endpoint.setHeaders(IfMatchHeaders).addError(RevisionConflict)
