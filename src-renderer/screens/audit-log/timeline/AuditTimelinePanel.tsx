import { memo, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import type { AuditLogFilter, AuditTimelineSplit } from '../../../api/types.js';
import { ProblemAlert } from '../../../components/ProblemAlert.js';
import { AuditTimelineTable } from './AuditTimelineTable.js';
import { SPLIT_LABEL, everyNthTick, narrowedTo, timelineLabel, timelineSummary } from './timeline-data.js';
import { useAuditTimeline } from './use-audit-timeline.js';

export interface AuditTimelinePanelProps {
  filter: AuditLogFilter;
  onApply: (filter: AuditLogFilter) => void;
}

const SPLITS: AuditTimelineSplit[] = ['action', 'user'];

/**
 * Activity over time above the list: the applied filter's entries per hour or day (the API chooses from the
 * range), stacked by action or by user. Clicking a bar, or "Show only this …" in the table view, narrows the
 * range to that bucket.
 */
export const AuditTimelinePanel = memo(function AuditTimelinePanel({
  filter,
  onApply,
}: AuditTimelinePanelProps) {
  const [splitBy, setSplitBy] = useState<AuditTimelineSplit>('action');
  const [asTable, setAsTable] = useState(false);
  const timeline = useAuditTimeline(filter, splitBy);
  const data = timeline.data;
  const labels = data ? data.buckets.map((bucket) => timelineLabel(bucket.start, data.interval)) : [];
  return (
    <Paper
      variant="outlined"
      component="figure"
      aria-labelledby="audit-timeline-title"
      data-testid="audit-timeline"
      sx={{ m: 0, mb: 2, p: 2 }}
    >
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2 }}>
        <Typography variant="h3" id="audit-timeline-title" sx={{ flexGrow: 1 }}>
          Activity
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={splitBy}
          aria-label="Split the activity"
          onChange={(_event, value: AuditTimelineSplit | null) => {
            if (value) setSplitBy(value);
          }}
        >
          {SPLITS.map((split) => (
            <ToggleButton key={split} value={split}>
              {SPLIT_LABEL[split]}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <Button size="small" aria-expanded={asTable} onClick={() => setAsTable((shown) => !shown)}>
          {asTable ? 'Show as chart' : 'Show as table'}
        </Button>
      </Box>
      <Typography
        component="figcaption"
        variant="body2"
        role="status"
        data-testid="audit-timeline-summary"
        sx={{ color: 'text.secondary' }}
      >
        {data ? timelineSummary(data) : 'Loading the activity…'}
      </Typography>
      {timeline.loading ? <LinearProgress aria-label="Loading the activity" sx={{ mt: 1 }} /> : null}
      {timeline.error ? (
        <ProblemAlert error={timeline.error} context="Loading the activity" onRetry={timeline.reload} />
      ) : null}
      {data && asTable ? (
        <AuditTimelineTable timeline={data} onNarrow={(bucket) => onApply(narrowedTo(filter, bucket))} />
      ) : null}
      {data && !asTable && data.buckets.length > 0 ? (
        <BarChart
          height={200}
          skipAnimation
          xAxis={[{ scaleType: 'band', data: labels, tickInterval: everyNthTick(labels.length) }]}
          yAxis={[{ label: 'Entries', tickMinStep: 1 }]}
          series={data.series.map((series, index) => ({
            id: `series-${index}`,
            label: series.name,
            stack: 'entries',
            data: data.buckets.map((bucket) => bucket.counts[index] ?? 0),
          }))}
          onAxisClick={(_event, axis) => {
            const bucket = axis ? data.buckets[axis.dataIndex] : undefined;
            if (bucket && bucket.total > 0) onApply(narrowedTo(filter, bucket));
          }}
          margin={{ left: 8, right: 16, top: 8, bottom: 8 }}
        />
      ) : null}
    </Paper>
  );
});
