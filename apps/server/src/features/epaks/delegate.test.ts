import { newTag, type Tag } from '@pakt/domain';
import { describe, expect, it } from 'vitest';
import { reassignTags } from './delegate';

const tag = (uuid: string, userEmail: string | undefined, wfsOrderId?: number, children?: Tag[]): Tag => ({
  ...newTag({ uuid, type: children ? 'composite' : 'signature', pageNumber: 1, positionX: 10, positionY: 10, ...(userEmail ? { userEmail } : {}), ...(wfsOrderId !== undefined ? { wfsOrderId } : {}) }),
  ...(children ? { children } : {}),
});

const from = { email: 'asha@example.test', userId: 'u-asha' };
const to = { email: 'meera@example.test', userId: 'u-meera' };
const owners = (tags: Tag[]): Array<[string, string | undefined, number | undefined]> =>
  tags.flatMap((t) => [[t.uuid, t.userEmail, t.wfsOrderId] as [string, string | undefined, number | undefined], ...owners(t.children ?? [])]);

describe('moving the fields of a delegated place', () => {
  it("moves the place's fields (composite members too), naming the step, and leaves everyone else's", () => {
    const tags = [
      tag('00000000-0000-4000-8000-000000000001', 'Asha@Example.test', 2),
      tag('00000000-0000-4000-8000-000000000002', 'asha@example.test', 3),
      tag('00000000-0000-4000-8000-000000000003', 'ravi@example.test', 2),
      tag('00000000-0000-4000-8000-000000000004', undefined, undefined, [tag('00000000-0000-4000-8000-000000000005', 'asha@example.test', 2)]),
      tag('00000000-0000-4000-8000-000000000006', 'asha@example.test'),
    ];
    const { tags: moved, moved: count } = reassignTags(tags, from, to, 2, true);
    expect(count).toBe(3);
    expect(owners(moved)).toEqual([
      ['00000000-0000-4000-8000-000000000001', 'meera@example.test', 2],
      ['00000000-0000-4000-8000-000000000002', 'asha@example.test', 3],
      ['00000000-0000-4000-8000-000000000003', 'ravi@example.test', 2],
      ['00000000-0000-4000-8000-000000000004', undefined, undefined],
      ['00000000-0000-4000-8000-000000000005', 'meera@example.test', 2],
      // A field naming no step was the place's: it is its only place in the ePak.
      ['00000000-0000-4000-8000-000000000006', 'meera@example.test', 2],
    ]);
    expect(tags[0]!.userEmail).toBe('Asha@Example.test');
  });

  it('leaves a field naming no step alone when the person has another place it could be for', () => {
    const tags = [tag('00000000-0000-4000-8000-000000000001', 'asha@example.test')];
    expect(reassignTags(tags, from, to, 2, false)).toEqual({ tags, moved: 0 });
  });

  it("gives a user-UUID the delegate's id only where it was the delegator's", () => {
    const mine = { ...tag('00000000-0000-4000-8000-000000000001', 'asha@example.test', 1), userUuid: 'u-asha' };
    expect(reassignTags([mine], from, to, 1, true).tags[0]!.userUuid).toBe('u-meera');
  });
});
