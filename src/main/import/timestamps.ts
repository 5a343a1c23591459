// Date.parse accepts 2025-02-30 (as 2 March) and 24:00; a time a file names must be one that exists on the calendar.

const TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-](\d{2}):?(\d{2}))?)?$/

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28
  return [4, 6, 9, 11].includes(month) ? 30 : 31
}

/**
 * Whether text is an ISO 8601 date or time (`2025-02-28`, `2025-02-28T10:00:00.123Z`, with or without offset) whose
 * day exists in its month and whose hour, minutes, seconds and offset are in range.
 */
export function isCalendarTime(raw: string): boolean {
  const m = TIME.exec(raw)
  if (!m) return false
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return false
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) return false
  if (m[8] !== undefined && (Number(m[8]) > 23 || Number(m[9]) > 59)) return false
  return !Number.isNaN(Date.parse(raw))
}
