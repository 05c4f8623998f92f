// Builds dist/: one ESM file per entry (React and @medusajs/js-sdk left to the storefront), and the
// type declarations. `"use client"` heads the React entry, for the Next.js App Router. The plugin's
// files the kit shares (the shopper-message table, the card check, the address spelling) are bundled
// in; their declarations land under dist/types with the kit's, and each entry's .d.ts points there.
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"

const root = dirname(fileURLToPath(import.meta.url))
const require = createRequire(import.meta.url)
rmSync(join(root, "dist"), { recursive: true, force: true })
const common = { bundle: true, format: "esm", platform: "neutral", target: "es2021", external: ["react", "react/*", "react-dom", "@medusajs/*"], jsx: "automatic", logLevel: "warning" }
await build({ ...common, entryPoints: { index: join(root, "src/index.ts"), server: join(root, "src/server.ts") }, outdir: join(root, "dist") })
await build({ ...common, entryPoints: { react: join(root, "src/react/index.ts") }, outdir: join(root, "dist") })
execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", join(root, "tsconfig.json")], { stdio: "inherit" })
// Relative imports of the declarations with their ".js", as ESM resolution (node16, nodenext) wants them.
for (const file of readdirSync(join(root, "dist", "types"), { recursive: true }).filter((name) => String(name).endsWith(".d.ts"))) {
  const path = join(root, "dist", "types", String(file))
  const text = readFileSync(path, "utf8").replace(/(from |import\()"(\.{1,2}\/[^"]+?)"/g, (whole, head, specifier) => {
    const target = resolve(dirname(path), specifier)
    if (existsSync(`${target}.d.ts`)) return `${head}"${specifier}.js"`
    if (existsSync(join(target, "index.d.ts"))) return `${head}"${specifier}/index.js"`
    return whole
  })
  writeFileSync(path, text)
}
const entries = { "index.d.ts": "./types/packages/storefront/src/index.js", "server.d.ts": "./types/packages/storefront/src/server.js", "react/index.d.ts": "../types/packages/storefront/src/react/index.js" }
mkdirSync(join(root, "dist", "react"), { recursive: true })
for (const [file, target] of Object.entries(entries)) {
  writeFileSync(join(root, "dist", file), `export * from "${target}"\n`)
}
