// Builds dist/: one ESM file per entry (React and @medusajs/js-sdk left to the storefront), and the
// type declarations. `"use client"` heads the React entry, for the Next.js App Router.
import { execFileSync } from "node:child_process"
import { rmSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"

const root = dirname(fileURLToPath(import.meta.url))
const require = createRequire(import.meta.url)
rmSync(join(root, "dist"), { recursive: true, force: true })
const common = { bundle: true, format: "esm", platform: "neutral", target: "es2021", external: ["react", "react/*", "react-dom", "@medusajs/*"], jsx: "automatic", logLevel: "warning" }
await build({ ...common, entryPoints: { index: join(root, "src/index.ts"), server: join(root, "src/server.ts") }, outdir: join(root, "dist") })
await build({ ...common, entryPoints: { react: join(root, "src/react/index.ts") }, outdir: join(root, "dist") })
execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", join(root, "tsconfig.json")], { stdio: "inherit" })
