import { useState } from 'react';

/**
 * A dialog form's submission: whether it was tried (so field problems show), whether it is saving, and the
 * failure to show. After a success the dialog is expected to close, so `saving` stays on.
 */
export function useFormSubmission() {
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>(undefined);

  const submit = async (valid: boolean, save: () => Promise<void>) => {
    setSubmitted(true);
    setError(undefined);
    if (!valid) return;
    setSaving(true);
    try {
      await save();
    } catch (failure) {
      setError(failure);
      setSaving(false);
    }
  };

  return { submitted, saving, error, submit };
}
