import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { randomUUID } from "node:crypto"
import { runProbes, type Probe } from "../../../lib/readiness/probes"

export const AUTHENTICATE = false

type Locking = { acquire(keys: string, args?: { ownerId?: string; expire?: number }): Promise<void>; release(keys: string, args?: { ownerId?: string }): Promise<boolean> }

/** Whether the last answer of this process was ready: a change is logged once, not every probe. */
let lastReady: boolean | null = null

/**
 * Readiness for a load balancer (docs/readiness.md): 200 when this instance reaches its database and
 * Medusa's locking module with a real round trip (a lock taken and given back), each within 1 s; 503
 * naming what failed otherwise. In a cluster the locking module is Redis, so an instance cut off from
 * Redis is taken out. (The caching module is no probe: it answers from memory while Redis is gone.)
 * Medusa's own /health stays static.
 */
export const GET = async (req: MedusaRequest, res: MedusaResponse) => {
  const scope = req.scope
  const probes: Probe[] = [
    { name: "database", run: () => scope.resolve(ContainerRegistrationKeys.PG_CONNECTION).raw("select 1") },
    {
      name: "locking",
      run: async () => {
        const locking = scope.resolve<Locking>(Modules.LOCKING)
        const key = `sipay:ready:${randomUUID()}`
        const ownerId = randomUUID()
        // A lock that expires by itself: a round trip still queued when the probe gave up frees itself.
        await locking.acquire(key, { ownerId, expire: 5 })
        await locking.release(key, { ownerId })
      },
    },
  ]
  const results = await runProbes(probes)
  const failed = results.filter((result) => !result.ok)
  const ready = failed.length === 0
  if (lastReady !== ready && !(ready && lastReady === null)) {
    const logger = scope.resolve(ContainerRegistrationKeys.LOGGER)
    if (ready) logger.info("Sipay readiness: ready again")
    else logger.warn(`Sipay readiness: not ready (${failed.map((result) => `${result.name}: ${result.error}`).join("; ")})`)
  }
  lastReady = ready
  res.setHeader("Cache-Control", "no-store")
  res.status(ready ? 200 : 503).json({
    status: ready ? "ready" : "not_ready",
    ...(ready ? {} : { failed: failed.map((result) => result.name) }),
    checks: Object.fromEntries(results.map((result) => [result.name, result.ok ? { ok: true } : { ok: false, error: result.error }])),
  })
}
