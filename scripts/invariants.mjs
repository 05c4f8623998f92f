// Runs the money-invariant suite (integration-tests/invariants, docs/reliability.md) beyond the
// bounded set CI runs:
//   npm run invariants                         a random seed, 100 sequences
//   npm run invariants -- --runs 500           more sequences
//   npm run invariants -- --seed S [--path P]  re-runs a reported failure (fast-check's seed and path)
//   --max-commands N, --no-shrink              longer sequences; report a failure without shrinking it
// Each run starts a fresh Medusa app on a fresh database and a fresh sandbox. A failure is replayed
// up to 3 times with its seed and path; one that does not come back is reported as flaky, with its seed.
import { spawn } from "node:child_process"
import { createWriteStream, mkdirSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { randomInt } from "node:crypto"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const args = process.argv.slice(2)
const value = (name) => {
  const at = args.indexOf(`--${name}`)
  return at >= 0 ? args[at + 1] : undefined
}
const seed = value("seed") ?? String(randomInt(1, 2 ** 31 - 1))
const runs = value("runs") ?? "100"
const path = value("path")
const maxCommands = value("max-commands")

// The whole output of every run goes to test-output/invariants.log (a long run shows its progress there).
mkdirSync(join(root, "test-output"), { recursive: true })
const log = createWriteStream(join(root, "test-output", "invariants.log"), { flags: "a" })

function run(extra) {
  const env = {
    ...process.env,
    NODE_OPTIONS: "--experimental-vm-modules",
    INVARIANT_SEED: seed,
    INVARIANT_RUNS: runs,
    INVARIANT_TIME_LIMIT_MS: String(6 * 3600 * 1000),
    ...(maxCommands ? { INVARIANT_MAX_COMMANDS: maxCommands } : {}),
    INVARIANT_SHRINK_BUDGET_MS: String(30 * 60 * 1000),
    ...(args.includes("--no-shrink") ? { INVARIANT_SHRINK: "false" } : {}),
    ...extra,
  }
  const started = Date.now()
  return new Promise((resolve) => {
    const child = spawn("npx", ["jest", "--runInBand", "--forceExit", "integration-tests/invariants/money.spec.ts", "-t", "random sequences"], { cwd: root, env })
    let output = ""
    const take = (chunk) => {
      output += chunk
      log.write(chunk)
    }
    child.stdout.on("data", take)
    child.stderr.on("data", take)
    child.on("close", (status) => {
      const summary = output.split("\n").filter((line) => line.startsWith("[invariants]") && !line.startsWith("[invariants] sequence "))
      const failure = /Property failed[\s\S]*?Replay: npm run invariants -- --seed \d+(?: --path \S+)?/.exec(output)?.[0] ?? null
      resolve({ passed: status === 0, summary, failure, path: /--path (\S+)/.exec(failure ?? "")?.[1] ?? null, seconds: Math.round((Date.now() - started) / 1000), output })
    })
  })
}

process.stdout.write(`[invariants] seed ${seed}${path ? `, path ${path}` : `, ${runs} runs`}\n`)
const first = await run(path ? { INVARIANT_PATH: path } : {})
for (const line of first.summary) process.stdout.write(`${line}\n`)
if (first.passed) {
  process.stdout.write(`[invariants] every invariant held (${first.seconds} s)\n`)
  process.exit(0)
}
if (!first.failure) {
  process.stdout.write(first.output.slice(-6000))
  process.stdout.write(`\n[invariants] the run failed before any sequence reported (${first.seconds} s)\n`)
  process.exit(1)
}
process.stdout.write(`${first.failure}\n`)
let reproduced = 0
for (let replay = 1; replay <= 3 && first.path; replay++) {
  const again = await run({ INVARIANT_PATH: first.path, INVARIANT_SHRINK: "false" })
  process.stdout.write(`[invariants] replay ${replay} of seed ${seed} path ${first.path}: ${again.passed ? "held" : "failed again"}\n`)
  if (!again.passed) reproduced++
}
process.stdout.write(
  reproduced
    ? `[invariants] FAILED: reproduced ${reproduced} of 3 times (seed ${seed}, path ${first.path})\n`
    : `[invariants] FLAKY: the failure did not come back in 3 replays (seed ${seed}, path ${first.path}): interleavings inside the server differ between runs\n`
)
process.exit(1)
