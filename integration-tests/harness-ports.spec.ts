import { readFileSync } from "node:fs"
import { createServer } from "node:net"
import { freeListenPort } from "./harness/ports"

/**
 * The port a suite's Medusa app listens on seconds after it is chosen: drawn below the kernel's
 * ephemeral range, where no outgoing connection (PostgreSQL, the sandbox) can take it meanwhile
 * (CI once failed a suite with EADDRINUSE on a port from that range).
 */
describe("test harness ports", () => {
  it("draws free ports below the ephemeral range, where they can be listened on", async () => {
    const [ephemeralStart] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number)
    const ports = await Promise.all(Array.from({ length: 20 }, () => freeListenPort()))
    for (const port of ports) {
      expect(port).toBeGreaterThan(1024)
      expect(port).toBeLessThan(ephemeralStart)
      const server = createServer()
      await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, () => resolve()))
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})
