const { loadEnv } = require("@medusajs/framework/utils")
loadEnv("test", process.cwd())

// One run holds every suite: unit tests beside the code (`__tests__`) and the integration suites,
// which boot a real Medusa app on a real PostgreSQL (see integration-tests/harness/database.ts).
module.exports = {
  transform: {
    "^.+\\.[jt]sx?$": [
      "@swc/jest",
      {
        jsc: {
          parser: { syntax: "typescript", decorators: true, tsx: true },
          target: "es2021",
          transform: { react: { runtime: "automatic" } },
        },
      },
    ],
  },
  testEnvironment: "node",
  moduleFileExtensions: ["js", "ts", "tsx", "json"],
  modulePathIgnorePatterns: ["dist/", "<rootDir>/.medusa/"],
  setupFiles: ["./integration-tests/setup.js"],
  globalSetup: "./integration-tests/harness/global-setup.mjs",
  globalTeardown: "./integration-tests/harness/global-teardown.mjs",
  testSequencer: "./integration-tests/harness/sequencer.js",
  testMatch: process.env.TEST_TYPE === "unit"
    ? ["<rootDir>/src/**/__tests__/**/*.spec.[jt]s?(x)"]
    : process.env.TEST_TYPE === "integration"
      ? ["<rootDir>/integration-tests/**/*.spec.[jt]s"]
      : ["<rootDir>/src/**/__tests__/**/*.spec.[jt]s?(x)", "<rootDir>/integration-tests/**/*.spec.[jt]s"],
  testTimeout: 120000,
}
