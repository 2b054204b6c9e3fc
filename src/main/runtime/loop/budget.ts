/**
 * A spending limit in USD shared by every agent of a session (`--max-budget-usd`). Costs are
 * added after each model response; the loop checks `exhausted` before each request, so a run
 * stops at the first turn boundary after the limit is reached (one response may overshoot it).
 */
export class Budget {
  private spent = 0

  /** @param limitUsd the limit in USD; undefined = no limit. */
  constructor(readonly limitUsd?: number) {
    if (limitUsd !== undefined && !(limitUsd > 0)) {
      throw new RangeError(`The budget must be a positive number of USD, got ${limitUsd}.`)
    }
  }

  add(costUsd: number): void {
    this.spent += costUsd
  }

  get spentUsd(): number {
    return this.spent
  }

  get exhausted(): boolean {
    return this.limitUsd !== undefined && this.spent >= this.limitUsd
  }
}
