import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { Modules } from "@medusajs/framework/utils"
import { WorkflowManager } from "@medusajs/framework/orchestration"
import { seedStore, SIPAY_PROVIDER_IDS } from "../harness/seed"
import { useSipayStack } from "../harness/stack"

jest.setTimeout(240 * 1000)

// The other suites leave the jobs unscheduled (integration-tests/setup.js); this one boots as a store does.
const stack = useSipayStack({ env: { SIPAY_RECONCILE_SCHEDULE: "*/5 * * * *", SIPAY_PRE_AUTHORIZATION_SCHEDULE: "17 * * * *" } })

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    describe("plugin wiring", () => {
      it("registers the 3D and direct providers with the payment module", async () => {
        const paymentModule = getContainer().resolve(Modules.PAYMENT)
        const providers = await paymentModule.listPaymentProviders()
        expect(providers.map((p: { id: string }) => p.id)).toEqual(expect.arrayContaining([...SIPAY_PROVIDER_IDS]))
      })

      it("schedules the reconciliation and pre-authorization jobs on their cron expressions", () => {
        expect(WorkflowManager.getWorkflow("job-sipay-reconcile-attempts")?.options?.schedule).toMatchObject({ cron: "*/5 * * * *" })
        expect(WorkflowManager.getWorkflow("job-sipay-pre-authorizations")?.options?.schedule).toMatchObject({ cron: "17 * * * *" })
      })

      it("lists both providers for a region through the store API", async () => {
        const store = await seedStore(getContainer())
        const response = await api.get(`/store/payment-providers?region_id=${store.regionId}`, {
          headers: { "x-publishable-api-key": store.publishableKey },
        })
        expect(response.status).toBe(200)
        expect(response.data.payment_providers.map((p: { id: string }) => p.id).sort()).toEqual([...SIPAY_PROVIDER_IDS].sort())
      })

      it("boots on the port and public URL the harness fixed, beside the sandbox", async () => {
        expect(stack.backendUrl).toBe(`http://localhost:${process.env.PORT}`)
        const token = await fetch(`${stack.sandbox.base_url}/api/token`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ app_id: stack.sandbox.merchant.app_id, app_secret: stack.sandbox.merchant.app_secret }),
        }).then((r) => r.json())
        expect(token.status_code).toBe(100)
        const health = await fetch(`${stack.backendUrl}/health`)
        expect(health.status).toBe(200)
      })
    })
  },
})
