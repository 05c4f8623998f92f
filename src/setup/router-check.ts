/**
 * Medusa's admin renders plugin pages inside its own router. A store whose root
 * `react-router-dom` differs from the one @medusajs/dashboard depends on (create-medusa-app 2.21
 * keeps the starter's 6.30.4 beside the dashboard's 7.x) gives plugin pages another copy, and
 * they crash with "useLocation() may be used only in the context of a <Router>" (Medusa's own
 * draft-order pages too). Reads package.json files only.
 */
import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"

export type RouterCheck = { storeVersion?: string; dashboardVersion?: string; problem?: string }

function readJson(path: string): Record<string, any> | undefined {
  try {
    return JSON.parse(readFileSync(path, "utf8"))
  } catch {
    return undefined
  }
}

function installedVersion(name: string, from: string): string | undefined {
  try {
    return readJson(require.resolve(`${name}/package.json`, { paths: [from] }))?.version
  } catch {
    return undefined
  }
}

export function checkAdminRouter(storeRoot: string): RouterCheck {
  let dashboardDir: string
  try {
    dashboardDir = dirname(require.resolve("@medusajs/dashboard/package.json", { paths: [storeRoot] }))
  } catch {
    return {}
  }
  const dashboardVersion = installedVersion("react-router-dom", dashboardDir)
  const storeVersion = installedVersion("react-router-dom", storeRoot)
  if (!dashboardVersion || !storeVersion || dashboardVersion === storeVersion) {
    return { storeVersion, dashboardVersion }
  }
  const wanted = readJson(join(dashboardDir, "package.json"))?.dependencies?.["react-router-dom"] ?? dashboardVersion
  return {
    storeVersion,
    dashboardVersion,
    problem:
      `The store has react-router-dom ${storeVersion} but Medusa's admin (@medusajs/dashboard) uses ${dashboardVersion}: ` +
      `plugin admin pages (and Medusa's draft orders) crash with "useLocation() may be used only in the context of a <Router>". ` +
      `Fix: npm install --legacy-peer-deps react-router-dom@${wanted}`,
  }
}
