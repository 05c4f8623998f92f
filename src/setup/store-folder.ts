import { existsSync } from "node:fs"
import { join } from "node:path"

/**
 * The store's own Medusa CLI, for the package's commands (sipay-setup, sipay-audit) that run a script
 * through the store's `medusa exec`: the folder must hold medusa-config and have @medusajs/cli
 * installed. Throws, in the words the command prints, when it is not such a folder.
 */
export function storeMedusaCli(storeRoot: string): string {
  if (!["medusa-config.ts", "medusa-config.js"].some((name) => existsSync(join(storeRoot, name)))) {
    throw new Error("run it in the store's folder (the one holding medusa-config.ts)")
  }
  try {
    return require.resolve("@medusajs/cli/cli.js", { paths: [storeRoot] })
  } catch {
    throw new Error("@medusajs/cli is not installed in this store")
  }
}
