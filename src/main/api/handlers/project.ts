import type { ProjectView } from '../../../shared/contract/schemas'
import { DEFAULT_DISPLAY_SETTINGS, displaySettingsSchema, type DisplaySettings } from '../../../shared/contract/settings-operations'
import { getMeta, setMeta } from '../../store/meta'
import type { ApiContext } from '../context'
import type { HandlerGroup } from './types'

/** Display settings live in the project's meta table, one entry per annotator (by stable id) and one for curators. */
function settingsKey(ctx: ApiContext): string {
  return ctx.session.annotator ? `display_settings:annotator:${ctx.session.annotator.id}` : 'display_settings:curator'
}

function readSettings(ctx: ApiContext): DisplaySettings {
  const raw = getMeta(ctx.project.db, settingsKey(ctx))
  if (!raw) return DEFAULT_DISPLAY_SETTINGS
  try {
    // A stored value from an older version keeps what is still valid; the rest falls back to the defaults.
    const stored = JSON.parse(raw) as Record<string, unknown>
    const out = { ...DEFAULT_DISPLAY_SETTINGS }
    for (const key of Object.keys(out) as Array<keyof DisplaySettings>) {
      const one = displaySettingsSchema.shape[key].safeParse(stored[key])
      if (one.success) (out as Record<string, unknown>)[key] = one.data
    }
    return out
  } catch {
    return DEFAULT_DISPLAY_SETTINGS
  }
}

export const projectHandlers: HandlerGroup<'project.info' | 'settings.get' | 'settings.set'> = {
  'project.info': (_input, ctx) => {
    const info = ctx.project.info()
    if (ctx.session.role === 'curator') return info
    // Annotators get what names the project and nothing more: no file path, no seed, no counts of other people's
    // work, and no item breakdown by set (set names can carry origins: "ai-generated").
    const view: ProjectView = { name: info.name, projectId: info.projectId, schemaVersion: info.schemaVersion, mode: info.mode, items: info.items, counts: [] }
    return view
  },
  'settings.get': (_input, ctx) => readSettings(ctx),
  'settings.set': (input, ctx) => {
    const next: DisplaySettings = { ...readSettings(ctx), ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) }
    ctx.project.write((db) => setMeta(db, settingsKey(ctx), JSON.stringify(next)))
    return next
  }
}
