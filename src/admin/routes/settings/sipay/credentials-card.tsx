import { Alert, Button, Container, Heading, StatusBadge, Text } from "@medusajs/ui"
import { useState } from "react"
import { adminRequest } from "../../../lib/admin-api"
import { formatLocalDateTime, useSipayT } from "../../../lib/i18n"
import type { ConnectionAnswer, SettingsAnswer } from "../../../lib/types"
import { WithCode } from "../../../lib/with-code"

/** The merchant's permission (is_3d) in words: t("settings.is3d.<value>"). */
const IS_3D_VALUES = new Set([0, 1, 2, 4])
/** Warnings the plugin words itself: t("settings.warnings.<code>"); any other is shown as the server wrote it. */
const WARNING_CODES = new Set(["three_d_refused", "direct_refused"])
/** Merchant key check problems the plugin words itself: t("settings.keyCheck.<code>"). */
const KEY_CHECK_CODES = new Set(["merchant_key_unknown", "hash_refused"])

function Row({ label, value, testId }: { label: string; value: string | null; testId?: string }) {
  return (
    <div className="grid grid-cols-[180px_1fr] gap-x-4 px-6 py-2">
      <Text size="small" className="text-ui-fg-subtle">{label}</Text>
      <Text size="small" className="font-mono break-all" data-testid={testId}>{value ?? "-"}</Text>
    </div>
  )
}

/** The credentials in effect (from the options or environment, never editable here, masked) and the connection test. */
export function CredentialsCard({ credentials }: { credentials: SettingsAnswer["credentials"] }) {
  const { t, locale } = useSipayT()
  const [result, setResult] = useState<ConnectionAnswer | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [testing, setTesting] = useState(false)

  const test = async () => {
    setTesting(true)
    setError(null)
    setResult(null)
    try {
      setResult(await adminRequest<ConnectionAnswer>("/admin/sipay/settings/test-connection", { method: "POST", json: {} }))
    } catch (failure) {
      setError((failure as Error).message)
    } finally {
      setTesting(false)
    }
  }

  return (
    <Container className="divide-y p-0">
      <div className="flex items-center justify-between px-6 py-4">
        <div>
          <Heading level="h2">{t("settings.credentials")}</Heading>
          <Text size="small" className="text-ui-fg-subtle"><WithCode text={t("settings.credentialsHint")} /></Text>
        </div>
        <Button size="small" variant="secondary" onClick={test} isLoading={testing}>{t("settings.testConnection")}</Button>
      </div>
      <div className="py-2">
        <Row label={t("settings.brand")} value={credentials.brand ?? t("settings.customUrls")} />
        <Row label={t("settings.paymentApi")} value={credentials.base_url} testId="base-url" />
        <Row label={t("settings.linksApi")} value={credentials.panel_base_url} />
        <Row label={t("settings.payerLinks")} value={credentials.link_base_url} />
        <Row label={t("settings.merchantId")} value={credentials.merchant_id} />
        <Row label={t("settings.appId")} value={credentials.app_id} testId="masked-app-id" />
        <Row label={t("settings.merchantKey")} value={credentials.merchant_key} testId="masked-merchant-key" />
        <Row label={t("settings.appSecret")} value={credentials.app_secret_configured ? t("settings.secretConfigured") : t("settings.secretMissing")} />
      </div>
      {result || error ? (
        <div className="px-6 py-4" data-testid="connection-result">
          {error ? (
            <Alert variant="error">{t("settings.refused", { error })}</Alert>
          ) : result ? (
            <div className="flex flex-col gap-y-2">
              <div className="flex items-center gap-x-2">
                <StatusBadge color="green" data-testid="connected-brand">{t("settings.connected", { brand: result.brand_name })}</StatusBadge>
              </div>
              {result.ok === false ? (
                <Alert variant="error" data-testid="connection-key-problem">
                  <WithCode text={result.problem_code && KEY_CHECK_CODES.has(result.problem_code) ? t(`settings.keyCheck.${result.problem_code}`) : result.problem ?? ""} />
                </Alert>
              ) : (
                <Text size="small" data-testid="connection-key-checked">{t("settings.keyChecked")}</Text>
              )}
              <Text size="small" data-testid="connection-meaning">
                {t("settings.connectedDetail", {
                  meaning: IS_3D_VALUES.has(result.is_3d) ? t(`settings.is3d.${result.is_3d}`) : t("settings.is3dUnknown"),
                  code: result.is_3d,
                  at: formatLocalDateTime(result.tested_at, locale),
                })}
              </Text>
              {result.warnings.map((warning, index) => {
                const code = result.warning_codes?.[index]
                return <Alert key={warning} variant="warning">{code && WARNING_CODES.has(code) ? t(`settings.warnings.${code}`) : warning}</Alert>
              })}
            </div>
          ) : null}
        </div>
      ) : null}
    </Container>
  )
}
