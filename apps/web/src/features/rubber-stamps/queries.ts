export const rubberStampQueryKeys = {
  list: (tenantUuid: string | null | undefined) => ['tenant', tenantUuid, 'rubberStamps'] as const,
  // The image changes when its stamp is edited: the update time is part of the key.
  image: (tenantUuid: string | null | undefined, id: string, updatedOn: string) => ['tenant', tenantUuid, 'rubberStamps', id, 'image', updatedOn] as const,
};
