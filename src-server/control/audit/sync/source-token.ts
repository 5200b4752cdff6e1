import * as oauth from 'oauth4webapi';
import type { SourceWithSecret } from '../../../core/audit/sources/audit-source-store.js';
import { ErrorCode } from '../../../core/contracts/error-codes.js';
import { GatehouseError } from '../../../core/errors/gatehouse-error.js';

/** A token is renewed this long before it expires. */
const EARLY_MS = 30_000;
const TOKEN_TIMEOUT_MS = 30_000;

export class SourceTokenError extends GatehouseError {
  override name = 'SourceTokenError';
  constructor(message: string, options?: ErrorOptions) {
    super(ErrorCode.GH_ERR_AUDIT_SYNC_FAILED, message, options);
  }
}

/**
 * The bearer token of a source's requests: the pasted one, or one from the tenant's identity provider with the
 * OAuth 2 client-credentials grant (oauth4webapi), kept until shortly before it expires. `renew` forgets it (the
 * API refused it).
 */
export class SourceToken {
  private cached: { value: string; expiresAt: number } | undefined;

  constructor(
    private readonly source: SourceWithSecret,
    private readonly now: () => number = Date.now,
  ) {}

  async get(signal?: AbortSignal): Promise<string> {
    const { auth, secret } = this.source;
    if (auth.kind === 'bearer') return secret;
    if (this.cached && this.cached.expiresAt - EARLY_MS > this.now()) return this.cached.value;
    const endpoint = new URL(auth.tokenEndpoint);
    const server: oauth.AuthorizationServer = { issuer: endpoint.origin, token_endpoint: endpoint.href };
    const client: oauth.Client = { client_id: auth.clientId };
    const parameters = new URLSearchParams(auth.scope ? { scope: auth.scope } : {});
    let result: oauth.TokenEndpointResponse;
    try {
      const response = await oauth.clientCredentialsGrantRequest(
        server,
        client,
        oauth.ClientSecretPost(secret),
        parameters,
        {
          // The store lets plain http through only to a loopback host (a tenant tried on this machine); the flag is
          // marked deprecated to stand out, which is what it is for.
          // eslint-disable-next-line @typescript-eslint/no-deprecated
          [oauth.allowInsecureRequests]: endpoint.protocol === 'http:',
          signal: signal
            ? AbortSignal.any([signal, AbortSignal.timeout(TOKEN_TIMEOUT_MS)])
            : AbortSignal.timeout(TOKEN_TIMEOUT_MS),
        },
      );
      result = await oauth.processClientCredentialsResponse(server, client, response);
    } catch (error) {
      if (signal?.aborted) throw error;
      if (error instanceof oauth.ResponseBodyError) {
        throw new SourceTokenError(
          `The token endpoint refused the client (${error.status} ${error.error}${error.error_description ? `: ${error.error_description}` : ''}).`,
          { cause: error },
        );
      }
      throw new SourceTokenError(`No token from ${endpoint.origin}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    const lifetime = typeof result.expires_in === 'number' ? result.expires_in * 1000 : 5 * 60_000;
    this.cached = { value: result.access_token, expiresAt: this.now() + lifetime };
    return result.access_token;
  }

  /** Whether asking again may help (a new token from the identity provider; a pasted one stays what it is). */
  renew(): boolean {
    if (this.source.auth.kind === 'bearer') return false;
    this.cached = undefined;
    return true;
  }
}
