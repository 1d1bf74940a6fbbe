import {
  epakActionApi,
} from '@pakt/domain';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../http/app-context';
import { cancelDelegation, delegateEpak } from './delegate';
import { prepareCertificateDownload } from './download-certificate';
import { loadEpakManagement } from './load-epak-management';
import {
  archiveEpak,
  bulkSign,
  deleteEpaks,
  editEpak,
  remindRecipient,
  removeRecipient,
  setArchivalPeriod,
  setNotificationStartDate,
  toggleStar,
} from './manage';
import { replaceRecipient } from './replace-recipient';
import { resendSigningLink } from './resend-signing-link';
import { showSigningLink } from './show-signing-link';
import { tenantActorOf } from '../../http/auth-guard';
import { route } from '../../http/route';

/**
 * The management actions of a sent ePak (issue 5); the commands are in epaks/manage.ts and
 * epaks/delegate.ts, and those of the owner's management view (issue 21) in a file each.
 */
export function registerEpakActionRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;
  const mail = { publicUrl: ctx.config.publicUrl, linkDays: ctx.config.signingLinkDays };

  route(app, ctx, epakActionApi.toggleEpakStar, async ({ auth, params }) => ({ ePakId: params.ePakId, ...(await toggleStar(db, tenantActorOf(auth), params.ePakId)) }));

  route(app, ctx, epakActionApi.deleteEpaks, async ({ auth, body, request }) => {
    const answer = await deleteEpaks({ db, actor: tenantActorOf(auth), epakIds: body.ePakIds, ip: request.ip });
    request.log.info({ deleted: answer.results.filter((r) => r.result === 'DELETED').map((r) => r.ePakId) }, 'ePaks deleted');
    return answer;
  });

  route(app, ctx, epakActionApi.archiveEpak, async ({ auth, params, request }) => archiveEpak({ db, actor: tenantActorOf(auth), epakId: params.epakId, ip: request.ip }));

  route(app, ctx, epakActionApi.updateEpakNotificationDate, async ({ auth, body, request }) =>
    setNotificationStartDate({ db, actor: tenantActorOf(auth), epakId: body.ePakId, date: body.notificationStartDate, ip: request.ip }),
  );

  route(app, ctx, epakActionApi.updateEpakArchivalPeriod, async ({ auth, params, body, request }) =>
    setArchivalPeriod({ db, actor: tenantActorOf(auth), epakId: params.ePakId, days: body.archivalPeriodDays, ip: request.ip }),
  );

  route(app, ctx, epakActionApi.delegateEpak, async ({ auth, params, body, request, tenantSettings }) => {
    const settings = await tenantSettings();
    const answer = await delegateEpak({
      db,
      actor: tenantActorOf(auth),
      epakId: params.ePakId,
      email: body.email,
      comment: body.comment,
      workflowStateId: body.workflowStateId,
      skipNewUsers: settings.skipNewUsers ?? false,
      filters: settings,
      mail,
      ip: request.ip,
    });
    request.log.info({ ePakId: params.ePakId, delegate: answer.delegate.recipientId }, 'ePak place delegated');
    return answer;
  });

  route(app, ctx, epakActionApi.cancelDelegation, async ({ auth, params, request }) => {
    const answer = await cancelDelegation({ db, actor: tenantActorOf(auth), epakId: params.ePakId, userEmail: params.userEmail, workflowStateId: params.workflowStateId, mail, ip: request.ip });
    return answer;
  });

  route(app, ctx, epakActionApi.remindRecipient, async ({ auth, params, request }) => {
    const answer = await remindRecipient({ db, actor: tenantActorOf(auth), epakId: params.ePakId, userId: params.userId, state: params.state, stepOrder: params.wfOrderId, mail, ip: request.ip });
    return answer;
  });

  route(app, ctx, epakActionApi.removeEpakRecipient, async ({ auth, params, body, request }) => {
    const answer = await removeRecipient({ db, actor: tenantActorOf(auth), epakId: params.ePakId, recipientId: body.recipientId, mail, ip: request.ip });
    request.log.info({ ePakId: params.ePakId, recipientId: body.recipientId }, 'ePak recipient removed');
    return answer;
  });

  route(app, ctx, epakActionApi.editEpak, async ({ auth, body, request }) => editEpak({ db, actor: tenantActorOf(auth), input: body, ip: request.ip }));

  route(app, ctx, epakActionApi.bulkSignEpaks, async ({ auth, body, request }) => {
    const answer = await bulkSign({ ctx, actor: tenantActorOf(auth), epakIds: body.ePakIds, reason: body.reason, ip: request.ip });
    return answer;
  });

  route(app, ctx, epakActionApi.getEpakManagement, async ({ auth, params }) => loadEpakManagement({ db, actor: tenantActorOf(auth), epakId: params.ePakId }));

  route(app, ctx, epakActionApi.showSigningLink, async ({ auth, params, request }) => {
    const answer = await showSigningLink({ db, actor: tenantActorOf(auth), epakId: params.ePakId, recipientId: params.recipientId, mail, ip: request.ip });
    // The link is a credential: the log names whose it was, never the link.
    request.log.info({ ePakId: params.ePakId, recipientId: params.recipientId }, 'signing link shown to the owner');
    return answer;
  });

  route(app, ctx, epakActionApi.resendSigningLink, async ({ auth, params, request }) => {
    const answer = await resendSigningLink({ db, actor: tenantActorOf(auth), epakId: params.ePakId, recipientId: params.recipientId, mail, ip: request.ip });
    request.log.info({ ePakId: params.ePakId, recipientId: params.recipientId }, 'signing link resent');
    return answer;
  });

  route(app, ctx, epakActionApi.replaceEpakRecipient, async ({ auth, params, body, request, tenantSettings }) => {
    const settings = await tenantSettings();
    const answer = await replaceRecipient({
      db,
      actor: tenantActorOf(auth),
      epakId: params.ePakId,
      recipientId: params.recipientId,
      input: body,
      skipNewUsers: settings.skipNewUsers ?? false,
      filters: settings,
      mail,
      ip: request.ip,
    });
    request.log.info({ ePakId: params.ePakId, replaced: params.recipientId, recipientId: answer.recipient.recipientId }, 'ePak recipient replaced');
    return answer;
  });

  route(app, ctx, epakActionApi.downloadEpakCertificate, async ({ auth, params }) =>
    prepareCertificateDownload({
      db,
      storage: ctx.storage,
      vault: ctx.vault,
      keyAlgorithm: ctx.config.sealKeyAlgorithm,
      publicUrl: ctx.config.publicUrl,
      actor: tenantActorOf(auth),
      epakId: params.ePakId,
      now: new Date(),
    }),
  );
}
