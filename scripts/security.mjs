// Runs the security suite (integration-tests/security: attacks against a real Medusa app and the
// sandbox gateway) and prints each attack with its expected end state and the outcome the harness
// computed from what it observed (orders, gateway sales, refunds and calls, the plugin's records).
// Extra arguments go to jest (e.g. a file name to run one spec).
import { spawnSync } from "node:child_process"
import { existsSync, readFileSync, rmSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const report = join(root, "test-output", "security.jsonl")
rmSync(report, { force: true })

const started = Date.now()
const run = spawnSync("npx", ["jest", "--runInBand", "--forceExit", ...(process.argv.slice(2).length ? process.argv.slice(2) : ["integration-tests/security"])], {
  cwd: root,
  stdio: ["ignore", "ignore", "inherit"],
  env: { ...process.env, TEST_TYPE: "integration", NODE_OPTIONS: "--experimental-vm-modules", SIPAY_SECURITY_REPORT: report },
})

const rows = existsSync(report)
  ? readFileSync(report, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line))
  : []
const cell = (text) => String(text).replace(/\|/g, "\\|").replace(/\s+/g, " ")
const table = [
  "| attack | point | expected end state | outcome |",
  "|---|---|---|---|",
  ...rows.map((row) => `| ${cell(row.attack)} | ${cell(row.point)} (${row.status}) | ${cell(row.expected)} | ${row.violations.length ? `**violated**: ${cell(row.violations.join("; "))}` : "holds"} |`),
].join("\n")
const held = rows.filter((row) => row.violations.length === 0).length
const files = new Set(rows.map((row) => row.file)).size
process.stdout.write(
  `${table}\n\n${rows.length} attack(s) in ${files} file(s): ${held} held, ${rows.length - held} violated; ` +
    `test run ${run.status === 0 ? "passed" : "FAILED"} in ${Math.round((Date.now() - started) / 1000)} s\n`
)
process.exit(run.status ?? 1)
