import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { memo, type ReactNode } from 'react';
import type {
  AuditEntry,
  AuditEntryChanges as AuditEntryChangesData,
  AuditResource,
} from '../../api/types.js';
import { CopyButton } from '../../components/CopyButton.js';
import { DetailsDrawer, DetailsDrawerHeader } from '../../components/DetailsDrawer.js';
import { DetailsField, DetailsList } from '../../components/DetailsList.js';
import { formatLocal, formatUtc } from '../../format/date-time.js';
import { MONOSPACE_FONT } from '../../theme/theme.js';
import { CATEGORY_LABEL, statusColor } from './audit-columns.js';
import { auditViewHref } from './audit-view.js';
import { AuditChangesView, AuditEntryChanges } from './AuditEntryChanges.js';

function Section({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Box component="section" sx={{ mt: 3 }}>
      <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="h3" sx={{ flexGrow: 1 }}>
          {title}
        </Typography>
        {action}
      </Stack>
      {children}
    </Box>
  );
}

/** An entry of an opened export file rather than of the live trail. */
export interface AuditFileDrawerMode {
  /** "Everything that touched it" filters the file rather than the live trail. */
  onShowResource: (resource: AuditResource) => void;
  /** "What changed", worked out over the file's entries: the server never saw them. */
  changesOf: (entry: AuditEntry) => AuditEntryChangesData;
}

export interface AuditEntryDrawerProps {
  entry: AuditEntry | undefined;
  onClose: () => void;
  inFile?: AuditFileDrawerMode;
}

/** One entry in full: who, when, status, affected resources, agent group and the request parameters. */
export const AuditEntryDrawer = memo(function AuditEntryDrawer({
  entry,
  onClose,
  inFile,
}: AuditEntryDrawerProps) {
  const parametersJson = entry ? JSON.stringify(entry.parameters, null, 2) : '';
  return (
    <DetailsDrawer open={entry !== undefined} titleId="audit-entry-title" onClose={onClose}>
      {entry ? (
        <>
          <DetailsDrawerHeader
            titleId="audit-entry-title"
            overline={`Audit entry ${entry.id}`}
            title={entry.actionName}
            onClose={onClose}
          />
          {entry.description ? <Typography sx={{ mt: 1 }}>{entry.description}</Typography> : null}
          <DetailsList>
            {entry.sourceId === undefined ? null : (
              <DetailsField label="Id at the source" testId="audit-entry-source-id">
                {entry.sourceId}
              </DetailsField>
            )}
            <DetailsField label="Time (UTC)">{formatUtc(entry.timestamp, true)}</DetailsField>
            <DetailsField label="Local time">{formatLocal(entry.timestamp)}</DetailsField>
            <DetailsField label="User">{entry.userName}</DetailsField>
            <DetailsField label="Category">{CATEGORY_LABEL[entry.category]}</DetailsField>
            <DetailsField label="Status">
              {entry.statusCode === undefined ? (
                '—'
              ) : (
                <Chip size="small" color={statusColor(entry.statusCode)} label={entry.statusCode} />
              )}
            </DetailsField>
            <DetailsField label="Agent group">
              {entry.agentGroup ? `${entry.agentGroup.name} (${entry.agentGroup.id})` : 'None recorded'}
            </DetailsField>
            <DetailsField label="Instance">{entry.instance ?? 'None recorded'}</DetailsField>
          </DetailsList>
          <Divider sx={{ mt: 3 }} />
          <Section title="Affected resources">
            {entry.resources.length === 0 ? (
              <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                None recorded.
              </Typography>
            ) : (
              <List dense disablePadding>
                {entry.resources.map((resource) => (
                  <ListItem
                    key={`${resource.type}:${resource.id}`}
                    disableGutters
                    secondaryAction={
                      inFile ? (
                        <Link
                          component="button"
                          onClick={() => {
                            inFile.onShowResource(resource);
                            onClose();
                          }}
                          variant="body2"
                          aria-label={`Everything in the file that touched ${resource.type} ${resource.name ?? resource.id}`}
                        >
                          Everything that touched it
                        </Link>
                      ) : (
                        <Link
                          href={auditViewHref({
                            ...(entry.tenant ? { tenant: entry.tenant } : {}),
                            resource: `${resource.type}:${resource.id}`,
                          })}
                          onClick={onClose}
                          variant="body2"
                          aria-label={`Everything that touched ${resource.type} ${resource.name ?? resource.id}`}
                        >
                          Everything that touched it
                        </Link>
                      )
                    }
                  >
                    <ListItemText
                      primary={resource.name ?? resource.id}
                      secondary={`${resource.type} · ${resource.id}`}
                      sx={{ pr: 18 }}
                    />
                  </ListItem>
                ))}
              </List>
            )}
          </Section>
          <Section title="What changed">
            {inFile ? (
              <AuditChangesView changes={inFile.changesOf(entry)} />
            ) : (
              <AuditEntryChanges key={`${entry.tenant ?? ''}:${entry.id}`} entry={entry} />
            )}
          </Section>
          <Section title="Parameters" action={<CopyButton text={parametersJson} label="Copy parameters" />}>
            <Box
              component="pre"
              data-testid="audit-entry-parameters"
              tabIndex={0}
              aria-label="Parameters as JSON"
              sx={{
                fontFamily: MONOSPACE_FONT,
                fontSize: '0.8125rem',
                bgcolor: 'action.hover',
                p: 2,
                m: 0,
                borderRadius: 1,
                overflow: 'auto',
                maxHeight: 420,
              }}
            >
              {parametersJson}
            </Box>
          </Section>
        </>
      ) : null}
    </DetailsDrawer>
  );
});
