import { DataTable, Heading, Text } from "@medusajs/ui"
import type { ReactNode } from "react"

/** A list page's head inside its DataTable, as Medusa's own lists have it: title, subtitle, and the page's controls. */
export function ListToolbar({ title, subtitle, children }: { title: string; subtitle: string; children: ReactNode }) {
  return (
    <DataTable.Toolbar className="flex items-center justify-between gap-x-4">
      <div>
        <Heading level="h1">{title}</Heading>
        <Text size="small" className="text-ui-fg-subtle">{subtitle}</Text>
      </div>
      <div className="flex items-center gap-x-2">{children}</div>
    </DataTable.Toolbar>
  )
}
