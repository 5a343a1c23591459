// Form state is plain JSON addressed by dotted paths ("scores.2.match"). An empty field names the element itself
// (a list of plain strings declares its inner widget with field ''), so joining skips empty parts.

export function joinPath(...parts: ReadonlyArray<string | number>): string {
  return parts
    .map(String)
    .filter((p) => p !== '')
    .join('.')
}

function segments(path: string): string[] {
  return path === '' ? [] : path.split('.')
}

export function getAt(root: unknown, path: string): unknown {
  let node: unknown = root
  for (const key of segments(path)) {
    if (node === null || typeof node !== 'object') return undefined
    node = (node as Record<string, unknown>)[key]
  }
  return node
}

/** A copy of `root` with `value` at `path`; missing objects are created, arrays stay arrays. */
export function setAt<T>(root: T, path: string, value: unknown): T {
  const keys = segments(path)
  if (keys.length === 0) return value as T
  const write = (node: unknown, i: number): unknown => {
    const key = keys[i]!
    const child = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined
    const next = i === keys.length - 1 ? value : write(child, i + 1)
    if (Array.isArray(node)) {
      const copy = [...node]
      copy[Number(key)] = next
      return copy
    }
    return { ...(node !== null && typeof node === 'object' ? node : {}), [key]: next }
  }
  return write(root, 0) as T
}

/** A copy of `root` without `path` (an array element is spliced out, an object key deleted). */
export function removeAt<T>(root: T, path: string): T {
  const keys = segments(path)
  const last = keys.pop()
  if (last === undefined) return root
  const parentPath = keys.join('.')
  const parent = getAt(root, parentPath)
  if (Array.isArray(parent)) return setAt(root, parentPath, parent.filter((_, i) => i !== Number(last)))
  if (parent !== null && typeof parent === 'object') {
    const { [last]: _removed, ...rest } = parent as Record<string, unknown>
    return setAt(root, parentPath, rest)
  }
  return root
}

/** True when `path` is `ancestor` or lies below it. */
export function isWithin(path: string, ancestor: string): boolean {
  return ancestor === '' || path === ancestor || path.startsWith(`${ancestor}.`)
}

/** The path of the object a field belongs to (a list entry or unit), '' for a top-level field. */
export function parentPath(path: string): string {
  const i = path.lastIndexOf('.')
  return i < 0 ? '' : path.slice(0, i)
}
