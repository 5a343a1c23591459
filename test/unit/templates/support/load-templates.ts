import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  buildTemplateSet,
  getTemplate,
  parseTemplateManifestJson,
  type Template,
  type TemplateSet
} from '../../../../src/shared/templates'

// Reads the built-in templates from resources/templates with node:fs, as main does.

export const TEMPLATES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../resources/templates')

export function readTemplateFile(path: string): string {
  return readFileSync(resolve(TEMPLATES_DIR, path), 'utf8')
}

let cached: TemplateSet | undefined

export function loadBuiltInTemplates(): TemplateSet {
  cached ??= buildTemplateSet(parseTemplateManifestJson(readTemplateFile('index.json')), readTemplateFile)
  return cached
}

export function builtIn(id: string, version = 1): Template {
  return getTemplate(loadBuiltInTemplates(), id, version)
}
