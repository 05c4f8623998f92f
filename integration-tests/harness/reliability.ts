import { appendFileSync, mkdirSync } from "node:fs"
import { join, resolve } from "node:path"

/** Each fault scenario's outcome, appended as a JSON line for `npm run reliability` to print as a table. */
const RESULTS = resolve(__dirname, "..", "..", "test-output", "reliability.jsonl")

export function recordOutcome(fault: string, flow: string, outcome: string): void {
  mkdirSync(join(RESULTS, ".."), { recursive: true })
  appendFileSync(RESULTS, `${JSON.stringify({ fault, flow, outcome, at: new Date().toISOString() })}\n`)
}

export const RELIABILITY_RESULTS = RESULTS
