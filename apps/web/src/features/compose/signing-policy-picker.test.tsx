import { fireEvent, render, screen, within } from '@testing-library/react';
import { SIGNING_POLICIES } from '@pakt/domain';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../api/query-client';
import { AppProviders } from '../../app/providers';
import en from '../../i18n/en.json';
import { stubPublicApi } from '../../test/fake-api';
import { policyOptions } from './signing-policies';
import { SigningPolicyPicker } from './signing-policy-picker';

function renderPicker(options = policyOptions()) {
  stubPublicApi();
  const onChange = vi.fn();
  render(
    <AppProviders queryClient={createQueryClient()} env="test">
      <SigningPolicyPicker value="QUICKSIGN" onChange={onChange} options={options} />
    </AppProviders>,
  );
  return { onChange, select: screen.getByLabelText(en.workflows.form.signingPolicy, { selector: 'select' }) as HTMLSelectElement };
}

describe('the signing-policy picker', () => {
  it('offers every policy by its name, the API code only as the value, with what the chosen one means', () => {
    const { select, onChange } = renderPicker();
    const options = within(select).getAllByRole('option') as HTMLOptionElement[];
    expect(options.map((option) => option.value).sort()).toEqual([...SIGNING_POLICIES].sort());
    expect(options.find((option) => option.value === 'ETOKEN')!.textContent).toBe(en.compose.policies.ETOKEN.name);
    expect(select.getAttribute('aria-describedby') && document.getElementById(select.getAttribute('aria-describedby')!.split(' ')[0]!)?.textContent).toBe(en.compose.policies.QUICKSIGN.about);
    fireEvent.change(select, { target: { value: 'AADHAAR' } });
    expect(onChange).toHaveBeenCalledWith('AADHAAR');
  });

  it('greys out a policy the install cannot run, saying why, in the list and in the explanations', () => {
    const reason = 'no Aadhaar eSign provider is set up';
    const { select } = renderPicker(policyOptions({ AADHAAR: reason }));
    const aadhaar = within(select).getAllByRole('option').find((option) => (option as HTMLOptionElement).value === 'AADHAAR') as HTMLOptionElement;
    expect(aadhaar.disabled).toBe(true);
    expect(aadhaar.textContent).toBe(en.compose.policy.unavailableOption.replace('{{name}}', en.compose.policies.AADHAAR.name).replace('{{reason}}', reason));

    expect(screen.queryByRole('list', { name: en.compose.policy.listLabel })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: en.compose.policy.explainAll }));
    const explained = screen.getByLabelText(en.compose.policy.listLabel);
    expect(explained.textContent).toContain(en.compose.policies.DSC.about);
    expect(explained.querySelector('[data-unavailable]')!.textContent).toContain(en.compose.policy.unavailable.replace('{{reason}}', reason));
  });
});
