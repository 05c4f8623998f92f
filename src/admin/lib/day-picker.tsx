import { DatePicker } from "@medusajs/ui"
import { ComponentProps, useEffect, useMemo, useRef, useState } from "react"
import { dateOfDay, dayOfDate } from "./calendar-day"

type DayPickerProps = Omit<ComponentProps<typeof DatePicker>, "value" | "defaultValue" | "onChange"> & {
  /** The day shown, "YYYY-MM-DD" ("" for none). */
  day: string
  /** Called with the day picked or typed, "" while the field holds no whole day. */
  onDayChange: (day: string) => void
}

/**
 * @medusajs/ui's DatePicker on "YYYY-MM-DD" days. While a date is typed the picker reports null
 * and resets its segments whenever its value prop changes identity, so the value it is given
 * changes only with a whole day the picker reported or a day set from outside.
 */
export function DayPicker({ day, onDayChange, ...props }: DayPickerProps) {
  const reported = useRef(day)
  const [shown, setShown] = useState(day)
  const [outside, setOutside] = useState(0)
  useEffect(() => {
    if (day !== reported.current) {
      reported.current = day
      setShown(day)
      setOutside((count) => count + 1)
    }
  }, [day])
  // A new Date for each day set from outside, even the same day again, so the picker shows it.
  const value = useMemo(() => dateOfDay(shown), [shown, outside])
  return (
    <DatePicker
      {...props}
      value={value}
      onChange={(date) => {
        const next = dayOfDate(date)
        reported.current = next
        if (next) setShown(next)
        onDayChange(next)
      }}
    />
  )
}
