import type { ConfigurationCause } from "../sipay/configuration-refusal"

/**
 * What the merchant reads about a configuration problem, Turkish and English: in the server log
 * (English) and in the admin's notification feed (both: the dashboard's bell shows the text as given).
 */
export const CONFIGURATION_PROBLEM_TEXTS: Record<ConfigurationCause, { en: string; tr: string }> = {
  merchant_not_found: {
    en: 'The gateway does not know the configured merchant key ("Merchant not found"): no card payment can be taken. Check SIPAY_MERCHANT_KEY (the merchantKey option), then Settings → Sipay → Test connection.',
    tr: 'Ödeme kuruluşu tanımlı üye işyeri anahtarını tanımıyor ("Merchant not found"): kartla ödeme alınamıyor. SIPAY_MERCHANT_KEY (merchantKey seçeneği) değerini kontrol edin, sonra Ayarlar → Sipay → Bağlantıyı dene.',
  },
  recurring_webhook_key_missing: {
    en: "A shopper tried to buy a recurring product, but no recurring webhook key is set: recurring products cannot be sold. Set the key defined on the merchant panel in Settings → Sipay (or SIPAY_RECURRING_WEBHOOK_KEY).",
    tr: "Bir müşteri tekrarlı ödemeli bir ürün almak istedi, ancak tekrarlı ödeme webhook anahtarı tanımlı değil: tekrarlı ürünler satılamıyor. Üye işyeri panelinde tanımlı anahtarı Ayarlar → Sipay'de (ya da SIPAY_RECURRING_WEBHOOK_KEY ile) girin.",
  },
  recurring_webhook_key_invalid: {
    en: "The gateway refused the recurring webhook key set in Settings → Sipay (not defined on the merchant panel): recurring products cannot be sold. Define it on the merchant panel for {backend}/sipay/hooks/recurring, or correct it.",
    tr: "Ödeme kuruluşu Ayarlar → Sipay'deki tekrarlı ödeme webhook anahtarını reddetti (üye işyeri panelinde tanımlı değil): tekrarlı ürünler satılamıyor. Anahtarı panelde {backend}/sipay/hooks/recurring için tanımlayın ya da düzeltin.",
  },
  sale_webhook_key_invalid: {
    en: "The gateway refused the sale webhook key set in Settings → Sipay (not defined on the merchant panel): card payments are refused. Define it on the merchant panel for {backend}/hooks/payment/sipay_sipay, or correct or clear it.",
    tr: "Ödeme kuruluşu Ayarlar → Sipay'deki satış webhook anahtarını reddetti (üye işyeri panelinde tanımlı değil): kartla ödemeler reddediliyor. Anahtarı panelde {backend}/hooks/payment/sipay_sipay için tanımlayın, düzeltin ya da silin.",
  },
  integration_not_allowed: {
    en: "The gateway refused a payment flow this merchant may not use (3D Secure or direct/2D). Turn that flow off in Settings → Sipay (Test connection tells which ones the merchant may use), or ask the gateway to allow it.",
    tr: "Ödeme kuruluşu bu üye işyerinin kullanamadığı bir ödeme akışını reddetti (3D Secure ya da doğrudan/2D). Bu akışı Ayarlar → Sipay'de kapatın (Bağlantıyı dene hangilerinin kullanılabildiğini söyler) ya da ödeme kuruluşundan açmasını isteyin.",
  },
}

export const CONFIGURATION_ALERT_TITLE = "Sipay: kartla ödeme reddedildi, yapılandırma sorunu / card payments refused, configuration problem"
