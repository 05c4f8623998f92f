import { execFile } from "node:child_process"
import { mkdirSync } from "node:fs"
import { join, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import type { Browser } from "playwright-core"

type ChromiumLaunch = { executablePath: string; args: string[] }

// A Chromium shipped inside the npm package: browser tests run on a machine with no system packages.
async function chromiumLaunch(): Promise<ChromiumLaunch> {
  let chromium: { executablePath(): Promise<string>; args: string[] } | undefined
  try {
    chromium = require("@sparticuz/chromium").default ?? require("@sparticuz/chromium")
  } catch {
    // The package is ESM only: jest's module loader cannot require it, so a plain node process asks it.
  }
  if (chromium) {
    return { executablePath: await chromium.executablePath(), args: chromium.args }
  }
  const entry = pathToFileURL(require.resolve("@sparticuz/chromium")).href
  const script = `const c = (await import(${JSON.stringify(entry)})).default;
process.stdout.write(JSON.stringify({ executablePath: await c.executablePath(), args: c.args }))`
  return new Promise((resolvePromise, reject) => {
    execFile(process.execPath, ["--input-type=module", "-e", script], { env: { ...process.env, NODE_OPTIONS: "" } }, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`@sparticuz/chromium: ${stderr || error.message}`))
        return
      }
      resolvePromise(JSON.parse(stdout) as ChromiumLaunch)
    })
  })
}

let launchSettings: Promise<ChromiumLaunch> | undefined

// The package's flags suit AWS Lambda; these would make the browser unlike a shopper's (no same-origin
// policy, mixed content) or make closing one context end the whole browser (single process).
const DROPPED_FLAGS = new Set(["--single-process", "--disable-web-security", "--allow-running-insecure-content"])

/** A headless Chromium driven by playwright-core; the caller closes it. */
export async function launchBrowser(): Promise<Browser> {
  launchSettings ??= chromiumLaunch()
  const { executablePath, args } = await launchSettings
  const { chromium: playwright } = require("playwright-core") as typeof import("playwright-core")
  return playwright.launch({ executablePath, args: [...args.filter((flag) => !DROPPED_FLAGS.has(flag)), "--no-sandbox"], headless: true })
}

const SCREENSHOT_ROOT = resolve(__dirname, "..", "..", "test-output", "screenshots")

function safeName(part: string): string {
  return part.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 80) || "step"
}

/** Where a test's screenshot of one step goes: test-output/screenshots/<test>/<step>.png (folders created). */
export function screenshotPath(testName: string, step: string): string {
  const folder = join(SCREENSHOT_ROOT, safeName(testName))
  mkdirSync(folder, { recursive: true })
  return join(folder, `${safeName(step)}.png`)
}
