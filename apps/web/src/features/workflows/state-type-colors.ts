import type { WorkflowStateType } from '@pakt/domain';

/** Colours that tell the four kinds of step apart at a glance (the text always names the type too). */
export const STATE_TYPE_COLORS: Record<WorkflowStateType, string> = {
  REVIEW: 'blue',
  SIGN: 'teal',
  EMAIL: 'grape',
  INPERSONSIGN: 'orange',
};
