import { recipientVerificationApi } from '@pakt/domain';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../http/app-context';
import { tenantActorOf } from '../../http/auth-guard';
import { route } from '../../http/route';
import { confirmVerificationCode } from './confirm-verification-code';
import { smsAvailableOn } from './recipient-verification';
import { sendVerificationCode } from './send-verification-code';

/** Signer verification (issue 22): a code sent to the caller's place, and its confirmation. */
export function registerRecipientVerificationRoutes(app: FastifyInstance, ctx: AppContext) {
  const db = ctx.database.db;
  const smsAvailable = smsAvailableOn(ctx.config);

  route(app, ctx, recipientVerificationApi.sendVerificationCode, async ({ auth, params, body, request }) => {
    const sent = await sendVerificationCode({ db, actor: tenantActorOf(auth), epakId: params.ePakId, channel: body.channel, smsAvailable, ip: request.ip });
    request.log.info({ ePakId: params.ePakId, channel: sent.channel }, 'verification code sent');
    return sent;
  });

  route(app, ctx, recipientVerificationApi.confirmVerificationCode, async ({ auth, params, body, request }) =>
    confirmVerificationCode({ db, actor: tenantActorOf(auth), epakId: params.ePakId, code: body.code, smsAvailable, ip: request.ip }),
  );
}
