/** A document this step cannot seal, with the reason a person can act on. */
export class SealError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SealError';
  }
}
