import { customerLanguage, type CustomerLanguage } from "../../lib/customer-language"

type Query = { graph: (config: any) => Promise<{ data: unknown[] }> }

type StoreRow = { name?: string | null; supported_locales?: ({ locale_code?: string | null; created_at?: string | Date | null } | null)[] | null }

/** What the plugin tells a customer about the store: its name and its first supported locale (the earliest added). */
export type StoreFacts = { name: string | null; firstLocale: string | null }

/** The store's name and first supported locale, in one read. */
export async function readStoreFacts(query: Query): Promise<StoreFacts> {
  const { data } = await query.graph({ entity: "store", fields: ["name", "supported_locales.locale_code", "supported_locales.created_at"] })
  const store = data[0] as StoreRow | undefined
  const locales = (store?.supported_locales ?? [])
    .filter((locale): locale is { locale_code: string; created_at?: string | Date | null } => Boolean(locale?.locale_code))
    .sort((a, b) => new Date(a.created_at ?? 0).getTime() - new Date(b.created_at ?? 0).getTime())
  return { name: store?.name || null, firstLocale: locales[0]?.locale_code ?? null }
}

/** The language a customer reads: the cart's or order's locale, else the store's first, else the option. */
export function customerLanguageOf(ownLocale: string | null | undefined, store: StoreFacts, option: CustomerLanguage | undefined): CustomerLanguage {
  return customerLanguage([ownLocale, store.firstLocale], option)
}
