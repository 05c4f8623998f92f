import { ArrowDownTray } from "@medusajs/icons"
import { clx, Text } from "@medusajs/ui"
import { ChangeEvent, DragEvent, useRef, useState } from "react"

/**
 * A file drop zone as Medusa's dashboard builds one (its FileUpload: @medusajs/ui has no file
 * primitive): a dashed button that opens the browser's picker and takes a dropped file, over a
 * hidden file input. The input keeps the field's id with "-file" (tests set files on it); when
 * invalid, the button points at the field's message (`<id>-problem`).
 */
export function PhotoUpload({ id, label, hint, accept, invalid, onChoose }: {
  id: string
  label: string
  hint: string
  accept: string[]
  invalid: boolean
  onChoose: (file: File | null) => void
}) {
  const input = useRef<HTMLInputElement>(null)
  const [dragOver, setDragOver] = useState(false)
  const drop = (event: DragEvent) => {
    event.preventDefault()
    setDragOver(false)
    onChoose(event.dataTransfer?.files?.[0] ?? null)
  }
  return (
    <div>
      <button
        id={id}
        type="button"
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? `${id}-problem` : undefined}
        onClick={() => input.current?.click()}
        onDrop={drop}
        onDragOver={(event) => event.preventDefault()}
        onDragEnter={() => setDragOver(true)}
        onDragLeave={() => setDragOver(false)}
        className={clx(
          "bg-ui-bg-component border-ui-border-strong transition-fg group flex w-full flex-col items-center gap-y-2 rounded-lg border border-dashed p-8",
          "hover:border-ui-border-interactive focus:border-ui-border-interactive focus:shadow-borders-focus outline-none focus:border-solid",
          { "!border-ui-border-error": invalid, "!border-ui-border-interactive": dragOver }
        )}
      >
        <span className="text-ui-fg-subtle flex items-center gap-x-2">
          <ArrowDownTray />
          <Text>{label}</Text>
        </span>
        <Text size="small" leading="compact" className="text-ui-fg-muted">{hint}</Text>
      </button>
      <input hidden ref={input} id={`${id}-file`} type="file" accept={accept.join(",")} onChange={(event: ChangeEvent<HTMLInputElement>) => onChoose(event.target.files?.[0] ?? null)} />
    </div>
  )
}
