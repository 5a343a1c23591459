// What "current" means for the two append-only tables, written once. A correction is a new row naming the row it
// supersedes, so a chain's head is the row nothing supersedes; an answer whose head is a retraction (undo) has no
// current version. Should a chain ever fork, the latest head is the one read. Every query of a current answer or
// adjudication builds on these fragments (aliases are the caller's; `successor` is reserved for the subquery).

/** SQL condition: the annotation `alias` is the head of its chain. */
export const annotationIsHead = (alias: string): string => `NOT EXISTS (SELECT 1 FROM annotations successor WHERE successor.supersedes = ${alias}.id)`

/** SQL condition: the annotation `alias` is a current answer (the head of its chain, and not a retraction). */
export const annotationIsCurrent = (alias: string): string => `${alias}.retracted = 0 AND ${annotationIsHead(alias)}`

/** SQL ORDER BY terms that put the latest of several annotation heads first. */
export const annotationLatestFirst = (alias: string): string => `${alias}.created_at DESC`

/** SQL condition: the adjudication `alias` is current (the head of its chain). */
export const adjudicationIsCurrent = (alias: string): string => `NOT EXISTS (SELECT 1 FROM adjudications successor WHERE successor.supersedes = ${alias}.id)`

/** SQL ORDER BY terms that put the latest of several adjudication heads first. */
export const adjudicationLatestFirst = (alias: string): string => `${alias}.created_at DESC, ${alias}.rowid DESC`
