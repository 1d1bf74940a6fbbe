import { DIGITAL_SIGNING_POLICIES, SIGNING_POLICIES, type SigningPolicy } from '@pakt/domain';

/** One choice of the signing-policy picker. */
export interface PolicyOption {
  readonly policy: SigningPolicy;
  readonly group: 'electronic' | 'digital';
  /**
   * Set when this install cannot run the policy (no signing service for it, say): the choice is
   * shown greyed out with this reason instead of being hidden, so people learn it exists and why
   * it is not theirs to pick. Nothing sets it yet; the server's availability list will.
   */
  readonly unavailableReason?: string;
}

const DIGITAL: ReadonlySet<string> = new Set(DIGITAL_SIGNING_POLICIES);

/** Every policy the API accepts, electronic ones first, each marked unavailable where `unavailable` says why. */
export function policyOptions(unavailable: Partial<Record<SigningPolicy, string>> = {}): PolicyOption[] {
  const options = SIGNING_POLICIES.map((policy) => {
    const reason = unavailable[policy];
    return { policy, group: DIGITAL.has(policy) ? ('digital' as const) : ('electronic' as const), ...(reason ? { unavailableReason: reason } : {}) };
  });
  return [...options.filter((option) => option.group === 'electronic'), ...options.filter((option) => option.group === 'digital')];
}
