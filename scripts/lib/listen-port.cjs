// A free port for a server that starts listening only seconds later (a Medusa process boots, migrates
// and opens its database connections first). A port from the kernel's ephemeral range (what listen(0)
// gives) does not stay free that long: any outgoing connection on the machine (a PostgreSQL
// connection, a request to the sandbox) may be given it as its local port, and the server's listen
// then fails with EADDRINUSE. So the port is drawn below that range, which outgoing connections never
// use, and checked free on all interfaces (as Medusa's app.listen(port) binds). CommonJS so that both
// the demo's ES modules and the test harness load it.
const { readFileSync } = require("node:fs")
const { createServer } = require("node:net")

/** The first port the kernel gives outgoing connections (net.ipv4.ip_local_port_range), 32768 where it cannot be read. */
function ephemeralStart() {
  try {
    const start = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0])
    return Number.isInteger(start) && start > 2000 ? start : 32768
  } catch {
    return 32768
  }
}

function bindable(port) {
  return new Promise((resolve) => {
    const server = createServer()
    server.once("error", () => resolve(false))
    server.listen(port, () => server.close(() => resolve(true)))
  })
}

/** A port below the ephemeral range, free now. */
async function freeListenPort() {
  const top = ephemeralStart() - 1
  const bottom = Math.max(1025, Math.min(10000, top - 1000))
  for (let tries = 0; tries < 200; tries++) {
    const port = bottom + Math.floor(Math.random() * (top - bottom + 1))
    if (await bindable(port)) return port
  }
  throw new Error(`no free port between ${bottom} and ${top}`)
}

module.exports = { ephemeralStart, freeListenPort }
