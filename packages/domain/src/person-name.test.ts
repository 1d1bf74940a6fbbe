import { describe, expect, it } from 'vitest';
import { displayName, fullName } from './person-name';

describe('a person’s name', () => {
  it.each([
    [{ firstName: 'Asha', lastName: 'Rao' }, 'Asha Rao'],
    [{ firstName: 'Asha', lastName: '' }, 'Asha'],
    [{ firstName: '', lastName: 'Rao' }, 'Rao'],
    [{ firstName: null, lastName: undefined }, ''],
    [{}, ''],
  ])('full name of %o is %j', (person, expected) => {
    expect(fullName(person)).toBe(expected);
  });

  it('shows the address of someone with no name, and the name of everyone else', () => {
    expect(displayName({ firstName: '', lastName: '', email: 'asha@example.com' })).toBe('asha@example.com');
    expect(displayName({ firstName: 'Asha', lastName: 'Rao', email: 'asha@example.com' })).toBe('Asha Rao');
  });
});
