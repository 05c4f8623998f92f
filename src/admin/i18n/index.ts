import { en } from "./en"
import { tr } from "./tr"

/**
 * Loaded by Medusa's admin (2.21.2: the admin-vite-plugin imports src/admin/i18n/index and the
 * dashboard deep-merges its `resources` into its own). Every key sits under `sipay.` so none
 * overrides Medusa's.
 */
export default {
  en: { translation: { sipay: en } },
  tr: { translation: { sipay: tr } },
}
