import type { AppRegistrationWithSecret } from '../../../api/types.js';
import { RevealOnceDialog } from '../../../components/RevealOnceDialog.js';

export interface SecretRevealDialogProps {
  credentials: AppRegistrationWithSecret;
  /** "created" or "rotated", for the title. */
  reason: 'created' | 'rotated';
  onClose: () => void;
}

/** The only time a client secret is visible: Gatehouse keeps just its hash. */
export function SecretRevealDialog({ credentials, reason, onClose }: SecretRevealDialogProps) {
  const { registration, clientSecret } = credentials;
  return (
    <RevealOnceDialog
      title={
        reason === 'created'
          ? `Registration “${registration.name}” created`
          : `New secret for “${registration.name}”`
      }
      warningTitle="Copy the client secret now"
      warning="It is shown only this once. Gatehouse keeps only a hash of it; if it is lost, rotate the secret to get a new one."
      values={[
        { label: 'Client ID', value: registration.clientId, copyLabel: 'Copy client ID' },
        { label: 'Client secret', value: clientSecret, copyLabel: 'Copy client secret' },
      ]}
      usage={
        <>
          Use them with the client-credentials grant at <code>/oauth2/token</code>.
          {reason === 'rotated' ? ' The previous secret no longer works.' : ''}
        </>
      }
      onClose={onClose}
    />
  );
}
