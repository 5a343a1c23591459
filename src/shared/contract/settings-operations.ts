import { z } from 'zod'
import { op } from './define'

// Display settings, kept per annotator in the project (the curator has their own): whoever opens the project on
// another machine, or in a packet, reads text at the size and in the theme they chose.

export const TEXT_SIZES = ['small', 'normal', 'large', 'x-large'] as const
export const DENSITIES = ['comfortable', 'compact'] as const
export const THEMES = ['light', 'dark'] as const

export const displaySettingsSchema = z.object({
  textSize: z.enum(TEXT_SIZES),
  density: z.enum(DENSITIES),
  theme: z.enum(THEMES)
})
export type DisplaySettings = z.infer<typeof displaySettingsSchema>

export const DEFAULT_DISPLAY_SETTINGS: DisplaySettings = { textSize: 'normal', density: 'comfortable', theme: 'light' }

/** Operations of display settings (merged into the one contract in operations.ts). */
export const settingsOperations = {
  'settings.get': op({
    input: z.object({}).strict(),
    output: displaySettingsSchema,
    access: 'any',
    summary: "This session's display settings (the annotator's own, or the curator's)"
  }),
  'settings.set': op({
    input: displaySettingsSchema.partial().strict(),
    output: displaySettingsSchema,
    access: 'any',
    summary: "Change this session's display settings: text size, density, theme"
  })
} as const
