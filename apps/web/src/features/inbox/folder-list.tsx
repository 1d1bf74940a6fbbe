import { Badge, Group, NativeSelect, NavLink, Skeleton, Text } from '@mantine/core';
import type { Folder, FolderCounts } from '@pakt/domain';
import { useTranslation } from 'react-i18next';

/**
 * The twelve folders of spec §4 in the order a person works through them: what waits for them,
 * what waits for others, their drafts, what they did, how ePaks ended, and what was put away.
 */
export const FOLDER_DISPLAY_ORDER: readonly Folder[] = [
  'Inbox',
  'Pending',
  'Draft',
  'Signed',
  'Reviewed',
  'Delegated',
  'Completed',
  'Rejected',
  'Stopped',
  'Expired',
  'Archived',
  'Deleted',
];

const countOf = (counts: FolderCounts | undefined, folder: Folder) => counts?.[folder] ?? { total: 0, unread: 0 };

/**
 * The folders with their counts (spec §4), as a vertical list beside the table. A folder holding
 * unread ePaks is bold and says how many; the counts ignore the list's filters and search, as the
 * API gives them.
 */
export function FolderList({
  counts,
  active,
  onSelect,
}: {
  readonly counts: FolderCounts | undefined;
  readonly active: Folder;
  readonly onSelect: (folder: Folder) => void;
}) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t('inbox.folders.label')}>
      {FOLDER_DISPLAY_ORDER.map((folder) => {
        const { total, unread } = countOf(counts, folder);
        const name = t(`inbox.folders.${folder}`);
        const current = folder === active;
        return (
          <NavLink
            key={folder}
            component="button"
            type="button"
            active={current}
            variant="light"
            aria-current={current ? 'page' : undefined}
            aria-label={unread > 0 ? t('inbox.folders.countUnread', { name, count: total, unread }) : t('inbox.folders.count', { name, count: total })}
            data-unread={unread > 0 || undefined}
            data-testid={`folder-${folder}`}
            onClick={() => onSelect(folder)}
            py={6}
            style={{ borderRadius: 'var(--mantine-radius-md)' }}
            label={
              <Text component="span" size="sm" fw={unread > 0 ? 700 : 500}>
                {name}
              </Text>
            }
            rightSection={
              counts === undefined ? (
                <Skeleton h={14} w={20} />
              ) : (
                <Group gap={6} wrap="nowrap" aria-hidden="true">
                  {unread > 0 && (
                    <Badge size="sm" variant="filled" circle={unread < 10}>
                      {unread}
                    </Badge>
                  )}
                  <Text component="span" size="sm" c="dimmed" miw={18} ta="right">
                    {total}
                  </Text>
                </Group>
              )
            }
          />
        );
      })}
    </nav>
  );
}

/** The same choice on a phone, where a column of twelve folders would push the list off screen. */
export function FolderSelect({
  counts,
  active,
  onSelect,
}: {
  readonly counts: FolderCounts | undefined;
  readonly active: Folder;
  readonly onSelect: (folder: Folder) => void;
}) {
  const { t } = useTranslation();
  return (
    <NativeSelect
      label={t('inbox.folders.label')}
      value={active}
      onChange={(event) => onSelect(event.currentTarget.value as Folder)}
      data={FOLDER_DISPLAY_ORDER.map((folder) => {
        const { total, unread } = countOf(counts, folder);
        const name = t(`inbox.folders.${folder}`);
        return {
          value: folder,
          label: unread > 0 ? t('inbox.folders.optionUnread', { name, total, unread }) : t('inbox.folders.option', { name, total }),
        };
      })}
    />
  );
}
