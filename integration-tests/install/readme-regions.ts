import { readFileSync } from "node:fs"
import { join } from "node:path"

/**
 * README's install section holds the code blocks a store owner copies, each after a marker
 * `<!-- install-test:NAME -->`. The install test takes them from there, so README and test cannot
 * drift: what the test runs is what README says.
 */

export const README_PATH = join(__dirname, "..", "..", "README.md")

export type InstallRegions = { npm: string; config: string; env: string; run: string }

export function readInstallRegions(readme = readFileSync(README_PATH, "utf8")): InstallRegions {
  const region = (name: keyof InstallRegions) => {
    const match = new RegExp(`<!-- install-test:${name} -->\\s*\`\`\`[a-z]*\\n([\\s\\S]*?)\\n\`\`\``).exec(readme)
    if (!match) {
      throw new Error(`README.md has no code block marked <!-- install-test:${name} -->`)
    }
    return match[1]
  }
  return { npm: region("npm"), config: region("config"), env: region("env"), run: region("run") }
}

/** Shell lines of a block, comments and blank lines dropped. */
export function commandLines(block: string): string[] {
  return block
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line && !line.startsWith("#"))
}

/** The command splitted into words (README's commands use no quoting). */
export function words(line: string): string[] {
  return line.split(/\s+/)
}

/**
 * README's .env lines with only their values replaced: each NAME=value line keeps its place and
 * its name; a value the test does not give stays as README has it. The merchant key is written
 * the way README says (every "$" as "\$"), which the test checks README's example does too.
 */
export function envFromReadme(block: string, values: Record<string, string>): string {
  const seen = new Set<string>()
  const lines = block.split("\n").map((line) => {
    const match = /^([A-Z0-9_]+)=(.*)$/.exec(line)
    if (!match || !(match[1] in values)) {
      return line
    }
    seen.add(match[1])
    return `${match[1]}=${values[match[1]]}`
  })
  const missing = Object.keys(values).filter((name) => !seen.has(name))
  if (missing.length) {
    throw new Error(`README's .env block has no line for ${missing.join(", ")}`)
  }
  return lines.join("\n")
}

/** The README rule for a "$" in a .env value. */
export function escapeDollars(value: string): string {
  return value.replace(/\$/g, "\\$")
}
