import type { CreatedApiKey, Policy } from '../../../api/types.js';
import { RevealOnceDialog } from '../../../components/RevealOnceDialog.js';

export interface ApiKeyRevealDialogProps {
  created: CreatedApiKey;
  /** The policies it may be sent to, for the header names callers use. */
  policies: Policy[];
  onClose: () => void;
}

function headerNamesFor(created: CreatedApiKey, policies: Policy[]): string[] {
  const relevant = created.apiKey.policyIds.length
    ? policies.filter((policy) => created.apiKey.policyIds.includes(policy.id))
    : policies;
  const names = relevant.flatMap((policy) =>
    policy.grants.flatMap((grant) => (grant.type === 'apiKey' ? [grant.headerName] : [])),
  );
  return [...new Set(names)];
}

/** The only time an API key is visible: Gatehouse keeps its first characters and a digest. */
export function ApiKeyRevealDialog({ created, policies, onClose }: ApiKeyRevealDialogProps) {
  const { apiKey, key } = created;
  const headers = headerNamesFor(created, policies);
  return (
    <RevealOnceDialog
      title={`API key “${apiKey.name}” created`}
      warningTitle="Copy the key now"
      warning={
        <>
          It is shown only this once. Gatehouse keeps only its first characters ({apiKey.prefix}…) and a
          digest; if it is lost, revoke it and create another.
        </>
      }
      values={[{ label: 'API key', value: key, copyLabel: 'Copy API key' }]}
      usage={
        headers.length > 0
          ? `Callers send it in the ${headers.join(' or ')} header.`
          : 'Callers send it in the header named by an API-key grant of a policy.'
      }
      onClose={onClose}
    />
  );
}
