/**
 * What other features may use from admin/: they import it from here, never from its files
 * (lint: pakt/feature-index).
 */
export { PersonPicker } from './person-picker';
export type { PickedPerson } from './person-picker';
export { useActor } from './user-model';
