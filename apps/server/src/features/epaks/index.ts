/**
 * What other features may use from epaks/: they import it from here, never from its files
 * (lint: pakt/feature-index).
 */
export { loadVisibleEpak } from './access';
export type { EpakActor } from './access';
export { GENESIS_HASH, activityHash } from './activity';
export type { HashedActivity } from './activity';
export { composeEpak, loadEpakDetail, loadOwnEpak } from './compose';
export type { TemplateDocument } from './compose';
export { resolveComposeDocuments } from './resolve-compose-documents';
export { appLink, queueEngineEffects, requestMail } from './notify';
export { checkSigners } from './start';
export { findPaktRecord } from './public-record';
export { loadVerificationRecord } from './verification-record';
export { toWinAnsi } from './certificate';
