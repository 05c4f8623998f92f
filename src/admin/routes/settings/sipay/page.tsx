import { defineRouteConfig } from "@medusajs/admin-sdk"
import { Alert, Button, Heading, Text } from "@medusajs/ui"
import { useCallback, useEffect, useState } from "react"
import { adminRequest } from "../../../lib/admin-api"
import type { SettingsAnswer } from "../../../lib/types"
import { useSipayT } from "../../../lib/i18n"
import { CredentialsCard } from "./credentials-card"
import { SettingsForm } from "./settings-form"
import { SetupCard } from "./setup-card"

/** What a store owner configures for Sipay in the admin; credentials stay in the options and the environment. */
const SipaySettingsPage = () => {
  const { t } = useSipayT()
  const [answer, setAnswer] = useState<SettingsAnswer | null>(null)
  const [error, setError] = useState<string | null>(null)

  const load = useCallback(async () => {
    try {
      setAnswer(await adminRequest<SettingsAnswer>("/admin/sipay/settings"))
      setError(null)
    } catch (failure) {
      setError((failure as Error).message)
    }
  }, [])

  useEffect(() => {
    load()
  }, [load])

  return (
    <div className="flex flex-col gap-y-3">
      <div className="px-1">
        <Heading level="h1">{t("settings.title")}</Heading>
      </div>
      {error ? (
        <Alert variant="error" data-testid="settings-load-error">
          <div className="flex items-center justify-between gap-x-4">
            <span>{t("settings.loadError", { error })}</span>
            <Button size="small" variant="secondary" onClick={load}>{t("common.tryAgain")}</Button>
          </div>
        </Alert>
      ) : !answer ? (
        <Text size="small" className="text-ui-fg-subtle" aria-busy="true">{t("settings.loading")}</Text>
      ) : (
        <>
          <SetupCard answer={answer} />
          <SettingsForm key={answer.updated_at ?? "defaults"} answer={answer} onSaved={setAnswer} />
          <CredentialsCard credentials={answer.credentials} />
        </>
      )}
    </div>
  )
}

// Under Settings (Settings → Sipay), where Medusa keeps a store's configuration pages.
export const config = defineRouteConfig({ label: "sipay.settings.menu", translationNs: "translation" })

export default SipaySettingsPage
