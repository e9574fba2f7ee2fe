// Whether an answer was made from the runs a view now learns from: a fit or a projection belongs to
// its runs, and is shown only while they are the ones chosen.

export function sameRuns(asked: readonly number[] | undefined, runIds: readonly number[]): boolean {
  if (!asked || asked.length !== runIds.length) return false;
  return asked.every((id, i) => id === runIds[i]);
}
