import { execFileSync } from "node:child_process"

/** promtool's verdict on a Prometheus exposition: "" when clean, its complaints otherwise. */
export const promtoolCheck = (text: string): string => {
  try {
    execFileSync("promtool", ["check", "metrics"], { input: text, stdio: ["pipe", "pipe", "pipe"] })
    return ""
  } catch (error) {
    const failure = error as { stdout?: Buffer; stderr?: Buffer; message: string }
    return `${failure.stdout?.toString() ?? ""}${failure.stderr?.toString() ?? ""}` || failure.message
  }
}
