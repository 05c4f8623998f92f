import { execFile } from "node:child_process"
import { join } from "node:path"
import { promisify } from "node:util"

const run = promisify(execFile)
const ROOT = join(__dirname, "..", "..")

jest.setTimeout(60 * 1000)

/**
 * The demo's cluster proxy (scripts/lib/demo-proxy.mjs) in its own Node process (an ES module), in
 * front of two real HTTP servers on this machine: what a load balancer must do when one of them dies.
 */
describe("the demo's cluster proxy takes a dead server out", () => {
  it("health-checks its instances, sends a refused POST to the live one, never resends one that reached the dying one, and takes a restarted one back", async () => {
    const program = `
      import { createServer } from "node:http"
      import { startClusterProxy } from "./scripts/lib/demo-proxy.mjs"
      const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
      const received = { a: 0, b: 0 }
      const serve = (name, port = 0, dieMidRequest = false) => new Promise((resolve) => {
        const server = createServer((req, res) => {
          let body = ""
          req.on("data", (chunk) => (body += chunk))
          req.on("end", () => {
            if (req.url === "/health") return res.end("ok")
            received[name] += 1
            if (dieMidRequest && req.url === "/slow") return req.socket.destroy() // reached, then died
            res.end(name + ":" + req.method + ":" + body)
          })
        })
        server.listen(port, "127.0.0.1", () => resolve(server))
      })
      let a = await serve("a", 0, true)
      const b = await serve("b")
      const portA = a.address().port
      const backends = [{ name: "a", url: "http://127.0.0.1:" + portA }, { name: "b", url: "http://127.0.0.1:" + b.address().port }]
      const proxy = await startClusterProxy({ backends, healthEveryMs: 100, healthTimeoutMs: 500 })
      // The same proxy without health checks: only the retry of a refused request keeps shoppers off the dead server.
      const bare = await startClusterProxy({ backends, healthEveryMs: 0 })
      const post = async (path = "/pay", aimed, through = proxy) => {
        const answer = await fetch(through.url + path, { method: "POST", body: "form", headers: aimed ? { "x-cluster-instance": aimed } : {} })
        return answer.status + " " + (await answer.text()).split(" (")[0]
      }
      const out = {}
      out.roundRobin = [await post(), await post()]
      out.reachedThenDied = await post("/slow", "a")
      a.closeAllConnections(); await new Promise((resolve) => a.close(resolve))
      // Refused by the dead server (it never got them): sent to b, with and without health checks.
      out.afterDeathBare = [await post("/pay", undefined, bare), await post("/pay", undefined, bare), await post("/pay", undefined, bare)]
      out.afterDeath = [await post(), await post(), await post(), await post()]
      out.aimedAtDead = await post("/pay", "a")
      await sleep(400)
      const before = { ...received }
      a = await serve("a", portA)
      await sleep(400) // a health check passes: a is back
      out.afterRestart = [await post(), await post()]
      out.received = received
      out.receivedBeforeRestart = before
      await proxy.close(); await bare.close(); a.close(); b.close()
      console.log(JSON.stringify(out))
    `
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", program], { cwd: ROOT, timeout: 50000 })
    const out = JSON.parse(stdout.trim().split("\n").pop()!)
    expect(out.roundRobin.sort()).toEqual(["200 a:POST:form", "200 b:POST:form"])
    // A request the dying server had received is answered 502, never sent to the other one.
    expect(out.reachedThenDied).toBe("502 cluster proxy: a did not answer")
    expect(out.afterDeathBare).toEqual(Array(3).fill("200 b:POST:form"))
    expect(out.afterDeath).toEqual(Array(4).fill("200 b:POST:form"))
    // Requests aimed at one instance (tests) go there only.
    expect(out.aimedAtDead).toBe("502 cluster proxy: a did not answer")
    expect(out.receivedBeforeRestart).toEqual({ a: 2, b: 8 })
    expect(out.afterRestart.sort()).toEqual(["200 a:POST:form", "200 b:POST:form"])
  })
})
