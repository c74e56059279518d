/**
 * Renders Effect's metric registry in the Prometheus text exposition format
 * (0.0.4), the way `promtool check metrics` expects it: one HELP and TYPE per
 * family, samples grouped under it, counters suffixed `_total`, cumulative
 * histogram buckets ending in `+Inf`, and escaped label values.
 */
import type { MetricPair } from "effect"
import { MetricKeyType, MetricState, Option } from "effect"

type Labels = ReadonlyArray<readonly [string, string]>

interface Family {
  readonly name: string
  readonly type: "counter" | "gauge" | "histogram" | "summary"
  readonly help: string
  readonly samples: Array<string>
}

const sanitizeName = (name: string): string => {
  const cleaned = name.replace(/[^a-zA-Z0-9_:]/g, "_")
  return /^[a-zA-Z_:]/.test(cleaned) ? cleaned : `_${cleaned}`
}

const sanitizeLabel = (name: string): string => {
  const cleaned = name.replace(/[^a-zA-Z0-9_]/g, "_")
  return /^[a-zA-Z_]/.test(cleaned) ? cleaned : `_${cleaned}`
}

const escapeLabelValue = (value: string): string =>
  value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, "\\\"")

const escapeHelp = (text: string): string => text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")

const formatNumber = (value: number | bigint): string => {
  if (typeof value === "bigint") return value.toString()
  if (Number.isNaN(value)) return "NaN"
  if (value === Number.POSITIVE_INFINITY) return "+Inf"
  if (value === Number.NEGATIVE_INFINITY) return "-Inf"
  return String(value)
}

const formatLabels = (labels: Labels): string =>
  labels.length === 0
    ? ""
    : `{${labels.map(([key, value]) => `${sanitizeLabel(key)}="${escapeLabelValue(value)}"`).join(",")}}`

const sample = (name: string, labels: Labels, value: number | bigint): string =>
  `${name}${formatLabels(labels)} ${formatNumber(value)}`

/** Render a snapshot of metrics (from `Metric.snapshot`) as Prometheus text. */
export const renderPrometheus = (pairs: ReadonlyArray<MetricPair.MetricPair.Untyped>): string => {
  const families = new Map<string, Family>()
  const family = (name: string, type: Family["type"], help: string): Family => {
    const existing = families.get(name)
    if (existing !== undefined) return existing
    const created: Family = { name, type, help, samples: [] }
    families.set(name, created)
    return created
  }

  for (const { metricKey, metricState } of pairs) {
    const base = sanitizeName(metricKey.name)
    const help = Option.getOrElse(metricKey.description, () => metricKey.name)
    const labels: Labels = metricKey.tags.map((tag) => [tag.key, tag.value] as const)
    const monotonic = MetricKeyType.isCounterKey(metricKey.keyType) && metricKey.keyType.incremental
    if (MetricState.isCounterState(metricState) && !monotonic) {
      // A counter that may go down (e.g. active fibers) is a gauge to Prometheus.
      family(base, "gauge", help).samples.push(sample(base, labels, metricState.count))
    } else if (MetricState.isCounterState(metricState)) {
      const name = base.endsWith("_total") ? base : `${base}_total`
      family(name, "counter", help).samples.push(sample(name, labels, metricState.count))
    } else if (MetricState.isGaugeState(metricState)) {
      family(base, "gauge", help).samples.push(sample(base, labels, metricState.value))
    } else if (MetricState.isHistogramState(metricState)) {
      const target = family(base, "histogram", help)
      for (const [bound, count] of metricState.buckets) {
        target.samples.push(sample(`${base}_bucket`, [...labels, ["le", formatNumber(bound)]], count))
      }
      if (!metricState.buckets.some(([bound]) => bound === Number.POSITIVE_INFINITY)) {
        target.samples.push(sample(`${base}_bucket`, [...labels, ["le", "+Inf"]], metricState.count))
      }
      target.samples.push(sample(`${base}_sum`, labels, metricState.sum))
      target.samples.push(sample(`${base}_count`, labels, metricState.count))
    } else if (MetricState.isSummaryState(metricState)) {
      const target = family(base, "summary", help)
      for (const [quantile, value] of metricState.quantiles) {
        target.samples.push(
          sample(base, [...labels, ["quantile", String(quantile)]], Option.getOrElse(value, () => Number.NaN))
        )
      }
      target.samples.push(sample(`${base}_sum`, labels, metricState.sum))
      target.samples.push(sample(`${base}_count`, labels, metricState.count))
    } else if (MetricState.isFrequencyState(metricState)) {
      const name = base.endsWith("_total") ? base : `${base}_total`
      const target = family(name, "counter", help)
      for (const [word, count] of metricState.occurrences) {
        target.samples.push(sample(name, [...labels, ["key", word]], count))
      }
    }
  }

  const lines: Array<string> = []
  for (const { help, name, samples, type } of [...families.values()].sort((a, b) => a.name.localeCompare(b.name))) {
    if (samples.length === 0) continue
    lines.push(`# HELP ${name} ${escapeHelp(help)}`, `# TYPE ${name} ${type}`, ...samples)
  }
  return lines.join("\n") + "\n"
}
