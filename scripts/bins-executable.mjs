// `medusa plugin:build` writes every file without the execute bit; the package's bins need it
// (npx links them and runs them directly). Run after the build by `npm run build`.
import { chmodSync, existsSync, readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const { bin } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"))
for (const [name, file] of Object.entries(bin ?? {})) {
  const path = join(root, file)
  if (!existsSync(path)) {
    console.error(`bin "${name}": ${file} was not built`)
    process.exit(1)
  }
  chmodSync(path, 0o755)
}
