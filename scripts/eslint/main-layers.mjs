// The layers of src/main, checked on every import (type-only and dynamic ones included): a file may import a room of
// its own layer or of a layer below it, never one above. Each room is a folder of src/main (a file at the top of
// src/main is a room of its own). The layers are named in eslint.config.js; a room named in no layer belongs to the
// one given as `rest`. The rule only resolves relative imports: src/main is reached from nowhere else.
import { dirname, relative, resolve, sep } from 'node:path'

function roomOf(mainRoot, file) {
  const rel = relative(mainRoot, file)
  if (rel === '' || rel.startsWith('..') || resolve(mainRoot, rel) !== file) return null
  const [first, ...rest] = rel.split(sep)
  if (rest.length > 0) return first
  return /\.[cm]?[jt]sx?$/.test(first) ? first.replace(/\.[cm]?[jt]sx?$/, '.ts') : `${first}.ts`
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'A room of src/main imports only rooms of its own layer or of the layers below it.' },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          layers: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, rooms: { type: 'array', items: { type: 'string' } } }, required: ['name', 'rooms'] } },
          rest: { type: 'string' }
        },
        required: ['root', 'layers', 'rest'],
        additionalProperties: false
      }
    ],
    messages: {
      upward: '{{from}} is in the {{fromLayer}} layer and may not import {{to}} of the {{toLayer}} layer above it (layers, lowest first: {{order}}).'
    }
  },
  create(context) {
    const { root, layers, rest } = context.options[0]
    const mainRoot = resolve(context.cwd, root)
    const filename = context.filename
    const from = roomOf(mainRoot, filename)
    if (from === null) return {}
    const layerIndex = (room) => {
      const found = layers.findIndex((layer) => layer.rooms.includes(room))
      return found >= 0 ? found : layers.findIndex((layer) => layer.name === rest)
    }
    const fromLayer = layerIndex(from)
    const order = layers.map((layer) => layer.name).join(', ')
    const check = (node, specifier) => {
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return
      const to = roomOf(mainRoot, resolve(dirname(filename), specifier))
      if (to === null || to === from) return
      const toLayer = layerIndex(to)
      if (toLayer > fromLayer) {
        context.report({ node, messageId: 'upward', data: { from, to, fromLayer: layers[fromLayer].name, toLayer: layers[toLayer].name, order } })
      }
    }
    const fromSource = (node) => node.source && check(node.source, node.source.value)
    return {
      ImportDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
      TSImportType: (node) => {
        const literal = node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument
        if (literal?.type === 'Literal') check(literal, literal.value)
      }
    }
  }
}
