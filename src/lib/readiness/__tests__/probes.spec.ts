import { runProbes } from "../probes"

describe("readiness probes", () => {
  it("each probe answers on its own: a hanging one fails by its timeout, a throwing one with its error, the others pass", async () => {
    const results = await runProbes(
      [
        { name: "database", run: async () => 1 },
        { name: "locking", run: () => new Promise(() => undefined) },
        { name: "other", run: async () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:6379")) },
      ],
      50
    )
    expect(results).toEqual([
      { name: "database", ok: true },
      { name: "locking", ok: false, error: "no answer within 50 ms" },
      { name: "other", ok: false, error: "connect ECONNREFUSED 127.0.0.1:6379" },
    ])
  })
})
