import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import DeleteOutlinedIcon from '@mui/icons-material/DeleteOutlined';
import type { ApiDefinition } from '../../../api/types.js';
import { passthroughApi } from '../../../api/passthrough-endpoints.js';
import type { Passthrough } from '../../../api/types.js';
import type { AgentGroup, EnvironmentVariable, Policy } from '../../../api/types.js';
import { ConfirmDeleteDialog } from '../../../components/ConfirmDeleteDialog.js';
import { useNotifier } from '../../../notifications/notifier-context.js';
import { useLocation } from '../../../router/hooks.js';
import { useApiClient, useCan } from '../../../session/session-context.js';
import { ALL_OPERATIONS, entryDraftFor, toEntry } from './draft/editor-draft.js';
import { entriesWithProblems } from './draft/entry-problems.js';
import { currentFieldMessages } from './draft/save-errors.js';
import { usePassthroughDraft } from './draft/use-passthrough-draft.js';
import { errorText } from './error-text.js';
import { EditorHeader } from './EditorHeader.js';
import { EntryPanel } from './entry/EntryPanel.js';
import { LeaveDialog } from './guard/LeaveDialog.js';
import { useUnsavedChangesGuard } from './guard/use-unsaved-changes-guard.js';
import { operationItems } from './operations/operation-items.js';
import { OperationList } from './operations/OperationList.js';
import { EMPTY_SAMPLE, type SampleDraft } from './preview/preview-request.js';
import { buildReferenceCatalog } from './references/reference-catalog.js';
import { AccessPolicyOption } from './save/AccessPolicyOption.js';
import { grantOf, initialPolicyChoice, policiesCovering, type PolicyChoice } from './save/policy-choice.js';
import { SaveBar } from './save/SaveBar.js';
import { SaveFeedback } from './save/SaveFeedback.js';
import { saveFailureSummary } from './save/save-summary.js';
import { useSavePassthrough } from './save/use-save-passthrough.js';
import { useEditorShortcuts } from './use-editor-shortcuts.js';

export interface PassthroughEditorProps {
  api: ApiDefinition;
  loaded: Passthrough | null;
  variables: EnvironmentVariable[];
  agentGroups: AgentGroup[] | undefined;
  policies: Policy[] | undefined;
  onPoliciesChanged: () => void;
  /** Loads the saved configuration again (after a concurrent change). */
  onReload: () => void;
}

/** The loaded editor: operations on the left, the selected item's configuration on the right, save at the bottom. */
export function PassthroughEditor({
  api,
  loaded,
  variables,
  agentGroups,
  policies,
  onPoliciesChanged,
  onReload,
}: PassthroughEditorProps) {
  const client = useApiClient();
  const can = useCan();
  const { notify } = useNotifier();
  const { pathname } = useLocation();
  const [current, setCurrent] = useState<Passthrough | null>(loaded);
  const { draft, dirty, setEntry, discard } = usePassthroughDraft(current);
  const [selectedKey, setSelectedKey] = useState(ALL_OPERATIONS);
  const [filter, setFilter] = useState('');
  const deferredFilter = useDeferredValue(filter);
  const [samples, setSamples] = useState<Record<string, SampleDraft>>({});
  const [chosenPolicy, setChosenPolicy] = useState<PolicyChoice | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [localProblem, setLocalProblem] = useState<string | undefined>(undefined);
  const exists = current !== null;
  const readOnly = !can(exists ? 'Passthroughs.Modify' : 'Passthroughs.Create');
  const guard = useUnsavedChangesGuard(dirty, pathname);

  const covering = useMemo(() => (policies ? policiesCovering(api, policies) : undefined), [api, policies]);
  const canAddPolicy = can('Policies.Create') && (!exists || api.agentGroupIds.length > 0);
  const policy =
    chosenPolicy ?? initialPolicyChoice(canAddPolicy && (covering ? covering.length === 0 : !exists));

  const onSaved = useCallback(
    (saved: Passthrough) => {
      setCurrent(saved);
      setChosenPolicy(null);
      onPoliciesChanged();
    },
    [onPoliciesChanged],
  );
  const saver = useSavePassthrough(api, current, onSaved);

  const operation = api.operations.find((candidate) => candidate.key === selectedKey);
  const entryKey = operation ? selectedKey : ALL_OPERATIONS;
  const entry = entryDraftFor(draft, entryKey);
  const references = useMemo(
    () =>
      buildReferenceCatalog(
        variables,
        operation
          ? { kind: 'operation', pathParameters: operation.pathParameters }
          : { kind: 'allOperations' },
      ),
    [variables, operation],
  );
  const errorEntries = useMemo(() => new Set(Object.keys(saver.errors?.byEntry ?? {})), [saver.errors]);
  const items = useMemo(
    () => operationItems(api.operations, draft, errorEntries, deferredFilter),
    [api.operations, draft, errorEntries, deferredFilter],
  );
  const shortcutRoot = useRef<HTMLDivElement>(null);
  const itemKeys = useMemo(() => items.map((item) => item.key), [items]);
  useEditorShortcuts({ itemKeys, selectedKey: entryKey, onSelect: setSelectedKey, root: shortcutRoot });
  const savedMessages = currentFieldMessages(saver.errors, entryKey, entry ? toEntry(entry) : undefined);
  const hasEntry = (key: string) => entryDraftFor(draft, key) !== undefined;

  // A refused save shows an entry with problems when the selected one has none.
  const errors = saver.errors;
  useEffect(() => {
    if (!errors || errors.byEntry[selectedKey]) return;
    const first = Object.keys(errors.byEntry)[0];
    if (first !== undefined) setSelectedKey(first);
    // Only when a new refusal arrives, not when the user moves on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [errors]);

  // After a refused save the first field with a problem comes into view (else the message above the editor).
  const editorRef = useRef<HTMLDivElement>(null);
  const feedbackRef = useRef<HTMLDivElement>(null);
  const showProblem = useCallback(() => {
    const field = editorRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    (field ?? feedbackRef.current)?.scrollIntoView({ block: 'center' });
    field?.focus({ preventScroll: true });
  }, []);
  const [revealProblem, setRevealProblem] = useState(false);
  useEffect(() => {
    if (saver.failure !== undefined || localProblem !== undefined) setRevealProblem(true);
  }, [saver.failure, localProblem]);
  useEffect(() => {
    if (!revealProblem) return;
    setRevealProblem(false);
    showProblem();
  }, [revealProblem, showProblem]);

  const save = useCallback(() => {
    const withProblems = entriesWithProblems(draft);
    if (withProblems.length > 0) {
      setLocalProblem('Correct the marked fields first.');
      if (!withProblems.includes(entryKey)) setSelectedKey(withProblems[0]!);
      return;
    }
    setLocalProblem(undefined);
    void saver.save(draft, policy);
  }, [draft, entryKey, policy, saver]);

  return (
    <Box ref={shortcutRoot}>
      <EditorHeader
        api={api}
        exists={exists}
        agentGroups={agentGroups}
        readOnly={readOnly}
        actions={
          exists && can('Passthroughs.Delete') ? (
            <Button
              color="error"
              startIcon={<DeleteOutlinedIcon />}
              onClick={() => setDeleting(true)}
              sx={errorText}
            >
              Delete Passthrough
            </Button>
          ) : null
        }
      />
      <Box sx={{ mb: 2, scrollMarginTop: 96 }} aria-live="polite" ref={feedbackRef}>
        {localProblem ? (
          <Paper role="alert" sx={(theme) => ({ p: 1.5, ...errorText(theme) })}>
            {localProblem}
          </Paper>
        ) : null}
        <SaveFeedback
          failure={saver.failure}
          errors={saver.errors}
          hasEntry={hasEntry}
          onShowEntry={setSelectedKey}
          onReload={onReload}
          onDismiss={saver.dismiss}
        />
      </Box>
      {can('Policies.Create') ? (
        <Paper variant="outlined" sx={{ p: 2, mb: 3 }}>
          <AccessPolicyOption
            choice={policy}
            onChange={setChosenPolicy}
            covering={covering}
            sameRequest={!exists}
            disabled={readOnly || !canAddPolicy}
          />
        </Paper>
      ) : null}
      <Box
        ref={editorRef}
        sx={{
          display: 'grid',
          // Side by side from 1200 px; narrower windows put the list above the configuration.
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(260px, 340px) minmax(0, 1fr)' },
          gap: 3,
          alignItems: 'start',
        }}
      >
        <Box
          sx={{
            position: { lg: 'sticky' },
            top: 88,
            height: { xs: 360, lg: 'calc(100vh - 180px)' },
            minHeight: 360,
          }}
        >
          <OperationList
            items={items}
            operationCount={api.operations.length}
            selectedKey={entryKey}
            onSelect={setSelectedKey}
            filter={filter}
            onFilterChange={setFilter}
            allOperationsConfigured={draft.allOperations !== undefined}
          />
        </Box>
        <EntryPanel
          apiId={api.id}
          basePath={api.basePath}
          entryKey={entryKey}
          operation={operation}
          draft={draft}
          entry={entry}
          setEntry={setEntry}
          references={references}
          savedMessages={savedMessages}
          sample={samples[entryKey] ?? EMPTY_SAMPLE}
          onSampleChange={(sample) => setSamples((all) => ({ ...all, [entryKey]: sample }))}
          readOnly={readOnly}
          dirty={dirty}
          draftPolicy={policy.add && canAddPolicy ? { grants: [grantOf(policy)] } : undefined}
        />
      </Box>
      <SaveBar
        dirty={dirty}
        canSave={dirty || (exists && policy.add)}
        saving={saver.saving}
        readOnly={readOnly}
        exists={exists}
        onSave={save}
        problem={saveFailureSummary(saver.failure, saver.errors, hasEntry, localProblem)}
        onShowProblem={showProblem}
        onDiscard={() => {
          discard();
          saver.dismiss();
          setLocalProblem(undefined);
        }}
      />
      <LeaveDialog open={guard.asking} onLeave={guard.leave} onStay={guard.stay} />
      {deleting ? (
        <ConfirmDeleteDialog
          title={`Delete the Passthrough configuration of ${api.name}?`}
          failureContext="Deleting the configuration"
          onDelete={() => passthroughApi.remove(client, api.id)}
          onDeleted={() => {
            setDeleting(false);
            setCurrent(null);
            notify({ severity: 'success', title: `Passthrough of “${api.name}” deleted` });
          }}
          onClose={() => setDeleting(false)}
        >
          Requests to {api.basePath} are no longer forwarded. The API definition stays.
        </ConfirmDeleteDialog>
      ) : null}
    </Box>
  );
}
