import { api } from './api'
import { registerDeclaredInstruments } from '../../shared/instruments'
import { buildInstrument } from '../../shared/instruments/declared/build'
import { declarationSchema } from '../../shared/instruments/declared/declaration'

// The project's own instruments, built in the window from the same declarations main uses, before any form or
// list of instruments is drawn.

export async function loadDeclaredInstruments(): Promise<void> {
  const { instruments } = await api['instruments.list']({})
  registerDeclaredInstruments(instruments.map((i) => buildInstrument(declarationSchema.parse(i.declaration), i.version)))
}
