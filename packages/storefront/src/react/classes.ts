/**
 * Class names from Medusa's Tailwind preset (`@medusajs/ui-preset`), which Medusa's Next.js storefront
 * uses: the storefront's Tailwind `content` must include this package's dist (docs/storefront-nextjs.md).
 */
export const CLASSES = {
  form: "flex flex-col gap-y-4 w-full",
  row: "grid grid-cols-3 gap-x-2",
  field: "flex flex-col gap-y-1",
  label: "txt-compact-small-plus text-ui-fg-base",
  input:
    "caret-ui-fg-base bg-ui-bg-field hover:bg-ui-bg-field-hover shadow-borders-base placeholder-ui-fg-muted text-ui-fg-base transition-fg relative w-full appearance-none rounded-md outline-none focus-visible:shadow-borders-interactive-with-active aria-[invalid=true]:!shadow-borders-error txt-compact-small h-10 px-3",
  fieldset: "flex flex-col gap-y-2 border-none p-0 m-0",
  legend: "txt-compact-small-plus text-ui-fg-base mb-1",
  choice: "flex items-center gap-x-2 txt-compact-small text-ui-fg-subtle",
  hint: "txt-compact-small text-ui-fg-muted",
  button:
    "transition-fg relative inline-flex w-full items-center justify-center overflow-hidden rounded-md outline-none disabled:bg-ui-bg-disabled disabled:border-ui-border-base disabled:text-ui-fg-disabled disabled:shadow-buttons-neutral shadow-buttons-inverted text-ui-contrast-fg-primary bg-ui-button-inverted hover:bg-ui-button-inverted-hover active:bg-ui-button-inverted-pressed focus-visible:!shadow-buttons-inverted-focus txt-compact-small-plus gap-x-1.5 px-3 py-2 h-10",
  error: "pt-2 text-rose-500 txt-compact-small",
  status: "txt-compact-small text-ui-fg-subtle",
} as const
