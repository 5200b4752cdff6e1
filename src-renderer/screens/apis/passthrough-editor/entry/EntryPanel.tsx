import { useEffect, useId, useRef } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlinedIcon from '@mui/icons-material/DeleteOutlined';
import type { ApiOperation, InlinePolicy } from '../../../../api/types.js';
import { MONOSPACE_FONT } from '../../../../theme/theme.js';
import { MethodBadge } from '../../MethodBadge.js';
import { errorText } from '../error-text.js';
import {
  ALL_OPERATIONS,
  copyEntryDraft,
  emptyEntryDraft,
  type EntryDraft,
  type PassthroughDraft,
  toConfiguration,
} from '../draft/editor-draft.js';
import type { FieldMessages } from '../draft/save-errors.js';
import type { SampleDraft } from '../preview/preview-request.js';
import type { ReferenceItem } from '../references/reference-catalog.js';
import { TryItPanel } from '../try-it/TryItPanel.js';
import { EntryEditor } from './EntryEditor.js';

export interface EntryPanelProps {
  apiId: string;
  basePath: string;
  entryKey: string;
  operation: ApiOperation | undefined;
  draft: PassthroughDraft;
  entry: EntryDraft | undefined;
  setEntry: (key: string, entry: EntryDraft | undefined) => void;
  references: readonly ReferenceItem[];
  savedMessages: FieldMessages;
  sample: SampleDraft;
  onSampleChange: (sample: SampleDraft) => void;
  readOnly: boolean;
  /** The draft differs from the saved configuration: Try it may send it instead. */
  dirty: boolean;
  /** The access policy the save would create: a tried draft gets it too. */
  draftPolicy?: InlinePolicy | undefined;
}

function NoEntry({
  operation,
  draft,
  readOnly,
  onCreate,
}: {
  operation: ApiOperation | undefined;
  draft: PassthroughDraft;
  readOnly: boolean;
  onCreate: () => void;
}) {
  const inherits = draft.allOperations !== undefined;
  let text: string;
  if (!operation)
    text = 'All operations is not configured: only operations with their own entry are forwarded.';
  else if (inherits)
    text = 'This operation has no entry of its own: it is forwarded with the All operations configuration.';
  else text = 'This operation is not forwarded: neither it nor All operations has an entry.';
  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Typography sx={{ mb: 2 }}>{text}</Typography>
      <Button variant="contained" startIcon={<AddIcon />} onClick={onCreate} disabled={readOnly}>
        {!operation
          ? 'Configure All operations'
          : inherits
            ? 'Create an entry from the All operations defaults'
            : 'Create an entry for this operation'}
      </Button>
    </Paper>
  );
}

/** The right-hand side: the selected item's configuration (or the way to create one), then "Try it". */
export function EntryPanel(props: EntryPanelProps) {
  const { apiId, basePath, entryKey, operation, draft, entry, setEntry, readOnly } = props;
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const focusHeading = useRef(false);
  useEffect(() => {
    if (!focusHeading.current) return;
    focusHeading.current = false;
    headingRef.current?.focus();
  }, [entry]);

  const create = () => {
    focusHeading.current = true;
    const template =
      operation && draft.allOperations ? copyEntryDraft(draft.allOperations) : emptyEntryDraft();
    setEntry(entryKey, template);
  };
  const remove = () => {
    focusHeading.current = true;
    setEntry(entryKey, undefined);
  };

  return (
    <Box component="section" aria-labelledby={headingId} sx={{ minWidth: 0 }}>
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 2, mb: 2, flexWrap: 'wrap' }}>
        <Box sx={{ flex: 1, minWidth: 240 }}>
          <Typography
            variant="h2"
            id={headingId}
            ref={headingRef}
            tabIndex={-1}
            data-entry-heading
            sx={{ display: 'flex', alignItems: 'center', gap: 1, outline: 'none', wordBreak: 'break-all' }}
          >
            {operation ? (
              <>
                <MethodBadge method={operation.method} />
                <Box component="span" sx={{ fontFamily: MONOSPACE_FONT, fontSize: '1.05rem' }}>
                  {operation.path}
                </Box>
              </>
            ) : (
              'All operations'
            )}
          </Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }}>
            {operation
              ? [operation.summary, operation.operationId && `operationId ${operation.operationId}`]
                  .filter(Boolean)
                  .join(' · ') || 'An operation of the API.'
              : `The base path ${basePath} acts as a proxy: the rest of the incoming path and the query can be forwarded.`}
          </Typography>
        </Box>
        {entry ? (
          <Button
            color="error"
            startIcon={<DeleteOutlinedIcon />}
            onClick={remove}
            disabled={readOnly}
            sx={errorText}
          >
            {operation ? "Remove this operation's entry" : 'Remove the All operations entry'}
          </Button>
        ) : null}
      </Box>
      {entry ? (
        <EntryEditor
          apiId={apiId}
          basePath={basePath}
          entryKey={entryKey}
          operation={operation}
          entry={entry}
          onChange={(changed) => setEntry(entryKey, changed)}
          references={props.references}
          savedMessages={props.savedMessages}
          sample={props.sample}
          onSampleChange={props.onSampleChange}
          readOnly={readOnly}
        />
      ) : (
        <NoEntry operation={operation} draft={draft} readOnly={readOnly} onCreate={create} />
      )}
      <Divider sx={{ my: 4 }} />
      <TryItPanel
        unsaved={
          props.dirty
            ? { ...toConfiguration(draft), ...(props.draftPolicy ? { policy: props.draftPolicy } : {}) }
            : undefined
        }
        apiId={apiId}
        method={operation?.method ?? 'GET'}
        path={entryKey === ALL_OPERATIONS || !operation ? '/' : operation.path}
      />
    </Box>
  );
}
