export const superadminQueryKeys = {
  list: (tenant: string | null | undefined) => ['tenant', tenant ?? null, 'superadmins'] as const,
};
