/** The account has no credits left (plan grant and extra credits); HTTP maps it to 429. */
export class CreditsExhaustedError extends Error {
  constructor(
    readonly plan: string,
    readonly quota: number,
  ) {
    super('Monthly credits exhausted');
    this.name = 'CreditsExhaustedError';
  }
}
