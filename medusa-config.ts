import { defineConfig, loadEnv, Modules } from "@medusajs/framework/utils"
import { optionsFromEnv } from "./src/lib/options"

loadEnv(process.env.NODE_ENV || "development", process.cwd())

// The host configuration of this repository (tests and the demo): this plugin's module and its
// providers registered from ./src. One options object serves both, as in a store (README).
//
// A cluster (README "Running several instances"): MEDUSA_CLUSTER_REDIS_URL (e.g.
// redis://127.0.0.1:6379/3, the path choosing the database index) switches Medusa to its Redis
// modules, all under MEDUSA_CLUSTER_REDIS_PREFIX (default "medusa-sipay"); REDIS_URL stays ignored,
// so the single-process suites keep the in-memory engines. MEDUSA_WORKER_MODE (server / worker)
// is read by Medusa itself.
const clusterRedisUrl = process.env.MEDUSA_CLUSTER_REDIS_URL || undefined
const clusterPrefix = process.env.MEDUSA_CLUSTER_REDIS_PREFIX || "medusa-sipay"

const sipayOptions = {
  ...optionsFromEnv(process.env),
  // Instances count rate limits together; SIPAY_RATE_LIMIT_STORE=memory keeps them per process.
  ...(clusterRedisUrl && process.env.SIPAY_RATE_LIMIT_STORE !== "memory" ? { rateLimitStore: "postgres" as const } : {}),
}

const clusterModules = clusterRedisUrl
  ? [
      { resolve: "@medusajs/medusa/event-bus-redis", options: { redisUrl: clusterRedisUrl, queueName: `${clusterPrefix}-events` } },
      {
        resolve: "@medusajs/medusa/workflow-engine-redis",
        options: { redis: { redisUrl: clusterRedisUrl, queueName: `${clusterPrefix}-workflows`, jobQueueName: `${clusterPrefix}-workflows-jobs` } },
      },
      {
        resolve: "@medusajs/medusa/locking",
        options: {
          providers: [
            {
              resolve: "@medusajs/medusa/locking-redis",
              id: "locking-redis",
              is_default: true,
              options: { redisUrl: clusterRedisUrl, namespace: `${clusterPrefix}:lock:` },
            },
          ],
        },
      },
      {
        resolve: "@medusajs/medusa/caching",
        options: {
          providers: [
            {
              resolve: "@medusajs/medusa/caching-redis",
              id: "caching-redis",
              is_default: true,
              options: { redisUrl: clusterRedisUrl, prefix: `${clusterPrefix}:cache:` },
            },
          ],
        },
      },
    ]
  : []

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    // Sessions shared by the server instances of a cluster.
    redisUrl: clusterRedisUrl,
    redisPrefix: `${clusterPrefix}:sess:`,
    http: {
      storeCors: process.env.STORE_CORS || "http://localhost:8000",
      adminCors: process.env.ADMIN_CORS || "http://localhost:9000",
      authCors: process.env.AUTH_CORS || "http://localhost:9000",
      jwtSecret: process.env.JWT_SECRET || "supersecret",
      cookieSecret: process.env.COOKIE_SECRET || "supersecret",
    },
  },
  admin: {
    disable: process.env.MEDUSA_ADMIN_DISABLED === "true" || process.env.MEDUSA_WORKER_MODE === "worker",
    backendUrl: process.env.MEDUSA_BACKEND_URL,
  },
  modules: [
    ...clusterModules,
    {
      resolve: "./src/modules/sipay",
      options: sipayOptions,
    },
    {
      resolve: "@medusajs/medusa/payment",
      options: {
        providers: [
          {
            resolve: "./src/providers/sipay",
            id: "sipay",
            options: sipayOptions,
          },
          // `npm run bench` only: a second checkout floor that records a captured payment.
          ...(process.env.BENCH_CAPTURING_FLOOR === "true" ? [{ resolve: "./src/scripts/bench-floor-provider", id: "bench" }] : []),
        ],
      },
    },
  ],
})
