/** One dependency an instance needs to serve shoppers, asked through a real round trip. */
export type Probe = { name: string; run: () => Promise<unknown> }

export type ProbeResult = { name: string; ok: boolean; error?: string }

/** Each probe's own limit: a load balancer's check must answer fast, whatever hangs behind it. */
export const PROBE_TIMEOUT_MS = 1000

/** Runs every probe at once, each bounded by its own timeout; never throws. */
export async function runProbes(probes: Probe[], timeoutMs = PROBE_TIMEOUT_MS): Promise<ProbeResult[]> {
  return Promise.all(
    probes.map(async (probe) => {
      let timer: NodeJS.Timeout | undefined
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
      })
      try {
        await Promise.race([probe.run(), timeout])
        return { name: probe.name, ok: true }
      } catch (error) {
        // The probe's own words only (a driver's message names a host and port, never a password here).
        return { name: probe.name, ok: false, error: String((error as Error)?.message ?? error).slice(0, 200) }
      } finally {
        clearTimeout(timer)
      }
    })
  )
}
