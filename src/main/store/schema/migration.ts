/** One step of the schema: applied once, in order, by its version (the file's `user_version`). */
export interface Migration {
  version: number
  name: string
  sql: string
}
