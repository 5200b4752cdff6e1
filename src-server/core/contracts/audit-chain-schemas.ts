import * as z from 'zod';

export const CHAIN_BREAK_KINDS = ['edited', 'removed', 'inserted', 'reordered'] as const;

const ChainBreakSchema = z
  .object({
    kind: z.enum(CHAIN_BREAK_KINDS).meta({ description: 'What happened at the first broken link.' }),
    seq: z.int().meta({
      description: "The place in the tenant's chain where it breaks (0 for an entry that has no place).",
    }),
    entryId: z.int().optional().meta({ description: 'The entry there, when one is.' }),
    message: z.string().meta({ description: 'What the verifier found, in words.' }),
  })
  .meta({ id: 'AuditChainBreak' });

export const AuditChainVerdictSchema = z
  .object({
    tenant: z.string(),
    intact: z
      .boolean()
      .meta({ description: 'Whether every link, removal record and checkpoint checks out.' }),
    entries: z.int().meta({ description: 'Entries whose links were checked.' }),
    removedByPolicy: z.int().meta({
      description: 'Entries removed by retention or a history removal, bridged by signed removal records.',
    }),
    checkpoints: z.int().meta({ description: 'Signed checkpoints of the chain.' }),
    lastCheckpoint: z
      .object({ seq: z.int(), signedAt: z.string().meta({ format: 'date-time' }) })
      .optional()
      .meta({ description: 'The newest checkpoint.' }),
    broken: ChainBreakSchema.optional().meta({ description: 'The first broken link, when not intact.' }),
  })
  .meta({ id: 'AuditChainVerdict' });
export type AuditChainVerdictDto = z.output<typeof AuditChainVerdictSchema>;

export const AuditChainVerificationSchema = z
  .object({
    intact: z.boolean().meta({ description: 'Whether every verified chain is intact.' }),
    publicKey: z
      .string()
      .meta({ description: 'The public key checkpoints must be signed with (Ed25519, SPKI DER, base64).' }),
    items: z.array(AuditChainVerdictSchema).meta({ description: 'One verdict per tenant.' }),
  })
  .meta({ id: 'AuditChainVerification' });
export type AuditChainVerification = z.output<typeof AuditChainVerificationSchema>;

export const AuditVerificationRunSchema = z
  .object({
    id: z.string().meta({ description: 'The run, for `GET /api/v1/audit-log/verification/runs/{id}`.' }),
    tenant: z.string().meta({ description: 'The tenant verified, or `*` for every tenant.' }),
    state: z
      .enum(['running', 'done', 'failed'])
      .meta({ description: '`done` carries the verdict in `result`; `failed` says why in `failure`.' }),
    startedAt: z.string().meta({ format: 'date-time' }),
    progress: z
      .object({
        checked: z.int().meta({ description: 'Entries walked over so far.' }),
        total: z.int().meta({ description: 'Entries to walk over, counted when the run started.' }),
        tenant: z.string().optional().meta({ description: 'The tenant being walked.' }),
      })
      .meta({ description: 'How far the run is.' }),
    result: AuditChainVerificationSchema.optional(),
    failure: z.string().optional(),
  })
  .meta({ id: 'AuditVerificationRun' });
export type AuditVerificationRun = z.output<typeof AuditVerificationRunSchema>;

export const VerificationRunParams = z.object({ runId: z.string().min(1).max(100) });
