/** A key as written between its quotes, its escapes decoded (kept as written where they do not decode). */
export function jsonKey(raw: string, escaped: boolean): string {
  if (!escaped) return raw
  try {
    return JSON.parse(`"${raw}"`) as string
  } catch {
    return raw
  }
}
