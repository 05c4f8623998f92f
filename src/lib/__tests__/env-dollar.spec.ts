import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadEnv } from "@medusajs/framework/utils"
import { assertValidOptions } from "../options"
import { sipayVariablesCutByExpansion } from "../env-dollar"

// A merchant key in the gateway's format, loaded by Medusa's own loadEnv from a .env file.
const KEY = "$2y$10$f410e5bbf98bed0660bf7fea16e6a5ed5c7110c9"

function loadStoreEnv(envLine: string): { dir: string; key: string | undefined } {
  const dir = mkdtempSync(join(tmpdir(), "sipay-env-"))
  writeFileSync(join(dir, ".env"), `${envLine}\n`)
  delete process.env.SIPAY_MERCHANT_KEY
  loadEnv("production", dir)
  const key = process.env.SIPAY_MERCHANT_KEY
  delete process.env.SIPAY_MERCHANT_KEY
  return { dir, key }
}

function startUpError(dir: string, merchantKey: string | undefined): string | undefined {
  const cwd = process.cwd()
  process.chdir(dir)
  try {
    assertValidOptions({ baseUrl: "http://127.0.0.1:4010/ccpayment", appId: "app", appSecret: "secret", merchantKey }, "provider options")
    return undefined
  } catch (error) {
    return (error as Error).message
  } finally {
    process.chdir(cwd)
  }
}

describe("a merchant key with $ in the store's .env", () => {
  const dirs: string[] = []
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

  it.each([
    ["unquoted", `SIPAY_MERCHANT_KEY=${KEY}`],
    ["double-quoted", `SIPAY_MERCHANT_KEY="${KEY}"`],
    ["single-quoted", `SIPAY_MERCHANT_KEY='${KEY}'`],
  ])("written %s, arrives empty and start-up names the .env line and the \\$ rule", (_, line) => {
    const { dir, key } = loadStoreEnv(line)
    dirs.push(dir)
    expect(key).toBe("")
    const message = startUpError(dir, key)
    expect(message).toContain('option "merchantKey" is required')
    expect(message).toContain("SIPAY_MERCHANT_KEY in .env")
    expect(message).toContain('"\\$"')
    expect(message).not.toContain(KEY.slice(7))
  })

  it("cut after a dot, arrives as a fragment without $ and start-up still names the cause", () => {
    const { dir, key } = loadStoreEnv("SIPAY_MERCHANT_KEY=$2y$10$abc.def/ghi")
    dirs.push(dir)
    expect(key).toBe("/ghi")
    expect(startUpError(dir, key)).toContain("SIPAY_MERCHANT_KEY in .env")
  })

  it("written with \\$ as README says, arrives whole and starts", () => {
    const { dir, key } = loadStoreEnv(`SIPAY_MERCHANT_KEY=${KEY.replace(/\$/g, "\\$")}`)
    dirs.push(dir)
    expect(key).toBe(KEY)
    expect(startUpError(dir, key)).toBeUndefined()
  })

  it("only unescaped $ before a name counts", () => {
    expect(sipayVariablesCutByExpansion(["SIPAY_APP_SECRET=abc", "SIPAY_MERCHANT_KEY=\\$2y\\$10\\$x", "OTHER=$2y", "export SIPAY_APP_ID=a$b"].join("\n"))).toEqual(["SIPAY_APP_ID"])
  })
})
