import type { ReportInput } from '../report/input'
import type { CalibrationRow, EstimatesSection } from './schema'
import { calibrationSection, type CalibrationSectionOptions } from './section'
import { estimatesSection } from './estimates'
import { resolveInput } from './data'

/**
 * The report's recalibration and corrected-estimate sections: `calibration` when the project has fits,
 * `estimates` when a judge labels units the criterion does not. Absent otherwise, so reports without either are
 * unchanged.
 */
export function calibrationSections(
  input: ReportInput,
  options: CalibrationSectionOptions
): { calibration?: CalibrationRow[]; estimates?: EstimatesSection } {
  const fits = input.fits ?? []
  // Both sections read the same sources resolved one value per unit: resolved once, read, never changed.
  const resolved = resolveInput(input)
  const estimates = estimatesSection(input, options.level, resolved)
  return {
    ...(fits.length > 0 ? { calibration: calibrationSection(input, fits, options, resolved) } : {}),
    ...(estimates ? { estimates } : {})
  }
}
