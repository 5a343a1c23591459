import { seededRandom, type DrawAhead, type DrawAheadJob } from '../../src/shared/stats'

/**
 * A drawer for tests: each job's resamples drawn on this thread from the job's stream (seed + `shift`, so a shifted
 * stream must change the figures), with the jobs it was given and how often it was ended.
 */
export function drawsInLine(shift = 0): { drawAhead: DrawAhead; jobs: DrawAheadJob[]; closed: () => number } {
  const jobs: DrawAheadJob[] = []
  let closed = 0
  const drawAhead: DrawAhead = (job) => {
    jobs.push(job)
    const draw = seededRandom(job.seed + shift).binned(job.bins)
    return { next: (counts) => (counts.fill(0), draw(counts, job.draws)), close: () => void closed++ }
  }
  return { drawAhead, jobs, closed: () => closed }
}
