/**
 * Medusa's loadEnv runs dotenv-expand over `.env`: every "$name" in a value is replaced by that
 * variable (usually empty), even inside single or double quotes; only "\$" survives. Sipay merchant
 * keys look like "$2y$10$…", so a key pasted as printed arrives empty or cut. This finds the
 * SIPAY_* lines of the store's env files that are cut that way, to name the cause at start-up.
 */

// No static node: imports: options.ts imports this file, and the admin bundle reaches options.ts.
type Fs = { existsSync(path: string): boolean; readFileSync(path: string, encoding: "utf8"): string }
function nodeFs(): Fs | undefined {
  const get = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule
  return typeof get === "function" ? (get("node:fs") as Fs) : undefined
}

/** "$" followed by a name or "{", not escaped: what dotenv-expand replaces. */
const UNESCAPED_DOLLAR = /(^|[^\\])\$[\w{.]/

/** Names of SIPAY_* variables whose value in this env file content holds an unescaped "$". */
export function sipayVariablesCutByExpansion(content: string): string[] {
  const names: string[] = []
  for (const line of content.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?(SIPAY_[A-Z0-9_]+)\s*=(.*)$/.exec(line)
    if (match && UNESCAPED_DOLLAR.test(match[2])) {
      names.push(match[1])
    }
  }
  return names
}

/** The env files loadEnv reads in this folder (`.env.{NODE_ENV}` then `.env`), checked as above. */
export function sipayVariablesCutInEnvFiles(dir: string = process.cwd(), nodeEnv: string = process.env.NODE_ENV || "development"): { file: string; names: string[] }[] {
  const found: { file: string; names: string[] }[] = []
  const fs = nodeFs()
  if (!fs) {
    return found
  }
  for (const file of [`.env.${nodeEnv}`, ".env"]) {
    const path = `${dir.replace(/[\\/]+$/, "")}/${file}`
    if (!fs.existsSync(path)) {
      continue
    }
    try {
      const names = sipayVariablesCutByExpansion(fs.readFileSync(path, "utf8"))
      if (names.length) {
        found.push({ file, names })
      }
    } catch {
      // Unreadable: loadEnv could not read it either.
    }
  }
  return found
}

/** A start-up message naming the cause, for credentials that are empty or have no "$" left. */
export function describeCutCredentials(dir?: string, nodeEnv?: string): string | undefined {
  const found = sipayVariablesCutInEnvFiles(dir, nodeEnv)
  if (!found.length) {
    return undefined
  }
  const where = found.map(({ file, names }) => `${names.join(", ")} in ${file}`).join("; ")
  return (
    `${where} contain "$" written as is: Medusa's loadEnv expands "$…" (even inside quotes), so the value arrives empty or cut. ` +
    `Write each "$" as "\\$", e.g. SIPAY_MERCHANT_KEY=\\$2y\\$10\\$…`
  )
}
