import { useState } from 'react';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import CheckIcon from '@mui/icons-material/Check';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { useNotifier } from '../notifications/notifier-context.js';

export interface CopyButtonProps {
  text: string;
  /** Accessible name, e.g. "Copy client secret". */
  label: string;
  variant?: 'icon' | 'button';
}

export function CopyButton({ text, label, variant = 'icon' }: CopyButtonProps) {
  const [copied, setCopied] = useState(false);
  const { notifyError } = useNotifier();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch (error) {
      notifyError(error, 'Copying to the clipboard failed');
    }
  };
  const icon = copied ? <CheckIcon fontSize="small" /> : <ContentCopyIcon fontSize="small" />;
  if (variant === 'button') {
    return (
      <Button variant="outlined" size="small" startIcon={icon} onClick={() => void copy()}>
        {copied ? 'Copied' : label}
      </Button>
    );
  }
  return (
    <Tooltip title={copied ? 'Copied' : label}>
      <IconButton aria-label={label} size="small" onClick={() => void copy()}>
        {icon}
      </IconButton>
    </Tooltip>
  );
}
