import { defineConfig, loadEnv, Modules } from "@medusajs/framework/utils"
import { optionsFromEnv } from "./src/lib/options"

loadEnv(process.env.NODE_ENV || "development", process.cwd())

// The host configuration of this repository (tests and the demo): this plugin's module and its
// providers registered from ./src. One options object serves both, as in a store (README).
const sipayOptions = optionsFromEnv(process.env)

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    redisUrl: process.env.REDIS_URL,
    http: {
      storeCors: process.env.STORE_CORS || "http://localhost:8000",
      adminCors: process.env.ADMIN_CORS || "http://localhost:9000",
      authCors: process.env.AUTH_CORS || "http://localhost:9000",
      jwtSecret: process.env.JWT_SECRET || "supersecret",
      cookieSecret: process.env.COOKIE_SECRET || "supersecret",
    },
  },
  admin: {
    disable: process.env.MEDUSA_ADMIN_DISABLED === "true",
    backendUrl: process.env.MEDUSA_BACKEND_URL,
  },
  modules: [
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
        ],
      },
    },
  ],
})
