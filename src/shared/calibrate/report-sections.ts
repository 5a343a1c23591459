import type { ReportInput } from '../report/input'
import type { CalibrationRow, EstimatesSection } from './schema'
import { calibrationSection, type CalibrationSectionOptions } from './section'
import { estimatesSection } from './estimates'

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
  const estimates = estimatesSection(input, options.level)
  return {
    ...(fits.length > 0 ? { calibration: calibrationSection(input, fits, options) } : {}),
    ...(estimates ? { estimates } : {})
  }
}
