#!/usr/bin/env node
/**
 * `npx sipay-setup [--apply] [--tax-rate=20] [--shipping-price=0]`, run in the store's folder.
 * `npx sipay-setup --test-order`: a first test order without a storefront (test-order.js), with the store running.
 * Shows what a Turkish region needs to take Sipay payments (and changes it only with --apply) by
 * running region-setup.js through the store's own `medusa exec`, which resolves the script's path
 * against the current folder: the path is given absolute.
 */
import { spawnSync } from "node:child_process"
import { join } from "node:path"
import { parseSetupArgs, SETUP_ARGS_ENV } from "./args"
import { checkAdminRouter } from "./router-check"
import { storeMedusaCli } from "./store-folder"

function main(): number {
  const storeRoot = process.cwd()
  let args
  try {
    args = parseSetupArgs(process.argv.slice(2))
  } catch (error) {
    console.error(`sipay-setup: ${(error as Error).message}`)
    return 2
  }
  if (args.help) {
    console.log("Usage: npx sipay-setup [--apply] [--tax-rate=20] [--shipping-price=0]\n" +
      "  Run in the store's folder after `npx medusa db:migrate`. Without --apply it only shows what it would do.\n" +
      "       npx sipay-setup --test-order\n" +
      "  With the store running: makes a test cart in the Turkish region and prints its card page's link to pay in a browser.")
    return 0
  }
  let medusaCli: string
  try {
    medusaCli = storeMedusaCli(storeRoot)
  } catch (error) {
    console.error(`sipay-setup: ${(error as Error).message}`)
    return 2
  }
  const script = join(__dirname, args.testOrder ? "test-order.js" : "region-setup.js")
  const run = spawnSync(process.execPath, [medusaCli, "exec", script], {
    cwd: storeRoot,
    stdio: "inherit",
    env: { ...process.env, [SETUP_ARGS_ENV]: JSON.stringify(args) },
  })
  if (run.status !== 0 || args.testOrder) {
    return run.status ?? 1
  }
  // Printed last so it is what the store owner sees: the admin pages crash until it is fixed.
  const router = checkAdminRouter(storeRoot)
  if (router.problem) {
    console.log(`\n! ${router.problem}`)
    return 3
  }
  return 0
}

process.exitCode = main()
