import fc from "fast-check"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { seedStoreWithAdmin } from "../harness/seed"
import { clearSandboxFaults, useSipayStack } from "../harness/stack"
import { AdminRefund, CancelOrder, FormsWhileSettling, SetCaptureMode, checkoutArbitrary, commandArbitraries, DeleteSavedCard, LedgerSync, NewCheckout, OpenForm, PanelRefund, PayDirect, PaySavedCard, PayTab, Quiesce } from "./commands"
import { signedInCustomer } from "../harness/customers"
import { newModel, type Model } from "./model"
import { watchWebhooks } from "./quiesce"
import { runSettings } from "./settings"
import type { World } from "./world"

// The money-invariant suite (docs/reliability.md): random sequences of shoppers, the gateway, the
// merchant, the plugin's jobs and faults, interleaved on a few carts at once, against a real Medusa
// app and the sandbox; the oracle reads only the sandbox's records and Medusa's tables.
jest.setTimeout(60 * 60 * 1000)

const settings = runSettings()

/** INVARIANT_VERBOSE=1 prints every sequence as it ran (what each command saw), passing or not. */
function printSequence(model: Model): void {
  if (process.env.INVARIANT_VERBOSE) process.stdout.write(`${model.log.map((line) => `[invariants]   ${line}`).join("\n")}\n`)
}
const INSTALLMENT_FEES = { "3": { mode: "gateway" }, "6": { mode: "own", percentage: 4.25, fixed: 1 } }

const stack = useSipayStack({
  env: {
    // Reconciliation takes every pending attempt when it runs (the suite runs it as a command); a short gateway timeout for the latency faults.
    SIPAY_RECONCILE_AFTER_SECONDS: "0",
    SIPAY_TIMEOUT_MS: "1000",
    // Limits are another suite's subject: here one test card pays every cart.
    SIPAY_RATE_LIMITS: JSON.stringify({ enabled: false }),
  },
})

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let world: World
    let watching = false

    beforeEach(async () => {
      const { store, admin } = await seedStoreWithAdmin(getContainer(), api)
      // The run's signed-in customers; the sandbox (one per file) keeps cards across tests, their numbers are new each time.
      const customers = await Promise.all(["ayse@example.com", "mehmet@example.com"].map((email) => signedInCustomer(api as never, store, email)))
      world = { api: api as never, stack, store, customers, admin, container: getContainer }
      // Fee-bearing counts: 3 installments at the gateway's rate, 6 at the merchant's own (a cart line each, a new session).
      await api.post("/admin/sipay/settings", { installment_fees: INSTALLMENT_FEES }, admin)
      if (!watching) {
        watchWebhooks(world)
        watching = true
      }
    })
    afterEach(() => clearSandboxFaults(stack))

    const run = async (commands: Iterable<fc.AsyncCommand<Model, World>>) => {
      const model = newModel()
      try {
        await fc.asyncModelRun(() => ({ model, real: world }), commands)
      } finally {
        printSequence(model)
      }
    }

    it("two tabs paid on one session, then the ledger sync: the kept payment is neither refunded in Medusa nor at the gateway", async () => {
      await run([
        new NewCheckout("3d", [1, 0]),
        new OpenForm(0),
        new OpenForm(0),
        new PayTab(0, "good", "confirm", "deliver"),
        new PayTab(0, "good", "confirm", "deliver"),
        new LedgerSync(),
        new Quiesce(),
      ])
    })

    it("a direct payment submitted three times at once, then the ledger sync: one order, one payment kept, the others given back", async () => {
      await run([new NewCheckout("2d", [1, 0]), new PayDirect(0, 3, "good"), new LedgerSync(), new Quiesce()])
    })

    it("installment fees: 3 installments at the gateway's rate (submitted twice at once) and 6 at the merchant's rate, refunded in part, in the panel and in full: every lira accounted for", async () => {
      await run([
        new NewCheckout("2d", [1, 1]),
        new PayDirect(0, 2, "good", false, 3),
        new NewCheckout("2d", [2, 0]),
        new PayDirect(0, 1, "good", false, 6),
        new AdminRefund(0, "half"),
        new PanelRefund(1, "half"),
        new AdminRefund(1, "full"),
        new LedgerSync(),
        new Quiesce(),
      ])
    })

    it("a customer saves a card, pays with it (3D), the other customer's and a deleted card are refused, the gateway deletes one: every sale paid its own customer's cart", async () => {
      await run([
        new NewCheckout("2d", [1, 0], 0),
        new PayDirect(0, 1, "good", true),
        new NewCheckout("3d", [2, 0], 0),
        new NewCheckout("2d", [1, 1], 1),
        new PaySavedCard(0, "own", "confirm", "deliver"),
        new PaySavedCard(0, "other", "confirm", "deliver"),
        new PayDirect(0, 2, "good", true),
        new PaySavedCard(0, "deleted", "confirm", "deliver"),
        new DeleteSavedCard(1, "gateway"),
        new Quiesce(),
      ])
    })

    it("saved cards pay in 3 installments (3D, the gateway's rate) and 6 (direct, the merchant's rate) with the fee passed on, then a refund and a cancellation (the fee given back with the rest): every lira accounted for", async () => {
      await run([
        new NewCheckout("2d", [1, 0], 0),
        new PayDirect(0, 1, "good", true),
        new NewCheckout("3d", [2, 0], 0),
        new PaySavedCard(0, "own", "confirm", "deliver", 3),
        new NewCheckout("2d", [1, 1], 0),
        new PaySavedCard(0, "own", "confirm", "deliver", 6),
        new AdminRefund(1, "half"),
        new CancelOrder(2),
        new Quiesce(),
      ])
    })

    it("a paid tab settled by the webhook while another tab asks for the form again and again: one order, or the money given back", async () => {
      await run([
        new SetCaptureMode("preauth"),
        new NewCheckout("3d", [2, 0], 1),
        new NewCheckout("3d", [1, 0]),
        new FormsWhileSettling(0, 4000),
        new FormsWhileSettling(0, 4000),
        new SetCaptureMode("auth"),
        new NewCheckout("3d", [1, 1]),
        new FormsWhileSettling(0, 4000),
        new Quiesce(),
      ])
    })

    it(`random sequences (${settings.describe}) keep every lira accounted for`, async () => {
      const stats = { sequences: 0, commands: 0, byCommand: new Map<string, number>() }
      // Each sequence opens two or three carts, then runs commands drawn by weight; every sequence ends quiet.
      const sequences = fc.tuple(fc.array(checkoutArbitrary, { minLength: 2, maxLength: 3 }), fc.commands(commandArbitraries, { maxCommands: settings.maxCommands, size: "max" }))
      // The first failure as it ran (later runs are shrinking, on the state it left), and the shrinking's end.
      let firstFailure: { sequence: number; log: string[]; error: string } | null = null
      let shrinkUntil = Infinity
      const property = fc.asyncProperty(sequences, async ([opening, commands]) => {
        // Past the shrinking budget every candidate is skipped: the smallest failure found so far is reported.
        fc.pre(Date.now() < shrinkUntil)
        const model = newModel()
        try {
          await fc.asyncModelRun(() => ({ model, real: world }), [...opening, ...commands, new Quiesce()])
        } catch (error) {
          if (!firstFailure) {
            firstFailure = { sequence: stats.sequences + 1, log: [...model.log], error: (error as Error).message }
            shrinkUntil = Date.now() + settings.shrinkBudgetMs
          }
          throw error
        } finally {
          stats.sequences++
          stats.commands += model.log.length
          process.stdout.write(`[invariants] sequence ${stats.sequences}: ${model.log.length} commands\n`)
          printSequence(model)
          for (const line of model.log) {
            const name = line.slice(0, line.indexOf("("))
            stats.byCommand.set(name, (stats.byCommand.get(name) ?? 0) + 1)
          }
        }
      })
      const started = Date.now()
      const details = await fc.check(property, settings.parameters)
      process.stdout.write(
        `\n[invariants] seed ${settings.seed}: ${stats.sequences} sequences, ${stats.commands} commands run (${(stats.commands / Math.max(1, stats.sequences)).toFixed(1)} per sequence), ${Math.round((Date.now() - started) / 1000)} s\n` +
          `[invariants] commands run: ${[...stats.byCommand].sort((a, b) => b[1] - a[1]).map(([name, count]) => `${name} ${count}`).join(", ")}\n`
      )
      if (details.failed) {
        const first = firstFailure as { sequence: number; log: string[]; error: string } | null
        throw new Error(
          (first ? `First failure, sequence ${first.sequence} as it ran:\n${first.error}\n\nShrunk (on the same app, after the failure):\n` : "") +
            `${fc.defaultReportMessage(details)}\n\n${(details.errorInstance as Error | undefined)?.message ?? ""}\n\nReplay: npm run invariants -- --seed ${settings.seed}${details.counterexamplePath ? ` --path ${details.counterexamplePath}` : ""}`
        )
      }
    })
  },
})
