import type { FastifyInstance } from 'fastify';
import type { TokenGrant } from '@pakt/domain';

/** Signs in through the real endpoint, as the browser does (form-encoded). */
export async function signIn(app: FastifyInstance, email: string, password: string): Promise<TokenGrant> {
  const res = await app.inject({
    method: 'POST',
    url: '/msbapi/v1/authenticate',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ username: email, password }).toString(),
  });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  return res.json().data as TokenGrant;
}

export const bearer = (grant: { accessToken: string }) => ({ authorization: `Bearer ${grant.accessToken}` });
