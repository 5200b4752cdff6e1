import { useCallback, useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import type { ApiOperation } from '../../../../api/types.js';
import { CorsSection } from '../cors/CorsSection.js';
import type { EntryDraft } from '../draft/editor-draft.js';
import { entryProblems } from '../draft/entry-problems.js';
import { unshownMessages, type ProblemSources } from '../draft/field-problems.js';
import type { FieldMessages } from '../draft/save-errors.js';
import { HeaderEntriesTable } from '../headers/HeaderEntriesTable.js';
import type { SampleDraft } from '../preview/preview-request.js';
import { TargetUrlPreview } from '../preview/TargetUrlPreview.js';
import { useTargetPreview } from '../preview/use-target-preview.js';
import type { ReferenceItem } from '../references/reference-catalog.js';
import { AdvancedSettings } from './AdvancedSettings.js';
import { TargetSections } from './TargetSections.js';
import { WebSocketSetting } from './WebSocketSetting.js';
import { OpenReferenceContext } from '../references/open-reference-context.js';
import type { OpenReference } from '../preview/TargetUrlPreview.js';

export interface EntryEditorProps {
  apiId: string;
  basePath: string;
  entryKey: string;
  /** The selected operation; absent for All operations. */
  operation: ApiOperation | undefined;
  entry: EntryDraft;
  onChange: (entry: EntryDraft) => void;
  references: readonly ReferenceItem[];
  /** The last refused save's messages for this entry that still apply. */
  savedMessages: FieldMessages;
  sample: SampleDraft;
  onSampleChange: (sample: SampleDraft) => void;
  readOnly: boolean;
}

/**
 * The configuration of one item: target URL with its live preview, header entries, CORS, WebSocket, advanced
 * settings.
 */
export function EntryEditor({
  apiId,
  basePath,
  entryKey,
  operation,
  entry,
  onChange,
  references,
  savedMessages,
  sample,
  onSampleChange,
  readOnly,
}: EntryEditorProps) {
  const preview = useTargetPreview(apiId, entryKey, entry, sample);
  const local = useMemo(() => entryProblems(entry), [entry]);
  const sources: ProblemSources = { entry, preview: preview.result, saved: savedMessages, local };
  const others = unshownMessages(savedMessages);
  const change = (part: Partial<EntryDraft>) => onChange({ ...entry, ...part });
  // Which template field holds a reference still being typed at its caret (the preview waits on its errors).
  const [typing, setTyping] = useState<{ field: string; from: number } | undefined>(undefined);
  const reportOpenReference = useCallback((field: string, from: number | undefined) => {
    setTyping((current) => {
      if (from !== undefined) return { field, from };
      return current?.field === field ? undefined : current;
    });
  }, []);
  const rowKeys = preview.result?.rowKeys ?? [];
  const openReference: OpenReference | undefined =
    typing &&
    (typing.field.startsWith('row:')
      ? { place: `header:${rowKeys.indexOf(Number(typing.field.slice(4)))}`, from: typing.from }
      : { place: typing.field, from: typing.from });

  return (
    <OpenReferenceContext value={reportOpenReference}>
      <Stack spacing={3}>
        {others.length > 0 ? (
          <Alert severity="error">
            {others.map((message) => (
              <div key={message}>{message}</div>
            ))}
          </Alert>
        ) : null}
        <TargetSections
          target={entry.target}
          onChange={(target) => change({ target })}
          references={references}
          sources={sources}
          readOnly={readOnly}
        />
        <TargetUrlPreview
          preview={preview}
          sample={sample}
          onSampleChange={onSampleChange}
          defaultMethod={operation?.method.toUpperCase() ?? 'GET'}
          defaultUrl={operation ? operation.path.replace(/\{([^}]*)\}/g, 'sample-$1') : '/sample-path'}
          basePath={basePath}
          headerRowKeys={entry.headers.map((row) => row.key)}
          openReference={openReference}
        />
        <HeaderEntriesTable
          headers={entry.headers}
          onChange={(headers) => change({ headers })}
          references={references}
          sources={sources}
          readOnly={readOnly}
        />
        <CorsSection
          cors={entry.cors}
          onChange={(cors) => change({ cors })}
          sources={sources}
          readOnly={readOnly}
        />
        <WebSocketSetting
          allowWebSocket={entry.allowWebSocket}
          onChange={(allowWebSocket) => change({ allowWebSocket })}
          readOnly={readOnly}
        />
        <AdvancedSettings entry={entry} onChange={change} sources={sources} readOnly={readOnly} />
      </Stack>
    </OpenReferenceContext>
  );
}
