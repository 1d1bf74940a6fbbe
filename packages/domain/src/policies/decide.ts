import { DomainError, notFound } from '../domain-error';
import { type Action, ACTIONS, type Actor, authorize, type AuthorizationContext, REFUSAL_RESPONSES, type RefusalReason } from '../permissions/actions';
import { ResponseCode } from '../response-codes';
import type { ResourceActor } from './resources';
import { RESOURCE_POLICIES, type ResourceAction, type ResourceDecision, type ResourceOf } from './rules';

const ROLE_ACTIONS: ReadonlySet<string> = new Set(ACTIONS);
const isRoleAction = (action: Action | ResourceAction): action is Action => ROLE_ACTIONS.has(action);

/** What one rule says about one resource, with the reason and message when it refuses. */
export function decide<A extends ResourceAction>(actor: ResourceActor, action: A, resource: ResourceOf<A>): ResourceDecision {
  const rule = RESOURCE_POLICIES[action] as (actor: ResourceActor, resource: ResourceOf<A>) => ResourceDecision;
  return rule(actor, resource);
}

/**
 * The one question both sides ask. With a role-table action (spec §6 routes and menus made into
 * calls) the third argument is its context; with a resource action it is the loaded resource.
 */
export function can(actor: Actor, action: Action, context?: AuthorizationContext): boolean;
export function can<A extends ResourceAction>(actor: ResourceActor, action: A, resource: ResourceOf<A>): boolean;
export function can(actor: Actor | ResourceActor, action: Action | ResourceAction, third?: unknown): boolean {
  if (isRoleAction(action)) return authorize(actor as Actor, action, third as AuthorizationContext | undefined).allowed;
  return decide(actor, action, third as ResourceOf<typeof action>).allowed;
}

/** Messages for role-table refusals whose catalogue meaning alone would not tell the person what to do. */
const REFUSAL_MESSAGES: Partial<Record<RefusalReason, string>> = {
  outsideTenant: 'Not found.',
  sharedAccount:
    "This person's account belongs to another tenant too, so only they can reset its password (Forgot password on the sign-in page). You can still disable them in this tenant.",
};

/** The same refusals said for one action, where the reason's general message would name the wrong thing. */
const ACTION_REFUSAL_MESSAGES: Partial<Record<Action, Partial<Record<RefusalReason, string>>>> = {
  'user.resetTwoFactor': {
    sharedAccount:
      "This person's account belongs to another tenant too, so only they can switch off its two-factor sign-in (on their profile, after signing in with a recovery code). You can still disable them in this tenant.",
  },
};

/**
 * The one place a refusal becomes an error: its catalogue code and HTTP status. The server calls it
 * where the resource is loaded (route() for role actions, the loaders for resources), so no
 * command writes a refusal of its own.
 */
export function enforce(actor: Actor, action: Action, context?: AuthorizationContext): void;
export function enforce<A extends ResourceAction>(actor: ResourceActor, action: A, resource: ResourceOf<A>): void;
export function enforce(actor: Actor | ResourceActor, action: Action | ResourceAction, third?: unknown): void {
  if (isRoleAction(action)) {
    const decision = authorize(actor as Actor, action, third as AuthorizationContext | undefined);
    if (decision.allowed) return;
    const entry = REFUSAL_RESPONSES[decision.reason];
    const message = ACTION_REFUSAL_MESSAGES[action]?.[decision.reason] ?? REFUSAL_MESSAGES[decision.reason] ?? 'You are not allowed to do this.';
    throw new DomainError(entry, message, { httpStatus: entry.httpStatus });
  }
  const decision = decide(actor, action, third as ResourceOf<typeof action>);
  if (decision.allowed) return;
  if (decision.reason === 'hidden') throw notFound(decision.message);
  throw new DomainError(ResponseCode.NOT_AUTHORIZED, decision.message, { httpStatus: 403 });
}
