import { format } from "node:util"

/** Proof that no card number, CVV or secret was stored or logged: scans every table and every log line. */

type Knex = { raw: (sql: string, bindings?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }> }

export async function tablesContaining(db: Knex, needles: string[]): Promise<string[]> {
  const { rows } = await db.raw(
    "select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'"
  )
  const found: string[] = []
  for (const { table_name } of rows) {
    const { rows: dump } = await db.raw(`select coalesce(string_agg(t::text, E'\\n'), '') as dump from "${String(table_name)}" t`)
    const text = String(dump[0]?.dump ?? "")
    for (const needle of needles) {
      if (needle && text.includes(needle)) {
        found.push(`${table_name} contains ${needle.slice(0, 4)}…`)
      }
    }
  }
  return found
}

const CONSOLE_METHODS = ["log", "info", "warn", "error", "debug"] as const

const LOGGER_METHODS = ["log", "info", "warn", "error", "debug", "success", "failure", "progress", "activity", "panic"] as const

export type OutputCapture = { text: () => string; stop: () => void; tapLogger: (logger: Record<string, unknown>) => void }

/**
 * Records what the app logs: its logger (tapped once the app has booted, since jest may keep an
 * earlier file's console behind it), `console`, and stdout/stderr.
 */
export function captureProcessOutput(): OutputCapture {
  const chunks: string[] = []
  const loggerOriginals: [Record<string, unknown>, string, unknown][] = []
  const consoleOriginals = CONSOLE_METHODS.map((method) => [method, console[method]] as const)
  for (const [method, original] of consoleOriginals) {
    console[method] = (...args: unknown[]) => {
      chunks.push(format(...args))
      original.apply(console, args)
    }
  }
  const stdoutWrite = process.stdout.write.bind(process.stdout)
  const stderrWrite = process.stderr.write.bind(process.stderr)
  const tap =
    (write: typeof stdoutWrite) =>
    (chunk: unknown, ...rest: unknown[]): boolean => {
      chunks.push(typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8"))
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest)
    }
  process.stdout.write = tap(stdoutWrite) as typeof process.stdout.write
  process.stderr.write = tap(stderrWrite) as typeof process.stderr.write
  return {
    text: () => chunks.join(""),
    tapLogger: (logger) => {
      for (const method of LOGGER_METHODS) {
        const original = logger[method]
        if (typeof original === "function") {
          loggerOriginals.push([logger, method, original])
          logger[method] = (...args: unknown[]) => {
            chunks.push(`${format(...args)}\n`)
            return (original as (...a: unknown[]) => unknown).apply(logger, args)
          }
        }
      }
    },
    stop: () => {
      for (const [logger, method, original] of loggerOriginals) {
        logger[method] = original
      }
      for (const [method, original] of consoleOriginals) {
        console[method] = original
      }
      process.stdout.write = stdoutWrite
      process.stderr.write = stderrWrite
    },
  }
}
