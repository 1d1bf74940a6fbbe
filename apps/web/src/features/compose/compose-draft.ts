import {
  ComposeFromTemplateInput,
  type DocumentTemplate,
  EmailAddress,
  EpakInput,
  MAX_STEP_RECIPIENTS,
  MAX_WORKFLOW_STEPS,
  type SigningPolicy,
  slotsNeeded,
  type WorkflowTemplate,
} from '@pakt/domain';
import type { ApiIssue } from '../../api/client';
import type { Message, StepErrors } from '../workflows';

/**
 * The compose form's model and rules, apart from React. Steps are like a workflow template's, but
 * every recipient is a concrete address: a template's placeholder becomes an empty slot, labelled
 * with the placeholder's name, that must be filled in before the ePak can be saved.
 */

export interface ComposeRecipient {
  readonly key: string;
  /** The template's placeholder this slot fills ("Buyer"); absent for a recipient added by hand. */
  readonly label?: string;
  /** '' while a slot is empty. */
  readonly email: string;
  /**
   * The composer's choice of signer verification for this recipient (spec §9); undefined while
   * untouched, so the tenant's mode decides (signerVerificationChoice).
   */
  readonly verify?: boolean;
}

export interface ComposeStep {
  readonly key: string;
  readonly workflowStateId: string;
  readonly recipients: readonly ComposeRecipient[];
  /** What is being typed into the step's "add recipient" field. */
  readonly pendingText: string;
}

export interface ComposeDraft {
  readonly subject: string;
  readonly message: string;
  readonly signingPolicy: SigningPolicy;
  /** The template the steps came from; '' for steps built by hand. */
  readonly workflowId: string;
  /** `datetime-local` values ('' for none). */
  readonly expiresOn: string;
  readonly notificationStartDate: string;
  /** The composer's choice; null while untouched, so the tenant's view-enforce option decides. */
  readonly viewEnforced: boolean | null;
  readonly documentIds: readonly string[];
  readonly steps: readonly ComposeStep[];
  /**
   * The document template chosen in the docTemplates tab: its document goes first, with its tags
   * bound to the recipients at their places; `documentIds` are any documents after it.
   */
  readonly docTemplateId?: string;
}

export interface ComposeErrors {
  readonly subject?: Message;
  readonly message?: Message;
  readonly documents?: Message;
  readonly steps?: Message;
  readonly expiresOn?: Message;
  readonly notificationStartDate?: Message;
  readonly form?: Message;
  readonly step?: Readonly<Record<string, StepErrors>>;
}

export const SUBJECT_MAX = 200;
export const MESSAGE_MAX = 4000;
export const MAX_EPAK_DOCUMENTS = 20;

let sequence = 0;
const newKey = (prefix: string) => `${prefix}-${++sequence}`;

export function emptyComposeStep(): ComposeStep {
  return { key: newKey('cstep'), workflowStateId: '', recipients: [], pendingText: '' };
}

export function emptyCompose(): ComposeDraft {
  return {
    subject: '',
    message: '',
    signingPolicy: 'ESIGNATURE',
    workflowId: '',
    expiresOn: '',
    notificationStartDate: '',
    viewEnforced: null,
    documentIds: [],
    steps: [emptyComposeStep()],
  };
}

/**
 * The steps a document template brings: its workflow template's, or, when it has none linked, as
 * many steps as its tags name places in, each with an empty slot per place (`placeLabel` names
 * them) and the state left to choose.
 */
export function stepsFromDocumentTemplate(template: DocumentTemplate, placeLabel: (step: number, place: number) => string): ComposeStep[] {
  if (template.workflowSteps) return stepsFromTemplate({ steps: template.workflowSteps });
  const needed = slotsNeeded(template.tags);
  const last = Math.max(0, ...needed.keys());
  if (last === 0) return [emptyComposeStep()];
  return Array.from({ length: last }, (_unused, index) => ({
    ...emptyComposeStep(),
    recipients: Array.from({ length: needed.get(index + 1) ?? 0 }, (_none, at) => ({ key: newKey('crecipient'), label: placeLabel(index + 1, at + 1), email: '' })),
  }));
}

/** A template's steps: its people pre-filled, its placeholders empty slots named after them. */
export function stepsFromTemplate(template: Pick<WorkflowTemplate, 'steps'>): ComposeStep[] {
  return template.steps.map((step) => ({
    ...emptyComposeStep(),
    workflowStateId: step.workflowStateId,
    recipients: step.recipients.map((recipient) =>
      recipient.type === 'user'
        ? { key: newKey('crecipient'), email: recipient.email }
        : { key: newKey('crecipient'), label: recipient.label, email: '' },
    ),
  }));
}

export const hasComposeErrors = (errors: ComposeErrors) =>
  !!(
    errors.subject ||
    errors.message ||
    errors.documents ||
    errors.steps ||
    errors.expiresOn ||
    errors.notificationStartDate ||
    errors.form ||
    Object.keys(errors.step ?? {}).length > 0
  );

/** An address as the server will read it (trimmed, lower case), or null when EmailAddress refuses it. */
export function readEmail(text: string): string | null {
  const parsed = EmailAddress.safeParse(text.trim().toLowerCase());
  return parsed.success ? parsed.data : null;
}

/**
 * Adds what is typed (or pasted) into a step's field: several addresses separated by semicolons
 * become several recipients. The ones that cannot be added (invalid, already in the step, or
 * beyond the step's limit) stay in the field, with the reason for the first of them.
 */
export function addAddresses(step: ComposeStep, text: string): { step: ComposeStep; error?: Message } {
  const parts = text
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean);
  // Nothing typed (Add pressed after a paste already added everything): nothing to do.
  if (parts.length === 0) return { step: { ...step, pendingText: '' } };
  const recipients = [...step.recipients];
  const left: string[] = [];
  let error: Message | undefined;
  for (const part of parts) {
    const email = readEmail(part);
    let problem: Message | undefined;
    if (!email) problem = { key: 'common.emailInvalid' };
    else if (recipients.some((existing) => existing.email === email)) problem = { key: 'workflows.errors.alreadyPresent' };
    else if (recipients.length >= MAX_STEP_RECIPIENTS) problem = { key: 'workflows.errors.tooManyRecipients', values: { count: MAX_STEP_RECIPIENTS } };
    if (problem || !email) {
      left.push(part);
      error ??= problem;
      continue;
    }
    recipients.push({ key: newKey('crecipient'), email });
  }
  return { step: { ...step, recipients, pendingText: left.join('; ') }, ...(error ? { error } : {}) };
}

/** The datetime-local value as an ISO instant in the browser's zone, '' as none, null when unreadable. */
export function isoOf(local: string): string | undefined | null {
  if (!local.trim()) return undefined;
  const time = new Date(local);
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
}

function withStepError(errors: ComposeErrors, stepKey: string, change: (current: StepErrors) => StepErrors): ComposeErrors {
  const step = { ...errors.step };
  step[stepKey] = change(step[stepKey] ?? {});
  return { ...errors, step };
}

export function recipientError(errors: ComposeErrors, stepKey: string, recipientKey: string, message: Message): ComposeErrors {
  return withStepError(errors, stepKey, (current) => ({ ...current, recipient: { ...current.recipient, [recipientKey]: message } }));
}

/** Marks every recipient with this address (the server names the person, not the place: -13, -173, -3). */
export function errorAtAddress(draft: ComposeDraft, email: string, message: Message): { errors: ComposeErrors; found: boolean } {
  let errors: ComposeErrors = {};
  let found = false;
  const wanted = email.trim().toLowerCase();
  for (const step of draft.steps) {
    for (const recipient of step.recipients) {
      if (recipient.email !== wanted) continue;
      errors = recipientError(errors, step.key, recipient.key, message);
      found = true;
    }
  }
  return { errors, found };
}

/**
 * Places refusals on the fields they name: the body's paths (`steps.1.recipients.0`), optionally
 * under `body.` and with a trailing `.email`. `unplaced` counts what no field can show.
 */
export function placeComposeIssues(draft: ComposeDraft, issues: readonly ApiIssue[]): { errors: ComposeErrors; unplaced: number } {
  let errors: ComposeErrors = {};
  let unplaced = 0;
  for (const issue of issues) {
    const path = issue.path.replace(/^body\./, '').split('.');
    const [head, stepIndex, field, recipientIndex] = path;
    if (head === 'subject') errors = { ...errors, subject: { key: 'workflows.errors.invalidValue' } };
    else if (head === 'message') errors = { ...errors, message: { key: 'workflows.errors.invalidValue' } };
    else if (head === 'expiresOn') errors = { ...errors, expiresOn: { key: 'compose.errors.dateInvalid' } };
    else if (head === 'notificationStartDate') errors = { ...errors, notificationStartDate: { key: 'compose.errors.dateInvalid' } };
    else if (head === 'documentIds') {
      const key = /already present/i.test(issue.message) ? 'compose.errors.documentTwice' : 'compose.errors.documentsInvalid';
      errors = { ...errors, documents: { key, values: { count: MAX_EPAK_DOCUMENTS } } };
    } else if (head !== 'steps') unplaced += 1;
    else if (stepIndex === undefined) errors = { ...errors, steps: { key: 'workflows.errors.stepsInvalid', values: { count: MAX_WORKFLOW_STEPS } } };
    else {
      const step = draft.steps[Number(stepIndex)];
      const recipient = recipientIndex === undefined ? undefined : step?.recipients[Number(recipientIndex)];
      if (!step) unplaced += 1;
      else if (field === 'workflowStateId') {
        const key = /no such/i.test(issue.message) ? 'workflows.errors.stateUnavailable' : 'workflows.errors.stateRequired';
        errors = withStepError(errors, step.key, (current) => ({ ...current, state: { key } }));
      } else if (field === 'recipients' && recipientIndex === undefined) {
        errors = withStepError(errors, step.key, (current) => ({
          ...current,
          recipients: { key: 'workflows.errors.recipientsInvalid', values: { count: MAX_STEP_RECIPIENTS } },
        }));
      } else if (field === 'recipients' && recipient) {
        const key = /already present/i.test(issue.message)
          ? 'workflows.errors.alreadyPresent'
          : /^invalid filter/i.test(issue.message)
            ? 'compose.errors.invalidFilter'
            : 'workflows.errors.recipientInvalid';
        errors = recipientError(errors, step.key, recipient.key, { key });
      } else unplaced += 1;
    }
  }
  return { errors, unplaced };
}

/** What the form sends. */
export function composeBody(draft: ComposeDraft): EpakInput {
  const message = draft.message.trim();
  const expiresOn = isoOf(draft.expiresOn);
  const notificationStartDate = isoOf(draft.notificationStartDate);
  return {
    subject: draft.subject.trim(),
    ...(message ? { message } : {}),
    documentIds: [...draft.documentIds],
    steps: draft.steps.map((step) => ({
      workflowStateId: step.workflowStateId,
      recipients: step.recipients.map((recipient) => ({ email: recipient.email, ...(recipient.verify === undefined ? {} : { verify: recipient.verify }) })),
    })),
    signingPolicy: draft.signingPolicy,
    ...(draft.workflowId ? { workflowId: draft.workflowId } : {}),
    ...(expiresOn ? { expiresOn } : {}),
    ...(notificationStartDate ? { notificationStartDate } : {}),
    ...(draft.viewEnforced === null ? {} : { viewEnforced: draft.viewEnforced }),
  };
}

export type ComposeChecked =
  | { readonly ok: true; readonly draft: ComposeDraft; readonly body: EpakInput }
  | { readonly ok: false; readonly draft: ComposeDraft; readonly errors: ComposeErrors };

/**
 * Everything checked before sending: a subject, a document, a state and a recipient per step,
 * every placeholder slot filled with a valid address that is not in the step twice, dates that
 * read. An address typed but not added counts as added (people press Save straight after typing).
 */
export function checkCompose(input: ComposeDraft): ComposeChecked {
  let errors: ComposeErrors = {};
  const steps = input.steps.map((step) => {
    if (!step.pendingText.trim()) return step;
    const added = addAddresses(step, step.pendingText);
    if (added.error) errors = withStepError(errors, step.key, (current) => ({ ...current, pending: added.error }));
    return added.step;
  });
  const draft: ComposeDraft = { ...input, steps };

  if (!draft.subject.trim()) errors = { ...errors, subject: { key: 'common.required' } };
  const fromTemplate = Boolean(draft.docTemplateId);
  if (draft.documentIds.length === 0 && !fromTemplate) errors = { ...errors, documents: { key: 'compose.errors.documentsRequired' } };
  if (draft.documentIds.length + (fromTemplate ? 1 : 0) > MAX_EPAK_DOCUMENTS) errors = { ...errors, documents: { key: 'compose.errors.documentsInvalid', values: { count: MAX_EPAK_DOCUMENTS } } };
  if (draft.steps.length === 0) errors = { ...errors, steps: { key: 'workflows.errors.stepsRequired' } };
  if (isoOf(draft.expiresOn) === null) errors = { ...errors, expiresOn: { key: 'compose.errors.dateInvalid' } };
  if (isoOf(draft.notificationStartDate) === null) errors = { ...errors, notificationStartDate: { key: 'compose.errors.dateInvalid' } };
  for (const step of draft.steps) {
    if (!step.workflowStateId) errors = withStepError(errors, step.key, (current) => ({ ...current, state: { key: 'workflows.errors.stateRequired' } }));
    if (step.recipients.length === 0 && !errors.step?.[step.key]?.pending) {
      errors = withStepError(errors, step.key, (current) => ({ ...current, recipients: { key: 'workflows.errors.recipientsRequired' } }));
    }
    const seen = new Set<string>();
    for (const recipient of step.recipients) {
      const email = readEmail(recipient.email);
      if (!recipient.email.trim()) errors = recipientError(errors, step.key, recipient.key, { key: 'compose.errors.slotEmpty' });
      else if (!email) errors = recipientError(errors, step.key, recipient.key, { key: 'common.emailInvalid' });
      else if (seen.has(email)) errors = recipientError(errors, step.key, recipient.key, { key: 'workflows.errors.alreadyPresent' });
      if (email) seen.add(email);
    }
  }
  if (hasComposeErrors(errors)) return { ok: false, draft, errors };

  // From a template, the template's document is the first and the ones chosen may be none.
  const parsed = (fromTemplate ? ComposeFromTemplateInput : EpakInput).safeParse(composeBody(draft));
  if (!parsed.success) {
    const placed = placeComposeIssues(
      draft,
      parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
    );
    const form: Message | undefined = placed.unplaced > 0 || !hasComposeErrors(placed.errors) ? { key: 'workflows.errors.invalid' } : undefined;
    return { ok: false, draft, errors: { ...placed.errors, ...(form ? { form } : {}) } };
  }
  return { ok: true, draft, body: parsed.data };
}
