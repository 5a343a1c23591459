import { describe, expect, it } from 'vitest'
import { externalContentHref } from '../../../src/shared/content-links'

describe('links inside content', () => {
  it('keeps only absolute web links, to open outside the app', () => {
    expect(externalContentHref('https://arxiv.org/abs/2401.1')).toBe('https://arxiv.org/abs/2401.1')
    expect(externalContentHref('http://example.org')).toBe('http://example.org/')
  })

  it('makes relative, absolute-path, fragment and non-web links inert', () => {
    for (const href of ['notes.md', '../x', '/api/items.list', '#section', '//evil.example/x', 'file:///etc/passwd', 'javascript:alert(1)', 'mailto:a@b.c', 'app://assay/index.html', '', undefined, null]) {
      expect(externalContentHref(href), String(href)).toBeNull()
    }
  })
})
