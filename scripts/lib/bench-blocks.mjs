// The bench's tables in documents: `npm run bench -- --only latency,sync-now --write README.md,docs/performance.md`
// replaces, in each file, the text between `<!-- bench:latency,sync-now -->` and `<!-- /bench:latency,sync-now -->`
// (the key is the --only list) with the whole table it just printed, and between
// `<!-- bench-summary:latency,sync-now -->` and its end marker with the rows that have a target; both
// start with the line naming the machine and the load.
import { readFileSync, writeFileSync } from "node:fs"

/** The printed table (first line, blank, header, rows, blank, notes) cut to its first line and the rows with a target. */
export function benchSummary(table) {
  const lines = table.trim().split("\n")
  const rows = lines.filter((line) => line.startsWith("| ") && !line.startsWith("| figure ") && /\| (yes|\*\*no\*\*) \|$/.test(line))
  return [lines[0], "", ...lines.filter((line) => line.startsWith("| figure ") || line.startsWith("|---")), ...rows].join("\n")
}

/** `text` with the blocks of `key` holding the table (whole or summary); an error when it has neither. */
export function replaceBenchBlock(text, key, table) {
  let written = 0
  for (const [kind, content] of [["bench", table.trim()], ["bench-summary", benchSummary(table)]]) {
    const open = `<!-- ${kind}:${key} -->`
    const close = `<!-- /${kind}:${key} -->`
    const start = text.indexOf(open)
    const end = text.indexOf(close, start + open.length)
    if (start < 0 || end < 0) continue
    text = `${text.slice(0, start + open.length)}\n${content}\n${text.slice(end)}`
    written++
  }
  if (!written) {
    throw new Error(`no block <!-- bench:${key} --> or <!-- bench-summary:${key} --> (each with its end marker) to write the table into`)
  }
  return text
}

export function writeBenchBlock(file, key, table) {
  writeFileSync(file, replaceBenchBlock(readFileSync(file, "utf8"), key, table))
}
