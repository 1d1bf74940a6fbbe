import { Button, NativeSelect, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { SigningPolicy } from '@pakt/domain';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { policyOptions, type PolicyOption } from './signing-policies';

/** A policy as people read it: its name, never its API code. */
export function usePolicyName() {
  const { t } = useTranslation();
  return (policy: SigningPolicy) => t(`compose.policies.${policy}.name`);
}

/**
 * The signing policy: each shown by its name, the chosen one with a sentence on what it means,
 * and all of them explained on request. A policy the install cannot run stays in the list,
 * greyed out, with why (`unavailableReason`); the raw codes are the option values only, as the
 * API sends them.
 */
export function SigningPolicyPicker({
  value,
  onChange,
  options = policyOptions(),
  error,
}: {
  readonly value: SigningPolicy;
  readonly onChange: (policy: SigningPolicy) => void;
  readonly options?: readonly PolicyOption[];
  readonly error?: string | undefined;
}) {
  const { t } = useTranslation();
  const name = usePolicyName();
  const [explained, explain] = useDisclosure(false);
  const listId = useId();
  const label = (option: PolicyOption) =>
    option.unavailableReason ? t('compose.policy.unavailableOption', { name: name(option.policy), reason: option.unavailableReason }) : name(option.policy);
  const group = (which: PolicyOption['group']) => ({
    group: t(`workflows.form.policyGroups.${which}`),
    items: options.filter((option) => option.group === which).map((option) => ({ value: option.policy, label: label(option), disabled: Boolean(option.unavailableReason) })),
  });
  return (
    <Stack gap={4}>
      <NativeSelect
        label={t('workflows.form.signingPolicy')}
        description={t(`compose.policies.${value}.about`)}
        data={[group('electronic'), group('digital')]}
        value={value}
        error={error}
        onChange={(event) => {
          const parsed = SigningPolicy.safeParse(event.currentTarget.value);
          if (parsed.success) onChange(parsed.data);
        }}
      />
      <div>
        <Button variant="subtle" size="compact-sm" onClick={explain.toggle} aria-expanded={explained} aria-controls={explained ? listId : undefined}>
          {t(explained ? 'compose.policy.hideAll' : 'compose.policy.explainAll')}
        </Button>
      </div>
      {/* Rendered only when asked for: eighteen explanations are a lot to read past (or hear). */}
      {explained && (
        <Stack component="dl" id={listId} gap={6} m={0} aria-label={t('compose.policy.listLabel')}>
          {options.map((option) => (
            <div key={option.policy} data-unavailable={option.unavailableReason ? true : undefined} style={option.unavailableReason ? { opacity: 0.6 } : undefined}>
              <Text component="dt" size="sm" fw={600}>
                {name(option.policy)}
              </Text>
              <Text component="dd" size="sm" c="dimmed" m={0}>
                {t(`compose.policies.${option.policy}.about`)}
                {option.unavailableReason ? ` ${t('compose.policy.unavailable', { reason: option.unavailableReason })}` : ''}
              </Text>
            </div>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
