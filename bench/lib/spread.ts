/** A sample's median with its range: what a repeated measurement is reported as. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

export function spread(samples: readonly number[]): Spread {
  if (samples.length === 0) throw new Error("a spread needs at least one sample");
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]! };
}

/**
 * The ratio of two paths repeat by repeat: the i-th sample of each was taken in the same repeat,
 * back to back, so a change of the machine's load between repeats weighs on both and cancels.
 */
export function pairedRatios(numerators: readonly number[], denominators: readonly number[]): number[] {
  if (numerators.length !== denominators.length)
    throw new Error(`paired samples differ in count: ${numerators.length} and ${denominators.length}`);
  return numerators.map((value, i) => value / denominators[i]!);
}

/** `12.3 (11.9-13.0)`: the median and range, each scaled and shown with `digits` decimals. */
export function formatSpread({ median, min, max }: Spread, digits: number, scale = 1): string {
  const show = (value: number) => (value / scale).toFixed(digits);
  return `${show(median)} (${show(min)}-${show(max)})`;
}
