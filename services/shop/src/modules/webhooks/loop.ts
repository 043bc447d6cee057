/**
 * Runs `step` once at a time, again when the delay it returns has passed, or sooner when asked
 * (`runIn`): a request made while it runs is kept for when it ends.
 */
export class Loop {
  private timer: NodeJS.Timeout | undefined;
  /** When the planned run starts (ms since the epoch). */
  private timerAt = 0;
  private running: Promise<void> | undefined;
  /** The soonest run asked for while one ran (ms since the epoch), else Infinity. */
  private wantedAt = Infinity;
  private stopped = true;
  /** When the last run started (ms since the epoch). */
  startedAt = 0;

  constructor(private readonly step: () => Promise<number>) {}

  start(): void {
    this.stopped = false;
    this.runIn(0);
  }

  /** No more runs; the one running (if any) ends. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** The next run in `delayMs`, unless one is planned sooner. */
  runIn(delayMs: number): void {
    if (this.stopped) return;
    if (this.running) {
      this.wantedAt = Math.min(this.wantedAt, Date.now() + delayMs);
      return;
    }
    if (this.timer && this.timerAt <= Date.now() + delayMs) return;
    clearTimeout(this.timer);
    this.timerAt = Date.now() + delayMs;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.wantedAt = Infinity;
      this.startedAt = Date.now();
      this.running = this.step().then((next) => {
        this.running = undefined;
        this.runIn(Math.min(next, Math.max(0, this.wantedAt - Date.now())));
      });
    }, delayMs);
  }
}
