import { Alert, Button, Container, Heading, StatusBadge, Text } from "@medusajs/ui"
import { useState } from "react"
import { adminRequest, formatDateTime } from "../../../lib/admin-api"
import type { ConnectionAnswer, SettingsAnswer } from "../../../lib/types"

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
          <Heading level="h2">Gateway credentials</Heading>
          <Text size="small" className="text-ui-fg-subtle">Set in the plugin options or the environment (SIPAY_*); shown masked.</Text>
        </div>
        <Button size="small" variant="secondary" onClick={test} isLoading={testing}>Test connection</Button>
      </div>
      <div className="py-2">
        <Row label="Brand" value={credentials.brand ?? "custom base URLs"} />
        <Row label="Payment API" value={credentials.base_url} testId="base-url" />
        <Row label="Payment links API" value={credentials.panel_base_url} />
        <Row label="Payer links" value={credentials.link_base_url} />
        <Row label="Merchant id" value={credentials.merchant_id} />
        <Row label="App id" value={credentials.app_id} testId="masked-app-id" />
        <Row label="Merchant key" value={credentials.merchant_key} testId="masked-merchant-key" />
        <Row label="App secret" value={credentials.app_secret_configured ? "configured (never shown)" : "missing"} />
      </div>
      {result || error ? (
        <div className="px-6 py-4" data-testid="connection-result">
          {error ? (
            <Alert variant="error">The gateway refused the connection: {error}</Alert>
          ) : result ? (
            <div className="flex flex-col gap-y-2">
              <div className="flex items-center gap-x-2">
                <StatusBadge color="green" data-testid="connected-brand">Connected to {result.brand_name}</StatusBadge>
                <Text size="small">is_3d = {result.is_3d} ({result.mode}), {formatDateTime(result.tested_at)}</Text>
              </div>
              <Text size="small">{result.meaning}</Text>
              {result.warnings.map((warning) => (
                <Alert key={warning} variant="warning">{warning}</Alert>
              ))}
            </div>
          ) : null}
        </div>
      ) : null}
    </Container>
  )
}
