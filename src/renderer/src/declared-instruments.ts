import { api } from './api'

// The project's own instruments, built in the window from the same declarations main uses, before any form or
// list of instruments is drawn. The registry and the declaration code (zod with them) load only for a project that
// declares some, so the first screen of every other project starts without them.

export async function loadDeclaredInstruments(): Promise<void> {
  const { instruments } = await api['instruments.list']({})
  if (instruments.length === 0) return
  const [{ registerDeclaredInstruments }, { buildInstrument }, { declarationSchema }] = await Promise.all([
    import('../../shared/instruments'),
    import('../../shared/instruments/declared/build'),
    import('../../shared/instruments/declared/declaration')
  ])
  registerDeclaredInstruments(instruments.map((i) => buildInstrument(declarationSchema.parse(i.declaration), i.version)))
}
