/** The wait before the next attempt after `attempts` failed ones, ±15 % so retries spread. */
export function retryDelayMs(schedule: number[], attempts: number, random = Math.random): number {
  const base = schedule[Math.min(attempts, schedule.length) - 1] ?? schedule.at(-1) ?? 60_000;
  return Math.round(base * (0.85 + 0.3 * random()));
}

/**
 * The least time between the starts of two numbering runs asked for by commits, and the wait
 * before numbering again after a run that numbered events (more are likely on their way): short,
 * so deliveries are queued soon after the commit, yet one run numbers a batch.
 */
export const SEQUENCE_AGAIN_MS = 20;

/**
 * When to number committed events again: SEQUENCE_AGAIN_MS after a run that numbered some
 * (orders seldom come alone), then twice as long after each run that numbered none, up to the
 * poll interval, where it stays until events are numbered again.
 */
export class NumberingPace {
  /**
   * Runs in a row that found nothing since one that numbered events; null once the wait is back
   * at the poll interval (and at start).
   */
  private idle: number | null = null;

  constructor(private readonly pollIntervalMs: number) {}

  /** The wait after a run that numbered `numbered` events. */
  next(numbered: number): number {
    if (numbered > 0) {
      this.idle = 0;
      return Math.min(SEQUENCE_AGAIN_MS, this.pollIntervalMs);
    }
    if (this.idle !== null) {
      const wait = SEQUENCE_AGAIN_MS * 2 ** ++this.idle;
      if (wait < this.pollIntervalMs) return wait;
      this.idle = null;
    }
    return this.pollIntervalMs;
  }
}
