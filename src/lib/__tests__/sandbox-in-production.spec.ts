import { isLoopbackHost } from "../loopback"
import { findOptionProblems } from "../options"
import { isLoopbackUrl, sandboxInProductionProblem } from "../sandbox-in-production"

const credentials = { appId: "a", appSecret: "s", merchantKey: "$2y$10$k" }

describe("the sandbox as a production store's gateway", () => {
  it("is refused under NODE_ENV=production for brand sandbox and gateways on this machine", () => {
    for (const gateway of [
      { brand: "sandbox" as const },
      { baseUrl: "http://127.0.0.1:4010/ccpayment" },
      { baseUrl: "http://127.5.6.7:4010/ccpayment" },
      { baseUrl: "http://localhost:4010/ccpayment" },
      { baseUrl: "http://api.localhost/ccpayment" },
      { baseUrl: "http://[::1]:4010/ccpayment" },
      { baseUrl: "http://[::ffff:127.0.0.1]:4010/ccpayment" },
      { baseUrl: "http://0.0.0.0:4010/ccpayment" },
      { baseUrl: "https://app.sipay.com.tr/ccpayment", panelBaseUrl: "http://127.0.0.1:4010/ccpayment" },
      { brand: "sandbox" as const, baseUrl: "https://app.sipay.com.tr/ccpayment" },
    ]) {
      expect([gateway, sandboxInProductionProblem(gateway, "production")]).toEqual([gateway, expect.stringMatching(/allowSandboxInProduction/)])
      expect(findOptionProblems({ ...credentials, ...gateway }, "production")).toEqual([expect.stringMatching(/^NODE_ENV is production but the gateway is the sandbox/)])
    }
  })

  it("is allowed with allowSandboxInProduction, outside production, and a real gateway is never refused", () => {
    expect(sandboxInProductionProblem({ brand: "sandbox", allowSandboxInProduction: true }, "production")).toBeNull()
    for (const nodeEnv of ["development", "test", undefined]) {
      expect(sandboxInProductionProblem({ brand: "sandbox" }, nodeEnv)).toBeNull()
    }
    for (const gateway of [{ brand: "sipay-live" as const }, { brand: "qnbpay-test" as const }, { baseUrl: "https://app.sipay.com.tr/ccpayment" }, { baseUrl: "http://10.0.0.5/ccpayment" }]) {
      expect(sandboxInProductionProblem(gateway, "production")).toBeNull()
    }
  })
})

describe("loopback hosts", () => {
  it("are localhost, 127/8, ::1 and their mapped forms; nothing else", () => {
    for (const host of ["localhost", "LOCALHOST", "shop.localhost", "127.0.0.1", "127.255.0.9", "::1", "[::1]", "::ffff:127.0.0.1", "[::ffff:7f00:1]"]) {
      expect([host, isLoopbackHost(host)]).toEqual([host, true])
    }
    for (const host of ["0.0.0.0", "::", "10.0.0.1", "128.0.0.1", "example.com", "localhost.example.com", "::ffff:10.0.0.1", "[::2]", ""]) {
      expect([host, isLoopbackHost(host)]).toEqual([host, false])
    }
    expect(isLoopbackUrl("not a url")).toBe(false)
  })
})
