import { z } from 'zod';
import { type BinaryBody, defineEndpoint } from './contract';

/**
 * Rubber stamps (issue 8; spec §7 "GET, POST and PUT /msbapi/v2/rubberstamp", "DELETE
 * /msbapi/v2/rubberstamp/{id}", "POST /msbapi/v2/rubberstamp/share"; §6 "The rubber stamp needs an
 * enabled config flag and the signer's passcode flag"). A stamp is a member's own image (a seal,
 * an office stamp) which they may share with other members and with groups. Keeping stamps needs
 * the tenant's rubber-stamp flag (action rubberStamp.manage); applying one when signing needs the
 * signer's passcode flag as well, checked by the signing command.
 */

/** The formats a stamp is stored in, judged by the file's first bytes. */
export const RubberStampContentType = z.enum(['image/png', 'image/jpeg']);
export type RubberStampContentType = z.infer<typeof RubberStampContentType>;

/** A stamp's image is at most this large: it is drawn into every PDF it is applied to. */
export const RUBBER_STAMP_MAX_SIZE_KB = 500;
export const RUBBER_STAMP_MAX_SIZE_BYTES = RUBBER_STAMP_MAX_SIZE_KB * 1024;
/** The largest side, in px: a small file can still unpack to a huge bitmap, which sealing decodes. */
export const RUBBER_STAMP_MAX_SIDE_PX = 4000;
export const RUBBER_STAMP_NAME_MAX_LENGTH = 100;
/** Users plus groups one stamp may be shared with. */
export const RUBBER_STAMP_MAX_SHARES = 200;

export const RubberStampName = z.string().trim().min(1).max(RUBBER_STAMP_NAME_MAX_LENGTH);

export const RubberStampShareUser = z.object({ userId: z.uuid(), email: z.string(), name: z.string() });
export const RubberStampShareGroup = z.object({ groupId: z.uuid(), groupName: z.string() });

export const RubberStamp = z.object({
  rubberStampId: z.uuid(),
  name: z.string(),
  contentType: RubberStampContentType,
  size: z.number().int().nonnegative(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  ownerId: z.uuid(),
  ownerName: z.string(),
  /** The caller owns it: they edit, share and delete it. */
  owned: z.boolean(),
  /** The caller may delete it: its owner, or an admin of the tenant. */
  deletable: z.boolean(),
  /** Who it is shared with; told to its owner (and admins) only, empty for anyone else. */
  sharedWith: z.object({ users: z.array(RubberStampShareUser), groups: z.array(RubberStampShareGroup) }),
  updatedOn: z.iso.datetime(),
});
export type RubberStamp = z.infer<typeof RubberStamp>;

const StampParams = z.object({ rubberStampId: z.uuid() });

export const listRubberStamps = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v2/rubberstamp',
  access: 'tenant',
  action: 'rubberStamp.manage',
  summary:
    "The caller's rubber stamps: their own, then those shared with them directly or through one of their groups, by name. Also whether the caller's passcode flag is set (without it a stamp cannot be applied when signing) and the tenant's groups, to share with.",
  response: z.object({
    stamps: z.array(RubberStamp),
    passcodeFlag: z.boolean(),
    groups: z.array(RubberStampShareGroup),
  }),
});

export const createRubberStamp = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/rubberstamp',
  access: 'tenant',
  action: 'rubberStamp.manage',
  summary:
    'Create a rubber stamp (multipart: field `name`, then field `file`): a PNG or JPEG by its first bytes, at most 500 KB. Larger: -142 with message maxSizeExceeded; any other kind: -6 imageTypeNotAllowed.',
  bodyEncoding: 'multipart',
  // The form's text fields (the image travels as the file `file`); without a name, the file's.
  body: z.object({ name: RubberStampName.optional() }),
  response: RubberStamp,
});

export const updateRubberStamp = defineEndpoint({
  method: 'PUT',
  path: '/msbapi/v2/rubberstamp',
  access: 'tenant',
  action: 'rubberStamp.manage',
  summary:
    "Edit one's own rubber stamp (multipart: field `rubberStampId`, then `name` and/or `file`, as for create). Someone else's is refused (-11); an unknown one is 404. ePaks already stamped keep the image they were signed with.",
  bodyEncoding: 'multipart',
  body: z.object({ rubberStampId: z.uuid(), name: RubberStampName.optional() }),
  response: RubberStamp,
});

export const deleteRubberStamp = defineEndpoint({
  method: 'DELETE',
  path: '/msbapi/v2/rubberstamp/:rubberStampId',
  access: 'tenant',
  action: 'rubberStamp.manage',
  summary: "Delete a rubber stamp: one's own, or any of the tenant's for an admin (-11 otherwise); its sharing goes with it.",
  params: StampParams,
  response: z.object({ deleted: z.literal(true) }),
});

export const ShareRubberStampBody = z
  .object({
    rubberStampId: z.uuid(),
    /** The full list: whoever is not named any more is no longer shared with. */
    userIds: z.array(z.uuid()).max(RUBBER_STAMP_MAX_SHARES).default([]),
    groupIds: z.array(z.uuid()).max(RUBBER_STAMP_MAX_SHARES).default([]),
  })
  .superRefine((body, context) => {
    if (new Set(body.userIds).size !== body.userIds.length) context.addIssue({ code: 'custom', path: ['userIds'], message: 'a person is listed twice' });
    if (new Set(body.groupIds).size !== body.groupIds.length) context.addIssue({ code: 'custom', path: ['groupIds'], message: 'a group is listed twice' });
  });
export type ShareRubberStampBody = z.infer<typeof ShareRubberStampBody>;

export const shareRubberStamp = defineEndpoint({
  method: 'POST',
  path: '/msbapi/v2/rubberstamp/share',
  access: 'tenant',
  action: 'rubberStamp.manage',
  summary:
    "Set who one's own rubber stamp is shared with: members and groups of the tenant (the owner is never listed). A person or group that is not the tenant's answers 404 and nothing changes; someone else's stamp -11.",
  body: ShareRubberStampBody,
  response: RubberStamp,
});

export const downloadRubberStampImage = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v2/rubberstamp/:rubberStampId/image',
  access: 'tenant',
  action: 'rubberStamp.manage',
  summary: "A rubber stamp's image (PNG or JPEG), for its owner and those it is shared with.",
  params: StampParams,
  binaryResponse: true,
  response: z.custom<BinaryBody>(),
});

/** A stamp the signer may apply now, as the signing viewer lists it. */
export const RubberStampChoice = z.object({
  rubberStampId: z.uuid(),
  name: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  owned: z.boolean(),
});
export type RubberStampChoice = z.infer<typeof RubberStampChoice>;

/**
 * What the signing ceremony offers: `available` when the tenant's flag and the caller's passcode
 * flag are both on (mayUseRubberStamp), with the stamps they may apply. Carried by the ePak's
 * viewer because a signing-link session reaches only its ePak.
 */
export const CeremonyRubberStamps = z.object({
  available: z.boolean(),
  stamps: z.array(RubberStampChoice),
});
export type CeremonyRubberStamps = z.infer<typeof CeremonyRubberStamps>;

export const downloadCeremonyRubberStampImage = defineEndpoint({
  method: 'GET',
  path: '/msbapi/v2/epaks/:ePakId/rubberstamps/:rubberStampId/image',
  access: 'tenant',
  action: 'epak.act',
  signingLink: true,
  summary:
    "The image of a rubber stamp the caller may apply to this ePak (signing-link sessions too): 404 unless the ePak is theirs to see and the stamp is one of their stamps in the ePak's tenant, while they may use stamps.",
  params: z.object({ ePakId: z.uuid(), rubberStampId: z.uuid() }),
  binaryResponse: true,
  response: z.custom<BinaryBody>(),
});

/**
 * A stamp applied when signing: onto a rubber-stamp tag the custodian placed for the signer
 * (`tagUuid`), or dropped by the signer where they choose (`placement`, in the page frame of the
 * tag model, default size when width and height are left out). A stamp may overlap a signature
 * or initials (§5), not another stamp.
 */
export const RubberStampPlacement = z.object({
  pageNumber: z.number().int().positive(),
  positionX: z.number().finite().nonnegative(),
  positionY: z.number().finite().nonnegative(),
  blockWidth: z.number().finite().positive().optional(),
  blockHeight: z.number().finite().positive().optional(),
});
export type RubberStampPlacement = z.infer<typeof RubberStampPlacement>;

export const RubberStampUse = z
  .object({ rubberStampId: z.uuid(), tagUuid: z.guid().optional(), placement: RubberStampPlacement.optional() })
  .refine((use) => (use.tagUuid === undefined) !== (use.placement === undefined), { message: 'give either tagUuid or placement', path: ['placement'] });
export type RubberStampUse = z.infer<typeof RubberStampUse>;
export const RUBBER_STAMP_USES_MAX = 20;
