import { DIGITAL_SIGNING_POLICIES, SIGNING_POLICIES } from '@pakt/domain';
import type { ParseKeys } from 'i18next';
import type { Message } from './workflow-draft';

type Translate = (key: ParseKeys, values?: Record<string, unknown>) => string;

/** A form message (a translation key and its values) as the person reads it, or nothing. */
export function messageText(t: Translate, value: Message | undefined): string | undefined {
  return value ? t(value.key, value.values) : undefined;
}

const ELECTRONIC_POLICIES = SIGNING_POLICIES.filter((policy) => !(DIGITAL_SIGNING_POLICIES as readonly string[]).includes(policy));

/** The signing-policy choices of the workflow and compose forms, electronic and digital grouped. */
export function signingPolicyData(t: Translate) {
  return [
    { group: t('workflows.form.policyGroups.electronic'), items: ELECTRONIC_POLICIES.map((policy) => ({ value: policy, label: policy })) },
    { group: t('workflows.form.policyGroups.digital'), items: DIGITAL_SIGNING_POLICIES.map((policy) => ({ value: policy, label: policy })) },
  ];
}
