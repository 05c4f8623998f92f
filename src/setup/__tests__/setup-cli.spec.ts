import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseSetupArgs, setupArgsFromEnv, SETUP_ARGS_ENV } from "../args"
import { checkAdminRouter } from "../router-check"

function writePackage(dir: string, manifest: Record<string, unknown>) {
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, "package.json"), JSON.stringify(manifest))
}

/** A store folder with @medusajs/dashboard depending on one react-router-dom and the store root holding another. */
function storeWithRouters(rootVersion: string, dashboardVersion: string, nested: boolean): string {
  const store = mkdtempSync(join(tmpdir(), "sipay-setup-"))
  writePackage(store, { name: "store" })
  writePackage(join(store, "node_modules", "@medusajs", "dashboard"), { name: "@medusajs/dashboard", version: "2.21.2", dependencies: { "react-router-dom": dashboardVersion } })
  writePackage(join(store, "node_modules", "react-router-dom"), { name: "react-router-dom", version: rootVersion })
  if (nested) {
    writePackage(join(store, "node_modules", "@medusajs", "dashboard", "node_modules", "react-router-dom"), { name: "react-router-dom", version: dashboardVersion })
  }
  return store
}

describe("sipay-setup", () => {
  const stores: string[] = []
  afterAll(() => stores.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

  it("shows only (dry run) unless --apply; numbers are checked; arguments reach the exec script through the environment", () => {
    expect(parseSetupArgs([])).toEqual({ apply: false, taxRate: 20, shippingPrice: 0 })
    expect(parseSetupArgs(["--apply", "--tax-rate=10", "--shipping-price=49.9"])).toEqual({ apply: true, taxRate: 10, shippingPrice: 49.9 })
    expect(() => parseSetupArgs(["--tax-rate=-1"])).toThrow("--tax-rate needs a number")
    expect(() => parseSetupArgs(["--yes"])).toThrow('unknown argument "--yes"')
    expect(parseSetupArgs(["--test-order"])).toEqual({ apply: false, taxRate: 20, shippingPrice: 0, testOrder: true })
    expect(setupArgsFromEnv({ [SETUP_ARGS_ENV]: JSON.stringify({ apply: true, taxRate: 8 }) })).toEqual({ apply: true, taxRate: 8, shippingPrice: 0 })
    expect(setupArgsFromEnv({})).toEqual({ apply: false, taxRate: 20, shippingPrice: 0 })
  })

  it("names the admin's router clash of a create-medusa-app 2.21 store and the command that fixes it", () => {
    const clash = storeWithRouters("6.30.4", "7.18.2", true)
    stores.push(clash)
    const found = checkAdminRouter(clash)
    expect(found).toMatchObject({ storeVersion: "6.30.4", dashboardVersion: "7.18.2" })
    expect(found.problem).toContain("useLocation() may be used only in the context of a <Router>")
    expect(found.problem).toContain("Fix: npm install --legacy-peer-deps react-router-dom@7.18.2")

    const aligned = storeWithRouters("7.18.2", "7.18.2", false)
    stores.push(aligned)
    expect(checkAdminRouter(aligned).problem).toBeUndefined()
  })
})
