#!/usr/bin/env node
// `npm run docs:figures`: writes the package's figures into docs/install.md (the table after the
// marker <!-- pack-figures -->) from what `npm pack` would pack now. Run it after `npm run build`
// (the compiled code is most of the package); the install test checks the table against the
// tarball it packs, so the figures cannot go stale unnoticed.
import { execFileSync } from "node:child_process"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..")
const DOC = join(ROOT, "docs", "install.md")
const MARKER = "<!-- pack-figures -->"

if (!existsSync(join(ROOT, ".medusa", "server", "src"))) {
  console.error("pack-figures: no build in .medusa/server: run `npm run build` first")
  process.exit(2)
}

/** The table written under the marker: packed size, unpacked size, files, type declarations. */
export function figuresTable({ size, unpackedSize, files }) {
  const declarations = files.filter((path) => path.endsWith(".d.ts")).length
  return [
    "| packed | unpacked | files | of them type declarations |",
    "|---|---|---|---|",
    `| ${(size / 1000).toFixed(1)} kB | ${(unpackedSize / 1e6).toFixed(2)} MB | ${files.length} | ${declarations} |`,
  ].join("\n")
}

function write(table) {
  const doc = readFileSync(DOC, "utf8")
  const at = doc.indexOf(MARKER)
  if (at < 0) throw new Error(`docs/install.md has no ${MARKER}`)
  const after = doc.slice(at + MARKER.length)
  // The marker, then the table's lines up to the first line that is not a table row.
  const rest = after.replace(/^\n(\|[^\n]*\n)*/, "")
  writeFileSync(DOC, `${doc.slice(0, at)}${MARKER}\n${table}\n${rest}`)
}

// Packed twice: the figures are written, then measured again with the new text in the package
// (the table's own digits change the docs' size a little).
for (let round = 0; round < 2; round++) {
  const output = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })
  const [info] = JSON.parse(output.slice(output.search(/^\[/m)))
  const table = figuresTable({ size: info.size, unpackedSize: info.unpackedSize, files: info.files.map((file) => file.path) })
  write(table)
  if (round === 1) console.log(table)
}
