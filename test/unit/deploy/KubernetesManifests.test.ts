/**
 * The Kubernetes manifests (`deploy/kubernetes/`) are what an API server
 * accepts and what a Parley cluster needs. Every YAML document is checked
 * against the official schema of its kind (kubernetes-models' validators; a
 * kind they do not know fails) and for fields no schema has (those validators
 * let unknown fields through, while `kubectl apply` refuses them; the models'
 * types do not, so the documents are type-checked against them). Then the
 * invariants: probes on Parley's health routes, a grace period longer than the
 * hand-over, a disruption budget and a network policy over exactly the nodes,
 * the runner address from the pod IP, settings Parley knows, secrets only by
 * reference. Broken copies of the manifests show each check can fail.
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Either } from "effect"
import * as Models from "kubernetes-models"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { parseAllDocuments } from "yaml"
import { LEAVE_LIMIT } from "../../../src/actors/Cluster.js"
import { checkProductionSettings } from "../../../src/config/ProductionSettings.js"
import { environmentVariables, RequestTimeout } from "../../../src/config/Settings.js"

const root = fileURLToPath(new URL("../../../", import.meta.url))
const directory = Path.join(root, "deploy", "kubernetes")

/** The longest a node takes to leave the cluster on SIGTERM. */
const LEAVE_SECONDS = Duration.toSeconds(LEAVE_LIMIT)

/** One YAML document of one file. */
interface Manifest {
  readonly file: string
  readonly doc: any
}

const load = (): Array<Manifest> =>
  Fs.readdirSync(directory).filter((file) => /\.ya?ml$/.test(file)).sort().flatMap((file) =>
    parseAllDocuments(Fs.readFileSync(Path.join(directory, file), "utf8")).flatMap((document) => {
      if (document.errors.length > 0) throw new Error(`${file}: ${document.errors.map(String).join("; ")}`)
      const doc = document.toJS()
      return doc === null ? [] : [{ file, doc }]
    })
  )

const where = ({ doc, file }: Manifest) => `${file} (${doc?.kind} ${doc?.metadata?.name})`
const isKustomization = ({ doc }: Manifest) =>
  doc.apiVersion === "kustomize.config.k8s.io/v1beta1" && doc.kind === "Kustomization"

interface ModelClass {
  readonly apiVersion: string
  readonly kind: string
  new(data: unknown): { validate(): void }
}

/** Every kind kubernetes-models knows, by `<apiVersion> <kind>` (core `v1` is a version, the others groups of versions). */
const models = new Map<string, ModelClass>()
const collect = (exports: Record<string, unknown>, depth: number): void => {
  for (const value of Object.values(exports)) {
    if (typeof value === "function" && "kind" in value && "apiVersion" in value) {
      models.set(`${value.apiVersion} ${value.kind}`, value as unknown as ModelClass)
    } else if (typeof value === "object" && value !== null && depth > 0) {
      collect(value as Record<string, unknown>, depth - 1)
    }
  }
}
collect(Models, 2)

/** Each API object against its kind's schema; an unknown kind is a problem. */
const schemaProblems = (manifests: ReadonlyArray<Manifest>): Array<string> =>
  manifests.filter((manifest) => !isKustomization(manifest)).flatMap((manifest) => {
    const model = models.get(`${manifest.doc.apiVersion} ${manifest.doc.kind}`)
    if (model === undefined) {
      return [`${where(manifest)}: no schema for ${manifest.doc.apiVersion} ${manifest.doc.kind}`]
    }
    try {
      new model(manifest.doc).validate()
      return []
    } catch (error) {
      return [`${where(manifest)}: ${error instanceof Error ? error.message : String(error)}`]
    }
  })

/**
 * Fields the API does not have: each document as an object literal of its
 * kind's type, whose excess-property check names any unknown field.
 */
const unknownFields = (manifests: ReadonlyArray<Manifest>): Array<string> => {
  const objects = manifests.filter((manifest) =>
    !isKustomization(manifest) && models.has(
      `${manifest.doc.apiVersion} ${manifest.doc.kind}`
    )
  )
  const virtual = Path.join(root, "test", "deploy", "__manifests__.ts")
  const starts: Array<number> = []
  let line = 0
  const text = objects.map(({ doc }, i) => {
    const literal = JSON.stringify(doc, null, 1)
    const declaration =
      `import type { I${doc.kind} as T${i} } from "kubernetes-models/${doc.apiVersion}/${doc.kind}"\n` +
      `export const m${i}: T${i} = ${literal}\n`
    starts.push(line)
    line += declaration.split("\n").length - 1
    return declaration
  }).join("")
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: []
  }
  const host = ts.createCompilerHost(options)
  const source = ts.createSourceFile(virtual, text, ts.ScriptTarget.ES2022, true)
  const getSourceFile = host.getSourceFile
  host.getSourceFile = (name, ...rest) => (name === virtual ? source : getSourceFile.call(host, name, ...rest))
  const fileExists = host.fileExists
  host.fileExists = (name) => name === virtual || fileExists.call(host, name)
  const program = ts.createProgram([virtual], options, host)
  return ts.getPreEmitDiagnostics(program, program.getSourceFile(virtual)).map((diagnostic) => {
    const at = diagnostic.start === undefined ? 0 : source.getLineAndCharacterOfPosition(diagnostic.start).line
    const index = starts.filter((start) => start <= at).length - 1
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, " ")
    return index < 0 ? message : `${where(objects[index]!)}: ${message}`
  })
}

const ofKind = (manifests: ReadonlyArray<Manifest>, kind: string) =>
  manifests.filter(({ doc }) => doc.kind === kind).map(({ doc }) => doc)

/** Whether every label a selector asks for is among `labels`. */
const selects = (matchLabels: Record<string, string> | undefined, labels: Record<string, string>) =>
  matchLabels !== undefined && Object.keys(matchLabels).length > 0 &&
  Object.entries(matchLabels).every(([name, value]) => labels[name] === value)

/** What a container finds in its environment; a value from a Secret or the pod stands for itself. */
const environmentOf = (container: any, configMaps: ReadonlyArray<any>, problems: Array<string>) => {
  const environment = new Map<string, string>()
  for (const source of container.envFrom ?? []) {
    const configMap = configMaps.find((map) => map.metadata?.name === source.configMapRef?.name)
    if (configMap === undefined) {
      problems.push(`envFrom ${JSON.stringify(source)} names no ConfigMap of these manifests (its names are unknown)`)
      continue
    }
    for (const [name, value] of Object.entries(configMap.data ?? {})) environment.set(name, String(value))
  }
  for (const variable of container.env ?? []) {
    const from = variable.valueFrom
    environment.set(
      variable.name,
      from?.secretKeyRef !== undefined
        ? `<secret ${from.secretKeyRef.name}/${from.secretKeyRef.key}>`
        : from?.fieldRef !== undefined
        ? `<${from.fieldRef.fieldPath}>`
        : String(variable.value ?? "")
    )
  }
  return environment
}

/** The number of seconds a preStop hook waits, if it is a sleep. */
const preStopSeconds = (container: any): number => {
  const preStop = container.lifecycle?.preStop
  if (preStop?.sleep?.seconds !== undefined) return Number(preStop.sleep.seconds)
  const command: Array<string> = preStop?.exec?.command ?? []
  return command[0] === "sleep" ? Number(command[1]) : 0
}

/** What a Parley cluster needs of the manifests, each broken rule as a sentence. */
const invariantProblems = (manifests: ReadonlyArray<Manifest>): Array<string> => {
  const problems: Array<string> = []
  const deployments = ofKind(manifests, "Deployment")
  if (deployments.length !== 1) return [`expected one Deployment, found ${deployments.length}`]
  const deployment = deployments[0]
  const podLabels: Record<string, string> = deployment.spec.template.metadata?.labels ?? {}
  const pod = deployment.spec.template.spec
  if (!selects(deployment.spec.selector?.matchLabels, podLabels)) {
    problems.push("the Deployment's selector does not match its pods' labels")
  }
  const container = pod.containers.find((c: any) => c.name === "parley") ?? pod.containers[0]
  const environment = environmentOf(container, ofKind(manifests, "ConfigMap"), problems)

  for (const name of environment.keys()) {
    if (!(environmentVariables as ReadonlyArray<string>).includes(name)) {
      problems.push(`${name} is set, but Parley reads no such setting`)
    }
  }
  if (environment.get("PARLEY_RUNNER_HOST") !== "<status.podIP>") {
    problems.push("PARLEY_RUNNER_HOST must come from the pod IP (fieldRef status.podIP)")
  }
  if (environment.get("PARLEY_RUNNER_LISTEN_HOST") !== "0.0.0.0") {
    problems.push("PARLEY_RUNNER_LISTEN_HOST must be 0.0.0.0, where the other pods' connections arrive")
  }
  if ((environment.get("PARLEY_HOST") ?? "0.0.0.0") !== "0.0.0.0") {
    problems.push("PARLEY_HOST must be 0.0.0.0, where the kubelet's probes and the Service arrive")
  }
  for (
    const name of ["DATABASE_URL", "METRICS_TOKEN", "PARLEY_MASTER_KEY", "PARLEY_JWT_PRIVATE_KEY", "PARLEY_SMTP_URL"]
  ) {
    if (environment.has(name) && !environment.get(name)!.startsWith("<secret ")) {
      problems.push(`${name} must come from a Secret (secretKeyRef), not a value in the manifests`)
    }
  }
  if (ofKind(manifests, "Secret").length > 0) problems.push("a Secret is filled in the manifests; reference it instead")

  // The settings as a node reads them: production's required ones are all there, and the timing below uses them.
  const provider = ConfigProvider.fromMap(environment)
  const production = Effect.runSync(Effect.either(Effect.withConfigProvider(checkProductionSettings, provider)))
  if (Either.isLeft(production)) problems.push(String(production.left))
  const requestTimeout = Effect.runSync(Effect.either(Effect.withConfigProvider(RequestTimeout, provider)))
  if (Either.isLeft(requestTimeout)) return [...problems, String(requestTimeout.left)]

  const ports = new Map<string, number>(
    (container.ports ?? []).map((port: any) => [port.name, port.containerPort] as const)
  )
  const httpPort = Number(environment.get("PORT") ?? 8080)
  const runnerPort = Number(environment.get("PARLEY_RUNNER_PORT") ?? 34431)
  if (ports.get("http") !== httpPort) problems.push(`the container port "http" must be PORT (${httpPort})`)
  if (ports.get("runner") !== runnerPort) {
    problems.push(`the container port "runner" must be PARLEY_RUNNER_PORT (${runnerPort})`)
  }
  const isHttp = (port: unknown) => port === "http" || port === httpPort
  const isRunner = (port: unknown) => port === undefined || port === "runner" || port === runnerPort

  const probe = (name: string, path: string, required: boolean) => {
    const get = container[name]?.httpGet
    if (get === undefined ? required : get.path !== path || !isHttp(get.port)) {
      problems.push(`the ${name} must GET ${path} on the HTTP port`)
    }
  }
  probe("readinessProbe", "/health/ready", true)
  probe("livenessProbe", "/health/live", true)
  probe("startupProbe", "/health/live", false)

  const handOver = preStopSeconds(container) + Duration.toSeconds(requestTimeout.right) + LEAVE_SECONDS
  const grace = pod.terminationGracePeriodSeconds ?? 30
  if (!(grace > handOver)) {
    problems.push(
      `terminationGracePeriodSeconds (${grace}) must exceed the preStop sleep, the HTTP drain ` +
        `(PARLEY_REQUEST_TIMEOUT) and the cluster leave (${LEAVE_SECONDS} s): ${handOver} s`
    )
  }
  if (preStopSeconds(container) <= 0) {
    problems.push("a preStop sleep must let the endpoints drop the pod before SIGTERM")
  }
  for (const kind of ["requests", "limits"]) {
    for (const resource of ["cpu", "memory"]) {
      if (container.resources?.[kind]?.[resource] === undefined) {
        problems.push(`the container has no ${resource} ${kind}`)
      }
    }
  }

  const budgets = ofKind(manifests, "PodDisruptionBudget")
  if (budgets.length === 0) problems.push("no PodDisruptionBudget")
  for (const budget of budgets) {
    if (!selects(budget.spec.selector?.matchLabels, podLabels)) {
      problems.push(`the PodDisruptionBudget ${budget.metadata.name} does not select the Deployment's pods`)
    }
    if (budget.spec.maxUnavailable === undefined || Number(budget.spec.maxUnavailable) >= deployment.spec.replicas) {
      problems.push(
        `the PodDisruptionBudget ${budget.metadata.name} must keep some nodes up (maxUnavailable below replicas)`
      )
    }
  }

  const services = ofKind(manifests, "Service")
  if (!services.some((service) => selects(service.spec.selector, podLabels))) {
    problems.push("no Service selects the Deployment's pods")
  }
  for (const service of services) {
    for (const port of service.spec.ports ?? []) {
      if (!isHttp(port.targetPort ?? port.port)) {
        problems.push(`the Service ${service.metadata.name} exposes port ${port.targetPort ?? port.port}, not HTTP`)
      }
    }
  }

  const policies = ofKind(manifests, "NetworkPolicy").filter((policy) =>
    selects(policy.spec.podSelector?.matchLabels, podLabels) &&
    (policy.spec.policyTypes ?? ["Ingress"]).includes("Ingress")
  )
  if (policies.length === 0) problems.push("no NetworkPolicy guards the Deployment's pods")
  let runnerAllowed = false
  for (const policy of policies) {
    for (const rule of policy.spec.ingress ?? []) {
      const rulePorts: Array<any> = rule.ports ?? [{}]
      if (!rulePorts.some((port) => isRunner(port.port))) continue
      const peers: Array<any> = rule.from ?? []
      const onlyParley = peers.length > 0 &&
        peers.every((peer) =>
          peer.ipBlock === undefined && peer.namespaceSelector === undefined &&
          selects(peer.podSelector?.matchLabels, podLabels)
        )
      if (onlyParley) runnerAllowed = true
      else {problems.push(
          `the NetworkPolicy ${policy.metadata.name} lets others than Parley's pods reach the runner port`
        )}
    }
  }
  if (policies.length > 0 && !runnerAllowed) {
    problems.push("no NetworkPolicy rule lets Parley's pods reach each other's runners")
  }
  return problems
}

/** A kustomization lists exactly the other files. */
const kustomizationProblems = (manifests: ReadonlyArray<Manifest>): Array<string> => {
  const files = [...new Set(manifests.filter((manifest) => !isKustomization(manifest)).map(({ file }) => file))].sort()
  return manifests.filter(isKustomization).flatMap(({ doc, file }) => {
    const listed = [...(doc.resources ?? [])].sort()
    return JSON.stringify(listed) === JSON.stringify(files)
      ? []
      : [`${file} lists ${listed.join(", ")}; the directory holds ${files.join(", ")}`]
  })
}

/** Every check but the type check (a few seconds each; the broken copies run it only where it is the point). */
const quickProblems = (manifests: ReadonlyArray<Manifest>) => [
  ...schemaProblems(manifests),
  ...invariantProblems(manifests),
  ...kustomizationProblems(manifests)
]

/** The manifests with one change, made on a copy. */
const broken = (change: (manifests: Array<Manifest>) => void) => {
  const copy = load()
  change(copy)
  return copy
}
const deploymentOf = (manifests: Array<Manifest>) => manifests.find(({ doc }) => doc.kind === "Deployment")!.doc
const parleyOf = (manifests: Array<Manifest>) => deploymentOf(manifests).spec.template.spec.containers[0]

describe("the Kubernetes manifests", () => {
  const manifests = load()

  it("are each valid against the official schema of their kind", () => {
    expect(manifests.map(({ doc }) => doc.kind).sort()).toEqual([
      "ConfigMap",
      "Deployment",
      "Kustomization",
      "NetworkPolicy",
      "PodDisruptionBudget",
      "Service"
    ])
    expect(schemaProblems(manifests)).toEqual([])
  })

  it("use no field the API does not have", () => {
    expect(unknownFields(manifests)).toEqual([])
  }, 60_000)

  it("hold what a Parley cluster needs, and the kustomization lists them all", () => {
    expect(invariantProblems(manifests)).toEqual([])
    expect(kustomizationProblems(manifests)).toEqual([])
  })

  it("fail when broken", () => {
    type Check = (manifests: ReadonlyArray<Manifest>) => Array<string>
    const cases: Array<[string, (manifests: Array<Manifest>) => void, RegExp, Check?]> = [
      ["a string port", (m) => (parleyOf(m).ports[0].containerPort = "8080"), /containerPort must be integer/],
      [
        "a kind no schema has",
        (m) => m.push({ file: "extra.yaml", doc: { apiVersion: "v1", kind: "Servce", metadata: { name: "x" } } }),
        /no schema for v1 Servce/
      ],
      [
        "a misspelt field",
        (m) => (parleyOf(m).readinesProbe = parleyOf(m).readinessProbe),
        /readinesProbe.* does not exist in type 'IContainer'/,
        unknownFields
      ],
      [
        "readiness on liveness",
        (m) => (parleyOf(m).readinessProbe.httpGet.path = "/health/live"),
        /readinessProbe must GET/
      ],
      [
        "a short grace period",
        (m) => (deploymentOf(m).spec.template.spec.terminationGracePeriodSeconds = 30),
        /terminationGracePeriodSeconds \(30\) must exceed/
      ],
      [
        "a runner host of its own",
        (m) => {
          const variable = parleyOf(m).env.find((v: any) => v.name === "PARLEY_RUNNER_HOST")
          delete variable.valueFrom
          variable.value = "parley"
        },
        /PARLEY_RUNNER_HOST must come from the pod IP/
      ],
      [
        "a setting Parley does not read",
        (m) => parleyOf(m).env.push({ name: "PARLEY_RUNER_PORT", value: "1" }),
        /PARLEY_RUNER_PORT is set, but Parley reads no such setting/
      ],
      [
        "a secret in plain sight",
        (m) => {
          const variable = parleyOf(m).env.find((v: any) => v.name === "PARLEY_MASTER_KEY")
          delete variable.valueFrom
          variable.value = "c2VjcmV0"
        },
        /PARLEY_MASTER_KEY must come from a Secret/
      ],
      [
        "a budget over other pods",
        (m) => (m.find(({ doc }) => doc.kind === "PodDisruptionBudget")!.doc.spec.selector.matchLabels = { app: "x" }),
        /does not select the Deployment's pods/
      ],
      [
        "a runner port open to all",
        (m) => delete m.find(({ doc }) => doc.kind === "NetworkPolicy")!.doc.spec.ingress[1].from,
        /lets others than Parley's pods reach the runner port/
      ],
      [
        "a file the kustomization misses",
        (m) => m.push({ ...m.find(({ doc }) => doc.kind === "Service")!, file: "zz-service.yaml" }),
        /kustomization\.yaml lists/
      ]
    ]
    for (const [name, change, expected, check = quickProblems] of cases) {
      const problems = check(broken(change))
      expect(problems.some((problem) => expected.test(problem)), `${name}: ${problems.join(" | ")}`).toBe(true)
    }
  }, 60_000)
})
