import type { Feedback } from './feedback.js';

/** Once an hour is plenty for a retention counted in days. */
export const FEEDBACK_PURGE_EVERY_MS = 3_600_000;

/**
 * Runs Feedback.purge every `intervalMs` on every instance (deletes are idempotent); the timer
 * never keeps the process alive and purges never overlap. Listing already hides what is past
 * retention, so between two purges nothing expired is shown.
 */
export class FeedbackRetention {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly feedback: Feedback,
    private readonly onError: (error: unknown) => void,
    private readonly intervalMs = FEEDBACK_PURGE_EVERY_MS,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.purge(), this.intervalMs);
    this.timer.unref();
  }

  purge(): Promise<void> {
    this.running ??= this.feedback
      .purge()
      .then(() => undefined, this.onError)
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
