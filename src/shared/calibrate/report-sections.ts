import type { AuditInput } from '../report/input'
import type { CalibrationRow, EstimatesSection } from './schema'
import { calibrationSection, type CalibrationSectionOptions } from './section'
import { estimatesSection } from './estimates'

/**
 * The report's recalibration and corrected-estimate sections: `calibration` when the project has fits,
 * `estimates` when a judge labels units the criterion does not. Absent otherwise, so reports without either are
 * unchanged.
 */
export function attachCalibrationSections(
  report: { calibration?: CalibrationRow[] | undefined; estimates?: EstimatesSection | undefined },
  input: AuditInput,
  options: CalibrationSectionOptions
): void {
  const fits = input.fits ?? []
  if (fits.length > 0) report.calibration = calibrationSection(input, fits, options)
  const estimates = estimatesSection(input, options.level)
  if (estimates) report.estimates = estimates
}
