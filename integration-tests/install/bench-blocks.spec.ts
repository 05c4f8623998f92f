import { execFile } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"

const run = promisify(execFile)
const ROOT = join(__dirname, "..", "..")

/** scripts/lib/bench-blocks.mjs (an ES module, as `npm run bench` loads it) in its own Node process. */
async function inNode(script: string): Promise<any> {
  const program = `import { replaceBenchBlock, writeBenchBlock } from "./scripts/lib/bench-blocks.mjs"\n${script}`
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", program], { cwd: ROOT, timeout: 60000 })
  return JSON.parse(stdout.trim().split("\n").pop()!)
}

const TABLE = [
  "Bench of 2026-11-27T13:52:20.822Z (node v20.20.2, 2 CPUs (AMD EPYC), 24 GB RAM, load average at start 0.15 0.97 1.35, at end 2.10 1.98 1.74); rounds 5.",
  "",
  "| figure | this plugin (min / median / max) | floor, same run | ratio (min / median / max) | target | met |",
  "|---|---|---|---|---|---|",
  "| floor row | 1 / 2 / 3 | - | - | - |  |",
  "| met row | 4 / 5 / 6 | 1 | 1.01 | <= 1.1x | yes |",
  "| missed row | 7 / 8 / 9 | 1 | 1.30 | <= 1.2x | **no** |",
  "",
  "- a note",
].join("\n")
const HEADER = "| figure | this plugin (min / median / max) | floor, same run | ratio (min / median / max) | target | met |"
const MACHINE_AND_LOAD = /^Bench of \d{4}-\d\d-\d\dT[\d:.]+Z \(node v[\d.]+, \d+ CPUs \(.+\), \d+ GB RAM, load average at start [\d. ]+, at end [\d. ]+\)/

describe("the bench's tables in README.md and docs/performance.md (npm run bench -- --write ...)", () => {
  it("writes the whole table into the key's bench block and its rows with a target into its summary block, leaving the rest as it was", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bench-blocks-"))
    try {
      const file = join(dir, "doc.md")
      const doc = "# Doc\n\n<!-- bench:latency -->\nold\n<!-- /bench:latency -->\n\n<!-- bench-summary:latency -->\nold\n<!-- /bench-summary:latency -->\n\n<!-- bench:sync-now -->\nother\n<!-- /bench:sync-now -->\nafter\n"
      writeFileSync(file, doc)
      const result = await inNode(`
        writeBenchBlock(${JSON.stringify(file)}, "latency", ${JSON.stringify(TABLE)})
        let refused = null
        try { replaceBenchBlock("no blocks here", "latency", "x") } catch (error) { refused = error.message }
        console.log(JSON.stringify({ refused }))
      `)
      const [first, , header, rule, ...rows] = TABLE.split("\n")
      const summary = [first, "", header, rule, rows[1], rows[2]].join("\n")
      expect(readFileSync(file, "utf8")).toBe(
        `# Doc\n\n<!-- bench:latency -->\n${TABLE}\n<!-- /bench:latency -->\n\n<!-- bench-summary:latency -->\n${summary}\n<!-- /bench-summary:latency -->\n\n<!-- bench:sync-now -->\nother\n<!-- /bench:sync-now -->\nafter\n`
      )
      expect(result.refused).toMatch(/no block <!-- bench:latency -->/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("README.md's Performance section and docs/performance.md hold what the bench wrote, naming the machine and the load", () => {
    const blockOf = (file: string, kind: string) => {
      const text = readFileSync(join(ROOT, file), "utf8")
      const block = new RegExp(`<!-- ${kind}:latency,sync-now -->\\n([\\s\\S]*?)<!-- /${kind}:latency,sync-now -->`).exec(text)
      expect(block).not.toBeNull()
      return block![1].split("\n")
    }
    const [readmeFirst, ...readmeRest] = blockOf("README.md", "bench-summary")
    const [docFirst, ...docRest] = blockOf("docs/performance.md", "bench")
    expect(readmeFirst).toMatch(MACHINE_AND_LOAD)
    expect(readmeFirst).toBe(docFirst)
    expect(readmeRest).toContain(HEADER)
    // README's rows are the run's rows with a target: the same lines as in docs/performance.md.
    const targetRows = readmeRest.filter((line) => line.startsWith("| ") && line !== HEADER)
    expect(targetRows.length).toBeGreaterThan(0)
    for (const row of targetRows) {
      expect(row).toMatch(/\| (yes|\*\*no\*\*) \|$/)
      expect(docRest).toContain(row)
    }
  })
})
