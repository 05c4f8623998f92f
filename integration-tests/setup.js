const { MetadataStorage } = require("@medusajs/framework/mikro-orm/core")

MetadataStorage.clear()

// Suites run the plugin's jobs themselves, at the moment a scenario needs them: a scheduled run
// (every 5 minutes by default) landing mid-scenario would settle attempts a test still holds open.
process.env.SIPAY_RECONCILE_SCHEDULE = process.env.SIPAY_RECONCILE_SCHEDULE || "off"
process.env.SIPAY_PRE_AUTHORIZATION_SCHEDULE = process.env.SIPAY_PRE_AUTHORIZATION_SCHEDULE || "off"
process.env.SIPAY_LEDGER_SCHEDULE = process.env.SIPAY_LEDGER_SCHEDULE || "off"
