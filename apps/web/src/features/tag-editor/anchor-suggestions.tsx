import { Alert, Badge, Box, Button, Group, Modal, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { ANCHOR_PLACEMENTS, type AnchorPlacement, type AnchorSuggestion, type Rect, type TagType } from '@pakt/domain';
import { useId, useState, type FormEvent } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { signerOfTag, type SignerOption } from './signers';
import { tagTypeName } from './tag-names';
import type { TagEditorModel } from './use-tag-editor';

/** The field types a configured string may ask for: what a custodian marks with a word in a document. */
const CONFIGURED_TYPES: readonly TagType[] = ['signature', 'userInitial', 'calendar', 'username', 'text'];

/** The example anchor the dialog shows (passed as a value: braces in a translation are interpolation). */
export const ANCHOR_EXAMPLE = '{{signature:signer1}}';

/**
 * "Find signature lines" and "Place at anchors" (issue 21), beside the palette: each asks the
 * server where fields belong in the shown document; what it finds waits above the pages as
 * suggestions (AnchorSuggestionList) for the custodian to accept or dismiss.
 */
export function AnchorFinder({ editor }: { readonly editor: TagEditorModel }) {
  const { t } = useTranslation();
  const headingId = useId();
  const [dialog, setDialog] = useState(false);
  const { anchors } = editor;
  return (
    <Stack gap={6} role="group" aria-labelledby={headingId}>
      <Text fw={600} size="sm" id={headingId}>
        {t('tagEditor.anchors.heading')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('tagEditor.anchors.hint')}
      </Text>
      {/* One under the other: side by side in the narrow panel, "Find signature lines" was cut short at 1280 px. */}
      <Stack gap={6}>
        <Button variant="light" size="xs" loading={anchors.searching} onClick={() => anchors.find({ find: 'signatureLines' })}>
          {t('tagEditor.anchors.findLines')}
        </Button>
        <Button variant="light" size="xs" disabled={anchors.searching} onClick={() => setDialog(true)}>
          {t('tagEditor.anchors.placeAtAnchors')}
        </Button>
      </Stack>
      <Modal opened={dialog} onClose={() => setDialog(false)} title={t('tagEditor.anchors.dialog.title')} centered>
        {dialog && (
          <AnchorDialog
            signers={editor.signers}
            onCancel={() => setDialog(false)}
            onFind={(strings) => {
              setDialog(false);
              anchors.find({ find: 'anchors', strings });
            }}
          />
        )}
      </Modal>
    </Stack>
  );
}

interface ConfiguredValues {
  readonly text: string;
  readonly type: TagType;
  readonly signer: string;
  readonly placement: AnchorPlacement;
}

function AnchorDialog({
  signers,
  onCancel,
  onFind,
}: {
  readonly signers: readonly SignerOption[];
  readonly onCancel: () => void;
  readonly onFind: (strings: { text: string; type: TagType; signer?: number; placement: AnchorPlacement }[]) => void;
}) {
  const { t } = useTranslation();
  const [values, setValues] = useState<ConfiguredValues>({ text: '', type: 'signature', signer: signers.length > 0 ? '1' : '', placement: 'right' });
  const set = (patch: Partial<ConfiguredValues>) => setValues((current) => ({ ...current, ...patch }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = values.text.trim().slice(0, 100);
    onFind(text ? [{ text, type: values.type, placement: values.placement, ...(values.signer ? { signer: Number(values.signer) } : {}) }] : []);
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm">{t('tagEditor.anchors.dialog.intro', { example: ANCHOR_EXAMPLE })}</Text>
        <Text size="sm" c="dimmed">
          {t('tagEditor.anchors.dialog.signers')}
        </Text>
        <TextInput
          label={t('tagEditor.anchors.dialog.text')}
          description={t('tagEditor.anchors.dialog.textHint')}
          maxLength={100}
          value={values.text}
          onChange={(event) => set({ text: event.currentTarget.value })}
          data-autofocus
        />
        {values.text.trim() !== '' && (
          <Group gap="xs" grow align="flex-start">
            <NativeSelect
              label={t('tagEditor.anchors.dialog.type')}
              data={CONFIGURED_TYPES.map((type) => ({ value: type, label: tagTypeName(t, type) }))}
              value={values.type}
              onChange={(event) => set({ type: event.currentTarget.value as TagType })}
            />
            <NativeSelect
              label={t('tagEditor.anchors.for')}
              data={[
                ...signers.map((signer, index) => ({ value: String(index + 1), label: signer.name })),
                { value: '', label: t('tagEditor.anchors.nobody') },
              ]}
              value={values.signer}
              onChange={(event) => set({ signer: event.currentTarget.value })}
            />
            <NativeSelect
              label={t('tagEditor.anchors.dialog.placement')}
              data={ANCHOR_PLACEMENTS.map((placement) => ({ value: placement, label: t(`tagEditor.anchors.dialog.placements.${placement}`) }))}
              value={values.placement}
              onChange={(event) => set({ placement: event.currentTarget.value as AnchorPlacement })}
            />
          </Group>
        )}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onCancel}>
            {t('tagEditor.anchors.dialog.cancel')}
          </Button>
          <Button type="submit">{t('tagEditor.anchors.dialog.find')}</Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Above the pages: what the last search found in the shown document, each suggestion with whom
 * it is for, accepted or dismissed one by one or all at once; and what the search has to say
 * (nothing found, pages left unread, strings not found, anchors it could not use).
 */
export function AnchorSuggestionList({ editor }: { readonly editor: TagEditorModel }) {
  const { t } = useTranslation();
  const headingId = useId();
  const { suggestions, anchors, signers } = editor;
  const outcome = anchors.outcome;
  const notes = outcomeNotes(t, outcome, suggestions.length);
  if (suggestions.length === 0 && notes.length === 0) return null;
  const all = suggestions.map((suggestion) => suggestion.tag.uuid);
  return (
    <Box p="xs" style={{ border: '1px dashed var(--mantine-color-indigo-4)', borderRadius: 'var(--mantine-radius-sm)', background: 'var(--mantine-color-indigo-0)' }}>
      {notes.length > 0 && (
        <Alert color={outcome?.kind === 'found' ? 'blue' : 'orange'} variant="light" role="status" p="xs" mb={suggestions.length > 0 ? 'xs' : 0} withCloseButton closeButtonLabel={t('tagEditor.dismiss')} onClose={anchors.dismissOutcome}>
          {notes.map((note) => (
            <Text key={note} size="sm">
              {note}
            </Text>
          ))}
        </Alert>
      )}
      {suggestions.length > 0 && (
        <Stack gap={6} component="section" aria-labelledby={headingId}>
          <Group justify="space-between" gap="xs">
            <Text size="sm" fw={600} id={headingId}>
              {t('tagEditor.anchors.suggested', { count: suggestions.length })}
            </Text>
            <Group gap={4}>
              <Button size="compact-xs" onClick={() => editor.acceptSuggestions(all)}>
                {t('tagEditor.anchors.acceptAll')}
              </Button>
              <Button size="compact-xs" variant="default" onClick={() => editor.dismissSuggestions(all)}>
                {t('tagEditor.anchors.dismissAll')}
              </Button>
            </Group>
          </Group>
          <Stack component="ul" gap={4} m={0} p={0} mah={220} style={{ listStyle: 'none', overflowY: 'auto' }}>
            {suggestions.map((suggestion) => (
              <SuggestionRow key={suggestion.tag.uuid} suggestion={suggestion} signers={signers} editor={editor} />
            ))}
          </Stack>
        </Stack>
      )}
    </Box>
  );
}

function SuggestionRow({ suggestion, signers, editor }: { readonly suggestion: AnchorSuggestion; readonly signers: readonly SignerOption[]; readonly editor: TagEditorModel }) {
  const { t } = useTranslation();
  const { tag } = suggestion;
  const name = tagTypeName(t, tag.type);
  const signer = signerOfTag(signers, tag);
  const describe = t('tagEditor.anchors.item', { type: name, page: tag.pageNumber, text: suggestion.text });
  return (
    // Each row a box of its own: wrapped on a phone, a row's select and buttons would otherwise sit
    // against the next row's text.
    <Group
      component="li"
      gap="xs"
      wrap="wrap"
      justify="space-between"
      p={6}
      bg="white"
      style={{ borderRadius: 'var(--mantine-radius-sm)', border: '1px solid var(--mantine-color-indigo-1)' }}
      data-testid="anchor-suggestion"
      data-suggestion-uuid={tag.uuid}
      aria-label={describe}
    >
      <Group gap={6} wrap="nowrap" style={{ minWidth: 0, flex: '1 1 200px' }}>
        <Text size="sm" truncate>
          {describe}
        </Text>
        <Badge size="sm" variant="light" color={suggestion.confidence >= 0.8 ? 'teal' : suggestion.confidence >= 0.6 ? 'yellow' : 'gray'} tt="none" style={{ flexShrink: 0 }}>
          {t('tagEditor.anchors.confidence', { percent: Math.round(suggestion.confidence * 100) })}
        </Badge>
      </Group>
      <Group gap={4} wrap="nowrap">
        {signers.length > 0 && (
          <NativeSelect
            size="xs"
            aria-label={t('tagEditor.anchors.forField', { field: describe })}
            data={[...signers.map((option) => ({ value: option.key, label: option.name })), { value: '', label: t('tagEditor.anchors.nobody') }]}
            value={signer?.key ?? ''}
            onChange={(event) => editor.assignSuggestion(tag.uuid, signers.find((option) => option.key === event.currentTarget.value))}
          />
        )}
        <Button size="compact-xs" variant="light" aria-label={t('tagEditor.anchors.acceptOne', { field: describe })} onClick={() => editor.acceptSuggestions([tag.uuid])}>
          {t('tagEditor.anchors.accept')}
        </Button>
        <Button size="compact-xs" variant="subtle" color="gray" aria-label={t('tagEditor.anchors.dismissOne', { field: describe })} onClick={() => editor.dismissSuggestions([tag.uuid])}>
          {t('tagEditor.anchors.dismiss')}
        </Button>
      </Group>
    </Group>
  );
}

type Translate = TFunction;

function outcomeNotes(t: Translate, outcome: TagEditorModel['anchors']['outcome'], pending: number): string[] {
  if (!outcome) return [];
  if (outcome.kind === 'failed') return [outcome.unreachable ? t('common.unreachable') : t('tagEditor.anchors.failed')];
  if (outcome.kind === 'notFound') return [t('tagEditor.anchors.notFound', { texts: outcome.texts.map((text) => `“${text}”`).join(', ') })];
  const { answer, find } = outcome;
  const notes: string[] = [];
  if (answer.suggestions.length === 0) notes.push(find === 'signatureLines' ? t('tagEditor.anchors.noneLines') : t('tagEditor.anchors.noneAnchors'));
  else if (pending === 0) notes.push(t('tagEditor.anchors.allPlaced'));
  if (answer.truncated === 'suggestions') notes.push(t('tagEditor.anchors.tooMany', { count: answer.suggestions.length }));
  else if (answer.truncated) notes.push(t('tagEditor.anchors.partly', { scanned: answer.pagesScanned, count: answer.pageCount }));
  if (answer.unrecognised.length > 0) notes.push(t('tagEditor.anchors.unrecognised', { anchors: answer.unrecognised.join(', ') }));
  if (answer.unmatchedSlots.length > 0) notes.push(t('tagEditor.anchors.unmatched', { slots: answer.unmatchedSlots.map((slot) => `signer${slot}`).join(', ') }));
  return notes;
}

/** A suggestion on its page, where it would go: a dashed outline the pointer passes through. */
export function SuggestedBox({ shown, label }: { readonly shown: Rect; readonly label: string }) {
  return (
    <div
      data-testid="suggested-box"
      role="img"
      aria-label={label}
      style={{
        position: 'absolute',
        left: shown.x,
        top: shown.y,
        width: shown.width,
        height: shown.height,
        border: '2px dashed var(--mantine-color-indigo-6)',
        background: 'color-mix(in srgb, var(--mantine-color-indigo-2) 35%, transparent)',
        borderRadius: 2,
        pointerEvents: 'none',
        boxSizing: 'border-box',
      }}
    />
  );
}
