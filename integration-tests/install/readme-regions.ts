import { readFileSync } from "node:fs"
import { join } from "node:path"

/**
 * README's install section holds the code blocks a store owner copies, each after a marker
 * `<!-- install-test:NAME -->`. The install test takes them from there, so README and test cannot
 * drift: what the test runs is what README says.
 */

export const README_PATH = join(__dirname, "..", "..", "README.md")

export type InstallRegions = { npm: string; config: string; sandbox: string; env: string; run: string; "test-order": string }

export function readInstallRegions(readme = readFileSync(README_PATH, "utf8")): InstallRegions {
  const region = (name: keyof InstallRegions) => {
    const match = new RegExp(`<!-- install-test:${name} -->\\s*\`\`\`[a-z]*\\n([\\s\\S]*?)\\n\`\`\``).exec(readme)
    if (!match) {
      throw new Error(`README.md has no code block marked <!-- install-test:${name} -->`)
    }
    return match[1]
  }
  return { npm: region("npm"), config: region("config"), sandbox: region("sandbox"), env: region("env"), run: region("run"), "test-order": region("test-order") }
}

/**
 * README's sandbox block: a file written with a quoted here-document (`cat > FILE <<'EOF'` … `EOF`),
 * then the command that starts the sandbox with it. Nothing else is allowed in the block.
 */
export function sandboxFromReadme(block: string): { file: string; content: string; command: string } {
  const match = /^cat > (\S+) <<'EOF'\n([\s\S]*?)\nEOF\n([\s\S]*)$/.exec(block)
  if (!match) {
    throw new Error("README's sandbox block is not `cat > FILE <<'EOF'` … `EOF` followed by the command")
  }
  const commands = commandLines(match[3])
  if (commands.length !== 1) {
    throw new Error(`README's sandbox block has ${commands.length} commands after the file, not one`)
  }
  return { file: match[1], content: match[2], command: commands[0] }
}

/** The value README's .env block gives a name. */
export function envValue(block: string, name: string): string | undefined {
  return new RegExp(`^${name}=(.*)$`, "m").exec(block)?.[1]
}

/** Every link and image target of a markdown text (inline `[text](target)` form), in order. */
export function markdownLinks(markdown: string): string[] {
  const withoutCode = markdown.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "")
  return [...withoutCode.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)].map((match) => match[1])
}

/** The anchors GitHub and npm give a markdown file's headings (lower case, punctuation dropped, spaces as "-"). */
export function headingAnchors(markdown: string): Set<string> {
  const withoutCode = markdown.replace(/```[\s\S]*?```/g, "")
  return new Set(
    [...withoutCode.matchAll(/^#{1,6} (.+)$/gm)].map((match) =>
      match[1]
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, "")
        .replace(/ /g, "-")
    )
  )
}

/** The package figures docs/install.md states under its <!-- pack-figures --> marker. */
export function statedPackFigures(doc: string): { packedKb: number; unpackedMb: number; files: number; declarations: number } {
  const match = /<!-- pack-figures -->\n\|[^\n]*\n\|[^\n]*\n\| ([\d.]+) kB \| ([\d.]+) MB \| (\d+) \| (\d+) \|/.exec(doc)
  if (!match) {
    throw new Error("docs/install.md has no package figures under <!-- pack-figures -->")
  }
  return { packedKb: Number(match[1]), unpackedMb: Number(match[2]), files: Number(match[3]), declarations: Number(match[4]) }
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
