import { Code } from "@medusajs/ui"

/** A translated text whose `backticked` parts are names the merchant types (options, URL paths, placeholders): those shown as code. */
export function WithCode({ text }: { text: string }) {
  return (
    <>
      {text.split("`").map((part, index) => (index % 2 === 1 ? <Code key={index} className="txt-compact-xsmall">{part}</Code> : part))}
    </>
  )
}
