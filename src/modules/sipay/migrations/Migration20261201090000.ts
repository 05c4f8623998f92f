import { Migration } from "@medusajs/framework/mikro-orm/migrations"
import { CONFIG_ALERT_TABLE_SQL, DROP_CONFIG_ALERT_TABLE_SQL } from "../../../lib/config-alerts/store"

/** Hand-written (raw SQL): configuration problems seen, and when each was last alerted (one alert per cause per hour). */
export class Migration20261201090000 extends Migration {
  override async up(): Promise<void> {
    for (const sql of CONFIG_ALERT_TABLE_SQL) this.addSql(sql)
  }

  override async down(): Promise<void> {
    for (const sql of DROP_CONFIG_ALERT_TABLE_SQL) this.addSql(sql)
  }
}
