export interface Part {
  name: string
  filename?: string
  content: string
}

/** Just enough multipart/form-data for the file uploads the SDKs send (text parts only). */
export function parseMultipart(contentType: string, body: string): Part[] {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1]
  if (!boundary) return []
  const parts: Part[] = []
  for (const chunk of body.split(`--${boundary}`)) {
    const sep = chunk.indexOf('\r\n\r\n')
    if (sep < 0) continue
    const head = chunk.slice(0, sep)
    const name = /name="([^"]*)"/i.exec(head)?.[1]
    if (name === undefined) continue
    const filename = /filename="([^"]*)"/i.exec(head)?.[1]
    // Each part's content ends with the CRLF that precedes the next boundary.
    const content = chunk.slice(sep + 4).replace(/\r\n$/, '')
    parts.push({ name, content, ...(filename !== undefined ? { filename } : {}) })
  }
  return parts
}
