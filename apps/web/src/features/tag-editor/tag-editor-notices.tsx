import { Alert, Box, Button, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { flattenTags, type TagProblem } from '@pakt/domain';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { problemMessage } from './problem-message';
import { signerOfTag } from './signers';
import { tagName, tagTypeName } from './tag-names';
import type { TagEditorModel } from './use-tag-editor';
import { problemId } from './use-tag-problems';

/**
 * What the editor has to say above the pages: the field armed, an edit refused, how the last save
 * went, the reason fields sending will want, and the current document's problems.
 */
export function TagEditorNotices({ editor }: { readonly editor: TagEditorModel }) {
  const { t } = useTranslation();
  const { state, outcome, reasonsMissing, problems } = editor;
  const allTags = flattenTags(editor.doc.tags);
  const refusal = state.refusal ? [...new Set(state.refusal.map((problem) => problemMessage(t, problem)))] : [];
  return (
    <>
      {state.armed && (
        <Group gap="xs" justify="space-between" wrap="nowrap" role="status" bg="var(--mantine-color-indigo-light)" px="sm" py={6} style={{ borderRadius: 'var(--mantine-radius-sm)' }}>
          <Text size="sm">{t('tagEditor.palette.armed', { type: tagName(t, { type: state.armed.type, subType: state.armed.init?.subType }) })}</Text>
          <Button size="compact-xs" variant="subtle" onClick={() => editor.arm(null)}>
            {t('tagEditor.palette.cancel')}
          </Button>
        </Group>
      )}
      {refusal.length > 0 && (
        <Alert color="red" variant="light" role="alert" withCloseButton closeButtonLabel={t('tagEditor.dismiss')} onClose={editor.dismissRefusal}>
          {refusal.map((text) => (
            <Text key={text} size="sm">
              {text}
            </Text>
          ))}
        </Alert>
      )}
      {outcome?.kind === 'failed' && (
        <Alert color="red" variant="light" role="alert">
          {outcome.message}
        </Alert>
      )}
      {outcome?.kind === 'saved' && !editor.anyUnsaved && (
        <Text size="sm" c="teal" role="status">
          {t('tagEditor.saved')}
        </Text>
      )}
      {reasonsMissing.length > 0 && (
        <Alert color="yellow" variant="light" role="status" title={t('tagEditor.reasonsNeeded.title')}>
          {t('tagEditor.reasonsNeeded.body', {
            names: reasonsMissing
              .map((problem) => {
                const tag = allTags.find((candidate) => candidate.uuid === problem.tagUuid);
                return (tag && signerOfTag(editor.signers, tag)?.name) ?? tag?.userEmail ?? t('tagEditor.reasonsNeeded.unassigned');
              })
              .join(', '),
          })}
        </Alert>
      )}
      {problems.length > 0 && (
        <ProblemList
          problems={problems}
          describe={(problem) => {
            const tag = allTags.find((candidate) => candidate.uuid === problem.tagUuid);
            return t('tagEditor.problems.item', {
              page: tag?.pageNumber ?? '?',
              type: tag ? tagTypeName(t, tag.type) : '?',
              message: problemMessage(t, problem),
            });
          }}
          onPick={(problem) => {
            if (editor.doc.tags.some((tag) => tag.uuid === problem.tagUuid)) editor.showProperties(problem.tagUuid);
          }}
        />
      )}
    </>
  );
}

function ProblemList({
  problems,
  describe,
  onPick,
}: {
  readonly problems: readonly TagProblem[];
  readonly describe: (problem: TagProblem) => string;
  readonly onPick: (problem: TagProblem) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <Box p="xs" style={{ border: '1px solid var(--mantine-color-red-3)', borderRadius: 'var(--mantine-radius-sm)', background: 'var(--mantine-color-red-0)' }}>
      <Text size="sm" fw={600} c="red.9" id={id}>
        {t('tagEditor.problems.heading', { count: problems.length })}
      </Text>
      <Stack component="ul" gap={2} m={0} p={0} mt={4} mah={120} style={{ listStyle: 'none', overflowY: 'auto' }} aria-labelledby={id}>
        {problems.map((problem) => (
          <li key={problemId(problem)}>
            <UnstyledButton onClick={() => onPick(problem)} fz="sm" c="red.9" style={{ textAlign: 'start', textDecoration: 'underline dotted' }}>
              {describe(problem)}
            </UnstyledButton>
          </li>
        ))}
      </Stack>
    </Box>
  );
}
