import type { EngineResult, EngineState, SignerStatus, WorkflowStateType } from '@pakt/domain';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { epakRecipients, epakSteps, epaks } from '../../platform/db/schema';

/**
 * Loading an ePak into the domain engine's state and storing what `transition` answered. Callers
 * hold the ePak's row lock and write the activity record in the same transaction.
 */

export interface StoredEngineState {
  readonly state: EngineState;
  /** The recipient rows as stored, to write only what the transition changed. */
  readonly recipients: ReadonlyArray<{ id: string; userId: string; stepId: string; status: string }>;
  readonly stepOrderById: ReadonlyMap<string, number>;
}

export async function loadEngineState(tx: Db, epak: { id: string; status: string; currentStep: number | null }): Promise<StoredEngineState> {
  const steps = await tx.select().from(epakSteps).where(eq(epakSteps.epakId, epak.id)).orderBy(asc(epakSteps.position));
  const recipients = await tx.select().from(epakRecipients).where(eq(epakRecipients.epakId, epak.id)).orderBy(asc(epakRecipients.position));
  const state: EngineState = {
    status: epak.status as EngineState['status'],
    currentStep: epak.currentStep,
    steps: steps.map((step) => ({
      order: step.position,
      type: step.type as WorkflowStateType,
      recipients: recipients.filter((r) => r.stepId === step.id).map((r) => ({ recipientId: r.id, status: r.status as SignerStatus })),
    })),
  };
  return { state, recipients, stepOrderById: new Map(steps.map((step) => [step.id, step.position])) };
}

/** Writes the ePak's status and step, and each recipient whose status changed. */
export async function storeEngineState(tx: Db, epakId: string, before: StoredEngineState, result: Extract<EngineResult, { ok: true }>, extra: Partial<typeof epaks.$inferInsert> = {}) {
  await tx
    .update(epaks)
    .set({ status: result.state.status, currentStep: result.state.currentStep, updatedAt: new Date(), ...extra })
    .where(eq(epaks.id, epakId));
  for (const step of result.state.steps) {
    for (const recipient of step.recipients) {
      const stored = before.recipients.find((r) => r.id === recipient.recipientId);
      if (stored && stored.status !== recipient.status) {
        await tx.update(epakRecipients).set({ status: recipient.status }).where(eq(epakRecipients.id, recipient.recipientId));
      }
    }
  }
}
