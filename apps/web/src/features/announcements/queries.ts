/**
 * The query of the banner. Its answer depends on who asks (a member also gets their tenant's own),
 * so it is keyed by user and tenant and is not one of the public queries kept across logout.
 */
export const announcementQueryKeys = {
  all: ['announcements'] as const,
  current: (userId: string | null, tenantUuid: string | null) => ['announcements', 'current', userId, tenantUuid] as const,
};
