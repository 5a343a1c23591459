// Type-checked by `npx tsc -b`, never run: a function that writes takes a WritableDB, which only `Project.write`
// hands out; readers take a ReadableDB, and a writable handle is readable too. Each `@ts-expect-error` marks a call
// the compiler must refuse: were it accepted, the directive itself would be the error.
import { currentAnnotations } from '../../src/main/store/annotations'
import type { ReadableDB, WritableDB } from '../../src/main/store/database'
import { getMeta, setMeta } from '../../src/main/store/meta'
import type { Project } from '../../src/main/store/project'

export function readsAndWrites(project: Project): void {
  currentAnnotations(project.db)
  getMeta(project.db, 'seed')
  project.write((db) => {
    setMeta(db, 'seed', '1')
    return currentAnnotations(db)
  })
}

export function writesOutsideTransaction(project: Project): void {
  // @ts-expect-error the connection read through is not a write transaction's handle
  setMeta(project.db, 'seed', '1')
}

export function readerThatWrites(db: ReadableDB): void {
  // @ts-expect-error a function given a readable handle cannot write through it
  setMeta(db, 'seed', '1')
}

export function writerInATransaction(db: WritableDB): string | undefined {
  setMeta(db, 'seed', '1')
  return getMeta(db, 'seed')
}
