import { spawn, type ChildProcess } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { checkstatusBody, getJson, merchantConfig, paymentFields, postJson } from "./support"

const ROOT = join(__dirname, "../../..")
const CLI = join(__dirname, "../cli.ts")

type Running = { child: ChildProcess; ready: any; output: string }

/** Runs the CLI from source (ts-node, transpile only) and waits for its SANDBOX_READY line. */
function runCli(args: string[]): Promise<Running> {
  const child = spawn(process.execPath, [require.resolve("ts-node/dist/bin"), "--transpile-only", CLI, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] })
  let output = ""
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no SANDBOX_READY line:\n${output}`)), 60_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const line = output.split("\n").find((l) => l.startsWith("SANDBOX_READY ") && output.includes(`${l}\n`))
      if (line) {
        clearTimeout(timer)
        resolve({ child, ready: JSON.parse(line.slice("SANDBOX_READY ".length)), output })
      }
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.on("exit", (code) => reject(new Error(`exited with ${code}:\n${output}`)))
  })
}

function stop(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> {
  return new Promise((resolve) => {
    child.once("exit", (code) => resolve(code))
    child.kill(signal)
  })
}

describe("sandbox: the sipay-sandbox CLI", () => {
  const dir = mkdtempSync(join(tmpdir(), "sipay-sandbox-"))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("prints the URLs, credentials and test cards, then one SANDBOX_READY line per contracts.md; stops on SIGINT", async () => {
    const { child, ready, output } = await runCli(["--port", "0"])
    try {
      expect(Object.keys(ready)).toEqual(["base_url", "panel_url", "link_base", "merchant"])
      expect(ready.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ccpayment$/)
      expect(ready.panel_url).toBe(ready.base_url)
      expect(ready.link_base).toBe(ready.base_url.replace(/\/ccpayment$/, ""))
      expect(Object.keys(ready.merchant)).toEqual(["merchant_id", "merchant_key", "app_id", "app_secret"])
      expect(output).toContain("4508034508034509")
      expect(output).toContain(ready.merchant.app_secret)
      expect((await fetch(`${ready.link_base}/__sandbox/clock`)).status).toBe(404)
    } finally {
      expect(await stop(child, "SIGINT")).toBe(0)
    }
  })

  it("keeps the demo merchant, sales and clock in the --data file across a restart", async () => {
    const data = join(dir, "state", "sandbox.json")
    const first = await runCli(["--port", "0", "--data", data, "--test-controls"])
    const { merchant } = first.ready
    const token = (await postJson(`${first.ready.base_url}/api/token`, { app_id: merchant.app_id, app_secret: merchant.app_secret })).body.data.token
    const fields = paymentFields(merchant)
    expect((await postJson(`${first.ready.base_url}/api/paySmart2D`, fields, token)).body.status_code).toBe(100)
    await postJson(`${first.ready.link_base}/__sandbox/clock`, { advance_seconds: 3600 })
    expect(await stop(first.child)).toBe(0)

    const second = await runCli(["--port", "0", "--data", data, "--test-controls"])
    try {
      expect(second.ready.merchant).toEqual(merchant)
      const { body } = await postJson(`${second.ready.base_url}/api/checkstatus`, checkstatusBody(merchant, fields.invoice_id), token)
      expect(body).toMatchObject({ status_code: 100, transaction_status: "Completed" })
      const clock = (await getJson(`${second.ready.link_base}/__sandbox/clock`)).body
      expect(clock.offset_seconds).toBeGreaterThanOrEqual(3600)
    } finally {
      await stop(second.child)
    }
  })

  it("takes the answer conventions: --checkstatus-codes reference --checkstatus-array; refuses an unknown naming", async () => {
    const { child, ready } = await runCli(["--port", "0", "--checkstatus-codes", "reference", "--checkstatus-array", "--redirect-names", "sipay"])
    try {
      const { merchant } = ready
      const token = (await postJson(`${ready.base_url}/api/token`, { app_id: merchant.app_id, app_secret: merchant.app_secret })).body.data.token
      const { body } = await postJson(`${ready.base_url}/api/checkstatus`, checkstatusBody(merchant, "no_such_invoice"), token)
      expect(body).toEqual([{ status_code: 31, status_description: "Transaction not found" }])
    } finally {
      await stop(child)
    }
    await expect(runCli(["--port", "0", "--redirect-names", "live"])).rejects.toThrow(/--redirect-names must be one of service, sipay/)
  })

  it("serves the merchants of --config (the gateway's published test credentials)", async () => {
    const config = join(dir, "sandbox.json")
    const published = merchantConfig({ is_3d: 2 })
    writeFileSync(config, JSON.stringify({ merchants: [published] }))
    const { child, ready } = await runCli(["--port", "0", "--config", config])
    try {
      expect(ready.merchant).toEqual({ merchant_id: published.merchant_id, merchant_key: published.merchant_key, app_id: published.app_id, app_secret: published.app_secret })
      const { body } = await postJson(`${ready.base_url}/api/token`, { app_id: published.app_id, app_secret: published.app_secret })
      expect(body.data.is_3d).toBe(2)
    } finally {
      await stop(child)
    }
  })

  it("gives a --config merchant without credentials the ones derived from the --data file's seed, printed and kept across a restart; its webhook keys are the ones configured", async () => {
    // README's install: the owner's config names only the webhooks; .env gets what the start printed.
    const config = join(dir, "owner.json")
    const data = join(dir, "owner-state.json")
    writeFileSync(config, JSON.stringify({ merchants: [{ sale_webhooks: { "medusa-sale": "http://localhost:9/hooks" }, recurring_webhooks: { "medusa-recurring": "http://localhost:9/r" } }] }))
    const first = await runCli(["--port", "0", "--config", config, "--data", data])
    const { merchant } = first.ready
    try {
      expect(merchant.merchant_key).toMatch(/^\$2y\$10\$[0-9a-f]{40}$/)
      expect(merchant.app_id).toMatch(/^[0-9a-f]{32}$/)
      expect(first.output).toContain(`merchant_key  ${merchant.merchant_key}`)
      expect(first.output).toContain(`app_secret    ${merchant.app_secret}`)
      const token = (await postJson(`${first.ready.base_url}/api/token`, { app_id: merchant.app_id, app_secret: merchant.app_secret })).body.data.token
      const known = await postJson(`${first.ready.base_url}/api/paySmart2D`, paymentFields(merchant, { sale_webhook_key: "medusa-sale" }), token)
      expect(known.body.status_code).toBe(100)
      const unknown = await postJson(`${first.ready.base_url}/api/paySmart2D`, paymentFields(merchant, { sale_webhook_key: "other" }), token)
      expect(unknown.body.status_code).toBe(56)
    } finally {
      expect(await stop(first.child)).toBe(0)
    }
    const second = await runCli(["--port", "0", "--config", config, "--data", data])
    try {
      expect(second.ready.merchant).toEqual(merchant)
    } finally {
      await stop(second.child)
    }
  })
})
