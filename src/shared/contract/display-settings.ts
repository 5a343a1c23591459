// Display settings, kept per annotator in the project (the curator has their own): whoever opens the project on
// another machine, or in a packet, reads text at the size and in the theme they chose. Their values without their
// schema (settings-operations.ts), so the window's settings control loads no schema library.

export const TEXT_SIZES = ['small', 'normal', 'large', 'x-large'] as const
export const DENSITIES = ['comfortable', 'compact'] as const
export const THEMES = ['light', 'dark'] as const

export interface DisplaySettings {
  textSize: (typeof TEXT_SIZES)[number]
  density: (typeof DENSITIES)[number]
  theme: (typeof THEMES)[number]
}

export const DEFAULT_DISPLAY_SETTINGS: DisplaySettings = { textSize: 'normal', density: 'comfortable', theme: 'light' }
