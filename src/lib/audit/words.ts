/**
 * The audit in the merchant's words, English and Turkish: what each finding means and what to do.
 * One source for the command line (text.ts) and the admin (src/admin/i18n takes these as its
 * `audit` texts). `{{name}}` placeholders, as the admin's i18next writes them. No imports: the admin
 * bundle reads this file.
 */

export const AUDIT_LANGUAGES = ["en", "tr"] as const
export type AuditLanguage = (typeof AUDIT_LANGUAGES)[number]

type KindWords = { title: string; detail: string; action: string }

const en = {
  kinds: {
    paid_without_order: {
      title: "Paid at the gateway, no order",
      detail: "The gateway holds {{amount}} for this sale and no order in the store records it.",
      action: "Find the shopper's cart (the invoice id starts with its payment session id). If they should have an order, create it for them; otherwise refund the sale in the Sipay merchant panel.",
    },
    order_money_given_back: {
      title: "The gateway gave this order's money back",
      detail: "Medusa shows {{medusa}} on the order's payment, but the gateway holds nothing for this sale: the money went back to the card or the reservation was released.",
      action: "Do not ship until the customer pays again (send a payment link from the order), or cancel the order.",
    },
    refund_missing_in_medusa: {
      title: "Refund at the gateway, not in Medusa",
      detail: "The gateway refunded {{gateway}} of this sale; Medusa records {{medusa}}: {{amount}} is missing in the store.",
      action: "Sync the day (Sales, Sync now): the ledger records refunds made in the merchant panel and sends nothing. Do not refund it again in Medusa: that would send a second refund.",
    },
    refund_missing_at_gateway: {
      title: "Refund in Medusa, not at the gateway",
      detail: "Medusa records {{medusa}} refunded on this order's payment; the gateway shows {{gateway}}: the card did not get {{amount}} back.",
      action: "Check the sale in the merchant panel. If the customer is owed the money, refund {{amount}} there; otherwise the refund in Medusa was recorded by mistake.",
    },
    amounts_differ: {
      title: "Amounts differ",
      detail: "The gateway has {{gateway}} for this sale, the order's payment in Medusa {{medusa}}.",
      action: "Open the order and the sale. A capture or refund made in the merchant panel is not in Medusa's books: record the same in Medusa (a capture or refund of that amount on the order), or settle the difference with the customer.",
    },
    chargeback_not_recorded: {
      title: "Chargeback not in the store's records",
      detail: "The card's bank took {{amount}} back from this sale, and the store has no record of it on the order the sale paid.",
      action: "Sync the day (Sales, Sync now): the ledger records the chargeback on the order. Then answer the dispute in the Sipay merchant panel.",
    },
    old_ledger_refund: {
      title: "Refunded by the old ledger bug",
      detail: "Before the fix, the sales ledger booked the refund of this given-back payment on the order's own payment ({{payment_invoice}}) and refunded that at the gateway too: the customer got {{amount}} back and kept the order.",
      action: "Contact the customer: ask them to pay again (a payment link from the order) or agree how to settle. The refund cannot be undone.",
    },
    chargeback: {
      title: "Chargeback",
      detail: "The card's bank took {{amount}} back from this sale; the store recorded it on the order.",
      action: "Answer the dispute in the Sipay merchant panel before the bank's deadline (proof of delivery), or accept it; hold the order's shipment meanwhile.",
    },
    pre_authorization_lapsing: {
      title: "Pre-authorization about to lapse",
      detail: "The gateway cancels this reservation of {{amount}} on {{deadline}} (days left: {{days}}).",
      action: "Capture it from the order (in full or in part) before then, or cancel it.",
    },
  } satisfies Record<string, KindWords>,
  /** chargeback_not_recorded, when the store recorded it on another order. */
  recordedElsewhere: "The store recorded it on order {{order}}, which this sale did not pay.",
  severity: { difference: "Difference", notice: "To do" },
  summary: {
    heading: "Sipay audit of {{day}} (the gateway's day, Istanbul time), made {{at}}",
    sales: "Sales",
    refunds: "Refunded",
    chargebacks: "Chargebacks",
    differences: "Differences",
    notices: "To do",
    settling: "Being settled",
    agrees: "The books and the gateway agree on this day.",
    disagrees: "The books and the gateway do not agree on this day.",
    gateway: "Gateway: captured {{captured}}, refunded {{refunded}}, reserved {{reserved}}",
    medusa: "Medusa: captured {{captured}}, refunded {{refunded}}",
    ledger: "The gateway's sales as the sales ledger had them at {{at}} (Istanbul time; --refresh pulls the day again).",
    pulled: "The gateway's sales pulled into the sales ledger now ({{at}}, Istanbul time).",
  },
  labels: { invoice: "Invoice", order: "Order", payment: "Payment", amount: "Amount", whatToDo: "What to do" },
}

export type AuditWords = typeof en

const tr: AuditWords = {
  kinds: {
    paid_without_order: {
      title: "Ödeme alınmış, sipariş yok",
      detail: "Ödeme kuruluşu bu satış için {{amount}} tutuyor ve mağazada bunu kaydeden bir sipariş yok.",
      action: "Müşterinin sepetini bulun (fatura numarası ödeme oturumunun kimliğiyle başlar). Siparişi olması gerekiyorsa siparişi oluşturun; değilse satışı Sipay üye işyeri panelinden iade edin.",
    },
    order_money_given_back: {
      title: "Ödeme kuruluşu bu siparişin parasını geri verdi",
      detail: "Medusa siparişin ödemesinde {{medusa}} gösteriyor, ama ödeme kuruluşu bu satış için hiçbir şey tutmuyor: para karta döndü ya da provizyon bırakıldı.",
      action: "Müşteri yeniden ödeyene kadar (siparişten ödeme bağlantısı gönderin) kargolamayın ya da siparişi iptal edin.",
    },
    refund_missing_in_medusa: {
      title: "Ödeme kuruluşunda iade var, Medusa'da yok",
      detail: "Ödeme kuruluşu bu satıştan {{gateway}} iade etti; Medusa {{medusa}} kaydetti: {{amount}} mağazada eksik.",
      action: "Günü eşitleyin (Satışlar, Şimdi eşitle): defter, üye işyeri panelinden yapılan iadeleri kaydeder ve hiçbir şey göndermez. Medusa'dan yeniden iade etmeyin: bu ikinci bir iade gönderir.",
    },
    refund_missing_at_gateway: {
      title: "Medusa'da iade var, ödeme kuruluşunda yok",
      detail: "Medusa bu siparişin ödemesinde {{medusa}} iade kaydetti; ödeme kuruluşu {{gateway}} gösteriyor: {{amount}} karta dönmedi.",
      action: "Satışı üye işyeri panelinde kontrol edin. Müşteriye borçluysanız {{amount}} tutarını oradan iade edin; değilse Medusa'daki iade yanlışlıkla kaydedilmiş.",
    },
    amounts_differ: {
      title: "Tutarlar farklı",
      detail: "Ödeme kuruluşunda bu satış için {{gateway}}, Medusa'daki sipariş ödemesinde {{medusa}} var.",
      action: "Siparişi ve satışı açın. Üye işyeri panelinden yapılan bir tahsilat ya da iade Medusa'nın kayıtlarında yok: aynısını Medusa'da kaydedin (siparişte o tutarda bir tahsilat ya da iade) ya da farkı müşteriyle kapatın.",
    },
    chargeback_not_recorded: {
      title: "Ters ibraz mağazanın kayıtlarında yok",
      detail: "Kartın bankası bu satıştan {{amount}} geri aldı ve mağazanın, satışın ödediği siparişte bunun kaydı yok.",
      action: "Günü eşitleyin (Satışlar, Şimdi eşitle): defter ters ibrazı siparişe kaydeder. Ardından itiraza Sipay üye işyeri panelinden yanıt verin.",
    },
    old_ledger_refund: {
      title: "Eski defter hatasıyla iade edildi",
      detail: "Düzeltmeden önce satış defteri, geri verilen bu ödemenin iadesini siparişin kendi ödemesine ({{payment_invoice}}) yazdı ve onu da ödeme kuruluşunda iade etti: müşteri {{amount}} geri aldı ve siparişi de tuttu.",
      action: "Müşteriyle iletişime geçin: yeniden ödemesini isteyin (siparişten ödeme bağlantısı) ya da nasıl kapatılacağında anlaşın. İade geri alınamaz.",
    },
    chargeback: {
      title: "Ters ibraz",
      detail: "Kartın bankası bu satıştan {{amount}} geri aldı; mağaza bunu siparişe kaydetti.",
      action: "Bankanın süresi dolmadan itiraza Sipay üye işyeri panelinden yanıt verin (teslimat kanıtı) ya da kabul edin; bu arada siparişin kargosunu bekletin.",
    },
    pre_authorization_lapsing: {
      title: "Ön provizyonun süresi dolmak üzere",
      detail: "Ödeme kuruluşu {{amount}} tutarındaki bu provizyonu {{deadline}} tarihinde iptal eder (kalan gün: {{days}}).",
      action: "O tarihten önce siparişten tahsil edin (tamamını ya da bir kısmını) veya iptal edin.",
    },
  },
  recordedElsewhere: "Mağaza bunu, bu satışın ödemediği {{order}} siparişine kaydetti.",
  severity: { difference: "Fark", notice: "Yapılacak" },
  summary: {
    heading: "{{day}} için Sipay denetimi (ödeme kuruluşunun günü, İstanbul saati), {{at}}",
    sales: "Satış",
    refunds: "İade edilen",
    chargebacks: "Ters ibraz",
    differences: "Fark",
    notices: "Yapılacak",
    settling: "Kaydediliyor",
    agrees: "Bu gün için mağazanın kayıtları ile ödeme kuruluşu uyuşuyor.",
    disagrees: "Bu gün için mağazanın kayıtları ile ödeme kuruluşu uyuşmuyor.",
    gateway: "Ödeme kuruluşu: tahsil {{captured}}, iade {{refunded}}, provizyon {{reserved}}",
    medusa: "Medusa: tahsil {{captured}}, iade {{refunded}}",
    ledger: "Ödeme kuruluşunun satışları, satış defterinin {{at}} tarihindeki haliyle (İstanbul saati; --refresh günü yeniden çeker).",
    pulled: "Ödeme kuruluşunun satışları şimdi satış defterine çekildi ({{at}}, İstanbul saati).",
  },
  labels: { invoice: "Fatura no", order: "Sipariş", payment: "Ödeme", amount: "Tutar", whatToDo: "Ne yapmalı" },
}

export const AUDIT_WORDS: Record<AuditLanguage, AuditWords> = { en, tr }
