import { createServer } from "node:net"

/** A port free now, from the kernel's ephemeral range: for a closed port, or a server that listens on it at once. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.on("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0))
    })
  })
}

/**
 * A free port for a server that listens on it only seconds later (a Medusa app): below the kernel's
 * ephemeral range, so no outgoing connection takes it meanwhile (scripts/lib/listen-port.cjs).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const freeListenPort: () => Promise<number> = require("../../scripts/lib/listen-port.cjs").freeListenPort
