import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import type { KeyStore } from '../../config-store/key-store.js';

/** The key material name of the chain's signing key (Ed25519, PKCS#8 PEM, sealed like every key). */
export const CHAIN_KEY_NAME = 'audit.chain-key';

/**
 * Signs the chain's checkpoints and removal records with the Ed25519 key of the database: made on first use and
 * kept sealed in the key store, like the identity provider's keys, so every instance on one PostgreSQL database
 * signs with the same key and an export names one public key.
 */
export class ChainSigner {
  private constructor(
    private readonly privateKey: KeyObject,
    /** SPKI DER, base64: what checkpoints and exports carry. */
    readonly publicKey: string,
  ) {}

  static async open(keys: KeyStore): Promise<ChainSigner> {
    return ChainSigner.fromPem(
      await keys.loadOrCreate(CHAIN_KEY_NAME, () => {
        const { privateKey } = generateKeyPairSync('ed25519');
        return privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      }),
    );
  }

  /** A signer of a PKCS#8 PEM private key. */
  static fromPem(pem: string): ChainSigner {
    const privateKey = createPrivateKey(pem);
    const publicKey = createPublicKey(privateKey).export({ type: 'spki', format: 'der' }).toString('base64');
    return new ChainSigner(privateKey, publicKey);
  }

  sign(statement: string): string {
    return sign(null, Buffer.from(statement), this.privateKey).toString('base64');
  }
}

/** Whether `signature` (base64) is the Ed25519 signature of `statement` by `publicKey` (SPKI DER, base64). */
export function verifySignature(statement: string, signature: string, publicKey: string): boolean {
  try {
    const key = createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' });
    if (key.asymmetricKeyType !== 'ed25519') return false;
    return verify(null, Buffer.from(statement), key, Buffer.from(signature, 'base64'));
  } catch (error) {
    // A malformed key or signature is a failed verification, not a crash (the export verifier reads untrusted files).
    if (error instanceof Error) return false;
    throw error;
  }
}

export interface CheckpointStatement {
  tenant: string;
  seq: number;
  hash: string;
  signedAt: number;
}

export interface RemovalStatement {
  tenant: string;
  fromSeq: number;
  toSeq: number;
  count: number;
  prevHash: string;
  lastHash: string;
  policy: string;
  removedAt: number;
}

/** The signed text of a checkpoint (docs/AUDIT-CHAIN.md). */
export function checkpointText(c: CheckpointStatement): string {
  return ['gatehouse-audit-checkpoint/1', c.tenant, c.seq, c.hash, new Date(c.signedAt).toISOString()].join(
    '\n',
  );
}

/** The signed text of a removal record. */
export function removalText(r: RemovalStatement): string {
  return [
    'gatehouse-audit-removal/1',
    r.tenant,
    r.fromSeq,
    r.toSeq,
    r.count,
    r.prevHash,
    r.lastHash,
    r.policy,
    new Date(r.removedAt).toISOString(),
  ].join('\n');
}

export interface ExportHeadStatement {
  tenant: string;
  headSeq: number;
  headHash: string;
  signedAt: number;
}

/** The signed text of an export's head: the last place and link it holds, so a cut tail shows. */
export function exportHeadText(h: ExportHeadStatement): string {
  return [
    'gatehouse-audit-export-head/1',
    h.tenant,
    h.headSeq,
    h.headHash,
    new Date(h.signedAt).toISOString(),
  ].join('\n');
}
