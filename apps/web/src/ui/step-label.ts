import { isBuiltInWorkflowStateName, type WorkflowStateType } from '@pakt/domain';
import type { TFunction } from 'i18next';

/**
 * A workflow state's (or an ePak step's) name as shown: a built-in one, still under the name the
 * server seeded, in the reader's language; a state an admin named or renamed, as typed.
 */
export function stepLabel(t: TFunction, step: { readonly name: string; readonly type: WorkflowStateType }): string {
  return isBuiltInWorkflowStateName(step) ? t(`workflowStateTypes.${step.type}`) : step.name;
}

/** A state as a choice in a select: "Review (Review)" says nothing twice, so the type is added only when the name differs. */
export function stateOptionLabel(t: TFunction, state: { readonly name: string; readonly type: WorkflowStateType }): string {
  const name = stepLabel(t, state);
  const type = t(`workflowStateTypes.${state.type}`);
  return name.trim().toLocaleLowerCase() === type.toLocaleLowerCase() ? name : t('workflows.form.stateOption', { name, type });
}
