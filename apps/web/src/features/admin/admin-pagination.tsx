import { Group, Pagination } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The pager of the admin lists (users, audit log): right-aligned, labelled for screen readers. */
export function AdminPagination({ pages, pg, onChange, wide }: { readonly pages: number; readonly pg: number; readonly onChange: (pg: number) => void; readonly wide: boolean }) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end">
      <Pagination
        total={pages}
        value={pg + 1}
        onChange={(value) => onChange(value - 1)}
        size="sm"
        siblings={wide ? 1 : 0}
        boundaries={1}
        getControlProps={(control) => ({ 'aria-label': t(`adminAudit.paging.${control}`) })}
        getItemProps={(value) => ({ 'aria-label': t('adminAudit.paging.page', { page: value }) })}
      />
    </Group>
  );
}
