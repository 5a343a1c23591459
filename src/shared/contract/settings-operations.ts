import { z } from 'zod'
import { op } from './define'
import { DENSITIES, TEXT_SIZES, THEMES, type DisplaySettings } from './display-settings'

export * from './display-settings'

export const displaySettingsSchema = z.object({
  textSize: z.enum(TEXT_SIZES),
  density: z.enum(DENSITIES),
  theme: z.enum(THEMES)
}) satisfies z.ZodType<DisplaySettings>

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
