import { ActionIcon, Alert, Badge, Button, FileButton, Group, Image, Paper, SimpleGrid, Skeleton, Stack, Text, Tooltip } from '@mantine/core';
import {
  deleteLetterheadTemplate,
  downloadLetterheadTemplate,
  LETTERHEAD_IMAGE_TYPES,
  LETTERHEAD_MAX_SIZE_BYTES,
  LETTERHEAD_MAX_SIZE_KB,
  listLetterheadTemplates,
  ResponseCode,
  uploadLetterheadTemplate,
  type LetterheadTemplate,
} from '@pakt/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../../api/client';
import { useObjectUrl } from '../../api/profile';
import { useSession } from '../../api/session-store';
import { acceptOf, readImageFile, type ImageFileRule } from '../../ui/image-file';
import { CheckIcon, TrashIcon } from '../../ui/icons';
import { queryPlaceholder } from '../../ui/query-placeholder';
import { letterheadQueryKeys } from './queries';

// Spec §5: jpg, png or jpeg, at most 500 KB, one file queued.
const LETTERHEAD_RULE: ImageFileRule = { types: LETTERHEAD_IMAGE_TYPES, maxBytes: LETTERHEAD_MAX_SIZE_BYTES };

type Problem = 'wrongType' | 'tooLarge' | 'unreadable' | 'uploadFailed' | 'deleteFailed' | 'chooseFailed';

const PROBLEM_KEYS = {
  wrongType: 'letterheads.wrongType',
  tooLarge: 'maxSizeExceeded',
  unreadable: 'tagPanel.upload.unreadable',
  uploadFailed: 'letterheads.uploadFailed',
  deleteFailed: 'letterheads.deleteFailed',
  chooseFailed: 'letterheads.chooseFailed',
} as const;

/**
 * A template's image as a data URL: what a letterHead tag's value holds (and sealing draws). The
 * type is the one the server found in the bytes, not whatever the response was labelled.
 */
export async function imageDataUrl(blob: Blob, contentType: LetterheadTemplate['contentType']): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  // In slices: spreading half a megabyte into one call would overflow the argument stack.
  for (let offset = 0; offset < bytes.length; offset += 0x8000) binary += String.fromCharCode(...bytes.subarray(offset, offset + 0x8000));
  return `data:${contentType};base64,${btoa(binary)}`;
}

function useLetterheadImage(template: LetterheadTemplate) {
  const session = useSession();
  return useQuery({
    queryKey: letterheadQueryKeys.image(session?.tenantUuid, template.letterHeadDocId),
    queryFn: ({ signal }) => callApi(downloadLetterheadTemplate, { params: { letterHeadDocId: template.letterHeadDocId } }, { signal, failures: 'caller' }),
    // A template's bytes never change under its id.
    staleTime: Infinity,
    retry: false,
  });
}

function Thumbnail({ template }: { readonly template: LetterheadTemplate }) {
  const { t } = useTranslation();
  const image = useLetterheadImage(template);
  const url = useObjectUrl(image.data);
  if (!url) return <Skeleton h={64} animate={image.isPending} radius="sm" />;
  return (
    <Image
      src={url}
      alt={t('letterheads.thumbnailAlt', { name: template.name })}
      h={64}
      fit="contain"
      radius="sm"
      bg="white"
      bd="1px solid var(--mantine-color-default-border)"
    />
  );
}

export interface LetterheadTemplatesProps {
  /**
   * Offered as "Use" on every template when given: the template and its image as a data URL,
   * ready to be a letterHead tag's value.
   */
  readonly onChoose?: (template: LetterheadTemplate, dataUrl: string) => void;
  /** The template whose image the tag holds now, marked as in use. */
  readonly chosenId?: string | null;
}

/**
 * The tenant's letterhead templates (spec §7, §9 compose tab letterheadTemplates): thumbnails,
 * upload with the spec §5 checks made before anything is sent (the server makes them again, by
 * the bytes), delete for whoever may, and, where a tag is being edited, "Use".
 */
export function LetterheadTemplates({ onChoose, chosenId }: LetterheadTemplatesProps) {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const queryClient = useQueryClient();
  const listKey = letterheadQueryKeys.list(session?.tenantUuid);
  const resetPicker = useRef<() => void>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [choosing, setChoosing] = useState<string | null>(null);

  const list = useQuery({ queryKey: listKey, queryFn: ({ signal }) => callApi(listLetterheadTemplates, undefined, { signal }) });

  const upload = useMutation({
    mutationFn: (file: File) => callApi(uploadLetterheadTemplate, { files: { file } }, { failures: 'caller' }),
    onSuccess: (created) => {
      setProblem(null);
      queryClient.setQueryData(listKey, (current: { letterheads: LetterheadTemplate[] } | undefined) =>
        current ? { letterheads: [created, ...current.letterheads] } : current,
      );
      void queryClient.invalidateQueries({ queryKey: listKey, exact: true });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === ResponseCode.SIGNATURE_UPLOAD_SIZE.code) return setProblem('tooLarge');
      if (error instanceof ApiError && error.code === ResponseCode.INVALID_INPUT.code) return setProblem('wrongType');
      setProblem('uploadFailed');
    },
  });

  const remove = useMutation({
    mutationFn: (template: LetterheadTemplate) => callApi(deleteLetterheadTemplate, { params: { letterHeadDocId: template.letterHeadDocId } }, { failures: 'caller' }),
    onSuccess: (_, template) => {
      setProblem(null);
      queryClient.setQueryData(listKey, (current: { letterheads: LetterheadTemplate[] } | undefined) =>
        current ? { letterheads: current.letterheads.filter((other) => other.letterHeadDocId !== template.letterHeadDocId) } : current,
      );
    },
    // Someone else may have deleted it meanwhile: the fresh list says what is left.
    onError: () => {
      setProblem('deleteFailed');
      void queryClient.invalidateQueries({ queryKey: listKey, exact: true });
    },
  });

  // Reading a file's bytes takes a moment: only the latest pick's answer may be shown or sent.
  const latestPick = useRef(0);
  const onPick = async (file: File | null) => {
    // Cleared so that picking the same file again (after fixing it, say) is noticed.
    resetPicker.current?.();
    if (!file) return;
    const pick = ++latestPick.current;
    const checked = await readImageFile(file, LETTERHEAD_RULE);
    if (pick !== latestPick.current) return;
    if (!checked.ok) return setProblem(checked.problem);
    upload.mutate(file);
  };

  const choose = async (template: LetterheadTemplate) => {
    if (!onChoose) return;
    setChoosing(template.letterHeadDocId);
    try {
      const blob = await queryClient.fetchQuery({
        queryKey: letterheadQueryKeys.image(session?.tenantUuid, template.letterHeadDocId),
        queryFn: ({ signal }) => callApi(downloadLetterheadTemplate, { params: { letterHeadDocId: template.letterHeadDocId } }, { signal, failures: 'caller' }),
        staleTime: Infinity,
      });
      setProblem(null);
      onChoose(template, await imageDataUrl(blob, template.contentType));
    } catch {
      setProblem('chooseFailed');
    } finally {
      setChoosing(null);
    }
  };

  const kb = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 0 });

  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="xs" align="flex-start">
        <Text size="sm" c="dimmed" style={{ flex: '1 1 200px' }}>
          {t('letterheads.hint', { size: LETTERHEAD_MAX_SIZE_KB })}
        </Text>
        {/* One file at a time (spec §5: one file queued): the picker takes a single file. */}
        <FileButton onChange={(file) => void onPick(file)} accept={acceptOf(LETTERHEAD_RULE)} resetRef={resetPicker}>
          {(props) => (
            <Button {...props} size="xs" variant="light" loading={upload.isPending}>
              {t('letterheads.upload')}
            </Button>
          )}
        </FileButton>
      </Group>
      {problem && (
        <Alert color="red" variant="light" role="alert" p="xs">
          {t(PROBLEM_KEYS[problem])}
        </Alert>
      )}
      {!list.isSuccess ? (
        queryPlaceholder(list, { loading: t('letterheads.loading'), loadFailed: t('letterheads.loadFailed'), retry: t('workflows.retry') })
      ) : list.data.letterheads.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('letterheads.empty')}
        </Text>
      ) : (
        <SimpleGrid component="ul" cols={{ base: 1, xs: onChoose ? 1 : 2, md: onChoose ? 1 : 3 }} spacing="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label={t('letterheads.listLabel')}>
          {list.data.letterheads.map((template) => (
            <Paper component="li" key={template.letterHeadDocId} withBorder p="xs" radius="sm" aria-label={template.name}>
              <Stack gap={6}>
                <Thumbnail template={template} />
                <Group justify="space-between" gap="xs" wrap="nowrap">
                  <Stack gap={0} miw={0}>
                    <Text size="sm" truncate="end" title={template.name}>
                      {template.name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {t('letterheads.details', { width: template.width, height: template.height, size: kb.format(Math.max(1, Math.round(template.size / 1024))) })}
                    </Text>
                  </Stack>
                  <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
                    {onChoose &&
                      (chosenId === template.letterHeadDocId ? (
                        <Badge variant="light" color="teal" tt="none" leftSection={<CheckIcon size={12} />}>
                          {t('letterheads.inUse')}
                        </Badge>
                      ) : (
                        <Button size="compact-xs" variant="light" loading={choosing === template.letterHeadDocId} onClick={() => void choose(template)} aria-label={t('letterheads.useNamed', { name: template.name })}>
                          {t('letterheads.use')}
                        </Button>
                      ))}
                    {template.deletable && (
                      <Tooltip label={t('letterheads.delete')}>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('letterheads.deleteNamed', { name: template.name })}
                          loading={remove.isPending && remove.variables?.letterHeadDocId === template.letterHeadDocId}
                          onClick={() => remove.mutate(template)}
                        >
                          <TrashIcon size={16} />
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </Group>
                </Group>
              </Stack>
            </Paper>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
