/**
 * Links inside content (proposals, questions, rubrics) must never navigate the workbench: a relative link would
 * resolve against the app's own origin and replace the page. Only an absolute web link is kept, to open in a new
 * browser tab or the system browser; everything else (relative, fragment, file:, javascript:, mailto:) is shown as
 * text. Returns the href to use, or null.
 */
export function externalContentHref(href: string | undefined | null): string | null {
  if (!href) return null
  let url: URL
  try {
    url = new URL(href)
  } catch {
    return null
  }
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null
}
