import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { SIGNING_ALGORITHM } from './signing-key.js';
import type { SigningKeys } from './signing-key-set.js';

export interface TokenRequest {
  subject: string;
  roles: string[];
  ttlSeconds: number;
  /** For user tokens. */
  userName?: string;
  /** For client-credentials tokens. */
  clientId?: string;
  clientName?: string;
}

/** The built-in identity provider's issuer: stable per tenant, independent of the port the server binds. */
export function builtInIssuer(tenantId: string): string {
  return `urn:gatehouse:tenant:${tenantId}`;
}

export class TokenIssuer {
  constructor(
    private readonly keys: Pick<SigningKeys, 'current'>,
    readonly issuer: string,
    readonly audience: string,
  ) {}

  async issue(request: TokenRequest): Promise<string> {
    const claims: Record<string, unknown> = { roles: request.roles };
    if (request.userName) claims.preferred_username = request.userName;
    if (request.clientId) {
      claims.client_id = request.clientId;
      claims.idtyp = 'app';
      if (request.clientName) claims.app_displayname = request.clientName;
    }
    const key = this.keys.current();
    return new SignJWT(claims)
      .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid: key.kid, typ: 'JWT' })
      .setIssuer(this.issuer)
      .setAudience(this.audience)
      .setSubject(request.subject)
      .setIssuedAt()
      .setNotBefore('0s')
      .setJti(randomUUID())
      .setExpirationTime(`${Math.max(1, Math.floor(request.ttlSeconds))}s`)
      .sign(key.privateKey);
  }
}
