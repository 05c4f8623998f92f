const { relative } = require("node:path")
const { statSync } = require("node:fs")
const Sequencer = require("@jest/test-sequencer").default

/**
 * Longest first, so that the two workers of `npm test` finish together: a long file started last
 * would run alone at the end. Seconds each file takes alone on a quiet 2-core machine (CI's kind);
 * files not listed (the unit suites and the small HTTP files, under a minute) follow, larger first.
 * Update a figure when a file's time changes by minutes.
 */
const SECONDS = {
  "integration-tests/security/limits-nat.spec.ts": 400,
  "integration-tests/invariants/money.spec.ts": 380,
  "integration-tests/install/install.spec.ts": 360,
  "integration-tests/browser/admin-i18n.spec.ts": 210,
  "integration-tests/cluster/cluster.spec.ts": 200,
  "integration-tests/browser/admin-sales.spec.ts": 160,
  "integration-tests/http/after-checkout.spec.ts": 120,
  "integration-tests/security/integrity.spec.ts": 115,
  "integration-tests/http/checkout-3d.spec.ts": 111,
  "integration-tests/storefront/storefront-kit.spec.ts": 108,
  "integration-tests/browser/demo-storefront.spec.ts": 102,
  "integration-tests/http/phone-order-links.spec.ts": 100,
  "integration-tests/http/saved-cards.spec.ts": 100,
  "integration-tests/security/limits.spec.ts": 90,
  "integration-tests/browser/admin-payment-links.spec.ts": 90,
  "integration-tests/http/admin-payment-links.spec.ts": 70,
  "integration-tests/http/gateway-calls.spec.ts": 60,
  "integration-tests/http/admin-sales.spec.ts": 55,
  "integration-tests/browser/hosted-checkout.spec.ts": 50,
}

class LongestFirst extends Sequencer {
  sort(tests) {
    const weight = (test) => SECONDS[relative(test.context.config.rootDir, test.path)] ?? statSync(test.path).size / 1e6
    return [...tests].sort((a, b) => weight(b) - weight(a))
  }
}

module.exports = LongestFirst
