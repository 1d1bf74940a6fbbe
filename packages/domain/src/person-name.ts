/** The parts of a person's name as users, recipients and members carry them. */
export interface PersonNames {
  readonly firstName?: string | null;
  readonly lastName?: string | null;
}

/** First and last name as a person is addressed ("Asha Rao"); empty when neither is known. */
export function fullName(person: PersonNames): string {
  return `${person.firstName ?? ''} ${person.lastName ?? ''}`.trim();
}

/**
 * How a person is shown in lists, fields and mail: their name, or their address when they have
 * none (an external signer invited by address only).
 */
export function displayName(person: PersonNames & { readonly email: string }): string {
  return fullName(person) || person.email;
}
