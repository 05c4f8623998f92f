// Runs the fault scenarios (integration-tests/http/after-checkout.spec.ts) against a real Medusa
// app and the sandbox gateway, then prints what happened in each as a table (fault, flow, outcome).
import { spawnSync } from "node:child_process"
import { existsSync, readFileSync, rmSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const results = join(root, "test-output", "reliability.jsonl")
rmSync(results, { force: true })

const run = spawnSync("npx", ["jest", "--runInBand", "--forceExit", "integration-tests/http/after-checkout"], {
  cwd: root,
  stdio: ["ignore", "ignore", "inherit"],
  env: { ...process.env, TEST_TYPE: "integration", NODE_OPTIONS: "--experimental-vm-modules" },
})

const rows = existsSync(results)
  ? readFileSync(results, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line))
  : []
const table = [
  "| fault | flow | outcome |",
  "|---|---|---|",
  ...rows.map((row) => `| ${row.fault} | ${row.flow} | ${row.outcome} |`),
].join("\n")
process.stdout.write(`${table}\n\n${rows.length} scenario(s) recorded; test run ${run.status === 0 ? "passed" : "FAILED"}\n`)
process.exit(run.status ?? 1)
