import { Group, Image, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ChangedRegion } from '@pakt/domain';
import { useTranslation } from 'react-i18next';

/**
 * Where a revision changed how a page looks, as the server rendered it: the area before and after,
 * side by side, so a reader sees what a signature drew, or what was slipped in after one.
 */
export function ChangedRegions({ regions }: { readonly regions: readonly ChangedRegion[] }) {
  const { t } = useTranslation();
  if (regions.length === 0) return null;
  return (
    <Stack gap="xs" data-testid="verify-regions">
      {regions.map((region, index) => {
        const [x0, y0, x1, y1] = region.box.map((n) => Math.round(n));
        const label = t('verify.regions.label', { page: region.page, x0, y0, x1, y1 });
        return (
          <Paper key={index} withBorder radius="sm" p="xs" aria-label={label} data-page={region.page}>
            <Stack gap={6}>
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {label}
              </Text>
              <SimpleGrid cols={2} spacing="xs">
                <Shot src={region.before} caption={t('verify.regions.before')} />
                <Shot src={region.after} caption={t('verify.regions.after')} />
              </SimpleGrid>
            </Stack>
          </Paper>
        );
      })}
    </Stack>
  );
}

function Shot({ src, caption }: { readonly src: string | null; readonly caption: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2} miw={0}>
      <Text size="xs" fw={500}>
        {caption}
      </Text>
      {src ? (
        // A render of part of a page: its size is the area's, never wider than the column.
        <Image src={src} alt={caption} fit="contain" maw="100%" style={{ border: '1px solid var(--mantine-color-gray-3)' }} />
      ) : (
        <Group h={40} justify="center">
          <Text size="xs" c="dimmed">
            {t('verify.regions.none')}
          </Text>
        </Group>
      )}
    </Stack>
  );
}
