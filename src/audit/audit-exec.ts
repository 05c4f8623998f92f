import type { ExecArgs } from "@medusajs/framework/types"
import { writeFileSync } from "node:fs"
import { auditText } from "../lib/audit/text"
import { auditGatewayDay } from "../workflows/audit/audit-day"
import { auditArgsFromEnv, AUDIT_OUT_ENV } from "./args"

/**
 * Run by `npx sipay-audit` through the store's `medusa exec`: audits the day and writes the report
 * (or why it could not) as JSON to the file the command named; the command prints it. Medusa's own
 * log goes to this process's output, which the command shows only when the audit could not run.
 */
export default async function sipayAudit({ container }: ExecArgs) {
  const args = auditArgsFromEnv()
  const out = process.env[AUDIT_OUT_ENV]
  let answer: { report?: unknown; error?: string }
  try {
    const report = await auditGatewayDay(container, args.day, { refresh: args.refresh })
    answer = { report }
    if (!out) {
      process.stdout.write(auditText(report, args.language))
      process.exitCode = report.agrees ? 0 : 1
    }
  } catch (error) {
    answer = { error: (error as Error)?.message ?? String(error) }
    if (!out) {
      process.stderr.write(`sipay-audit: ${answer.error}\n`)
      process.exitCode = 3
    }
  }
  if (out) writeFileSync(out, JSON.stringify(answer))
}
