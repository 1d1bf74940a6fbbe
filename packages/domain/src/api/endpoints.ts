import * as adminAudit from './admin-audit';
import * as anchors from './anchors';
import type { Endpoint } from './contract';
import * as documents from './documents';
import * as epakActions from './epak-actions';
import * as epakAudit from './epak-audit';
import * as epakSigning from './epak-signing';
import * as epaks from './epaks';
import * as groups from './groups';
import * as identity from './identity';
import * as inbox from './inbox';
import * as installSettings from './install-settings';
import * as bulkCompose from './bulk-compose';
import * as documentTemplates from './document-templates';
import * as letterheads from './letterheads';
import * as notifications from './notifications';
import * as publicEndpoints from './public';
import * as reasons from './reasons';
import * as recipientVerification from './recipient-verification';
import * as rubberStamps from './rubber-stamps';
import * as superadmins from './superadmins';
import * as tenantSettings from './settings';
import * as usersAdmin from './users-admin';
import * as userSync from './user-sync';
import * as verification from './verification';
import * as workflows from './workflows';

function isEndpoint(value: unknown): value is Endpoint {
  return typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'access' in value && 'response' in value;
}

/**
 * Every endpoint of the contract. Tests walk it to prove each guarded endpoint refuses outsiders
 * and wrong roles, and that the server serves nothing outside it.
 */
export const ALL_ENDPOINTS: readonly Endpoint[] = ([...Object.values(publicEndpoints), ...Object.values(identity), ...Object.values(documents), ...Object.values(epaks), ...Object.values(epakSigning), ...Object.values(epakActions), ...Object.values(epakAudit), ...Object.values(inbox), ...Object.values(notifications), ...Object.values(workflows), ...Object.values(groups), ...Object.values(adminAudit), ...Object.values(usersAdmin), ...Object.values(userSync), ...Object.values(tenantSettings), ...Object.values(superadmins), ...Object.values(letterheads), ...Object.values(documentTemplates), ...Object.values(bulkCompose), ...Object.values(reasons), ...Object.values(recipientVerification), ...Object.values(rubberStamps), ...Object.values(verification), ...Object.values(anchors), ...Object.values(installSettings)] as unknown[]).filter(isEndpoint);
