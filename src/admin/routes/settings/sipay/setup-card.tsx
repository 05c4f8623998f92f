import { Alert, Container, Heading, Text } from "@medusajs/ui"
import { formatLocalDateTime, useSipayT } from "../../../lib/i18n"
import type { SettingsAnswer } from "../../../lib/types"
import { WithCode } from "../../../lib/with-code"

const SETUP_CODES = new Set(["recurring_without_webhook_key", "direct_without_option", "production_without_sale_webhook_key"])
const PROBLEM_CODES = new Set(["merchant_not_found", "recurring_webhook_key_missing", "recurring_webhook_key_invalid", "sale_webhook_key_invalid", "integration_not_allowed"])

/** The start-up checks and the gateway's recent configuration refusals; nothing when all is well. */
export function SetupCard({ answer }: { answer: SettingsAnswer }) {
  const { t, locale } = useSipayT()
  const warnings = answer.setup_warnings ?? []
  const problems = answer.configuration_problems ?? []
  if (!warnings.length && !problems.length) return null
  return (
    <Container className="divide-y p-0" data-testid="setup-problems">
      <div className="px-6 py-4">
        <Heading level="h2">{t("settings.setupTitle")}</Heading>
        <Text size="small" className="text-ui-fg-subtle">{t("settings.setupHint")}</Text>
      </div>
      <div className="flex flex-col gap-y-2 px-6 py-4">
        {warnings.map((warning) => (
          <Alert key={warning.code} variant="warning" data-testid={`setup-warning-${warning.code}`}>
            <WithCode text={SETUP_CODES.has(warning.code) ? t(`settings.setupWarnings.${warning.code}`) : warning.message} />
          </Alert>
        ))}
        {problems.map((problem) => (
          <Alert key={problem.code} variant="error" data-testid={`configuration-problem-${problem.code}`}>
            <WithCode text={PROBLEM_CODES.has(problem.code) ? t(`settings.problems.${problem.code}`) : problem.message} />{" "}
            {t("settings.problemSeen", { count: problem.count, at: formatLocalDateTime(problem.last_seen_at, locale) })}
          </Alert>
        ))}
      </div>
    </Container>
  )
}
