#!/usr/bin/env node
/**
 * `npx sipay-audit --day YYYY-MM-DD [--json] [--lang en|tr] [--refresh]`, run in the store's folder:
 * the merchant's audit of one gateway day (docs/admin.md "Audit"), through the store's own `medusa exec`
 * (as sipay-setup). Exit code 0 when the day agrees, 1 when it does not, 2 on bad usage, 3 when it
 * could not be audited (the store did not boot, the gateway did not answer).
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { auditText, reportWithWords } from "../lib/audit/text"
import type { AuditReport } from "../lib/audit/types"
import { storeMedusaCli } from "../setup/store-folder"
import { AUDIT_ARGS_ENV, AUDIT_OUT_ENV, AUDIT_USAGE, parseAuditArgs, type AuditArgs } from "./args"

function main(): number {
  const storeRoot = process.cwd()
  let args: AuditArgs
  try {
    args = parseAuditArgs(process.argv.slice(2))
  } catch (error) {
    console.error(`sipay-audit: ${(error as Error).message}\n${AUDIT_USAGE}`)
    return 2
  }
  if (args.help) {
    console.log(AUDIT_USAGE)
    return 0
  }
  let medusaCli: string
  try {
    medusaCli = storeMedusaCli(storeRoot)
  } catch (error) {
    console.error(`sipay-audit: ${(error as Error).message}`)
    return 2
  }

  const scratch = mkdtempSync(join(tmpdir(), "sipay-audit-"))
  const out = join(scratch, "answer.json")
  try {
    const run = spawnSync(process.execPath, [medusaCli, "exec", join(__dirname, "audit-exec.js")], {
      cwd: storeRoot,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, [AUDIT_ARGS_ENV]: JSON.stringify(args), [AUDIT_OUT_ENV]: out },
    })
    const answer = existsSync(out) ? (JSON.parse(readFileSync(out, "utf8")) as { report?: AuditReport; error?: string }) : null
    if (!answer?.report) {
      const why = answer?.error ?? `the store's medusa exec ended with code ${run.status ?? run.signal} before auditing`
      if (!answer) process.stderr.write(`${run.stdout ?? ""}${run.stderr ?? ""}`.slice(-6000))
      console.error(`sipay-audit: ${why}`)
      return 3
    }
    process.stdout.write(args.json ? `${JSON.stringify(reportWithWords(answer.report, args.language), null, 2)}\n` : auditText(answer.report, args.language))
    return answer.report.agrees ? 0 : 1
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

process.exitCode = main()
