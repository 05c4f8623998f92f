import { auditDayProblem } from "../lib/audit/day"
import { AUDIT_LANGUAGES, type AuditLanguage } from "../lib/audit/words"

/** The audit command's arguments, passed to the script `medusa exec` runs through the environment. */

export const AUDIT_ARGS_ENV = "SIPAY_AUDIT_ARGS"
/** Where the exec script writes its answer for the command (its own output is Medusa's log). */
export const AUDIT_OUT_ENV = "SIPAY_AUDIT_OUT"

export type AuditArgs = {
  day: string
  json: boolean
  language: AuditLanguage
  /** Pull the day from the gateway into the ledger first, even when the ledger has it. */
  refresh: boolean
  help?: boolean
}

export const AUDIT_USAGE =
  "Usage: npx sipay-audit --day YYYY-MM-DD [--json] [--lang en|tr] [--refresh]\n" +
  "  Run in the store's folder. Compares the gateway's sales of that Istanbul day with the store's orders,\n" +
  "  payments and refunds. Exit code 0: the day agrees; 1: it does not; 2: bad usage; 3: it could not be audited.\n" +
  "  --refresh pulls the day from the gateway into the sales ledger first (otherwise the ledger's copy is used,\n" +
  "  pulled only when the ledger never had the day)."

/** The language of the environment (LC_ALL, LC_MESSAGES, LANG): Turkish when it names tr, else English. */
export function environmentLanguage(env: NodeJS.ProcessEnv): AuditLanguage {
  const locale = env.LC_ALL || env.LC_MESSAGES || env.LANG || ""
  return /^tr([_.@-]|$)/i.test(locale) ? "tr" : "en"
}

export function parseAuditArgs(argv: string[], env: NodeJS.ProcessEnv = process.env, now: Date = new Date()): AuditArgs {
  const args: AuditArgs = { day: "", json: false, language: environmentLanguage(env), refresh: false }
  for (let index = 0; index < argv.length; index++) {
    const [name, inline] = argv[index].split(/=(.*)/s, 2)
    const value = () => {
      const given = inline ?? argv[++index]
      if (given === undefined || given === "" || given.startsWith("--")) throw new Error(`${name} needs a value`)
      return given
    }
    if (name === "--day") args.day = value()
    else if (name === "--lang") {
      const language = value()
      if (!(AUDIT_LANGUAGES as readonly string[]).includes(language)) throw new Error(`--lang must be ${AUDIT_LANGUAGES.join(" or ")}`)
      args.language = language as AuditLanguage
    } else if (name === "--json" && inline === undefined) args.json = true
    else if (name === "--refresh" && inline === undefined) args.refresh = true
    else if ((name === "--help" || name === "-h") && inline === undefined) args.help = true
    else throw new Error(`unknown argument "${argv[index]}" (--day YYYY-MM-DD, --json, --lang en|tr, --refresh)`)
  }
  if (args.help) return args
  if (!args.day) throw new Error("--day YYYY-MM-DD is required")
  const problem = auditDayProblem(args.day, now)
  if (problem) throw new Error(`--day: ${problem}`)
  return args
}

export function auditArgsFromEnv(env: NodeJS.ProcessEnv = process.env): AuditArgs {
  const raw = env[AUDIT_ARGS_ENV]
  if (!raw) throw new Error(`${AUDIT_ARGS_ENV} is not set: run the audit with npx sipay-audit`)
  return JSON.parse(raw) as AuditArgs
}
