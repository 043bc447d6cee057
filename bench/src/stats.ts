// Interleaved rounds and their summaries: A and B alternate (A B, B A, A B …), the first round is
// a warm-up and dropped, and the rest are reported as the median with the min–max spread.

export interface Figure {
  median: number;
  min: number;
  max: number;
  /** The kept rounds, in order. */
  values: number[];
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function figure(values: number[]): Figure {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), values };
}

/** A ÷ B: the ratio of the medians, with the spread of the per-round ratios. */
export function ratioFigure(a: number[], b: number[]): Figure {
  const perRound = a.map((value, i) => value / b[i]!);
  return {
    median: median(a) / median(b),
    min: Math.min(...perRound),
    max: Math.max(...perRound),
    values: perRound,
  };
}

/**
 * Runs every side once per round, alternating their order each round, and returns each side's
 * results without the first (warm-up) round.
 */
export async function interleave<S extends Record<string, () => Promise<unknown>>>(
  rounds: number,
  sides: S,
  log?: (line: string) => void,
): Promise<{ [K in keyof S]: Array<Awaited<ReturnType<S[K]>>> }> {
  const names = Object.keys(sides) as Array<keyof S & string>;
  const results = Object.fromEntries(names.map((n) => [n, [] as unknown[]])) as Record<
    string,
    unknown[]
  >;
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      const result = await sides[name]!();
      if (round > 0) results[name]!.push(result);
      log?.(
        `    round ${round + 1}${round === 0 ? ' (warm-up)' : ''} ${name}: ${describe(result)}`,
      );
    }
  }
  return results as { [K in keyof S]: Array<Awaited<ReturnType<S[K]>>> };
}

function describe(result: unknown): string {
  if (typeof result === 'number') return result.toFixed(1);
  const r = result as { rps?: number; tps?: number; value?: number };
  const value = r.rps ?? r.tps ?? r.value;
  return value === undefined ? JSON.stringify(result).slice(0, 120) : value.toFixed(1);
}
